/**
 * The CI on the head of crew's pull request, as one reading of its checks tells it: which runs of
 * the workflows `fix_ci` is named for have failed there (the ones a follow-up may fix), and which
 * are still going (left to their own `workflow_run` event). The merge gate reads the same checks,
 * so what fix_ci does and what the gate says come from one reading. Pure.
 */

/** A GitHub Actions workflow run, as `GET …/actions/runs/{id}` tells it now (its latest attempt). */
export interface CiRunFact {
  id: number;
  /** The workflow's `name:` (what `on.workflow_run.workflows` lists), and its file. */
  workflow: string;
  path: string;
  url: string;
  status: string;
  conclusion: string | null;
  headSha: string;
  headBranch: string | null;
  /** `owner/name` of the repository the head is in (a fork's for a fork's pull request). */
  headRepo: string | null;
}

/** Where a run must be to be fix_ci's: the pull request's head commit on its branch in this repository, from a workflow named for it. */
export interface CiHead {
  workflows: readonly string[];
  headSha: string;
  headBranch: string;
  /** `owner/name` of this repository. */
  repo: string;
}

const same = (a: string | null, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();

/** The distinct workflow runs behind a head's checks that fix_ci is named for, oldest first. */
function ciRuns(checks: ReadonlyArray<{ run?: CiRunFact }>, head: CiHead): CiRunFact[] {
  const runs = new Map<number, CiRunFact>();
  for (const c of checks) {
    const r = c.run;
    if (!r || !head.workflows.includes(r.workflow)) continue;
    if (r.headSha !== head.headSha || r.headBranch !== head.headBranch || !same(r.headRepo, head.repo)) continue;
    runs.set(r.id, r);
  }
  return [...runs.values()].sort((a, b) => a.id - b.id);
}

/** The runs that ended in failure: each is what its `workflow_run` event would have brought to fix_ci. */
export function failedCiRuns(checks: ReadonlyArray<{ run?: CiRunFact }>, head: CiHead): CiRunFact[] {
  return ciRuns(checks, head).filter((r) => r.status === 'completed' && r.conclusion === 'failure');
}

/** The runs still going: their own `workflow_run` event comes when they complete. */
export function runningCiRuns(checks: ReadonlyArray<{ run?: CiRunFact }>, head: CiHead): CiRunFact[] {
  return ciRuns(checks, head).filter((r) => r.status !== 'completed');
}
