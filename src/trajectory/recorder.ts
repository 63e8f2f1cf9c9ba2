import {
  addTokens,
  capInput,
  capText,
  SIZE_LIMITS,
  NO_TOKENS,
  shortInput,
  summaryOf,
  tokensFrom,
  TRAJECTORY_FORMAT,
  type Trajectory,
  type TrajectoryTurn,
  type TranscriptLevel,
} from '../domain/trajectory';
import type { AgentRunMeta, AgentTrajectory, ModelReply, Trajectories } from '../ports';
import { redact } from '../text/redact';
import { isMcpTool } from '../domain/mcp';

/** Where a job's records go as they are made: the job log's groups, a local run's files. */
export interface TrajectorySink {
  /** A turn is complete (its tools ran). `record` is the run so far. */
  turn?(record: Trajectory, turn: TrajectoryTurn): void;
  /** An agent run ended. */
  end?(record: Trajectory): void | Promise<void>;
}

export interface RecorderOptions {
  /** What a record keeps (transcripts.keep); read when a record is written, since configuration loads after the job starts. */
  level: () => TranscriptLevel;
  issue: number | null;
  run: number | null;
  job: { step: string; id: string; url: () => string | null; workflowRun: string | null };
  now: () => number;
  sinks: TrajectorySink[];
  /** Stores the given records under `label` (an artifact, a file); returns where a person finds them. */
  publish?: (records: Trajectory[], label: string) => Promise<string | null>;
  warn: (message: string) => void;
  /**
   * Leave MCP servers' answers out of every record (their length kept, a note said): on a public
   * repository the job log, step summary and artifacts are public, and a server may answer with what
   * only the repository's people should read (docs/SECURITY.md, "Who reads the job log").
   */
  leaveOutMcpAnswers?: boolean;
}

/** The note a turn gets for each MCP answer left out. */
export const MCP_ANSWER_LEFT_OUT = (tool: string) => `the answer of ${tool} is left out: this repository is public, and so are its job logs and artifacts`;

