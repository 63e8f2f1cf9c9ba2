import { ConfigError } from '../config/schema';
import { parseCommand, type Command } from '../domain/commands';
import { runFolder } from '../domain/refs';
import { NOTHING_POSTED } from '../domain/caps';
import { FRESH_MEMORY } from '../domain/leader-policy';
import { failingEvaluations, rerunAdvice, tasksToRerun } from '../domain/judgment';
import { failedTasks, FRESH_REVIEW, isTerminal, settlement, ZERO_USAGE, type Phase, type RunRecord } from '../domain/run-state';
import type { CommentEvent, DispatchEvent } from '../event';
import { helpComment, refusalComment } from '../render/messages';
import { planMarker, renderPlanComment } from '../render/plan-comment';
import { messageId, writeMessage } from '../state/inbox';
import { paths, readRun, readView, runNumbers, writeRun, writeTask } from '../state/run-files';
import { remember, retrospect } from './retrospect';
import { claimReadyTasks } from '../state/transitions';
import { CrewError, loadView, nonce, nowIso, planLinks, syncPlanComment, updateRun, type StepContext } from './context';
import { askPerson, openQueuedQuestion, replanTasks } from './leader';
import { lastJudgment } from '../state/judgments';
import { reportEndedRun } from './finish';
import { takePushedResult } from './task-results';
import { planRun, requestApproval } from './planning';
import { WAITING_LABEL } from '../domain/labels';
import { sanitize } from '../text/sanitize';
import { postedByCrew, withoutQuotes } from '../text/markdown';
import { refusalCommentDue } from '../domain/refusals';
import { readRefusal, refusalsFolder, writeRefusal } from '../state/refusals';
import { isoSeconds } from '../clock';

/** A maintainer's answer or feedback reaches prompts like the issue does: sanitised, and at most this long. */
const REPLY_CHARS = 10_000;

/**
 * The matrix for the work job. With nothing to start the work job is skipped, and so is
 * advance unless `advance` asks for it (a run whose remaining step is to finish).
 */
function setOutputs(ctx: StepContext, issue: number | '', run: number | '', tasks: string[], advance = false) {
  const go = tasks.length > 0 || advance;
  ctx.output('issue', go ? String(issue) : '');
  ctx.output('run', go ? String(run) : '');
  ctx.output('tasks', JSON.stringify(tasks));
}

/** The `route` job: turns a comment or a dispatch into the set of tasks the matrix runs. */
export async function route(ctx: StepContext): Promise<void> {
  setOutputs(ctx, '', '', []);
  if (ctx.event.kind === 'dispatch') outdatedWorkflow(ctx.event);
  if (ctx.event.kind === 'pull') return ctx.log.info(`route has nothing to do on a ${ctx.event.source} event; the merge job handles it`);
  return routeComment(ctx, ctx.event);
}

async function latestRun(ctx: StepContext, issue: number): Promise<RunRecord | undefined> {
  const snap = await ctx.state.load(`issue-${issue}/`);
  const last = runNumbers(snap, issue).at(-1);
  return last === undefined ? undefined : readRun(snap, issue, last);
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
    await ctx.forge.postComment(issue, 'crew works from issues. Comment `/crew run` on the issue that describes the change.');
    return;
  }
  await dispatchCommand(ctx, ev, command);
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

