import { z } from 'zod';
import { FRESH_MEMORY, LeaderMemorySchema, USER_TOPICS } from './leader-policy';
import { chainAhead, TIERS, type Plan } from './plan';
import { NOTHING_POSTED, PostedSchema } from './caps';
import { count, crewBranch, nullableText, taskId, text, type Stored } from './stored-shape';
import type { JobTime } from './actions-minutes';
import { CostEstimateSchema } from './cost-estimate';
import { FollowUpSchema } from './follow-up';
import { FixCiStateSchema } from './fix-ci';
import { FoundImageSchema, ImageRecordSchema } from './images';
import { SpendWarningSchema } from './spend';
import { CandidateRunSchema, SelectionSchema } from './candidate-record';
import type { RunAttempts } from './attempts';

/**
 * The leader's durable state for one run. The orchestrator decides what happens next
 * from this and nothing else. The state files' shapes are declared here once, as zod
 * schemas with their defaults (state/run-files.ts checks every read against them), and
 * the types are derived from them. Pure types and transitions.
 */

/** Every phase a run can be in. */
export const PHASES = [
  'PLANNING',
  'AWAITING_APPROVAL',
  'EXECUTING',
  'INTEGRATING',
  'REVIEWING',
  'COMPLETED',
  'ESCALATING',
  'INTERRUPTED',
  'FAILED',
  'ABORTED',
] as const;
export type Phase = (typeof PHASES)[number];

export const TERMINAL_PHASES: ReadonlySet<Phase> = new Set(['COMPLETED', 'FAILED', 'ABORTED']);

export const TASK_STATUSES = ['pending', 'running', 'retrying', 'success', 'partial', 'failure', 'timeout', 'blocked'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const DONE_STATUSES: ReadonlySet<TaskStatus> = new Set(['success', 'partial', 'failure', 'timeout', 'blocked']);

export const UsageSchema = z.looseObject({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  costUsd: z.number(),
});
export type Usage = Stored<typeof UsageSchema>;

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: Math.round((a.costUsd + b.costUsd) * 1e6) / 1e6,
  };
}

const commentId = z.number();

/** What a run in ESCALATING or AWAITING_APPROVAL waits for, anchored to the comment that asked. */
export const WaitingSchema = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('answer'), commentId, questions: z.array(text) }),
  z.looseObject({ kind: z.literal('approval'), commentId, planVersion: count, reason: z.enum(['requested', 'review-failed']) }),
  /** An escalation to a person about a task: retry, accept as is, abort, or answer. */
  z.looseObject({ kind: z.literal('decision'), commentId, task: taskId, topic: z.enum(USER_TOPICS), question: text }),
  /** The critic's FAIL stands after every iteration (or it could not judge): retry, accept, or abort. */
  z.looseObject({ kind: z.literal('verdict'), commentId, iteration: count }),
  /** Merging a task into the integration branch conflicted and the resolver could not keep both intents: retry or abort. */
  z.looseObject({ kind: z.literal('conflict'), commentId, task: taskId, files: z.array(text) }),
  /**
   * A budget ended the run's work (#52): `budgets.run`, a task's `budgets.task` (`task`), or the repository's `budgets.day` / `budgets.month`.
   * Every task's work is on its branch: continue (optionally with a new run budget), accept what exists, or abort.
   */
  z.looseObject({
    kind: z.literal('budget'),
    commentId,
    limit: z.enum(['run', 'task', 'day', 'month']),
    /** The task whose `budgets.task` it was (`limit: task`). */
    task: taskId.optional(),
    spentUsd: z.number(),
    budgetUsd: z.number(),
    /** The run's (or the task's) budget tokens spent and allowed (`limit: run`, `task`). */
    tokens: z.looseObject({ spent: count, budget: count }).optional(),
    /** When a repository budget's count starts again (ISO, UTC). */
    resetsAt: text.optional(),
    /**
     * Where the run stopped when not in its tasks' work: while planning (nothing to accept yet), in the critic, while
     * re-planning failed tasks (`replan`), or in the resolver of a merge conflict (`integration`: nothing integrated to accept).
     */
    at: z.enum(['planning', 'review', 'replan', 'integration']).optional(),
    /** The re-planning it stopped in (`at: replan`): `/crew continue` re-plans these tasks with this feedback; `endOfRun`: advance's re-plan of the failed half. */
    replan: z.looseObject({ tasks: z.array(taskId), feedback: text, endOfRun: z.boolean() }).optional(),
    /** The merge the resolver was working on (`at: integration`): the task whose branch conflicted, and in which files. */
    conflict: z.looseObject({ task: taskId, files: z.array(text) }).optional(),
    /** The `/crew revise` feedback planning was working on (`at: planning`): `/crew continue` plans with it again. */
    revision: text.optional(),
    /** Whether intake's reading was made before the stop (`at: planning`) and is kept: the question says so only then. */
    intakeKept: z.boolean().optional(),
  }),
]);
export type Waiting = Stored<typeof WaitingSchema>;

