import { FRESH_MEMORY, type LeaderMemory, type UserTopic } from './leader-policy';
import { chainAhead, type Plan, type Tier } from './plan';
import { NOTHING_POSTED, type Posted } from './caps';
import type { JobTime } from './actions-minutes';
import type { CostEstimate } from './cost-estimate';

/**
 * The leader's durable state for one run. The orchestrator decides what happens next
 * from this and nothing else. Pure types and transitions.
 */

/** Every phase a run can be in; the state files' schema (state/schemas.ts) reads the list from here. */
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

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

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

/** What a run in ESCALATING or AWAITING_APPROVAL waits for, anchored to the comment that asked. */
export type Waiting =
  | { kind: 'answer'; commentId: number; questions: string[] }
  | { kind: 'approval'; commentId: number; planVersion: number; reason: 'requested' | 'review-failed' }
  /** An escalation to a person about a task: retry, accept as is, abort, or answer. */
  | { kind: 'decision'; commentId: number; task: string; topic: UserTopic; question: string }
  /** The critic's FAIL stands after every iteration (or it could not judge): retry, accept, or abort. */
  | { kind: 'verdict'; commentId: number; iteration: number }
  /** Merging a task into the integration branch conflicted and the resolver could not keep both intents: retry or abort. */
  | { kind: 'conflict'; commentId: number; task: string; files: string[] };

/** The critic gate's progress, kept on the run so every job and the plan comment see it. */
export interface ReviewState {
  /** Judgments made so far. */
  iteration: number;
  verdict: 'PASS' | 'FAIL' | null;
  /** The integrated head the critic judges (or judged). */
  headSha: string | null;
  /** The last judgment, criterion by criterion: met, not met, or could not be evaluated. */
  met: Record<string, boolean | null>;
  /** A person took a FAIL as it is with `/crew accept`. */
  acceptedBy: string | null;
  /** Extra iterations granted by `/crew retry` after the limit. */
  allowance: number;
  /** The tasks the last FAIL sent back. */
  rerun: string[];
}

export const FRESH_REVIEW: ReviewState = { iteration: 0, verdict: null, headSha: null, met: {}, acceptedBy: null, allowance: 0, rerun: [] };

export interface RunRecord {
  schema: 1;
  issue: number;
  run: number;
  phase: Phase;
  /** `plan` when started with /crew plan: the plan always waits for approval. */
  mode: 'run' | 'plan';
  /** Bumped each time a new plan is recorded; approvals name the version they approve. */
  planVersion: number;
  waiting: Waiting | null;
  approvedBy: string | null;
  title: string;
  /** Bumped on every write; renderings carry it so an older one never replaces a newer one. */
  version: number;
  requestedBy: string;
  /**
   * The comment that asked for the run (0 when a label or an assignment started it: `how` says
   * which), and the workflow run that started planning it.
   */
  trigger: { commentId: number; createdAt: string; workflowRunId?: string; how?: 'label' | 'assignee' };
  base: { branch: string; sha: string };
  planCommentId: number | null;
  pr: { number: number; url: string; reportCommentId: number | null } | null;
  /** Tokens spent outside tasks (planning); task usage lives in the task files. */
  usage: Usage;
  createdAt: string;
  updatedAt: string;
  /**
   * Why the run stopped. `resumeFrom` is set when crew itself failed (an error outside the
   * tasks): the phase it was in, which `/crew resume` goes back to.
   */
  failure: { step: string; message: string; resumeFrom?: Phase } | null;
  /** Who holds the finalisation step, so two `advance` jobs never integrate twice. */
  finalizer: string | null;
  /** The escalation policy's memory: counts per target, the failure streak, failures seen. */
  leader: LeaderMemory;
  /** The critic gate; null until the first integration. */
  review: ReviewState | null;
  /** Digest of the done criteria as the plan review saw them; the critic checks nothing changed them. */
  criteriaDigest: string | null;
  /** The auto-merge gate's last word on the pull request; null until it has looked. */
  merge: MergeState | null;
  /** The retrospective comment (on the PR, or the issue when there is none), and the phase it looked back on. */
  retro: { commentId: number; url: string; mode: 'full' | 'light'; phase?: Phase } | null;
  /** When crew's own phases ran (claude-crew's execution log lists them next to the tasks). */
  phases?: Partial<Record<PhaseRole, PhaseLog>>;
  /** The report comment on the issue of a run that ended without a pull request (failed or aborted). */
  issueReportCommentId?: number | null;
  /** Jobs of this run that GitHub's rate limits held up, the last few; the plan comment says so. */
  rateLimited: RateLimitNote[];
  /** Jobs whose model calls moved to `fallback_provider`, the last few; the plan comment and the report say so. */
  failovers: FailoverNote[];
  /** What the run has created on GitHub, counted against the caps (domain/caps.ts). */
  posted: Posted;
  /**
   * Where the run's jobs run: GitHub Actions, which bills minutes, or the person's machine
   * (`crew run`), which bills none. Absent in records written before it existed.
   */
  host?: 'actions' | 'local';
  /** What the run will likely cost, made when its plan was recorded (domain/estimate.ts); the report sets the actual figures beside it. */
  estimate?: CostEstimate | null;
}

