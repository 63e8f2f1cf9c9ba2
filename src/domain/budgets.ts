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
  if (taskSpent.tokens >= budgets.task.tokens || taskSpent.costUsd >= budgets.task.cost_usd)
    return "the task's budget is spent (`budgets.task` in .github/crew.yml), so no attempt is left to retry it";
  if (tokensOf(runSpent) >= budgets.run.tokens || runSpent.costUsd >= budgets.run.cost_usd)
    return "the run's budget is spent (`budgets.run` in .github/crew.yml), so no attempt is left to retry it";
  return null;
}