/** The critic gate's progress, kept on the run so every job and the plan comment see it. */
export const ReviewStateSchema = z.looseObject({
  /** Judgments made so far. */
  iteration: count,
  verdict: z.enum(['PASS', 'FAIL']).nullable(),
  /** The integrated head the critic judges (or judged). */
  headSha: nullableText,
  /** The last judgment, criterion by criterion: met, not met, or could not be evaluated. */
  met: z.record(z.string(), z.boolean().nullable()),
  /** A person took a FAIL as it is with `/crew accept`. */
  acceptedBy: nullableText.default(null),
  /** The person accepted at a budget's end (#52): the critic did not judge, the criteria were not checked. */
  acceptedAtBudget: z.boolean().optional(),
  /** Extra iterations granted by `/crew retry` after the limit. */
  allowance: count.default(0),
  /** The tasks the last FAIL sent back. */
  rerun: z.array(taskId),
});
export type ReviewState = Stored<typeof ReviewStateSchema>;

export const FRESH_REVIEW: ReviewState = { iteration: 0, verdict: null, headSha: null, met: {}, acceptedBy: null, allowance: 0, rerun: [] };

/** The auto-merge gate's last word on the pull request. */
export const MergeStateSchema = z.looseObject({
  state: z.enum(['merged', 'waiting', 'not-merged']),
  reason: text,
  /** The head it looked at, and the merge commit once merged. */
  headSha: text,
  mergeSha: nullableText,
  at: text,
});
export type MergeState = Stored<typeof MergeStateSchema>;

/** Someone closed crew's pull request (merged or not), as the `cleanup` job heard it from GitHub. */
export const PullClosedSchema = z.looseObject({ merged: z.boolean(), at: text, by: text });
export type PullClosed = Stored<typeof PullClosedSchema>;

/**
 * What crew did with a run's branches once the run ended for good (steps/cleanup.ts): the branches it
 * deleted (or found gone), the ones it kept because someone else committed to them (or pushed while it
 * was deleting), and GitHub's refusal, if it refused. Recorded once; the comment about it is posted once.
 */
export const BranchCleanupSchema = z.looseObject({
  at: text,
  deleted: z.array(text),
  kept: z.array(z.looseObject({ branch: text, people: z.array(text), shas: z.array(text) })),
  refused: z.looseObject({ branches: z.array(text), reason: text }).nullable(),
});
export type BranchCleanup = Stored<typeof BranchCleanupSchema>;

/** One job's waits for GitHub's rate limits: when the first began, and how long they were in all (unscaled). */
export const RateLimitNoteSchema = z.looseObject({ at: text, seconds: z.number() });
export type RateLimitNote = Stored<typeof RateLimitNoteSchema>;

/** The most failover notes a run keeps: enough to show a pattern, never a flood in the plan comment. */
export const MAX_FAILOVER_NOTES = 5;

/**
 * One job's move to `fallback_provider`: when, from which provider to which (as messages name
 * them: "the Anthropic API", "Amazon Bedrock (us-east-1)"), the limit the primary hit past its
 * retries ("overloaded (529 overloaded_error)"), and which job ("the worker of t1", "the critic job").
 */
export const FailoverNoteSchema = z.looseObject({ at: text, from: text, to: text, reason: text, job: text });
export type FailoverNote = Stored<typeof FailoverNoteSchema>;

