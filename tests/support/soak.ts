/**
 * `npm run soak` sets CREW_SOAK=1 and runs the soak test files (scripts/soak.ts, SOAK_TESTS) at full
 * size: the contention tests with every writer, and every case of the long variant tables. `npm test`
 * runs the same files smaller: contention that still collides on every write, and a sample of each
 * table, so the suite fits its time budget and no case goes untested.
 */
export const soaking = process.env.CREW_SOAK === '1';

export function soakSize(fast: number, full: number): number {
  return soaking ? full : fast;
}

/**
 * Every case under `npm run soak`; under `npm test` only those marked `sample: true`. The marks
 * stay in the table, so the cases `npm test` leaves to the soak are the unmarked rows beside them.
 */
export function soakCases<T extends { sample?: boolean }>(cases: readonly T[]): T[] {
  if (!cases.some((c) => c.sample)) throw new Error('soakCases: mark at least one case `sample: true` for npm test');
  return soaking ? [...cases] : cases.filter((c) => c.sample);
}
