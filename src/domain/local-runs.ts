/**
 * Local run N is run 1 of its own "issue" N. The steps know it as issue N, run 1: state paths
 * `issue-N/run-1/…`, markers and records keyed (N, 1). The person knows it as run N, with its
 * files in `.crew/runs/N/` and its branches under `crew/local-N/`. This module is the one place
 * that maps between the two; local mode's adapters, engine and CLI all go through it. Pure.
 */

import { join } from 'node:path';
import { runFolder } from './refs';

/** The folder of crew's own files in the person's repository (it ignores itself). */
export function crewDir(project: string): string {
  return join(project, '.crew');
}

/** Where local runs keep their folders, `.crew/runs/<N>/`. */
export function runsDir(project: string): string {
  return join(crewDir(project), 'runs');
}

/** Locally only the person turns the sandbox off, on the command line. */
export const LOCAL_OPT_IN = 'run crew again with --allow-unsandboxed (commands then run as you, with network)';

/** Every local run is the first (and only) run of its own issue. */
export const LOCAL_RUN = 1;

/** The issue and run the steps know local run `n` by. */
export function localRunKey(n: number): { issue: number; run: number } {
  return { issue: n, run: LOCAL_RUN };
}

/** The state folder of local run `n`, as the steps name it (a store prefix): `issue-<n>/run-1/`. */
export function localStatePrefix(n: number): string {
  return `${runFolder(n, LOCAL_RUN)}/`;
}

/** The state path of a file in local run `n`'s folder. */
export function localStatePath(n: number, rest: string): string {
  return `${localStatePrefix(n)}${rest}`;
}

/**
 * A state path → the local run it belongs to and the path inside that run's folder. `issue-N/`
 * (the issue, as steps read it to find its runs) is run N's whole folder; a run other than 1, or a
 * path beside the run folders, is not a local run's.
 */
export function localRunOfPath(statePath: string): { run: number; rest: string } | { error: string } {
  const m = /^issue-([1-9][0-9]*)\/(?:run-([0-9]+)(?:\/|$))?(.*)$/.exec(statePath);
  if (!m) return { error: `'${statePath}' is not a path of a run` };
  if (m[2] !== undefined && m[2] !== String(LOCAL_RUN)) return { error: `local runs have one run per request; '${statePath}' names run ${m[2]}` };
  if (m[2] === undefined && m[3] !== '') return { error: `'${statePath}' is outside a run folder` };
  return { run: Number(m[1]), rest: m[3]! };
}

/** Where a state path lives inside its local run's folder ('' for the folder itself); a path of no run is kept as it is. */
export function pathInRunFolder(statePath: string): string {
  const local = localRunOfPath(statePath);
  return 'error' in local ? statePath : local.rest;
}

/** The local run a branch of crew's belongs to (`crew/local-<N>/…`), if it is one. */
export function localRunOfBranch(branch: string): number | undefined {
  const m = /^crew\/local-([1-9][0-9]*)\//.exec(branch);
  return m ? Number(m[1]) : undefined;
}