/** The parts of a run that are not tasks, named as claude-crew's execution log names them. */
export const PHASE_ROLES = ['decomposer', 'critic', 'aggregator', 'retrospector'] as const;
export type PhaseRole = (typeof PHASE_ROLES)[number];

export const PhaseLogSchema = z.looseObject({
  /** The model tier, or null for a phase crew does without a model (the aggregator). */
  model: nullableText,
  started: text,
  finished: nullableText,
  status: z.enum(['running', 'success', 'failure']),
  retries: count,
  error: nullableText,
});
export type PhaseLog = Stored<typeof PhaseLogSchema>;

/**
 * run.json: the leader's record of one run. Fields that later versions added have defaults,
 * so a run written before them still reads.
 */
export const RunRecordSchema = z.looseObject({
  schema: z.literal(1),
  issue: z.int().positive(),
  run: z.int().positive(),
  phase: z.enum(PHASES),
  /** `plan` when started with /crew plan: the plan always waits for approval. */
  mode: z.enum(['run', 'plan']).default('run'),
  /** Bumped each time a new plan is recorded; approvals name the version they approve. A run from before it had one plan. */
  planVersion: count.default(1),
  waiting: WaitingSchema.nullable().default(null),
  approvedBy: nullableText.default(null),
  title: text,
  /** Bumped on every write; renderings carry it so an older one never replaces a newer one. */
  version: count,
  requestedBy: text,
  /**
   * The comment that asked for the run (0 when a label or an assignment started it: `how` says
   * which), and the workflow run that started planning it.
   */
  trigger: z.looseObject({
    commentId,
    createdAt: text,
    workflowRunId: text.optional(),
    /** Absent: a comment in the conversation. A review's or a review comment's id is `commentId`; a failed CI run (fix_ci) has none (0). */
    how: z.enum(['label', 'assignee', 'review', 'review_comment', 'ci']).optional(),
    /** For a failed CI run (`how: ci`): that CI workflow run's id. */
    ciRunId: z.int().positive().optional(),
  }),
  /**
   * What the run starts from and its pull request goes into: the default branch (or `base_branch`),
   * or, for `/crew run` on a person's pull request (`pull`, the number the run lives under), that
   * pull request's head branch and the sha it had when asked.
   */
  base: z.looseObject({ branch: text, sha: text, pull: z.int().positive().optional() }),
  planCommentId: commentId.nullable(),
  /**
   * A follow-up run of this run's pull request took over the plan comment (the issue keeps one live
   * plan comment): that run's number. This run never edits the comment again.
   */
  planCommentPassedTo: z.int().positive().nullable().default(null),
  pr: z.looseObject({ number: z.int().positive(), url: text, reportCommentId: commentId.nullable() }).nullable(),
  /** Tokens spent outside tasks (planning); task usage lives in the task files. */
  usage: UsageSchema,
  createdAt: text,
  updatedAt: text,
  /**
   * Why the run stopped. `resumeFrom` is set when crew itself failed (an error outside the
   * tasks): the phase it was in, which `/crew resume` goes back to.
   */
  failure: z.looseObject({ step: text, message: text, resumeFrom: z.enum(PHASES).optional() }).nullable(),
  /** Who holds the finalisation step, so two `advance` jobs never integrate twice. */
  finalizer: nullableText,
  /** The escalation policy's memory: counts per target, the failure streak, failures seen. */
  leader: LeaderMemorySchema.default(() => FRESH_MEMORY),
  /** The critic gate; null until the first integration. */
  review: ReviewStateSchema.nullable().default(null),
  /** Digest of the done criteria as the plan review saw them; the critic checks nothing changed them. */
  criteriaDigest: nullableText.default(null),
  /** The auto-merge gate's last word on the pull request; null until it has looked. */
  merge: MergeStateSchema.nullable().default(null),
  /** The retrospective comment (on the PR, or the issue when there is none), and the phase it looked back on. */
  retro: z
    .looseObject({ commentId, url: text, mode: z.enum(['full', 'light']), phase: z.enum(PHASES).optional() })
    .nullable()
    .default(null),
  /**
   * The retrospective was skipped because `budgets.run` was spent when it came (#52): the note crew posted in its
   * place (on the PR, or the issue), the phase it would have looked back on, and whether `/crew retro` asked for it
   * (a full one). `/crew continue [$N]` writes it there.
   */
  retroAtBudget: z.looseObject({ commentId, url: text, phase: z.enum(PHASES), forced: z.boolean().optional() }).optional(),
  /** When crew's own phases ran (claude-crew's execution log lists them next to the tasks). */
  phases: z.partialRecord(z.enum(PHASE_ROLES), PhaseLogSchema).optional(),
  /** The report comment on the issue of a run that ended without a pull request (failed or aborted). */
  issueReportCommentId: commentId.nullable().optional(),
  /** Jobs of this run that GitHub's rate limits held up, the last few; the plan comment says so. */
  rateLimited: z.array(RateLimitNoteSchema).default(() => []),
  /** Jobs whose model calls moved to `fallback_provider`, the last few; the plan comment and the report say so. */
  failovers: z.array(FailoverNoteSchema).default(() => []),
  /** What the run has created on GitHub, counted against the caps (domain/caps.ts). */
  posted: PostedSchema.default(() => NOTHING_POSTED),
  /**
   * Where the run's jobs run: GitHub Actions, which bills minutes, or the person's machine
   * (`crew run`), which bills none. Absent in records written before it existed.
   */
  host: z.enum(['actions', 'local']).optional(),
  /** What the run will likely cost, made when its plan was recorded (domain/estimate.ts); the report sets the actual figures beside it. */
  estimate: CostEstimateSchema.nullable().optional(),
  /**
   * A follow-up run on crew's own pull request (domain/follow-up.ts): `base.sha` is the pull
   * request's head it starts from, `base.branch` the branch the pull request goes into, and the
   * run integrates onto `followUp.branch`. Null for every other run.
   */
  followUp: FollowUpSchema.nullable().default(null),
  /** `fix_ci`'s attempts on this run's pull request (domain/fix-ci.ts); none until CI fails there. */
  fixCi: FixCiStateSchema.default(() => ({ attempts: [], exhaustedNotedFor: null, limit: null, lookAfter: null })),
  /** Its pull request was closed by someone (merged or not); null while it is open, or crew merged it (`merge`). */
  prClosed: PullClosedSchema.nullable().default(null),
  /** What crew did with the run's branches once it ended for good; null until then. */
  cleanup: BranchCleanupSchema.nullable().default(null),
  /**
   * The images the request shows (#36), read or refused, each by its source and, when read, its
   * sha256 (domain/images.ts); null until planning has looked. Jobs fetch them again and check the hash.
   */
  images: z.array(ImageRecordSchema).nullable().default(null),
  /** Recorded images a later planning job could not load again (`image-2 could not be loaded: …`): in the plan comment. */
  imagesNotLoaded: z.array(text).optional(),
  /** Images in the answers to crew's questions, with the comments that show them (#47): the next planning job reads them. */
  answerImages: z.array(FoundImageSchema).optional(),
  /** A repository budget was at 80 % or more when the run started (domain/spend.ts): the plan comment warns. */
  spendWarning: SpendWarningSchema.optional(),
  /** Parallel attempts of each task (#50), fixed when the run starts: `attempts.parallel` or the run's request, and `attempts.max`. Absent: one. */
  attempts: z.looseObject({ parallel: count, max: count }).optional(),
  /** The run's budget a person set with `/crew continue` after it stopped at one (#52); absent: `budgets.run`. */
  budgetRun: z.looseObject({ tokens: z.number(), cost_usd: z.number() }).optional(),
});
export type RunRecord = Stored<typeof RunRecordSchema>;

