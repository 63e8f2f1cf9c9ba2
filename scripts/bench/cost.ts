import { billableMinutes } from '../../src/domain/actions-minutes';
import { against, type CostEstimate, type Range } from '../../src/domain/cost-estimate';
import { usageOf } from '../../src/domain/pricing';
import type { FakeGitHub } from '../../tests/support/github/fake-github';
import type { RecordedRequest } from '../../tests/support/anthropic/index';

/**
 * What a run costs, crew against a single agent on the same DAG, and how close crew's estimate
 * (made with the plan, before any task ran) came: model cost, every request priced at its own
 * model (domain/pricing.ts), and billable Actions minutes (domain/actions-minutes.ts: each job
 * rounded up to a whole minute).
 *
 * Minutes are counted at full scale: each job's time in the offline world ÷ the time scale, then
 * rounded up job by job. The offline world shrinks model time by the time scale; dividing gives it
 * back (and stretches crew's own seconds by as much, which at the bench's scale stands for a job's
 * start on GitHub). The single agent runs in one job, as claude-code-action does, for as long as
 * its tasks took.
 */

/** What one way's run spent: model USD, billable minutes at full scale, and the jobs they came from. */
export interface WayCost {
  usd: number;
  minutes: number;
  jobs: number;
}

export interface CostFigure {
  scenario: string;
  tasks: number;
  crew: WayCost & {
    /** crew's estimate, as run.json holds it; null if the run recorded none. */
    estimate: { usd: Range; minutes: Range | null } | null;
    usdAgainst: 'below' | 'within' | 'above' | null;
    minutesAgainst: 'below' | 'within' | 'above' | null;
  };
  single: WayCost;
}

/** What the bench keeps of a crew run for its cost: priced requests, job times (offline ms), and the estimate crew recorded. */
export interface CostInput {
  usd: number;
  jobsMs: number[];
  estimate?: CostEstimate | null;
}

/** The model cost of what a fake Anthropic API answered, each request at the model it named. */
export function pricedUsd(requests: ReadonlyArray<RecordedRequest>): number {
  let usd = 0;
  for (const q of requests) {
    if (!q.usage) continue;
    usd += usageOf(q.body.model, {
      input: q.usage.input_tokens,
      output: q.usage.output_tokens,
      cacheRead: q.usage.cache_read_input_tokens,
      cacheWrite: q.usage.cache_creation_input_tokens,
    }).costUsd;
  }
  return Math.round(usd * 1e6) / 1e6;
}

/** Billable minutes at full scale: each job's offline time ÷ the time scale, rounded up on its own. */
export function fullScaleMinutes(jobsMs: readonly number[], timeScale: number): number {
  return jobsMs.reduce((sum, ms) => sum + billableMinutes(ms / timeScale), 0);
}

/** The estimate crew recorded for the bench's one run (issue 1, run 1), read from crew/state. */
export async function recordedEstimate(gh: FakeGitHub): Promise<CostEstimate | null> {
  const text = await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json');
  return text ? ((JSON.parse(text) as { estimate?: CostEstimate | null }).estimate ?? null) : null;
}

export function costFigure(scenario: string, tasks: number, crew: CostInput, single: CostInput, timeScale: number): CostFigure {
  const e = crew.estimate ?? null;
  const minutes = fullScaleMinutes(crew.jobsMs, timeScale);
  return {
    scenario,
    tasks,
    crew: {
      usd: crew.usd,
      minutes,
      jobs: crew.jobsMs.length,
      estimate: e && { usd: e.costUsd, minutes: e.minutes },
      usdAgainst: e ? against(e.costUsd, crew.usd) : null,
      minutesAgainst: e?.minutes ? against(e.minutes, minutes) : null,
    },
    single: { usd: single.usd, minutes: fullScaleMinutes(single.jobsMs, timeScale), jobs: single.jobsMs.length },
  };
}

const usd = (x: number) => `$${x < 0.01 && x > 0 ? x.toFixed(4) : x.toFixed(2)}`;
const range = (r: Range, show: (n: number) => string) => `${show(r.low)}–${show(r.high)}`;
const WORD = { below: 'under', within: 'within', above: 'over' } as const;
const came = (e: Range | null | undefined, a: 'below' | 'within' | 'above' | null, show: (n: number) => string) =>
  e && a ? `${range(e, show)} (${WORD[a]})` : 'none recorded';

/** The one-screen lines: per scenario, crew's cost and minutes, its estimate, and the single agent's. */
export function costLines(figures: readonly CostFigure[]): string[] {
  return figures.map(
    (f) =>
      `Cost, ${f.scenario}: crew ${usd(f.crew.usd)} and ${f.crew.minutes} min in ${f.crew.jobs} jobs (estimate ${came(f.crew.estimate?.usd, f.crew.usdAgainst, usd)}, ${came(f.crew.estimate?.minutes, f.crew.minutesAgainst, String)} min); single agent ${usd(f.single.usd)} and ${f.single.minutes} min in 1 job`,
  );
}

/** The Markdown section of bench/results.md and docs/PERFORMANCE.md. */
export function costMarkdown(figures: readonly CostFigure[], heading: string): string[] {
  if (!figures.length) return [];
  return [
    `${heading} What a run costs`,
    '',
    "Model cost (each request at its model's price) and billable Actions minutes at full scale (each job's time in the offline world ÷ the time scale, rounded up to a whole minute job by job, as GitHub bills). crew's estimate is the one it recorded with the plan, before any task ran; this repository had no earlier runs, so it rests on the plan and crew's assumptions.",
    '',
    '| Scenario | Tasks | crew model cost | crew estimate | crew Actions minutes (jobs) | crew estimate | single agent model cost | single agent minutes (1 job) |',
    '|---|---|---|---|---|---|---|---|',
    ...figures.map(
      (f) =>
        `| ${f.scenario} | ${f.tasks} | ${usd(f.crew.usd)} | ${came(f.crew.estimate?.usd, f.crew.usdAgainst, usd)} | ${f.crew.minutes} (${f.crew.jobs}) | ${came(f.crew.estimate?.minutes, f.crew.minutesAgainst, String)} | ${usd(f.single.usd)} | ${f.single.minutes} |`,
    ),
    '',
  ];
}
