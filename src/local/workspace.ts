import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitClient } from '../adapters/git/git-client';
import { LOCAL_IDENTITY, projectGit } from './worktree-repo';

/** A mistake in how crew was called: the message says what to do; the exit code is 2. */
export class UsageError extends Error {}

export interface Project {
  /** The repository's top folder. */
  dir: string;
  /** The branch checked out there (the base of a new run), or undefined on a detached HEAD. */
  branch?: string;
  head: string;
  /** Files changed but not committed: crew works from the last commit and says so. */
  dirty: boolean;
}

/** The repository a local run works on; a clear error when `--project` is not one. */
export async function openProject(dir: string): Promise<Project> {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`--project ${dir}: no such folder. Pass the folder of a git repository (the default is the current folder).`);
  const top = (
    await gitClient(dir, '', LOCAL_IDENTITY)
      .raw(['rev-parse', '--show-toplevel'])
      .catch(() => '')
  ).trim();
  if (!top)
    throw new UsageError(`${dir} is not inside a git repository. crew works on a repository's last commit: run \`git init\` and commit your files first.`);
  const git = projectGit(top);
  const head = (await git.raw(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => '')).trim();
  if (!head) throw new UsageError(`the repository at ${top} has no commits yet. crew works from the last commit: commit your files first.`);
  const branch = (await git.raw(['symbolic-ref', '--short', '-q', 'HEAD']).catch(() => '')).trim() || undefined;
  const dirty = (await git.raw(['status', '--porcelain', '--untracked-files=no'])).trim() !== '';
  return { dir: top, branch, head, dirty };
}

export function crewDir(project: string): string {
  return join(project, '.crew');
}

export function runsDir(project: string): string {
  return join(crewDir(project), 'runs');
}

/** `.crew/` ignores itself, so crew's files never show up in the person's `git status` or commits. */
export async function ensureCrewDir(project: string): Promise<void> {
  await mkdir(runsDir(project), { recursive: true });
  const ignore = join(crewDir(project), '.gitignore');
  if (!existsSync(ignore)) await writeFile(ignore, "# crew's local runs; never committed\n*\n");
}

/** The numbers of the local runs, ascending. */
export async function runNumbersOf(project: string): Promise<number[]> {
  const entries = await readdir(runsDir(project)).catch(() => [] as string[]);
  return entries
    .filter((e) => /^[1-9][0-9]*$/.test(e))
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * The next run number: past every run folder and every `crew/local-<N>/…` branch, so a new
 * run never picks up branches an earlier run left (say, after `.crew/` was deleted).
 */
export async function nextRunNumber(project: string): Promise<number> {
  const refs = await projectGit(project).raw(['for-each-ref', '--format=%(refname:short)', 'refs/heads/crew/']);
  const fromBranches = [...refs.matchAll(/^crew\/local-([1-9][0-9]*)\//gm)].map((m) => Number(m[1]));
  return Math.max(0, ...fromBranches, ...(await runNumbersOf(project))) + 1;
}

/**
 * One crew process per run: a second `crew run --resume` of a run that is still going would
 * take its running tasks for dead and start them again. A holder that died leaves a stale claim.
 */
export async function claimRun(runDir: string): Promise<() => Promise<void>> {
  await mkdir(runDir, { recursive: true });
  const file = join(runDir, '.session');
  const holder = Number(await readFile(file, 'utf8').catch(() => ''));
  if (holder && holder !== process.pid && processAlive(holder))
    throw new UsageError(`this run is already going in another crew process (pid ${holder}). Wait for it, or stop it with Ctrl-C there.`);
  await writeFile(file, String(process.pid));
  return () => rm(file, { force: true });
}

/** Whether a process is still running (one we may not signal counts as running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
