import { continuedBudget, runBudgets, runBudgetSpent } from '../../domain/budgets';
import { WAITING_LABEL } from '../../domain/labels';
import { FRESH_REVIEW, settlement, totalUsage, type RunRecord } from '../../domain/run-state';
import type { CommentEvent } from '../../event';
import { money } from '../../render/cost';
import { budgetSpentText } from '../../render/budget-stop';
import { writeRun, writeTask } from '../../state/run-files';
import { claimReadyTasks } from '../../state/transitions';
import { nowIso, syncPlanComment, taskClaim, updateView, type StepContext } from '../context';
import { periodStop } from '../budget-stop';
import { repositoryBudgetReached } from '../spend-gate';
import { latestRun, setOutputs } from './common';
import { planRun } from '../plan-run';
import { askedJustNow, decisionReplyCounts } from './replies';
import { sentence } from '../../domain/surface';

/**
 * The answers to a budget's end (#52, steps/budget-stop.ts): `/crew continue [$N]` goes on from the
 * work on the branches; `/crew accept` (decisions.ts hands it here) opens the pull request with what
 * exists. Both count only from a writer, after crew asked, unedited, as every decision does.
 */

type BudgetWaiting = Extract<RunRecord['waiting'], { kind: 'budget' }>;

/** `/crew continue [$N]`: the tasks the budget stopped start again from their branches. */
export async function continueRun(ctx: StepContext, ev: CommentEvent, amountUsd?: number): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (last?.phase !== 'ESCALATING' || last.waiting?.kind !== 'budget') {
    await ctx.forge.postComment(
      issue,
      `There is no run stopped at a budget on this issue, so there is nothing to continue${last ? ` (run ${ctx.surface.runNumber(issue, last.run)} is ${last.phase.toLowerCase()})` : ''}. ${ctx.surface.command('resume')} carries on an interrupted run.`,
    );
    return;
  }
  if (await askedJustNow(ctx, ev, last)) return;
  const waiting = last.waiting;
  if (!(await decisionReplyCounts(ctx, ev, waiting.commentId))) return;
  // A repository budget still reached: the run keeps waiting, as a new run would be refused.
  if (await heldByRepositoryBudget(ctx, issue, last.run, 'continue')) return;
  const run = last.run;
  const config = await ctx.config();
  const now = nowIso(ctx);
  const out = await updateView(ctx, issue, run, `continue after the budget (@${ev.comment.author.login})`, (view, tx) => {
    if (view.run.waiting?.kind !== 'budget' || view.run.waiting.commentId !== waiting.commentId) return null;
    const spent = totalUsage(view);
    // A new limit when one is given or the run's own is spent; a day's or month's stop alone keeps the run's.
    const raise = amountUsd !== undefined || runBudgetSpent(runBudgets(config.budgets, view.run).run, spent);
    const budgetRun = raise ? continuedBudget(config.budgets.run, spent, amountUsd) : view.run.budgetRun;
    const raised = { waiting: null, ...(budgetRun ? { budgetRun } : {}) };
    const back = { budgetRun: raise ? budgetRun : undefined };
    // Stopped while planning or in the critic: back to that phase, which this workflow run takes up below.
    if (waiting.at === 'planning') {
      writeRun(tx, { ...view.run, ...raised, phase: 'PLANNING' }, now);
      return { ...back, claimed: [] };
    }
    if (waiting.at === 'review') {
      writeRun(tx, { ...view.run, ...raised, phase: 'REVIEWING', finalizer: ctx.runId }, now);
      return { ...back, claimed: [] };
    }
    writeRun(tx, { ...view.run, ...raised, phase: 'EXECUTING' }, now);
    return { ...back, claimed: claimReadyTasks(tx, issue, run, config.max_parallel, taskClaim(ctx, 'this-run', now)) };
  });
  if (out === null) return ctx.log.info('the decision was already taken');
  await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('decision-taken');
  ctx.log.info(
    `continuing run ${run} after the budget${out.budgetRun ? `: the run may spend up to ${money(out.budgetRun.cost_usd)} and ${out.budgetRun.tokens.toLocaleString('en-US')} budget tokens` : ''}; ${waiting.at === 'planning' ? 'planning goes on' : waiting.at === 'review' ? 'the critic judges again' : `starting ${out.claimed.join(', ') || 'nothing new'}`}`,
  );
  // Planning goes on in this job, from what it kept (intake's reading, a `/crew revise` it was planning), as `/crew resume` plans.
  const planned = waiting.at === 'planning' ? await planRun(ctx, issue, run, waiting.revision) : out.claimed;
  // advance runs next in this workflow run: it hands a REVIEWING run to the critic job.
  await setOutputs(ctx, issue, run, planned, waiting.at !== 'planning');
  await syncPlanComment(ctx, issue, run);
}

