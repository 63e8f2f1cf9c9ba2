import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Git } from '../git/git-process';
import { gitClient, readFileAtCommit, type GitIdentity } from '../git/git-client';

export const LOCAL_IDENTITY: GitIdentity = { name: 'crew', email: 'crew@localhost' };

/** `gitdir: <path>` of a `.git` file, as git reads it. */
export function gitFileTarget(dir: string, text: string): string {
  const m = /^gitdir: (.+)$/m.exec(text);
  if (!m) throw new Error(`${join(dir, '.git')} is not a git folder pointer (no "gitdir:" line)`);
  const target = m[1]!.trim();
  return isAbsolute(target) ? target : resolve(dir, target);
}

/**
 * crew's git in the person's repository (see GitPin): the repository's git folder pinned, the
 * person's global config left out, since tools run as the person and could have written it.
 */
export function projectGit(dir: string): Git {
  const dotGit = join(dir, '.git');
  const gitDir = statSync(dotGit).isDirectory() ? dotGit : gitFileTarget(dir, readFileSync(dotGit, 'utf8'));
  return gitClient(dir, '', LOCAL_IDENTITY, {}, { gitDir, workTree: dir, ignoreGlobalConfig: true });
}

/** A file as committed at `sha` in the person's repository. */
export function projectFileAt(dir: string, sha: string, path: string): Promise<string | undefined> {
  return readFileAtCommit(projectGit(dir), sha, path);
}

/** Where git is found from `dir` (unpinned: nothing is known about `dir` yet), or undefined outside a repository. */
export async function repositoryTop(dir: string): Promise<string | undefined> {
  const top = (
    await gitClient(dir, '', LOCAL_IDENTITY)
      .raw(['rev-parse', '--show-toplevel'])
      .catch(() => '')
  ).trim();
  return top || undefined;
}
