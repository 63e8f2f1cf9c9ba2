import { bestOfLabel } from '../domain/attempts';
import { commandText, parseCommand, type Command } from '../domain/commands';
import type { PullInfo } from '../ports';
import type { CommentEvent, DispatchEvent, IssueEvent } from '../event';
import { ConfigError } from '../config/schema';
import { startRun, type RunRequest } from './commands/start';
import { CrewError, type StepContext } from './context';
import { WAITING_LABEL } from '../domain/labels';
import { sanitize } from '../text/sanitize';
import { postedByCrew, withoutQuotes } from '../text/markdown';
import { handle } from './commands';
import { ownCode } from './own-code';
import { REPLY_CHARS, setOutputs } from './commands/common';
import { hasWriteAccess } from './commands/permission';
import { runOfIntegrationBranch } from '../domain/refs';

/** The `route` job: turns a comment or a dispatch into the set of tasks the matrix runs. */
export async function route(ctx: StepContext): Promise<void> {
  await setOutputs(ctx, '', '', []);
  if (ctx.event.kind === 'dispatch') outdatedWorkflow(ctx.event);
  if (ctx.event.kind === 'pull') {
    // A review or a review comment carries words: a `/crew` there counts like a comment on the pull request.
    if (ctx.event.comment) return routeComment(ctx, ctx.event.comment);
    // A CI run that failed on crew's pull request: fix_ci's to count and answer, and the merge gate's to say so.
    if (ctx.event.ci) return (await ownCode('the CI run check', import('./ci-status'))).routeCiRun(ctx, ctx.event, ctx.event.ci);
    return ctx.log.info(`route has nothing to do on a ${ctx.event.source} event; the merge job handles it`);
  }
  if (ctx.event.kind === 'issue') return routeIssueEvent(ctx, ctx.event);
  return routeComment(ctx, ctx.event);
}

async function routeComment(ctx: StepContext, ev: CommentEvent): Promise<void> {
  if (ev.action !== 'created') return ctx.log.info(`ignoring a comment ${ev.action} event`);
  if (ev.comment.author.type !== 'User') return ctx.log.info(`ignoring a comment from ${ev.comment.author.login} (${ev.comment.author.type})`);
  if (await isOwnComment(ctx, ev)) return ctx.log.info(`ignoring crew's own comment (as @${ev.comment.author.login})`);
  const command = parseCommand(ev.comment.body);
  const issue = ev.issue.number;
  if (!command && ev.via === 'review' && ev.reviewState === 'changes_requested') return routeChangesRequested(ctx, ev);
  if (!command) {
    // The workflow lets through only reviews that start with /crew (and changes requested on crew's own); any other is not an answer either.
    if (ev.via) return ctx.log.info(`the ${ev.via === 'review' ? 'review' : 'review comment'} is not a /crew command; nothing to do`);
    // A plain comment only matters as the answer to a question crew is waiting on; otherwise it costs nothing.
    if (!ev.issue.labels.includes(WAITING_LABEL)) return ctx.log.info('the comment is not a /crew command; nothing to do');
    // Quoted lines are someone else's words (often crew's own question, or another person's text).
    return (await ownCode('the answer to a question', import('./commands/answer'))).answer(ctx, ev, sanitize(withoutQuotes(ev.comment.body), REPLY_CHARS), {
      quiet: true,
    });
  }

  // Reviews have no reactions in the REST API, and a review comment's are on another endpoint: the reply says crew saw it.
  // The reaction says crew saw the comment whoever wrote it, so it need not wait for the permission check (one round trip less).
  const [, writer] = await Promise.all([
    ev.via ? undefined : ctx.forge.react?.(ev.comment.id, 'eyes'),
    hasWriteAccess(ctx, ev.via ? { issue, login: ev.comment.author.login } : ev, true),
  ]);
  if (!writer) return;
  if (ev.issue.isPull) return routePullCommand(ctx, ev, command);
  await handle(ctx, ev, command);
}

/** What a review or a review comment may ask for: the commands that need no re-reading of the comment. */
const FROM_REVIEWS = new Set<Command['kind']>(['run', 'plan', 'status', 'help', 'unknown']);

/**
 * A `/crew` command on a pull request, from a person with write access. crew's own pull requests
 * (head `crew/<issue>/r<k>/integration`) get follow-up runs on their branch. A fork's is refused: crew cannot push
 * there, and would run the fork's code in jobs that hold this repository's tokens. A person's
 * branch in this repository is the base of a run under the pull request's number, whose own pull
 * request goes into that branch; crew never pushes to it.
 */