/**
 * A run as `/crew run` (or `/crew plan`) starts it: planning, nothing spent, nothing posted
 * but the plan comment it is about to post. What the schema does not default is set here, once.
 */
export function newRunRecord(a: {
  issue: number;
  run: number;
  mode: RunRecord['mode'];
  title: string;
  requestedBy: string;
  trigger: RunRecord['trigger'];
  base: RunRecord['base'];
  now: string;
  host: NonNullable<RunRecord['host']>;
  /** A follow-up run, with the pull request (and its report comment) it updates. */
  followUp?: { record: NonNullable<RunRecord['followUp']>; pr: NonNullable<RunRecord['pr']> };
  /** Parallel attempts of each task (#50); one when absent. */
  attempts?: RunAttempts;
}): RunRecord {
  return RunRecordSchema.parse({
    schema: 1,
    issue: a.issue,
    run: a.run,
    phase: 'PLANNING',
    mode: a.mode,
    planVersion: 0,
    title: a.title,
    version: 0,
    requestedBy: a.requestedBy,
    trigger: a.trigger,
    base: a.base,
    planCommentId: null,
    pr: a.followUp?.pr ?? null,
    followUp: a.followUp?.record ?? null,
    usage: ZERO_USAGE,
    createdAt: a.now,
    updatedAt: a.now,
    failure: null,
    finalizer: null,
    posted: { ...NOTHING_POSTED, comments: 1 },
    host: a.host,
    estimate: null,
    ...(a.attempts && (a.attempts.parallel > 1 || a.attempts.max > 1) ? { attempts: a.attempts } : {}),
  } satisfies z.input<typeof RunRecordSchema>);
}

