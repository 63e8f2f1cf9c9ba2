import { isTerminal } from '../../domain/run-state';
import type { CommentEvent } from '../../event';
import { messageId, writeMessage } from '../../state/inbox';
import { writeRun } from '../../state/run-files';
import { nonce, nowIso, syncPlanComment, updateView, type StepContext } from '../context';
import { reportEndedRun } from '../finish';
import { WAITING_LABEL } from '../../domain/labels';
import { latestRun } from './common';
import { sentence } from '../../domain/surface';

/**
 * `/crew abort`: the run ends ABORTED at once; every running worker gets a
 * shutdown_request and stops at the end of a turn once it has seen it (within half a minute:
 * workers look at the state between turns, at most every 30 s; TEAM_NEWS_MS in work.ts),
 * committing what it has.
 */
export async function abort(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (!last || isTerminal(last.phase)) {
    await ctx.forge.postComment(issue, 'There is no crew run in progress on this issue, so there is nothing to abort.');
    return;
  }
  const run = last.run;
  const at = nowIso(ctx);
  const stopping = await updateView(ctx, issue, run, `aborted by @${ev.comment.author.login}`, (view, tx) => {
    if (isTerminal(view.run.phase)) return null;
    const running = [...view.tasks.values()].filter((t) => t.status === 'running' || t.status === 'retrying').map((t) => t.id);
    for (const task of running) {
      writeMessage(tx, issue, run, {
        id: messageId(at, 'leader', nonce()),
        from: 'leader',
        to: task,
        type: 'shutdown_request',
        text: `@${ev.comment.author.login} aborted the run. Stop now; your work so far is kept.`,
        at,
      });
    }
    writeRun(tx, { ...view.run, phase: 'ABORTED', waiting: null, failure: { step: 'abort', message: `aborted by @${ev.comment.author.login}` } }, at);
    return running;
  });
  if (stopping === null) return;
  if (last.phase === 'ESCALATING') await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('run-aborted');
  await ctx.forge.postComment(
    issue,
    stopping.length
      ? `Aborting run ${ctx.surface.runNumber(issue, run)}. ${stopping.join(', ')} will stop at the end of a turn within half a minute and keep their work on their branches; nothing else will start. ${sentence(ctx.surface.give('run'))} to start again.`
      : `Aborted run ${ctx.surface.runNumber(issue, run)}; nothing was running. ${sentence(ctx.surface.give('run'))} to start again.`,
  );
  await syncPlanComment(ctx, issue, run);
  await reportEndedRun(
    ctx,
    issue,
    run,
    `@${ev.comment.author.login} aborted the run${stopping.length ? ` while ${stopping.join(', ')} ran (their work so far stays on their branches)` : ''}, so crew opened no pull request.`,
  );
}
