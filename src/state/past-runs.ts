import { minutesPerTask, runMinutes } from '../domain/actions-minutes';
import type { PastRun } from '../domain/estimate';
import { isTerminal, type RunView } from '../domain/run-state';
import { SEEN, type StateStore } from '../ports';
import { RunDigestSchema } from '../domain/retention';
import { paths, readChecked, readView } from './run-files';

/** The files an estimate reads of each earlier run: its record, plan, task records and job times, or the digest of a pruned one. */
const WANTED = /^issue-\d+\/run-\d+\/(run\.json|plan\.json|tasks\/task_t\d+\.json|jobs\/job_[^/]+\.json|digest\.json)$/;
const FOLDER = /^issue-(\d+)\/run-(\d+)\//;

/** How many of the newest finished runs an estimate looks at: recent enough to resemble the next one. */
export const PAST_RUNS = 20;

/**
 * The repository's finished runs on the state store, newest first, as an estimate needs them
 * (domain/estimate.ts). A run whose files crew cannot read is left out and named in `problems`,
 * so a damaged old run never stops a new one from planning.
 */
export async function readPastRuns(
  store: StateStore,
  current: { issue: number; run: number },
  limit = PAST_RUNS,
): Promise<{ runs: PastRun[]; problems: string[] }> {
  // Finished runs do not change: whatever tip this job saw holds them.
  const snap = await store.loadRuns((p) => WANTED.test(p), SEEN);
  const folders = new Map<string, { issue: number; run: number }>();
  for (const p of snap.list('')) {
    const m = FOLDER.exec(p);
    if (m) folders.set(`${m[1]}/${m[2]}`, { issue: Number(m[1]), run: Number(m[2]) });
  }
  const finished: Array<{ createdAt: string; figures: () => PastRun }> = [];
  const problems: string[] = [];
  for (const { issue, run } of folders.values()) {
    if (issue === current.issue && run === current.run) continue;
    try {
      const view = readView(snap, issue, run);
      if (view && isTerminal(view.run.phase)) finished.push({ createdAt: view.run.createdAt, figures: () => pastRun(view) });
      // A pruned run left its figures in its digest, however old.
      const digest = view ? undefined : readChecked(snap, paths.digest(issue, run), RunDigestSchema);
      if (digest) finished.push({ createdAt: digest.createdAt, figures: () => digest.figures });
    } catch (e) {
      problems.push(`the estimate leaves out run ${run} of issue #${issue}: ${(e as Error).message}`);
    }
  }
  finished.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { runs: finished.slice(0, limit).map((r) => r.figures()), problems };
}

/** One finished run's figures: per task that ran, and what came after the plan when the run recorded its own estimate. */
export function pastRun(view: RunView): PastRun {
  const jobs = view.jobs ?? [];
  const perTask = jobs.length ? minutesPerTask(jobs) : null;
  const tasks = (view.plan?.tasks ?? []).flatMap((t) => {
    const rec = view.tasks.get(t.id);
    if (!rec || rec.attempts === 0) return [];
    return [{ tier: t.tier, costUsd: rec.usage.costUsd, minutes: perTask ? (perTask.get(t.id) ?? null) : null }];
  });
  const e = view.run.estimate;
  const afterPlan =
    e && view.run.phase === 'COMPLETED'
      ? {
          costUsd: Math.max(0, view.run.usage.costUsd - e.spentUsd),
          minutes: jobs.length && e.spentMinutes !== null ? Math.max(0, runMinutes(jobs.filter((j) => j.step !== 'work')) - e.spentMinutes) : null,
        }
      : null;
  return { tasks, afterPlan };
}
