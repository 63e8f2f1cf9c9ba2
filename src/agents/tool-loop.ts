import { addUsage, tokensOf, ZERO_USAGE, type Usage } from '../domain/run-state';
import { IMAGE_TOKENS } from '../domain/images';
import {
  Interrupted,
  type AgentTrajectory,
  type ContentBlock,
  type ImageBlock,
  type Log,
  type Message,
  type Model,
  type TextBlock,
  type ToolFacts,
  type ToolResultBlock,
  type ToolUseBlock,
} from '../ports';
import { logLine } from '../text/log-line';
import { lastTurnNotice, limitsNotice, NOT_IN_LAST_TURN, type LimitKind } from './limits-notice';
import { RepeatWatch } from './repeats';
import { transcript } from './summarizer';

export interface AgentTool {
  spec: { name: string; description: string; input_schema: Record<string, unknown> };
  /**
   * Returns the text the model sees; a thrown error reaches the model as an `is_error` result.
   * `facts` takes what the trajectory records beyond that text (run_command's exit code).
   */
  run(input: unknown, facts?: ToolFacts): Promise<string> | string;
  /** A successful call ends the loop (report_result, submit_plan). */
  final?: boolean;
}

export type LoopStop = 'final' | 'max_turns' | 'no_final' | 'budget' | 'wall_clock' | 'shutdown' | 'error' | 'interrupted' | 'loop';

export interface LoopLimits {
  tokens?: number;
  costUsd?: number;
  /** Epoch ms after which no new turn starts. */
  deadline?: number;
  now?: () => number;
}

export interface Compaction {
  /**
   * Input tokens a turn may use: the model's context window unless `context_budget` sets less. Past
   * 60% of it after a turn, older turns are summarised; and before each request the prompt's size is
   * estimated, so one large tool result cannot push it over (older turns are summarised, then
   * oversized tool results cut).
   */
  budgetTokens: number;
  summarize(previous: string, messages: Message[]): Promise<{ summary: string; usage: Usage }>;
  /** What the work has changed so far (`git diff --stat`), given to the summary and kept word for word in the new conversation. */
  changes?: () => Promise<string>;
}

export interface LoopOptions {
  model: Model;
  modelId: string;
  system: string;
  tools: AgentTool[];
  /** Tools this role does not have, with the reason the model is told if it calls one anyway. */
  refused?: Record<string, string>;
  firstMessage: string;
  /** Images the model sees with the first message, before its text (the API's advice: images first). Kept through compaction. */
  images?: ImageBlock[];
  maxTurns: number;
  maxTokens?: number;
  limits?: LoopLimits;
  log: Log;
  /** Before each turn: notes to add to what the model reads next (teammate messages), or a reason to stop. */
  between?: (turn: number) => Promise<{ notes?: string[]; stop?: 'shutdown' | 'max_turns' }>;
  compaction?: Compaction;
  /** Called after each turn with the running totals and the size of the prompt just sent. */
  onTurn?: (turn: number, usage: Usage, promptTokens: number) => void;
  /** What to tell the model when it stops without calling the final tool. */
  nudge?: string;
  /**
   * An error outside the tools (the model API failing after its retries, compaction, `between`)
   * ends the loop with stop 'error' and what was done so far, instead of throwing; for callers
   * that must save partial work.
   */
  recover?: boolean;
  /**
   * The job is being cancelled: the loop stops at the next safe point (a model call in
   * flight is abandoned; a tool that is running finishes and no further tool starts).
   */
  signal?: AbortSignal;
  /** Records each turn, tool result and compaction of this agent run (docs/trajectories.md). */
  trajectory?: AgentTrajectory;
  /**
   * The worker's way (#49): each tool result carries the turns and budget left, with a warning a few
   * turns before the end; a turn limit or a spent budget leaves one last turn in which only the final
   * tool runs; the same call with the same result three times gets a note, five times stops the loop ('loop').
   */
  tellLimits?: boolean;
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
  /** With stop 'error': what went wrong. */
  error?: string;
  /** Tool results cut before sending because they would not fit in the context budget. */
  cutResults: number;
  /** With `tellLimits`: the limit that ended the work, when the final tool was then called in the last turn. */
  limit?: LimitKind;
}

/** `max_tokens` of an agent's reply unless its role sets one (the planning agents, the critic, the retrospector). */
export const DEFAULT_MAX_TOKENS = 32_000;

