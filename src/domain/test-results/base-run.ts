import { z } from 'zod';
import { RUNNERS, type TestRun } from './types';

const TestResultSchema = z.object({
  runner: z.enum(RUNNERS),
  file: z.string(),
  suite: z.array(z.string()),
  name: z.string(),
  outcome: z.enum(['passed', 'failed', 'skipped']),
  line: z.number().int().optional(),
});

export const TestRunSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('known'), runners: z.array(z.enum(RUNNERS)), tests: z.array(TestResultSchema) }),
  z.object({ kind: z.literal('unknown'), why: z.string() }),
  z.object({ kind: z.literal('unreadable'), why: z.string() }),
]);

/**
 * A command criterion run once on the run's base (#32), kept on crew/state
 * (`test-results/base_<criterion>.json`) so that later iterations of the critic, and
 * localisation, compare with it instead of running the base again.
 */
export const BaseRunSchema = z.object({
  criterion: z.string(),
  command: z.string(),
  baseSha: z.string(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  /** The last lines of what it printed, redacted. */
  output: z.string(),
  tests: TestRunSchema,
  at: z.string(),
});
export type BaseRun = z.infer<typeof BaseRunSchema>;

// The schema and the type describe the same thing.
const _same: z.infer<typeof TestRunSchema> extends TestRun ? true : never = true;
void _same;
