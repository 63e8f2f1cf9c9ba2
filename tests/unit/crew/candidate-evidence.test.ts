import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRepo } from '../../../src/adapters/git/git-repo';
import { ConfigSchema } from '../../../src/config/schema';
import type { Criterion } from '../../../src/domain/criteria';
import type { BaseRun } from '../../../src/domain/test-results';
import { UnsandboxedRunner } from '../../../src/sandbox/command-runner';
import { TestReports } from '../../../src/sandbox/test-reports/reports';
import { selectByEvidence, type EvidenceOptions } from '../../../src/steps/candidate-evidence';
import type { StepContext } from '../../../src/steps/context';
import { runWithReports } from '../../../src/toolbox/test-runs';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';

/**
 * Selection by evidence on real branches (#50): three attempts of one task in a real repository,
 * each branch checked out on its own, `node --test` run through crew's report hooks and its tests
 * counted by identity against the base's run, the diff through the tamper checks. One attempt
 * leaves the test failing, one switches a passing test off, one is right.
 */

const root = mkdtempSync(join(tmpdir(), 'crew-candidates-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SUM_TEST = (skip = '') => `const { describe, it } = require('node:test');
const assert = require('node:assert');
const { sum } = require('../src/sum.js');
describe('sum', () => {
  it('adds', () => {
    assert.equal(sum(1, 2), 3);
  });
  it${skip}('adds zero', () => {
    assert.equal(sum(5, 0), 5);
  });
  it('adds negatives', () => {
    assert.equal(sum(-1, -2), -3);
  });
});
`;
// The bug: negatives are dropped; `adds zero` and `adds` pass, `adds negatives` fails on the base.
const BUGGY = 'exports.sum = (a, b) => Math.max(a, 0) + Math.max(b, 0);\n';

let dir: string;
let base: string;
const criterion: Criterion = { id: 'c1', text: 'the tests pass', kind: 'command', command: 'node --test' };
let opts: EvidenceOptions;
let ctx: Pick<StepContext, 'repo' | 'remote' | 'log'>;

async function commitOn(branch: string, files: Record<string, string>): Promise<void> {
  await git(['checkout', '-q', '-B', branch, base], { cwd: dir });
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  await git(['commit', '-qam', branch], { cwd: dir, env: FIXTURE_IDENTITY });
}

beforeAll(async () => {
  dir = join(root, 'repo');
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'src/sum.js'), BUGGY);
  writeFileSync(join(dir, 'test/sum.test.js'), SUM_TEST());
  await git(['init', '-q', '-b', 'main'], { cwd: dir });
  await git(['add', '-A'], { cwd: dir });
  await git(['commit', '-qm', 'base'], { cwd: dir, env: FIXTURE_IDENTITY });
  base = (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  // Attempt 1 "fixes" zero only: the test (FAIL_TO_PASS) still fails.
  await commitOn('crew/9/r1/t1', { 'src/sum.js': 'exports.sum = (a, b) => (b === 0 ? a : Math.max(a, 0) + Math.max(b, 0));\n' });
  // Attempt 2 fixes negatives by breaking zero, and switches the zero test off.
  await commitOn('crew/9/r1/t1-a2', {
    'src/sum.js': 'exports.sum = (a, b) => (b === 0 ? 0 : a + b);\n',
    'test/sum.test.js': SUM_TEST('.skip'),
  });
  // Attempt 3 is right.
  await commitOn('crew/9/r1/t1-a3', { 'src/sum.js': 'exports.sum = (a, b) => a + b;\n' });
  // Attempt 4 fixes negatives and breaks the two tests that passed.
  await commitOn('crew/9/r1/t1-a4', { 'src/sum.js': 'exports.sum = (a, b) => a + b + (a > 0 ? 1 : 0);\n' });
  // Attempt 5 is right, but its `adds` fails on the first run only (flaky): the re-run tells it from a lost test, as for the critic's head.
  await commitOn('crew/9/r1/t1-a5', {
    'src/sum.js': 'exports.sum = (a, b) => a + b;\n',
    'test/sum.test.js': SUM_TEST().replace(
      'assert.equal(sum(1, 2), 3);',
      "const fs = require('node:fs');\n    if (!fs.existsSync('.seen')) { fs.writeFileSync('.seen', ''); assert.fail('first run'); }\n    assert.equal(sum(1, 2), 3);",
    ),
  });
  await git(['checkout', '-q', '--detach', base], { cwd: dir });

  const { repo } = gitRepo(dir, 'https://github.invalid/o/r.git', '');
  const home = join(root, 'home');
  mkdirSync(home);
  const runner = new UnsandboxedRunner(home);
  const reports = await TestReports.prepare(join(root, 'tmp'), runner, dir);
  const baseRun = await runWithReports(runner, reports, criterion.command!, { cwd: dir, timeoutMs: 60_000 });
  const b: BaseRun = { criterion: 'c1', command: criterion.command!, baseSha: base, ...baseRun, at: '2026-01-01T00:00:00Z' };
  opts = { baseSha: base, criteria: [criterion], bases: new Map([['c1', b]]), runner, reports, timeoutMs: 60_000, policy: ConfigSchema.parse({}).commands };
  ctx = {
    repo,
    // The branches are local here: the "tracking" ref of a fetched branch is the branch itself.
    remote: { tracking: (b: string) => `refs/heads/${b}`, fetch: async (bs: string[]) => ({ missing: bs.filter((x) => x.endsWith('-a9')) }) } as never,
    log: { info: () => undefined, warn: () => undefined } as never,
  };
}, 120_000);

const three = [
  { n: 1, branch: 'crew/9/r1/t1', worker: 'success' as const },
  { n: 2, branch: 'crew/9/r1/t1-a2', worker: 'success' as const },
  { n: 3, branch: 'crew/9/r1/t1-a3', worker: 'success' as const },
];

describe('selecting a task’s attempt by evidence, on real branches', () => {
  it('keeps the right attempt of three, two wrong in different ways, and says why', async () => {
    expect(opts.bases.get('c1')!.exitCode).not.toBe(0);
    const s = await selectByEvidence(ctx, 't1', three, opts);
    expect(s.chosen).toBe(3);
    const [a1, a2, a3] = s.candidates;
    expect(a1!.qualified).toBe(false);
    expect(a1!.failing).toEqual(['test/sum.test.js › sum › adds negatives (failing on the base too)']);
    expect(a1!.fell).toContain('`node --test` failed');
    expect(a2!.qualified).toBe(false);
    expect(a2!.fell.join('\n')).toContain('test/sum.test.js › sum › adds zero passed on the base and is skipped here');
    expect(a2!.fell.join('\n')).toMatch(/skipped-test: test\/sum\.test\.js:8/);
    expect(a3).toMatchObject({ qualified: true, fixed: 1, failing: [], changedLines: 2 });
    expect(s.reason).toMatch(/^attempt 3: the only attempt that met every command criterion/);
  }, 120_000);

  it('an attempt a budget stopped before it began is not run and never qualifies, and says why; the others are judged as ever (#52)', async () => {
    const said: string[] = [];
    const notBegun = "it never began: the repository's runs have spent $0.02 today (UTC), against `budgets.day` of $0.01";
    // Its branch holds attempt 3's right fix: only the note keeps it out.
    const stopped = { n: 1, branch: 'crew/9/r1/t1-a3', worker: 'failure' as const, notBegun };
    const s = await selectByEvidence(
      { ...ctx, log: { info: (m: string) => void said.push(m), warn: () => undefined } as never },
      't1',
      [stopped, three[1]!],
      opts,
    );
    expect(s.chosen).toBeNull();
    expect(s.candidates[0]).toMatchObject({ qualified: false, fell: [notBegun], headSha: null });
    expect(said.filter((m) => m.includes('on attempt 1'))).toEqual([]);
    expect(said.some((m) => m.includes('on attempt 2'))).toBe(true);
    expect(s.reason).toContain(`attempt 1: ${notBegun}`);
  }, 120_000);

  it('with all three wrong, chooses none and names each one’s failing tests', async () => {
    const s = await selectByEvidence(ctx, 't1', [three[0]!, three[1]!, { n: 3, branch: 'crew/9/r1/t1-a4', worker: 'success' }], opts);
    expect(s.chosen).toBeNull();
    expect(s.candidates.map((c) => c.failing)).toEqual([
      ['test/sum.test.js › sum › adds negatives (failing on the base too)'],
      [],
      ['test/sum.test.js › sum › adds (passed on the base)', 'test/sum.test.js › sum › adds zero (passed on the base)'],
    ]);
    expect(s.candidates[1]!.fell.join('\n')).toContain('adds zero passed on the base and is skipped here');
    expect(s.candidates[2]!.fell).toEqual(['`node --test` failed', '2 tests that passed on the base now fail']);
    expect(s.reason).toMatch(/^none of the 3 attempts qualified/);
  }, 120_000);

  it('a test that passed on the base and fails on an attempt is run once more, as the critic does: flaky, not lost', async () => {
    const s = await selectByEvidence(ctx, 't1', [{ n: 5, branch: 'crew/9/r1/t1-a5', worker: 'success' }], opts);
    expect(s.candidates[0]!.fell).toEqual(['`node --test` failed']);
  }, 120_000);

  it('a candidate whose branch is missing never qualifies, and says so', async () => {
    const s = await selectByEvidence(ctx, 't1', [{ n: 2, branch: 'crew/9/r1/t1-a9', worker: 'success' }], opts);
    expect(s.chosen).toBeNull();
    expect(s.candidates[0]!.fell).toEqual(['its branch crew/9/r1/t1-a9 is missing']);
  });
});

describe('an attempt that adds the repository’s first test', () => {
  it('qualifies as the critic would pass it: a base with no test file had none to lose', async () => {
    const d = join(root, 'first-test');
    mkdirSync(join(d, 'src'), { recursive: true });
    writeFileSync(join(d, 'src/sum.js'), BUGGY);
    await git(['init', '-q', '-b', 'main'], { cwd: d });
    await git(['add', '-A'], { cwd: d });
    await git(['commit', '-qm', 'base'], { cwd: d, env: FIXTURE_IDENTITY });
    const b0 = (await git(['rev-parse', 'HEAD'], { cwd: d })).trim();
    await git(['checkout', '-q', '-b', 'crew/9/r1/t2'], { cwd: d });
    mkdirSync(join(d, 'test'));
    writeFileSync(join(d, 'src/sum.js'), 'exports.sum = (a, b) => a + b;\n');
    writeFileSync(join(d, 'test/sum.test.js'), SUM_TEST());
    await git(['add', '-A'], { cwd: d });
    await git(['commit', '-qm', 'first test'], { cwd: d, env: FIXTURE_IDENTITY });
    await git(['checkout', '-q', '--detach', b0], { cwd: d });
    const { repo } = gitRepo(d, 'https://github.invalid/o/first.git', '');
    const home = join(root, 'home-first');
    mkdirSync(home);
    const runner = new UnsandboxedRunner(home);
    const reports = await TestReports.prepare(join(root, 'tmp-first'), runner, d);
    // The base has no test folder: its run reads no test at all.
    const first: Criterion = { ...criterion, command: 'test -d test && node --test' };
    const baseRun = await runWithReports(runner, reports, first.command!, { cwd: d, timeoutMs: 60_000 });
    expect(baseRun.tests.kind).not.toBe('known');
    const b: BaseRun = { criterion: 'c1', command: first.command!, baseSha: b0, ...baseRun, at: '2026-01-01T00:00:00Z' };
    const o: EvidenceOptions = { ...opts, criteria: [first], baseSha: b0, bases: new Map([['c1', b]]), runner, reports };
    const s = await selectByEvidence({ ...ctx, repo }, 't2', [{ n: 1, branch: 'crew/9/r1/t2', worker: 'success' }], o);
    expect(s.candidates[0]!.fell).toEqual([]);
    expect(s.chosen).toBe(1);
  }, 120_000);
});
