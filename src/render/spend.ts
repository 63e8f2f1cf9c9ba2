import type { PeriodSpend, RunSpend, SpendSummary, SpendWarning } from '../domain/spend';
import { GITHUB, type Surface } from '../domain/surface';
import { money } from './cost';

/**
 * The repository's spend in words (domain/spend.ts): the refusals of a run past a budget or past a
 * person's rate, the plan comment's warning near a budget, and the lines `/crew status` and
 * `crew doctor` show. Pure.
 */

const KEY = { day: '`budgets.day`', month: '`budgets.month`' } as const;
const WHEN = { day: 'today (UTC)', month: 'this month (UTC)' } as const;

/** "2026-12-07 00:00 UTC" */
export function utcTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const percent = (p: { spentUsd: number; budgetUsd: number }) => `${Math.floor((100 * p.spentUsd) / p.budgetUsd)} %`;

/** The one comment on a run refused by a repository budget: the spend, the budget and when it resets. */
export function budgetRefusal(over: PeriodSpend, typicalUsd: number): string {
  const spent = `The repository's runs have spent ${money(over.spentUsd)} ${WHEN[over.period]}, against ${KEY[over.period]} of ${money(over.budgetUsd!)}`;
  const why =
    over.spentUsd >= over.budgetUsd! ? '.' : `, and a run here typically costs ${money(typicalUsd)} (the median of recent runs), so this one would pass it.`;
  return [
    `crew did not start this run: a repository budget is spent. ${spent}${why}`,
    '',
    `The ${over.period === 'day' ? "day's" : "month's"} count starts again at ${utcTime(over.resetsAt)}: ask again then, or raise ${KEY[over.period]} in \`.github/crew.yml\` on the default branch. No model was asked anything for this request.`,
  ].join('\n');
}

/** The refusal of a person past `limits.runs_per_person_per_day`. */
export function rateRefusal(login: string, count: number, limit: number, resetsAt: string): string {
  return `@${login}, crew did not start this run: you have started ${count} run${count === 1 ? '' : 's'} today (UTC), and \`limits.runs_per_person_per_day\` allows ${limit}. Your count starts again at ${utcTime(resetsAt)}. A maintainer can raise the limit, or add you to \`limits.rate_exempt\`, in \`.github/crew.yml\`.`;
}

/** The plan comment's warning when the run started with a budget at 80 % or more. */
export function spendWarningLine(w: SpendWarning): string {
  return `Budget: the repository's runs have spent ${money(w.spentUsd)} of ${KEY[w.period]} (${money(w.budgetUsd)}) ${WHEN[w.period]}, ${percent(w)}. crew starts no new run once a typical run would pass it; the count starts again at ${utcTime(w.resetsAt)}.`;
}

const periodLine = (p: PeriodSpend) =>
  `${p.period === 'day' ? 'Today' : 'This month'} (UTC): ${money(p.spentUsd)} in ${p.runs} run${p.runs === 1 ? '' : 's'}${
    p.budgetUsd === undefined
      ? ` (no ${KEY[p.period]})`
      : ` of ${KEY[p.period]} ${money(p.budgetUsd)} (${percent({ spentUsd: p.spentUsd, budgetUsd: p.budgetUsd })}), resets ${utcTime(p.resetsAt)}`
  }`;

/** The spend as `/crew status` and `crew doctor` show it: today's and this month's against the budgets, and the costliest runs of the month. */
export function spendLines(s: SpendSummary, runName: (r: RunSpend) => string): string[] {
  const lines = [periodLine(s.day), periodLine(s.month)];
  if (s.top.length) lines.push(`Costliest runs this month: ${s.top.map((r) => `${runName(r)} ${money(r.costUsd)}`).join(', ')}`);
  return lines;
}

/** `/crew status`'s spend section. */
export function spendComment(summary: SpendSummary, s: Surface = GITHUB): string {
  return [s.bold('Spend'), '', ...spendLines(summary, (r) => `#${r.issue} run ${r.run}`).map((l) => `- ${l}`)].join('\n');
}

/** `/crew doctor`'s line: the same, as one sentence. */
export function spendSentence(summary: SpendSummary): string {
  const lines = spendLines(summary, (r) => `#${r.issue} run ${r.run}`).map((l) => l.charAt(0).toLowerCase() + l.slice(1));
  return `the repository's spend: ${lines.join('; ')}.`;
}
