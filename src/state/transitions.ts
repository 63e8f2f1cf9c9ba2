import { blockedTasks, candidatesComplete, NOTHING_SPENT, readyTasks, runningCount, type TaskClaim } from '../domain/run-state';
import type { StateTx } from '../ports';
import { attemptsFor, MAX_PARALLEL_ATTEMPTS } from '../domain/attempts';
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
    // Every parallel attempt recorded, the judging stopped (interrupted, or crew failed in it): they are judged, not done again.
    if (candidatesComplete(rec)) {
      // One job judges them all: one slot (running, the task still counts its legs, which only delays others).
      if (slots < 1) break;
      slots -= 1;
      claimed.push(id);
      writeTask(tx, issue, run, { ...rec, status: 'running', attempts: rec.attempts + 1, claim, startedAt: now });
      continue;
    }
    // Each parallel attempt (#50) is a leg of its own and takes a slot; a task waits for all of its slots.
    const task = view.plan?.tasks.find((t) => t.id === id);
    const legs = attemptsFor(view.run.attempts, task, rec.selection !== undefined, maxParallel);
    // What was asked for, max_parallel aside: said in the plan comment when it is more than can run at once.
    const asked = attemptsFor(view.run.attempts, task, rec.selection !== undefined, MAX_PARALLEL_ATTEMPTS);
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
      attemptsAsked: asked > legs ? asked : undefined,
    });
  }
  if (claimed.length || blockedTasks(view).length) {
    writeRun(tx, view.run, now);
    refreshExecutionLog(tx, issue, run);
  }
  return claimed;
}
