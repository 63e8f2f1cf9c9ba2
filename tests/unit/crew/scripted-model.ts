import { ZERO_USAGE } from '../../../src/domain/run-state';
import type { Model, ModelReply, ModelRequest } from '../../../src/ports';

/** A Model port that answers the n-th request by calling `tool` with the n-th input, and records every request. */
export function scriptedSubmissions(tool: string, inputs: unknown[]): { model: Model; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  const model: Model = {
    async complete(req): Promise<ModelReply> {
      requests.push(structuredClone(req));
      return {
        content: [{ type: 'tool_use', id: `tu${requests.length}`, name: tool, input: inputs[requests.length - 1] }],
        stopReason: 'tool_use',
        usage: ZERO_USAGE,
      };
    },
  };
  return { model, requests };
}
