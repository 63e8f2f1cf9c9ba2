import { describe, expect, it } from 'vitest';
import { SelectionSchema } from '../../../src/domain/candidate-record';
import { MAX_PARALLEL_ATTEMPTS, selectCandidate, type CandidateEvidence } from '../../../src/domain/candidates';
import { parseUnifiedDiff } from '../../../src/domain/diff';
import { candidateBranch, taskBranch, assertCrewRef, localBranches } from '../../../src/domain/refs';
import { branchOwner } from '../../../src/domain/retention';
import { findTampering } from '../../../src/domain/tamper';
import { account, type TestResult, type TestRun } from '../../../src/domain/test-results';
import { renderPlanComment } from '../../../src/render/plan-comment';
import { renderReport } from '../../../src/render/report';
import { GITHUB, terminalSurface } from '../../../src/domain/surface';
import { view } from './run-fixtures';

/**
 * Selection by evidence among a task's parallel attempts (#50): each candidate's tests by identity
 * against the base (real `account`), its command criteria and its diff's tamper findings (real
 * `findTampering`), and the choice with its reason.
 */

const t = (name: string, outcome: TestResult['outcome']): TestResult => ({ runner: 'node', file: 'test/sum.test.js', suite: ['sum'], name, outcome });
const run = (...tests: TestResult[]): TestRun => ({ kind: 'known', runners: ['node'], tests });

// On the base, the issue's test (`adds negatives`) fails and two others pass.
const BASE = run(t('adds', 'passed'), t('adds zero', 'passed'), t('adds negatives', 'failed'));
const criterion = { id: 'c1', command: 'npm test' };
const BRANCH = 'crew/7/r1/t1';

function candidate(n: number, head: TestRun, o: Partial<CandidateEvidence> = {}): CandidateEvidence {
  const acc = account(criterion, BASE, head);
  const met = head.kind === 'known' && head.tests.every((x) => x.outcome !== 'failed');
  return {
    n,
    branch: candidateBranch(BRANCH, n),
    headSha: `${n}`.repeat(40),
    worker: 'success',
    commands: [{ criterion: 'c1', command: 'npm test', met }],
    tests: [acc],
    findings: [],
    changedLines: 10,
    ...o,
  };
}

// Attempt 2 switches a passing test off: `it.skip`, the runner then reports it skipped, `npm test` exits 0.
const SKIP_DIFF = `diff --git a/test/sum.test.js b/test/sum.test.js
--- a/test/sum.test.js
+++ b/test/sum.test.js
@@ -3,3 +3,3 @@
 describe('sum', () => {
-  it('adds zero', () => {
+  it.skip('adds zero', () => {
     assert.equal(sum(1, 0), 1);
`;
const skipFindings = findTampering(parseUnifiedDiff(SKIP_DIFF)).map((f) => ({ rule: f.rule, evidence: f.evidence, file: f.file, line: f.line }));

const wrongFix = candidate(1, run(t('adds', 'passed'), t('adds zero', 'passed'), t('adds negatives', 'failed')));
const switchedOff = candidate(2, run(t('adds', 'passed'), t('adds zero', 'skipped'), t('adds negatives', 'passed')), { findings: skipFindings });
const right = candidate(3, run(t('adds', 'passed'), t('adds zero', 'passed'), t('adds negatives', 'passed')));