/** The run record with one phase's log entry set. */
export function logPhase(rec: RunRecord, role: PhaseRole, entry: PhaseLog): RunRecord {
  return { ...rec, phases: { ...rec.phases, [role]: entry } };
}

export const TaskClaimSchema = z.looseObject({
  /** The workflow run that will execute the task. */
  runId: text,
  /** Matches the nonce of the dispatch that carries the task, so a stale dispatch does nothing. */
  nonce: text,
  at: text,
});
export type TaskClaim = Stored<typeof TaskClaimSchema>;

export const SpentSchema = z.looseObject({
  /** Input (cached included) and output tokens. */
  tokens: z.number(),
  costUsd: z.number(),
  /** Wall-clock milliseconds the attempts took. */
  ms: z.number(),
});
export type Spent = Stored<typeof SpentSchema>;

/** Where a person reads a task's latest attempt: its job's log and its trajectory (docs/trajectories.md). */
export const TaskLinksSchema = z.looseObject({ log: nullableText, trajectory: nullableText });
export type TaskLinks = Stored<typeof TaskLinksSchema>;

/**
 * tasks/task_<id>.json: one task's record, written by the jobs that run it. Every field but
 * the first four has a default: a task record starts from those (newTaskRecord).
 */
export const TaskRecordSchema = z.looseObject({
  id: taskId,
  status: z.enum(TASK_STATUSES),
  attempts: count,
  branch: crewBranch,
  claim: TaskClaimSchema.nullable().default(null),
  startedAt: nullableText.default(null),
  finishedAt: nullableText.default(null),
  headSha: nullableText.default(null),
  usage: UsageSchema.default(() => ZERO_USAGE),
  turns: count.default(0),
  summary: nullableText.default(null),
  error: nullableText.default(null),
  changedFiles: z.array(text).default(() => []),
  metadataIssues: z.array(text).default(() => []),
  /** Set when run_command could not be sandboxed for this task; shown loudly in the plan comment. */
  sandboxWarning: nullableText.default(null),
  /** Requests crew's egress proxy refused in this task's jobs (setup and commands), by host; listed in the pull request. */
  refused: z.record(text, count).default(() => ({})),
  /** What went wrong with the repository's MCP servers in this task's last job (#36): shown in the plan comment and the report. */
  mcpNotes: z.array(text).default(() => []),
  /** The images this task lists that its last job could not load again (#36): in the plan comment and the worker's prompt. */
  imagesNotLoaded: z.array(text).optional(),
  /** The advisor's stronger model for the next attempt. */
  tierOverride: z.enum(TIERS).nullable().default(null),
  /** Notes for the next attempt: the advisor's, a person's answer. */
  advice: z.array(text).default(() => []),
  /** A person took the result as it is: it counts as done. */
  accepted: z.boolean().default(false),
  /** The tasks the planner replaced this one with. */
  replacedBy: z.array(taskId).nullable().default(null),
  /** A planner is re-decomposing this failed task; until it is done, its dependents wait. */
  pendingReplan: z.boolean().default(false),
  /** Times a lost worker was restarted automatically. */
  restarts: count.default(0),
  /** Times an attempt went on in a new job because its work job's time limit was near. */
  continuations: count.optional(),
  /** The attempt handed to a new job, and where its retry allowance started: the new job goes on with both. */
  continued: z.looseObject({ attempt: count, firstAttempt: count }).nullable().optional(),
  /**
   * What the task's current allowance of attempts has spent. The task budgets and
   * task_timeout_minutes are hard stops across those attempts, a restarted or resumed job
   * included. Starting the task from pending (its first claim, a person's retry or
   * resume, the critic sending it back) or the advisor's retry opens a new allowance.
   * Absent in records written before it existed.
   */
  spent: SpentSchema.optional(),
  /**
   * The latest attempt reached a limit (#49): its turns, its budget, or it went round in circles. Its
   * work was committed to the task's branch all the same; the plan comment says so. Null when the
   * latest attempt did not; absent in records written before it existed.
   */
  limitReached: z
    .looseObject({ limit: z.enum(['max_turns', 'budget', 'loop']), attempt: count, turns: count, reported: z.boolean(), files: count })
    .nullable()
    .optional(),
  /** Where the latest attempt's job log and trajectory are; absent before an attempt recorded them. */
  links: TaskLinksSchema.optional(),
  /**
   * The task's parallel attempts judged by evidence (#50): each candidate's standing, the one kept and why.
   * Absent for a task run once (`attempts.parallel` 1).
   */
  selection: SelectionSchema.optional(),
  /** How many attempts of the task run side by side since its claim (#50); absent: one. */
  parallel: count.optional(),
  /** The parallel attempts asked for, when `max_parallel` let fewer run (`parallel`): the plan comment says so. */
  attemptsAsked: count.optional(),
  /** Each parallel attempt's outcome as its leg recorded it, until the last one's leg judges them all (#50). */
  candidates: z.array(CandidateRunSchema).optional(),
  /** A question for a person about this task, waiting for the open one to be answered; until then the task is not settled. */
  queuedQuestion: z
    .looseObject({ topic: z.enum(USER_TOPICS), question: text })
    .nullable()
    .optional(),
});
export type TaskRecord = Stored<typeof TaskRecordSchema>;

