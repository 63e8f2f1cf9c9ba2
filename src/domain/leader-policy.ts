import { z } from 'zod';
import { count, type Stored } from './stored-shape';

/** What stopped a worker, as it reports it (the `difficulty` feedback's impediment). */
export type ImpedimentCategory = 'technical' | 'ambiguity' | 'scope' | 'dependency';

/**
 * The leader's escalation policy (agent-swarm-leader ADR), as a pure table. When a
 * task ends without success after its retries, the leader decides who gets it next.
 * No model is asked: orchestration spends no tokens.
 */

export const TARGETS = ['user', 'planner', 'advisor'] as const;
export type Target = (typeof TARGETS)[number];

/** How many escalations each target takes per run before crew stops escalating to it (`escalation_limits` in crew.yml). */
export type EscalationLimits = Record<Target, number>;

/** The ADR's limits, the defaults of `escalation_limits`. */
export const DEFAULT_ESCALATION_LIMITS: EscalationLimits = { user: 10, planner: 3, advisor: 5 };

const TARGET_NAME: Record<Target, string> = { user: 'a person', planner: 'the planner', advisor: 'the advisor' };

/** Which limit stopped crew, and the key that raises it: part of the failure a maintainer reads. */
export function limitReached(targets: Target[], limits: EscalationLimits): string {
  const each = targets.map((t) => `${TARGET_NAME[t]} (\`escalation_limits.${t}: ${limits[t]}\`)`);
  const one = targets.length === 1;
  return `the escalation limit per run is reached for ${each.join(' and ')}; raise ${one ? 'it' : 'them'} in .github/crew.yml to let crew escalate further`;
}

/** ADR priority: user (requirements and direction), planner (task structure), logic validator, advisor (technique). */
const PRIORITY: Record<Target, number> = { user: 0, planner: 1, advisor: 3 };

/** Identical failures seen this often stop escalation: the loop detector. */
export const LOOP_LIMIT = 3;

export interface FailedTask {
  task: string;
  /** Failed attempts of this task so far, this one included. */
  failures: number;
  impediment?: { category: ImpedimentCategory; requestedAction: string };
  /** Requirements the worker found in conflict, if any. */
  conflicting?: string[];
  /** A normalised failure reason, for the loop detector. */
  signature: string;
}

/** The escalation policy's memory, kept in run.json: counts per target, the failure streak, failures seen. */
export const LeaderMemorySchema = z.looseObject({
  escalations: z.record(z.enum(TARGETS), count),
  /** Tasks that ended in failure one after another, across the run. */
  failureStreak: count,
  signatures: z.record(z.string(), count).default(() => ({})),
  replannedFailed: z.boolean().default(false),
});
export type LeaderMemory = Stored<typeof LeaderMemorySchema>;

export const FRESH_MEMORY: LeaderMemory = { escalations: { user: 0, planner: 0, advisor: 0 }, failureStreak: 0, signatures: {}, replannedFailed: false };

export const USER_TOPICS = ['scope', 'ambiguity', 'conflict', 'plan_review'] as const;
export type UserTopic = (typeof USER_TOPICS)[number];

export type Decision =
  | { rule: string; to: 'planner'; action: 'replan_task' | 'reevaluate_dependencies'; task: string; feedback: string }
  | { rule: string; to: 'user'; action: 'ask'; topic: UserTopic; task: string; question: string }
  | { rule: string; to: 'user+planner'; action: 'review_plan'; task: string; question: string }
  | { rule: string; to: 'advisor'; action: 'retry_stronger'; task: string; notes: string }
  /** A person should be asked, but another question is open: this one waits and is asked once that is answered. */
  | { rule: string; to: 'user'; action: 'queue'; topic: UserTopic; task: string; question: string }
  | { rule: string; to: 'none'; action: 'give_up'; task: string; reason: string };

type Candidate = Exclude<Decision, { action: 'give_up' | 'queue' }>;

function targetsOf(d: Candidate): Target[] {
  return d.to === 'user+planner' ? ['user', 'planner'] : [d.to];
}

function rank(d: Candidate): number {
  return Math.min(...targetsOf(d).map((t) => PRIORITY[t]));
}

