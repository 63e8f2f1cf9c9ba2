import { runMinutes } from '../domain/actions-minutes';
import { against, type CostEstimate, type Range } from '../domain/cost-estimate';
import { totalUsage, type RunView } from '../domain/run-state';

/**
 * What a run costs, in the words the plan comment, the approval request and the report share:
 * model use in USD and billable GitHub Actions minutes (domain/actions-minutes.ts), and the
 * estimate made with the plan (domain/estimate.ts) beside the actual figures. Pure.
 */

/** Dollars: cents, or hundredths of a cent below one cent, so a small run does not read as free. */
export function money(usd: number): string {
  return `$${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const span = (r: Range, show: (n: number) => string) => (r.low === r.high ? show(r.low) : `${show(r.low)}–${show(r.high)}`);

/** Said after a usage line's cost: what the run's jobs bill so far, or that a local run bills none; empty while nothing is recorded. */
export function minutesNote(view: RunView): string {
  if (view.run.host === 'local') return ' · no Actions minutes (a local run)';
  const jobs = view.jobs ?? [];
  return jobs.length ? ` · ${plural(runMinutes(jobs), 'billable Actions minute')}` : '';
}

/** The estimate as one sentence: both ranges, what is already in them, what they rest on, and the hard cap. */
export function estimateText(e: CostEstimate): string {
  const minutes = e.minutes ? ` and ${span(e.minutes, String)} billable Actions minutes` : '';
  const spent =
    e.spentMinutes !== null ? `planning's ${money(e.spentUsd)} and ${plural(e.spentMinutes, 'minute')} included` : `planning's ${money(e.spentUsd)} included`;
  const local = e.minutes ? '' : '; a local run bills no Actions minutes';
  const basis = e.basis.runs
    ? `based on ${plural(e.basis.runs, 'earlier run')} of this repository${e.basis.tasks ? ` (${plural(e.basis.tasks, 'task')})` : ''}`
    : "based on the plan and crew's assumptions (no earlier runs on record)";
  return `${span(e.costUsd, money)} of model use${minutes} for the whole run (${spent})${local} · ${basis} · model use stops at ${money(e.capUsd)} (\`budgets.run\`)`;
}

const WHERE = { below: 'under the estimate', within: 'within the estimate', above: 'over the estimate' } as const;

/** The report's line: the estimate made with the plan, and what the run actually spent and billed so far. */
export function estimateVsActual(view: RunView): string | undefined {
  const e = view.run.estimate;
  if (!e) return undefined;
  const spent = totalUsage(view).costUsd;
  const cost = `model use ${span(e.costUsd, money)} estimated, ${money(spent)} spent (${WHERE[against(e.costUsd, spent)]})`;
  if (!e.minutes || view.run.host === 'local') return `**Estimate vs actual:** ${cost}; a local run bills no Actions minutes`;
  const billed = runMinutes(view.jobs ?? []);
  return `**Estimate vs actual:** ${cost} · Actions minutes ${span(e.minutes, String)} estimated, ${billed} billed so far (${WHERE[against(e.minutes, billed)]})`;
}

/** The retrospective's line: the estimate beside what the run spent, or what it spent when no estimate was made. */
export function runCostLine(view: RunView): string {
  return estimateVsActual(view) ?? `**Cost:** ${money(totalUsage(view).costUsd)} of model use (no estimate was made: the run ended before its plan)`;
}

/** The last words of a local run (`crew run`): what it spent against the estimate, and that it billed no Actions minutes. */
export function localCostLine(view: RunView): string {
  const spent = totalUsage(view).costUsd;
  const e = view.run.estimate;
  const estimate = e ? ` (estimated ${span(e.costUsd, money)}: ${WHERE[against(e.costUsd, spent)]})` : '';
  return `Cost: about ${money(spent)} of model use${estimate}. A local run bills no GitHub Actions minutes: it ran on this machine.`;
}
