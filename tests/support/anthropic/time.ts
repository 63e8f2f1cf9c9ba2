export const sleep = (ms: number): Promise<void> => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/** The default time scale: env CREW_TIME_SCALE, else 1 (real time). */
export function timeScaleFromEnv(): number {
  const raw = process.env.CREW_TIME_SCALE;
  if (raw === undefined || raw === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale < 0) throw new Error(`CREW_TIME_SCALE must be a non-negative number, got "${raw}"`);
  return scale;
}
