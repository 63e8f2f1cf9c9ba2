import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../../../src/adapters/git/git-repo';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';
import { FakeGitHub } from '../../support/github/fake-github';

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

describe('GitRepo.push when another job pushed to the same task branch first', () => {
  it('fetches, rebases and pushes again, never forcing; a conflicting rebase is undone and reported', async () => {
    const root = mkdtempSync(join(tmpdir(), 'crew-push-'));
    const gh = await FakeGitHub.start({ root, files: { 'README.md': '# r\n' } });
    try {
      const branch = 'crew/1/r1/t1';
      const token = gh.actionsToken({ contents: 'write' });
      const job = async (name: string) => {
        const dir = join(root, name);
        await git(['clone', '--quiet', gh.repoDir, dir]);
        const repo = new GitRepo(dir, gh.cloneUrl, token);
        await repo.checkoutNew(branch, 'origin/main');
        return { dir, repo };
      };
      // Two workers on the same task: the first (restarted) and the second both started from main.
      const first = await job('first');
      const second = await job('second');
      const third = await job('third');
      writeFileSync(join(first.dir, 'a.txt'), 'from the first job\n');
      await first.repo.commitAll('crew: t1 (attempt 1, partial)');
      await first.repo.push(branch);
      const firstTip = await first.repo.head();

      writeFileSync(join(second.dir, 'b.txt'), 'from the second job\n');
      await second.repo.commitAll('crew: t1 work');
      await second.repo.commitAll('crew: t1 (attempt 2, success)\n\nCrew-Result: {}', { allowEmpty: true });
      await second.repo.push(branch);
      const tip = await gh.repo.branchSha(branch);
      expect(tip).toBe(await second.repo.head());
      // Nothing the first job pushed was lost: its commit is in the history, and the result commit is still at the tip.
      expect(await second.repo.isAncestor(firstTip, tip!)).toBe(true);
      expect(await gh.repo.readFile(`refs/heads/${branch}`, 'a.txt')).toBe('from the first job\n');
      expect(await gh.repo.readFile(`refs/heads/${branch}`, 'b.txt')).toBe('from the second job\n');
      expect(await second.repo.commitMessage('HEAD')).toContain('Crew-Result: {}');

      writeFileSync(join(third.dir, 'a.txt'), 'from the third job\n');
      await third.repo.commitAll('crew: t1 conflicting');
      const mine = await third.repo.head();
      await expect(third.repo.push(branch)).rejects.toThrow(/another job pushed to crew\/1\/r1\/t1 .* \(conflicts in a\.txt\)\. Nothing was overwritten\./);
      expect(await gh.repo.branchSha(branch)).toBe(tip);
      // The rebase was undone: the job's own commit is checked out as it was.
      expect(await third.repo.head()).toBe(mine);
      expect(await git(['status', '--porcelain'], { cwd: third.dir })).toBe('');
    } finally {
      await gh.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
