import { z } from 'zod';

/**
 * What the repository has spent on models across runs, against `budgets.day` and `budgets.month`,
 * and how many runs each person started today, against `limits.runs_per_person_per_day` (pure).
 * Days and months are UTC: a run's whole recorded cost counts on the UTC day (and month) it started.
 * steps/spend-gate.ts asks before a run starts; `/crew status` and `crew doctor` show the sums.
 */

/** One run as the sums see it: from its record and task files on crew/state, or the digest of a pruned run. */
export interface RunSpend {
  issue: number;
  run: number;
  /** When it started (ISO): the UTC day and month its cost counts in. */
  createdAt: string;
  costUsd: number;
  /** Who asked for it (null: a digest written before digests kept it). */
  by: string | null;
  /** It ended (its phase is final, or only its digest is left): its cost is all there is. */
  finished: boolean;
  /** Started by a failed CI run (`fix_ci`), not by a person: the rate per person leaves it out. */
  automatic: boolean;
}

type Period = 'day' | 'month';

export interface PeriodSpend {
  period: Period;
  /** Dollars spent by runs that started in this UTC day or month. */
  spentUsd: number;
  /** The budget (`budgets.day` / `budgets.month`), when one is set. */
  budgetUsd: number | undefined;
  /** When the period ends and its count starts again (ISO, UTC). */
  resetsAt: string;
  runs: number;
}

export interface SpendSummary {
  day: PeriodSpend;
  month: PeriodSpend;
  /** The costliest runs of the month, most first. */
  top: RunSpend[];
}

/** The start of the next UTC day after `now`. */
export function nextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** The first of the next UTC month after `now`. */
export function nextUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const monthOf = (d: Date) => d.toISOString().slice(0, 7);
const inPeriod = (at: string, now: Date, period: Period) => {
  const t = new Date(at);
  if (Number.isNaN(t.getTime())) return false;
  return period === 'day' ? dayOf(t) === dayOf(now) : monthOf(t) === monthOf(now);
};
const cents = (usd: number) => Math.round(usd * 1e6) / 1e6;

/** How many of the costliest runs `/crew status` and `crew doctor` list. */
const TOP_RUNS = 5;

export function spendSummary(runs: readonly RunSpend[], now: Date, budgets: { day?: number; month?: number }): SpendSummary {
  const period = (p: Period): PeriodSpend => {
    const mine = runs.filter((r) => inPeriod(r.createdAt, now, p));
    return {
      period: p,
      spentUsd: cents(mine.reduce((sum, r) => sum + r.costUsd, 0)),
      budgetUsd: budgets[p],
      resetsAt: (p === 'day' ? nextUtcDay(now) : nextUtcMonth(now)).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      runs: mine.length,
    };
  };
  const top = runs
    .filter((r) => inPeriod(r.createdAt, now, 'month') && r.costUsd > 0)
    .sort((a, b) => b.costUsd - a.costUsd || a.issue - b.issue || a.run - b.run)
    .slice(0, TOP_RUNS);
  return { day: period('day'), month: period('month'), top };
}

/** How many finished runs the typical cost of a run looks at: the newest, like an estimate's. */
const TYPICAL_OF = 20;

/**
 * What a run here typically costs: the median of the newest finished runs' costs (0 with none).
 * A run that starts is expected to add about this much, so a budget is refused once the spend plus
 * this would pass it, not only after it already has.
 */
export function typicalRunCost(runs: readonly RunSpend[]): number {
  const costs = runs
    .filter((r) => r.finished)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, TYPICAL_OF)
    .map((r) => r.costUsd)
    .sort((a, b) => a - b);
  if (!costs.length) return 0;
  const mid = Math.floor(costs.length / 2);
  return cents(costs.length % 2 ? costs[mid]! : (costs[mid - 1]! + costs[mid]!) / 2);
}

/** A budget's state as a new run sees it: past it (refused), near it (at least WARN_AT, a warning in the plan comment), or neither. */
type BudgetVerdict = { kind: 'ok' } | { kind: 'refused'; over: PeriodSpend; typicalUsd: number } | { kind: 'warn'; near: PeriodSpend };

/** The share of a budget from which the plan comment warns. */
const WARN_AT = 0.8;

/**
 * Whether a run may start under `budgets.day` and `budgets.month`: refused when the period's spend
 * has reached its budget, or the typical run would take it past; the day is looked at first (it
 * resets first). Otherwise a warning when a period's spend is at WARN_AT of its budget or more.
 */
export function budgetVerdict(summary: SpendSummary, typicalUsd: number): BudgetVerdict {
  const periods = [summary.day, summary.month].filter((p) => p.budgetUsd !== undefined);
  const over = periods.find((p) => p.spentUsd >= p.budgetUsd! || p.spentUsd + typicalUsd > p.budgetUsd!);
  if (over) return { kind: 'refused', over, typicalUsd };
  const near = periods.find((p) => p.spentUsd >= WARN_AT * p.budgetUsd!);
  return near ? { kind: 'warn', near } : { kind: 'ok' };
}

/** What the plan comment says of a budget near its end: kept on the run's record when it starts. */
export const SpendWarningSchema = z.looseObject({
  period: z.enum(['day', 'month']),
  spentUsd: z.number(),
  budgetUsd: z.number(),
  resetsAt: z.string(),
});
export type SpendWarning = z.output<typeof SpendWarningSchema>;

export function spendWarning(near: PeriodSpend): SpendWarning {
  return { period: near.period, spentUsd: near.spentUsd, budgetUsd: near.budgetUsd!, resetsAt: near.resetsAt };
}

/** The runs a person started on the UTC day of `now`, by login (GitHub logins compare without case); automatic ones left out. */
export function runsToday(runs: readonly RunSpend[], login: string, now: Date): number {
  const who = login.toLowerCase();
  return runs.filter((r) => !r.automatic && r.by?.toLowerCase() === who && inPeriod(r.createdAt, now, 'day')).length;
}

/** Whether a person may start one more run today under `limits`; logins in `rate_exempt` may always. */
export function rateAllows(count: number, login: string, limits: { runs_per_person_per_day: number; rate_exempt: readonly string[] }): boolean {
  if (limits.rate_exempt.some((l) => l.toLowerCase() === login.toLowerCase())) return true;
  return count < limits.runs_per_person_per_day;
}

/**
 * The repository budget a run already under way has used up (#52): the day's or the month's spend has
 * reached it (no typical run added: this run's own cost is in the spend). The day first, as it resets first.
 */
export function periodSpent(summary: SpendSummary): PeriodSpend | undefined {
  return [summary.day, summary.month].find((p) => p.budgetUsd !== undefined && p.spentUsd >= p.budgetUsd);
}
