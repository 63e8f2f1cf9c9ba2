import type { Clock } from './ports';

/**
 * Every platform wait (retry-after, backoff, throttling gaps) goes through this
 * scale. Production leaves CREW_TIME_SCALE unset (1); the offline world sets it
 * low so the same code paths run in milliseconds.
 */
export function timeScale(): number {
  const raw = process.env.CREW_TIME_SCALE;
  if (!raw) return 1;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

/**
 * The scale of job time limits (`timeout-minutes`). Apart from timeScale because a job's
 * length is mostly process starts, git and model replies, which a time scale does not shrink;
 * the offline world sets CREW_JOB_TIME_SCALE only in scenarios about job limits.
 */
export function jobTimeScale(): number {
  const n = Number(process.env.CREW_JOB_TIME_SCALE);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.round(ms * timeScale())))),
};

export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
