import { readFileSync, statSync } from 'node:fs';
import { appendFile, readFile, rm } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { SimpleGit } from 'simple-git';
import { gitClient, type GitIdentity, type GitPin } from '../adapters/git/git-client';
import { GitRepo } from '../adapters/git/git-repo';
import { assertCrewRef } from '../domain/refs';

/**
 * Parallel jobs add and remove worktrees of one repository; git keeps their records in one
 * folder, and two of these commands at once can trip over each other, so they take turns.
 */
let queue: Promise<unknown> = Promise.resolve();
function serially<T>(fn: () => Promise<T>): Promise<T> {
  const next = queue.catch(() => undefined).then(fn);
  queue = next;
  return next;
}

export const LOCAL_IDENTITY: GitIdentity = { name: 'crew', email: 'crew@localhost' };

/** `gitdir: <path>` of a `.git` file, as git reads it. */
function gitFileTarget(dir: string, text: string): string {
  const m = /^gitdir: (.+)$/m.exec(text);
  if (!m) throw new Error(`${join(dir, '.git')} is not a git folder pointer (no "gitdir:" line)`);
  const target = m[1]!.trim();
  return isAbsolute(target) ? target : resolve(dir, target);
}

/**
 * crew's git in the person's repository (see GitPin): the repository's git folder pinned, the
 * person's global config left out, since tools run as the person and could have written it.
 */
export function projectGit(dir: string): SimpleGit {
  const dotGit = join(dir, '.git');
  const gitDir = statSync(dotGit).isDirectory() ? dotGit : gitFileTarget(dir, readFileSync(dotGit, 'utf8'));
  return gitClient(dir, '', LOCAL_IDENTITY, {}, { gitDir, workTree: dir, ignoreGlobalConfig: true });
}

/**
 * The Repo port for a local run: each job works in its own git worktree of the
 * person's repository, on a detached HEAD. There is no remote: a branch crew
 * "pushes" is updated in the repository itself, and only if it moves forward
 * (or, for a replacement, only if it still points where crew last saw it), the
 * same rules GitHub applies to crew's pushes. The person's own checkout and
 * branches are never touched.
 */
export class WorktreeRepo extends GitRepo {
  private constructor(
    dir: string,
    private readonly project: SimpleGit,
    private readonly excludeFile: string,
    pin: GitPin,
  ) {
    // Setup output (node_modules, …) is kept out of commits through a private excludes file: a worktree
    // shares info/exclude with the person's repository, which crew must not edit.
    super(dir, '', '', LOCAL_IDENTITY, { 'core.excludesFile': excludeFile }, pin);
  }

  /** A fresh worktree for one job, at `start`. */
  static async create(projectDir: string, dir: string, start: string): Promise<WorktreeRepo> {
    const project = projectGit(projectDir);
    await rm(dir, { recursive: true, force: true });
    await serially(() => project.raw(['worktree', 'add', '--quiet', '--detach', dir, start]));
    // Read once, as git has just written it: the worktree's own folder in the repository's git folder.
    // From here on crew's git uses that folder, whatever a tool later writes into the tree's `.git` file.
    const gitDir = gitFileTarget(dir, await readFile(join(dir, '.git'), 'utf8'));
    const excludeFile = `${dir}.exclude`;
    await appendFile(excludeFile, '');
    return new WorktreeRepo(dir, project, excludeFile, { gitDir, workTree: dir, ignoreGlobalConfig: true });
  }

  async dispose(): Promise<void> {
    await serially(() => this.project.raw(['worktree', 'remove', '--force', this.dir])).catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
    await rm(this.excludeFile, { force: true });
  }

  override tracking(branch: string): string {
    return `refs/heads/${branch}`;
  }

  override async remoteSha(branch: string): Promise<string | undefined> {
    const out = await this.git.raw(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]).catch(() => '');
    return out.trim() || undefined;
  }

  override async fetch(branches: string[]): Promise<{ missing: string[] }> {
    const missing: string[] = [];
    for (const b of branches) if (!(await this.remoteSha(b))) missing.push(b);
    return { missing };
  }

  override async fetchCommit(_sha: string): Promise<void> {}

  /** Points the worktree at `start`, detached: the branch itself moves only when crew "pushes". */
  override async checkoutNew(_branch: string, start: string): Promise<void> {
    await this.git.raw(['checkout', '--quiet', '--force', '--detach', start]);
    await this.git.raw(['clean', '-fdq']);
  }

  override async push(branch: string): Promise<void> {
    assertCrewRef(branch);
    const head = await this.head();
    const current = await this.remoteSha(branch);
    if (current && current !== head && !(await this.isAncestor(current, head))) {
      throw new Error(`! [rejected] HEAD -> ${branch} (non-fast-forward)`);
    }
    await this.git.raw(['update-ref', '-m', 'crew: push', `refs/heads/${branch}`, head, current ?? '']);
  }

  override async pushReplacing(branch: string, expectedSha: string): Promise<void> {
    assertCrewRef(branch);
    await this.git.raw(['update-ref', '-m', 'crew: replace', `refs/heads/${branch}`, await this.head(), expectedSha]);
  }

  override async excludeUntracked(): Promise<string[]> {
    const untracked = (await this.git.raw(['ls-files', '--others', '--exclude-standard', '--directory'])).split('\n').filter(Boolean);
    if (untracked.length) await appendFile(this.excludeFile, `${untracked.map((p) => `/${p}`).join('\n')}\n`);
    return untracked;
  }
}
