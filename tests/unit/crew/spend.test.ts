import { describe, expect, it } from 'vitest';
import { budgetVerdict, nextUtcDay, nextUtcMonth, rateAllows, runsToday, spendSummary, typicalRunCost, type RunSpend } from '../../../src/domain/spend';

const run = (issue: number, createdAt: string, costUsd: number, over: Partial<RunSpend> = {}): RunSpend => ({
  issue,
  run: 1,
  createdAt,
  costUsd,
  by: 'alice',
  finished: true,
  automatic: false,
  ...over,
});

describe('repository spend (domain/spend.ts)', () => {
  it('days and months are UTC, and reset at the next midnight and the first of the next month (the year too)', () => {
    expect(nextUtcDay(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(nextUtcDay(new Date('2028-02-28T10:00:00Z')).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(nextUtcMonth(new Date('2026-12-06T10:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(nextUtcMonth(new Date('2026-01-31T23:00:00Z')).toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });

  it("sums a run's whole cost on the UTC day and month it started, and lists the month's costliest runs", () => {
    const runs = [
      run(1, '2026-12-06T00:00:00Z', 0.5),
      run(2, '2026-12-05T23:59:59Z', 2),
      run(3, '2026-11-30T23:00:00Z', 9),
      run(4, '2026-12-06T23:59:59Z', 0.25),
      run(5, 'not a time', 100),
    ];
    const s = spendSummary(runs, new Date('2026-12-06T12:00:00Z'), { day: 1 });
    expect(s.day).toEqual({ period: 'day', spentUsd: 0.75, budgetUsd: 1, resetsAt: '2026-12-07T00:00:00Z', runs: 2 });
    expect(s.month).toEqual({ period: 'month', spentUsd: 2.75, budgetUsd: undefined, resetsAt: '2027-01-01T00:00:00Z', runs: 3 });
    expect(s.top.map((r) => r.issue)).toEqual([2, 1, 4]);
  });

  it('a typical run is the median of the newest finished runs; unfinished ones are left out', () => {
    expect(typicalRunCost([])).toBe(0);
    expect(typicalRunCost([run(1, '2026-12-01T00:00:00Z', 1), run(2, '2026-12-02T00:00:00Z', 3), run(3, '2026-12-03T00:00:00Z', 10)])).toBe(3);
    expect(
      typicalRunCost([run(1, '2026-12-01T00:00:00Z', 1), run(2, '2026-12-02T00:00:00Z', 2), run(3, '2026-12-03T00:00:00Z', 50, { finished: false })]),
    ).toBe(1.5);
  });

  it('refuses at the budget or when a typical run would pass it, warns from 80 %, and looks at the day before the month', () => {
    const at = (day: number, month: number) => ({
      day: { period: 'day' as const, spentUsd: day, budgetUsd: 1, resetsAt: 'd', runs: 1 },
      month: { period: 'month' as const, spentUsd: month, budgetUsd: 10, resetsAt: 'm', runs: 1 },
      top: [],
    });
    expect(budgetVerdict(at(0.5, 5), 0.2)).toEqual({ kind: 'ok' });
    expect(budgetVerdict(at(0.79, 5), 0.2)).toEqual({ kind: 'ok' });
    expect(budgetVerdict(at(0.8, 5), 0.2)).toMatchObject({ kind: 'warn', near: { period: 'day' } });
    expect(budgetVerdict(at(0.5, 8.5), 0.2)).toMatchObject({ kind: 'warn', near: { period: 'month' } });
    expect(budgetVerdict(at(0.81, 5), 0.2)).toMatchObject({ kind: 'refused', over: { period: 'day' }, typicalUsd: 0.2 });
    expect(budgetVerdict(at(1, 5), 0)).toMatchObject({ kind: 'refused', over: { period: 'day' } });
    expect(budgetVerdict(at(1.5, 12), 0)).toMatchObject({ kind: 'refused', over: { period: 'day' } });
    expect(budgetVerdict(at(0.1, 10), 0)).toMatchObject({ kind: 'refused', over: { period: 'month' } });
    // No budgets set: never refused, never warned.
    const none = spendSummary([run(1, '2026-12-06T00:00:00Z', 1000)], new Date('2026-12-06T12:00:00Z'), {});
    expect(budgetVerdict(none, 1000)).toEqual({ kind: 'ok' });
  });

  it('counts a person’s runs of the UTC day without case, leaving out fix_ci’s; rate_exempt logins are never limited', () => {
    const runs = [
      run(1, '2026-12-06T01:00:00Z', 0, { by: 'Alice' }),
      run(2, '2026-12-06T02:00:00Z', 0, { by: 'alice', automatic: true }),
      run(3, '2026-12-05T23:00:00Z', 0),
      run(4, '2026-12-06T03:00:00Z', 0, { by: 'bob' }),
      run(5, '2026-12-06T03:00:00Z', 0, { by: null }),
    ];
    expect(runsToday(runs, 'ALICE', new Date('2026-12-06T12:00:00Z'))).toBe(1);
    expect(runsToday(runs, 'alice', new Date('2026-12-05T12:00:00Z'))).toBe(1);
    expect(rateAllows(1, 'alice', { runs_per_person_per_day: 2, rate_exempt: [] })).toBe(true);
    expect(rateAllows(2, 'alice', { runs_per_person_per_day: 2, rate_exempt: [] })).toBe(false);
    expect(rateAllows(50, 'alice', { runs_per_person_per_day: 2, rate_exempt: ['ALICE'] })).toBe(true);
  });
});
