import type { PlanTask, Tier } from './plan';
import { usageOf } from './pricing';
import type { CostEstimate, Range } from './cost-estimate';

/**
 * What a run will likely cost, said before its tasks start: model cost in USD and billable
 * GitHub Actions minutes, each as a range. Pure.
 *
 * The range starts from what the run has already spent (planning, known exactly) and adds, per
 * task and for the finish (integration, the critic, the retrospective):
 * - where this repository has finished runs on record (at least MIN_SAMPLES figures of the kind
 *   asked for), the 25th and 90th percentiles of what they cost;
 * - otherwise a light and a heavy worker attempt at the task's model tier (PRIOR below), priced
 *   with domain/pricing.ts.
 * The high end never passes a hard limit: a task's `budgets.task.cost_usd`, the run's
 * `budgets.run.cost_usd`. Retries beyond what past runs show, extra critic rounds and merge jobs
 * are not in the prior; the run's budget is the hard cap, and the estimate says so.
 */

/** One finished run of the repository, as much as an estimate needs of it (state/past-runs.ts reads them). */
export interface PastRun {
  /** Every task that ran: its tier in the plan, its model cost over all attempts, and its work jobs' minutes (null when not recorded). */
  tasks: Array<{ tier: Tier; costUsd: number; minutes: number | null }>;
  /** What the run spent after its plan (integration, critic, retrospective); null when it did not record its own estimate. */
  afterPlan: { costUsd: number; minutes: number | null } | null;
}

export interface EstimateInput {
  at: string;
  /** Each task's tier, and how many attempts of it run side by side (#50; one when absent): each costs and bills as a task. */
  tasks: ReadonlyArray<Pick<PlanTask, 'tier'> & { attempts?: number }>;
  /** Model id per tier, for prices. */
  models: Record<Tier, string>;
  /** The critic's tier (`default_model`) and the retrospector's (null when the retrospective is off). */
  criticTier: Tier;
  retroTier: Tier | null;
  budgets: { run: { cost_usd: number }; task: { cost_usd: number } };
  taskTimeoutMinutes: number;
  /** Spent so far; minutes null for a local run. */
  spent: { costUsd: number; minutes: number | null };
  /** The plan waits for `/crew approve`, whose route job bills its own minute. */
  waitsForApproval: boolean;
  past: ReadonlyArray<PastRun>;
}

/** Figures of one kind needed before past runs replace the assumptions. */
export const MIN_SAMPLES = 3;
const LOW_Q = 0.25;
const HIGH_Q = 0.9;

type Tokens = { input: number; output: number; cacheRead: number; cacheWrite: number };

/**
 * crew's assumptions where a repository has no runs of its own yet (docs/ARCHITECTURE.md,
 * "What a run costs"). A light worker attempt: about 8 turns on a small context. A heavy one:
 * the 30 turns `worker_max_turns` allows by default, its context growing to about 100k tokens,
 * mostly read from the prompt cache. The critic judges once, lightly or with long command output;
 * the retrospector makes one call. Minutes: a light work job bills 2 (setup, checkout and a
 * minute of work), a heavy one runs 15 minutes (or the task's time limit) plus one; the finish
 * (advance, then the critic job with the pull request and the retrospective) bills 2 to 10.
 */
export const PRIOR = {
  worker: {
    light: { input: 4_000, output: 4_000, cacheRead: 100_000, cacheWrite: 20_000 },
    heavy: { input: 10_000, output: 40_000, cacheRead: 2_000_000, cacheWrite: 120_000 },
  },
  critic: {
    light: { input: 4_000, output: 3_000, cacheRead: 40_000, cacheWrite: 15_000 },
    heavy: { input: 10_000, output: 20_000, cacheRead: 600_000, cacheWrite: 60_000 },
  },
  retrospector: {
    light: { input: 10_000, output: 3_000, cacheRead: 0, cacheWrite: 0 },
    heavy: { input: 30_000, output: 8_000, cacheRead: 0, cacheWrite: 0 },
  },
  workMinutes: { light: 2, heavy: 15 },
  finishMinutes: { light: 2, heavy: 10 },
} as const;

const cost = (model: string, t: Tokens) => usageOf(model, t).costUsd;

/** The q-quantile of `values` (linear between neighbours). */
export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

function spread(samples: readonly number[]): Range | undefined {
  return samples.length >= MIN_SAMPLES ? { low: quantile(samples, LOW_Q), high: quantile(samples, HIGH_Q) } : undefined;
}

