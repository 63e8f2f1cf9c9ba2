import { blockedTasks, NOTHING_SPENT, readyTasks, runningCount, type TaskClaim } from '../domain/run-state';
import type { StateTx } from '../ports';
import { readView, refreshExecutionLog, writeRun, writeTask } from './run-files';

/**
 * Claims the tasks that may start now, up to `maxParallel` running at once, and
 * marks tasks whose dependencies failed as blocked. Runs inside a state update, so
 * two jobs can never claim the same task.
 */
export function claimReadyTasks(tx: StateTx, issue: number, run: number, maxParallel: number, claim: TaskClaim, now = claim.at): string[] {
  const view = readView(tx, issue, run);
  if (!view || view.run.phase !== 'EXECUTING') return [];
  for (const id of blockedTasks(view)) {
    const rec = view.tasks.get(id)!;
    writeTask(tx, issue, run, { ...rec, status: 'blocked', finishedAt: now, error: 'a task it depends on did not succeed' });
  }
  const slots = Math.max(0, maxParallel - runningCount(view));
  const claimed = readyTasks(view).slice(0, slots);
  for (const id of claimed) {
    const rec = view.tasks.get(id)!;
    // Started from pending: a new allowance of attempts, with the task budgets whole again.
    writeTask(tx, issue, run, { ...rec, status: 'running', attempts: rec.attempts + 1, claim, startedAt: now, spent: NOTHING_SPENT });
  }
  if (claimed.length || blockedTasks(view).length) {
    writeRun(tx, view.run, now);
    refreshExecutionLog(tx, issue, run);
  }
  return claimed;
}
