/**
 * Test results as data (#32): which tests a command ran and how each ended, read from the
 * runner's own machine-readable report, never from what it printed. A test is known by its
 * identity (file, suite path, name), which stays the same from run to run; its position does not.
 */

/** How a test ended. An expected failure (xfail, `@expectedFailure`) and a todo count as skipped: neither is a pass. */
export type TestOutcome = 'passed' | 'failed' | 'skipped';

/** The runners crew reads reports from (sandbox/test-reports says how each is asked for one). */
export const RUNNERS = ['node', 'vitest', 'jest', 'mocha', 'pytest', 'unittest', 'go', 'cargo'] as const;
export type Runner = (typeof RUNNERS)[number];

export interface TestId {
  /** The test's file relative to the checkout (a Go package's folder; a Rust test binary's target name). */
  file: string;
  /** The suites (describe blocks, classes, modules) around it, outermost first. */
  suite: string[];
  /** Its own name. Empty for a file that failed before any test in it ran. */
  name: string;
}

export interface TestResult extends TestId {
  runner: Runner;
  outcome: TestOutcome;
  /** Where the runner says it is defined (1-based), when it says. */
  line?: number;
}

/**
 * What one run of a command tells about its tests: known (every report crew's hooks asked for
 * was read), unknown (no runner crew knows wrote one: judged by the exit code alone) or
 * unreadable (a report was malformed, cut short, too large, or the folder held something crew
 * did not ask for: undecided, a person looks).
 */
export type TestRun = { kind: 'known'; runners: Runner[]; tests: TestResult[] } | { kind: 'unknown'; why: string } | { kind: 'unreadable'; why: string };

/** A test's identity as one string: equal exactly when file, suite path and name are. */
export const testKey = (t: TestId): string => JSON.stringify([t.file, ...t.suite, t.name]);

/** The identity a testKey stands for. */
export function testOfKey(key: string): TestId {
  const parts = JSON.parse(key) as string[];
  return { file: parts[0] ?? '', suite: parts.slice(1, -1), name: parts.length > 1 ? parts[parts.length - 1]! : '' };
}

/** How a test is named to people and to the critic model: `test/sum.test.js › sum › adds negatives`. */
export function describeTest(t: TestId): string {
  const parts = [...t.suite, t.name || '(the file itself)'];
  return [t.file, ...parts].filter((p) => p !== '').join(' › ');
}
