/**
 * A run's cost estimate as the run record keeps it (domain/estimate.ts makes it), and how an
 * actual figure compares with it. Pure; no prices here, so the run record can hold it.
 */

export interface Range {
  low: number;
  high: number;
}

export interface CostEstimate {
  /** When it was made (the plan's recording). */
  at: string;
  costUsd: Range;
  /** null for a local run: it bills no Actions minutes. */
  minutes: Range | null;
  /** Already spent when the estimate was made (planning), inside both ranges. */
  spentUsd: number;
  spentMinutes: number | null;
  /** `budgets.run.cost_usd`: the run's model use stops there. */
  capUsd: number;
  /** What it rests on: how many earlier runs and task figures of this repository (0: the plan and crew's assumptions alone). */
  basis: { runs: number; tasks: number };
}

/** Where the actual figure fell against the estimate's range. */
export function against(range: Range, actual: number): 'below' | 'within' | 'above' {
  return actual < range.low ? 'below' : actual > range.high ? 'above' : 'within';
}
