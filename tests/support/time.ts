/**
 * One knob scales every platform wait in the offline world (cancellation delays,
 * retry-after, backoff, simulated latency). crew reads the same variable, so a
 * scenario at scale 0.01 runs the production code paths a hundred times faster.
 */
export function timeScale(): number {
  const raw = process.env.CREW_TIME_SCALE;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`CREW_TIME_SCALE must be a positive number, got '${raw}'`);
  return n;
}

export function scaledMs(ms: number, scale = timeScale()): number {
  return Math.max(0, Math.round(ms * scale));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
