import type { Plan } from './plan';

/**
 * The leader's durable state for one run. The orchestrator decides what happens next
 * from this and nothing else. Pure types and transitions.
 */

export type Phase =
  | 'PLANNING'
  | 'AWAITING_APPROVAL'
  | 'EXECUTING'
  | 'INTEGRATING'
  | 'REVIEWING'
  | 'COMPLETED'
  | 'ESCALATING'
  | 'INTERRUPTED'
  | 'FAILED'
  | 'ABORTED';

export const TERMINAL_PHASES: ReadonlySet<Phase> = new Set(['COMPLETED', 'FAILED', 'ABORTED']);

export type TaskStatus = 'pending' | 'running' | 'retrying' | 'success' | 'partial' | 'failure' | 'timeout' | 'blocked';

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
  | { kind: 'approval'; commentId: number; planVersion: number; reason: 'requested' | 'review-failed' };

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
  trigger: { commentId: number; createdAt: string };
  base: { branch: string; sha: string };
  planCommentId: number | null;
  pr: { number: number; url: string; reportCommentId: number | null } | null;
  /** Tokens spent outside tasks (planning); task usage lives in the task files. */
  usage: Usage;
  createdAt: string;
  updatedAt: string;
  failure: { step: string; message: string } | null;
  /** Who holds the finalisation step, so two `advance` jobs never integrate twice. */
  finalizer: string | null;
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
}

export interface RunView {
  run: RunRecord;
  plan: Plan | null;
  tasks: Map<string, TaskRecord>;
}

export function isTerminal(phase: Phase): boolean {
  return TERMINAL_PHASES.has(phase);
}

/** Tasks that may start now: pending, every dependency succeeded. */
export function readyTasks(view: RunView): string[] {
  if (!view.plan) return [];
  return view.plan.tasks
    .filter((t) => view.tasks.get(t.id)?.status === 'pending')
    .filter((t) => t.dependsOn.every((d) => view.tasks.get(d)?.status === 'success'))
    .map((t) => t.id);
}

/** Pending tasks that can never run because a dependency ended without success. */
export function blockedTasks(view: RunView): string[] {
  if (!view.plan) return [];
  const failed = (id: string) => {
    const s = view.tasks.get(id)?.status;
    return s !== undefined && DONE_STATUSES.has(s) && s !== 'success';
  };
  return view.plan.tasks.filter((t) => view.tasks.get(t.id)?.status === 'pending' && t.dependsOn.some(failed)).map((t) => t.id);
}

export function runningCount(view: RunView): number {
  return [...view.tasks.values()].filter((t) => t.status === 'running' || t.status === 'retrying').length;
}

export function allTasksDone(view: RunView): boolean {
  return [...view.tasks.values()].every((t) => DONE_STATUSES.has(t.status));
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
  };
}
