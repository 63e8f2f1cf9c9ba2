import { describe, expect, it, vi } from 'vitest';
import type { StepContext } from '../../../src/steps/context';

// The two parts are stand-ins here, so the order is what is tested: each has its own tests (fix-ci, cleanup).
const calls: string[] = [];
vi.mock('../../../src/steps/ci-status', () => ({
  lookAtCiWhenRunEnds: async (_ctx: unknown, issue: number, run: number) => {
    // The look can merge a pull request or start a follow-up on its branch: cleanup must come after.
    await new Promise((r) => setTimeout(r, 5));
    calls.push(`ci-look ${issue}/${run}`);
  },
}));
vi.mock('../../../src/steps/cleanup', () => ({
  tidyUp: async (_ctx: unknown, issue: number) => {
    calls.push(`cleanup ${issue}`);
  },
}));

describe("a run's end: one order for finish, advance and /crew abort", () => {
  it('looks at CI first and cleans up after the look has finished', async () => {
    const { afterRunEnded } = await import('../../../src/steps/run-end');
    await afterRunEnded({} as StepContext, 7, 2);
    expect(calls).toEqual(['ci-look 7/2', 'cleanup 7']);
  });

  it('reportEndedRun (advance and abort) ends with it, so neither calls the CI look or cleanup on its own', async () => {
    const { readFile } = await import('node:fs/promises');
    const src = (p: string) => readFile(new URL(`../../../src/steps/${p}`, import.meta.url), 'utf8');
    for (const p of ['advance.ts', 'commands/abort.ts', 'finish.ts']) {
      const text = await src(p);
      expect(text, p).not.toMatch(/\b(lookAtCiWhenRunEnds|tidyUp)\(/);
    }
    expect(await src('finish.ts')).toMatch(/export async function reportEndedRun[\s\S]*await afterRunEnded\(ctx, issue, run\);\n}/);
  });
});
