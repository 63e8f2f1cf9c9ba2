import { z } from 'zod';
import { addUsage, type Usage } from './run-state';

/**
 * A trajectory: what one agent run did, turn by turn (docs/trajectories.md). One JSON object per
 * agent run, one per line of a `.jsonl` file. The assistant's content keeps the Messages API's
 * block shapes (text, thinking, tool_use) and each tool's result is a `tool_result` block, so a
 * script written for Anthropic conversations or claude-code-action's execution file reads it with
 * a rename; usage uses the API's field names. Pure: the recorder (src/trajectory/) fills it in.
 */

/** The format's name and version; a change that breaks a reader bumps the number. */
export const TRAJECTORY_FORMAT = 'crew-trajectory/1';

export const AGENTS = ['intake', 'planner', 'plan_reviewer', 'worker', 'critic', 'resolver', 'retrospector'] as const;
export type AgentName = (typeof AGENTS)[number];

/** What a trajectory keeps (`transcripts.keep`): `summary` drops what the model and the tools wrote, `none` keeps no file. */
export const TRANSCRIPT_LEVELS = ['full', 'summary', 'none'] as const;
export type TranscriptLevel = (typeof TRANSCRIPT_LEVELS)[number];

/**
 * The caps that keep a record bounded. A text block, a thinking block, a tool input's strings and
 * a tool's result are each cut (head and tail kept, the cut said); a turn past TURN_CHARS keeps
 * its further blocks in short form; a record past RECORD_BYTES keeps its further turns as numbers.
 * A turn at every cap is about 29 KB serialised, so a 60-turn worker stays near 1.8 MB, under the limit
 * (tests/unit/crew/trajectory.test.ts).
 */
export const SIZE_LIMITS = {
  textChars: 8_000,
  thinkingChars: 4_000,
  inputStringChars: 4_000,
  resultChars: 4_000,
  turnChars: 32_000,
  recordBytes: 4 * 1024 * 1024,
} as const;

const TokensSchema = z.strictObject({
  input_tokens: z.int().nonnegative(),
  output_tokens: z.int().nonnegative(),
  cache_read_input_tokens: z.int().nonnegative(),
  cache_creation_input_tokens: z.int().nonnegative(),
  cost_usd: z.number().nonnegative(),
});
export type TrajectoryUsage = z.infer<typeof TokensSchema>;

const TextBlock = z.strictObject({ type: z.literal('text'), text: z.string(), cut: z.int().positive().optional() });
const ThinkingBlock = z.strictObject({ type: z.literal('thinking'), thinking: z.string(), cut: z.int().positive().optional() });
/** A block whose words this record does not keep (`summary`, or past a cap): its kind and length only. */
const OmittedBlock = z.strictObject({ type: z.enum(['text', 'thinking']), omitted_chars: z.int().nonnegative() });
const ToolUseBlock = z.strictObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  /** The input was shortened: strings cut, or (summary) only the fields that say what it touched. */
  cut: z.boolean().optional(),
});
const ToolResultBlock = z.strictObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  is_error: z.boolean(),
  /** What the model read back, capped; absent when the record keeps no output. */
  content: z.string().optional(),
  /** Characters of the result left out. */
  cut: z.int().positive().optional(),
  /** run_command: the command's exit code (null when it timed out). */
  exit_code: z.int().nullable().optional(),
  timed_out: z.boolean().optional(),
  duration_ms: z.int().nonnegative(),
});

const TurnSchema = z.strictObject({
  turn: z.int().positive(),
  model: z.string(),
  started_at: z.string(),
  duration_ms: z.int().nonnegative(),
  stop_reason: z.string().nullable(),
  usage: TokensSchema,
  content: z.array(z.union([TextBlock, ThinkingBlock, OmittedBlock, ToolUseBlock])),
  tool_results: z.array(ToolResultBlock),
  /** What crew did around the turn (results cut to fit the context, a reply cut off at max_tokens). */
  notes: z.array(z.string()).optional(),
  /** The record had reached its size limit: this turn keeps its numbers and tool names only. */
  short: z.boolean().optional(),
});
export type TrajectoryTurn = z.infer<typeof TurnSchema>;

const CompactionSchema = z.strictObject({
  after_turn: z.int().nonnegative(),
  started_at: z.string(),
  duration_ms: z.int().nonnegative(),
  usage: TokensSchema,
  /** The summary the conversation went on from, capped (absent with `summary`). */
  summary: z.string().optional(),
});

export const TrajectorySchema = z.strictObject({
  format: z.literal(TRAJECTORY_FORMAT),
  /** Unique within the run: agent, task, attempt or iteration, and a sequence number in its job. */
  id: z.string(),
  agent: z.enum(AGENTS),
  issue: z.int().positive().nullable(),
  run: z.int().positive().nullable(),
  task: z.string().nullable(),
  attempt: z.int().positive().nullable(),
  /** The critic's iteration, the planner's round. */
  iteration: z.int().positive().nullable(),
  model: z.string(),
  transcripts: z.enum(['full', 'summary']),
  /** Where it ran: the workflow job (GitHub) or the local run's job. */
  job: z.strictObject({ step: z.string(), url: z.string().nullable(), workflow_run: z.string().nullable() }),
  started_at: z.string(),
  ended_at: z.string(),
  duration_ms: z.int().nonnegative(),
  /** Why the agent's loop ended (final, max_turns, no_final, budget, wall_clock, shutdown, error, interrupted). */
  stop: z.string(),
  error: z.string().nullable(),
  /** Model turns, compactions' summarizer calls included in `usage`, not in `turns`. */
  num_turns: z.int().nonnegative(),
  usage: TokensSchema,
  turns: z.array(TurnSchema),
  compactions: z.array(CompactionSchema),
  /** The record reached its size limit and later turns are short. */
  cut: z.boolean(),
});
export type Trajectory = z.infer<typeof TrajectorySchema>;

