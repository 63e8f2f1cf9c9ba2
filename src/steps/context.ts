import { randomBytes } from 'node:crypto';
import type { Config } from '../config/schema';
import { isTerminal, totalUsage, type RunView } from '../domain/run-state';
import { withinRunBudget } from '../agents/run-budget';
import { runFolder, STATE_BRANCH, type BranchNames } from '../domain/refs';
import { sentence, type Surface } from '../domain/surface';
import type { CrewEvent } from '../event';
import type { Clock, Forge, Log, Model, Remote, StateSnapshot, StateStore, StateTx, WorkingCopy } from '../ports';
import { renderPlanComment, shownVersion, type PlanLinks } from '../render/plan-comment';
import type { Settings } from '../settings';
import { readRun, readView, writeRun } from '../state/run-files';
import { capBody } from '../text/markdown';

/** Everything a step needs, built once per job by an entry point (main.ts, or local mode's engine with cli.ts's adapters). */
export interface StepContext {
  settings: Settings;
  event: CrewEvent;
  forge: Forge;
  /** The job's checkout. */
  repo: WorkingCopy;
  /** Where branches live between jobs: what the checkout fetches and pushes. */
  remote: Remote;
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
  output(name: string, value: string): void;
  summary(markdown: string): Promise<void>;
  /** Aborts when the runner starts cancelling the job (SIGINT); the work step saves its work and stops. */
  cancellation?: AbortSignal;
  /**
   * This job's time limit (`timeout-minutes`, read from the workflow on the default branch) and
   * when the job started, in epoch ms; undefined where jobs have no limit (local mode).
   */
  jobLimit?: () => Promise<{ minutes: number; startedAt: number; unreadable?: string }>;
  /** How the person lets commands run without a sandbox, said when none starts (default: the crew.yml key). */
  unsandboxedOptIn?: string;
  /** Where the people who read crew's comments are (GitHub, or a local run's terminal): every text a step writes is worded for it. */
  surface: Surface;
}

/**
 * One compare-and-swap write of a run's folder on crew/state; the commit message names the issue
 * and the run, then `what`. `mutate` may run more than once (see StateStore.update).
 */
export function updateRun<T>(
  ctx: StepContext,
  issue: number,
  run: number,
  what: string,
  mutate: (tx: StateTx) => T,
): Promise<{ value: T; snapshot: StateSnapshot }> {
  return ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: ${what}`, mutate);
}

/** A failure the user can act on: what happened, in which step, and what to do next. */
/** The model for every agent but the worker, refused once the run has spent `budgets.run` (agents/run-budget.ts). */
export async function runModel(ctx: StepContext, view: RunView): Promise<Model> {
  return withinRunBudget(ctx.model(), (await ctx.config()).budgets.run, totalUsage(view));
}

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

export async function loadView(ctx: StepContext, issue: number, run: number): Promise<RunView> {
  const snap = await ctx.state.load(`${runFolder(issue, run)}/`);
  const view = readView(snap, issue, run);
  if (!view)
    throw new CrewError(
      'loading the run',
      `${ctx.surface.runOfIssue(issue, run)} does not exist on the ${STATE_BRANCH} branch.`,
      `${sentence(ctx.surface.give('run'))} to start a new run.`,
    );
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
  let shown = 0;
  for (let round = 0; round < SYNC_ROUNDS; round++) {
    await noteRateLimits(ctx, issue, run);
    const view = await loadView(ctx, issue, run);
    const id = view.run.planCommentId;
    if (id === null) return;
    // Never write a rendering older than one the comment is known to show.
    if (view.run.version > shown) {
      const links = planLinks(ctx);
      await ctx.forge.updateComment(id, capBody(renderPlanComment(view, links, ctx.surface), links.stateFile(runFolder(issue, run))));
    }
    const after = readRun(await ctx.state.load(`${runFolder(issue, run)}/`), issue, run);
    // Render again if another job moved the state, or if that very edit had to wait for a rate limit.
    if (!after || (after.version === view.run.version && ctx.forge.rateLimitWaits().length === (noted.get(ctx) ?? 0))) return;
    if (after.version === view.run.version) continue;
    shown = shownVersion((await ctx.forge.getComment(id)).body) ?? 0;
    if (shown >= after.version) return;
  }
  ctx.log.warn(
    `the plan comment of issue #${issue} run ${run} may lag the state: it kept moving through ${SYNC_ROUNDS} rewrites; the next step that syncs it will catch up`,
  );
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
  await ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: GitHub rate-limited a job for ${note.seconds}s`, (tx) => {
    const rec = readRun(tx, issue, run);
    if (rec) writeRun(tx, { ...rec, rateLimited: [...rec.rateLimited, note].slice(-3) }, nowIso(ctx));
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
  const { value } = await ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: failed during ${step}`, (tx) => {
    const rec = readRun(tx, issue, run);
    if (!rec || isTerminal(rec.phase)) return false;
    const resumeFrom = opts.resumable ? rec.phase : undefined;
    writeRun(tx, { ...rec, phase: 'FAILED', finalizer: null, failure: { step, message, ...(resumeFrom ? { resumeFrom } : {}) } }, nowIso(ctx));
    return resumeFrom !== undefined;
  });
  return value;
}
