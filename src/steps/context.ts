import { randomBytes } from 'node:crypto';
import type { Config } from '../config/schema';
import type { CiWorkflowsRead } from '../config/ci-workflows';
import { isTerminal, MAX_FAILOVER_NOTES, totalUsage, type RunRecord, type RunView, type TaskClaim } from '../domain/run-state';
import { runOfPullBranch } from '../domain/fix-ci';
import { withEffort } from '../agents/effort';
import type { EffortRole } from '../domain/effort';
import { withinRunBudget } from '../agents/run-budget';
import { assertCrewRef, runFolder, STATE_BRANCH, type BranchNames } from '../domain/refs';
import { GITHUB, sentence, type Surface } from '../domain/surface';
import type { CrewEvent } from '../event';
import {
  SEEN,
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
  type StateSnapshot,
  type StateStore,
  type StateTx,
  type Trajectories,
  type WorkingCopy,
  type WriteOptions,
} from '../ports';
import { renderPlanComment, shownRun, shownVersion, type PlanLinks } from '../render/plan-comment';
import type { Settings } from '../settings';
import { readRun, readView, writeRun } from '../state/run-files';
import type { BilledJob } from '../state/job-times';
import type { PlanCommentIds } from '../state/pending-plan-comment';
import { capBody } from '../text/markdown';

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
   * when the job started, in epoch ms; undefined where jobs have no limit (local mode).
   */
  /** `calledWorkflow`: the limit is crew-jobs.yml's (the short form), which the repository's own file cannot change. */
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
  await ctx.forge.dispatch({ issue: String(issue), run: String(run), tasks: JSON.stringify(tasks), nonce: claim?.nonce ?? nonce() });
}

/**
 * The model for every agent but the worker, refused once the run has spent `budgets.run`
 * (agents/run-budget.ts), asking with `role`'s effort (agents/effort.ts).
 */
