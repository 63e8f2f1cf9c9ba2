import { describe, expect, it } from 'vitest';
import { chartSvg, niceMax } from '../../../src/eval/chart';
import { parseInstances, pickInstances } from '../../../src/eval/instances';
import { judge, outcomesByName, unscorableBecause } from '../../../src/eval/score';
import type { TestResult } from '../../../src/domain/test-results';

const base = {
  instance_id: 'o__r-1',
  repo: 'o/r',
  base_commit: 'a'.repeat(40),
  fix_commit: 'b'.repeat(40),
  problem_statement: 'fix it',
  test_cmd: 'pytest',
  test_files: ['tests/test_x.py'],
  FAIL_TO_PASS: ['tests/test_x.py::test_new'],
  PASS_TO_PASS: ['tests/test_x.py::T::test_old'],
};
const line = (o: Record<string, unknown>) => JSON.stringify(o);
const t = (file: string, suite: string[], name: string, outcome: TestResult['outcome'] = 'passed'): TestResult => ({
  runner: 'pytest',
  file,
  suite,
  name,
  outcome,
});

describe('the instances file', () => {
  it("reads SWE-bench's own encoding of the test lists (JSON text) and extra fields", () => {
    const [i] = parseInstances(line({ ...base, FAIL_TO_PASS: JSON.stringify(base.FAIL_TO_PASS), version: '1.0' }), 'f.jsonl');
    expect(i!.FAIL_TO_PASS).toEqual(['tests/test_x.py::test_new']);
    expect((i as Record<string, unknown>).version).toBe('1.0');
  });

  it('names each bad line and field, a duplicate id, and test_files without fix_commit', () => {
    const text = [
      line(base),
      'not json',
      line({ ...base, repo: 'just-a-name' }),
      line(base),
      line({ ...base, instance_id: 'o__r-2', fix_commit: undefined }),
    ].join('\n');
    expect(() => parseInstances(text, 'f.jsonl')).toThrow(
      /f\.jsonl:2: not JSON[^]*f\.jsonl:3: repo: owner\/name, as on GitHub[^]*f\.jsonl:4: instance_id o__r-1 is also on line 1[^]*f\.jsonl:5: test_files needs fix_commit/,
    );
  });

  it('--ids that are not in the file are an error; --limit takes the first N', () => {
    const all = parseInstances([line(base), line({ ...base, instance_id: 'o__r-2' })].join('\n'), 'f.jsonl');
    expect(() => pickInstances(all, ['o__r-9'], undefined, 'f.jsonl')).toThrow('--ids: o__r-9 is not in f.jsonl.');
    expect(pickInstances(all, undefined, 1, 'f.jsonl').map((i) => i.instance_id)).toEqual(['o__r-1']);
  });
});

describe('self-scoring', () => {
  const [inst] = parseInstances(line(base), 'f.jsonl');

  it('is resolved only when every FAIL_TO_PASS and PASS_TO_PASS test passes, and names the tests that decided otherwise', () => {
    const run = (tests: TestResult[]) => judge(inst!, { run: { kind: 'known', runners: ['pytest'], tests }, exitCode: 0, output: '' });
    expect(run([t('tests/test_x.py', [], 'test_new'), t('tests/test_x.py', ['T'], 'test_old')]).kind).toBe('resolved');
    expect(run([t('tests/test_x.py', [], 'test_new', 'failed'), t('tests/test_x.py', ['T'], 'test_old')])).toMatchObject({
      kind: 'unresolved',
      reason: 'FAIL_TO_PASS 1 of 1 still not passing: tests/test_x.py::test_new (failed)',
    });
    expect(run([t('tests/test_x.py', [], 'test_new')]).reason).toBe(
      'PASS_TO_PASS 1 of 1 broken: tests/test_x.py::T::test_old (not run); the run reported 1 tests, such as `tests/test_x.py::test_new`',
    );
    // A skip is not a pass.
    expect(run([t('tests/test_x.py', [], 'test_new', 'skipped'), t('tests/test_x.py', ['T'], 'test_old')]).kind).toBe('unresolved');
  });

  it('an unreadable report or a missing test_cmd is unscorable, with the reason', () => {
    expect(judge(inst!, { run: { kind: 'unknown', why: 'no report' }, exitCode: 2, output: '' })).toEqual({
      kind: 'unscorable',
      reason: "the test run's results could not be read: no report (test_cmd exited 2)",
    });
    expect(unscorableBecause({ ...inst!, test_cmd: undefined })).toMatch(/no test_cmd.*official SWE-bench harness/);
  });

  it("finds a pytest test inherited from a mixin by the module that collects it, as SWE-bench's node id names it", () => {
    const tests = [
      t('tests/__init__.py', ['tests.test_ttl.TTLCacheTest'], 'test_clear'),
      t('tests/__init__.py', ['tests.test_lru.LRUCacheTest'], 'test_clear', 'failed'),
    ];
    const got = outcomesByName(tests, [
      'tests/test_ttl.py::TTLCacheTest::test_clear',
      'tests/test_lru.py::LRUCacheTest::test_clear',
      'tests/test_rr.py::RRCacheTest::test_clear',
    ]);
    expect([...got.values()]).toEqual(['passed', 'failed', 'missing']);
  });

  it('finds a doctest that unittest ran (reported under doctest.py) by the identity the suite gives it', () => {
    const doctest: TestResult = {
      runner: 'unittest',
      file: '/usr/lib/python3.11/doctest.py',
      suite: [],
      name: 'more_itertools.more.adjacent',
      outcome: 'passed',
    };
    expect(outcomesByName([doctest], ['more_itertools.py::more::adjacent']).get('more_itertools.py::more::adjacent')).toBe('passed');
  });
});

describe('the chart', () => {
  it('puts each way at its cost and resolve rate on an axis rounded up to 1, 2 or 5 × 10^n', () => {
    expect([niceMax(0), niceMax(0.013), niceMax(0.3), niceMax(4.2)]).toEqual([1, 0.02, 0.5, 5]);
    const svg = chartSvg([
      { way: 'crew', instances: 2, resolved: 1, unresolved: 1, unscorable: 0, broken: 0, tokens: 100, cost_usd: 0.01, wall_seconds: 1, resolve_rate: 0.5 },
      { way: 'single', instances: 2, resolved: 2, unresolved: 0, unscorable: 0, broken: 0, tokens: 40, cost_usd: 0.004, wall_seconds: 1, resolve_rate: 1 },
    ]);
    // x from 64 to 536 over $0 to $0.01; y from 304 (0%) to 24 (100%).
    expect(svg).toContain('<circle cx="536.0" cy="164.0" r="6" fill="#1f6feb" data-way="crew"');
    expect(svg).toContain('<circle cx="252.8" cy="24.0" r="6" fill="#d1242f" data-way="single"');
    expect(svg).toContain('single: 2/2 resolved, $0.0040, 40 tokens');
  });
});
