import type { RunSpend } from '../domain/spend';
import { isTerminal, totalUsage } from '../domain/run-state';
import { SEEN, type StateStore } from '../ports';
import { readDigest } from './run-digests';
import { readView } from './run-files';

/** The files the sums read of each run: its record, plan and task records (what it spent), or the digest of a pruned one. */
const WANTED = /^issue-\d+\/run-\d+\/(run\.json|plan\.json|tasks\/task_t\d+\.json|digest\.json)$/;
const FOLDER = /^issue-(\d+)\/run-(\d+)\//;

/**
 * Every run's recorded spend on crew/state, pruned runs by their digests (domain/spend.ts). Read
 * from the tip this job already saw: the route job has just read the state, so this asks GitHub
 * nothing more. A run whose files crew cannot read is left out and named in `problems`.
 */
export async function readRunSpends(store: StateStore): Promise<{ runs: RunSpend[]; problems: string[] }> {
  const snap = await store.loadRuns((p) => WANTED.test(p), SEEN);
  const folders = new Map<string, { issue: number; run: number }>();
  for (const p of snap.list('')) {
    const m = FOLDER.exec(p);
    if (m) folders.set(`${m[1]}/${m[2]}`, { issue: Number(m[1]), run: Number(m[2]) });
  }
  const runs: RunSpend[] = [];
  const problems: string[] = [];
  for (const { issue, run } of folders.values()) {
    try {
      const view = readView(snap, issue, run);
      if (view) {
        runs.push({
          issue,
          run,
          createdAt: view.run.createdAt,
          costUsd: totalUsage(view).costUsd,
          by: view.run.requestedBy,
          finished: isTerminal(view.run.phase),
          automatic: view.run.trigger.how === 'ci',
        });
        continue;
      }
      const digest = readDigest(snap, issue, run);
      if (digest)
        runs.push({ issue, run, createdAt: digest.createdAt, costUsd: digest.costUsd, by: digest.requestedBy, finished: true, automatic: digest.automatic });
    } catch (e) {
      problems.push(`the spend leaves out run ${run} of issue #${issue}: ${(e as Error).message}`);
    }
  }
  return { runs: runs.sort((a, b) => a.issue - b.issue || a.run - b.run), problems };
}
