import { writeRun } from '../../state/run-files';
import { nowIso, updateRun, type StepContext } from '../context';

/**
 * The job's end, whether its step succeeded or failed (after the failure is reported): a plan comment
 * id the job still holds, because no write of the run came after the comment was posted, is recorded now
 * (state/pending-plan-comment.ts).
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
