import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../../../src/adapters/git/git-repo';
import { FIXTURE_IDENTITY, git, tryGit } from '../../support/git-cli';

describe('GitRepo over a real checkout', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crew-gitrepo-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const commit = async (file: string, text: string) => {
    writeFileSync(join(dir, file), text);
    await git(['add', '-A'], { cwd: dir });
    await git(['commit', '-qm', file], { cwd: dir, env: FIXTURE_IDENTITY });
    return (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  };

  it('isAncestor answers no for a commit on another line of history, and for one that does not exist', async () => {
    await git(['init', '-q', '-b', 'main'], { cwd: dir });
    const base = await commit('a.txt', 'a\n');
    const onMain = await commit('b.txt', 'b\n');
    await git(['checkout', '-q', '-b', 'side', base], { cwd: dir });
    const onSide = await commit('c.txt', 'c\n');
    const repo = new GitRepo(dir, dir, 'unused-token');
    expect(await repo.isAncestor(base, onMain)).toBe(true);
    expect(await repo.isAncestor(onMain, onMain)).toBe(true);
    expect(await repo.isAncestor(onSide, onMain)).toBe(false);
    expect(await repo.isAncestor(onMain, onSide)).toBe(false);
    expect(await repo.isAncestor('f'.repeat(40), onMain)).toBe(false);
  });
});

describe("crew's own git ignores program-running settings in a poisoned .git/config", () => {
  const dir = mkdtempSync(join(tmpdir(), 'crew-gitrepo-poisoned-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('git add -A, commit and diff run no fsmonitor command, hook or signing program, so nothing sees the credentials in the environment of git', async () => {
    await git(['init', '-q', '-b', 'main'], { cwd: dir });
    const marker = join(dir, '..', `${dir.split('/').pop()}-pwned`);
    // What an attacker would plant: a command that records what it sees, in every place git might run one.
    const spy = `sh -c 'env > ${marker}; exit 1'`;
    await git(['config', 'core.fsmonitor', spy], { cwd: dir });
    await git(['config', 'core.hooksPath', '.githooks'], { cwd: dir });
    await git(['config', 'commit.gpgSign', 'true'], { cwd: dir });
    await git(['config', 'gpg.program', spy], { cwd: dir });
    mkdirSync(join(dir, '.githooks'));
    writeFileSync(join(dir, '.githooks', 'pre-commit'), `#!/bin/sh\nenv > ${marker}\n`, { mode: 0o755 });
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const repo = new GitRepo(dir, dir, 'ghs_secret_token_for_the_test');
    const first = await repo.commitAll('first');
    writeFileSync(join(dir, 'a.txt'), 'b\n');
    await repo.changedSince(first.sha);
    await repo.commitAll('second');
    expect(existsSync(marker)).toBe(false);
    expect(await repo.diffFiles(first.sha)).toEqual(['a.txt']);
    // The checkout's git itself would have run it: the test's trap is real.
    await tryGit(['status'], { cwd: dir });
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
  });
});
