import { describe, expect, it } from 'vitest';
import { idealMakespan, waveBarrierMakespan, type ModelTask } from '../../../scripts/schedule-model';

const t = (id: string, ms: number, ...deps: string[]): ModelTask => ({ id, deps, ms });

describe('the benchmark schedule model', () => {
  it('a chain costs the sum of its tasks plus one overhead per task', () => {
    expect(idealMakespan([t('a', 10), t('b', 20, 'a'), t('c', 30, 'b')], 5, 10)).toBe(75);
  });

  it('with enough slots, the makespan is the critical path of model time plus overhead', () => {
    // a(100) → d ; b(10) → c(10) → e(10) → d: the hop-heavy path wins once overhead counts.
    const tasks = [t('a', 100), t('b', 10), t('c', 10, 'b'), t('e', 10, 'c'), t('d', 10, 'a', 'e')];
    expect(idealMakespan(tasks, 0, 10)).toBe(110);
    expect(idealMakespan(tasks, 50, 10)).toBe(4 * 60);
  });

  it('respects the parallel limit and runs the longest remaining path first', () => {
    // Two slots: x heads a long chain, so it goes first even though it is listed last.
    const tasks = [t('p', 10), t('q', 10), t('x', 10), t('y', 100, 'x')];
    expect(idealMakespan(tasks, 0, 2)).toBe(110);
    expect(idealMakespan(tasks, 0, 1)).toBe(130);
  });

  it('a wave barrier waits for the slowest task of each wave', () => {
    const tasks = [t('a', 100), t('b', 10), t('c', 10, 'b'), t('d', 10, 'a')];
    expect(idealMakespan(tasks, 0, 10)).toBe(110);
    expect(waveBarrierMakespan(tasks, 0, 10)).toBe(110);
    expect(waveBarrierMakespan([t('a', 100), t('b', 10), t('c', 100, 'b')], 0, 10)).toBe(200);
    expect(idealMakespan([t('a', 100), t('b', 10), t('c', 100, 'b')], 0, 10)).toBe(110);
  });

  it('names a cycle instead of spinning', () => {
    expect(() => idealMakespan([t('a', 1, 'b'), t('b', 1, 'a')], 0, 2)).toThrow(/cycle/);
  });
});
