import { tokensOf, type Spent, type Usage } from './run-state';

export interface Budget {
  tokens: number;
  cost_usd: number;
}

export interface Budgets {
  run: Budget;
  task: Budget;
  attempt: Budget;
}

export interface Allowance {
  tokens: number;
  costUsd: number;
}

/**
 * What one attempt may spend (#49): its own budget, within what the task's attempts and the run have
 * left. Before, every attempt shared the task's budget blindly, and a budget ending was never retried.
 */
export function attemptAllowance(budgets: Budgets, taskSpent: Spent, runSpent: Usage): Allowance {
  return {
    tokens: Math.min(budgets.attempt.tokens, budgets.task.tokens - taskSpent.tokens, budgets.run.tokens - tokensOf(runSpent)),
    costUsd: Math.min(budgets.attempt.cost_usd, budgets.task.cost_usd - taskSpent.costUsd, budgets.run.cost_usd - runSpent.costUsd),
  };
}

/** Why no further attempt can start: the task's or the run's budget is spent (null while both have room). */
export function noRoomForAnotherAttempt(budgets: Budgets, taskSpent: Spent, runSpent: Usage): string | null {
  if (taskBudgetSpent(budgets.task, taskSpent)) return "the task's budget is spent (`budgets.task` in .github/crew.yml), so no attempt is left to retry it";
  if (runBudgetSpent(budgets.run, runSpent)) return "the run's budget is spent (`budgets.run` in .github/crew.yml), so no attempt is left to retry it";
  return null;
}

/**
 * The run's budget as it stands (#52): `budgets.run` from the configuration, raised by the limit a person
 * set with `/crew continue` after the run stopped at it (run.json `budgetRun`); a configuration raised
 * since counts too, so each figure is the larger of the two.
 */
export function runBudgets(budgets: Budgets, run: { budgetRun?: Budget | undefined }): Budgets {
  const set = run.budgetRun;
  return set ? { ...budgets, run: { tokens: Math.max(set.tokens, budgets.run.tokens), cost_usd: Math.max(set.cost_usd, budgets.run.cost_usd) } } : budgets;
}

/** Whether the run's budget is spent: no model call may start (the same rule as agents/run-budget.ts). */
export function runBudgetSpent(budget: Budget, runSpent: Usage): boolean {
  return tokensOf(runSpent) >= budget.tokens || runSpent.costUsd >= budget.cost_usd;
}

/** Whether a task's allowance of attempts has spent its budget (`budgets.task`). */
export function taskBudgetSpent(budget: Budget, taskSpent: Spent): boolean {
  return taskSpent.tokens >= budget.tokens || taskSpent.costUsd >= budget.cost_usd;
}

/**
 * The run's budget after `/crew continue` (#52): what it has spent so far plus `$N` when given, else
 * plus another `budgets.run.cost_usd`; and plus another `budgets.run.tokens` of tokens either way.
 * "More from here", not "up to": a run stops at most one reply past its limit, and an amount below
 * what it spent would stop it again at once.
 */
export function continuedBudget(configured: Budget, runSpent: Usage, amountUsd?: number): Budget {
  return {
    tokens: tokensOf(runSpent) + configured.tokens,
    cost_usd: Math.round((runSpent.costUsd + (amountUsd ?? configured.cost_usd)) * 1e6) / 1e6,
  };
}

/**
 * Whether `/crew accept` has something to take where the run stopped at a budget (#52): not while planning (no plan,
 * no work) nor in the resolver (the tasks' branches conflict, so nothing is integrated to open a pull request with).
 */
export function budgetStopAccepts(w: { at?: string | undefined }): boolean {
  return w.at !== 'planning' && w.at !== 'integration';
}