export async function runModel(ctx: StepContext, view: RunView, role: EffortRole): Promise<Model> {
  const config = await ctx.config();
  return withEffort(withinRunBudget(ctx.model(), config.budgets.run, totalUsage(view)), config.effort, role);
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

/** Enough for every job of a busy run to move the state while one sync writes. */
const SYNC_ROUNDS = 10;

/**
 * Brings the plan comment up to date with the state. GitHub has no compare-and-swap
 * for comments, and this process's writes wait in the throttler's queue, so no check
 * before writing can stop a slow write landing after a newer one. Instead every sync
 * checks after it writes: if the state moved meanwhile, it reads the version the
 * comment shows and, unless another job has already rendered the newest state,
 * renders again, until the state holds still. The last write to land is therefore
 * always followed by a check that heals it, and the comment ends on the newest state.
 */
export async function syncPlanComment(ctx: StepContext, issue: number, run: number): Promise<void> {
  await syncFrom(ctx, issue, run, false);
}

/**
 * syncPlanComment's loop. A follow-up run takes over the plan comment of the run it continues
 * (`planCommentPassedTo`), so the comment may show another run than this one: versions count per
 * run, and the comment's plan marker says whose version it shows. The older run stops writing once
 * it is passed on; a write of it that was already on its way (loaded before the handover, landing
 * after the newer run's) is caught by its own check after writing, which sees the handover and
 * renders the newer run again (`healing`, which follows a chain of follow-ups to the newest).
 */
async function syncFrom(ctx: StepContext, issue: number, run: number, healing: boolean): Promise<void> {
  let shown = 0;
  let wrote = healing;
  for (let round = 0; round < SYNC_ROUNDS; round++) {
    await noteRateLimits(ctx, issue, run);
    await noteFailovers(ctx, issue, run);
    // Any tip this job saw: the read after the edit asks GitHub, and renders again if the state had moved.
    const view = await withPullsCiAttempts(ctx, await loadView(ctx, issue, run, SEEN));
    const id = view.run.planCommentId;
    if (id === null) return;
    const heir = view.run.planCommentPassedTo;
    if (heir !== null) {
      // Passed on: this run never writes again, but heals its own write if it may have landed last.
      if (wrote && (shownRun((await ctx.forge.getComment(id)).body) ?? 0) < heir) await syncFrom(ctx, issue, heir, true);
      return;
    }
    // Never write a rendering older than one the comment is known to show.
    if (view.run.version > shown) {
      await editPlanComment(ctx, id, view);
      wrote = true;
    }
    const deferring = deferred.get(ctx);
    if (deferring && ctx.forge.rateLimitWaits().length === (noted.get(ctx) ?? 0)) {
      // The check after the edit waits for the job's next look at the state (deferPlanChecks).
      deferring.pending = { issue, run, version: view.run.version, editedAt: performance.now() };
      return;
    }
    const after = readRun(await ctx.state.load(`${runFolder(issue, run)}/`), issue, run);
    // Render again if another job moved the state, or if that very edit had to wait for a rate limit.
    if (!after || (after.version === view.run.version && ctx.forge.rateLimitWaits().length === (noted.get(ctx) ?? 0))) return;
    if (after.version === view.run.version || after.planCommentPassedTo !== null) continue;
    const body = (await ctx.forge.getComment(id)).body;
    const whose = shownRun(body) ?? run;
    // An older run's rendering is stale whatever its version; a newer run's is never this run's to replace.
    shown = whose === run ? (shownVersion(body) ?? 0) : whose < run ? 0 : Infinity;
    if (shown >= after.version) return;
  }
  ctx.log.warn(
    `the plan comment of issue #${issue} run ${run} may lag the state: it kept moving through ${SYNC_ROUNDS} rewrites; the next step that syncs it will catch up`,
  );
}

/**
 * For a job on a path that writes nothing to the run, where a job that ended before it may have
 * counted on it to sync the plan comment (handedOn): an edit of that job's that crossed another's can
 * have left the comment behind. One read of the comment tells; only a comment that lags the state
 * this job saw is rendered again (and checked, as every sync is).
 */
export async function catchUpPlanComment(ctx: StepContext, issue: number, run: number): Promise<void> {
  const view = await loadView(ctx, issue, run, SEEN);
  const id = view.run.planCommentId;
  // Passed on to a follow-up: this run's jobs no longer write it, and the follow-up's own syncs keep it.
  if (id === null || view.run.planCommentPassedTo !== null) return;
  const body = (await ctx.forge.getComment(id)).body;
  if (shownRun(body) === run && (shownVersion(body) ?? 0) >= view.run.version) return;
  await syncPlanComment(ctx, issue, run);
}

function editPlanComment(ctx: StepContext, id: number, view: RunView): Promise<void> {
  const links = planLinks(ctx);
  return ctx.forge.updateComment(id, capBody(renderPlanComment(view, links, ctx.surface), links.stateFile(runFolder(view.run.issue, view.run.run))));
}

/**
 * One write of a run whose plan comment is edited first (#31 §4: the merge job's one write, the
 * retrospective's, which is the critic job's last): the
 * comment renders the record `change` makes of `view`'s, at the version the write gives it, and then
 * the write is made. When the write lands on `view`'s very version (a compare-and-swap), no other
 * job wrote between, and any that writes later syncs the comment after its own write, so the edit
 * needs no check. Otherwise (the state had moved, nothing was written, a rate limit held the edit
 * up) the usual sync follows the write. Should the job stop between the edit and the write, the
 * comment shows a version the state does not have, which the next sync of any job renders over.
 * Returns whether the write changed the run (`change` returning undefined leaves it).
 */
export async function updateRunShownFirst(
  ctx: StepContext,
  view: RunView,
  what: string,
  change: (rec: RunRecord) => RunRecord | undefined,
  options?: WriteOptions,
  /** Files of the run the same write makes (the plan comment does not show them). */
  files?: (tx: StateTx) => void,
): Promise<boolean> {
  const { issue, run } = view.run;
  const at = nowIso(ctx);
  const waits = () => ctx.forge.rateLimitWaits().length;
  const quiet = () => waits() === (noted.get(ctx) ?? 0) && (ctx.modelFailovers?.() ?? []).length === (failoversNoted.get(ctx) ?? 0);
  const next = change(view.run);
  let ahead = false;
  if (next && view.run.planCommentId !== null && view.run.planCommentPassedTo === null && quiet()) {
    const shown = await withPullsCiAttempts(ctx, { ...view, run: { ...next, version: view.run.version + 1, updatedAt: at } });
    // A failed edit is no failure of the write: the usual sync after it edits (and says) again.
    ahead = await editPlanComment(ctx, view.run.planCommentId, shown).then(quiet, () => false);
  }
  let from: number | undefined;
  const wrote = await updateRun(
    ctx,
    issue,
    run,
    what,
    (rec, tx) => {
      const changed = change(rec);
      if (!changed) return false;
      from = rec.version;
      writeRun(tx, changed, at);
      files?.(tx);
      return true;
    },
    options,
  );
  if (ahead && wrote && from === view.run.version) {
    // This edit replaces any check of an earlier one of this job's: it renders the newest state.
    const d = deferred.get(ctx);
    if (d?.pending?.issue === issue && d.pending.run === run) d.pending = undefined;
    return true;
  }
  if (wrote || ahead) await syncPlanComment(ctx, issue, run);
  return wrote;
}

/**
 * The job's end, whether its step succeeded or failed (after the failure is reported): a plan comment
 * id the job still holds, because no write of the run came after the comment was posted, is recorded now.
 */
export async function recordHeldPlanComments(ctx: StepContext): Promise<void> {
  for (const held of ctx.planCommentIds?.release() ?? []) {
    try {
      await updateRun(ctx, held.issue, held.run, `plan comment ${held.id}`, (rec, tx) => {
        if (rec.planCommentId === null) writeRun(tx, { ...rec, planCommentId: held.id }, nowIso(ctx));
      });
    } catch (e) {
      // The comment carries the run's marker: the next route or resume of the run finds it by search.
      ctx.log.warn(
        `could not record the plan comment's id ${held.id} in issue #${held.issue} run ${held.run}: ${e instanceof Error ? e.message : String(e)}; the next job of the run finds the comment by its marker`,
      );
    }
  }
}

/** The edit whose check after writing is put off, per job that defers them (deferPlanChecks). */
const deferred = new WeakMap<StepContext, { pending?: { issue: number; run: number; version: number; editedAt: number }; handedOn: Set<string> }>();

/**
 * Every job (#17 §3 for work jobs, #31 §4 for the rest): the read after each plan comment edit that
 * syncPlanComment makes (a round trip to GitHub) waits instead for the job's next look at the state,
 * which a worker makes anyway between its turns (planCheckSaw), or for the job's end
 * (settlePlanCheck). A later edit by this job replaces the pending check, since it renders a newer
 * state and is checked in turn. Only an edit that crossed another job's can leave the comment
 * behind, and then only until that look: ARCHITECTURE.md, "Things that will bite".
 */
export function deferPlanChecks(ctx: StepContext): void {
  deferred.set(ctx, { handedOn: new Set() });
}

/**
 * This job started another job of the run (the work matrix, advance, the critic, a dispatched
 * workflow run). That job reads the state after it starts and syncs the plan comment itself, so an
 * edit of this job's that crossed another's is healed there: this job's check at its end is spared.
 */
export function handedOn(ctx: StepContext, issue: number, run: number): void {
  deferred.get(ctx)?.handedOn.add(`${issue}/${run}`);
}

/**
 * Runs one job's step with its plan comment checks put off to its end (deferPlanChecks). A job that
 * failed is checked whatever it handed on: the jobs it started may not run.
 */
export async function withPlanChecksAtEnd(ctx: StepContext, step: () => Promise<void>): Promise<void> {
  deferPlanChecks(ctx);
  let ok = false;
  try {
    await step();
    ok = true;
  } finally {
    // A failure on its way out is the one to report; this check failing too only costs the comment a render.
    await settlePlanCheck(ctx, ok).catch((e: unknown) =>
      ctx.log.warn(`could not check the plan comment against the state: ${e instanceof Error ? e.message : String(e)}`),
    );
  }
}

/**
 * This job wrote something of the run the plan comment does not show, on top of version `from`. When
 * that is the version the pending edit rendered, the write (a compare-and-swap) proves no other job
 * wrote the run between that edit and it, so no later edit can have crossed it: the check is settled,
 * and the comment shows everything it would show of the newer version.
 */
export function wroteUnshown(ctx: StepContext, issue: number, run: number, from: number): void {
  const d = deferred.get(ctx);
  const p = d?.pending;
  if (p && p.issue === issue && p.run === run && p.version === from) d.pending = undefined;
}

/**
 * A read of the run's state this job made for its own reasons: when GitHub confirmed it after the
 * pending edit, it settles that edit's check, rendering again only if the state moved since.
 */
export async function planCheckSaw(ctx: StepContext, issue: number, run: number, snapshot: StateSnapshot): Promise<void> {
  const d = deferred.get(ctx);
  const p = d?.pending;
  if (!d || !p || p.issue !== issue || p.run !== run || snapshot.confirmedAt === undefined || snapshot.confirmedAt < p.editedAt) return;
  d.pending = undefined;
  if (readRun(snapshot, issue, run)?.version === p.version) return;
  await syncPlanComment(ctx, issue, run).catch((e: unknown) => {
    // Still owed: the job's end (settlePlanCheck) tries again, unless a newer edit replaced it meanwhile.
    d.pending ??= p;
    throw e;
  });
}

/**
 * The job's end: the pending check is made now, with GitHub asked, unless the job succeeded and
 * handed the run on to another job (handedOn); from here on the job edits and checks at once.
 */
async function settlePlanCheck(ctx: StepContext, succeeded: boolean): Promise<void> {
  const d = deferred.get(ctx);
  deferred.delete(ctx);
  const p = d?.pending;
  if (!p || (succeeded && d.handedOn.has(`${p.issue}/${p.run}`))) return;
  if (readRun(await ctx.state.load(`${runFolder(p.issue, p.run)}/`), p.issue, p.run)?.version !== p.version) await syncPlanComment(ctx, p.issue, p.run);
}

/**
 * fix_ci counts its attempts on the run whose branch the pull request is (crew/N/rK/integration),
 * and a follow-up run keeps that branch; so the report a follow-up writes on the same pull request
 * and the plan comment it holds show that run's attempts (the follow-up's own record holds none).
 * Only for rendering.
 */
export async function withPullsCiAttempts(ctx: StepContext, view: RunView): Promise<RunView> {
  const owner = view.run.followUp ? runOfPullBranch(view.run.followUp.branch) : undefined;
  if (!owner || (owner.issue === view.run.issue && owner.run === view.run.run)) return view;
  const rec = readRun(await ctx.state.load(`${runFolder(owner.issue, owner.run)}/`, SEEN), owner.issue, owner.run);
  return rec?.fixCi.attempts.length ? { ...view, run: { ...view.run, fixCi: rec.fixCi } } : view;
}

/**
 * Syncs the plan comment through whichever run holds it now: `run`, or the follow-up it was passed
 * on to (and so on). For a change to an older run's record that the newest run's rendering shows
 * (fix_ci's attempts).
 */
export async function syncPlanCommentHolder(ctx: StepContext, issue: number, run: number): Promise<void> {
  let holder = run;
  for (let hops = 0; hops < 100; hops++) {
    const next = readRun(await ctx.state.load(`${runFolder(issue, holder)}/`), issue, holder)?.planCommentPassedTo ?? null;
    if (next === null) break;
    holder = next;
  }
  await syncPlanComment(ctx, issue, holder);
}

/** How many of this job's rate-limit waits are already in the run's record. */
const noted = new WeakMap<StepContext, number>();

/**
 * Records in the run the waits GitHub's rate limits imposed on this job since it last
 * did, as one note, so the plan comment says so once requests are possible again.
 */
async function noteRateLimits(ctx: StepContext, issue: number, run: number): Promise<void> {
  const waits = ctx.forge.rateLimitWaits();
  const fresh = waits.slice(noted.get(ctx) ?? 0);
  if (!fresh.length) return;
  noted.set(ctx, waits.length);
  const note = { at: fresh[0]!.at, seconds: Math.round(fresh.reduce((sum, w) => sum + w.seconds, 0)) };
  await updateRunFolder(ctx, issue, run, `GitHub rate-limited a job for ${note.seconds}s`, (tx) => {
    const rec = readRun(tx, issue, run);
    if (rec) writeRun(tx, { ...rec, rateLimited: [...rec.rateLimited, note].slice(-3) }, nowIso(ctx));
  });
}

/** How many of this job's failovers are already in the run's record. */
const failoversNoted = new WeakMap<StepContext, number>();

/** Whether this job failed over since the plan comment last said so (a model call after the step's last sync). */
export const unnotedFailovers = (ctx: StepContext): boolean => (ctx.modelFailovers?.().length ?? 0) > (failoversNoted.get(ctx) ?? 0);

/**
 * Records in the run each failover to `fallback_provider` this job made since it last did, so the
 * plan comment (and the report) say which provider hit which limit and where the run went on.
 */
async function noteFailovers(ctx: StepContext, issue: number, run: number): Promise<void> {
  const all = ctx.modelFailovers?.() ?? [];
  const fresh = all.slice(failoversNoted.get(ctx) ?? 0);
  if (!fresh.length) return;
  failoversNoted.set(ctx, all.length);
  const who = ctx.settings.task ? `the worker of ${ctx.settings.task}` : `the ${ctx.settings.step} job`;
  await updateRunFolder(ctx, issue, run, `${fresh[0]!.from} hit a limit; went on with ${fresh[0]!.to}`, (tx) => {
    const rec = readRun(tx, issue, run);
    if (rec) writeRun(tx, { ...rec, failovers: [...rec.failovers, ...fresh.map((f) => ({ ...f, job: who }))].slice(-MAX_FAILOVER_NOTES) }, nowIso(ctx));
  });
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
