import { z } from 'zod';
import { PERSONAS, TIERS } from '../domain/plan';
import { PHASES, TASK_STATUSES } from '../domain/run-state';

/**
 * The shapes of the JSON files crew keeps on the state branch, checked on every read so
 * a file edited by hand (or damaged) is refused with the file and the field named,
 * instead of a half-read value flowing on and being written back. Objects are loose:
 * a field added by a newer crew is kept, not refused. Fields that later versions added
 * are optional here; the readers fill in their defaults.
 */

const count = z.int().nonnegative();
const text = z.string();
const nullableText = text.nullable();
const taskId = z.string().regex(/^t[1-9][0-9]{0,2}$/, { message: 'expected a crew task id such as t1' });
const crewBranch = z.string().regex(/^crew\/[A-Za-z0-9._/-]+$/, { message: 'expected a crew/ branch name' });

const UsageSchema = z.looseObject({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  costUsd: z.number(),
});

const RangeSchema = z.looseObject({ low: z.number(), high: z.number() });

export const RunRecordSchema = z.looseObject({
  schema: z.literal(1),
  issue: z.int().positive(),
  run: z.int().positive(),
  phase: z.enum(PHASES),
  mode: z.enum(['run', 'plan']).optional(),
  planVersion: count.optional(),
  waiting: z
    .looseObject({ kind: z.enum(['answer', 'approval', 'decision', 'verdict', 'conflict']), commentId: z.number() })
    .nullable()
    .optional(),
  approvedBy: nullableText.optional(),
  title: text,
  version: count,
  requestedBy: text,
  trigger: z.looseObject({ commentId: z.number(), createdAt: text }),
  base: z.looseObject({ branch: text, sha: text }),
  planCommentId: z.number().nullable(),
  pr: z.looseObject({ number: z.int().positive(), url: text, reportCommentId: z.number().nullable() }).nullable(),
  usage: UsageSchema,
  createdAt: text,
  updatedAt: text,
  failure: z.looseObject({ step: text, message: text }).nullable(),
  finalizer: nullableText,
  leader: z.looseObject({ escalations: z.record(z.string(), count), failureStreak: count }).optional(),
  review: z
    .looseObject({
      iteration: count,
      verdict: z.enum(['PASS', 'FAIL']).nullable(),
      headSha: nullableText,
      met: z.record(z.string(), z.boolean().nullable()),
      rerun: z.array(taskId),
    })
    .nullable()
    .optional(),
  criteriaDigest: nullableText.optional(),
  merge: z
    .looseObject({ state: z.enum(['merged', 'waiting', 'not-merged']), reason: text })
    .nullable()
    .optional(),
  retro: z.looseObject({ commentId: z.number(), url: text }).nullable().optional(),
  rateLimited: z.array(z.looseObject({ at: text, seconds: z.number() })).optional(),
  host: z.enum(['actions', 'local']).optional(),
  estimate: z
    .looseObject({
      at: text,
      costUsd: RangeSchema,
      minutes: RangeSchema.nullable(),
      spentUsd: z.number(),
      spentMinutes: z.number().nullable(),
      capUsd: z.number(),
      basis: z.looseObject({ runs: count, tasks: count }),
    })
    .nullable()
    .optional(),
  failovers: z.array(z.looseObject({ at: text, from: text, to: text, reason: text, job: text })).optional(),
});

export const TaskRecordSchema = z.looseObject({
  id: taskId,
  status: z.enum(TASK_STATUSES),
  attempts: count,
  branch: crewBranch,
  claim: z.looseObject({ runId: text, nonce: text, at: text }).nullable().optional(),
  startedAt: nullableText.optional(),
  finishedAt: nullableText.optional(),
  headSha: nullableText.optional(),
  usage: UsageSchema.optional(),
  turns: count.optional(),
  summary: nullableText.optional(),
  error: nullableText.optional(),
  changedFiles: z.array(text).optional(),
  metadataIssues: z.array(text).optional(),
  sandboxWarning: nullableText.optional(),
  tierOverride: z.enum(TIERS).nullable().optional(),
  advice: z.array(text).optional(),
  accepted: z.boolean().optional(),
  replacedBy: z.array(taskId).nullable().optional(),
  pendingReplan: z.boolean().optional(),
  restarts: count.optional(),
  continuations: count.optional(),
  continued: z.looseObject({ attempt: count, firstAttempt: count }).nullable().optional(),
});

export const PlanSchema = z.looseObject({
  summary: text,
  criteria: z.array(z.looseObject({ id: text, text, kind: z.enum(['command', 'semantic']), command: text.optional() })),
  tasks: z.array(
    z.looseObject({
      id: taskId,
      title: text,
      description: text,
      persona: z.enum(PERSONAS),
      tier: z.enum(TIERS),
      dependsOn: z.array(taskId),
      files: z.array(text),
      criteria: z.array(text),
    }),
  ),
});

/** issue-<N>/run-<k>/jobs/job_<id>.json: one job's start and last write (state/job-times.ts). */
export const JobTimeSchema = z.looseObject({
  id: text,
  step: text,
  task: taskId.optional(),
  startedAt: z.iso.datetime({ message: 'expected a time such as 2026-01-31T12:00:00.000Z' }),
  lastAt: z.iso.datetime({ message: 'expected a time such as 2026-01-31T12:00:00.000Z' }),
});

/** issue-<N>/refusals/<login>.json: when crew last told that person it would not act for them. */
export const RefusalSchema = z.looseObject({ login: text, lastCommentAt: z.iso.datetime({ message: 'expected a time such as 2026-01-31T12:00:00Z' }) });
