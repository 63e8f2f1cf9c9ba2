import { describe, expect, it } from 'vitest';
import { limitsNotice, lastTurnNotice } from '../../../src/agents/limits-notice';
import { parseConfig } from '../../../src/config/schema';
import { attemptAllowance, noRoomForAnotherAttempt } from '../../../src/domain/budgets';
import { contextWindow } from '../../../src/domain/context-window';
import { effortFor, effortLevels } from '../../../src/domain/effort';
import { NOTHING_SPENT, tokensOf, ZERO_USAGE } from '../../../src/domain/run-state';

describe('budgets by what tokens cost (#49)', () => {
  it('counts a cache read at a tenth and a cache write at 1.25 of an input token', () => {
    expect(tokensOf({ ...ZERO_USAGE, inputTokens: 1000, outputTokens: 500, cacheReadTokens: 100_000, cacheWriteTokens: 4000 })).toBe(
      1000 + 500 + 10_000 + 5000,
    );
  });

  it("gives an attempt its own budget within what the task's attempts and the run have left", () => {
    const { budgets } = parseConfig(undefined);
    expect(budgets).toEqual({
      run: { tokens: 20_000_000, cost_usd: 50 },
      task: { tokens: 6_000_000, cost_usd: 20 },
      attempt: { tokens: 3_000_000, cost_usd: 10 },
    });
    expect(attemptAllowance(budgets, NOTHING_SPENT, ZERO_USAGE)).toEqual({ tokens: 3_000_000, costUsd: 10 });
    expect(attemptAllowance(budgets, { tokens: 4_500_000, costUsd: 3, ms: 0 }, ZERO_USAGE)).toEqual({ tokens: 1_500_000, costUsd: 10 });
    expect(attemptAllowance(budgets, NOTHING_SPENT, { ...ZERO_USAGE, costUsd: 45 })).toEqual({ tokens: 3_000_000, costUsd: 5 });
    expect(noRoomForAnotherAttempt(budgets, { tokens: 6_000_000, costUsd: 1, ms: 0 }, ZERO_USAGE)).toMatch(/^the task's budget is spent/);
    expect(noRoomForAnotherAttempt(budgets, NOTHING_SPENT, { ...ZERO_USAGE, costUsd: 50 })).toMatch(/^the run's budget is spent/);
    expect(noRoomForAnotherAttempt(budgets, { tokens: 5_999_999, costUsd: 19.99, ms: 0 }, ZERO_USAGE)).toBeNull();
  });
});

describe('what the worker is told of its limits (#49)', () => {
  const usage = { ...ZERO_USAGE, inputTokens: 1_000_000, costUsd: 4 };
  it('the turns and budget left, and a warning once about three turns are left, by turns or by the pace of spending', () => {
    expect(limitsNotice({ turn: 10, maxTurns: 100, usage, tokens: 3_000_000, costUsd: 10, recent: [{ tokens: 20_000, costUsd: 0.1 }] })).toBe(
      "crew: turn 10 of 100 done (90 left); this attempt's budget left: 2,000,000 of 3,000,000 budget tokens, $6.00 of $10.00.",
    );
    expect(limitsNotice({ turn: 97, maxTurns: 100, usage, recent: [] })).toContain('Only about 3 turns left before this attempt stops');
    // $6 left at $2 a turn: three turns.
    expect(limitsNotice({ turn: 10, maxTurns: 100, usage, costUsd: 10, recent: [{ tokens: 1, costUsd: 2 }] })).toContain('Only about 3 turns left');
    expect(lastTurnNotice('budget')).toMatch(/^crew: this attempt's budget is spent, so this is your last turn\. Call report_result now/);
  });
});

describe("each model's window and effort (#49)", () => {
  it('compacts by the documented window: 1M for the 5 and 5.5 families, 200k for 4.x and unknown models', () => {
    expect(['claude-opus-5-5', 'us.anthropic.claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-sonnet-5'].map(contextWindow)).toEqual([1e6, 1e6, 1e6, 1e6]);
    expect(['claude-sonnet-4-5', 'claude-haiku-4-5-20251001', 'my-proxy-model'].map(contextWindow)).toEqual([200_000, 200_000, 200_000]);
  });

  it('knows which models take effort, and sends a role default only to them', () => {
    expect(effortLevels('claude-opus-4-5-20251101')).toEqual(['low', 'medium', 'high']);
    expect(effortLevels('global.anthropic.claude-opus-5-5')).toContain('max');
    expect(effortLevels('claude-sonnet-4-5')).toBeUndefined();
    expect(effortFor({}, 'worker', 'claude-sonnet-5-5')).toBe('high');
    expect(effortFor({}, 'planner', 'claude-sonnet-5-5')).toBeUndefined();
    expect(effortFor({}, 'worker', 'claude-sonnet-4-5')).toBeUndefined();
    expect(effortFor({ worker: 'low' }, 'worker', 'claude-sonnet-4-5')).toBe('low');
  });
});
