/**
 * A run's cost estimate as the run record keeps it (domain/estimate.ts makes it), and how an
 * actual figure compares with it. Pure; no prices here, so the run record can hold it.
 */

import { z } from 'zod';
import { count, text, type Stored } from './stored-shape';

export const RangeSchema = z.looseObject({ low: z.number(), high: z.number() });
export type Range = Stored<typeof RangeSchema>;

export const CostEstimateSchema = z.looseObject({
  /** When it was made (the plan's recording). */
  at: text,
  costUsd: RangeSchema,
  /** null for a local run: it bills no Actions minutes. */
  minutes: RangeSchema.nullable(),
  /** Already spent when the estimate was made (planning), inside both ranges. */
  spentUsd: z.number(),
  spentMinutes: z.number().nullable(),
  /** `budgets.run.cost_usd`: the run's model use stops there. */
  capUsd: z.number(),
  /** What it rests on: how many earlier runs and task figures of this repository (0: the plan and crew's assumptions alone). */
  basis: z.looseObject({ runs: count, tasks: count }),
});
export type CostEstimate = Stored<typeof CostEstimateSchema>;

/** Where the actual figure fell against the estimate's range. */
export function against(range: Range, actual: number): 'below' | 'within' | 'above' {
  return actual < range.low ? 'below' : actual > range.high ? 'above' : 'within';
}
