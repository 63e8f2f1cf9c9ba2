import { testKey, type TestOutcome, type TestResult } from './types';

/** What a test did on the base and on the head: `missing` when that run did not report it at all. */
export type Before = TestOutcome | 'missing';

/**
 * The change one test went through, SWE-bench's way: PASS_TO_PASS and FAIL_TO_PASS (a test that
 * failed or did not exist before and passes after). `lost`: it passed on the base and, on the
 * head, is missing, skipped or failing, however that came about. `gone`: a test that did not pass
 * on the base is no longer reported.
 */
export type ChangeKind =
  'pass-to-pass' | 'fail-to-pass' | 'skip-to-pass' | 'lost' | 'still-failing' | 'new-failing' | 'skipped-as-before' | 'skipped-new' | 'gone';

export interface TestChange {
  /** The head's result when the head reported the test, else the base's. */
  test: TestResult;
  before: Before;
  after: Before;
  kind: ChangeKind;
}

export function changeKind(before: Before, after: Before): ChangeKind {
  if (after === 'passed') return before === 'passed' ? 'pass-to-pass' : before === 'skipped' ? 'skip-to-pass' : 'fail-to-pass';
  if (before === 'passed') return 'lost';
  if (after === 'failed') return before === 'failed' ? 'still-failing' : 'new-failing';
  if (after === 'skipped') return before === 'skipped' ? 'skipped-as-before' : 'skipped-new';
  return 'gone';
}

const RANK: Record<TestOutcome, number> = { passed: 0, skipped: 1, failed: 2 };

/**
 * Every test of the base and the head, paired by identity. Duplicate identities are counted, not
 * merged: the n-th of a name on the base is paired with the n-th on the head, passes with passes
 * first (duplicates cannot be told apart, so no pairing can be more right than that).
 */
export function compare(base: TestResult[], head: TestResult[]): TestChange[] {
  const group = (tests: TestResult[]) => {
    const m = new Map<string, TestResult[]>();
    for (const t of tests) {
      const k = testKey(t);
      const list = m.get(k) ?? [];
      list.push(t);
      m.set(k, list);
    }
    for (const list of m.values()) list.sort((a, b) => RANK[a.outcome] - RANK[b.outcome]);
    return m;
  };
  const before = group(base);
  const after = group(head);
  const out: TestChange[] = [];
  for (const key of new Set([...after.keys(), ...before.keys()])) {
    const b = before.get(key) ?? [];
    const a = after.get(key) ?? [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const was: Before = b[i]?.outcome ?? 'missing';
      const now: Before = a[i]?.outcome ?? 'missing';
      out.push({ test: a[i] ?? b[i]!, before: was, after: now, kind: changeKind(was, now) });
    }
  }
  return out;
}

/** SWE-bench's FAIL_TO_PASS: the changes whose test fails (or does not exist) before and passes after. */
export const failToPass = (changes: TestChange[]) => changes.filter((c) => c.kind === 'fail-to-pass');
/** SWE-bench's PASS_TO_PASS: the changes whose test passes before and after. */
export const passToPass = (changes: TestChange[]) => changes.filter((c) => c.kind === 'pass-to-pass');
/** The tests that passed on the base and do not pass on the head. */
export const lostTests = (changes: TestChange[]) => changes.filter((c) => c.kind === 'lost');

/** The identities that failed in a run, each once: what localisation compares a branch's run with the base's by. */
export function failingKeys(tests: TestResult[]): Set<string> {
  return new Set(tests.filter((t) => t.outcome === 'failed').map(testKey));
}
