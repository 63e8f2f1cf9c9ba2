import { legOf } from '../domain/attempts';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config/schema';
import type { CiWorkflowsRead } from '../config/ci-workflows';
import { attemptsToRun, isTerminal, totalUsage, type RunRecord, type RunView, type TaskClaim } from '../domain/run-state';
import { withEffort } from '../agents/effort';
import type { EffortRole } from '../domain/effort';
import { withinRunBudget } from '../agents/run-budget';
import { runBudgets } from '../domain/budgets';
import { assertCrewRef, runFolder, STATE_BRANCH, type BranchNames } from '../domain/refs';
import { GITHUB, sentence, type Surface } from '../domain/surface';
import type { CrewEvent } from '../event';
import {
  type AgentRunMeta,
  type AgentTrajectory,
  type Clock,
  type CrewBranches,
  type RepositorySettings,
  type Forge,
  type Freshness,
  type Log,
  type Model,
  type ModelFailover,
  type Remote,
  SEEN,
  type StateSnapshot,
  type StateStore,
  type StateTx,
  type Trajectories,
  type WorkingCopy,
  type WriteOptions,
} from '../ports';
import type { PlanLinks } from '../render/plan-comment';
import type { Settings } from '../settings';
import { readRun, readView, writeRun } from '../state/run-files';
import type { BilledJob } from '../state/job-times';
import type { PlanCommentIds } from '../state/pending-plan-comment';
import type { PlanCommentSync } from './plan-comment/plan-comment-sync';

/** Everything a step needs, built once per job by an entry point (main.ts, or local mode's engine with the adapters src/cli/ builds). */
export interface StepContext {
  settings: Settings;
  event: CrewEvent;
  forge: Forge;
  /** The job's checkout. */
  repo: WorkingCopy;
  /** Where branches live between jobs: what the checkout fetches and pushes. */
  remote: Remote;
  /** crew's branches on GitHub, for cleaning up after runs (steps/cleanup.ts); absent locally, where a run's branches stay. */
  crewBranches?: CrewBranches;
  /** The repository's settings as `/crew doctor` reads them (GitHub only). */
  repositorySettings?: RepositorySettings;
  state: StateStore;
  /** How this run's branches are named (GitHub or local). */
  branches: BranchNames;
  clock: Clock;
  log: Log;
  /** The workflow run this job belongs to; task claims record it. */
  runId: string;
  config(): Promise<Config>;
  /** A prompt template: the repository's override from the default branch, else crew's own. */
  template(name: string): Promise<string>;
  /** A file as it is on the default branch (configuration, templates, knowledge), never from a branch under work. */
  readDefaultBranchFile(path: string): Promise<string | undefined>;
  /** The model client; throws a clear error when no key was given. */
  model(): Model;
  /** Every time this job's model calls moved to `fallback_provider` (at most once per job); the plan comment says so. */
  modelFailovers?: () => readonly ModelFailover[];
  output(name: string, value: string): void;
  summary(markdown: string): Promise<void>;
  /** Aborts when the runner starts cancelling the job (SIGINT); the work step saves its work and stops. */
  cancellation?: AbortSignal;
  /**
   * This job's time limit (`timeout-minutes`, read from the workflow on the default branch) and
   * when the job started, in epoch ms; undefined where jobs have no limit (local mode). `calledWorkflow`:
   * the limit is crew-jobs.yml's (the short form), which the repository's own file cannot change.
   */
  jobLimit?: () => Promise<{ minutes: number; startedAt: number; unreadable?: string; calledWorkflow?: boolean }>;
  /**
   * The CI workflows crew's own workflow names under `on.workflow_run.workflows` (the ones fix_ci is
   * named for), read from the default branch; undefined where there is no such workflow (local mode).
   */
  ciWorkflows?: () => Promise<CiWorkflowsRead>;
  /** How the person lets commands run without a sandbox, said when none starts (default: the crew.yml key). */
  unsandboxedOptIn?: string;
  /** Where the people who read crew's comments are (GitHub, or a local run's terminal): every text a step writes is worded for it. */
  surface: Surface;
  /**
   * This job as GitHub bills it: an id unique per job GitHub starts, its workflow job and task, and
   * when crew's step began (epoch ms). main.ts records it with every state write (state/job-times.ts).
   * Absent locally: a local run bills no Actions minutes.
   */
  job?: BilledJob;
  /**
   * The run this job is working on, once a job that did not start with one (route) has created or
   * found it: a failure no step caught is then recorded on that run, so its plan comment says so.
   */
  working?: { issue: number; run: number };
  /** Where this job's agent runs are recorded (docs/trajectories.md); absent, nothing is. */
  trajectories?: Trajectories;
  /** This job's own log page (GitHub's jobs list names it), or null where there is none. */
  jobLink?: () => Promise<string | null>;
  /**
   * Plan comment ids `state` holds until a write of the run carries them (state/pending-plan-comment.ts);
   * absent, ensurePlanComment records the id in a write of its own.
   */
  planCommentIds?: PlanCommentIds;
  /** This job's side of the plan comment (steps/plan-comment/), its own: made with the context (withPlanCommentSync). */
  planComment: PlanCommentSync;
}

