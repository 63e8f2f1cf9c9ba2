import { runBudgetSpent, runBudgets, taskBudgetSpent, type Budget } from '../domain/budgets';
import { WAITING_LABEL } from '../domain/labels';
import { addUsage, tokensOf, type Phase, type RunRecord, type RunView, type Spent, type Usage } from '../domain/run-state';
import type { TeamMessage } from '../state/inbox';
import type { RunBudgetSpent } from '../agents/run-budget';
import type { Config } from '../config/schema';
import type { PeriodSpend } from '../domain/spend';
import { budgetQuestion, budgetSpentText, type BudgetWait } from '../render/budget-stop';
import { refreshExecutionLog, writeRun } from '../state/run-files';
import type { StateTx } from '../ports';
import { spend } from './caps';
import { loadView, nonce, nowIso, planLinks, syncPlanComment, updateRun, viewIn, type StepContext } from './context';
import { repositoryBudgetReached } from './spend-gate';

/**
 * A budget's end keeps the work and asks (#52). When `budgets.run` or a task's `budgets.task` is spent, or the repository's
 * `budgets.day` / `budgets.month` is reached while the run works, the task that meets it stops at the
 * end of its attempt (its work committed and pushed, as every attempt's is), goes back to pending, and
 * the run waits in ESCALATING for `/crew continue [$N]`, `/crew accept` or `/crew abort`
 * (steps/commands/continue.ts, abort.ts): the same wait, reply checks and label as crew's other questions.
 */

export type BudgetStop = Omit<BudgetWait, 'commentId'>;

/**
 * The run's own budgets, when one is spent: `budgets.run` as this run stands (a person's `/crew continue`
 * may have raised it), then the task's `budgets.task` (what its current allowance of attempts spent).
 */
export function ownBudgetStop(config: Config, view: RunView, runSpent: Usage, task?: { id: string; spent: Spent }): BudgetStop | undefined {
  const budgets = runBudgets(config.budgets, view.run);
  if (runBudgetSpent(budgets.run, runSpent)) return runStop(budgets.run, runSpent);
  if (task && taskBudgetSpent(budgets.task, task.spent))
    return {
      kind: 'budget',
      limit: 'task',
      task: task.id,
      spentUsd: task.spent.costUsd,
      budgetUsd: budgets.task.cost_usd,
      tokens: { spent: task.spent.tokens, budget: budgets.task.tokens },
    };
  return undefined;
}

export function periodStop(p: PeriodSpend): BudgetStop {
  return { kind: 'budget', limit: p.period, spentUsd: p.spentUsd, budgetUsd: p.budgetUsd!, resetsAt: p.resetsAt };
}

/** `budgets.run` (as the run stands) spent: by a worker's attempt, or as the model met it in another step (agents/run-budget.ts). */
export function runStop(budget: Budget, runSpent: Usage): BudgetStop {
  return {
    kind: 'budget',
    limit: 'run',
    spentUsd: runSpent.costUsd,
    budgetUsd: budget.cost_usd,
    tokens: { spent: tokensOf(runSpent), budget: budget.tokens },
  };
}

/** Where a step other than a worker's stops at `budgets.run`, and the phase it stops from. */
export type StepAt = NonNullable<BudgetStop['at']>;
const STEP: Record<StepAt, { phase: Phase; where: string; waits: string }> = {
  planning: { phase: 'PLANNING', where: 'while planning', waits: 'in planning' },
  review: { phase: 'REVIEWING', where: 'in the critic', waits: "before the critic's verdict" },
  replan: { phase: 'EXECUTING', where: 'while re-planning', waits: 'before re-planning' },
  integration: { phase: 'INTEGRATING', where: 'in the resolver', waits: 'before the conflict is merged' },
};

/**
 * `budgets.run` reached while planning, re-planning, in the resolver or in the critic: the run waits and asks as at a
 * worker's budget end rather than failing. In one write: what the step's model calls cost (the call refused included
 * none), what `keep` keeps for the step's next try (planning: intake's reading, a person's `/crew revise` feedback;
 * re-planning: which tasks, with what feedback; the resolver: which merge), and the wait; then crew asks.
 * Re-planning that meets the budget while the run already waits at one (another task's) joins that wait: the question
 * is asked once. `/crew continue` goes back to the step (commands/continue.ts). Returns whether the run now waits.
 */
export async function stopStepAtBudget(
  ctx: StepContext,
  issue: number,
  run: number,
  at: StepAt,
  e: RunBudgetSpent,
  keep?: Pick<BudgetStop, 'revision' | 'replan' | 'conflict'> & { files?: (tx: StateTx) => void },
): Promise<boolean> {
  const { files, ...kept } = keep ?? {};
  const stop: BudgetStop = { ...runStop(e.budget, e.spent), at, ...kept, ...(at === 'planning' ? { intakeKept: !!files } : {}) };
  const { phase, where, waits } = STEP[at];
  const stopped = await updateRun(ctx, issue, run, `stopped at the run's budget ${where}`, (rec, tx) => {
    const usage = addUsage(rec.usage, e.sinceStart);
    const joined = stop.replan && replanJoiningStop(rec, stop.replan);
    if (at === 'replan' && joined) {
      writeRun(tx, { ...rec, usage, waiting: joined }, nowIso(ctx));
      return 'joined' as const;
    }
    if (rec.phase !== phase || (at === 'replan' && rec.waiting)) return false;
    files?.(tx);
    writeRun(tx, { ...rec, usage, phase: 'ESCALATING', finalizer: null, waiting: { ...stop, commentId: 0 } }, nowIso(ctx));
    refreshExecutionLog(tx, issue, run);
    return true;
  });
  if (stopped === 'joined') {
    ctx.log.info(`${budgetSpentText(stop)} ${where}; the run already waits at a budget, and going on re-plans these tasks too`);
    return true;
  }
  if (!stopped) {
    ctx.log.info(`run ${run} left ${phase}, or waits on another question, before its budget stop ${where} was recorded; nothing to ask`);
    return false;
  }
  ctx.log.info(`${budgetSpentText(stop)}; the run waits ${waits}`);
  await askAtBudget(ctx, issue, run);
  return true;
}

