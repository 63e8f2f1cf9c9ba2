import type { TestResult } from '../types';

/** Drops the results of tests that hold other tests (a test with subtests, a suite reported as a test): the tests inside count instead. */
export function leavesOnly<T extends TestResult>(results: T[]): T[] {
  const parents = new Set<string>();
  for (const t of results) for (let k = 0; k < t.suite.length; k++) parents.add(JSON.stringify([t.file, ...t.suite.slice(0, k + 1)]));
  return results.filter((t) => !parents.has(JSON.stringify([t.file, ...t.suite, t.name])));
}
