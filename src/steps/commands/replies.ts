import { runFolder } from '../../domain/refs';
import { type RunRecord } from '../../domain/run-state';
import type { CommentEvent } from '../../event';
import { paths } from '../../state/run-files';
import { type StepContext } from '../context';
import { askPerson } from '../leader';
import { requestApproval } from '../planning';
import { askAtBudget } from '../budget-stop';

// Whether a reply counts: written after crew asked, not edited since, and to a question crew did post.

/**
 * A reply to a question crew never posted (its job stopped in between) cannot count: crew
 * asks now, says so, and the reply must come after the question.
 */
export async function askedJustNow(ctx: StepContext, ev: CommentEvent, last: RunRecord): Promise<boolean> {
  if (!(await askUnasked(ctx, last))) return false;
  await ctx.forge.postComment(
    ev.issue.number,
    `crew had not posted its ${last.waiting!.kind === 'approval' ? `request to approve plan v${last.waiting!.planVersion}` : 'question'} yet when that reply came, so the reply does not count. The ${last.waiting!.kind === 'approval' ? 'request' : 'question'} is above now; reply to it.`,
  );
  return true;
}

/** Whether a reply to crew's decision comment counts; when it does not, says why in a comment. */
export async function decisionReplyCounts(ctx: StepContext, ev: CommentEvent, after: number): Promise<boolean> {
  const trust = await trustedReply(ctx, ev, after);
  if (trust === 'ok') return true;
  await ctx.forge.postComment(
    ev.issue.number,
    trust === 'stale'
      ? 'That reply was written before crew asked for a decision, so it does not count. Reply again below.'
      : 'That reply was edited after it was posted, so crew did not take it. Post it as a new comment.',
  );
  return false;
}

/**
 * A reply counts only if it was written after the comment it answers and has not
 * been edited since: crew re-reads it rather than trusting the event alone.
 */
export async function trustedReply(ctx: StepContext, ev: CommentEvent, after: number): Promise<'ok' | 'stale' | 'edited'> {
  if (ev.comment.id <= after) return 'stale';
  const now = await ctx.forge.getComment(ev.comment.id);
  // The body, not updated_at: GitHub does not say whether crew's own 👀 reaction moves a comment's
  // updated_at, and if it did, every command crew reacted to would look edited. An edit that
  // matters changes the body from what the event carried.
  if (now.body !== ev.comment.body) return 'edited';
  return 'ok';
}

/**
 * A question crew recorded but never posted: the job stopped between writing the state
 * (waiting, comment id 0) and posting. Posts it now; a reply counts only after it.
 */
export async function askUnasked(ctx: StepContext, rec: RunRecord): Promise<boolean> {
  const w = rec.waiting;
  if (!w || w.commentId !== 0) return false;
  ctx.log.info(`run ${rec.run} waits on a ${w.kind} that was never posted; asking now`);
  if (w.kind === 'decision') await askPerson(ctx, rec.issue, rec.run, w.task, w.question, w.topic === 'plan_review');
  else if (w.kind === 'approval') {
    const review = (await ctx.state.load(`${runFolder(rec.issue, rec.run)}/`)).read(paths.review(rec.issue, rec.run)) ?? '';
    await requestApproval(
      ctx,
      rec.issue,
      rec.run,
      w.planVersion,
      w.reason === 'requested',
      review.split(/\n\n/).slice(2).join('\n\n').trim(),
      rec.estimate ?? null,
    );
  } else if (w.kind === 'budget') await askAtBudget(ctx, rec.issue, rec.run);
  else return false;
  return true;
}

/** A reply from someone with write access in which everything is quoted (or hidden): crew says it took nothing. */
export async function nothingToTake(ctx: StepContext, ev: CommentEvent): Promise<void> {
  await ctx.forge.postComment(
    ev.issue.number,
    `crew took nothing from that reply: all of it is quoted (lines starting with \`>\`) or hidden, and quoted text is someone else's words, not your answer. Write your answer outside the quote.`,
  );
}
