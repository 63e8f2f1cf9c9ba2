import { z } from 'zod';
import { count, nullableText, text, type Stored } from './stored-shape';

/** A task's parallel attempts as crew/state keeps them on the task's record (#50); domain/candidates.ts makes them. */

/** A candidate as the plan comment and the report show it, kept on the task's record. */
export const CandidateStandingSchema = z.looseObject({
  n: count,
  branch: text,
  headSha: nullableText,
  qualified: z.boolean(),
  /** Tests fixed (FAIL_TO_PASS), over every command criterion. */
  fixed: count,
  /** Tests failing on the candidate's branch, named (`file › suite › name`), with what they were on the base. */
  failing: z.array(text),
  /** How many tests fail in all (`failing` names at most ten); absent on records written before it was kept. */
  failingCount: count.optional(),
  /** Why it did not qualify, one line each; empty when it did. */
  fell: z.array(text),
  changedLines: count,
});
export type CandidateStanding = Stored<typeof CandidateStandingSchema>;

export const SelectionSchema = z.looseObject({
  task: text,
  /** The attempt chosen, or null when none qualified. */
  chosen: count.nullable(),
  candidates: z.array(CandidateStandingSchema),
  reason: text,
});
export type Selection = Stored<typeof SelectionSchema>;

/**
 * One parallel attempt's outcome as its own work leg records it on the task (#50): its branch's head,
 * how its worker ended and what it said. The leg whose record completes the set judges them all.
 */
export const CandidateRunSchema = z.looseObject({
  n: count,
  branch: text,
  worker: z.enum(['success', 'partial', 'failure', 'timeout']),
  headSha: nullableText,
  summary: text,
  changedFiles: z.array(text),
  /** The worker's last attempt number on this leg (its retries within the leg count). */
  attempt: count,
  /** Why the leg's worker never began (the repository's day or month budget was reached first): nothing to judge. */
  notBegun: text.optional(),
  /**
   * The budget that stopped the leg before its end (not begun, or its work so far on its branch): unless another
   * attempt qualifies, the task waits at the budget and the leg goes on after `/crew continue`.
   */
  budgetStop: text.optional(),
  /** MCP servers that failed in the leg's job (#36): the settled task keeps them. */
  mcpNotes: z.array(text).optional(),
});
export type CandidateRun = Stored<typeof CandidateRunSchema>;
