import { randomBytes } from 'node:crypto';
import type { Config } from '../config/schema';
import { isTerminal, type RunView } from '../domain/run-state';
import { runFolder, STATE_BRANCH } from '../domain/refs';
import type { CrewEvent } from '../event';
import type { Clock, Forge, Log, Model, StateStore } from '../ports';
import { renderPlanComment, type PlanLinks } from '../render/plan-comment';
import type { Settings } from '../settings';
import type { GitRepo } from '../adapters/git/git-repo';
import { readRun, readView, writeRun } from '../state/run-files';
import { capBody } from '../text/markdown';

/** Everything a step needs, built once by main.ts. */
export interface StepContext {
  settings: Settings;
  event: CrewEvent;
  forge: Forge;
  repo: GitRepo;
  state: StateStore;
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
}

/** A failure the user can act on: what happened, in which step, and what to do next. */
export class CrewError extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly next: string,
  ) {
    super(message);
  }
}

export function nonce(): string {
  return randomBytes(6).toString('hex');
}

export function nowIso(ctx: StepContext): string {
  return ctx.clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z');
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
  if (!view) throw new CrewError('loading the run', `run ${run} of issue #${issue} does not exist on the ${STATE_BRANCH} branch.`, 'Comment `/crew run` to start a new run.');
  return view;
}

/**
 * Brings the plan comment up to date with the state. A job that rendered an older
 * version than the one now stored renders again, so the comment always ends on the
 * newest state even when jobs race.
 */
export async function syncPlanComment(ctx: StepContext, issue: number, run: number): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const view = await loadView(ctx, issue, run);
    const id = view.run.planCommentId;
    if (id === null) return;
    const links = planLinks(ctx);
    await ctx.forge.updateComment(id, capBody(renderPlanComment(view, links), links.stateFile(runFolder(issue, run))));
    const after = readRun(await ctx.state.load(`${runFolder(issue, run)}/`), issue, run);
    if (!after || after.version === view.run.version) return;
  }
}

/**
 * Marks the run FAILED with a reason the plan comment shows. With `resumable`, the phase it
 * was in is kept, so `/crew resume` carries on from there (crew failed, not the work).
 * Returns whether the run was marked resumable.
 */
export async function failRun(ctx: StepContext, issue: number, run: number, step: string, message: string, opts: { resumable?: boolean } = {}): Promise<boolean> {
  const { value } = await ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: failed during ${step}`, (tx) => {
    const rec = readRun(tx, issue, run);
    if (!rec || isTerminal(rec.phase)) return false;
    const resumeFrom = opts.resumable ? rec.phase : undefined;
    writeRun(tx, { ...rec, phase: 'FAILED', finalizer: null, failure: { step, message, ...(resumeFrom ? { resumeFrom } : {}) } }, nowIso(ctx));
    return resumeFrom !== undefined;
  });
  return value;
}
