/**
 * Every ref crew writes lives under `crew/`. Git cannot hold both `crew/12` and
 * `crew/12/x`, so no branch name is ever a prefix of another: run k of issue N owns
 * `crew/N/rk/<leaf>` and nothing is ever created at `crew/N` or `crew/N/rk`.
 */

export const STATE_BRANCH = 'crew/state';

const TASK_ID = /^t[1-9][0-9]{0,2}$/;
// A task's parallel attempt n ≥ 2 (#50) is `<task>-a<n>`: a sibling of the task's branch, never under it.
const SAFE_REF =
  /^crew\/(state|[1-9][0-9]{0,9}\/r[1-9][0-9]{0,4}\/(integration|t[1-9][0-9]{0,2}(-a[2-9])?|memory-[1-9][0-9]{0,2})|local-[1-9][0-9]{0,9}\/(result|t[1-9][0-9]{0,2}(-a[2-9])?))$/;

export function isTaskId(id: string): boolean {
  return TASK_ID.test(id);
}

export function taskBranch(issue: number, run: number, taskId: string): string {
  if (!isTaskId(taskId)) throw new Error(`invalid task id '${taskId}': crew task ids look like t1, t2, …`);
  return assertCrewRef(`crew/${issue}/r${run}/${taskId}`);
}

/**
 * The branch of a task's parallel attempt n (#50): attempt 1 is the task's own branch; attempt n ≥ 2
 * is `<task branch>-a<n>`, beside it, since git cannot hold both `crew/…/t1` and `crew/…/t1/a2`.
 */
export function candidateBranch(taskBranchName: string, n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 9) throw new Error(`invalid attempt number ${n}: parallel attempts are numbered 1 to 9`);
  return n === 1 ? assertCrewRef(taskBranchName) : assertCrewRef(`${taskBranchName}-a${n}`);
}

/** The folder every branch of run k of issue N lies in on GitHub (`crew/N/rk/`), for listing them at once. */
export function runBranchFolder(issue: number, run: number): string {
  return `crew/${issue}/r${run}/`;
}

/** The folder every run's branches of issue N lie in (`crew/N/`). */
export function issueBranchFolder(issue: number): string {
  return `crew/${issue}/`;
}

export function integrationBranch(issue: number, run: number): string {
  return assertCrewRef(`crew/${issue}/r${run}/integration`);
}

const INTEGRATION_BRANCH = /^crew\/([1-9][0-9]{0,9})\/r([1-9][0-9]{0,4})\/integration$/;

/**
 * `crew/<N>/r<k>/integration`, the head of crew's own pull request for run k of issue N (with SAFE_REF's
 * bounds): its issue and run; undefined for any other branch. The one place the name is parsed.
 */
export function runOfIntegrationBranch(branch: string): { issue: number; run: number } | undefined {
  const m = INTEGRATION_BRANCH.exec(branch);
  return m ? { issue: Number(m[1]), run: Number(m[2]) } : undefined;
}

/** The branch of the small pull request that adds memory candidate n of run k to the knowledge base. */
export function memoryBranch(issue: number, run: number, n: number): string {
  return assertCrewRef(`crew/${issue}/r${run}/memory-${n}`);
}

/**
 * How a run names its branches. On GitHub run k of issue N owns `crew/N/rk/…`. A local
 * run (`crew run` in a terminal) owns `crew/local-N/…`, so it never touches a branch of
 * a GitHub run that was fetched into the same clone.
 */
export interface BranchNames {
  task(issue: number, run: number, taskId: string): string;
  /** The branch every task is merged into: the pull request's head on GitHub, the result locally. */
  integration(issue: number, run: number): string;
  memory(issue: number, run: number, n: number): string;
}

export const githubBranches: BranchNames = { task: taskBranch, integration: integrationBranch, memory: memoryBranch };

export const localBranches: BranchNames = {
  task: (issue, _run, taskId) => {
    if (!isTaskId(taskId)) throw new Error(`invalid task id '${taskId}': crew task ids look like t1, t2, …`);
    return assertCrewRef(`crew/local-${issue}/${taskId}`);
  },
  integration: (issue) => assertCrewRef(`crew/local-${issue}/result`),
  memory: () => {
    throw new Error('remembering a retrospective proposal opens a pull request, which only crew on GitHub does');
  },
};

/** Throws unless the name is one of the branch shapes crew owns. Guards every push. */
export function assertCrewRef(branch: string): string {
  if (!SAFE_REF.test(branch))
    throw new Error(
      `refusing to write ref '${branch}': crew only writes crew/state, crew/<issue>/r<run>/<task|task-a<n>|integration|memory-n> and crew/local-<run>/<task|task-a<n>|result>`,
    );
  return branch;
}

/**
 * A branch name crew reads (the base branch, a task's dependency): git's own rules for
 * ref names, and nothing git could take for an option, a transport (`ext::`), a
 * refspec (`a:b`), a range (`a..b`) or a reflog expression (`@{`).
 */
const BRANCH_COMPONENT = /^(?!-)(?!\.)[A-Za-z0-9._+@#-]+(?<!\.lock)(?<!\.)$/;

export function isSafeBranchName(name: string): boolean {
  return name.length > 0 && name.length <= 255 && !name.includes('..') && !name.includes('@{') && name.split('/').every((c) => BRANCH_COMPONENT.test(c));
}

export function assertBranchName(name: string): string {
  if (!isSafeBranchName(name))
    throw new Error(`refusing branch name '${name}': it is not a plain git branch name (letters, digits, . _ + @ # - and /; no leading '-' or '.', no '..')`);
  return name;
}

/**
 * Every revision crew passes to git as an argument: a full commit id, HEAD, or a fully
 * qualified local or remote-tracking ref with a safe branch name. A model never
 * supplies one, and this makes sure no value could be read as an option either.
 */
export function assertRevision(rev: string): string {
  const branch = /^refs\/(?:heads|remotes\/origin)\/(.+)$/.exec(rev)?.[1];
  if (/^(?:[0-9a-f]{40}|[0-9a-f]{64}|HEAD)$/.test(rev) || (branch !== undefined && isSafeBranchName(branch))) return rev;
  throw new Error(`refusing to pass '${rev}' to git: crew only passes commit ids, HEAD and refs/heads/… or refs/remotes/origin/… names`);
}

export function runFolder(issue: number, run: number): string {
  return `issue-${issue}/run-${run}`;
}
