import { describe, expect, it } from 'vitest';
import { chartSvg, niceMax } from '../../../src/eval/chart';
import { parseInstances, pickInstances } from '../../../src/eval/instances';
import { judge, outcomesByName, unscorableBecause } from '../../../src/eval/score';
import type { TestResult } from '../../../src/domain/test-results';
import { parseArgs } from '../../../src/cli/args';
import { UsageError } from '../../../src/local/workspace';
import { isCrewWay, parallelAttempts, parseWays, type Way } from '../../../src/eval/play';
import { crewTaskFile } from '../../../src/eval/play-crew';
import { validateConfig } from '../../../src/config/schema';
import { resultsMarkdown, totals, type EvalResult } from '../../../src/eval/results';

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
      {
        way: 'crew',
        instances: 2,
        resolved: 1,
        unresolved: 1,
        unscorable: 0,
        broken: 0,
        tokens: 100,
        cost_usd: 0.01,
        wall_seconds: 1,
        resolve_rate: 0.5,
        cost_per_resolved_usd: 0.01,
      },
      {
        way: 'single',
        instances: 2,
        resolved: 2,
        unresolved: 0,
        unscorable: 0,
        broken: 0,
        tokens: 40,
        cost_usd: 0.004,
        wall_seconds: 1,
        resolve_rate: 1,
        cost_per_resolved_usd: 0.002,
      },
    ]);
    // x from 64 to 536 over $0 to $0.01; y from 304 (0%) to 24 (100%).
    expect(svg).toContain('<circle cx="536.0" cy="164.0" r="6" fill="#1f6feb" data-way="crew"');
    expect(svg).toContain('<circle cx="252.8" cy="24.0" r="6" fill="#d1242f" data-way="single"');
    expect(svg).toContain('single: 2/2 resolved, $0.0040, $0.0020 per resolved, 40 tokens');
  });
});

/** One instance played one way, as runEval records it. */
const played = (id: string, way: Way, kind: 'resolved' | 'unresolved' | 'unscorable' | 'broken', cost: number): EvalResult => ({
  instance_id: id,
  way,
  status: kind === 'broken' ? 'broken' : 'played',
  score:
    kind === 'broken'
      ? null
      : kind === 'resolved'
        ? { kind, reason: 'ok', failToPass: [], passToPass: 0 }
        : kind === 'unresolved'
          ? { kind, reason: 'no', failing: [] }
          : { kind, reason: '?' },
  usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, tokens: 1000, cost_usd: cost },
  wall_seconds: 1,
  turns: 1,
  tasks: 1,
  attempts: 1,
  critic_verdict: null,
  ended: 'done',
  escalations: [],
  trajectories: [],
  logs: [],
  patch_bytes: 0,
});