/** Share of the context budget past which older turns are summarised. */
export const COMPACT_AT = 0.6;
/** `keep` characters of `text`, half from its head and half from its tail, with a note of the cut between. */
function keepEnds(text: string, keep: number, note: (removed: number) => string): string {
  return `${text.slice(0, Math.ceil(keep / 2))}\n…[${note(text.length - keep)}]…\n${text.slice(-Math.floor(keep / 2))}`;
}

/** The newest messages a fresh conversation repeats word for word (three exchanges of a call and its results). */
const KEEP_MESSAGES = 6;
/** The pre-send guard keeps an estimated prompt under this share of the budget (estimates are rough). */
const SEND_LIMIT = 0.85;
/** Characters per token for the estimate: lower than typical English, so it errs towards too many tokens. */
const CHARS_PER_TOKEN = 3;

/** A rough, deliberately high count of the tokens a request's prompt will take. */
export function estimateTokens(system: string, tools: AgentTool['spec'][], messages: Message[]): number {
  // An image costs what the API charges for it (at most IMAGE_TOKENS), not its base64's length.
  let images = 0;
  const json = JSON.stringify(messages, (key, value: unknown) => {
    if (key === 'source' && typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'base64') {
      images++;
      return null;
    }
    return value;
  });
  return Math.ceil((system.length + JSON.stringify(tools).length + json.length) / CHARS_PER_TOKEN) + images * IMAGE_TOKENS;
}

/**
 * Cuts the largest tool results in `messages[from..]` (head and tail kept, with a note the model
 * reads) until the estimate has shed `overTokens`. Returns how many it cut; the tool_use pairing is
 * untouched. Only messages not yet sent may change: a thinking block is bound to everything sent
 * before it, so editing history the model has seen makes the API refuse the next request.
 */
export function cutToolResults(messages: Message[], overTokens: number, from = 0): number {
  let over = overTokens * CHARS_PER_TOKEN;
  let cut = 0;
  const results = messages
    .flatMap((m, i) => (i < from ? [] : m.content.map((b, j) => ({ b, i, j }))))
    .filter((x): x is { b: ToolResultBlock; i: number; j: number } => x.b.type === 'tool_result')
    .sort((a, b) => b.b.content.length - a.b.content.length);
  for (const { b, i, j } of results) {
    if (over <= 0) break;
    const keep = Math.max(400, b.content.length - over - 400);
    if (keep >= b.content.length) break;
    const text = keepEnds(
      b.content,
      keep,
      (removed) =>
        `crew cut ${removed} characters of this tool result to keep the prompt within the context budget; ask for a smaller part, e.g. read_file with start_line and end_line`,
    );
    const content = [...messages[i]!.content];
    content[j] = { ...b, content: text };
    messages[i] = { ...messages[i]!, content };
    over -= b.content.length - text.length;
    cut++;
  }
  return cut;
}

/**
 * The agent loop: ask the model, run the tools it calls, send the results back,
 * until a final tool succeeds or a limit is reached. Tool failures go back to the
 * model as errors it can read; they never end the job. The trajectory hears how it ended,
 * however it ended.
 */
export async function runToolLoop(o: LoopOptions): Promise<LoopOutcome> {
  try {
    const outcome = await loop(o);
    o.trajectory?.end({ stop: outcome.stop, ...(outcome.error ? { error: outcome.error } : {}) });
    return outcome;
  } catch (e) {
    o.trajectory?.end({ stop: 'error', error: e instanceof Error ? e.message : String(e) });
    throw e;
  }
}

async function loop(o: LoopOptions): Promise<LoopOutcome> {
  return new ToolLoop(o).run();
}

/** One agent run's conversation and counts; `run` asks, runs tools and answers until the loop ends. */
class ToolLoop {
  private summary = '';
  /** What the work has changed, when compacted (git diff --stat). */
  private changes = '';
  /** The newest turns before the last compaction, as text: a fresh conversation cannot hold their tool calls. */
  private lastStep = '';
  private messages: Message[];
  /**
   * How many messages the model has seen in this conversation. The history is append-only: the
   * API binds each thinking block to everything before it (system, tools, earlier messages) and
   * refuses a request in which that changed. Only messages from here on may still be edited.
   */
  private seen = 0;
  private readonly byName: Map<string, AgentTool>;
  private readonly toolCalls: Record<string, number> = {};
  private readonly promptTokens: number[] = [];
  private usage = ZERO_USAGE;
  private nudged = false;
  private compactions = 0;
  private cutResults = 0;
  /** With `tellLimits`, a limit was reached: the next turn is the last, for the report only. */
  private lastTurn: LimitKind | undefined;
  private readonly recent: Array<{ tokens: number; costUsd: number }> = [];
  private readonly repeats = new RepeatWatch();
  private readonly hasFinal: boolean;
  private readonly now: () => number;
  private readonly specs: AgentTool['spec'][];
  private turnsDone = 0;

