import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../../../src/adapters/git/git-repo';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';

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
