import { attemptsToRun, blockedTasks, keepsCandidates, NOTHING_SPENT, readyTasks, runningCount, type TaskClaim } from '../domain/run-state';
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
    // Parallel attempts recorded under its claim (#50), every one (the judging stopped: one leg judges them) or some (a
    // cancel or a budget's stop came between: the legs still missing run): kept, under the same attempt number, as
    // no worker started for it (a retry of a failed judging included). A leg still to run takes a slot.
    if (keepsCandidates(rec)) {
      // (max_parallel lowered since: never more than it allows, or the task could never start.)
      const legs = Math.min(attemptsToRun(rec).length, maxParallel);
      if (legs > slots) break;
      slots -= legs;
      claimed.push(id);
      writeTask(tx, issue, run, { ...rec, status: 'running', claim, startedAt: now });
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
