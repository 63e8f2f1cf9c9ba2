import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRepo } from '../../../src/adapters/git/git-repo';
import { createWorktree } from '../../../src/adapters/local/worktree';

/**
 * crew's own git never follows git metadata a tool could have changed: a worktree's `.git`
 * pointer rewritten to a folder of the tool's making, the person's global config, or a checkout's
 * `.git` folder swapped for another. Every trap below runs a program that leaves a marker file;
 * each test also shows plain git would have run it, so the trap is real.
 */

const exec = promisify(execFile);
let root: string;
let marker: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crew-git-pinning-'));
  marker = join(root, 'PWNED');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const gitIn = (dir: string, ...args: string[]) => exec('git', ['-C', dir, '-c', 'user.name=p', '-c', 'user.email=p@x', ...args]).then((r) => r.stdout.trim());

async function repository(name: string): Promise<{ project: string; base: string }> {
  const project = join(root, name);
  await mkdir(project, { recursive: true });
  await gitIn(project, 'init', '-q', '-b', 'main');
  await writeFile(join(project, 'a.txt'), 'a\n');
  await gitIn(project, 'add', '-A');
  await gitIn(project, 'commit', '-qm', 'base');
  return { project, base: await gitIn(project, 'rev-parse', 'HEAD') };
}

/** A git folder as a tool would plant it: every program-running setting pointing at the trap. */
async function poisonedGitDir(dir: string): Promise<void> {
  await exec('git', ['init', '-q', '--bare', dir]);
  const trap = join(root, 'trap.sh');
  await writeFile(trap, `#!/bin/sh\necho "$0 $*" >> ${marker}\nexit 1\n`, { mode: 0o755 });
  for (const [k, v] of [
    ['core.bare', 'false'],
    ['core.fsmonitor', trap],
    ['core.hooksPath', join(dir, 'hooks')],
    ['filter.evil.clean', trap],
    ['filter.evil.smudge', trap],
    ['diff.evil.textconv', trap],
    ['diff.external', trap],
    ['core.pager', trap],
    ['alias.commit', `!${trap}`],
  ])
    await exec('git', ['--git-dir', dir, 'config', k!, v!]);
  await mkdir(join(dir, 'hooks'), { recursive: true });
  for (const hook of ['pre-commit', 'post-commit', 'commit-msg', 'post-checkout'])
    await writeFile(join(dir, 'hooks', hook), `#!/bin/sh\necho ${hook} >> ${marker}\n`, { mode: 0o755 });
}

describe("crew's own git in a worktree whose .git pointer a tool rewrote", () => {
  it('keeps using the worktree folder crew made: no hook, fsmonitor, filter or textconv of the planted folder runs, and the commit lands in the repository', async () => {
    const { project, base } = await repository('pointer');
    const { repo, remote, dispose } = await createWorktree(project, join(root, 'wt-pointer'), base);
    const planted = join(root, 'planted.git');
    await poisonedGitDir(planted);
    // What a tool in the worktree can do: the `.git` file is in the tree it may write.
    await writeFile(join(repo.dir, '.git'), `gitdir: ${planted}\n`);
    await writeFile(join(repo.dir, '.gitattributes'), '* filter=evil diff=evil\n');
    await writeFile(join(repo.dir, 'b.txt'), 'b\n');

    const commit = await repo.commitAll('crew: t1');
    expect(commit.changedFiles.sort()).toEqual(['.gitattributes', 'b.txt']);
    await repo.unifiedDiff(base);
    await repo.diffStat(base);
    await remote.push('crew/local-1/t1');
    expect(existsSync(marker), 'a planted program ran').toBe(false);
    // The commit is in the person's repository, not in the planted folder.
    expect(await gitIn(project, 'rev-parse', 'crew/local-1/t1')).toBe(commit.sha);
    expect(await gitIn(project, 'show', `${commit.sha}:b.txt`)).toBe('b');

    // Plain git follows the rewritten pointer and runs the planted programs: the trap is real.
    await exec('git', ['-C', repo.dir, 'status'], { timeout: 20_000 }).catch(() => undefined);
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    await dispose();
  });
});

describe("crew's own git in the person's repository ignores their global git config", () => {
  it('a filter a tool defined in ~/.gitconfig (which tools running as the person can write) does not run', async () => {
    const { project, base } = await repository('global');
    const home = join(root, 'home');
    await mkdir(home, { recursive: true });
    const trap = join(root, 'global-trap.sh');
    await writeFile(trap, `#!/bin/sh\necho global >> ${marker}\nexit 1\n`, { mode: 0o755 });
    await writeFile(join(home, '.gitconfig'), `[filter "evil"]\n\tclean = ${trap}\n\tsmudge = ${trap}\n[diff "evil"]\n\ttextconv = ${trap}\n`);
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      const { repo, dispose } = await createWorktree(project, join(root, 'wt-global'), base);
      await writeFile(join(repo.dir, '.gitattributes'), '* filter=evil diff=evil\n');
      await writeFile(join(repo.dir, 'b.txt'), 'b\n');
      await repo.commitAll('crew: t1');
      await repo.unifiedDiff(base);
      expect(existsSync(marker), 'a filter from ~/.gitconfig ran').toBe(false);
      // Plain git, with that HOME, runs it.
      await exec('git', ['-C', repo.dir, 'add', '--renormalize', '.'], { env: { ...process.env, HOME: home } });
      expect(existsSync(marker)).toBe(true);
      await rm(marker);
      await dispose();
    } finally {
      process.env.HOME = saved;
    }
  });
});

describe("crew's own git in a checkout whose .git folder was swapped (the Action's workspace)", () => {
  it('stops with a message instead of following the new folder, and runs nothing from it', async () => {
    const { project } = await repository('swapped');
    const { repo } = gitRepo(project, project, 'ghs_token_for_the_test');
    await writeFile(join(project, 'b.txt'), 'b\n');
    await repo.commitAll('first');
    // What a tool may do where it can write the checkout's top folder: rename .git away and plant another.
    await rename(join(project, '.git'), join(project, '.git-moved'));
    await poisonedGitDir(join(project, '.git'));
    await writeFile(join(project, '.gitattributes'), '* filter=evil diff=evil\n');
    await writeFile(join(project, 'c.txt'), 'c\n');
    await expect(repo.commitAll('second')).rejects.toThrow(/the git folder .*\.git was replaced or removed while crew worked/);
    expect(existsSync(marker), 'a planted program ran').toBe(false);
    await exec('git', ['-C', project, 'add', '-A'], { timeout: 20_000 }).catch(() => undefined);
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
  });
});
