import type { CommentEvent } from '../../event';
import { paths, writeRun } from '../../state/run-files';
import { nowIso, syncPlanComment, updateRun, type StepContext } from '../context';
import { planRun } from '../plan-run';
import { WAITING_LABEL } from '../../domain/labels';
import { latestRun, setOutputs } from './common';
import { decideTask } from './decisions';
import { hasWriteAccess } from './permission';
import { nothingToTake, trustedReply } from './replies';
import { sentence } from '../../domain/surface';
import { foundImages, mergeImages } from '../../domain/images';
import { renderedMarkup } from '../../text/sanitize';
import { withoutQuotes } from '../../text/markdown';

/** `/crew answer` and a plain reply while crew waits on a question. */

/** An answer to crew's questions: a plain reply on a labelled issue, or `/crew answer`. */
export async function answer(ctx: StepContext, ev: CommentEvent, text: string, opts: { quiet: boolean }): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (!last || last.phase !== 'ESCALATING' || (last.waiting?.kind !== 'answer' && last.waiting?.kind !== 'decision')) {
    if (!opts.quiet)
      await ctx.forge.postComment(
        issue,
        `crew is not waiting for an answer on this issue. ${sentence(ctx.surface.give('status'))} to see where the run stands.`,
      );
    else ctx.log.info('crew is not waiting for an answer; the comment is ordinary conversation');
    return;
  }
  if (last.waiting.kind === 'decision') {
    if (opts.quiet) {
      if (!(await hasWriteAccess(ctx, ev, false))) return;
      await ctx.forge.react?.(ev.comment.id, 'eyes');
    }
    if (!text) return nothingToTake(ctx, ev);
    return decideTask(ctx, ev, last, 'answer', text);
  }
  if (opts.quiet) {
    if (!(await hasWriteAccess(ctx, ev, false))) return;
    await ctx.forge.react?.(ev.comment.id, 'eyes');
  }
  if (!text) return nothingToTake(ctx, ev);
  const waiting = last.waiting;
  if (waiting.kind !== 'answer') return;
  const trust = await trustedReply(ctx, ev, waiting.commentId);
  if (trust !== 'ok') {
    await ctx.forge.postComment(
      issue,
      trust === 'stale'
        ? 'That comment was written before crew asked its questions, so it does not count as an answer. Reply again below.'
        : 'That answer was edited after it was posted, so crew did not take it. Post the answer as a new comment.',
    );
    return;
  }
  const run = last.run;
  const taken = await updateRun(ctx, issue, run, `answer from @${ev.comment.author.login}`, (rec, tx) => {
    if (rec.phase !== 'ESCALATING' || rec.waiting?.kind !== 'answer' || rec.waiting.commentId !== waiting.commentId) return false;
    const before = tx.read(paths.answers(issue, run)) ?? '';
    const entry = [
      '## Questions',
      ...waiting.questions.map((q, i) => `${i + 1}. ${q}`),
      '',
      `## Answer from @${ev.comment.author.login}`,
      text.trim(),
      '',
    ].join('\n');
    tx.write(paths.answers(issue, run), `${before}${before ? '\n' : ''}${entry}`);
    // The answer's images (`text` is sanitised: they are `[image]` there), with the comment that shows them: planning reads them next to the request's (#47).
    const images = foundImages([{ shown: renderedMarkup(withoutQuotes(ev.comment.body)), in: { kind: 'comment', id: ev.comment.id } }]);
    const answerImages = mergeImages([...(rec.answerImages ?? []), ...images]);
    writeRun(tx, { ...rec, phase: 'PLANNING', waiting: null, ...(answerImages.length ? { answerImages } : {}) }, nowIso(ctx));
    return true;
  });
  if (!taken) return ctx.log.info('another reply answered the questions first');
  await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('answer-recorded');
  const tasks = await planRun(ctx, issue, run);
  await setOutputs(ctx, issue, run, tasks);
  await syncPlanComment(ctx, issue, run);
}