  constructor(private readonly o: LoopOptions) {
    this.messages = [this.opening()];
    this.byName = new Map(o.tools.map((t) => [t.spec.name, t]));
    this.hasFinal = o.tools.some((t) => t.final);
    this.now = o.limits?.now ?? Date.now;
    this.specs = o.tools.map((t) => t.spec);
  }

  async run(): Promise<LoopOutcome> {
    const o = this.o;
    for (let turn = 1; turn <= o.maxTurns || (this.lastTurn !== undefined && turn === this.turnsDone + 1); turn++) {
      // Tool errors never get here: they went back to the model. This is the model API, compaction or `between`.
      let outcome: LoopOutcome | undefined;
      try {
        outcome = await this.step(turn);
      } catch (e) {
        // The job being cancelled is not an error, wherever the loop was (compaction's model call, `between`).
        if (e instanceof Interrupted || o.signal?.aborted) return this.done('interrupted', this.turnsDone);
        if (!o.recover) throw e;
        return this.done('error', this.turnsDone, undefined, e instanceof Error ? e.message : String(e));
      }
      if (outcome) return outcome;
    }
    return this.done('max_turns', o.maxTurns);
  }

  private opening(): Message {
    const parts = [this.o.firstMessage];
    if (this.summary) parts.push(`## Your work so far (summarised)\n${this.summary}`);
    if (this.changes) parts.push(`## Files changed so far (git diff --stat)\n${this.changes}`);
    if (this.lastStep) parts.push(`## Your latest turns, word for word\n${this.lastStep}\n\nGo on from there.`);
    return { role: 'user', content: [...(this.o.images ?? []), { type: 'text', text: parts.join('\n\n') }] };
  }

  private done(stop: LoopStop, turns: number, finalInput?: unknown, error?: string): LoopOutcome {
    return {
      stop,
      turns,
      usage: this.usage,
      finalInput,
      toolCalls: this.toolCalls,
      messages: this.messages,
      promptTokens: this.promptTokens,
      compactions: this.compactions,
      cutResults: this.cutResults,
      ...(this.lastTurn && stop === 'final' ? { limit: this.lastTurn } : {}),
      ...(error ? { error } : {}),
    };
  }

  private spent(): boolean {
    const limits = this.o.limits;
    return (limits?.tokens !== undefined && tokensOf(this.usage) >= limits.tokens) || (limits?.costUsd !== undefined && this.usage.costUsd >= limits.costUsd);
  }

  private limitsOf() {
    const limits = this.o.limits;
    return {
      ...(limits?.tokens !== undefined ? { tokens: limits.tokens } : {}),
      ...(limits?.costUsd !== undefined ? { costUsd: limits.costUsd } : {}),
    };
  }

  /**
   * After a turn: the limit reached, if any. With `tellLimits` and a final tool, the first time one is
   * reached the model is told and gets one more turn (undefined: go on); otherwise the loop ends.
   */
  private limitReached(turn: number, notes: string[]): LoopOutcome | undefined {
    const o = this.o;
    const kind: LimitKind | undefined = this.spent() ? 'budget' : turn >= o.maxTurns ? 'max_turns' : undefined;
    if (this.lastTurn) return this.done(this.lastTurn, turn);
    if (!kind) {
      if (o.tellLimits) notes.push(limitsNotice({ turn, maxTurns: o.maxTurns, usage: this.usage, ...this.limitsOf(), recent: this.recent.slice(-3) }));
      return undefined;
    }
    if (!o.tellLimits || !this.hasFinal) return kind === 'budget' ? this.done('budget', turn) : undefined;
    this.lastTurn = kind;
    notes.push(lastTurnNotice(kind));
    o.log.info(`${kind === 'budget' ? 'the budget is spent' : 'the turn limit is reached'} after turn ${turn}: one last turn to report`);
    o.trajectory?.note(turn, `${kind}: crew gave the model one last turn to report`);
    return undefined;
  }

