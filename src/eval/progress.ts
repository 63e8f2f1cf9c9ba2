import type { Way } from './play';

/** A progress bar per instance and way: clone ▸ play ▸ score ▸ done, one line each time it moves. */

export const STAGES = ['clone', 'play', 'score', 'done'] as const;
export type Stage = (typeof STAGES)[number];

export function progressLine(o: { index: number; total: number; id: string; way: Way; stage: Stage; seconds: number; note?: string }): string {
  const at = STAGES.indexOf(o.stage) + (o.stage === 'done' ? 1 : 0);
  const bar = `${'■'.repeat(at)}${'□'.repeat(STAGES.length - at)}`;
  const what = o.stage === 'done' ? (o.note ?? 'done') : `${o.stage === 'clone' ? 'cloning' : o.stage === 'play' ? 'playing' : 'scoring'}…`;
  return `[${String(o.index).padStart(String(o.total).length)}/${o.total}] ${bar} ${o.id} · ${o.way} · ${what} · ${o.seconds.toFixed(0)} s`;
}