/** What a task record holds before anything happened to it: the schema's defaults. */
const TaskDefaultsSchema = TaskRecordSchema.omit({ id: true, status: true, attempts: true, branch: true });

export const NOTHING_SPENT: Spent = { tokens: 0, costUsd: 0, ms: 0 };

/** What a cache read and a (five-minute) cache write cost against an uncached input token: Anthropic's pricing page. */
export const CACHE_READ_WEIGHT = 0.1;
export const CACHE_WRITE_WEIGHT = 1.25;

/**
 * Budget tokens (#49): what tokens cost, in uncached input tokens. A cache read counts a tenth, a
 * cache write a token and a quarter, as the API prices them; before this, a turn that read 100k
 * cached tokens counted 100k, and a long task's budget was spent on a few dollars' worth of reads.
 */
export function tokensOf(u: Usage): number {
  return Math.round(u.inputTokens + u.outputTokens + u.cacheReadTokens * CACHE_READ_WEIGHT + u.cacheWriteTokens * CACHE_WRITE_WEIGHT);
}

/** Adds one attempt's use to what the allowance has spent. */
export function addSpent(s: Spent | undefined, usage: Usage, ms: number): Spent {
  const base = s ?? NOTHING_SPENT;
  return { tokens: base.tokens + tokensOf(usage), costUsd: Math.round((base.costUsd + usage.costUsd) * 1e6) / 1e6, ms: base.ms + ms };
}

export interface RunView {
  run: RunRecord;
  plan: Plan | null;
  tasks: Map<string, TaskRecord>;
  /** The jobs that have written the run's state on GitHub, each with its start and last write (for billable minutes); none locally. */
  jobs?: JobTime[];
}

/**
 * The commit whose files crew trusts for the run: its base, except for a follow-up, whose base is
 * its pull request's model-written head; there it is the first run's base. Setup runs as crew's
 * user only on this commit, and agent instructions are read from it.
 */
export function reviewedSha(run: Pick<RunRecord, 'base' | 'followUp'>): string {
  return run.followUp?.reviewedSha ?? run.base.sha;
}

export function isTerminal(phase: Phase): boolean {
  return TERMINAL_PHASES.has(phase);
}

