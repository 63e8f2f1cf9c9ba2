import { appendFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Git } from '../git/git-process';
import { assertCrewRef } from '../../domain/refs';
import type { JobCheckout, Remote, WorkingCopy } from '../../ports';
import { gitClient, type GitPin } from '../git/git-client';
import { GitWorkingCopy } from '../git/working-copy';
import { gitFileTarget, LOCAL_IDENTITY, projectGit } from './project-git';

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

/**
 * A local job's working copy: its own git worktree of the person's repository, on a detached
 * HEAD. The person's own checkout and branches are never touched.
 */
export class LocalWorktree extends GitWorkingCopy {
  constructor(
    dir: string,
    git: Git,
    private readonly excludeFile: string,
  ) {
    super(dir, git);
  }

  /** Points the worktree at `start`, detached: the branch itself moves only when crew "pushes". */
  override async checkoutNew(_branch: string, start: string): Promise<void> {
    await this.git.raw(['checkout', '--quiet', '--force', '--detach', start]);
    await this.git.raw(['clean', '-fdq']);
  }

  /** Through the worktree's private excludes file: a worktree shares info/exclude with the person's repository. */
  override async excludeUntracked(): Promise<string[]> {
    const untracked = (await this.git.raw(['ls-files', '--others', '--exclude-standard', '--directory'])).split('\n').filter(Boolean);
    if (untracked.length) await appendFile(this.excludeFile, `${untracked.map((p) => `/${p}`).join('\n')}\n`);
    return untracked;
  }
}

/**
 * The Remote port of a local run: there is no remote. A branch crew "pushes" is updated in the
 * person's repository itself, and only if it moves forward (or, for a replacement, only if it
 * still points where crew last saw it), the same rules GitHub applies to crew's pushes.
 */
export class LocalBranches implements Remote {
  constructor(
    private readonly git: Git,
    private readonly copy: Pick<WorkingCopy, 'head' | 'isAncestor'>,
  ) {}

  tracking(branch: string): string {
    return `refs/heads/${branch}`;
  }

  async head(branch: string): Promise<string | undefined> {
    const out = await this.git.raw(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]).catch(() => '');
    return out.trim() || undefined;
  }

  async fetch(branches: string[]): Promise<{ missing: string[] }> {
    const missing: string[] = [];
    for (const b of branches) if (!(await this.head(b))) missing.push(b);
    return { missing };
  }

  async fetchCommit(_sha: string): Promise<void> {}

  async push(branch: string): Promise<void> {
    assertCrewRef(branch);
    const head = await this.copy.head();
    const current = await this.head(branch);
    if (current && current !== head && !(await this.copy.isAncestor(current, head))) {
      throw new Error(`! [rejected] HEAD -> ${branch} (non-fast-forward)`);
    }
    await this.git.raw(['update-ref', '-m', 'crew: push', `refs/heads/${branch}`, head, current ?? '']);
  }

  async pushReplacing(branch: string, expectedSha: string): Promise<void> {
    assertCrewRef(branch);
    await this.git.raw(['update-ref', '-m', 'crew: replace', `refs/heads/${branch}`, await this.copy.head(), expectedSha]);
  }
}

/** A fresh worktree of the person's repository for one job, at `start`, and the branches it pushes to. */
export async function createWorktree(projectDir: string, dir: string, start: string): Promise<JobCheckout & { repo: LocalWorktree; remote: LocalBranches }> {
  const project = projectGit(projectDir);
  await rm(dir, { recursive: true, force: true });
  await serially(() => project.raw(['worktree', 'add', '--quiet', '--detach', dir, start]));
  // Read once, as git has just written it: the worktree's own folder in the repository's git folder.
  // From here on crew's git uses that folder, whatever a tool later writes into the tree's `.git` file.
  const pin: GitPin = { gitDir: gitFileTarget(dir, await readFile(join(dir, '.git'), 'utf8')), workTree: dir, ignoreGlobalConfig: true };
  // Setup output (node_modules, …) is kept out of commits through a private excludes file: a worktree
  // shares info/exclude with the person's repository, which crew must not edit.
  const excludeFile = `${dir}.exclude`;
  await appendFile(excludeFile, '');
  const git = gitClient(dir, '', LOCAL_IDENTITY, { 'core.excludesFile': excludeFile }, pin);
  const repo = new LocalWorktree(dir, git, excludeFile);
  return {
    repo,
    remote: new LocalBranches(git, repo),
    async dispose() {
      await serially(() => project.raw(['worktree', 'remove', '--force', dir])).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
      await rm(excludeFile, { force: true });
    },
  };
}

/** Worktrees a killed session left behind. */
export async function clearWorktrees(projectDir: string, dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await projectGit(projectDir)
    .raw(['worktree', 'prune'])
    .catch(() => undefined);
}
