import { blockedTasks, NOTHING_SPENT, readyTasks, runningCount, type TaskClaim } from '../domain/run-state';
import type { StateTx } from '../ports';
import { attemptsFor } from '../domain/attempts';
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
  let slots = Math.max(0, maxParallel - runningCount(view));
  const claimed: string[] = [];
  for (const id of readyTasks(view)) {
    const rec = view.tasks.get(id)!;
    // Each parallel attempt (#50) is a leg of its own and takes a slot; a task waits for all of its slots.
    const legs = attemptsFor(
      view.run.attempts,
      view.plan?.tasks.find((t) => t.id === id),
      rec.selection !== undefined,
      maxParallel,
    );
    if (legs > slots) break;
    slots -= legs;
    claimed.push(id);
    // Started from pending: a new allowance of attempts, with the task budgets whole again.
    writeTask(tx, issue, run, {
      ...rec,
      candidates: undefined,
      status: 'running',
      attempts: rec.attempts + 1,
      claim,
      startedAt: now,
      spent: NOTHING_SPENT,
      ...(legs > 1 ? { parallel: legs } : { parallel: undefined }),
    });
  }
  if (claimed.length || blockedTasks(view).length) {
    writeRun(tx, view.run, now);
    refreshExecutionLog(tx, issue, run);
  }
  return claimed;
}
