import { attemptAllowance, type Budgets } from './budgets';
import type { Observed } from './result';
import type { Spent, Usage } from './run-state';

/** What the next attempt of a task may spend and how long it may take, and whether it may start at all. */
export interface AttemptLimits {
  tokens: number;
  costUsd: number;
  ms: number;
  /** Why the attempt ends before its worker starts: its setup failed, or a budget or the task's time is spent. */
  stopEarly: Observed['ending'] | null;
}

/**
 * The next attempt's limits (#49): its own budget within what the task's attempts and the run have
 * left, and what is left of task_timeout_minutes. Pure: the caller reads what was spent.
 */
export function attemptLimits(budgets: Budgets, taskMinutes: number, taskSpent: Spent, runSpent: Usage, setupFailed: boolean): AttemptLimits {
  const left = { ...attemptAllowance(budgets, taskSpent, runSpent), ms: taskMinutes * 60_000 - taskSpent.ms };
  const stopEarly: Observed['ending'] | null = setupFailed
    ? 'no_report'
    : left.tokens <= 0 || left.costUsd <= 0
      ? 'budget'
      : left.ms <= 0
        ? 'wall_clock'
        : null;
  return { ...left, stopEarly };
}