/**
 * A run as `/crew run` (or `/crew plan`) starts it: planning, nothing spent, nothing posted
 * but the plan comment it is about to post. Every field a new run has is set here, once.
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
}): RunRecord {
  return {
    schema: 1,
    issue: a.issue,
    run: a.run,
    phase: 'PLANNING',
    mode: a.mode,
    planVersion: 0,
    waiting: null,
    approvedBy: null,
    title: a.title,
    version: 0,
    requestedBy: a.requestedBy,
    trigger: a.trigger,
    base: a.base,
    planCommentId: null,
    pr: null,
    usage: ZERO_USAGE,
    createdAt: a.now,
    updatedAt: a.now,
    failure: null,
    finalizer: null,
    leader: FRESH_MEMORY,
    review: null,
    merge: null,
    retro: null,
    criteriaDigest: null,
    rateLimited: [],
    failovers: [],
    posted: { ...NOTHING_POSTED, comments: 1 },
    host: a.host,
    estimate: null,
  };
}

/** One job's waits for GitHub's rate limits: when the first began, and how long they were in all (unscaled). */
export interface RateLimitNote {
  at: string;
  seconds: number;
}

/** The most failover notes a run keeps: enough to show a pattern, never a flood in the plan comment. */
export const MAX_FAILOVER_NOTES = 5;

/**
 * One job's move to `fallback_provider`: when, from which provider to which (as messages name
 * them: "the Anthropic API", "Amazon Bedrock (us-east-1)"), the limit the primary hit past its
 * retries ("overloaded (529 overloaded_error)"), and which job ("the worker of t1", "the critic job").
 */
export interface FailoverNote {
  at: string;
  from: string;
  to: string;
  reason: string;
  job: string;
}

/** The parts of a run that are not tasks, named as claude-crew's execution log names them. */
export type PhaseRole = 'decomposer' | 'critic' | 'aggregator' | 'retrospector';

export interface PhaseLog {
  /** The model tier, or null for a phase crew does without a model (the aggregator). */
  model: string | null;
  started: string;
  finished: string | null;
  status: 'running' | 'success' | 'failure';
  retries: number;
  error: string | null;
}

/** The run record with one phase's log entry set. */
export function logPhase(rec: RunRecord, role: PhaseRole, entry: PhaseLog): RunRecord {
  return { ...rec, phases: { ...rec.phases, [role]: entry } };
}

export interface MergeState {
  state: 'merged' | 'waiting' | 'not-merged';
  reason: string;
  /** The head it looked at, and the merge commit once merged. */
  headSha: string;
  mergeSha: string | null;
  at: string;
}

export interface TaskClaim {
  /** The workflow run that will execute the task. */
  runId: string;
  /** Matches the nonce of the dispatch that carries the task, so a stale dispatch does nothing. */
  nonce: string;
  at: string;
}

export interface TaskRecord {
  id: string;
  status: TaskStatus;
  attempts: number;
  branch: string;
  claim: TaskClaim | null;
  startedAt: string | null;
  finishedAt: string | null;
  headSha: string | null;
  usage: Usage;
  turns: number;
  summary: string | null;
  error: string | null;
  changedFiles: string[];
  metadataIssues: string[];
  /** Set when run_command could not be sandboxed for this task; shown loudly in the plan comment. */
  sandboxWarning: string | null;
  /** The advisor's stronger model for the next attempt. */
  tierOverride: Tier | null;
  /** Notes for the next attempt: the advisor's, a person's answer. */
  advice: string[];
  /** A person took the result as it is: it counts as done. */
  accepted: boolean;
  /** The tasks the planner replaced this one with. */
  replacedBy: string[] | null;
  /** A planner is re-decomposing this failed task; until it is done, its dependents wait. */
  pendingReplan: boolean;
  /** Times a lost worker was restarted automatically. */
  restarts: number;
  /** Times an attempt went on in a new job because its work job's time limit was near. */
  continuations?: number;
  /** The attempt handed to a new job, and where its retry allowance started: the new job goes on with both. */
  continued?: { attempt: number; firstAttempt: number } | null;
  /**
   * What the task's current allowance of attempts has spent. The task budgets and
   * task_timeout_minutes are hard stops across those attempts, a restarted or resumed job
   * included. Starting the task from pending (its first claim, a person's retry or
   * resume, the critic sending it back) or the advisor's retry opens a new allowance.
   * Absent in records written before it existed.
   */
  spent?: Spent;
  /** A question for a person about this task, waiting for the open one to be answered; until then the task is not settled. */
  queuedQuestion?: { topic: UserTopic; question: string } | null;
}

export interface Spent {
  /** Input (cached included) and output tokens. */
  tokens: number;
  costUsd: number;
  /** Wall-clock milliseconds the attempts took. */
  ms: number;
}

export const NOTHING_SPENT: Spent = { tokens: 0, costUsd: 0, ms: 0 };

export function tokensOf(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
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

export function runningCount(view: RunView): number {
  return [...view.tasks.values()].filter((t) => t.status === 'running' || t.status === 'retrying').length;
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
  return {
    id,
    status: 'pending',
    attempts: 0,
    branch,
    claim: null,
    startedAt: null,
    finishedAt: null,
    headSha: null,
    usage: ZERO_USAGE,
    turns: 0,
    summary: null,
    error: null,
    changedFiles: [],
    metadataIssues: [],
    sandboxWarning: null,
    tierOverride: null,
    advice: [],
    accepted: false,
    replacedBy: null,
    pendingReplan: false,
    restarts: 0,
  };
}