async function routePullCommand(ctx: StepContext, ev: CommentEvent, command: Command): Promise<void> {
  const number = ev.issue.number;
  const pull = await ctx.forge.getPull(number);
  if (pull.fromFork) {
    await ctx.forge.postComment(number, forkRefusal(pull));
    return;
  }
  const own = runOfIntegrationBranch(pull.headRef);
  if (own) return ownPullCommand(ctx, ev, command, own.issue);
  if (pull.headRef.startsWith('crew/')) {
    await ctx.forge.postComment(
      number,
      `This pull request's branch (\`${pull.headRef}\`) is one of crew's, but not a run's pull request, so crew does not work on it. Comment \`/crew run\` on the issue it came from to start a new run.`,
    );
    return;
  }
  if (pull.state !== 'open') {
    await ctx.forge.postComment(
      number,
      'This pull request is closed, so crew will not work on it. Reopen it, or comment `/crew run` on an issue that describes the change.',
    );
    return;
  }
  if (ev.via && !FROM_REVIEWS.has(command.kind)) {
    await ctx.forge.postComment(
      number,
      `crew takes \`/crew ${command.kind}\` only as a comment in the pull request's conversation, not in a review${ev.via === 'review_comment' ? ' comment' : ''}. Comment it there.`,
    );
    return;
  }
  if (command.kind === 'run' || command.kind === 'plan') return void (await startRun(ctx, pullRequestRun(ctx, ev, pull), command.kind));
  await handle(ctx, ev, command);
}

/**
 * A `/crew` on crew's own pull request: `/crew fix <feedback>`, `/crew run [feedback]` and
 * `/crew <feedback>` start a follow-up on its branch; the commands about a run are given on its
 * issue, where the run lives.
 */
async function ownPullCommand(ctx: StepContext, ev: CommentEvent, command: Command, issue: number): Promise<void> {
  const feedback = command.kind === 'fix' ? command.feedback : command.kind === 'run' || command.kind === 'unknown' ? commandText(ev.comment.body) : undefined;
  if (command.kind === 'unknown') ctx.log.info(`/crew ${command.word} on crew's own pull request: taken as feedback for a follow-up`);
  if (feedback === undefined) {
    if (command.kind === 'help' || command.kind === 'doctor') return handle(ctx, ev, command);
    await ctx.forge.postComment(
      ev.issue.number,
      `This pull request is crew's own: \`/crew ${command.kind}\` is about its run, so comment it on issue #${issue}, where the run lives. Here, \`/crew fix <feedback>\` (or \`/crew <feedback>\`) starts a follow-up on this branch.`,
    );
    return;
  }
  // `/crew run` and unknown words: the words after `/crew` (the word itself included) are the feedback.
  const words = command.kind === 'unknown' ? ev.comment.body.replace(/^\/crew\s*/, '') : feedback;
  const { startFollowUp } = await ownCode('the follow-up', import('./follow-up'));
  await startFollowUp(ctx, {
    pull: ev.issue.number,
    by: ev.comment.author.login,
    feedback: withoutQuotes(words),
    source: ev.via ? 'review' : 'comment',
    trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt, workflowRunId: ctx.runId, ...(ev.via ? { how: ev.via } : {}) },
  });
}

/**
 * A review that requests changes without a command. The workflow cannot read crew.yml, so it
 * starts this job for every such review on a `crew/` head; only `iterate_on_review: true` makes
 * it a follow-up, by a writer, on crew's own open pull request. Otherwise it is skipped, logged.
 */
async function routeChangesRequested(ctx: StepContext, ev: CommentEvent): Promise<void> {
  let on = false;
  try {
    on = (await ctx.config()).iterate_on_review;
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return ctx.log.warn(`a review requested changes, but .github/crew.yml cannot be read (${e.message}); no follow-up started`);
  }
  if (!on)
    return ctx.log.info('a review requested changes; iterate_on_review is off in .github/crew.yml, so no follow-up starts (comment /crew fix to start one)');
  if (ev.comment.author.type !== 'User') return ctx.log.info(`ignoring a review by ${ev.comment.author.login} (${ev.comment.author.type})`);
  const pull = await ctx.forge.getPull(ev.issue.number);
  if (!runOfIntegrationBranch(pull.headRef) || pull.fromFork)
    return ctx.log.info(`#${ev.issue.number} is not crew's own pull request; a review there starts nothing`);
  // Without a command, a reader's review is ordinary review traffic, not a request to crew: no refusal comment.
  if (!(await hasWriteAccess(ctx, { issue: ev.issue.number, login: ev.comment.author.login }, false))) return;
  ctx.log.info(`@${ev.comment.author.login} requested changes on crew's pull request #${ev.issue.number}: starting a follow-up (iterate_on_review)`);
  const { startFollowUp } = await ownCode('the follow-up', import('./follow-up'));
  await startFollowUp(ctx, {
    pull: ev.issue.number,
    by: ev.comment.author.login,
    feedback: withoutQuotes(ev.comment.body),
    source: 'review',
    trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt, workflowRunId: ctx.runId, how: 'review' },
  });
}