export function tokensFrom(u: Usage): TrajectoryUsage {
  return {
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_read_input_tokens: u.cacheReadTokens,
    cache_creation_input_tokens: u.cacheWriteTokens,
    cost_usd: u.costUsd,
  };
}

export function usageFrom(t: TrajectoryUsage): Usage {
  return {
    inputTokens: t.input_tokens,
    outputTokens: t.output_tokens,
    cacheReadTokens: t.cache_read_input_tokens,
    cacheWriteTokens: t.cache_creation_input_tokens,
    costUsd: t.cost_usd,
  };
}

/** Two records' usage added as run state adds it (addUsage: the cost rounded to a millionth of a dollar). */
export function addTokens(a: TrajectoryUsage, b: TrajectoryUsage): TrajectoryUsage {
  return tokensFrom(addUsage(usageFrom(a), usageFrom(b)));
}

export const NO_TOKENS: TrajectoryUsage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, cost_usd: 0 };

/** `text` within `max` characters: head and tail kept, and how many characters went. */
export function capText(text: string, max: number): { text: string; cut?: number } {
  if (text.length <= max) return { text };
  const half = Math.floor((max - 40) / 2);
  const cut = text.length - 2 * half;
  return { text: `${text.slice(0, half)}\n…[${cut} characters cut]…\n${text.slice(-half)}`, cut };
}

/** A tool input with every string within `max` characters; `cut` when one was shortened. */
export function capInput(input: unknown, max: number): { input: unknown; cut: boolean } {
  let cut = false;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const c = capText(v, max);
      if (c.cut) cut = true;
      return c.text;
    }
    if (depth > 8) {
      cut = true;
      return '…';
    }
    if (Array.isArray(v)) return v.slice(0, 200).map((x) => walk(x, depth + 1));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1)]));
    return v;
  };
  return { input: walk(input, 0), cut };
}

/** The fields of a tool input that say what it touched (a path, a command, a pattern, a recipient), each capped short. */
export function shortInput(input: unknown): Record<string, string> {
  const i = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const out: Record<string, string> = {};
  for (const k of ['path', 'command', 'pattern', 'to', 'status']) {
    const v = i[k];
    if (typeof v === 'string') out[k] = oneLine(v, 200);
  }
  return out;
}

/** The first non-empty line of `text`, within `max` characters. */
export function oneLine(text: string, max: number): string {
  const line = text.split(/\r?\n/).find((l) => l.trim()) ?? '';
  const flat = line.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The totals of a set of agent runs, as the step summary and `crew show` add them up. */
export function totalsOf(records: readonly Pick<Trajectory, 'usage' | 'num_turns' | 'duration_ms'>[]): {
  usage: TrajectoryUsage;
  turns: number;
  durationMs: number;
} {
  return records.reduce((t, r) => ({ usage: addTokens(t.usage, r.usage), turns: t.turns + r.num_turns, durationMs: t.durationMs + r.duration_ms }), {
    usage: NO_TOKENS,
    turns: 0,
    durationMs: 0,
  });
}

/** Who an agent run was, in a few words: "worker t1 attempt 2", "critic iteration 1", "planner". */
export function agentRunLabel(r: Pick<Trajectory, 'agent' | 'task' | 'attempt' | 'iteration'>): string {
  return [
    r.agent.replace('_', ' '),
    r.task,
    r.attempt !== null ? `attempt ${r.attempt}` : null,
    r.iteration !== null ? `${r.agent === 'critic' ? 'iteration' : 'round'} ${r.iteration}` : null,
  ]
    .filter(Boolean)
    .join(' ');
}

/** Parses a `.jsonl` file of trajectories: every line is checked against the schema, and a bad one is named by its line. */
export function parseTrajectories(text: string, file: string, firstLine = 1): Trajectory[] {
  const out: Trajectory[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      throw new Error(`${file} line ${i + firstLine} is not JSON: ${(e as Error).message}`);
    }
    const parsed = TrajectorySchema.safeParse(json);
    if (!parsed.success)
      throw new Error(
        `${file} line ${i + firstLine} is not a ${TRAJECTORY_FORMAT} record: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
      );
    out.push(parsed.data);
  });
  return out;
}

/**
 * The record as `transcripts.keep: summary` keeps it: the numbers, the tools called with what they
 * touched (path, command, pattern) and their exit codes; none of the model's words, no tool output.
 */
export function summaryOf(r: Trajectory): Trajectory {
  return {
    ...r,
    transcripts: 'summary',
    turns: r.turns.map((t) => ({
      ...t,
      content: t.content.map((b) => {
        if (b.type === 'tool_use') return { type: 'tool_use' as const, id: b.id, name: b.name, input: shortInput(b.input), cut: true };
        if ('omitted_chars' in b) return b;
        return { type: b.type, omitted_chars: b.type === 'text' ? b.text.length + (b.cut ?? 0) : b.thinking.length + (b.cut ?? 0) };
      }),
      tool_results: t.tool_results.map(({ content: _content, cut: _cut, ...rest }) => rest),
      ...(t.notes ? { notes: t.notes } : {}),
    })),
    compactions: r.compactions.map(({ summary: _summary, ...rest }) => rest),
  };
}

/** The JSON Schema of one line of a trajectories file (schema/trajectory.schema.json, written by `npm run config-docs`). */
export function trajectoryJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://github.com/your-org/crew/blob/v1/schema/trajectory.schema.json',
    title: `crew trajectory: one agent run (${TRAJECTORY_FORMAT}, docs/trajectories.md)`,
    ...(z.toJSONSchema(TrajectorySchema, { io: 'output' }) as Record<string, unknown>),
  };
}