/**
 * `/crew accept` at a budget's end: the person takes what exists. Every task with work on its branch
 * counts as done as it is; one never started stays out. The run integrates and opens its pull request
 * without the critic (whose model use the budget no longer covers); the pull request says it was
 * accepted at a budget with its criteria unchecked, and crew never merges it.
 */
export async function acceptAtBudget(ctx: StepContext, ev: CommentEvent, last: RunRecord): Promise<void> {
  const issue = ev.issue.number;
  const run = last.run;
  if (await askedJustNow(ctx, ev, last)) return;
  const waiting = last.waiting as BudgetWaiting;
  if (!(await decisionReplyCounts(ctx, ev, waiting.commentId))) return;
  // Stopped while planning: no task exists, so there is nothing to open a pull request with; the run keeps waiting.
  if (waiting.at === 'planning') {
    await ctx.forge.postComment(
      issue,
      `crew did not accept: run ${ctx.surface.runNumber(issue, run)} stopped at its budget while planning, so there is no plan and no work yet to open a pull request with. ${sentence(ctx.surface.give('continue'))} to go on planning (${ctx.surface.command('continue', '$N')} to set how much more it may spend), or ${ctx.surface.command('abort')} to end the run.`,
    );
    return;
  }
  const who = ev.comment.author.login;
  const now = nowIso(ctx);
  const out = await updateView(ctx, issue, run, `accept what exists at the budget (@${who})`, (view, tx) => {
    if (view.run.waiting?.kind !== 'budget' || view.run.waiting.commentId !== waiting.commentId) return null;
    const tasks = [...view.tasks.values()].filter((t) => !t.replacedBy);
    const running = tasks.filter((t) => t.status === 'running' || t.status === 'retrying').map((t) => t.id);
    if (running.length) return { refused: `${running.join(', ')} ${running.length === 1 ? 'is' : 'are'} still running` };
    const open = tasks.filter((t) => settlement(t) === 'open');
    const withWork = open.filter((t) => t.headSha);
    if (!withWork.length && !tasks.some((t) => settlement(t) === 'done')) return { refused: 'no task has any work on its branch yet' };
    for (const t of withWork) writeTask(tx, issue, run, { ...t, status: 'partial', accepted: true, claim: null, finishedAt: now });
    for (const t of open.filter((t) => !t.headSha))
      writeTask(tx, issue, run, {
        ...t,
        status: 'blocked',
        claim: null,
        finishedAt: now,
        error: `not started: the run stopped at a budget and @${who} accepted what existed`,
      });
    const review = view.run.review ?? FRESH_REVIEW;
    writeRun(
      tx,
      { ...view.run, phase: 'INTEGRATING', waiting: null, finalizer: ctx.runId, review: { ...review, acceptedBy: who, acceptedAtBudget: true } },
      now,
    );
    return { accepted: withWork.map((t) => t.id) };
  });
  if (out === null) return ctx.log.info('the decision was already taken');
  if (out.refused !== undefined) {
    await ctx.forge.postComment(
      issue,
      `crew did not accept yet: ${out.refused}. ${ctx.surface.command('continue')} goes on, ${ctx.surface.command('abort')} ends the run${out.refused.includes('running') ? `; or ${ctx.surface.command('accept')} again once it has stopped (the plan comment shows it)` : ''}.`,
    );
    return;
  }
  await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('decision-taken');
  // advance runs next in this workflow run: holding INTEGRATING, it integrates and hands to the critic job, which opens the pull request.
  await setOutputs(ctx, issue, run, [], true);
  await syncPlanComment(ctx, issue, run);
}

/**
 * Whether the repository's `budgets.day` or `budgets.month` is reached, so that `/crew continue`,
 * `/crew resume` or `/crew retry` of an existing run does not start model work now (#52); if so, says
 * the spend and when it resets.
 */
export async function heldByRepositoryBudget(ctx: StepContext, issue: number, run: number, command: 'continue' | 'resume' | 'retry'): Promise<boolean> {
  const period = await repositoryBudgetReached(ctx);
  if (!period) return false;
  ctx.log.info(`run ${run} does not go on: the repository's budgets.${period.period} is reached`);
  await ctx.forge.postComment(
    issue,
    `Run ${ctx.surface.runNumber(issue, run)} does not go on yet: ${budgetSpentText(periodStop(period))}. ${sentence(ctx.surface.give(command))} again after that, or once \`budgets.${period.period}\` is raised in \`.github/crew.yml\` on the default branch. Its work stays on its branches.`,
  );
  return true;
}