export function estimateRun(input: EstimateInput): CostEstimate {
  const actions = input.spent.minutes !== null;
  const runsUsed = new Set<number>();
  const tasksUsed = new Set<string>();
  /** Past figures of one kind, each with the run (and task) it came from; they count in the basis only when used. */
  type Sample = { run: number; task?: string; value: number };
  const use = (samples: Sample[]): Range | undefined => {
    const range = spread(samples.map((s) => s.value));
    if (range)
      for (const s of samples) {
        runsUsed.add(s.run);
        if (s.task) tasksUsed.add(s.task);
      }
    return range;
  };
  const pastTasks = (pick: (t: PastRun['tasks'][number]) => number | null): Sample[] =>
    input.past.flatMap((r, run) =>
      r.tasks.flatMap((t, i) => {
        const value = pick(t);
        return value === null ? [] : [{ run, task: `${run}:${i}`, value }];
      }),
    );

  // Model cost per task, by tier.
  let costLow = 0;
  let costHigh = 0;
  const byTier = new Map<Tier, number>();
  for (const t of input.tasks) byTier.set(t.tier, (byTier.get(t.tier) ?? 0) + (t.attempts ?? 1));
  for (const [tier, count] of byTier) {
    const past = use(pastTasks((t) => (t.tier === tier ? t.costUsd : null)));
    const model = input.models[tier];
    const high = Math.min(input.budgets.task.cost_usd, past?.high ?? cost(model, PRIOR.worker.heavy));
    const low = Math.min(high, past?.low ?? cost(model, PRIOR.worker.light));
    costLow += count * low;
    costHigh += count * high;
  }

  // Minutes per work job, whatever the tier: a job's length is mostly its work, not its model.
  let minutesLow = 0;
  let minutesHigh = 0;
  if (actions && input.tasks.length) {
    const past = use(pastTasks((t) => t.minutes));
    const heavy = Math.min(PRIOR.workMinutes.heavy, input.taskTimeoutMinutes) + 1;
    const jobs = input.tasks.reduce((n, t) => n + (t.attempts ?? 1), 0);
    minutesLow += jobs * Math.ceil(past?.low ?? PRIOR.workMinutes.light);
    minutesHigh += jobs * Math.ceil(past?.high ?? heavy);
  }

  // The finish: integration, the critic, the pull request and the retrospective.
  const after = input.past.flatMap((r, run) => (r.afterPlan ? [{ run, ...r.afterPlan }] : []));
  const finishCost = use(after.map((a) => ({ run: a.run, value: a.costUsd })));
  const critic = input.models[input.criticTier];
  const retro = input.retroTier ? input.models[input.retroTier] : null;
  costLow += finishCost?.low ?? cost(critic, PRIOR.critic.light) + (retro ? cost(retro, PRIOR.retrospector.light) : 0);
  costHigh += finishCost?.high ?? cost(critic, PRIOR.critic.heavy) + (retro ? cost(retro, PRIOR.retrospector.heavy) : 0);
  if (actions) {
    const finish = use(after.flatMap((a) => (a.minutes === null ? [] : [{ run: a.run, value: a.minutes }])));
    const approval = input.waitsForApproval ? 1 : 0;
    minutesLow += Math.ceil(finish?.low ?? PRIOR.finishMinutes.light) + approval;
    minutesHigh += Math.ceil(finish?.high ?? PRIOR.finishMinutes.heavy) + approval;
  }

  const spent = input.spent.costUsd;
  const cap = input.budgets.run.cost_usd;
  // The run's budget stops every agent; what was spent before the estimate stays spent.
  const high = Math.max(spent, Math.min(cap, spent + costHigh));
  const low = Math.min(high, spent + costLow);
  return {
    at: input.at,
    // Outward to a hundredth of a cent, so the range holds what it was computed from.
    costUsd: { low: Math.floor(low * 1e4 + 1e-6) / 1e4, high: Math.ceil(high * 1e4 - 1e-6) / 1e4 },
    minutes: actions ? { low: input.spent.minutes! + minutesLow, high: input.spent.minutes! + Math.max(minutesLow, minutesHigh) } : null,
    spentUsd: spent,
    spentMinutes: input.spent.minutes,
    capUsd: cap,
    basis: { runs: runsUsed.size, tasks: tasksUsed.size },
  };
}