/** Every row of the escalation table that matches, before priorities and limits. */
export function matchingRows(f: FailedTask, memory: LeaderMemory): Candidate[] {
  const rows: Candidate[] = [];
  const want = f.impediment?.requestedAction ? ` The worker asks: ${f.impediment.requestedAction}` : '';
  if (f.failures >= 3)
    rows.push({
      rule: 'the same task failed 3 times',
      to: 'planner',
      action: 'replan_task',
      task: f.task,
      feedback: `Task ${f.task} failed ${f.failures} times (last: ${f.signature}). Split it into smaller tasks or change its approach.`,
    });
  if (f.impediment?.category === 'scope')
    rows.push({
      rule: 'impediment: scope',
      to: 'user',
      action: 'ask',
      topic: 'scope',
      task: f.task,
      question: `Task ${f.task} needs to go beyond its agreed scope to finish.${want} Approve the wider scope?`,
    });
  if (f.impediment?.category === 'ambiguity')
    rows.push({
      rule: 'impediment: ambiguity',
      to: 'user',
      action: 'ask',
      topic: 'ambiguity',
      task: f.task,
      question: `Task ${f.task} cannot go on without a clarification.${want}`,
    });
  if (f.impediment?.category === 'technical')
    rows.push({
      rule: 'impediment: technical',
      to: 'advisor',
      action: 'retry_stronger',
      task: f.task,
      notes: `A technical problem stopped the last attempt: ${f.signature}.${want}`,
    });
  if (f.impediment?.category === 'dependency')
    rows.push({
      rule: 'impediment: dependency',
      to: 'planner',
      action: 'reevaluate_dependencies',
      task: f.task,
      feedback: `Task ${f.task} is blocked by something another task should provide.${want} Re-evaluate its dependencies.`,
    });
  if (f.conflicting?.length)
    rows.push({
      rule: 'conflicting requirements',
      to: 'user',
      action: 'ask',
      topic: 'conflict',
      task: f.task,
      question: `Task ${f.task} found requirements that conflict: ${f.conflicting.join(' vs. ')}. Which one takes priority?`,
    });
  if (memory.failureStreak + 1 >= 3)
    rows.push({
      rule: '3 tasks in a row failed',
      to: 'user+planner',
      action: 'review_plan',
      task: f.task,
      question: `${memory.failureStreak + 1} tasks in a row have failed, most recently ${f.task}. The plan may be wrong. Revise it, retry, accept what there is, or abort?`,
    });
  return rows;
}

/**
 * Picks the escalation for a failed task: the matching row with the highest-priority
 * target that still has room, or none (the failure stands). Returns the memory to store.
 */
export function decide(
  f: FailedTask,
  memory: LeaderMemory,
  opts: { userQuestionOpen: boolean; limits: EscalationLimits },
): { decision: Decision; memory: LeaderMemory } {
  const limits = opts.limits;
  const seen = (memory.signatures[f.signature] ?? 0) + 1;
  const next: LeaderMemory = {
    ...memory,
    escalations: { ...memory.escalations },
    failureStreak: memory.failureStreak + 1,
    signatures: { ...memory.signatures, [f.signature]: seen },
  };
  if (seen >= LOOP_LIMIT) {
    return {
      decision: { rule: 'loop detector', to: 'none', action: 'give_up', task: f.task, reason: `the same failure happened ${seen} times: ${f.signature}` },
      memory: next,
    };
  }
  const rows = matchingRows(f, memory).sort((a, b) => rank(a) - rank(b));
  let waitsForUser: Extract<Candidate, { to: 'user' | 'user+planner' }> | undefined;
  for (const row of rows) {
    const targets = targetsOf(row);
    if (targets.some((t) => next.escalations[t] >= limits[t])) continue;
    if (opts.userQuestionOpen && (row.to === 'user' || row.to === 'user+planner')) {
      waitsForUser ??= row; // one user question at a time: another target may take it meanwhile
      continue;
    }
    for (const t of targets) next.escalations[t]++;
    if (row.action === 'review_plan') next.failureStreak = 0;
    return { decision: row, memory: next };
  }
  if (waitsForUser) {
    // Nobody else can take it: the question waits for the open one, rather than being dropped.
    for (const t of targetsOf(waitsForUser)) next.escalations[t]++;
    if (waitsForUser.action === 'review_plan') next.failureStreak = 0;
    const topic = waitsForUser.action === 'ask' ? waitsForUser.topic : 'plan_review';
    return { decision: { rule: waitsForUser.rule, to: 'user', action: 'queue', topic, task: f.task, question: waitsForUser.question }, memory: next };
  }
  // Every matching row was passed over for a target at its limit.
  const full = [...new Set(rows.flatMap(targetsOf))].filter((t) => next.escalations[t] >= limits[t]);
  const why = rows.length ? `${limitReached(full, limits)} (matching: ${rows.map((r) => r.rule).join(', ')})` : NO_RULE;
  return { decision: { rule: 'none', to: 'none', action: 'give_up', task: f.task, reason: why }, memory: next };
}

/** The give-up reason when no row of the table matches: the failure simply stands. */
export const NO_RULE = 'no escalation rule applies';

/** A task that succeeded ends the failure streak. */
export function recordSuccess(memory: LeaderMemory): LeaderMemory {
  return memory.failureStreak === 0 ? memory : { ...memory, failureStreak: 0 };
}

/**
 * claude-crew's feedback loop: when half or more of the tasks ended partial or failed after
 * all retries, re-decompose the failed ones, once. The second time, go on to the report.
 */
export function endOfRunDecision(
  total: number,
  failed: string[],
  memory: LeaderMemory,
  limits: EscalationLimits,
): { action: 'replan_failed'; tasks: string[] } | { action: 'report'; notReplanned?: string } {
  if (failed.length === 0 || failed.length * 2 < total || memory.replannedFailed) return { action: 'report' };
  if (memory.escalations.planner >= limits.planner) return { action: 'report', notReplanned: limitReached(['planner'], limits) };
  return { action: 'replan_failed', tasks: failed };
}

/** Failure reasons differ in ids and numbers; the detector compares their shape. */
export function failureSignature(reason: string): string {
  return reason
    .toLowerCase()
    .replace(/[0-9a-f]{7,40}/g, '#')
    .replace(/\d+/g, 'n')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}