/** Every string of a record redacted: the record is crew's own text, like everything it writes. */
export function redactRecord<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** A record as it is written: at the level kept, redacted, one line of JSON. */
export function recordLine(r: Trajectory, level: Exclude<TranscriptLevel, 'none'>): string {
  return JSON.stringify(redactRecord(level === 'summary' ? summaryOf(r) : r));
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The Trajectories port: one record per agent run, bounded by SIZE_LIMITS as it grows, handed to the
 * sinks turn by turn and when it ends. Records stay in memory for the job's step summary and
 * its artifact (a job runs a handful of agents; each record is at most SIZE_LIMITS.recordBytes).
 */
export class TrajectoryRecorder implements Trajectories {
  private readonly done: Trajectory[] = [];
  private published = 0;
  private seq = 0;

  constructor(private readonly o: RecorderOptions) {}

  /** Every agent run of this job that has ended, in the order they ended. */
  records(): readonly Trajectory[] {
    return this.done;
  }

  level(): TranscriptLevel {
    return this.o.level();
  }

  async publish(label: string): Promise<string | null> {
    const fresh = this.done.slice(this.published);
    if (!fresh.length || !this.o.publish || this.o.level() === 'none') return null;
    this.published = this.done.length;
    try {
      return await this.o.publish(fresh, label);
    } catch (e) {
      this.o.warn(`could not keep the trajectories of ${label}: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
  }

  start(meta: AgentRunMeta): AgentTrajectory {
    return new AgentRunRecord(this.o, meta, ++this.seq, (record) => this.done.push(record));
  }
}

type ReplyBlock = ModelReply['content'][number];

/** One agent run's record as it grows: the open turn is handed to the sinks when it is complete. */
class AgentRunRecord implements AgentTrajectory {
  private readonly record: Trajectory;
  private readonly started: number;
  private bytes: number;
  private open: { turn: TrajectoryTurn; chars: number } | undefined;
  private ended = false;

  constructor(
    private readonly o: RecorderOptions,
    meta: AgentRunMeta,
    seq: number,
    private readonly onEnd: (record: Trajectory) => void,
  ) {
    this.started = o.now();
    this.record = newRecord(o, meta, seq, this.started);
    this.bytes = JSON.stringify(this.record).length;
  }

  reply(turn: number, r: Parameters<AgentTrajectory['reply']>[1]): void {
    if (this.ended) return;
    this.close();
    const short = this.bytes > SIZE_LIMITS.recordBytes;
    if (short) this.record.cut = true;
    const t: TrajectoryTurn = {
      turn,
      model: r.model,
      started_at: iso(r.startedAt),
      duration_ms: Math.max(0, Math.round(r.durationMs)),
      stop_reason: r.reply.stopReason,
      usage: tokensFrom(r.reply.usage),
      content: [],
      tool_results: [],
      ...(short ? { short: true } : {}),
    };
    this.open = { turn: t, chars: 0 };
    for (const b of r.reply.content) this.addBlock(t, b);
    this.record.turns.push(t);
    this.record.num_turns = Math.max(this.record.num_turns, turn);
    this.record.usage = addTokens(this.record.usage, t.usage);
  }

  toolResult(turn: number, r: Parameters<AgentTrajectory['toolResult']>[1]): void {
    const open = this.open;
    if (this.ended || !open || open.turn.turn !== turn) return;
    const leftOut = !!this.o.leaveOutMcpAnswers && isMcpTool(r.use.name);
    if (leftOut) (open.turn.notes ??= []).push(MCP_ANSWER_LEFT_OUT(r.use.name));
    const c = capText(r.content, SIZE_LIMITS.resultChars);
    const keep = !leftOut && this.fits(c.text.length);
    open.turn.tool_results.push({
      type: 'tool_result',
      tool_use_id: r.use.id,
      is_error: r.isError,
      ...(keep ? { content: c.text, ...(c.cut ? { cut: c.cut } : {}) } : { cut: r.content.length || undefined }),
      ...(r.facts?.exitCode !== undefined ? { exit_code: r.facts.exitCode } : {}),
      ...(r.facts?.timedOut ? { timed_out: true } : {}),
      duration_ms: Math.max(0, Math.round(r.durationMs)),
    });
    if (keep) open.chars += c.text.length;
  }

  turnDone(turn: number): void {
    if (this.open?.turn.turn === turn) this.close();
  }

  note(turn: number, text: string): void {
    const t = this.open?.turn.turn === turn ? this.open.turn : this.record.turns.findLast((x) => x.turn === turn);
    if (t) (t.notes ??= []).push(text);
  }

  compaction(afterTurn: number, c: Parameters<AgentTrajectory['compaction']>[1]): void {
    if (this.ended) return;
    this.close();
    const s = capText(c.summary, SIZE_LIMITS.textChars);
    const usage = tokensFrom(c.usage);
    this.record.compactions.push({
      after_turn: afterTurn,
      started_at: iso(c.startedAt),
      duration_ms: Math.max(0, Math.round(c.durationMs)),
      usage,
      summary: s.text,
    });
    this.record.usage = addTokens(this.record.usage, usage);
    this.bytes += s.text.length + 200;
  }

  end(r: Parameters<AgentTrajectory['end']>[0]): void {
    if (this.ended) return;
    this.close();
    this.ended = true;
    const record = this.record;
    const now = this.o.now();
    record.ended_at = iso(now);
    record.duration_ms = Math.max(0, now - this.started);
    record.stop = r.stop;
    record.error = r.error ?? null;
    record.job.url = this.o.job.url();
    this.onEnd(record);
    for (const s of this.o.sinks) safely(this.o, () => s.end?.(record));
  }

  /** One block of a reply into the open turn `t`: whole while the turn has room, else kept short. */
  private addBlock(t: TrajectoryTurn, b: ReplyBlock): void {
    const open = this.open!;
    if (b.type === 'text') {
      const c = capText(b.text, SIZE_LIMITS.textChars);
      if (this.fits(c.text.length)) {
        t.content.push({ type: 'text', text: c.text, ...(c.cut ? { cut: c.cut } : {}) });
        open.chars += c.text.length;
      } else t.content.push({ type: 'text', omitted_chars: b.text.length });
    } else if (b.type === 'tool_use') {
      const c = capInput(b.input, SIZE_LIMITS.inputStringChars);
      const size = JSON.stringify(c.input ?? null).length;
      if (this.fits(size)) {
        t.content.push({ type: 'tool_use', id: b.id, name: b.name, input: c.input, ...(c.cut ? { cut: true } : {}) });
        open.chars += size;
      } else t.content.push({ type: 'tool_use', id: b.id, name: b.name, input: shortInput(b.input), cut: true });
    } else {
      // Thinking blocks: their text when the API sends it (redacted_thinking carries none a person can read).
      const words = typeof b.thinking === 'string' ? b.thinking : '';
      const c = capText(words, SIZE_LIMITS.thinkingChars);
      if (words && this.fits(c.text.length)) {
        t.content.push({ type: 'thinking', thinking: c.text, ...(c.cut ? { cut: c.cut } : {}) });
        open.chars += c.text.length;
      } else t.content.push({ type: 'thinking', omitted_chars: words.length });
    }
  }

  /** Room in the open turn for `chars` more, else the block is kept short. */
  private fits(chars: number): boolean {
    return !!this.open && !this.open.turn.short && this.open.chars + chars <= SIZE_LIMITS.turnChars;
  }

  /** The open turn is complete: its size counts, and the sinks hear of it. */
  private close(): void {
    if (!this.open) return;
    const t = this.open.turn;
    this.open = undefined;
    this.bytes += JSON.stringify(t).length;
    for (const s of this.o.sinks) safely(this.o, () => s.turn?.(this.record, t));
  }
}

/** A new agent run's record, before its first turn. */
function newRecord(o: RecorderOptions, meta: AgentRunMeta, seq: number, started: number): Trajectory {
  return {
    format: TRAJECTORY_FORMAT,
    id: [meta.agent, meta.task, meta.attempt ? `a${meta.attempt}` : null, meta.iteration ? `i${meta.iteration}` : null, o.job.id, String(seq)]
      .filter(Boolean)
      .join('-'),
    agent: meta.agent,
    issue: o.issue,
    run: o.run,
    task: meta.task ?? null,
    attempt: meta.attempt ?? null,
    iteration: meta.iteration ?? null,
    model: meta.model,
    transcripts: 'full',
    job: { step: o.job.step, url: null, workflow_run: o.job.workflowRun },
    started_at: iso(started),
    ended_at: iso(started),
    duration_ms: 0,
    stop: 'running',
    error: null,
    num_turns: 0,
    usage: NO_TOKENS,
    turns: [],
    compactions: [],
    cut: false,
  };
}

/** A sink that fails costs a warning, never the agent's work. */
function safely(o: RecorderOptions, f: () => void | Promise<void>): void {
  try {
    const p = f();
    if (p) p.catch((e: unknown) => o.warn(`could not record a trajectory: ${e instanceof Error ? e.message : String(e)}`));
  } catch (e) {
    o.warn(`could not record a trajectory: ${e instanceof Error ? e.message : String(e)}`);
  }
}
