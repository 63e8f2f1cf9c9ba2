import { describe, expect, it } from 'vitest';
import { RunBudgetSpent, withinRunBudget } from '../../../src/agents/run-budget';
import { ZERO_USAGE, type Usage } from '../../../src/domain/run-state';
import type { Model, ModelRequest } from '../../../src/ports';

const request: ModelRequest = {
  model: 'claude-haiku-4-5',
  system: 's',
  tools: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  maxTokens: 100,
};
const usage = (tokens: number, costUsd = 0): Usage => ({ ...ZERO_USAGE, inputTokens: tokens, costUsd });

function counting(perReply: Usage): Model & { calls: number } {
  const m = {
    calls: 0,
    async complete() {
      m.calls++;
      return { content: [{ type: 'text' as const, text: 'ok' }], stopReason: 'end_turn' as const, usage: perReply };
    },
  };
  return m;
}

describe('the run budget for every agent but the worker (withinRunBudget)', () => {
  it('lets requests through while the run has budget left, counting each reply', async () => {
    const inner = counting(usage(400));
    const model = withinRunBudget(inner, { tokens: 1000, cost_usd: 5 }, usage(100));
    await model.complete(request); // 100 spent before: 500 after
    await model.complete(request); // 900 after
    await model.complete(request); // still under 1,000 before it: 1,300 after
    await expect(model.complete(request)).rejects.toThrow(RunBudgetSpent);
    expect(inner.calls).toBe(3);
  });

  it('refuses the first request when the run spent its tokens or its dollars before the step began, naming the keys', async () => {
    const inner = counting(usage(1));
    await expect(withinRunBudget(inner, { tokens: 1000, cost_usd: 5 }, usage(1000)).complete(request)).rejects.toThrow(
      "the run's model budget is spent: 1,000 tokens of `budgets.run.tokens` 1,000, $0.00 of `budgets.run.cost_usd` $5.00",
    );
    await expect(withinRunBudget(inner, { tokens: 1000, cost_usd: 5 }, usage(10, 5.01)).complete(request)).rejects.toThrow(
      '$5.01 of `budgets.run.cost_usd` $5.00',
    );
    expect(inner.calls).toBe(0);
  });
});
