import type { CommentEvent } from '../../event';
import { refusalComment } from '../../render/messages';
import { CrewError, type StepContext } from '../context';
import { refusalCommentDue } from '../../domain/refusals';
import { readRefusal, refusalsFolder, writeRefusal } from '../../state/refusals';
import { isoSeconds } from '../../clock';

/** Who may command crew: write or admin, by GitHub's permission API; everyone else is told, at most once an hour. */

/** Who asks crew to act: a commenter (whose comment gets a 👎 when crew already said no within the hour), or who labelled or assigned. */
export interface Asker {
  issue: number;
  login: string;
  commentId?: number;
  /**
   * Whose hourly window the refusal counts in, when not the person's: `REPOSITORY_BUDGET` for a
   * repository budget's refusal (#52), said once an hour on the issue whoever asks.
   */
  window?: string;
}

/** The refusal window of a repository budget: not a login (GitHub logins have no `:`), so it never meets a person's. */
export const REPOSITORY_BUDGET = ':repository-budget';

function askerOf(ev: CommentEvent | Asker): Asker {
  return 'comment' in ev ? { issue: ev.issue.number, login: ev.comment.author.login, commentId: ev.comment.id } : ev;
}

/** Write or admin, checked with the collaborator-permission API; anything else (or an API failure) is a no. */
export async function hasWriteAccess(ctx: StepContext, ev: CommentEvent | Asker, sayWhy: boolean): Promise<boolean> {
  const who = askerOf(ev);
  let permission;
  try {
    permission = await ctx.forge.permissionOf(who.login);
  } catch (e) {
    throw new CrewError(
      'the permission check',
      `GitHub did not answer the permission check for @${who.login} (${(e as Error).message}), so crew did not act.`,
      who.commentId ? 'Comment the command again in a minute.' : 'Remove the label or the assignment and add it again in a minute, or comment `/crew run`.',
    );
  }
  if (permission === 'admin' || permission === 'write') return true;
  if (sayWhy) await refuse(ctx, who, refusalComment(who.login, permission));
  else ctx.log.info(`ignoring a reply from @${who.login}, who has ${permission} access`);
  return false;
}

/**
 * Tells someone crew will not act for them: as a comment at most once per person per issue
 * an hour, remembered on crew/state (each comment is a new job); inside the hour, a 👎
 * reaction on their comment instead (or only the log, when a label or an assignment asked).
 * One state read; a write only when a comment is due.
 */
export async function refuse(ctx: StepContext, who: Asker, body: string): Promise<void> {
  const { issue, login } = who;
  const key = who.window ?? login;
  const now = ctx.clock.now();
  const { value: due } = await ctx.state.update(refusalsFolder(issue), `issue #${issue}: refused @${login}`, (tx) => {
    if (!refusalCommentDue(readRefusal(tx, issue, key)?.lastCommentAt, now)) return false;
    writeRefusal(tx, issue, { login: key, lastCommentAt: isoSeconds(now) });
    return true;
  });
  if (due) {
    await ctx.forge.postComment(issue, body);
    return;
  }
  ctx.log.info(
    who.window
      ? `#${issue} was already told within the hour that the repository budget is spent`
      : `@${login} was already told on #${issue} within the hour that crew does not act for them`,
  );
  if (who.commentId !== undefined) await ctx.forge.react?.(who.commentId, '-1');
}