/** Write or admin, checked with the collaborator-permission API; anything else (or an API failure) is a no. */
async function hasWriteAccess(ctx: StepContext, ev: CommentEvent, sayWhy: boolean): Promise<boolean> {
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

async function dispatchCommand(ctx: StepContext, ev: CommentEvent, command: Command): Promise<void> {
  const issue = ev.issue.number;
  switch (command.kind) {
    case 'help':
      await ctx.forge.postComment(issue, helpComment());
      return;
    case 'unknown':
      await ctx.forge.postComment(issue, helpComment(command.word));
      return;
    case 'status': {
      const last = await latestRun(ctx, issue);
      if (!last) await ctx.forge.postComment(issue, 'There is no crew run on this issue yet. Comment `/crew run` to start one.');
      else if (!(await askUnasked(ctx, last))) await syncPlanComment(ctx, issue, last.run);
      return;
    }
    case 'run':
    case 'plan':
      return startRun(ctx, ev, command.kind);
    case 'answer': {
      const text = sanitize(command.text, REPLY_CHARS);
      if (!text) {
        await ctx.forge.postComment(issue, 'Write the answer after the command: `/crew answer <text>`.');
        return;
      }
      return answer(ctx, ev, text, { quiet: false });
    }
    case 'approve':
      return approve(ctx, ev);
    case 'revise':
      return revise(ctx, ev, sanitize(command.feedback, REPLY_CHARS));
    case 'abort':
      return abort(ctx, ev);
    case 'retry':
      return retry(ctx, ev, command.task);
    case 'accept':
      return accept(ctx, ev);
    case 'resume':
      return resume(ctx, ev);
    case 'retro':
      return retro(ctx, ev);
    case 'remember': {
      const snap = await ctx.state.load(`issue-${issue}/`);
      const runs = runNumbers(snap, issue)
        .map((k) => readRun(snap, issue, k)!)
        .filter(Boolean);
      await ctx.forge.postComment(issue, await remember(ctx, issue, runs, command.n, ev.comment.author.login));
      return;
    }
  }
}

/** `/crew retro`: a full retrospective of the newest finished run, posted again if there was one. */
async function retro(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (!last || !isTerminal(last.phase)) {
    await ctx.forge.postComment(
      issue,
      last
        ? `Run ${last.run} is still ${last.phase.toLowerCase()}; \`/crew retro\` looks back at a finished run. Try again when it ends.`
        : 'There is no run on this issue to look back at. Comment `/crew run` first.',
    );
    return;
  }
  ctx.model(); // fails now, with a clear message, if no key was given
  await retrospect(ctx, issue, last.run, true);
}

async function startRun(ctx: StepContext, ev: CommentEvent, mode: 'run' | 'plan'): Promise<void> {
  const issue = ev.issue.number;
  try {
    await ctx.config();
  } catch (e) {
    if (e instanceof ConfigError)
      throw new CrewError(
        'reading the configuration',
        `${e.message}\n\nThe run did not start.`,
        'Fix `.github/crew.yml` on the default branch, then comment `/crew run` again.',
      );
    throw e;
  }
  ctx.model(); // fails now, with a clear message, if no key was given
  const config = await ctx.config();
  const baseBranch = config.base_branch ?? (await ctx.forge.defaultBranch());
  const baseSha = await ctx.remote.head(baseBranch);
  // Whether the run a PLANNING record belongs to has ended without planning: asked before the state write, outside it.
  const deadPlanners = new Set<string>();
  const previous = await latestRun(ctx, issue);
  if (previous?.phase === 'PLANNING' && previous.trigger.workflowRunId && (await ctx.forge.workflowRunActive(previous.trigger.workflowRunId)) === false)
    deadPlanners.add(`${previous.run}`);
  const stalePlanning = (r: RunRecord) => r.phase === 'PLANNING' && deadPlanners.has(`${r.run}`);
  if (!baseSha)
    throw new CrewError(
      'starting the run',
      `the base branch '${baseBranch}' does not exist or has no commits.`,
      'Push a first commit (or fix `base_branch` in `.github/crew.yml`), then comment `/crew run`.',
    );
  const now = nowIso(ctx);

  const { value: outcome } = await ctx.state.update(`issue-${issue}/`, `issue #${issue}: start a run`, (tx) => {
    const last = runNumbers(tx, issue).at(-1);
    const lastRec = last !== undefined ? readRun(tx, issue, last) : undefined;
    // The same comment again (a re-run of this job) continues its own run.
    if (lastRec && lastRec.trigger.commentId === ev.comment.id) return { kind: 'existing' as const, record: lastRec };
    if (lastRec && !isTerminal(lastRec.phase) && !stalePlanning(lastRec)) return { kind: 'busy' as const, record: lastRec };
    // A run whose planner died (its workflow run is over) is taken over, not refused.
    if (lastRec && stalePlanning(lastRec)) return { kind: 'existing' as const, record: lastRec };
    const k = (last ?? 0) + 1;
    const record: RunRecord = {
      schema: 1,
      issue,
      run: k,
      phase: 'PLANNING',
      mode,
      planVersion: 0,
      waiting: null,
      approvedBy: null,
      title: ev.issue.title,
      version: 0,
      requestedBy: ev.comment.author.login,
      trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt, workflowRunId: ctx.runId },
      base: { branch: baseBranch, sha: baseSha },
      planCommentId: null,
      pr: null,
      usage: ZERO_USAGE,
      createdAt: now,
      updatedAt: now,
      failure: null,
      finalizer: null,
      leader: FRESH_MEMORY,
      review: null,
      merge: null,
      retro: null,
      criteriaDigest: null,
      rateLimited: [],
      // The plan comment is posted once per run, by ensurePlanComment below.
      posted: { ...NOTHING_POSTED, comments: 1 },
    };
    // The request is taken from the event payload: what the issue said when the maintainer asked.
    tx.write(paths.request(issue, k), `# ${ev.issue.title}\n\n${ev.issue.body}\n`);
    tx.write(paths.requestJson(issue, k), `${JSON.stringify({ title: ev.issue.title, body: ev.issue.body }, null, 2)}\n`);
    return { kind: 'created' as const, record: writeRun(tx, record, now) };
  });

  if (outcome.kind === 'busy') {
    const r = outcome.record;
    const what =
      r.phase === 'ESCALATING'
        ? 'waiting for answers to its questions'
        : r.phase === 'AWAITING_APPROVAL'
          ? 'waiting for `/crew approve` or `/crew revise`'
          : r.phase.toLowerCase();
    const where = r.planCommentId ? `[the plan comment](${ctx.forge.commentLink(issue, r.planCommentId)})` : 'the plan comment';
    await ctx.forge.postComment(
      issue,
      `crew is already working on this issue (run ${r.run}, ${what}). Follow it in ${where}; a new run can start once it has finished.`,
    );
    return;
  }
  const run = outcome.record.run;
  ctx.log.checkpoint('run-created');
  await ensurePlanComment(ctx, issue, run, outcome.kind === 'existing');
  if (outcome.kind === 'existing' && outcome.record.phase === 'EXECUTING') {
    // Already planned by an earlier attempt of this job: hand on whatever is claimed for this workflow run.
    const view = await loadView(ctx, issue, run);
    setOutputs(
      ctx,
      issue,
      run,
      [...view.tasks.values()].filter((t) => t.status === 'running' && t.claim?.runId === ctx.runId).map((t) => t.id),
    );
    return;
  }
  const tasks = await planRun(ctx, issue, run);
  setOutputs(ctx, issue, run, tasks);
  await syncPlanComment(ctx, issue, run);
}

