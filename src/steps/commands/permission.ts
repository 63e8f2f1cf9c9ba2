import type { CommentEvent } from '../../event';
import { refusalComment } from '../../render/messages';
import { CrewError, type StepContext } from '../context';
import { refusalCommentDue } from '../../domain/refusals';
import { readRefusal, refusalsFolder, writeRefusal } from '../../state/refusals';
import { isoSeconds } from '../../clock';

/** Who may command crew: write or admin, by GitHub's permission API; everyone else is told, at most once an hour. */

/** Write or admin, checked with the collaborator-permission API; anything else (or an API failure) is a no. */
export async function hasWriteAccess(ctx: StepContext, ev: CommentEvent, sayWhy: boolean): Promise<boolean> {
  let permission;
  try {
    permission = await ctx.forge.permissionOf(ev.comment.author.login);
  } catch (e) {
    throw new CrewError(
      'the permission check',
      `GitHub did not answer the permission check for @${ev.comment.author.login} (${(e as Error).message}), so crew did not act.`,
      'Comment the command again in a minute.',
    );
  }
  if (permission === 'admin' || permission === 'write') return true;
  if (sayWhy) await refuse(ctx, ev, refusalComment(ev.comment.author.login, permission));
  else ctx.log.info(`ignoring a reply from @${ev.comment.author.login}, who has ${permission} access`);
  return false;
}

/**
 * Tells someone crew will not act for them: as a comment at most once per person per issue
 * an hour, remembered on crew/state (each comment is a new job); inside the hour, a 👎
 * reaction on their comment instead. One state read; a write only when a comment is due.
 */
async function refuse(ctx: StepContext, ev: CommentEvent, body: string): Promise<void> {
  const issue = ev.issue.number;
  const login = ev.comment.author.login;
  const now = ctx.clock.now();
  const { value: due } = await ctx.state.update(refusalsFolder(issue), `issue #${issue}: refused @${login}`, (tx) => {
    if (!refusalCommentDue(readRefusal(tx, issue, login)?.lastCommentAt, now)) return false;
    writeRefusal(tx, issue, { login, lastCommentAt: isoSeconds(now) });
    return true;
  });
  if (due) {
    await ctx.forge.postComment(issue, body);
    return;
  }
  ctx.log.info(`@${login} was already told on #${issue} within the hour that crew does not act for them; a 👎 reaction instead of another comment`);
  await ctx.forge.react(ev.comment.id, '-1');
}
