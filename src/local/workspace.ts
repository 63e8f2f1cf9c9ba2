import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crewDir, runsDir } from '../domain/local-runs';

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