/**
 * Where a task stands for the run: done (succeeded, or accepted as it is by a person),
 * failed for good, replaced by the planner's new tasks, or still open.
 */
export function settlement(t: TaskRecord | undefined): 'done' | 'failed' | 'replaced' | 'open' {
  if (!t) return 'open';
  if (t.replacedBy) return 'replaced';
  if (t.status === 'success' || t.accepted) return 'done';
  if (DONE_STATUSES.has(t.status) && !t.pendingReplan && !t.queuedQuestion) return 'failed';
  return 'open';
}

/**
 * Tasks that may start now: pending, every dependency done. When there are more than
 * free slots, the first ones go first: those heading the longest chain of dependents,
 * then plan order, so the critical path never waits behind tasks nothing waits for.
 */
export function readyTasks(view: RunView): string[] {
  if (!view.plan) return [];
  const ahead = chainAhead(view.plan);
  return view.plan.tasks
    .filter((t) => view.tasks.get(t.id)?.status === 'pending')
    .filter((t) => t.dependsOn.every((d) => settlement(view.tasks.get(d)) === 'done'))
    .map((t) => t.id)
    .sort((a, b) => ahead.get(b)! - ahead.get(a)!);
}

/** Pending tasks that can never run because a dependency failed for good. */
export function blockedTasks(view: RunView): string[] {
  if (!view.plan) return [];
  return view.plan.tasks
    .filter((t) => view.tasks.get(t.id)?.status === 'pending' && t.dependsOn.some((d) => settlement(view.tasks.get(d)) === 'failed'))
    .map((t) => t.id);
}

/**
 * Every parallel attempt of the task's current claim is recorded and none is kept yet (#50): what is
 * left is judging them, which a leg re-entering the task (a re-run, `/crew resume`, a restart) does
 * without working again. Settling clears `parallel`, so a settled task is never complete.
 */
export function candidatesComplete(t: Pick<TaskRecord, 'parallel' | 'candidates'>): boolean {
  const of = t.parallel ?? 1;
  return of > 1 && (t.candidates?.length ?? 0) >= of;
}

/**
 * Parallel attempts recorded under the task's current claim (#50): a claim that ends without judging them
 * (lost, cancelled, stopped at a budget, failed and retried) keeps them and its attempt number.
 */
export function keepsCandidates(t: Pick<TaskRecord, 'parallel' | 'candidates'>): boolean {
  return (t.parallel ?? 1) > 1 && (t.candidates?.length ?? 0) > 0;
}

/**
 * The attempts (1-based) a claim of the task starts legs for (#50): one for a task run once; one that judges
 * them (attempt 1's leg) when every attempt is recorded; otherwise those not recorded yet. A claim after a
 * cancel or a budget's stop keeps what was recorded, so only what is missing runs again.
 */
export function attemptsToRun(t: Pick<TaskRecord, 'parallel' | 'candidates'>): number[] {
  const of = t.parallel ?? 1;
  if (of <= 1 || candidatesComplete(t)) return [1];
  const recorded = new Set((t.candidates ?? []).map((c) => c.n));
  return Array.from({ length: of }, (_, i) => i + 1).filter((n) => !recorded.has(n));
}

/** The work legs running: each running task's parallel attempts (#50) still to record or judge, one for most. */
export function runningCount(view: RunView): number {
  return [...view.tasks.values()].filter((t) => t.status === 'running' || t.status === 'retrying').reduce((n, t) => n + attemptsToRun(t).length, 0);
}

/** Every task has settled: done, failed for good or replaced. */
export function allTasksDone(view: RunView): boolean {
  return [...view.tasks.values()].every((t) => settlement(t) !== 'open');
}

/** Tasks that ended without success and were not replaced or accepted. */
export function failedTasks(view: RunView): TaskRecord[] {
  return [...view.tasks.values()].filter((t) => settlement(t) === 'failed');
}

/** Everything spent so far: planning plus every task. */
export function totalUsage(view: RunView): Usage {
  return [...view.tasks.values()].reduce((sum, t) => addUsage(sum, t.usage), view.run.usage);
}

export function newTaskRecord(id: string, branch: string): TaskRecord {
  return { id, status: 'pending', attempts: 0, branch, ...TaskDefaultsSchema.parse({}) };
}
