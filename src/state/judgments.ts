import type { Judgment } from '../domain/judgment';
import { runFolder } from '../domain/refs';
import type { RunView } from '../domain/run-state';
import { SEEN, type StateStore } from '../ports';
import { parseJson, paths } from './run-files';

/**
 * The judgment the critic last recorded for this run, if any. The view was read by this job, so the
 * tip it saw holds the judgment the view names: no round trip.
 */
export async function lastJudgment(state: StateStore, view: RunView): Promise<Judgment | null> {
  const n = view.run.review?.iteration ?? 0;
  if (!n) return null;
  const snap = await state.load(`${runFolder(view.run.issue, view.run.run)}/`, SEEN);
  return parseJson<Judgment>(snap, paths.judgment(view.run.issue, view.run.run, n)) ?? null;
}

/** The judgments before the last, oldest first: the earlier rounds the report shows. */
export async function earlierJudgments(state: StateStore, view: RunView): Promise<Judgment[]> {
  const n = view.run.review?.iteration ?? 0;
  if (n < 2) return [];
  const snap = await state.load(`${runFolder(view.run.issue, view.run.run)}/`, SEEN);
  const out: Judgment[] = [];
  for (let i = 1; i < n; i++) {
    const j = parseJson<Judgment>(snap, paths.judgment(view.run.issue, view.run.run, i));
    if (j) out.push(j);
  }
  return out;
}