/** The run a person's pull request asks for: its title and body, the words after the command, and its head as the base. */
function pullRequestRun(ctx: StepContext, ev: CommentEvent, pull: PullInfo): RunRequest {
  const asked = commandText(ev.comment.body);
  return {
    issue: { number: ev.issue.number, title: ev.issue.title, body: asked ? `${ev.issue.body}\n\n${asked}` : ev.issue.body },
    by: ev.comment.author.login,
    trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt, workflowRunId: ctx.runId, ...(ev.via ? { how: ev.via } : {}) },
    base: { branch: pull.headRef, sha: pull.headSha, pull: ev.issue.number },
    // Its images are read through the texts that show them (#47): the words after the command are the comment's.
    comment: ev.comment.body,
  };
}

function forkRefusal(pull: PullInfo): string {
  const where = pull.headRepo ? `\`${pull.headRepo}\`` : 'a fork that no longer exists';
  return [
    `crew does not work on pull requests from forks, and this one's branch is in ${where}.`,
    '',
    '- crew cannot push there: it pushes only to `crew/` branches of this repository.',
    "- It does not run a fork's code in jobs that hold this repository's write token and secrets.",
    '',
    'Instead, open an issue that describes the change and comment `/crew run` on it; or, if you have write access, push the branch to this repository, open a pull request from it and comment `/crew run` there.',
  ].join('\n');
}

/**
 * A label or an assignment starts `/crew run` when it is the configured trigger and the person
 * who made it (the event's sender, not the issue's author) has write access: triage users can
 * label and assign, so neither is a sign of it.
 */
async function routeIssueEvent(ctx: StepContext, ev: IssueEvent): Promise<void> {
  const how = ev.action === 'labeled' ? 'label' : ev.action === 'assigned' ? 'assignee' : undefined;
  if (!how) return ctx.log.info(`ignoring an issues ${ev.action} event`);
  if (ev.sender.type !== 'User') return ctx.log.info(`ignoring an issues ${ev.action} event by ${ev.sender.login} (${ev.sender.type})`);
  let config;
  try {
    config = await ctx.config();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // Whether this label is crew's trigger is in the file crew cannot read: say so, but only to a writer.
    if (!(await hasWriteAccess(ctx, { issue: ev.issue.number, login: ev.sender.login }, false))) return;
    throw new CrewError(
      'reading the configuration',
      `${e.message}\n\ncrew could not tell whether this ${how === 'label' ? `label (\`${ev.label}\`)` : `assignment (@${ev.assignee})`} should start a run, so nothing started.`,
      'Fix `.github/crew.yml` on the default branch, then comment `/crew run`.',
    );
  }
  const wanted = how === 'label' ? config.trigger_label : config.trigger_assignee;
  const got = how === 'label' ? ev.label : ev.assignee;
  // With label triggers on, `crew: best of N` starts a run of N parallel attempts of each task (#50).
  const bestOf = how === 'label' && wanted && got ? bestOfLabel(got) : null;
  if (!wanted || !got || (wanted.toLowerCase() !== got.toLowerCase() && bestOf === null))
    return ctx.log.info(`the ${how} ${got ?? '(none)'} is not crew's trigger_${how} (${wanted ?? 'not set'}); nothing to do`);
  if (await isOwnLogin(ctx, ev.sender.login)) return ctx.log.info(`ignoring crew's own ${how} (as @${ev.sender.login})`);
  if (!(await hasWriteAccess(ctx, { issue: ev.issue.number, login: ev.sender.login }, true))) return;
  ctx.log.info(`@${ev.sender.login} ${how === 'label' ? `labelled the issue ${got}` : `assigned the issue to @${got}`}: starting a run`);
  await startRun(
    ctx,
    {
      issue: ev.issue,
      by: ev.sender.login,
      trigger: { commentId: 0, createdAt: ev.issue.updatedAt, workflowRunId: ctx.runId, how },
      ...(bestOf !== null ? { attempts: bestOf } : {}),
    },
    'run',
  );
}

async function isOwnLogin(ctx: StepContext, login: string): Promise<boolean> {
  try {
    return login.toLowerCase() === (await ctx.forge.botLogin()).toLowerCase();
  } catch {
    return false;
  }
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