/** The record of one agent run this job starts, when the job records them. */
export function agentRun(ctx: Pick<StepContext, 'trajectories'>, meta: AgentRunMeta): AgentTrajectory | undefined {
  return ctx.trajectories?.start(meta);
}

/** A step was given a run that crew/state does not hold (never started, or its folder was removed). */
function runMissing(issue: number, run: number, s: Surface = GITHUB): CrewError {
  return new CrewError(
    'loading the run',
    `${s.runOfIssue(issue, run)} does not exist on the ${STATE_BRANCH} branch.`,
    `${sentence(s.give('run'))} to start a new run.`,
  );
}

/** The run's record as a state read or write sees it; a run that is not there is a CrewError. */
export function recordIn(r: Pick<StateSnapshot, 'read' | 'list'>, issue: number, run: number): RunRecord {
  const rec = readRun(r, issue, run);
  if (!rec) throw runMissing(issue, run);
  return rec;
}

/** The run, its plan and its tasks as a state read or write sees them; a run that is not there is a CrewError. */
export function viewIn(r: Pick<StateSnapshot, 'read' | 'list'>, issue: number, run: number): RunView {
  const view = readView(r, issue, run);
  if (!view) throw runMissing(issue, run);
  return view;
}

/**
 * One compare-and-swap write of a run's folder on crew/state, for code that reads nothing
 * first or handles a missing run itself; the commit message names the issue and the run,
 * then `what`. `mutate` may run more than once (see StateStore.update).
 */
