import type { RunRecord, RunView } from '../../domain/run-state';
import { runOfPullBranch } from '../../domain/fix-ci';
import { runFolder } from '../../domain/refs';
import { SEEN, type StateSnapshot, type StateTx, type WriteOptions } from '../../ports';
import { renderPlanComment, shownRun, shownVersion } from '../../render/plan-comment';
import { readRun, writeRun } from '../../state/run-files';
import { capBody } from '../../text/markdown';
import { loadView, nowIso, planLinks, updateRun, type StepContext } from '../context';
import { DeferredChecks } from './deferred-checks';
import { RunNotes } from './notes';
import type { PlanCommentSync } from './plan-comment-sync';

/** Enough for every job of a busy run to move the state while one sync writes. */
const SYNC_ROUNDS = 10;

/**
 * A context as an entry builds it, with this job's own plan comment sync: the one way a context gets
 * one, so every job (and every local job in one process) has its own.
 */
export function withPlanCommentSync(parts: Omit<StepContext, 'planComment'>): StepContext {
  const ctx = parts as StepContext;
  ctx.planComment = new JobPlanCommentSync(ctx);
  return ctx;
}

/**
 * One job's plan comment sync. GitHub has no compare-and-swap for comments, and this process's writes
 * wait in the throttler's queue, so no check before writing can stop a slow write landing after a newer
 * one. Instead every sync checks after it writes: if the state moved meanwhile, it reads the version the
 * comment shows and, unless another job has already rendered the newest state, renders again, until the
 * state holds still. The last write to land is therefore always followed by a check that heals it, and
 * the comment ends on the newest state.
 */
class JobPlanCommentSync implements PlanCommentSync {
  private readonly checks = new DeferredChecks();
  private readonly notes: RunNotes;

  constructor(private readonly ctx: StepContext) {
    this.notes = new RunNotes(ctx);
  }

  sync(issue: number, run: number): Promise<void> {
    return this.syncFrom(issue, run, false);
  }

