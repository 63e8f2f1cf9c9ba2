import type { CommentEvent } from '../../event';
import { writeRun } from '../../state/run-files';
import { claimReadyTasks } from '../../state/transitions';
import { nowIso, syncPlanComment, taskClaim, updateRun, type StepContext } from '../context';
import { planRun } from '../plan-run';
import { latestRun, setOutputs } from './common';
import { decideTask } from './decisions';
import { askedJustNow, trustedReply } from './replies';
import { sentence } from '../../domain/surface';

/** `/crew approve` and `/crew revise`: the plan that waits for a person. */

export async function approve(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (!last || last.phase !== 'AWAITING_APPROVAL' || last.waiting?.kind !== 'approval') {
    await ctx.forge.postComment(
      issue,
      `There is no plan waiting for approval on this issue, so crew ignored that approval. ${sentence(ctx.surface.give('plan'))} to make one.`,
    );
    return;
  }
  const waiting = last.waiting;
  if (await askedJustNow(ctx, ev, last)) return;
  const trust = await trustedReply(ctx, ev, waiting.commentId);
  if (trust !== 'ok') {
    await ctx.forge.postComment(
      issue,
      trust === 'stale'
        ? `That approval was written before plan v${waiting.planVersion} was posted, so crew ignored it. ${sentence(ctx.surface.give('approve'))} again to approve the current plan.`
        : `That approval was edited after it was posted, so crew ignored it. Post ${ctx.surface.command('approve')} as a new comment.`,
    );
    return;
  }
  const run = last.run;
  const config = await ctx.config();
  const now = nowIso(ctx);
  const claimed = await updateRun(ctx, issue, run, `plan v${waiting.planVersion} approved by @${ev.comment.author.login}`, (rec, tx) => {
    if (rec.phase !== 'AWAITING_APPROVAL' || rec.waiting?.kind !== 'approval' || rec.waiting.planVersion !== waiting.planVersion) return null;
    writeRun(tx, { ...rec, phase: 'EXECUTING', waiting: null, approvedBy: ev.comment.author.login }, now);
    return claimReadyTasks(tx, issue, run, config.max_parallel, taskClaim(ctx, 'this-run', now));
  });
  if (claimed === null) return ctx.log.info('the plan changed or was approved by someone else first');
  ctx.log.checkpoint('plan-approved');
  await setOutputs(ctx, issue, run, claimed);
  await syncPlanComment(ctx, issue, run);
}

export async function revise(ctx: StepContext, ev: CommentEvent, feedback: string): Promise<void> {
  const issue = ev.issue.number;
  if (!feedback) {
    await ctx.forge.postComment(issue, `Say what to change after the command: ${ctx.surface.command('revise', '<what to change>')}.`);
    return;
  }
  const last = await latestRun(ctx, issue);
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision' && last.waiting.topic === 'plan_review')
    return decideTask(ctx, ev, last, 'revise', feedback);
  if (!last || last.phase !== 'AWAITING_APPROVAL') {
    await ctx.forge.postComment(
      issue,
      `There is no plan waiting for approval on this issue, so there is nothing to revise. ${sentence(ctx.surface.give('plan'))} to make one.`,
    );
    return;
  }
  const run = last.run;
  const taken = await updateRun(ctx, issue, run, `revise`, (rec, tx) => {
    if (rec.phase !== 'AWAITING_APPROVAL') return false;
    writeRun(tx, { ...rec, phase: 'PLANNING', waiting: null }, nowIso(ctx));
    return true;
  });
  if (!taken) return;
  await syncPlanComment(ctx, issue, run);
  const tasks = await planRun(ctx, issue, run, `A maintainer (@${ev.comment.author.login}) asked for these changes: ${feedback}`);
  await setOutputs(ctx, issue, run, tasks);
  await syncPlanComment(ctx, issue, run);
}