describe('crew eval --way crew-best-of-N (#50)', () => {
  it('reads the ways: crew, single, both, crew-best-of-N from 2 to 5, several with commas (each once)', () => {
    expect(parseWays('crew-best-of-3')).toEqual(['crew-best-of-3']);
    expect(parseWays('both')).toEqual(['crew', 'single']);
    expect(parseWays('crew, single,crew-best-of-3,crew')).toEqual(['crew', 'single', 'crew-best-of-3']);
    expect(parseWays('both,crew-best-of-5')).toEqual(['crew', 'single', 'crew-best-of-5']);
    for (const bad of ['crew-best-of-1', 'crew-best-of-6', 'crew-best-of-03', 'best-of-3', 'crew-best-of-', 'all', ''])
      expect(() => parseWays(bad), bad).toThrow(/^--way is crew, single, both or crew-best-of-N \(N from 2 to 5\)/);
    expect([parallelAttempts('crew-best-of-3'), parallelAttempts('crew'), parallelAttempts('single')]).toEqual([3, undefined, undefined]);
    expect(['crew', 'single', 'crew-best-of-2'].map((w) => isCrewWay(w as Way))).toEqual([true, false, true]);
  });

  it('crew eval --way takes them on the command line, and refuses another with what it accepts', () => {
    expect(parseArgs(['eval', 'i.jsonl', '--way', 'crew-best-of-3'], '/cwd')).toMatchObject({ kind: 'eval', ways: ['crew-best-of-3'] });
    expect(parseArgs(['eval', 'i.jsonl', '--way', 'crew,single,crew-best-of-3'], '/cwd')).toMatchObject({ ways: ['crew', 'single', 'crew-best-of-3'] });
    expect(parseArgs(['eval', 'i.jsonl'], '/cwd')).toMatchObject({ ways: ['crew', 'single'] });
    expect(() => parseArgs(['eval', 'i.jsonl', '--way', 'crew-best-of-9'], '/cwd')).toThrow(UsageError);
    expect(() => parseArgs(['eval', 'i.jsonl', '--way', 'crew-best-of-9'], '/cwd')).toThrow("(got 'crew-best-of-9').");
  });

  it("hands crew the attempts as the crew.yml key attempts.parallel in the run's task file; the crew way hands none", () => {
    const instance = parseInstances(line(base), 'f.jsonl')[0]!;
    const budget = { tokens: 5000, costUsd: 2, ms: 60_000 };
    const common = { task: 'fix it', setup: [], budgets: { run: { tokens: 5000, cost_usd: 2 }, task: { tokens: 5000, cost_usd: 2 } }, transcripts: 'full' };
    expect(crewTaskFile({ instance, budget, parallelAttempts: 3 })).toEqual({ ...common, attempts: { parallel: 3, max: 3 } });
    expect(crewTaskFile({ instance, budget })).toEqual(common);
  });

  it("every crew-best-of-N's task file passes crew's config schema with N attempts of every task: max is N too (the schema refuses parallel over max, default 3)", () => {
    const instance = parseInstances(line(base), 'f.jsonl')[0]!;
    const budget = { tokens: 5000, costUsd: 2, ms: 60_000 };
    for (const n of [2, 3, 4, 5]) {
      const { task: _task, ...overrides } = crewTaskFile({ instance, budget, parallelAttempts: n });
      expect(validateConfig(overrides, 'task.yaml').attempts, `crew-best-of-${n}`).toEqual({ parallel: n, max: n });
    }
  });

  it('results.md and the chart give every way its resolve rate and cost per resolved instance (— where it resolved none)', () => {
    const ways: Way[] = ['crew', 'single', 'crew-best-of-3'];
    const results = [
      played('a', 'crew', 'resolved', 0.3),
      played('b', 'crew', 'unresolved', 0.2),
      played('c', 'crew', 'broken', 0.1),
      played('a', 'single', 'unresolved', 0.05),
      played('b', 'single', 'unscorable', 0.05),
      played('a', 'crew-best-of-3', 'resolved', 0.9),
      played('b', 'crew-best-of-3', 'resolved', 0.6),
    ];
    const t = totals(results, ways);
    expect(t.map((x) => [x.way, x.resolve_rate, x.cost_per_resolved_usd])).toEqual([
      ['crew', 0.5, 0.6],
      ['single', 0, null],
      ['crew-best-of-3', 1, 0.75],
    ]);
    const md = resultsMarkdown(results, ways, { instances: '2', model: 'm' });
    expect(md).toContain('| Resolve rate | Tokens | Cost (USD) | Cost per resolved (USD) | Wall time (s) |');
    expect(md).toContain('| crew | 3 | 1 | 1 | 0 | 1 | 50.0% | 3000 | 0.6000 | 0.6000 | 3.0 |');
    expect(md).toContain('| single | 2 | 0 | 1 | 1 | 0 | 0.0% | 2000 | 0.1000 | — | 2.0 |');
    expect(md).toContain('| crew-best-of-3 | 2 | 2 | 0 | 0 | 0 | 100.0% | 2000 | 1.5000 | 0.7500 | 2.0 |');
    const svg = chartSvg(t);
    expect(svg).toContain('crew: 1/2 resolved, $0.6000, $0.6000 per resolved');
    expect(svg).toContain('single: 0/1 resolved, $0.1000, none resolved');
    expect(svg).toContain('crew-best-of-3: 2/2 resolved, $1.5000, $0.7500 per resolved');
    expect(svg).toContain('fill="#8250df" data-way="crew-best-of-3"');
    expect(svg).toContain('data-cost-per-resolved-usd="0.75"');
  });
});
