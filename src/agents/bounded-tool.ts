import { keepEnds } from '../domain/kept-output';
import type { AgentTool } from './tool-loop';

/**
 * No tool result crew's own tools give is larger than this, answer or error (#48). Each tool keeps
 * to smaller limits of its own and says them; this is the net under all of them, keeping the head
 * and the tail of whatever slipped past.
 */
export const TOOL_RESULT_BYTES = 50_000;

const fit = (text: string) => keepEnds(text, TOOL_RESULT_BYTES).text;

/** The same tool, its answers and its errors' messages kept within TOOL_RESULT_BYTES. */
export function bounded(tool: AgentTool): AgentTool {
  return {
    ...tool,
    async run(input, facts) {
      try {
        return fit(await tool.run(input, facts));
      } catch (e) {
        if (e instanceof Error && Buffer.byteLength(e.message) > TOOL_RESULT_BYTES) e.message = fit(e.message);
        throw e;
      }
    },
  };
}
