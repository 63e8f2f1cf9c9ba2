import { describe, expect, it } from 'vitest';
import {
  account,
  compare,
  countsText,
  failToPass,
  passToPass,
  readReports,
  testFindings,
  MAX_REPORT_BYTES,
  type TestResult,
  type TestRun,
} from '../../../src/domain/test-results';
import { compareWithBase, verdictOfRun } from '../../../src/domain/localisation';
import { parseUnifiedDiff } from '../../../src/domain/diff';
import { findTampering } from '../../../src/domain/tamper';

const t = (file: string, name: string, outcome: TestResult['outcome'], suite: string[] = []): TestResult => ({ runner: 'node', file, suite, name, outcome });
const known = (tests: TestResult[]): TestRun => ({ kind: 'known', runners: ['node'], tests });
const header = (runner: string) => `${JSON.stringify({ crew: 'test-report', runner, version: 1 })}\n`;
const nodeEvent = (type: string, name: string) =>
  `${JSON.stringify({ type, name, nesting: 0, file: '/w/test/a.test.js', line: 3, skip: false, todo: false, kind: 'test' })}\n`;
const end = `${JSON.stringify({ end: true })}\n`;

describe('reading a run’s reports: bad input is unreadable, never a pass (#32 §5)', () => {
  const file = (name: string, text: string) => ({ name, bytes: Buffer.byteLength(text), text });

  it('a whole report is read; identities are relative to the checkout', () => {
    expect(readReports([file('node-1-2.jsonl', header('node') + nodeEvent('test:start', 'x') + nodeEvent('test:pass', 'x') + end)], '/w')).toEqual({
      kind: 'known',
      runners: ['node'],
      tests: [{ runner: 'node', file: 'test/a.test.js', suite: [], name: 'x', outcome: 'passed', line: 3 }],
    });
  });

  it.each([
    ['cut short (no end line)', file('node-1-2.jsonl', header('node') + nodeEvent('test:pass', 'x')), /stops before the runner finished/],
    ['a line that is not JSON', file('node-1-2.jsonl', `${header('node')}{"type":"test:pa\n${end}`), /line 2 is not JSON/],
    ['another runner’s header', file('node-1-2.jsonl', header('mocha') + end), /does not start with crew's header for node/],
    [
      'an event of the wrong shape',
      file('mocha-1-2.jsonl', `${header('mocha')}{"outcome":"won","titles":["a"],"file":null}\n${end}`),
      /event 1 is not one of mocha/,
    ],
    ['XML that is not well-formed', file('pytest-1-2.xml', '<testsuites><testsuite><testcase name="a">'), /not well-formed XML/],
    ['JSON of the wrong shape', file('jest-1-2.json', '{"testResults":[{"name":"/w/a.test.js"}]}'), /not jest's JSON report/],
    [
      'a status nobody knows',
      file('vitest-1-2.json', JSON.stringify({ testResults: [{ name: '/w/a', assertionResults: [{ ancestorTitles: [], title: 'a', status: 'won' }] }] })),
      /status crew does not know/,
    ],
    ['a name crew did not ask for', file('results.xml', '<testsuites/>'), /crew did not ask any runner for/],
    [
      'a report larger than crew reads',
      { name: 'jest-1-2.json', bytes: MAX_REPORT_BYTES + 1, problem: `it is ${MAX_REPORT_BYTES + 1} bytes, over the limit` },
      /over the limit/,
    ],
    ['a link where a report should be', { name: 'jest-1-2.json', bytes: 0, problem: 'it is not a regular file' }, /not a regular file/],
  ])('%s', (_, f, why) => {
    const run = readReports([f], '/w');
    expect(run.kind).toBe('unreadable');
    expect((run as { why: string }).why).toMatch(why);
  });

  it('no report at all: unknown, and why', () => {
    expect(readReports([], '/w')).toEqual({ kind: 'unknown', why: expect.stringContaining('no test runner crew knows wrote a report') });
  });
});

describe('base against head by identity (#32 §2)', () => {
  it('SWE-bench’s kinds: FAIL_TO_PASS (failing or missing before), PASS_TO_PASS, lost (missing, skipped or failing after)', () => {
    const base = [
      t('a', 'kept', 'passed'),
      t('a', 'fixed', 'failed'),
      t('a', 'gone', 'passed'),
      t('a', 'off', 'passed'),
      t('a', 'broken', 'passed'),
      t('a', 'still', 'failed'),
    ];
    const head = [
      t('a', 'kept', 'passed'),
      t('a', 'fixed', 'passed'),
      t('a', 'off', 'skipped'),
      t('a', 'broken', 'failed'),
      t('a', 'still', 'failed'),
      t('a', 'new', 'passed'),
    ];
    const changes = compare(base, head);
    expect(Object.fromEntries(changes.map((c) => [c.test.name, c.kind]))).toEqual({
      kept: 'pass-to-pass',
      fixed: 'fail-to-pass',
      gone: 'lost',
      off: 'lost',
      broken: 'lost',
      still: 'still-failing',
      new: 'fail-to-pass',
    });
    expect(failToPass(changes).map((c) => c.test.name)).toEqual(['fixed', 'new']);
    expect(passToPass(changes).map((c) => c.test.name)).toEqual(['kept']);
  });

  it('duplicate names are counted, not merged: two passing on the base and one on the head is one lost', () => {
    const changes = compare([t('a', 'twice', 'passed'), t('a', 'twice', 'passed')], [t('a', 'twice', 'passed')]);
    expect(changes.map((c) => [c.before, c.after, c.kind])).toEqual([
      ['passed', 'passed', 'pass-to-pass'],
      ['passed', 'missing', 'lost'],
    ]);
  });

  it('the same name in another file or suite is another test', () => {
    const changes = compare([t('a', 'x', 'passed'), t('b', 'x', 'passed', ['s'])], [t('b', 'x', 'passed'), t('a', 'x', 'passed', ['s'])]);
    expect(changes.filter((c) => c.kind === 'lost')).toHaveLength(2);
  });

  it('the accounting: counts, lost tests with the line the diff shows, flaky tests, and the findings', () => {
    const diff = parseUnifiedDiff(
      ['diff --git a/a b/a', '--- a/a', '+++ b/a', '@@ -4,1 +4,1 @@', "-test('gone', () => {", "+test('renamed', () => {"].join('\n'),
    );
    const base = known([t('a', 'gone', 'passed'), t('a', 'wobbly', 'passed'), t('a', 'kept', 'passed'), t('a', 'skip', 'skipped')]);
    const head = known([t('a', 'renamed', 'passed'), t('a', 'wobbly', 'failed'), t('a', 'kept', 'passed'), t('a', 'skip', 'skipped')]);
    const a = account({ id: 'c1', command: 'npm test' }, base, head, { diff, flaky: new Set([JSON.stringify(['a', 'wobbly'])]) });
    expect(a.counts).toEqual({ passed: 2, fixed: 1, lost: 1, failing: 1, failingAsBefore: 0, skippedAsBefore: 1, skippedNew: 0, flaky: 1 });
    expect(a.lost).toEqual([{ test: 'a › gone', file: 'a', now: 'missing', line: 4, lineOn: 'base' }]);
    expect(a.flaky).toEqual(['a › wobbly']);
    expect(a.newPassing).toEqual(['a › renamed']);
    expect(countsText(a)).toBe('2 passed, 1 fixed, 1 lost, 1 failing, 1 skipped as on the base, 1 flaky');
    expect(testFindings(a)).toEqual([
      {
        rule: 'lost-test',
        file: 'a',
        evidence:
          "`npm test`: a › gone passed on the base and is missing on the head (it did not run) (the change removed line 4 of the base's a, which names it)",
      },
    ]);
    // A rename the critic named takes the test off the findings.
    a.renamed.push({ from: 'a › gone', to: 'a › renamed' });
    expect(testFindings(a)).toEqual([]);
  });

  it('unknown, unreadable and missing reports: never a pass of the checks', () => {
    const c = { id: 'c1', command: 'make test' };
    const none: TestRun = { kind: 'unknown', why: 'no test runner crew knows wrote a report' };
    const bad: TestRun = { kind: 'unreadable', why: 'x.xml: it is not well-formed XML' };
    expect(account(c, none, none)).toMatchObject({ state: 'unknown', why: 'on the base, no test runner crew knows wrote a report' });
    expect(account(c, known([]), bad)).toMatchObject({ state: 'unreadable', why: "the head's report is unreadable: x.xml: it is not well-formed XML" });
    const missing = account(c, known([t('a', 'x', 'passed')]), none);
    expect(missing).toMatchObject({ state: 'missing', missingReports: ['node'] });
    expect(testFindings(missing).map((f) => f.rule)).toEqual(['test-report-missing']);
    expect(countsText(account(c, none, none))).toBe('test identities unknown (on the base, no test runner crew knows wrote a report)');
  });

  it("a base whose tests cannot be read while the head's can is undecided, never nothing lost (#46); only a base with no test file, whose head reports only tests the change added, had none to lose", () => {
    const c = { id: 'c1', command: 'npm test' };
    const none: TestRun = { kind: 'unknown', why: 'no test runner crew knows wrote a report' };
    const head = known([t('test/a.test.js', 'x', 'passed'), t('test/new.test.js', 'y', 'passed')]);
    const why =
      "the base's tests could not be read (no test runner crew knows wrote a report), though the head's were: crew cannot tell whether a test that passed on the base is lost";
    expect(account(c, none, head)).toMatchObject({ state: 'unreadable', why, lost: [] });
    expect(countsText(account(c, none, head))).toBe(`undecided: ${why}`);
    // The base holds a test file: its tests went unread.
    expect(account(c, none, head, { baseTree: { hasTestFile: true, added: new Set(['test/new.test.js']) } })).toMatchObject({ state: 'unreadable' });
    // No test file on the base, but the head reports a test of a file the base had (inline tests, a Go package, a Rust target).
    expect(account(c, none, head, { baseTree: { hasTestFile: false, added: new Set(['test/new.test.js']) } })).toMatchObject({ state: 'unreadable' });
    // The change adds the first tests: there was nothing to lose.
    const first = account(c, none, head, { baseTree: { hasTestFile: false, added: new Set(['test/a.test.js', 'test/new.test.js']) } });
    expect(first).toMatchObject({ state: 'unknown', why: 'on the base, no test runner crew knows wrote a report' });
  });
});

describe('localisation by test identity (#32 §3)', () => {
  // TAP numbers tests by position: a new test file that sorts first renumbers the failing test.
  const base = {
    exitCode: 1,
    output: 'ok 1 - count\nnot ok 2 - median of an even list\n# fail 1',
    failingTests: [JSON.stringify(['test/median.test.js', 'median of an even list'])],
  };
  const branch = {
    exitCode: 1,
    output: 'ok 1 - mode\nok 2 - count\nnot ok 3 - median of an even list\n# fail 1',
    failingTests: [JSON.stringify(['test/median.test.js', 'median of an even list'])],
  };

  it('printed lines differ, the failing tests are the same: as on the base (by the printed lines alone, it would be blamed)', () => {
    expect(compareWithBase({ exitCode: 1, output: base.output }, { exitCode: 1, output: branch.output })).toBe('different');
    expect(compareWithBase(base, branch)).toBe('same');
    expect(verdictOfRun({ ...branch, timedOut: false }, base)).toBe('as-before');
  });

  it('a test the base passes failing on the branch convicts it', () => {
    const broke = { ...branch, failingTests: [...branch.failingTests, JSON.stringify(['test/median.test.js', 'median of an odd list'])] };
    expect(verdictOfRun({ ...broke, timedOut: false }, base)).toBe('fails');
  });

  it('a run that failed with no test failing (a lint step after the tests) falls back to what it printed', () => {
    expect(compareWithBase(base, { exitCode: 1, output: 'lint: error: x', failingTests: [] })).toBe('different');
  });
});

describe('the diff check for a change that reaches for the report (#32 §5)', () => {
  it('crew’s report folder anywhere, or the routing variables in a test or conftest, is a finding; the same variable in a CI file is not', () => {
    const diff = parseUnifiedDiff(
      [
        'diff --git a/conftest.py b/conftest.py',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/conftest.py',
        '@@ -0,0 +1,1 @@',
        '+REPORT = os.environ["PYTEST_ADDOPTS"]',
        'diff --git a/tools/x.sh b/tools/x.sh',
        '--- a/tools/x.sh',
        '+++ b/tools/x.sh',
        '@@ -1,0 +1,2 @@',
        '+ls "$CREW_TEST_REPORT_DIR"',
        '+export PYTEST_ADDOPTS=-q',
      ].join('\n'),
    );
    expect(findTampering(diff).map((f) => [f.rule, f.file, f.line])).toEqual([
      ['test-report-tampering', 'conftest.py', 1],
      ['test-report-tampering', 'tools/x.sh', 1],
    ]);
  });
});