  /** Adds text blocks to the newest user message, which the model has not seen yet. */
  private appendNotes(notes: string[]): void {
    if (!notes.length) return;
    const last = this.messages.at(-1)!;
    const blocks = notes.map((text): TextBlock => ({ type: 'text', text }));
    if (last.role === 'user') this.messages[this.messages.length - 1] = { ...last, content: [...last.content, ...blocks] };
    else this.messages.push({ role: 'user', content: blocks });
  }

  /**
   * Starts a fresh conversation: an opening with the task, a summary of everything but the newest
   * exchanges, what the work changed (git diff --stat), and those exchanges word for word as text. No
   * thinking block is carried over (each is bound to the conversation that produced it); system and
   * tools stay the same, so their cache holds.
   */
  private async compact(why: string): Promise<void> {
    const o = this.o;
    const messages = this.messages;
    // The newest exchanges that fit in a quarter of the budget, word for word (at least the newest call and
    // its results, their ends kept if they alone are too long).
    const room = Math.floor(o.compaction!.budgetTokens * CHARS_PER_TOKEN * 0.25);
    let keep = Math.min(KEEP_MESSAGES, messages.length - 2);
    while (keep > 2 && transcript(messages.slice(-keep), Infinity).length > room) keep = Math.max(2, keep - 2);
    const tail = messages.slice(-keep);
    this.changes =
      (await o.compaction!.changes?.().catch((e: unknown) => `(crew could not read the changes: ${e instanceof Error ? e.message : String(e)})`)) ?? '';
    // The opening's latest turns are not in the summary yet: they go to the summarizer with the turns after them.
    const before: Message[] = [
      ...(this.changes
        ? [{ role: 'user' as const, content: [{ type: 'text' as const, text: `(files changed so far, git diff --stat)\n${this.changes}` }] }]
        : []),
      ...(this.lastStep
        ? [{ role: 'user' as const, content: [{ type: 'text' as const, text: `(the latest turns before the previous summary)\n${this.lastStep}` }] }]
        : []),
    ];
    const startedAt = Date.now();
    const s = await o.compaction!.summarize(this.summary, [...before, ...messages.slice(1, -keep)]);
    o.trajectory?.compaction(this.turnsDone, { startedAt, durationMs: Date.now() - startedAt, usage: s.usage, summary: s.summary });
    this.usage = addUsage(this.usage, s.usage);
    this.summary = s.summary;
    const step = transcript(tail, Infinity);
    this.lastStep = step.length <= room ? step : keepEnds(step, room - 100, (removed) => `crew cut ${removed} characters here`);
    this.messages = [this.opening()];
    this.seen = 0;
    this.compactions++;
    o.log.info(`compacted the conversation ${why}; it goes on as a fresh one`);
  }

  /**
   * A reply cut off mid-way: its tool calls may carry half their input (the SDK drops a field whose
   * JSON was not finished), so none runs. The API still wants a tool_result for each; each says
   * why, and how to fit. A full context window is compacted, or ends the loop when it cannot be.
   */
  private async cutOff(turn: number, stop: 'max_tokens' | 'model_context_window_exceeded', uses: ToolUseBlock[]): Promise<LoopOutcome | undefined> {
    const o = this.o;
    const record = o.trajectory;
    const room = o.maxTokens ?? DEFAULT_MAX_TOKENS;
    const why =
      stop === 'max_tokens'
        ? `Your last reply was cut off: it reached the output limit of ${room} tokens (max_tokens; thinking counts towards it) before it was complete.`
        : "Your last reply was cut off: the conversation reached the model's context window.";
    const parts =
      this.byName.has('edit_file') && this.byName.has('write_file')
        ? ' Write a large file in parts: write_file with the first part, then edit_file to add each next part after the last lines written. Change an existing file with edit_file instead of rewriting it.'
        : '';
    const advice = `Keep each reply, with each tool call's input, well under ${room} tokens.${parts} Think briefly.`;
    o.log.warn(
      `turn ${turn} was cut off (stop_reason ${stop}); ${uses.length ? `crew ran none of its ${uses.length} tool call(s) and told the model` : 'crew told the model'}`,
    );
    for (const use of uses) this.toolCalls[use.name] = (this.toolCalls[use.name] ?? 0) + 1;
    const results: ContentBlock[] = uses.map((use) => {
      const content = `crew did not run this ${use.name} call: its input may be incomplete. ${why} ${advice}`;
      record?.toolResult(turn, { use, content, isError: true, durationMs: 0 });
      return { type: 'tool_result', tool_use_id: use.id, is_error: true, content };
    });
    record?.note(turn, `cut off (stop_reason ${stop}): crew ran none of its tool calls and told the model`);
    record?.turnDone(turn);
    const note: TextBlock = { type: 'text', text: `${why} ${advice}` };
    const last = this.messages.at(-1)!;
    if (results.length) this.messages.push({ role: 'user', content: results });
    else if (last.role === 'user') this.messages[this.messages.length - 1] = { ...last, content: [...last.content, note] };
    else this.messages.push({ role: 'user', content: [note] });
    if (stop === 'model_context_window_exceeded') {
      if (!o.compaction || this.messages.length <= 3)
        throw new Error(
          `the conversation filled the model's context window at turn ${turn} (stop_reason model_context_window_exceeded), and there were no older turns to summarise`,
        );
      await this.compact(`after turn ${turn} filled the context window`);
    }
    const notes: string[] = [];
    const ended = this.limitReached(turn, notes);
    this.appendNotes(notes);
    return ended;
  }

