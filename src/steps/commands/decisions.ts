import { failingEvaluations, rerunAdvice, tasksToRerun } from '../../domain/judgment';
import { failedTasks, FRESH_REVIEW, isTerminal, settlement, type RunRecord } from '../../domain/run-state';
import { budgetStopAccepts } from '../../domain/budgets';
import { budgetStopWhere } from '../../render/budget-stop';
import type { CommentEvent } from '../../event';
import { taskOf, writeRun, writeTask } from '../../state/run-files';
import { claimReadyTasks } from '../../state/transitions';
import { loadView, nowIso, syncPlanComment, taskClaim, updateView, type StepContext } from '../context';
import { askPerson, openQueuedQuestion, replanTasks } from '../leader';
import { lastJudgment } from '../../state/judgments';
import { WAITING_LABEL } from '../../domain/labels';
import { latestRun, setOutputs } from './common';
import { askedJustNow, decisionReplyCounts } from './replies';
import { resume } from './resume';
import { acceptAtBudget, heldByRepositoryBudget } from './continue';
import { sentence } from '../../domain/surface';

/** `/crew retry` and `/crew accept`: a person's decision on an escalated task, a critic's FAIL, a conflict, or failed tasks. */

type DecisionReply = 'retry' | 'accept' | 'answer' | 'revise';

/**
 * A person's decision on an escalated task: retry it, accept its work as it is,
 * answer its question (it runs again with the answer), or re-plan the failed tasks.
 * Counts only if written by someone with write access after crew asked, and not edited.
 */
