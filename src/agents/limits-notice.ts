import { tokensOf, type Usage } from '../domain/run-state';

/** Turns before the end at which the model is warned to wrap up. */
export const WARN_TURNS = 3;

export type LimitKind = 'max_turns' | 'budget';

export interface LimitState {
  /** Turns done, of `maxTurns`. */
  turn: number;
  maxTurns: number;
  usage: Usage;
  tokens?: number;
  costUsd?: number;
  /** What each recent turn cost, in budget tokens and dollars: how many more the budget holds. */
  recent: Array<{ tokens: number; costUsd: number }>;
}

const n = (x: number) => Math.max(0, Math.round(x)).toLocaleString('en-US');

/** Turns the budget still holds at the recent pace; Infinity without a budget or a pace. */
function turnsTheBudgetHolds(s: LimitState): number {
  if (!s.recent.length) return Infinity;
  const pace = (f: (r: LimitState['recent'][number]) => number) => s.recent.reduce((sum, r) => sum + f(r), 0) / s.recent.length;
  const byTokens = s.tokens !== undefined && pace((r) => r.tokens) > 0 ? (s.tokens - tokensOf(s.usage)) / pace((r) => r.tokens) : Infinity;
  const byCost = s.costUsd !== undefined && pace((r) => r.costUsd) > 0 ? (s.costUsd - s.usage.costUsd) / pace((r) => r.costUsd) : Infinity;
  return Math.floor(Math.min(byTokens, byCost));
}

/**
 * What the model reads with each tool result about its limits: the turns and the budget left, and a
 * few turns before either runs out, to wrap up. Claude Code and mini-swe-agent tell the model nothing
 * and let it run into the wall; a worker told its limits can leave its work in a state the next attempt
 * (or a person) can use.
 */
export function limitsNotice(s: LimitState): string {
  const parts = [`crew: turn ${s.turn} of ${s.maxTurns} done (${s.maxTurns - s.turn} left)`];
  const budget: string[] = [];
  if (s.tokens !== undefined) budget.push(`${n(s.tokens - tokensOf(s.usage))} of ${n(s.tokens)} budget tokens`);
  if (s.costUsd !== undefined) budget.push(`$${Math.max(0, s.costUsd - s.usage.costUsd).toFixed(2)} of $${s.costUsd.toFixed(2)}`);
  if (budget.length) parts.push(`this attempt's budget left: ${budget.join(', ')}`);
  const left = Math.min(s.maxTurns - s.turn, turnsTheBudgetHolds(s));
  let text = `${parts.join('; ')}.`;
  if (left <= WARN_TURNS)
    text += ` Only about ${left} turn${left === 1 ? '' : 's'} left before this attempt stops: finish the change you are making, make sure it is written to the files, and call report_result with what is done and what is left. crew commits your changes to your branch either way.`;
  return text;
}

/** The one turn the model gets after a limit is reached: report, nothing else. */
export function lastTurnNotice(kind: LimitKind): string {
  const what = kind === 'max_turns' ? "this attempt's turns are used up" : "this attempt's budget is spent";
  return `crew: ${what}, so this is your last turn. Call report_result now, and nothing else: what you did, what is left, and what the next attempt should do first (status partial if the task is not done). crew has kept your changes and commits them to your branch. No other tool will run.`;
}

/** What a tool call other than the report gets in the last turn. */
export const NOT_IN_LAST_TURN = 'crew did not run this call: this is the last turn of the attempt, in which only report_result runs.';