/**
 * Posts the run's plan comment once and records its id. When this job is a repeat
 * (an earlier attempt may have posted before recording the id), it first looks for
 * the comment by marker and author.
 */
async function ensurePlanComment(ctx: StepContext, issue: number, run: number, repeat: boolean): Promise<void> {
  const view = await loadView(ctx, issue, run);
  if (view.run.planCommentId !== null) return;
  const found = repeat ? await ctx.forge.findComment(issue, planMarker(issue, run), await ctx.forge.botLogin()) : undefined;
  const ref = found ?? (await ctx.forge.postComment(issue, renderPlanComment(view, planLinks(ctx))));
  // Posted but not yet recorded: a job that dies here leaves a comment only a search can find.
  if (!found) ctx.log.checkpoint('plan-comment-sent');
  await updateRun(ctx, issue, run, `plan comment ${ref.id}`, (tx) => {
    const rec = readRun(tx, issue, run)!;
    if (rec.planCommentId === null) writeRun(tx, { ...rec, planCommentId: ref.id }, nowIso(ctx));
  });
  ctx.log.checkpoint('plan-comment-posted');
}

/**
 * A reply to a question crew never posted (its job stopped in between) cannot count: crew
 * asks now, says so, and the reply must come after the question.
 */
async function askedJustNow(ctx: StepContext, ev: CommentEvent, last: RunRecord): Promise<boolean> {
  if (!(await askUnasked(ctx, last))) return false;
  await ctx.forge.postComment(
    ev.issue.number,
    `crew had not posted its ${last.waiting!.kind === 'approval' ? `request to approve plan v${last.waiting!.planVersion}` : 'question'} yet when that reply came, so the reply does not count. The ${last.waiting!.kind === 'approval' ? 'request' : 'question'} is above now; reply to it.`,
  );
  return true;
}

/**
 * A reply counts only if it was written after the comment it answers and has not
 * been edited since: crew re-reads it rather than trusting the event alone.
 */