export async function updateRunFolder<T>(
  ctx: StepContext,
  issue: number,
  run: number,
  what: string,
  mutate: (tx: StateTx) => T,
  fresh?: WriteOptions,
): Promise<T> {
  const { value } = await ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: ${what}`, mutate, fresh);
  return value;
}

/**
 * One write of a run that reads its record first: `mutate` gets run.json as this attempt of
 * the write reads it (a run that is not there is a CrewError) and returns the step's value.
 */
export function updateRun<T>(
  ctx: StepContext,
  issue: number,
  run: number,
  what: string,
  mutate: (rec: RunRecord, tx: StateTx) => T,
  fresh?: WriteOptions,
): Promise<T> {
  return updateRunFolder(ctx, issue, run, what, (tx) => mutate(recordIn(tx, issue, run), tx), fresh);
}

/** As updateRun, with the whole view: the record, the plan and every task's record. */
export function updateView<T>(
  ctx: StepContext,
  issue: number,
  run: number,
  what: string,
  mutate: (view: RunView, tx: StateTx) => T,
  fresh?: WriteOptions,
): Promise<T> {
  return updateRunFolder(ctx, issue, run, what, (tx) => mutate(viewIn(tx, issue, run), tx), fresh);
}

/** As updateView, where the write's first try may start from a tip this job saw (see Freshness). */
export function updateViewFrom<T>(
  fresh: WriteOptions | undefined,
  ctx: StepContext,
  issue: number,
  run: number,
  what: string,
  mutate: (view: RunView, tx: StateTx) => T,
): Promise<T> {
  return updateView(ctx, issue, run, what, mutate, fresh);
}

export { SEEN } from '../ports';

/**
 * A claim for the tasks a state write starts. `this-run`: the route job hands them to this
 * workflow run's work matrix through its outputs. `dispatch`: a workflow_dispatch sent once
 * the write has landed (dispatchTasks) starts them, and the work job that presents the
 * claim's nonce takes it (work.ts), so a stale or repeated dispatch starts nothing.
 */
export function taskClaim(ctx: StepContext, by: 'this-run' | 'dispatch', at = nowIso(ctx)): TaskClaim {
  const claimNonce = nonce();
  return { runId: by === 'dispatch' ? `dispatch:${claimNonce}` : ctx.runId, nonce: claimNonce, at };
}

/**
 * Whether this workflow run holds a task's claim: one it took (its id), or, in a dispatched run,
 * the dispatch's own (`dispatch:<nonce>`), which its legs work under without writing (work.ts).
 */
export function holdsClaim(ctx: StepContext, claim: TaskClaim | null | undefined): boolean {
  if (!claim) return false;
  if (claim.runId === ctx.runId) return true;
  return (
    ctx.event.kind === 'dispatch' && !!ctx.event.inputs.nonce && claim.runId === `dispatch:${ctx.event.inputs.nonce}` && claim.nonce === ctx.event.inputs.nonce
  );
}

/**
 * A dispatched run is created after the claim it carries, by GitHub's clock; the claim's time is a
 * runner's. Both keep NTP time, so this margin is generous; a wider one only makes crew look at
 * more runs' jobs.
 */
export const DISPATCH_CLOCK_SKEW_MS = 30_000;

/** Starts tasks in a new workflow run: the dispatch carries the nonce of the claim they were taken for (none: the finishing dispatch). */
export async function dispatchTasks(ctx: StepContext, issue: number, run: number, tasks: string[], claim?: TaskClaim): Promise<void> {
  handedOn(ctx, issue, run);
  const legs = await workLegs(ctx, issue, run, tasks);
  await ctx.forge.dispatch({ issue: String(issue), run: String(run), tasks: JSON.stringify(legs), nonce: claim?.nonce ?? nonce() });
}

/**
 * The work legs of claimed tasks: each of a task's parallel attempts (#50) is a leg of its own
 * (`t1`, `t1-a2`, …), as many as its claim recorded. Read from the tip the claiming write left.
 */
export async function workLegs(ctx: StepContext, issue: number, run: number, tasks: string[]): Promise<string[]> {
  if (!tasks.length) return tasks;
  const view = await loadView(ctx, issue, run, SEEN);
  // Every attempt's leg, only those still missing (some recorded before a cancel or a budget's stop), or one that judges them all.
  return tasks.flatMap((t) => attemptsToRun(view.tasks.get(t) ?? {}).map((n) => legOf(t, n)));
}

/**
 * The model for every agent but the worker, refused once the run has spent `budgets.run`
 * (agents/run-budget.ts), asking with `role`'s effort (agents/effort.ts).
 */
export async function runModel(ctx: StepContext, view: RunView, role: EffortRole): Promise<Model> {
  const config = await ctx.config();
  return withEffort(withinRunBudget(ctx.model(), runBudgets(config.budgets, view.run).run, totalUsage(view)), config.effort, role);
}

/** A failure the user can act on: what happened, in which step, and what to do next. */
export class CrewError extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly next: string,
    /** False when carrying on cannot help (the advice is a fresh run): the run ends FAILED, not resumable. */
    readonly resumable = true,
  ) {
    super(message);
  }
}

export function nonce(): string {
  return randomBytes(6).toString('hex');
}

export function nowIso(ctx: StepContext): string {
  return ctx.clock
    .now()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
}

export function planLinks(ctx: StepContext): PlanLinks {
  return {
    branch: (b) => ctx.forge.branchLink(b),
    comment: (issue, id) => ctx.forge.commentLink(issue, id),
    run: ctx.forge.runLink(),
    stateFile: (p) => ctx.forge.blobLink(STATE_BRANCH, p),
  };
}

/**
 * The branch a run integrates onto and its pull request's head: its own integration branch, or
 * for a follow-up the pull request's branch, where new commits go on top and nothing is replaced.
 */
export function integrationBranchOf(ctx: StepContext, run: Pick<RunRecord, 'issue' | 'run' | 'followUp'>): string {
  return run.followUp ? assertCrewRef(run.followUp.branch) : ctx.branches.integration(run.issue, run.run);
}

export async function loadView(ctx: StepContext, issue: number, run: number, fresh?: Freshness): Promise<RunView> {
  const view = readView(await ctx.state.load(`${runFolder(issue, run)}/`, fresh), issue, run);
  if (!view) throw runMissing(issue, run, ctx.surface);
  return view;
}

/**
 * The plan comment calls steps make most, kept as functions of the context: the protocol is
 * steps/plan-comment/, and each job's state of it is `ctx.planComment` (PlanCommentSync).
 */
export function syncPlanComment(ctx: Pick<StepContext, 'planComment'>, issue: number, run: number): Promise<void> {
  return ctx.planComment.sync(issue, run);
}

/** For a job that writes nothing to the run: renders the plan comment again only if it lags the state this job saw. */
export function catchUpPlanComment(ctx: Pick<StepContext, 'planComment'>, issue: number, run: number): Promise<void> {
  return ctx.planComment.catchUp(issue, run);
}

/** This job started another job of the run, which syncs the plan comment itself: this job's check at its end is spared. */
export function handedOn(ctx: Pick<StepContext, 'planComment'>, issue: number, run: number): void {
  ctx.planComment.handedOn(issue, run);
}

/** A read of the run's state this job made for its own reasons, which may settle the plan comment check it put off. */
export function planCheckSaw(ctx: Pick<StepContext, 'planComment'>, issue: number, run: number, snapshot: StateSnapshot): Promise<void> {
  return ctx.planComment.saw(issue, run, snapshot);
}

/**
 * Marks the run FAILED with a reason the plan comment shows. With `resumable`, the phase it
 * was in is kept, so `/crew resume` carries on from there (crew failed, not the work).
 * Returns whether the run was marked resumable.
 */
export async function failRun(
  ctx: StepContext,
  issue: number,
  run: number,
  step: string,
  message: string,
  opts: { resumable?: boolean } = {},
): Promise<boolean> {
  // The failure path itself: a run that is not there is nothing to mark, not a second failure.
  return updateRunFolder(ctx, issue, run, `failed during ${step}`, (tx) => {
    const rec = readRun(tx, issue, run);
    if (!rec || isTerminal(rec.phase)) return false;
    const resumeFrom = opts.resumable ? rec.phase : undefined;
    writeRun(tx, { ...rec, phase: 'FAILED', finalizer: null, failure: { step, message, ...(resumeFrom ? { resumeFrom } : {}) } }, nowIso(ctx));
    return resumeFrom !== undefined;
  });
}
