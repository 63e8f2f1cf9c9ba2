/**
 * `npm run soak` sets CREW_SOAK=1 and runs the contention tests at full size; `npm test` runs the
 * same tests at a size that still collides on every write but fits the suite's time budget.
 */
export const soaking = process.env.CREW_SOAK === '1';

export function soakSize(fast: number, full: number): number {
  return soaking ? full : fast;
}