  /**
   * The sync's loop. A follow-up run takes over the plan comment of the run it continues
   * (`planCommentPassedTo`), so the comment may show another run than this one: versions count per
   * run, and the comment's plan marker says whose version it shows. The older run stops writing once
   * it is passed on; a write of it that was already on its way (loaded before the handover, landing
   * after the newer run's) is caught by its own check after writing, which sees the handover and
   * renders the newer run again (`healing`, which follows a chain of follow-ups to the newest).
   */
  private async syncFrom(issue: number, run: number, healing: boolean): Promise<void> {
    const ctx = this.ctx;
    let shown = 0;
    let wrote = healing;
    for (let round = 0; round < SYNC_ROUNDS; round++) {
      await this.notes.write(issue, run);
      // Any tip this job saw: the read after the edit asks GitHub, and renders again if the state had moved.
      const view = await withPullsCiAttempts(ctx, await loadView(ctx, issue, run, SEEN));
      const id = view.run.planCommentId;
      if (id === null) return;
      const heir = view.run.planCommentPassedTo;
      if (heir !== null) {
        // Passed on: this run never writes again, but heals its own write if it may have landed last.
        if (wrote && (shownRun((await ctx.forge.getComment(id)).body) ?? 0) < heir) await this.syncFrom(issue, heir, true);
        return;
      }
      // Never write a rendering older than one the comment is known to show.
      if (view.run.version > shown) {
        await editPlanComment(ctx, id, view);
        wrote = true;
      }
      if (this.checks.deferring && this.notes.rateLimitsNoted()) {
        // The check after the edit waits for the job's next look at the state (DeferredChecks).
        this.checks.putOff({ issue, run, version: view.run.version, editedAt: performance.now() });
        return;
      }
      const after = readRun(await ctx.state.load(`${runFolder(issue, run)}/`), issue, run);
      // Render again if another job moved the state, or if that very edit had to wait for a rate limit.
      if (!after || (after.version === view.run.version && this.notes.rateLimitsNoted())) return;
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
  async catchUp(issue: number, run: number): Promise<void> {
    const view = await loadView(this.ctx, issue, run, SEEN);
    const id = view.run.planCommentId;
    // Passed on to a follow-up: this run's jobs no longer write it, and the follow-up's own syncs keep it.
    if (id === null || view.run.planCommentPassedTo !== null) return;
    const body = (await this.ctx.forge.getComment(id)).body;
    if (shownRun(body) === run && (shownVersion(body) ?? 0) >= view.run.version) return;
    await this.sync(issue, run);
  }

  /**
   * Syncs the plan comment through whichever run holds it now: `run`, or the follow-up it was passed
   * on to (and so on). For a change to an older run's record that the newest run's rendering shows
   * (fix_ci's attempts).
   */
  async syncHolder(issue: number, run: number): Promise<void> {
    let holder = run;
    for (let hops = 0; hops < 100; hops++) {
      const next = readRun(await this.ctx.state.load(`${runFolder(issue, holder)}/`), issue, holder)?.planCommentPassedTo ?? null;
      if (next === null) break;
      holder = next;
    }
    await this.sync(issue, holder);
  }

  /**
   * One write of a run whose plan comment is edited first (#31 §4: the merge job's one write, the
   * retrospective's, which is the critic job's last): the comment renders the record `change` makes of
   * `view`'s, at the version the write gives it, and then the write is made. When the write lands on
   * `view`'s very version (a compare-and-swap), no other job wrote between, and any that writes later
   * syncs the comment after its own write, so the edit needs no check. Otherwise (the state had moved,
   * nothing was written, a rate limit held the edit up) the usual sync follows the write. Should the job
   * stop between the edit and the write, the comment shows a version the state does not have, which the
   * next sync of any job renders over. Returns whether the write changed the run (`change` returning
   * undefined leaves it). `files`: files of the run the same write makes (the plan comment does not show them).
   */
  async updateShownFirst(
    view: RunView,
    what: string,
    change: (rec: RunRecord) => RunRecord | undefined,
    options?: WriteOptions,
    files?: (tx: StateTx) => void,
  ): Promise<boolean> {
    const ctx = this.ctx;
    const { issue, run } = view.run;
    const at = nowIso(ctx);
    const quiet = () => this.notes.allNoted();
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
      this.checks.replacedBy(issue, run);
      return true;
    }
    if (wrote || ahead) await this.sync(issue, run);
    return wrote;
  }

  async withChecksAtEnd(step: () => Promise<void>): Promise<void> {
    this.checks.start();
    let ok = false;
    try {
      await step();
      ok = true;
    } finally {
      // A failure on its way out is the one to report; this check failing too only costs the comment a render.
      await this.settle(ok).catch((e: unknown) =>
        this.ctx.log.warn(`could not check the plan comment against the state: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
  }

  /** The job's end: the check still owed is made now, with GitHub asked; from here on the job edits and checks at once. */
  private async settle(succeeded: boolean): Promise<void> {
    const p = this.checks.end(succeeded);
    if (!p) return;
    if (readRun(await this.ctx.state.load(`${runFolder(p.issue, p.run)}/`), p.issue, p.run)?.version !== p.version) await this.sync(p.issue, p.run);
  }

  handedOn(issue: number, run: number): void {
    this.checks.handedOn(issue, run);
  }

  wroteUnshown(issue: number, run: number, from: number): void {
    this.checks.wroteUnshown(issue, run, from);
  }

  /**
   * A read of the run's state this job made for its own reasons: when GitHub confirmed it after the
   * pending edit, it settles that edit's check, rendering again only if the state moved since.
   */
  async saw(issue: number, run: number, snapshot: StateSnapshot): Promise<void> {
    const p = this.checks.takeSeen(issue, run, snapshot);
    if (!p || readRun(snapshot, issue, run)?.version === p.version) return;
    await this.sync(issue, run).catch((e: unknown) => {
      // Still owed: the job's end tries again, unless a newer edit replaced it meanwhile.
      this.checks.owe(p);
      throw e;
    });
  }

  unnotedFailovers(): boolean {
    return this.notes.unnotedFailovers();
  }
}

function editPlanComment(ctx: StepContext, id: number, view: RunView): Promise<void> {
  const links = planLinks(ctx);
  return ctx.forge.updateComment(id, capBody(renderPlanComment(view, links, ctx.surface), links.stateFile(runFolder(view.run.issue, view.run.run))));
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
