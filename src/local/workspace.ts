import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gitClient } from '../adapters/git/git-client';
import { LOCAL_IDENTITY } from './worktree-repo';

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
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--project ${dir}: no such folder. Pass the folder of a git repository (the default is the current folder).`);
  const git = gitClient(dir, '', LOCAL_IDENTITY);
  const top = (await git.raw(['rev-parse', '--show-toplevel']).catch(() => '')).trim();
  if (!top) throw new UsageError(`${dir} is not inside a git repository. crew works on a repository's last commit: run \`git init\` and commit your files first.`);
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
  if (!existsSync(ignore)) await writeFile(ignore, '# crew\'s local runs; never committed\n*\n');
}

/** The numbers of the local runs, ascending. */
export async function runNumbersOf(project: string): Promise<number[]> {
  const entries = await readdir(runsDir(project)).catch(() => [] as string[]);
  return entries
    .filter((e) => /^[1-9][0-9]*$/.test(e))
    .map(Number)
    .sort((a, b) => a - b);
}