/** Whether a reply to crew's decision comment counts; when it does not, says why in a comment. */
async function decisionReplyCounts(ctx: StepContext, ev: CommentEvent, after: number): Promise<boolean> {
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

async function trustedReply(ctx: StepContext, ev: CommentEvent, after: number): Promise<'ok' | 'stale' | 'edited'> {
  if (ev.comment.id <= after) return 'stale';
  const now = await ctx.forge.getComment(ev.comment.id);
  // The body, not updated_at: GitHub does not say whether crew's own 👀 reaction moves a comment's
  // updated_at, and if it did, every command crew reacted to would look edited. An edit that
  // matters changes the body from what the event carried.
  if (now.body !== ev.comment.body) return 'edited';
  return 'ok';
}

/** An answer to crew's questions: a plain reply on a labelled issue, or `/crew answer`. */
async function answer(ctx: StepContext, ev: CommentEvent, text: string, opts: { quiet: boolean }): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (!last || last.phase !== 'ESCALATING' || (last.waiting?.kind !== 'answer' && last.waiting?.kind !== 'decision')) {
    if (!opts.quiet) await ctx.forge.postComment(issue, 'crew is not waiting for an answer on this issue. Comment `/crew status` to see where the run stands.');
    else ctx.log.info('crew is not waiting for an answer; the comment is ordinary conversation');
    return;
  }
  if (last.waiting.kind === 'decision') {
    if (opts.quiet) {
      if (!(await hasWriteAccess(ctx, ev, false))) return;
      await ctx.forge.react(ev.comment.id, 'eyes');
    }
    if (!text) return nothingToTake(ctx, ev);
    return decideTask(ctx, ev, last, 'answer', text);
  }
  if (opts.quiet) {
    if (!(await hasWriteAccess(ctx, ev, false))) return;
    await ctx.forge.react(ev.comment.id, 'eyes');
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
  const { value: taken } = await updateRun(ctx, issue, run, `answer from @${ev.comment.author.login}`, (tx) => {
    const rec = readRun(tx, issue, run)!;
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
    writeRun(tx, { ...rec, phase: 'PLANNING', waiting: null }, nowIso(ctx));
    return true;
  });
  if (!taken) return ctx.log.info('another reply answered the questions first');
  await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('answer-recorded');
  const tasks = await planRun(ctx, issue, run);
  setOutputs(ctx, issue, run, tasks);
  await syncPlanComment(ctx, issue, run);
}

/** A reply from someone with write access in which everything is quoted (or hidden): crew says it took nothing. */
async function nothingToTake(ctx: StepContext, ev: CommentEvent): Promise<void> {
  await ctx.forge.postComment(
    ev.issue.number,
    `crew took nothing from that reply: all of it is quoted (lines starting with \`>\`) or hidden, and quoted text is someone else's words, not your answer. Write your answer outside the quote.`,
  );
}

async function approve(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (!last || last.phase !== 'AWAITING_APPROVAL' || last.waiting?.kind !== 'approval') {
    await ctx.forge.postComment(issue, 'There is no plan waiting for approval on this issue, so crew ignored that approval. Comment `/crew plan` to make one.');
    return;
  }
  const waiting = last.waiting;
  if (await askedJustNow(ctx, ev, last)) return;
  const trust = await trustedReply(ctx, ev, waiting.commentId);
  if (trust !== 'ok') {
    await ctx.forge.postComment(
      issue,
      trust === 'stale'
        ? `That approval was written before plan v${waiting.planVersion} was posted, so crew ignored it. Comment \`/crew approve\` again to approve the current plan.`
        : 'That approval was edited after it was posted, so crew ignored it. Post `/crew approve` as a new comment.',
    );
    return;
  }
  const run = last.run;
  const config = await ctx.config();
  const now = nowIso(ctx);
  const { value: claimed } = await updateRun(ctx, issue, run, `plan v${waiting.planVersion} approved by @${ev.comment.author.login}`, (tx) => {
    const rec = readRun(tx, issue, run)!;
    if (rec.phase !== 'AWAITING_APPROVAL' || rec.waiting?.kind !== 'approval' || rec.waiting.planVersion !== waiting.planVersion) return null;
    writeRun(tx, { ...rec, phase: 'EXECUTING', waiting: null, approvedBy: ev.comment.author.login }, now);
    return claimReadyTasks(tx, issue, run, config.max_parallel, { runId: ctx.runId, nonce: nonce(), at: now }, now);
  });
  if (claimed === null) return ctx.log.info('the plan changed or was approved by someone else first');
  ctx.log.checkpoint('plan-approved');
  setOutputs(ctx, issue, run, claimed);
  await syncPlanComment(ctx, issue, run);
}

async function revise(ctx: StepContext, ev: CommentEvent, feedback: string): Promise<void> {
  const issue = ev.issue.number;
  if (!feedback) {
    await ctx.forge.postComment(issue, 'Say what to change after the command: `/crew revise <what to change>`.');
    return;
  }
  const last = await latestRun(ctx, issue);
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision' && last.waiting.topic === 'plan_review')
    return decideTask(ctx, ev, last, 'revise', feedback);
  if (!last || last.phase !== 'AWAITING_APPROVAL') {
    await ctx.forge.postComment(issue, 'There is no plan waiting for approval on this issue, so there is nothing to revise. Comment `/crew plan` to make one.');
    return;
  }
  const run = last.run;
  const { value: taken } = await updateRun(ctx, issue, run, `revise`, (tx) => {
    const rec = readRun(tx, issue, run)!;
    if (rec.phase !== 'AWAITING_APPROVAL') return false;
    writeRun(tx, { ...rec, phase: 'PLANNING', waiting: null }, nowIso(ctx));
    return true;
  });
  if (!taken) return;
  await syncPlanComment(ctx, issue, run);
  const tasks = await planRun(ctx, issue, run, `A maintainer (@${ev.comment.author.login}) asked for these changes: ${feedback}`);
  setOutputs(ctx, issue, run, tasks);
  await syncPlanComment(ctx, issue, run);
}

type DecisionReply = 'retry' | 'accept' | 'answer' | 'revise';

/**
 * A person's decision on an escalated task: retry it, accept its work as it is,
 * answer its question (it runs again with the answer), or re-plan the failed tasks.
 * Counts only if written by someone with write access after crew asked, and not edited.
 */
async function decideTask(ctx: StepContext, ev: CommentEvent, last: RunRecord, reply: DecisionReply, text = ''): Promise<void> {
  const issue = ev.issue.number;
  const run = last.run;
  const waiting = last.waiting as Extract<RunRecord['waiting'], { kind: 'decision' }>;
  if (await askedJustNow(ctx, ev, last)) return;
  if (!(await decisionReplyCounts(ctx, ev, waiting.commentId))) return;
  const config = await ctx.config();
  const now = nowIso(ctx);
  const claimNonce = nonce();
  let toReplan: string[] = [];
  const asking: { next: ReturnType<typeof openQueuedQuestion> } = { next: null };
  const { value: claimed } = await updateRun(ctx, issue, run, `${reply} ${waiting.task} (@${ev.comment.author.login})`, (tx) => {
    const view = readView(tx, issue, run)!;
    if (view.run.waiting?.kind !== 'decision' || view.run.waiting.commentId !== waiting.commentId) return null;
    const task = view.tasks.get(waiting.task)!;
    if (reply === 'accept') writeTask(tx, issue, run, { ...task, accepted: true });
    if (reply === 'retry' || reply === 'answer') {
      const advice = reply === 'answer' ? [...task.advice, `@${ev.comment.author.login} answered: ${text.trim()}`] : task.advice;
      writeTask(tx, issue, run, { ...task, status: 'pending', claim: null, advice, pendingReplan: false });
    }
    if (reply === 'revise') {
      toReplan = failedTasks(view).map((t) => t.id);
      for (const id of toReplan) writeTask(tx, issue, run, { ...view.tasks.get(id)!, pendingReplan: true });
    }
    writeRun(tx, { ...view.run, phase: 'EXECUTING', waiting: null }, now);
    const started = reply === 'revise' ? [] : claimReadyTasks(tx, issue, run, config.max_parallel, { runId: ctx.runId, nonce: claimNonce, at: now }, now);
    // One question at a time: the next one that waited for this answer is asked now.
    asking.next = openQueuedQuestion(tx, issue, run, now);
    return started;
  });
  if (claimed === null) return ctx.log.info('the decision was already taken');
  const queued = asking.next;
  if (!queued) await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('decision-taken');
  if (queued) await askPerson(ctx, issue, run, queued.task, queued.question, queued.planReview);
  if (reply === 'revise') {
    await replanTasks(ctx, issue, run, toReplan, `A maintainer (@${ev.comment.author.login}) says: ${text}`);
    return setOutputs(ctx, issue, run, [], true);
  }
  setOutputs(ctx, issue, run, claimed, true);
  await syncPlanComment(ctx, issue, run);
}

/**
 * A person's answer to a FAIL the critic could not get past: `accept` takes the work as
 * it is (the PR says which criteria failed and is never merged by crew); `retry` grants
 * one more iteration: the tasks behind the failing criteria run again, or, when the
 * critic could not evaluate, the critic judges again.
 */
async function decideVerdict(ctx: StepContext, ev: CommentEvent, last: RunRecord, reply: 'accept' | 'retry'): Promise<void> {
  const issue = ev.issue.number;
  const run = last.run;
  const waiting = last.waiting as Extract<RunRecord['waiting'], { kind: 'verdict' }>;
  if (!(await decisionReplyCounts(ctx, ev, waiting.commentId))) return;
  const config = await ctx.config();
  const judgment = await lastJudgment(ctx.state, await loadView(ctx, issue, run));
  const now = nowIso(ctx);
  const claimNonce = nonce();
  const judgeAgain = reply === 'accept' || !judgment || (failingEvaluations(judgment).every((e) => e.met === null) && judgment.adversarial.length === 0);
  const { value: claimed } = await updateRun(ctx, issue, run, `${reply} the critic's FAIL (@${ev.comment.author.login})`, (tx) => {
    const view = readView(tx, issue, run)!;
    if (view.run.waiting?.kind !== 'verdict' || view.run.waiting.commentId !== waiting.commentId) return null;
    const review = view.run.review ?? FRESH_REVIEW;
    if (reply === 'accept') {
      writeRun(tx, { ...view.run, phase: 'REVIEWING', waiting: null, finalizer: ctx.runId, review: { ...review, acceptedBy: ev.comment.author.login } }, now);
      return [];
    }
    const allowance = Math.max(review.allowance, review.iteration - config.max_iterations) + 1;
    if (judgeAgain) {
      writeRun(tx, { ...view.run, phase: 'REVIEWING', waiting: null, finalizer: ctx.runId, review: { ...review, allowance } }, now);
      return [];
    }
    // The person asks for another round: a failure that was already on the base is the tasks' to fix too.
    const targets = tasksToRerun(judgment!, view, { blameBefore: true });
    for (const id of targets) {
      const t = view.tasks.get(id)!;
      writeTask(tx, issue, run, { ...t, status: 'pending', claim: null, error: null, finishedAt: null, advice: [...t.advice, rerunAdvice(judgment!, id)] });
    }
    writeRun(tx, { ...view.run, phase: 'EXECUTING', waiting: null, finalizer: null, review: { ...review, allowance, rerun: targets } }, now);
    return claimReadyTasks(tx, issue, run, config.max_parallel, { runId: ctx.runId, nonce: claimNonce, at: now }, now);
  });
  if (claimed === null) return ctx.log.info('the decision was already taken');
  await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('decision-taken');
  // advance runs next in this workflow run: with REVIEWING held by this run it hands over to the critic job.
  setOutputs(ctx, issue, run, claimed, true);
  await syncPlanComment(ctx, issue, run);
}

/** `/crew retry` on a merge conflict crew could not resolve: integrate again (the maintainer may have fixed a branch). */
async function retryIntegration(ctx: StepContext, ev: CommentEvent, last: RunRecord): Promise<void> {
  const issue = ev.issue.number;
  const run = last.run;
  const waiting = last.waiting as Extract<RunRecord['waiting'], { kind: 'conflict' }>;
  if (!(await decisionReplyCounts(ctx, ev, waiting.commentId))) return;
  const { value: taken } = await updateRun(ctx, issue, run, `integrate again (@${ev.comment.author.login})`, (tx) => {
    const view = readView(tx, issue, run)!;
    if (view.run.waiting?.kind !== 'conflict' || view.run.waiting.commentId !== waiting.commentId) return false;
    writeRun(tx, { ...view.run, phase: 'INTEGRATING', waiting: null, finalizer: ctx.runId }, nowIso(ctx));
    return true;
  });
  if (!taken) return ctx.log.info('the decision was already taken');
  await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('decision-taken');
  // advance runs next in this workflow run and, holding INTEGRATING, integrates again.
  setOutputs(ctx, issue, run, [], true);
  await syncPlanComment(ctx, issue, run);
}

/** `/crew retry [task]`: failed tasks (or the one named) run again, with a fresh allowance of attempts. */
async function retry(ctx: StepContext, ev: CommentEvent, only?: string): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision' && (!only || only === last.waiting.task)) return decideTask(ctx, ev, last, 'retry');
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'verdict' && !only) return decideVerdict(ctx, ev, last, 'retry');
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'conflict' && !only) return retryIntegration(ctx, ev, last);
  if (!last || !['FAILED', 'EXECUTING', 'INTERRUPTED'].includes(last.phase)) {
    await ctx.forge.postComment(
      issue,
      `There is nothing to retry${last ? ` (run ${last.run} is ${last.phase.toLowerCase()})` : ''}. Comment \`/crew run\` to start a run.`,
    );
    return;
  }
  const run = last.run;
  const config = await ctx.config();
  const now = nowIso(ctx);
  const { value: out } = await updateRun(ctx, issue, run, `retry ${only ?? 'failed tasks'}`, (tx) => {
    const view = readView(tx, issue, run)!;
    const failed = (id: string) => settlement(view.tasks.get(id)) === 'failed';
    // A task blocked by a failed dependency can only run if that dependency runs again too.
    const wanted = new Set<string>();
    const want = (id: string) => {
      if (wanted.has(id) || !failed(id)) return;
      wanted.add(id);
      for (const d of view.plan?.tasks.find((t) => t.id === id)?.dependsOn ?? []) want(d);
    };
    for (const t of view.tasks.values()) if (!only || t.id === only) want(t.id);
    const targets = [...wanted].map((id) => view.tasks.get(id)!);
    // crew failed after the tasks (integrating, judging, finishing): retrying means carrying on from there.
    if (!targets.length && !only && view.run.phase === 'FAILED' && view.run.failure?.resumeFrom) return { resume: true as const };
    if (!targets.length)
      return { error: only ? `task ${only} has not failed, so there is nothing to retry.` : 'no task has failed, so there is nothing to retry.' };
    for (const t of targets) writeTask(tx, issue, run, { ...t, status: 'pending', claim: null, error: null, finishedAt: null });
    writeRun(tx, { ...view.run, phase: 'EXECUTING', failure: null }, now);
    return {
      claimed: claimReadyTasks(tx, issue, run, config.max_parallel, { runId: ctx.runId, nonce: nonce(), at: now }, now),
      retried: targets.map((t) => t.id),
    };
  });
  if ('resume' in out) return resume(ctx, ev);
  if ('error' in out) {
    await ctx.forge.postComment(issue, `Run ${run}: ${out.error}`);
    return;
  }
  ctx.log.info(`retrying ${out.retried!.join(', ')}`);
  setOutputs(ctx, issue, run, out.claimed!, true);
  await syncPlanComment(ctx, issue, run);
}

