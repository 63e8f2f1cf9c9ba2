import { parseCommand } from '../domain/commands';
import type { CommentEvent, DispatchEvent } from '../event';
import { CrewError, type StepContext } from './context';
import { WAITING_LABEL } from '../domain/labels';
import { sanitize } from '../text/sanitize';
import { postedByCrew, withoutQuotes } from '../text/markdown';
import { handle } from './commands';
import { answer } from './commands/answer';
import { REPLY_CHARS, setOutputs } from './commands/common';
import { hasWriteAccess } from './commands/permission';
import { sentence } from '../domain/surface';

/** The `route` job: turns a comment or a dispatch into the set of tasks the matrix runs. */
export async function route(ctx: StepContext): Promise<void> {
  setOutputs(ctx, '', '', []);
  if (ctx.event.kind === 'dispatch') outdatedWorkflow(ctx.event);
  if (ctx.event.kind === 'pull') return ctx.log.info(`route has nothing to do on a ${ctx.event.source} event; the merge job handles it`);
  return routeComment(ctx, ctx.event);
}

async function routeComment(ctx: StepContext, ev: CommentEvent): Promise<void> {
  if (ev.action !== 'created') return ctx.log.info(`ignoring a comment ${ev.action} event`);
  if (ev.comment.author.type !== 'User') return ctx.log.info(`ignoring a comment from ${ev.comment.author.login} (${ev.comment.author.type})`);
  if (await isOwnComment(ctx, ev)) return ctx.log.info(`ignoring crew's own comment (as @${ev.comment.author.login})`);
  const command = parseCommand(ev.comment.body);
  const issue = ev.issue.number;
  if (!command) {
    // A plain comment only matters as the answer to a question crew is waiting on; otherwise it costs nothing.
    if (!ev.issue.labels.includes(WAITING_LABEL)) return ctx.log.info('the comment is not a /crew command; nothing to do');
    // Quoted lines are someone else's words (often crew's own question, or another person's text).
    return answer(ctx, ev, sanitize(withoutQuotes(ev.comment.body), REPLY_CHARS), { quiet: true });
  }

  await ctx.forge.react(ev.comment.id, 'eyes');
  if (!(await hasWriteAccess(ctx, ev, true))) return;
  if (ev.issue.isPull) {
    await ctx.forge.postComment(issue, `crew works from issues. ${sentence(ctx.surface.give('run'))} on the issue that describes the change.`);
    return;
  }
  await handle(ctx, ev, command);
}

/**
 * With a personal token crew comments as a user, so its own comments pass the workflow's
 * `type == 'User'` filter and, while `crew: waiting` is on, would be taken as the answer.
 * Its comments are told apart by the idempotency key crew puts on every comment, and its
 * login: someone who lends crew their own token still answers as themselves, with no key.
 * Only keyed comments cost the look-up of crew's login. When that look-up fails (an invalid
 * crew.yml with `bot_login`, GitHub down), a keyed comment counts as crew's: answering it
 * with a failure comment, itself keyed, would start this job again and again.
 */
export async function isOwnComment(ctx: StepContext, ev: CommentEvent): Promise<boolean> {
  if (!postedByCrew(ev.comment.body)) return false;
  try {
    return ev.comment.author.login.toLowerCase() === (await ctx.forge.botLogin()).toLowerCase();
  } catch (e) {
    ctx.log.warn(`could not tell crew's own login (${e instanceof Error ? e.message : String(e)}); a comment with crew's key counts as crew's`);
    return true;
  }
}

/** A dispatch names tasks a finishing job claimed; only a live claim with the same nonce starts them. */
/**
 * Dispatches start their tasks in the work job directly, one job fewer on every step of
 * the critical path. A workflow that still routes them here is an old copy of crew's: the
 * tasks would never start, so say so on the issue rather than stall.
 */
function outdatedWorkflow(ev: DispatchEvent): never {
  throw new CrewError(
    'starting dispatched tasks',
    `This repository's crew workflow runs the \`route\` job for crew's own dispatches (tasks ${sanitizeInput(ev.inputs.tasks)}), so those tasks cannot start. crew now starts them in the \`work\` job.`,
    // GitHub's own workflow file is the problem, so this is said only there.
    "Replace `.github/workflows/crew.yml` with the workflow in crew's README (its `route` job skips `workflow_dispatch`, and `work` reads the dispatch's inputs), then comment `/crew resume`.",
  );
}

function sanitizeInput(value: string | undefined): string {
  return `\`${(value ?? '').replace(/[^\w",[\]]/g, '').slice(0, 200)}\``;
}
