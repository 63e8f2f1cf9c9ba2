import type { Usage } from './run-state';

/**
 * USD per million tokens (published prices, November 2026). Cache writes cost 1.25×
 * input (5-minute TTL), cache reads 0.1×. An unknown model is priced as Sonnet, and
 * the report says the figure is an estimate either way.
 */
const PRICES: Array<{ match: RegExp; input: number; output: number }> = [
  { match: /haiku-5/, input: 0.1, output: 0.5 },
  { match: /haiku/, input: 1, output: 5 },
  { match: /opus-5-5/, input: 4, output: 20 },
  { match: /opus/, input: 5, output: 25 },
  { match: /sonnet-5/, input: 2, output: 10 },
  { match: /sonnet/, input: 3, output: 15 },
];

export function price(model: string): { input: number; output: number } {
  return PRICES.find((p) => p.match.test(model)) ?? { input: 2, output: 10 };
}

export function usageOf(model: string, tokens: { input: number; output: number; cacheRead: number; cacheWrite: number }): Usage {
  const p = price(model);
  const cost = (tokens.input * p.input + tokens.output * p.output + tokens.cacheRead * p.input * 0.1 + tokens.cacheWrite * p.input * 1.25) / 1e6;
  return {
    inputTokens: tokens.input,
    outputTokens: tokens.output,
    cacheReadTokens: tokens.cacheRead,
    cacheWriteTokens: tokens.cacheWrite,
    costUsd: Math.round(cost * 1e6) / 1e6,
  };
}