  /** Before a turn's request: teammates' notes, and the prompt kept within the context budget. */
  private async beforeRequest(turn: number): Promise<LoopOutcome | undefined> {
    const o = this.o;
    if (o.between) {
      const b = await o.between(turn);
      if (b.stop) return this.done(b.stop, turn - 1);
      if (b.notes?.length) {
        const last = this.messages.at(-1)!;
        this.messages[this.messages.length - 1] = { ...last, content: [...last.content, ...b.notes.map((text): TextBlock => ({ type: 'text', text }))] };
      }
    }
    if (o.compaction) {
      const limit = o.compaction.budgetTokens * SEND_LIMIT;
      const estimate = () => estimateTokens(o.system, this.specs, this.messages);
      if (estimate() > limit && this.messages.length > 3) await this.compact(`before turn ${turn} (about ${estimate()} tokens estimated)`);
      if (estimate() > limit) {
        const n = cutToolResults(this.messages, estimate() - limit, this.seen);
        this.cutResults += n;
        if (n) o.trajectory?.note(turn - 1, `crew cut ${n} tool result(s) before turn ${turn} to stay within the context budget`);
        o.log.info(`cut ${n} tool result(s) before turn ${turn} to stay within the context budget`);
      }
    }
    return undefined;
  }

  /** One turn: the outcome when the loop ends with it, undefined to go on. */
  private async step(turn: number): Promise<LoopOutcome | undefined> {
    const o = this.o;
    const record = o.trajectory;
    if (o.signal?.aborted) return this.done('interrupted', turn - 1);
    if (o.limits?.deadline !== undefined && this.now() >= o.limits.deadline) return this.done('wall_clock', turn - 1);
    const early = await this.beforeRequest(turn);
    if (early) return early;
    let reply;
    this.seen = this.messages.length;
    const askedAt = Date.now();
    try {
      reply = await o.model.complete({
        model: o.modelId,
        system: o.system,
        tools: this.specs,
        messages: this.messages,
        maxTokens: o.maxTokens ?? DEFAULT_MAX_TOKENS,
        ...(o.signal ? { signal: o.signal } : {}),
      });
    } catch (e) {
      if (e instanceof Interrupted) return this.done('interrupted', turn - 1);
      throw e;
    }
    this.turnsDone = turn;
    record?.reply(turn, { model: o.modelId, startedAt: askedAt, durationMs: Date.now() - askedAt, reply });
    this.usage = addUsage(this.usage, reply.usage);
    this.recent.push({ tokens: tokensOf(reply.usage), costUsd: reply.usage.costUsd });
    const sent = reply.usage.inputTokens + reply.usage.cacheReadTokens + reply.usage.cacheWriteTokens;
    this.promptTokens.push(sent);
    o.onTurn?.(turn, this.usage, sent);
    if (reply.stopReason === 'refusal')
      throw new Error(`the model refused to continue (stop_reason refusal) at turn ${turn}; crew ran none of the tool calls in that reply`);
    // Empty text blocks are rejected by the API if sent back.
    const content = reply.content.filter((b) => !(b.type === 'text' && b.text.trim() === ''));
    const uses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (reply.stopReason === 'pause_turn' && uses.length === 0 && content.length) {
      // The API paused a long turn; sending the reply back unchanged lets the model continue it.
      this.messages.push({ role: 'assistant', content: content as ContentBlock[] });
      record?.turnDone(turn);
      return undefined;
    }
    if (reply.stopReason === 'max_tokens' || reply.stopReason === 'model_context_window_exceeded') {
      if (content.length) this.messages.push({ role: 'assistant', content: content as ContentBlock[] });
      return this.cutOff(turn, reply.stopReason, uses);
    }
    if (content.length) this.messages.push({ role: 'assistant', content: content as ContentBlock[] });
    if (uses.length === 0) {
      record?.turnDone(turn);
      if (this.lastTurn) return this.done(this.lastTurn, turn);
      if (!o.nudge || this.nudged || content.length === 0) return this.done('no_final', turn);
      this.nudged = true;
      this.messages.push({ role: 'user', content: [{ type: 'text', text: o.nudge }] });
      return undefined;
    }
    return this.answerCalls(turn, uses, sent);
  }

