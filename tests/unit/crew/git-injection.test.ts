import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRepo } from '../../../src/adapters/git/git-repo';
import type { Remote, WorkingCopy } from '../../../src/ports';
import { searchTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import { checkPlan } from '../../../src/domain/plan';
import { assertBranchName, assertCrewRef, assertRevision, integrationBranch, isSafeBranchName, memoryBranch, taskBranch } from '../../../src/domain/refs';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';

/** What a model could try to slip into a git command line, each aimed at a file that must never appear. */
const hostile = (pwn: string) => [
  `--upload-pack=touch ${pwn}`,
  `--output=${pwn}`,
  `-O${pwn}`,
  `--open-files-in-pager=touch ${pwn}`,
  `ext::sh -c touch% ${pwn}`,
  `-crew/1/r1/t1`,
  `crew/1/r1/t1:refs/heads/main`,
  `crew/1/r1/../../main`,
  `crew/1/r1/t1 --exec=touch ${pwn}`,
  `crew/1/r1/t1\n--upload-pack=x`,
  `HEAD~1`,
  `main@{1}`,
];

describe('refs: crew writes only the ref shapes it owns', () => {
  it('builds its own branch names', () => {
    expect([taskBranch(12, 3, 't7'), integrationBranch(12, 3), memoryBranch(12, 3, 2), assertCrewRef('crew/state')]).toEqual([
      'crew/12/r3/t7',
      'crew/12/r3/integration',
      'crew/12/r3/memory-2',
      'crew/state',
    ]);
  });

  it('refuses every other name, whatever a model or a person puts in it', () => {
    const pwn = '/tmp/crew-never';
    for (const name of [
      ...hostile(pwn),
      'main',
      'crew/12',
      'crew/12/r3',
      'crew/12/r3/t01',
      'crew/12/r3/t1000',
      'crew/0/r1/t1',
      'refs/heads/crew/1/r1/t1',
      'crew/state/x',
      'crew/1/r1/integration.lock',
      'crew/1/r1/t1 ',
      ' crew/1/r1/t1',
      'crew/1/r1/memory-0',
    ]) {
      expect(() => assertCrewRef(name), JSON.stringify(name)).toThrow(/refusing to write ref/);
    }
  });

  it('task ids in branch names are crew’s own, never the model’s', () => {
    for (const id of ['--upload-pack=x', '../t1', 't1;rm', 'T1', 't0', 'ext::x', '']) expect(() => taskBranch(1, 1, id), id).toThrow(/invalid task id/);
    const r = checkPlan({
      summary: 'S',
      tasks: [
        { id: '--upload-pack=touch /tmp/x', title: 'a', description: 'd', persona: 'coder', model: 'haiku', depends_on: [], files: [] },
        { id: '../../main', title: 'b', description: 'd', persona: 'coder', model: 'haiku', depends_on: ['--upload-pack=touch /tmp/x'], files: [] },
      ],
    });
    expect(r.ok && r.plan.tasks.map((t) => [t.id, t.dependsOn, taskBranch(1, 1, t.id)])).toEqual([
      ['t1', [], 'crew/1/r1/t1'],
      ['t2', ['t1'], 'crew/1/r1/t2'],
    ]);
  });

  it('branch names crew reads (the base branch) follow git’s rules and cannot pass for options', () => {
    for (const ok of ['main', 'master', 'release/1.x', 'feature/a-b_c+d', 'crew/1/r1/t1', 'v2@next']) expect(isSafeBranchName(ok), ok).toBe(true);
    for (const bad of [
      ...hostile('/tmp/x'),
      '',
      '-x',
      '.hidden',
      'a/.b',
      'a//b',
      'a.lock',
      'a/',
      'a b',
      'a~1',
      'a^',
      'a?',
      'a*',
      'a[1]',
      'a\\b',
      'a\u0000b',
      'x'.repeat(256),
    ]) {
      expect(isSafeBranchName(bad), JSON.stringify(bad)).toBe(false);
    }
    expect(() => assertBranchName('--upload-pack=x')).toThrow(/refusing branch name/);
  });

  it('revisions crew passes to git are commit ids, HEAD or qualified refs', () => {
    for (const ok of ['a'.repeat(40), 'b'.repeat(64), 'HEAD', 'refs/remotes/origin/main', 'refs/heads/crew/1/r1/t1', 'refs/remotes/origin/release/1.x'])
      expect(assertRevision(ok)).toBe(ok);
    for (const bad of [
      ...hostile('/tmp/x'),
      'A'.repeat(40),
      'a'.repeat(39),
      'origin/main',
      'main',
      'refs/remotes/origin/-x',
      'refs/remotes/evil/main',
      'refs/heads/a..b',
      'refs/heads/',
    ]) {
      expect(() => assertRevision(bad), JSON.stringify(bad)).toThrow(/refusing to pass/);
    }
  });
});

describe('every place text could reach a git command line, against a real repository', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crew-inject-'));
  const remoteDir = mkdtempSync(join(tmpdir(), 'crew-inject-remote-'));
  const pwn = join(tmpdir(), `crew-pwn-${process.pid}-${Date.now()}`);
  let repo: WorkingCopy;
  let remote: Remote;
  let head: string;
  beforeAll(async () => {
    await git(['init', '-q', '--bare', remoteDir]);
    await git(['init', '-q', '-b', 'main', dir]);
    writeFileSync(join(dir, 'a.txt'), 'needle\n');
    await git(['add', '-A'], { cwd: dir });
    await git(['commit', '-qm', 'first'], { cwd: dir, env: FIXTURE_IDENTITY });
    head = (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    ({ repo, remote } = gitRepo(dir, remoteDir, 'unused-token'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(remoteDir, { recursive: true, force: true });
    rmSync(pwn, { force: true });
  });

  it('refuses a hostile revision or branch before git runs, in every WorkingCopy and Remote method that takes one', async () => {
    for (const bad of hostile(pwn)) {
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['remote head', () => remote.head(bad)],
        ['fetch', () => remote.fetch(['main', bad])],
        ['fetchCommit', () => remote.fetchCommit(bad)],
        ['checkoutNew branch', () => repo.checkoutNew(bad, head)],
        ['checkoutNew start', () => repo.checkoutNew('crew/1/r1/t1', bad)],
        ['merge', () => repo.merge(bad, 'm')],
        ['mergeKeepingConflicts', () => repo.mergeKeepingConflicts(bad, 'm')],
        ['isAncestor', () => repo.isAncestor(bad, head)],
        ['readFileAt', () => repo.readFileAt(bad, 'a.txt')],
        ['changedSince', () => repo.changedSince(bad)],
        ['commitMessage', () => repo.commitMessage(bad)],
        ['diffFiles', () => repo.diffFiles(head, bad)],
        ['unifiedDiff', () => repo.unifiedDiff(bad)],
        ['diffStat', () => repo.diffStat(head, bad)],
        ['push', () => remote.push(bad)],
        ['pushReplacing', () => remote.pushReplacing(bad, head)],
      ];
      for (const [name, call] of calls) await expect(call(), `${name}(${JSON.stringify(bad)})`).rejects.toThrow(/refus/);
    }
    expect(existsSync(pwn)).toBe(false);
  });

  it('a file path or commit message that looks like an option stays an argument', async () => {
    expect(await repo.readFileAt(head, `--output=${pwn}`)).toBeUndefined();
    await repo.checkoutNew('crew/1/r1/t1', head);
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    await repo.commitAll(`--upload-pack=touch ${pwn}`);
    expect((await repo.commitMessage('HEAD')).trim()).toBe(`--upload-pack=touch ${pwn}`);
    expect(await repo.readFileAt('HEAD', 'b.txt')).toBe('b\n');
    expect(existsSync(pwn)).toBe(false);
  });

  it('the search tool puts the pattern after -e and the path after --', async () => {
    const search = searchTool(new PathJail(dir), 10_000);
    for (const bad of hostile(pwn)) {
      const asPattern = await search.run({ pattern: bad });
      expect(asPattern, bad).toMatch(/^no matches for /);
      // As a path it names a file that is not there (or one outside the checkout): never an option.
      const asPath = await Promise.resolve(search.run({ pattern: 'needle', path: bad })).catch((e: Error) => `refused: ${e.message}`);
      expect(asPath, bad).toMatch(/^no matches for |^refused: .*outside the repository/);
    }
    expect(await search.run({ pattern: '-e' })).toBe('no matches for /-e/');
    expect(existsSync(pwn)).toBe(false);
  });
});