/**
 * Re-planning that meets `budgets.run` while the run already waits at a budget its tasks met (no other step's, no
 * re-planning of its own yet): the wait it joins, so that going on re-plans these tasks too. Otherwise none: a run
 * waiting on another question, or at another step, lets the failure stand.
 */
export function replanJoiningStop(rec: RunRecord, replan: NonNullable<BudgetStop['replan']>): BudgetWait | undefined {
  const w = rec.waiting;
  if (rec.phase !== 'ESCALATING' || w?.kind !== 'budget' || w.at || w.replan) return undefined;
  return { ...w, replan };
}

/** The budget the run waits at, when it stopped at its own or the repository's (not a task's `budgets.task`). */
export function runWideStop(rec: RunRecord | undefined): BudgetStop | undefined {
  const w = rec?.phase === 'ESCALATING' ? rec.waiting : undefined;
  if (w?.kind !== 'budget' || w.limit === 'task') return undefined;
  const { commentId: _, ...stop } = w;
  return stop;
}

/**
 * What a running worker finds in its inbox once the run stopped at its or the repository's budget: a shutdown
 * request, so it ends its attempt at the end of its turn instead of spending the rest of it; crew then holds
 * its task with its work pushed, as the task that met the budget (work.ts). Not stored: after `/crew continue`
 * the run no longer waits, and nothing stops the task again.
 */
export function runStopRequest(rec: RunRecord | undefined, taskId: string): TeamMessage | undefined {
  const stop = runWideStop(rec);
  if (!stop || !rec) return undefined;
  return {
    id: `budget-stop-${rec.updatedAt}`,
    from: 'leader',
    to: taskId,
    type: 'shutdown_request',
    text: `The run stopped at a budget: ${budgetSpentText(stop)}. Stop now; your work so far is kept.`,
    at: rec.updatedAt,
  };
}

/** Before a step that spends (a worker's attempt): the run's and the task's budgets, then the repository's. */
export async function budgetStopBefore(
  ctx: StepContext,
  config: Config,
  view: RunView,
  runSpent: Usage,
  task: { id: string; spent: Spent },
): Promise<BudgetStop | undefined> {
  return ownBudgetStop(config, view, runSpent, task) ?? (await repositoryStop(ctx));
}

/** The repository's `budgets.day` / `budgets.month`, when reached (counting what this job spent that crew/state does not hold yet). */
export async function repositoryStop(ctx: StepContext, unrecordedUsd = 0): Promise<BudgetStop | undefined> {
  const period = await repositoryBudgetReached(ctx, unrecordedUsd);
  return period ? periodStop(period) : undefined;
}

/**
 * Inside the write that holds a task: the run stops and waits at the budget (comment id 0 until
 * `askAtBudget` posts the question). A run already waiting (on this budget or another question) is
 * left as it is: the held task is pending, and starts again, or stops again, when the run goes on.
 * Returns whether the question is this job's to ask.
 */
export function stopRunAtBudget(tx: StateTx, issue: number, run: number, stop: BudgetStop, now: string): boolean {
  const view = viewIn(tx, issue, run);
  if (view.run.phase !== 'EXECUTING' || view.run.waiting) return false;
  writeRun(tx, { ...view.run, phase: 'ESCALATING', waiting: { ...stop, commentId: 0 } }, now);
  return true;
}

/** Posts the budget question a run records but has not asked yet, and labels the issue as waiting. */
export async function askAtBudget(ctx: StepContext, issue: number, run: number): Promise<void> {
  const view = await loadView(ctx, issue, run);
  const w = view.run.waiting;
  if (view.run.phase !== 'ESCALATING' || w?.kind !== 'budget' || w.commentId !== 0) return;
  const s = ctx.surface;
  const body = budgetQuestion(view, w, s, planLinks(ctx).branch, s.marker('budget', { issue, run, nonce: nonce() }));
  await spend(ctx, issue, run, { comments: 1 });
  const posted = await ctx.forge.postComment(issue, body);
  await updateRun(ctx, issue, run, `asked at the budget`, (rec, tx) => {
    if (rec.waiting?.kind === 'budget' && rec.waiting.commentId === 0) writeRun(tx, { ...rec, waiting: { ...rec.waiting, commentId: posted.id } }, nowIso(ctx));
  });
  await ctx.forge.addLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('budget-asked');
  await syncPlanComment(ctx, issue, run);
}