/** `/crew accept`: take an escalated task's work as it is. */
async function accept(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const last = await latestRun(ctx, ev.issue.number);
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision') return decideTask(ctx, ev, last, 'accept');
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'verdict') return decideVerdict(ctx, ev, last, 'accept');
  await ctx.forge.postComment(
    ev.issue.number,
    'There is no escalated task or critic verdict waiting for a decision on this issue, so there is nothing to accept.',
  );
}

/**
 * `/crew resume`: picks an interrupted run up from its state. Tasks that succeeded are
 * skipped, tasks whose work was pushed keep it (their branch is reused), everything
 * else runs again; a run that was finishing finishes.
 */
async function resume(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  // Stopped before its run was even written: resuming means doing what was asked.
  if (!last) return startRun(ctx, ev, 'run');
  // crew itself failed (not the work): go back to the phase it failed in.
  if (last.phase === 'FAILED' && last.failure?.resumeFrom) return resumeFailed(ctx, ev, last, last.failure.resumeFrom);
  if ((last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL') && (await askUnasked(ctx, last))) return;
  if (isTerminal(last.phase) || last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL') {
    const why =
      last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL'
        ? `run ${last.run} is waiting for you, not interrupted (see the plan comment)`
        : last.phase === 'FAILED' && failedTasks(await loadView(ctx, issue, last.run)).length
          ? `run ${last.run} ended because tasks failed. Comment \`/crew retry\` to run them again (or \`/crew retry <task>\` for one)`
          : `run ${last.run} has ended (${last.phase.toLowerCase()})`;
    await ctx.forge.postComment(issue, `Nothing to resume: ${why}.`);
    return;
  }
  return resumeRun(ctx, ev, last);
}

/**
 * Resumes a run that crew failed in (an error outside the tasks): the phase it was in comes
 * back, with this workflow run as the one finishing it. Integration, judging and finishing
 * are idempotent, so they simply run again; a PASS on the same head is not judged twice.
 */
async function resumeFailed(ctx: StepContext, ev: CommentEvent, last: RunRecord, from: Phase): Promise<void> {
  const issue = ev.issue.number;
  const run = last.run;
  const back: Phase = from === 'INTERRUPTED' ? 'EXECUTING' : from;
  const { value: taken } = await updateRun(ctx, issue, run, `resume in ${back} after a failure`, (tx) => {
    const rec = readRun(tx, issue, run)!;
    if (rec.phase !== 'FAILED' || !rec.failure?.resumeFrom) return false;
    const finalizer = back === 'INTEGRATING' || back === 'REVIEWING' ? ctx.runId : null;
    writeRun(tx, { ...rec, phase: back, failure: null, finalizer }, nowIso(ctx));
    return true;
  });
  if (!taken) return ctx.log.info('the run was resumed by another job first');
  ctx.log.info(`resuming run ${run} in ${back}, where crew failed (${last.failure?.step})`);
  const now = await latestRun(ctx, issue);
  if (back === 'INTEGRATING' || back === 'REVIEWING') {
    // advance runs next in this workflow run: it integrates (INTEGRATING) or hands to the critic job (REVIEWING).
    setOutputs(ctx, issue, run, [], true);
    await syncPlanComment(ctx, issue, run);
    return;
  }
  if (back === 'ESCALATING' || back === 'AWAITING_APPROVAL') {
    if (!(await askUnasked(ctx, now!))) await syncPlanComment(ctx, issue, run);
    return;
  }
  return resumeRun(ctx, ev, now!);
}

/**
 * A question crew recorded but never posted: the job stopped between writing the state
 * (waiting, comment id 0) and posting. Posts it now; a reply counts only after it.
 */
async function askUnasked(ctx: StepContext, rec: RunRecord): Promise<boolean> {
  const w = rec.waiting;
  if (!w || w.commentId !== 0) return false;
  ctx.log.info(`run ${rec.run} waits on a ${w.kind} that was never posted; asking now`);
  if (w.kind === 'decision') await askPerson(ctx, rec.issue, rec.run, w.task, w.question, w.topic === 'plan_review');
  else if (w.kind === 'approval') {
    const review = (await ctx.state.load(`${runFolder(rec.issue, rec.run)}/`)).read(paths.review(rec.issue, rec.run)) ?? '';
    await requestApproval(ctx, rec.issue, rec.run, w.planVersion, w.reason === 'requested', review.split(/\n\n/).slice(2).join('\n\n').trim());
  } else return false;
  return true;
}

async function resumeRun(ctx: StepContext, ev: CommentEvent, last: RunRecord): Promise<void> {
  const issue = ev.issue.number;
  const run = last.run;
  // The run may have stopped before its plan comment was posted or recorded.
  await ensurePlanComment(ctx, issue, run, true);
  if (last.phase === 'PLANNING') {
    const tasks = await planRun(ctx, issue, run);
    setOutputs(ctx, issue, run, tasks);
    return syncPlanComment(ctx, issue, run);
  }
  const config = await ctx.config();
  const now = nowIso(ctx);
  // Which claims belong to nobody: the workflow run that holds them has finished (or the run was cancelled).
  const snapshot = await loadView(ctx, issue, run);
  const dead = new Set<string>();
  for (const t of snapshot.tasks.values()) {
    if ((t.status !== 'running' && t.status !== 'retrying') || !t.claim) continue;
    // A claim still waiting for its dispatched run is claimed afresh: if that dispatch does arrive, its nonce no
    // longer matches and it starts nothing.
    const active = snapshot.run.phase === 'INTERRUPTED' || t.claim.runId.startsWith('dispatch:') ? false : await ctx.forge.workflowRunActive(t.claim.runId);
    if (active !== true) dead.add(t.id);
  }
  // What a vanished worker pushed is taken; only what never reached its branch runs again.
  const pushed = new Map<string, 'retry' | 'none'>();
  for (const id of dead) {
    const taken = await takePushedResult(ctx, issue, run, snapshot.tasks.get(id)!);
    if (taken !== 'recorded') pushed.set(id, taken);
  }
  const { value: claimed } = await updateRun(ctx, issue, run, `resume`, (tx) => {
    const view = readView(tx, issue, run)!;
    for (const [id, how] of pushed) {
      const t = view.tasks.get(id)!;
      // An attempt that never reached the branch does not count against the task.
      if (t.status === 'running' || t.status === 'retrying')
        writeTask(tx, issue, run, { ...t, status: 'pending', claim: null, attempts: how === 'none' ? Math.max(0, t.attempts - 1) : t.attempts });
    }
    writeRun(tx, { ...view.run, phase: 'EXECUTING', finalizer: null, failure: null }, now);
    return claimReadyTasks(tx, issue, run, config.max_parallel, { runId: ctx.runId, nonce: nonce(), at: now }, now);
  });
  ctx.log.checkpoint('run-resumed');
  setOutputs(ctx, issue, run, claimed, true);
  await syncPlanComment(ctx, issue, run);
}

/**
 * `/crew abort`: the run ends ABORTED at once; every running worker gets a
 * shutdown_request and stops at its next turn, committing what it has.
 */
async function abort(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (!last || isTerminal(last.phase)) {
    await ctx.forge.postComment(issue, 'There is no crew run in progress on this issue, so there is nothing to abort.');
    return;
  }
  const run = last.run;
  const at = nowIso(ctx);
  const { value: stopping } = await updateRun(ctx, issue, run, `aborted by @${ev.comment.author.login}`, (tx) => {
    const view = readView(tx, issue, run)!;
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
      ? `Aborting run ${run}. ${stopping.join(', ')} will stop at their next turn and keep their work on their branches; nothing else will start. Comment \`/crew run\` to start again.`
      : `Aborted run ${run}; nothing was running. Comment \`/crew run\` to start again.`,
  );
  await syncPlanComment(ctx, issue, run);
  await reportEndedRun(
    ctx,
    issue,
    run,
    `@${ev.comment.author.login} aborted the run${stopping.length ? ` while ${stopping.join(', ')} ran (their work so far stays on their branches)` : ''}, so crew opened no pull request.`,
  );
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
    "Replace `.github/workflows/crew.yml` with the workflow in crew's README (its `route` job skips `workflow_dispatch`, and `work` reads the dispatch's inputs), then comment `/crew resume`.",
  );
}

function sanitizeInput(value: string | undefined): string {
  return `\`${(value ?? '').replace(/[^\w",[\]]/g, '').slice(0, 200)}\``;
}
