import { addUsage, ZERO_USAGE, type Usage } from '../domain/run-state';
import type { ContentBlock, Log, Message, Model, TextBlock, ToolResultBlock, ToolUseBlock } from '../ports';

export interface AgentTool {
  spec: { name: string; description: string; input_schema: Record<string, unknown> };
  /** Returns the text the model sees; a thrown error reaches the model as an `is_error` result. */
  run(input: unknown): Promise<string> | string;
  /** A successful call ends the loop (report_result, submit_plan). */
  final?: boolean;
}

export type LoopStop = 'final' | 'max_turns' | 'no_final' | 'budget' | 'wall_clock' | 'shutdown';

export interface LoopLimits {
  tokens?: number;
  costUsd?: number;
  /** Epoch ms after which no new turn starts. */
  deadline?: number;
  now?: () => number;
}

export interface Compaction {
  /** Input tokens a turn may use; past 60% of it, older turns are summarised. */
  budgetTokens: number;
  summarize(previous: string, messages: Message[]): Promise<{ summary: string; usage: Usage }>;
}

export interface LoopOptions {
  model: Model;
  modelId: string;
  system: string;
  tools: AgentTool[];
  /** Tools this role does not have, with the reason the model is told if it calls one anyway. */
  refused?: Record<string, string>;
  firstMessage: string;
  maxTurns: number;
  maxTokens?: number;
  limits?: LoopLimits;
  log: Log;
  /** Before each turn: notes to add to what the model reads next (teammate messages), or a reason to stop. */
  between?: (turn: number) => Promise<{ notes?: string[]; stop?: 'shutdown' }>;
  compaction?: Compaction;
  /** Called after each turn with the running totals and the size of the prompt just sent. */
  onTurn?: (turn: number, usage: Usage, promptTokens: number) => void;
  /** What to tell the model when it stops without calling the final tool. */
  nudge?: string;
}

export interface LoopOutcome {
  stop: LoopStop;
  turns: number;
  usage: Usage;
  finalInput?: unknown;
  toolCalls: Record<string, number>;
  messages: Message[];
  /** Input tokens of each turn's prompt (uncached + cached + newly cached), for budgets and benchmarks. */
  promptTokens: number[];
  compactions: number;
}

/** Share of the context budget past which older turns are summarised. */
export const COMPACT_AT = 0.6;

/**
 * The agent loop: ask the model, run the tools it calls, send the results back,
 * until a final tool succeeds or a limit is reached. Tool failures go back to the
 * model as errors it can read; they never end the job.
 */
export async function runToolLoop(o: LoopOptions): Promise<LoopOutcome> {
  let summary = '';
  const opening = (): Message => ({ role: 'user', content: [{ type: 'text', text: summary ? `${o.firstMessage}\n\n## Your work so far (summarised)\n${summary}` : o.firstMessage }] });
  let messages: Message[] = [opening()];
  const byName = new Map(o.tools.map((t) => [t.spec.name, t]));
  const toolCalls: Record<string, number> = {};
  const promptTokens: number[] = [];
  let usage = ZERO_USAGE;
  let nudged = false;
  let compactions = 0;
  const now = o.limits?.now ?? Date.now;
  const done = (stop: LoopStop, turns: number, finalInput?: unknown): LoopOutcome => ({ stop, turns, usage, finalInput, toolCalls, messages, promptTokens, compactions });

  for (let turn = 1; turn <= o.maxTurns; turn++) {
    if (o.limits?.deadline !== undefined && now() >= o.limits.deadline) return done('wall_clock', turn - 1);
    if (o.between) {
      const b = await o.between(turn);
      if (b.stop) return done(b.stop, turn - 1);
      if (b.notes?.length) {
        const last = messages.at(-1)!;
        messages[messages.length - 1] = { ...last, content: [...last.content, ...b.notes.map((text): TextBlock => ({ type: 'text', text }))] };
      }
    }
    const reply = await o.model.complete({ model: o.modelId, system: o.system, tools: o.tools.map((t) => t.spec), messages, maxTokens: o.maxTokens ?? 8192 });
    usage = addUsage(usage, reply.usage);
    const sent = reply.usage.inputTokens + reply.usage.cacheReadTokens + reply.usage.cacheWriteTokens;
    promptTokens.push(sent);
    o.onTurn?.(turn, usage, sent);
    // Empty text blocks are rejected by the API if sent back.
    const content = reply.content.filter((b) => !(b.type === 'text' && b.text.trim() === ''));
    const uses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (content.length) messages.push({ role: 'assistant', content: content as ContentBlock[] });
    if (uses.length === 0) {
      if (!o.nudge || nudged || content.length === 0) return done('no_final', turn);
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
        const why = o.refused?.[use.name];
        results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: why ?? `There is no tool named '${use.name}'. Available tools: ${[...byName.keys()].join(', ')}.` });
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
    if (finished) return done('final', turn, finalInput);
    if ((o.limits?.tokens !== undefined && usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens >= o.limits.tokens) || (o.limits?.costUsd !== undefined && usage.costUsd >= o.limits.costUsd)) {
      return done('budget', turn);
    }
    if (o.compaction && sent > o.compaction.budgetTokens * COMPACT_AT && messages.length > 3) {
      // Keep the latest exchange (the assistant turn and its tool results) word for word; summarise the rest.
      const tail = messages.slice(-2);
      const middle = messages.slice(1, -2);
      const s = await o.compaction.summarize(summary, middle);
      usage = addUsage(usage, s.usage);
      summary = s.summary;
      messages = [opening(), ...tail];
      compactions++;
      o.log.info(`compacted the conversation after turn ${turn} (${sent} input tokens)`);
    }
  }
  return done('max_turns', o.maxTurns);
}
