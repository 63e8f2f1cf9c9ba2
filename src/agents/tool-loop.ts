import { addUsage, ZERO_USAGE, type Usage } from '../domain/run-state';
import type { ContentBlock, Log, Message, Model, ToolResultBlock, ToolSpec, ToolUseBlock } from '../ports';

export interface AgentTool {
  spec: ToolSpec;
  /** Returns the text the model sees; a thrown error reaches the model as an `is_error` result. */
  run(input: unknown): Promise<string> | string;
  /** A successful call ends the loop (report_result, submit_plan). */
  final?: boolean;
}

export interface LoopOptions {
  model: Model;
  modelId: string;
  system: string;
  tools: AgentTool[];
  firstMessage: string;
  maxTurns: number;
  maxTokens?: number;
  log: Log;
  /** Called once a turn with the running totals, so budgets and progress can be tracked. */
  onTurn?: (turn: number, usage: Usage) => void;
  /** What to tell the model when it stops without calling the final tool. */
  nudge?: string;
}

export interface LoopOutcome {
  stop: 'final' | 'max_turns' | 'no_final';
  turns: number;
  usage: Usage;
  finalInput?: unknown;
  toolCalls: Record<string, number>;
  messages: Message[];
}

/**
 * The agent loop: ask the model, run the tools it calls, send the results back,
 * until a final tool succeeds or the turn limit is reached. Tool failures go back
 * to the model as errors it can read; they never end the job.
 */
export async function runToolLoop(o: LoopOptions): Promise<LoopOutcome> {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: o.firstMessage }] }];
  const byName = new Map(o.tools.map((t) => [t.spec.name, t]));
  const toolCalls: Record<string, number> = {};
  let usage = ZERO_USAGE;
  let nudged = false;
  for (let turn = 1; turn <= o.maxTurns; turn++) {
    const reply = await o.model.complete({
      model: o.modelId,
      system: o.system,
      tools: o.tools.map((t) => t.spec),
      messages,
      maxTokens: o.maxTokens ?? 8192,
    });
    usage = addUsage(usage, reply.usage);
    o.onTurn?.(turn, usage);
    // Empty text blocks are rejected by the API if sent back.
    const content = reply.content.filter((b) => !(b.type === 'text' && b.text.trim() === ''));
    const uses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (content.length) messages.push({ role: 'assistant', content: content as ContentBlock[] });
    if (uses.length === 0) {
      if (!o.nudge || nudged || content.length === 0) return { stop: 'no_final', turns: turn, usage, toolCalls, messages };
      nudged = true;
      messages.push({ role: 'user', content: [{ type: 'text', text: o.nudge }] });
      continue;
    }
    const results: ToolResultBlock[] = [];
    let finalInput: unknown;
    let finished = false;
    for (const use of uses) {
      toolCalls[use.name] = (toolCalls[use.name] ?? 0) + 1;
      const tool = byName.get(use.name);
      if (!tool) {
        results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: `There is no tool named '${use.name}'. Available tools: ${[...byName.keys()].join(', ')}.` });
        continue;
      }
      try {
        const text = await tool.run(use.input);
        results.push({ type: 'tool_result', tool_use_id: use.id, content: text || '(no output)' });
        if (tool.final) {
          finished = true;
          finalInput = use.input;
        }
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        o.log.info(`tool ${use.name} failed: ${message.split('\n')[0]}`);
        results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: message });
      }
    }
    messages.push({ role: 'user', content: results });
    if (finished) return { stop: 'final', turns: turn, usage, finalInput, toolCalls, messages };
  }
  return { stop: 'max_turns', turns: o.maxTurns, usage, toolCalls, messages };
}