  /** Runs the tools a reply called, sends their results back, and sees whether a limit or a loop ends the run. */
  private async answerCalls(turn: number, uses: ToolUseBlock[], sent: number): Promise<LoopOutcome | undefined> {
    const o = this.o;
    const record = o.trajectory;
    const ran = await this.runCalls(turn, uses);
    if (ran.interrupted) return this.done('interrupted', turn);
    const results = ran.results;
    this.messages.push({ role: 'user', content: results });
    record?.turnDone(turn);
    if (ran.finished) return this.done('final', turn, ran.finalInput);
    const notes: string[] = [];
    if (o.tellLimits) {
      for (const r of results) {
        const use = uses.find((u) => u.id === r.tool_use_id)!;
        const seen = this.repeats.record(use, r.content, r.is_error === true);
        if (seen?.act === 'stop') {
          o.log.warn(`turn ${turn}: ${seen.text}; the attempt stops`);
          record?.note(turn, `${seen.text}; crew stopped the attempt`);
          return this.done('loop', turn, undefined, seen.text);
        }
        if (seen) notes.push(seen.text);
      }
    }
    const ended = this.limitReached(turn, notes);
    this.appendNotes(notes);
    if (ended) return ended;
    if (o.compaction && sent > o.compaction.budgetTokens * COMPACT_AT && this.messages.length > 3)
      await this.compact(`after turn ${turn} (${sent} input tokens)`);
    return undefined;
  }

  /** Each call in turn: refused in the last turn or when unknown, else run; a thrown error goes back to the model. */
  private async runCalls(
    turn: number,
    uses: ToolUseBlock[],
  ): Promise<{ results: ToolResultBlock[]; finished: boolean; finalInput?: unknown; interrupted?: true }> {
    const o = this.o;
    const record = o.trajectory;
    const results: ToolResultBlock[] = [];
    let finalInput: unknown;
    let finished = false;
    for (const use of uses) {
      if (o.signal?.aborted) {
        record?.turnDone(turn);
        return { results, finished, interrupted: true };
      }
      this.toolCalls[use.name] = (this.toolCalls[use.name] ?? 0) + 1;
      const tool = this.byName.get(use.name);
      const ranAt = Date.now();
      if (this.lastTurn && tool && !tool.final) {
        record?.toolResult(turn, { use, content: NOT_IN_LAST_TURN, isError: true, durationMs: 0 });
        results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: NOT_IN_LAST_TURN });
        continue;
      }
      if (!tool) {
        const why = o.refused?.[use.name] ?? `There is no tool named '${use.name}'. Available tools: ${[...this.byName.keys()].join(', ')}.`;
        // The name is the model's own (no such tool here): one line of it, like the reason.
        o.log.info(`tool ${logLine(use.name, 80)} refused: ${logLine(why)}`);
        record?.toolResult(turn, { use, content: why, isError: true, durationMs: 0 });
        results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: why });
        continue;
      }
      const facts: ToolFacts = {};
      try {
        const text = (await tool.run(use.input, facts)) || '(no output)';
        record?.toolResult(turn, { use, content: text, isError: false, durationMs: Date.now() - ranAt, facts });
        results.push({ type: 'tool_result', tool_use_id: use.id, content: text });
        if (tool.final) {
          finished = true;
          finalInput = use.input;
        }
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        o.log.info(`tool ${use.name} failed: ${logLine(message)}`);
        record?.toolResult(turn, { use, content: message, isError: true, durationMs: Date.now() - ranAt, facts });
        results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: message });
      }
    }
    return { results, finished, ...(finished ? { finalInput } : {}) };
  }
}
