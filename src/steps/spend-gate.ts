import {
  budgetVerdict,
  nextUtcDay,
  periodSpent,
  type PeriodSpend,
  rateAllows,
  runsToday,
  spendSummary,
  spendWarning,
  typicalRunCost,
  type SpendSummary,
  type SpendWarning,
} from '../domain/spend';
import { budgetRefusal, rateRefusal } from '../render/spend';
import { readRunSpends } from '../state/spend';
import { isoSeconds } from '../clock';
import type { StepContext } from './context';

/**
 * Whether a new run may start: the repository budgets (`budgets.day`, `budgets.month`) and the
 * rate per person (`limits.runs_per_person_per_day`), summed over every run on crew/state
 * (domain/spend.ts). Read from the state this job has already read, so it costs no request.
 */

export type Admission =
  { kind: 'admit'; warning?: SpendWarning } | { kind: 'refused'; why: 'budget'; text: string } | { kind: 'refused'; why: 'rate'; text: string; login: string };

export async function admission(ctx: StepContext, req: { by: string; automatic: boolean }): Promise<Admission> {
  const config = await ctx.config();
  const now = ctx.clock.now();
  const { runs, problems } = await readRunSpends(ctx.state);
  for (const p of problems) ctx.log.warn(p);
  const { day, month } = config.budgets;
  const verdict = budgetVerdict(spendSummary(runs, now, { day, month }), typicalRunCost(runs));
  if (verdict.kind === 'refused') return { kind: 'refused', why: 'budget', text: budgetRefusal(verdict.over, verdict.typicalUsd) };
  if (!req.automatic) {
    const count = runsToday(runs, req.by, now);
    if (!rateAllows(count, req.by, config.limits))
      return {
        kind: 'refused',
        why: 'rate',
        login: req.by,
        text: rateRefusal(req.by, count, config.limits.runs_per_person_per_day, isoSeconds(nextUtcDay(now))),
      };
  }
  return verdict.kind === 'warn' ? { kind: 'admit', warning: spendWarning(verdict.near) } : { kind: 'admit' };
}

/** The repository's spend today and this month against its budgets, and the month's costliest runs (`/crew status`, `/crew doctor`). */
export async function repositorySpend(ctx: StepContext): Promise<SpendSummary> {
  const { day, month } = (await ctx.config()).budgets;
  const { runs, problems } = await readRunSpends(ctx.state);
  for (const p of problems) ctx.log.warn(p);
  return spendSummary(runs, ctx.clock.now(), { day, month });
}

/**
 * The repository budget (`budgets.day`, `budgets.month`) the spend has reached, if any (#52): a running
 * run stops at its next step and asks, and `/crew continue`, `/crew resume` and `/crew retry` wait for room.
 * Read from the state this job has seen, like `admission`.
 */
export async function repositoryBudgetReached(
  ctx: StepContext,
  /** What this job spent that crew/state does not hold yet (a parallel leg's attempts before its candidate is recorded). */
  unrecordedUsd = 0,
): Promise<PeriodSpend | undefined> {
  const { day, month } = (await ctx.config()).budgets;
  if (day === undefined && month === undefined) return undefined;
  const s = await repositorySpend(ctx);
  const plus = (p: PeriodSpend): PeriodSpend => ({ ...p, spentUsd: p.spentUsd + unrecordedUsd });
  return periodSpent({ ...s, day: plus(s.day), month: plus(s.month) });
}