describe('selecting among parallel attempts', () => {
  it('keeps the right one of three wrong in different ways, and says why each other fell', () => {
    expect(skipFindings.map((f) => f.rule)).toContain('skipped-test');
    const s = selectCandidate('t1', [right, switchedOff, wrongFix]);
    expect(s.chosen).toBe(3);
    expect(s.candidates.map((c) => [c.n, c.qualified])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(s.candidates[0]!.failing).toEqual(['test/sum.test.js › sum › adds negatives (failing on the base too)']);
    expect(s.candidates[0]!.fell).toContain('`npm test` failed');
    expect(s.candidates[1]!.fell.join('\n')).toMatch(/adds zero passed on the base and is skipped here/);
    expect(s.candidates[1]!.fell.join('\n')).toMatch(/skipped-test: test\/sum\.test\.js:4/);
    expect(s.candidates[2]!.fixed).toBe(1);
    expect(s.reason).toMatch(/^attempt 3: the only attempt that met every command criterion/);
    expect(s.reason).toMatch(/attempt 1: `npm test` failed/);
    expect(s.reason).toMatch(/attempt 2: .*skipped/);
    expect(SelectionSchema.parse(s)).toEqual(s);
  });

  it('chooses none when all three are wrong, naming each candidate’s failing tests', () => {
    const alsoWrong = candidate(3, run(t('adds', 'failed'), t('adds zero', 'passed'), t('adds negatives', 'passed')));
    const s = selectCandidate('t1', [wrongFix, switchedOff, alsoWrong]);
    expect(s.chosen).toBeNull();
    expect(s.reason).toMatch(/^none of the 3 attempts qualified/);
    expect(s.candidates[2]!.failing).toEqual(['test/sum.test.js › sum › adds (passed on the base)']);
    expect(s.candidates[2]!.fell).toContain('1 test that passed on the base now fail');
    expect(s.candidates[0]!.failing).toEqual(['test/sum.test.js › sum › adds negatives (failing on the base too)']);
  });

  it('a worker that did not succeed never qualifies, whatever its tests say', () => {
    const s = selectCandidate('t1', [candidate(1, run(t('adds', 'passed'), t('adds zero', 'passed'), t('adds negatives', 'passed')), { worker: 'timeout' })]);
    expect(s.chosen).toBeNull();
    expect(s.candidates[0]!.fell).toEqual(['its worker ended in timeout']);
  });

  it('an undecided command criterion does not qualify', () => {
    const s = selectCandidate('t1', [{ ...right, commands: [{ criterion: 'c1', command: 'npm test', met: null }] }]);
    expect(s.chosen).toBeNull();
    expect(s.candidates[0]!.fell).toEqual(['`npm test` could not be run']);
  });

  it('among those that qualify: more tests fixed first, then the smaller change, then the first', () => {
    const good = run(t('adds', 'passed'), t('adds zero', 'passed'), t('adds negatives', 'passed'));
    const fixesTwo = candidate(2, run(t('adds', 'passed'), t('adds zero', 'passed'), t('adds negatives', 'passed'), t('adds big', 'passed')), {
      changedLines: 80,
    });
    expect(selectCandidate('t1', [candidate(1, good), fixesTwo]).chosen).toBe(2);
    expect(selectCandidate('t1', [candidate(1, good), fixesTwo]).reason).toMatch(/fixes the most tests \(2\)/);
    const small = candidate(2, good, { changedLines: 4 });
    const s = selectCandidate('t1', [candidate(1, good), small]);
    expect(s.chosen).toBe(2);
    expect(s.reason).toMatch(/smallest change \(4 lines\)/);
    expect(selectCandidate('t1', [candidate(2, good), candidate(1, good)]).chosen).toBe(1);
  });

  it('ranks by every failing test, not only the ten a standing names', () => {
    // Both qualify (the criterion is taken as met): attempt 1 leaves 12 tests failing, attempt 2 leaves 30 and is smaller.
    const many = (k: number, outcome: TestResult['outcome']) => Array.from({ length: k }, (_, i) => t(`case ${i}`, outcome));
    const base = run(...many(12, 'failed'));
    const of = (n: number, head: TestRun, changedLines: number): CandidateEvidence => ({
      ...candidate(n, head),
      commands: [{ criterion: 'c1', command: 'npm test', met: true }],
      tests: [account(criterion, base, head)],
      changedLines,
    });
    const fewer = of(1, run(...many(12, 'failed')), 50);
    const more = of(2, run(...many(30, 'failed')), 5);
    const s = selectCandidate('t1', [fewer, more]);
    expect(s.candidates.map((c) => [c.qualified, c.failing.length])).toEqual([
      [true, 11],
      [true, 11],
    ]);
    expect(s.chosen).toBe(1);
    expect(s.reason).toMatch(/leaves the fewest tests failing \(12\)/);
  });

  it('a lifecycle-script finding (for a person, not cheating) does not disqualify', () => {
    const s = selectCandidate('t1', [{ ...right, findings: [{ rule: 'lifecycle-script-changed', evidence: 'package.json: prepare' }] }]);
    expect(s.chosen).toBe(3);
  });
});

describe('a candidate’s branch', () => {
  it('attempt 1 is the task’s branch; attempt n sits beside it, never under it', () => {
    expect(candidateBranch(taskBranch(7, 1, 't1'), 1)).toBe('crew/7/r1/t1');
    expect(candidateBranch(taskBranch(7, 1, 't1'), 3)).toBe('crew/7/r1/t1-a3');
    expect(candidateBranch(localBranches.task(7, 1, 't2'), 2)).toBe('crew/local-7/t2-a2');
    expect(() => candidateBranch('crew/7/r1/t1', 10)).toThrow(/1 to 9/);
    expect(() => assertCrewRef('crew/7/r1/t1/a2')).toThrow(/refusing/);
    expect(() => assertCrewRef('crew/7/r1/t1-a1')).toThrow(/refusing/);
    expect(MAX_PARALLEL_ATTEMPTS).toBeLessThanOrEqual(9);
  });

  it('goes with the run’s branches when the run ends', () => {
    expect(branchOwner('crew/7/r1/t1-a3')).toEqual({ issue: 7, run: 1, kind: 'task' });
    expect(branchOwner('crew/7/r1/t1-b3')).toBeUndefined();
  });
});

const links = {
  comment: (issue: number, id: number) => `https://github.test/acme/w/issues/${issue}#issuecomment-${id}`,
  branch: (b: string) => `https://github.test/acme/w/tree/${b}`,
  run: 'https://github.test/acme/w/actions/runs/1',
  stateFile: (p: string) => `https://github.test/acme/w/blob/crew/state/${p}`,
};

describe('the attempts in the plan comment and the report', () => {
  it('the plan comment lists every attempt with its result, the one kept and why', () => {
    const v = view(['success', 'success', 'success']);
    v.tasks.get('t1')!.selection = selectCandidate('t1', [wrongFix, switchedOff, right]);
    const body = renderPlanComment(v, links, GITHUB);
    expect(body).toContain('**Attempts of t1** (3 in parallel, judged on their own branches against the base)');
    expect(body).toContain(
      '| 1 ❌ | [`crew/7/r1/t1`](https://github.test/acme/w/tree/crew/7/r1/t1) | `npm test` failed | `test/sum.test.js › sum › adds negatives (failing on the base too)` |',
    );
    expect(body).toMatch(
      /\| 2 ❌ \| \[`crew\/7\/r1\/t1-a2`\]\([^)]*\) \| test\/sum\.test\.js › sum › adds zero passed on the base and is skipped here; skipped-test: /,
    );
    expect(body).toContain('| 3 ✅ kept | [`crew/7/r1/t1-a3`](https://github.test/acme/w/tree/crew/7/r1/t1-a3) | 1 fixed · 10 lines changed | – |');
    expect(body).toContain('Kept attempt 3: the only attempt that met every command criterion');
    // The table of tasks ends before the attempts: a blank line between them.
    expect(body).toMatch(/\|\n\n\*\*Attempts of t1\*\*/);
  });

  it('the report of a run with none kept names each attempt’s failing tests', () => {
    const v = view(['failure', 'success', 'success']);
    const alsoWrong = candidate(3, run(t('adds', 'failed'), t('adds zero', 'passed'), t('adds negatives', 'passed')));
    v.tasks.get('t1')!.selection = selectCandidate('t1', [wrongFix, switchedOff, alsoWrong]);
    const report = renderReport(v, new Map(), links, null, null, { ended: 'The run ended without a pull request: t1 failed.' });
    expect(report).toContain('| 1 ❌ | `crew/7/r1/t1` | `npm test` failed | `test/sum.test.js › sum › adds negatives (failing on the base too)` |');
    expect(report).toContain('`test/sum.test.js › sum › adds (passed on the base)`');
    expect(report).toMatch(/None qualified: none of the 3 attempts qualified/);
  });

  it('a row counts every failing test past the five it names', () => {
    const v = view(['failure', 'success', 'success']);
    const many = Array.from({ length: 12 }, (_, i) => t(`case ${i}`, 'failed'));
    v.tasks.get('t1')!.selection = selectCandidate('t1', [candidate(1, run(...many), { tests: [account(criterion, run(), run(...many))] })]);
    const body = renderPlanComment(v, links, GITHUB);
    expect(body).toContain('`test/sum.test.js › sum › case 4 (new)`, 7 more |');
  });

  it('model-written test names go out inert', () => {
    const v = view(['success', 'success', 'success']);
    const EVIL = '@admin <img src=x>';
    // A test the attempt made fail (in a code span) and one it lost (in the words of why it fell).
    const evil = {
      ...candidate(1, run()),
      tests: [account(criterion, run(t(`${EVIL} 1`, 'passed'), t(`${EVIL} 2`, 'passed')), run(t(`${EVIL} 1`, 'failed')))],
    };
    v.tasks.get('t1')!.selection = selectCandidate('t1', [evil]);
    const body = renderPlanComment(v, links, GITHUB);
    expect(body).toContain('`test/sum.test.js › sum › @admin <img src=x> 1 (passed on the base)`');
    expect(body).toContain('<code>@admin</code> &lt;img src=x> 2 passed on the base and is missing here');
    const outsideCode = body.replace(/`[^`\n]*`/g, '').replace(/<code>[^<]*<\/code>/g, '');
    expect(outsideCode).not.toContain('@admin');
    expect(outsideCode).not.toContain('<img');
    expect(renderPlanComment(v, links, terminalSurface(7))).toContain('Attempts of t1');
  });

  it('a run without parallel attempts shows none', () => {
    const v = view(['success', 'success', 'success']);
    expect(renderPlanComment(v, links, GITHUB)).not.toContain('Attempts of');
  });
});
