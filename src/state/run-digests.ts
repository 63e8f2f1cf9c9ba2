import { runDigest, RunDigestSchema, type RunDigest, type RunEnd } from '../domain/retention';
import { totalUsage, type RunView } from '../domain/run-state';
import { runFolder } from '../domain/refs';
import type { StateSnapshot, StateTx } from '../ports';
import { pastRun } from './past-runs';
import { paths, readChecked } from './run-files';

/**
 * A run's folder leaving crew/state: every file of it goes, in the same commit that writes its
 * digest (`digest.json`, domain/retention.ts) in its place. The folder's history stays in the
 * branch's commits; the report stays on GitHub, in its comment.
 */

export function readDigest(r: Pick<StateSnapshot, 'read' | 'list'>, issue: number, run: number): RunDigest | undefined {
  return readChecked(r, paths.digest(issue, run), RunDigestSchema);
}

/** Replaces the run's folder by its digest; `view` is the run as this write reads it. */
export function pruneRunFolder(tx: StateTx, view: RunView, end: RunEnd, now: string): void {
  const { issue, run } = view.run;
  const digest = runDigest(view.run, end, pastRun(view), totalUsage(view).costUsd, view.plan?.tasks.length ?? 0, now);
  for (const path of tx.list(`${runFolder(issue, run)}/`)) tx.remove(path);
  tx.write(paths.digest(issue, run), `${JSON.stringify(digest, null, 2)}\n`);
}