export async function decideTask(ctx: StepContext, ev: CommentEvent, last: RunRecord, reply: DecisionReply, text = ''): Promise<void> {
  const issue = ev.issue.number;
  const run = last.run;
  const waiting = last.waiting as Extract<RunRecord['waiting'], { kind: 'decision' }>;
  if (await askedJustNow(ctx, ev, last)) return;
  if (!(await decisionReplyCounts(ctx, ev, waiting.commentId))) return;
  const config = await ctx.config();
  const now = nowIso(ctx);
  const claim = taskClaim(ctx, 'this-run', now);
  let toReplan: string[] = [];
  const asking: { next: ReturnType<typeof openQueuedQuestion> } = { next: null };
  const claimed = await updateView(ctx, issue, run, `${reply} ${waiting.task} (@${ev.comment.author.login})`, (view, tx) => {
    if (view.run.waiting?.kind !== 'decision' || view.run.waiting.commentId !== waiting.commentId) return null;
    const task = taskOf(view, waiting.task);
    if (reply === 'accept') writeTask(tx, issue, run, { ...task, accepted: true });
    if (reply === 'retry' || reply === 'answer') {
      const advice = reply === 'answer' ? [...task.advice, `@${ev.comment.author.login} answered: ${text.trim()}`] : task.advice;
      writeTask(tx, issue, run, { ...task, status: 'pending', claim: null, advice, pendingReplan: false });
    }
    if (reply === 'revise') {
      toReplan = failedTasks(view).map((t) => t.id);
      for (const id of toReplan) writeTask(tx, issue, run, { ...taskOf(view, id), pendingReplan: true });
    }
    writeRun(tx, { ...view.run, phase: 'EXECUTING', waiting: null }, now);
    const started = reply === 'revise' ? [] : claimReadyTasks(tx, issue, run, config.max_parallel, claim);
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
  await setOutputs(ctx, issue, run, claimed, true);
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
  const claim = taskClaim(ctx, 'this-run', now);
  const judgeAgain = reply === 'accept' || !judgment || (failingEvaluations(judgment).every((e) => e.met === null) && judgment.adversarial.length === 0);
  const claimed = await updateView(ctx, issue, run, `${reply} the critic's FAIL (@${ev.comment.author.login})`, (view, tx) => {
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
      const t = taskOf(view, id);
      writeTask(tx, issue, run, { ...t, status: 'pending', claim: null, error: null, finishedAt: null, advice: [...t.advice, rerunAdvice(judgment!, id)] });
    }
    writeRun(tx, { ...view.run, phase: 'EXECUTING', waiting: null, finalizer: null, review: { ...review, allowance, rerun: targets } }, now);
    return claimReadyTasks(tx, issue, run, config.max_parallel, claim);
  });
  if (claimed === null) return ctx.log.info('the decision was already taken');
  await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('decision-taken');
  // advance runs next in this workflow run: with REVIEWING held by this run it hands over to the critic job.
  await setOutputs(ctx, issue, run, claimed, true);
  await syncPlanComment(ctx, issue, run);
}

/** `/crew retry` on a merge conflict crew could not resolve: integrate again (the maintainer may have fixed a branch). */
async function retryIntegration(ctx: StepContext, ev: CommentEvent, last: RunRecord): Promise<void> {
  const issue = ev.issue.number;
  const run = last.run;
  const waiting = last.waiting as Extract<RunRecord['waiting'], { kind: 'conflict' }>;
  if (!(await decisionReplyCounts(ctx, ev, waiting.commentId))) return;
  const taken = await updateView(ctx, issue, run, `integrate again (@${ev.comment.author.login})`, (view, tx) => {
    if (view.run.waiting?.kind !== 'conflict' || view.run.waiting.commentId !== waiting.commentId) return false;
    writeRun(tx, { ...view.run, phase: 'INTEGRATING', waiting: null, finalizer: ctx.runId }, nowIso(ctx));
    return true;
  });
  if (!taken) return ctx.log.info('the decision was already taken');
  await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('decision-taken');
  // advance runs next in this workflow run and, holding INTEGRATING, integrates again.
  await setOutputs(ctx, issue, run, [], true);
  await syncPlanComment(ctx, issue, run);
}

/** `/crew retry [task]`: failed tasks (or the one named) run again, with a fresh allowance of attempts. */
export async function retry(ctx: StepContext, ev: CommentEvent, only?: string): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  // A run waiting at a budget (#52) goes on with `/crew continue`, not a retry: said before the repository's budget, which continue waits on too.
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'budget') {
    const s = ctx.surface;
    await ctx.forge.postComment(
      issue,
      `There is nothing to retry: run ${s.runNumber(issue, last.run)} waits at a budget${budgetStopWhere(last.waiting)} (see the plan comment). ${sentence(s.give('continue'))} to go on from where it stopped (${s.command('continue', '$N')} to set how much more it may spend)${budgetStopAccepts(last.waiting) ? `, ${s.command('accept')} to open the pull request with what exists` : ''} or ${s.command('abort')} to end it.`,
    );
    return;
  }
  // Retrying spends: not past a repository budget (#52).
  if (last && ['FAILED', 'EXECUTING', 'INTERRUPTED', 'ESCALATING'].includes(last.phase) && (await heldByRepositoryBudget(ctx, issue, last.run, 'retry')))
    return;
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision' && (!only || only === last.waiting.task)) return decideTask(ctx, ev, last, 'retry');
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'verdict' && !only) return decideVerdict(ctx, ev, last, 'retry');
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'conflict' && !only) return retryIntegration(ctx, ev, last);
  if (!last || !['FAILED', 'EXECUTING', 'INTERRUPTED'].includes(last.phase)) {
    await ctx.forge.postComment(
      issue,
      `There is nothing to retry${last ? ` (run ${ctx.surface.runNumber(issue, last.run)} is ${last.phase.toLowerCase()})` : ''}. ${sentence(ctx.surface.give('run'))} to start a run.`,
    );
    return;
  }
  const run = last.run;
  const config = await ctx.config();
  const now = nowIso(ctx);
  const out = await updateView(ctx, issue, run, `retry ${only ?? 'failed tasks'}`, (view, tx) => {
    const failed = (id: string) => settlement(view.tasks.get(id)) === 'failed';
    // A task blocked by a failed dependency can only run if that dependency runs again too.
    const wanted = new Set<string>();
    const want = (id: string) => {
      if (wanted.has(id) || !failed(id)) return;
      wanted.add(id);
      for (const d of view.plan?.tasks.find((t) => t.id === id)?.dependsOn ?? []) want(d);
    };
    for (const t of view.tasks.values()) if (!only || t.id === only) want(t.id);
    const targets = [...wanted].map((id) => taskOf(view, id));
    // crew failed after the tasks (integrating, judging, finishing): retrying means carrying on from there.
    if (!targets.length && !only && view.run.phase === 'FAILED' && view.run.failure?.resumeFrom) return { resume: true as const };
    if (!targets.length)
      return { error: only ? `task ${only} has not failed, so there is nothing to retry.` : 'no task has failed, so there is nothing to retry.' };
    for (const t of targets) writeTask(tx, issue, run, { ...t, status: 'pending', claim: null, error: null, finishedAt: null });
    writeRun(tx, { ...view.run, phase: 'EXECUTING', failure: null }, now);
    return {
      claimed: claimReadyTasks(tx, issue, run, config.max_parallel, taskClaim(ctx, 'this-run', now)),
      retried: targets.map((t) => t.id),
    };
  });
  if ('resume' in out) return resume(ctx, ev);
  if ('error' in out) {
    await ctx.forge.postComment(issue, `Run ${ctx.surface.runNumber(issue, run)}: ${out.error}`);
    return;
  }
  ctx.log.info(`retrying ${out.retried!.join(', ')}`);
  await setOutputs(ctx, issue, run, out.claimed!, true);
  await syncPlanComment(ctx, issue, run);
}

/** `/crew accept`: take an escalated task's work as it is, a critic's FAIL, or what exists at a budget's end. */
export async function accept(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const last = await latestRun(ctx, ev.issue.number);
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision') return decideTask(ctx, ev, last, 'accept');
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'verdict') return decideVerdict(ctx, ev, last, 'accept');
  if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'budget') return acceptAtBudget(ctx, ev, last);
  // The run has ended and only its retrospective was skipped at the budget (retrospect.ts): that is `/crew continue`'s.
  if (last?.retroAtBudget && isTerminal(last.phase)) {
    const s = ctx.surface;
    await ctx.forge.postComment(
      ev.issue.number,
      `There is nothing to accept: run ${s.runNumber(ev.issue.number, last.run)} has ended (${last.pr ? `its pull request is ${last.pr.url}` : last.phase.toLowerCase()}); only its retrospective was skipped at the run's budget. ${sentence(s.give('continue'))} to write it (${s.command('continue', '$N')} to set how much more it may spend).`,
    );
    return;
  }
  await ctx.forge.postComment(
    ev.issue.number,
    'There is no escalated task, critic verdict or budget stop waiting for a decision on this issue, so there is nothing to accept.',
  );
}
