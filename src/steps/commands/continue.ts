import { budgetStopAccepts, continuedBudget, runBudgets, runBudgetSpent } from '../../domain/budgets';
import { WAITING_LABEL } from '../../domain/labels';
import { FRESH_REVIEW, isTerminal, settlement, totalUsage, type RunRecord } from '../../domain/run-state';
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
import { replanTasks } from '../leader';
import { replanFailedHalf } from '../advance';
import { retrospect } from '../retrospect';
import { askedJustNow, decisionReplyCounts } from './replies';
import { sentence } from '../../domain/surface';

/**
 * The answers to a budget's end (#52, steps/budget-stop.ts): `/crew continue [$N]` goes on from the
 * work on the branches; `/crew accept` (decisions.ts hands it here) opens the pull request with what
 * exists. Both count only from a writer, after crew asked, unedited, as every decision does.
 */

type BudgetWaiting = Extract<RunRecord['waiting'], { kind: 'budget' }>;

/**
 * `/crew continue [$N]`: the step the budget stopped goes on: the tasks from their branches, planning, re-planning,
 * the resolver's merge or the critic; after a run ended, the retrospective it skipped.
 */
export async function continueRun(ctx: StepContext, ev: CommentEvent, amountUsd?: number): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  if (last?.retroAtBudget && isTerminal(last.phase)) return continueRetrospective(ctx, ev, last, amountUsd);
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
    // Stopped in the resolver: this workflow run integrates again (advance, holding INTEGRATING), from the task branches as they are now.
    if (waiting.at === 'integration') {
      writeRun(tx, { ...view.run, ...raised, phase: 'INTEGRATING', finalizer: ctx.runId }, now);
      return { ...back, claimed: [] };
    }
    writeRun(tx, { ...view.run, ...raised, phase: 'EXECUTING' }, now);
    return { ...back, claimed: claimReadyTasks(tx, issue, run, config.max_parallel, taskClaim(ctx, 'this-run', now)) };
  });
  if (out === null) return ctx.log.info('the decision was already taken');
  await ctx.forge.removeLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('decision-taken');
  ctx.log.info(
    `continuing run ${run} after the budget${out.budgetRun ? `: the run may spend up to ${money(out.budgetRun.cost_usd)} and ${out.budgetRun.tokens.toLocaleString('en-US')} budget tokens` : ''}; ${goingOn(waiting, out.claimed)}`,
  );
  // Planning goes on in this job, from what it kept (intake's reading, a `/crew revise` it was planning), as `/crew resume` plans.
  const planned = waiting.at === 'planning' ? await planRun(ctx, issue, run, waiting.revision) : out.claimed;
  // Re-planning too, as `/crew revise` re-plans: its new tasks are dispatched; a re-plan of the failed half that makes none fails the run as advance would.
  if (waiting.replan) {
    const { tasks, feedback, endOfRun } = waiting.replan;
    if (endOfRun) await replanFailedHalf(ctx, issue, run, tasks, feedback);
    else await replanTasks(ctx, issue, run, tasks, feedback);
  }
  // advance runs next in this workflow run: it hands a REVIEWING run to the critic job.
  await setOutputs(ctx, issue, run, planned, waiting.at !== 'planning');
  await syncPlanComment(ctx, issue, run);
}

