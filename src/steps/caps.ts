import { addPosted, CAP_STEP, capComment, capSummary, refusal, type CapRefusal, type Want } from '../domain/caps';
import { isTerminal, type RunRecord } from '../domain/run-state';
import { writeRun } from '../state/run-files';
import { CrewError, nowIso, syncPlanComment, updateRun, type StepContext } from './context';
import { WAITING_LABEL } from '../domain/labels';
import type { Surface } from '../domain/surface';

/** The run was stopped by a cap; its one comment is posted, so main.ts posts no failure comment. */
export class CapReached extends CrewError {
  constructor(
    readonly refusal: CapRefusal,
    surface: Surface,
  ) {
    super(CAP_STEP, capSummary(refusal), `Raise the cap in \`.github/crew.yml\`, then ${surface.give('run')}.`);
  }
}

/**
 * Checks that a run's record (read in this step, by its only writer) has room for `want`;
 * stops the run when it has not. The caller counts what it created in the state write it
 * makes anyway, so the check costs nothing on the way that fits.
 */
export async function ensureRoom(ctx: StepContext, rec: RunRecord, want: Want): Promise<void> {
  const refused = refusal(rec.posted, (await ctx.config()).caps, want);
  if (refused) await stopRun(ctx, rec.issue, rec.run, refused);
}

/** Checks and counts in one state write, before crew posts or creates: for steps that may run side by side. */
export async function spend(ctx: StepContext, issue: number, run: number, want: Want): Promise<void> {
  const caps = (await ctx.config()).caps;
  const refused = await updateRun(ctx, issue, run, `count ${Object.keys(want).join(', ')}`, (rec, tx) => {
    const no = refusal(rec.posted, caps, want);
    if (!no) writeRun(tx, { ...rec, posted: addPosted(rec.posted, want) }, nowIso(ctx));
    return no;
  });
  if (refused) await stopRun(ctx, issue, run, refused);
}

/** Ends the run FAILED with the cap as the reason; the first job to get here posts the one comment that says so. */
async function stopRun(ctx: StepContext, issue: number, run: number, refused: CapRefusal): Promise<never> {
  const first = await updateRun(ctx, issue, run, `stopped by ${refused.kind} cap`, (rec, tx) => {
    // A finished run (e.g. /crew remember after it) keeps its outcome; the comment still says why nothing happened.
    if (isTerminal(rec.phase)) return true;
    if (rec.failure?.step === CAP_STEP) return false;
    writeRun(tx, { ...rec, phase: 'FAILED', waiting: null, finalizer: null, failure: { step: CAP_STEP, message: capSummary(refused) } }, nowIso(ctx));
    return true;
  });
  ctx.log.warn(`run ${run}: ${capSummary(refused)}`);
  if (first) {
    await ctx.forge.postComment(issue, capComment(ctx.surface.runNumber(issue, run), refused, ctx.surface));
    await ctx.forge.removeLabel(issue, WAITING_LABEL);
    await syncPlanComment(ctx, issue, run);
  }
  throw new CapReached(refused, ctx.surface);
}