/** What `/crew continue` goes on with, for the log. */
function goingOn(w: BudgetWaiting, claimed: string[]): string {
  if (w.at === 'planning') return 'planning goes on';
  if (w.at === 'review') return 'the critic judges again';
  if (w.at === 'integration') return `integrating again, the resolver merging ${w.conflict?.task ?? 'the conflicting task'}`;
  return `${w.replan ? `re-planning ${w.replan.tasks.join(', ')}; ` : ''}starting ${claimed.join(', ') || 'nothing new'}`;
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
  // Stopped while planning (no task exists) or in the resolver (the branches conflict): nothing to open a pull request with; the run keeps waiting.
  if (!budgetStopAccepts(waiting)) {
    await ctx.forge.postComment(issue, nothingToAccept(ctx, issue, run, waiting));
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
    // A task crew was re-planning goes in as its work stands, its status kept (failure, timeout); without work, its failure stands.
    for (const t of withWork)
      writeTask(tx, issue, run, {
        ...t,
        status: t.pendingReplan ? t.status : 'partial',
        accepted: true,
        pendingReplan: false,
        claim: null,
        finishedAt: t.finishedAt ?? now,
      });
    for (const t of open.filter((t) => !t.headSha && t.pendingReplan)) writeTask(tx, issue, run, { ...t, pendingReplan: false });
    for (const t of open.filter((t) => !t.headSha && !t.pendingReplan))
      writeTask(tx, issue, run, {
        ...t,
        status: 'blocked',
        claim: null,
        finishedAt: now,
        // Parallel attempts (#50) held before one was kept have no head of the task's own: their work, if any, is on their branches.
        error:
          (t.parallel ?? 1) > 1
            ? `not judged: the run stopped at a budget before one of its ${t.parallel} parallel attempts was kept, and @${who} accepted what existed; what they did is on their own branches`
            : `not started: the run stopped at a budget and @${who} accepted what existed`,
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

/** Why `/crew accept` has nothing to take where the run stopped (while planning, or in the resolver), and what to do. */
function nothingToAccept(ctx: StepContext, issue: number, run: number, w: BudgetWaiting): string {
  const s = ctx.surface;
  const where =
    w.at === 'planning'
      ? 'while planning, so there is no plan and no work yet to open a pull request with'
      : `while merging the tasks: ${w.conflict?.task ?? 'a task'}'s branch conflicts with the work before it, and the resolver stopped before it merged them, so there is no integrated work to open a pull request with`;
  const goOn = w.at === 'planning' ? 'to go on planning' : 'to let the resolver merge it (or push a fix to a task branch first, and crew merges that)';
  return `crew did not accept: run ${s.runNumber(issue, run)} stopped at its budget ${where}. ${sentence(s.give('continue'))} ${goOn} (${s.command('continue', '$N')} to set how much more it may spend), or ${s.command('abort')} to end the run.`;
}

/**
 * `/crew continue [$N]` after the retrospective was skipped at the run's budget (retrospect.ts): the run has ended, so
 * only the retrospective goes on, with another `budgets.run` from what the run spent (or $N more), written in the
 * note's place. Counts only from a writer, after the note, unedited, as every decision does.
 */
async function continueRetrospective(ctx: StepContext, ev: CommentEvent, last: RunRecord, amountUsd?: number): Promise<void> {
  const issue = ev.issue.number;
  const note = last.retroAtBudget!;
  if (!(await decisionReplyCounts(ctx, ev, note.commentId))) return;
  const config = await ctx.config();
  // Turned off since the note (retrospect.ts would skip it without a word): the note stays, and the answer says why.
  if (!config.retrospect.enabled && !note.forced) {
    const s = ctx.surface;
    const retro = s.give('retro');
    await ctx.forge.postComment(
      issue,
      `crew did not write the retrospective of run ${s.runNumber(issue, last.run)}: \`retrospect.enabled\` is off in \`.github/crew.yml\` now.${retro ? ` ${sentence(retro)} to write one anyway, or turn it on and ${s.command('continue')} again.` : ''}`,
    );
    return;
  }
  if (await heldByRepositoryBudget(ctx, issue, last.run, 'continue')) return;
  ctx.model(); // fails now, with a clear message, if no key was given
  const budgetRun = await updateView(ctx, issue, last.run, `continue to the retrospective (@${ev.comment.author.login})`, (view, tx) => {
    if (view.run.retroAtBudget?.commentId !== note.commentId) return null;
    const { retroAtBudget: _, ...rec } = view.run;
    const raised = continuedBudget(config.budgets.run, totalUsage(view), amountUsd);
    writeRun(tx, { ...rec, budgetRun: raised }, nowIso(ctx));
    return raised;
  });
  if (budgetRun === null) return ctx.log.info('the decision was already taken');
  ctx.log.checkpoint('decision-taken');
  ctx.log.info(
    `writing the retrospective of run ${last.run}: the run may spend up to ${money(budgetRun.cost_usd)} and ${budgetRun.tokens.toLocaleString('en-US')} budget tokens`,
  );
  await retrospect(ctx, issue, last.run, !!note.forced, note.phase === last.phase ? note.commentId : undefined);
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
