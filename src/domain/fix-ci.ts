import { z } from 'zod';
import { text, type Stored } from './stored-shape';

/**
 * `fix_ci`: how crew counts its attempts to fix a failing CI on its own pull request, kept in the
 * run.json of the run whose pull request it is (`crew/<N>/r<k>/integration`). Pure.
 *
 * An attempt is one follow-up run for one head of the pull request. crew's own push of a fix
 * starts CI again, so a fix that does not work comes back as a new failure on a new head: that is
 * attempt k+1, and after `fix_ci_attempts` crew says so once and stops, so it never loops on its
 * own pushes. Nothing resets the count: a green run in between, a re-run, or a person's push
 * leaves it as it is (a new `/crew run` is a new pull request with its own count).
 */

/** One failed check crew saw on a head (a workflow's job): what the plan comment and the report list. */
export const CiCheckSchema = z.looseObject({
  workflow: text,
  job: text,
  runId: z.int().positive(),
  url: text,
  at: text,
});
export type CiCheck = Stored<typeof CiCheckSchema>;

export const FixCiAttemptSchema = z.looseObject({
  /** 1, 2, …: the attempt's number. */
  n: z.int().positive(),
  /** The pull request's head that failed, which the follow-up run starts from. */
  headSha: text,
  /** The check that started the attempt first, then any other that failed on the same head. */
  checks: z.array(CiCheckSchema).min(1),
  /** When crew asked for the follow-up run. */
  at: text,
  /**
   * `requested`: handed to the follow-up entry point; what became of it is the follow-up run's
   * own record. `not-started`: the entry point could not start one (it said why on the pull request).
   */
  outcome: z.enum(['requested', 'not-started']),
});
export type FixCiAttempt = Stored<typeof FixCiAttemptSchema>;

export const FixCiStateSchema = z.looseObject({
  attempts: z.array(FixCiAttemptSchema).default(() => []),
  /** The head on which crew last said the attempts were used up, so it says so once per head, not once per failing check. */
  exhaustedNotedFor: text.nullable().default(null),
  /** `fix_ci_attempts` when crew last counted, so the plan comment and the report can say "k of n" without the configuration. */
  limit: z.int().positive().nullable().default(null),
  /**
   * The run of the issue that was still working when a failure came (so no follow-up could start):
   * when that run ends, crew looks at this pull request's CI again, as if the failure came then.
   */
  lookAfter: z.int().positive().nullable().default(null),
});
export type FixCiState = Stored<typeof FixCiStateSchema>;

export const NO_FIX_CI: FixCiState = { attempts: [], exhaustedNotedFor: null, limit: null, lookAfter: null };

/** A failed check on the pull request, as the event and the Actions API tell it. */
export interface CiFailureSeen {
  headSha: string;
  check: CiCheck;
}

export type FixCiDecision =
  /** Start attempt `n`. */
  | { kind: 'start'; n: number }
  /** The same check, or the same workflow run, on the same head again (a re-run, a repeated event): already counted. */
  | { kind: 'duplicate'; n: number }
  /** Another check failed on a head an attempt already covers: listed with it, nothing new starts. */
  | { kind: 'same-head'; n: number }
  /** The failure is on a head the pull request has moved past: the newer head's CI decides. */
  | { kind: 'stale'; pullHead: string }
  /** Every attempt is used; `say` is true the first time for this head (crew comments once). */
  | { kind: 'exhausted'; max: number; say: boolean };

/**
 * What to do about a failed check on crew's pull request, given the attempts so far, the pull
 * request's current head and `fix_ci_attempts`. Order matters: a repeat of something already
 * counted is never counted again, even when the attempts are used up.
 */
export function decideFixCi(state: FixCiState, seen: CiFailureSeen, pullHead: string, max: number): FixCiDecision {
  // An attempt that could not start (a run of the issue was still working) pushed nothing: it is not
  // counted, and the same failure again (a re-run of the failed jobs) may start it.
  const onHead = state.attempts.find((a) => a.headSha === seen.headSha && a.outcome === 'requested');
  if (onHead) {
    // The same check, or the same workflow run again (GitHub re-sends an event; a re-run keeps the run's id).
    const same = onHead.checks.some((c) => (c.workflow === seen.check.workflow && c.job === seen.check.job) || c.runId === seen.check.runId);
    return { kind: same ? 'duplicate' : 'same-head', n: onHead.n };
  }
  if (seen.headSha !== pullHead) return { kind: 'stale', pullHead };
  const used = usedAttempts(state);
  if (used >= max) return { kind: 'exhausted', max, say: state.exhaustedNotedFor !== seen.headSha };
  return { kind: 'start', n: used + 1 };
}

/** The attempts that count against `fix_ci_attempts`: the ones handed to a follow-up run that started. */
export function usedAttempts(state: FixCiState): number {
  return state.attempts.filter((a) => a.outcome === 'requested').length;
}

/** The state after a decision, as the route step writes it in the same compare-and-swap that made it. */
export function recordFixCi(state: FixCiState, seen: CiFailureSeen, decision: FixCiDecision, at: string): FixCiState {
  switch (decision.kind) {
    case 'start':
      // An attempt that did not start and carries this number (the same failure retried, or a later head) gives way to it.
      return {
        ...state,
        attempts: [
          ...state.attempts.filter((a) => a.outcome === 'requested' || a.n !== decision.n),
          { n: decision.n, headSha: seen.headSha, checks: [seen.check], at, outcome: 'requested' },
        ],
      };
    case 'same-head':
      return {
        ...state,
        attempts: state.attempts.map((a) => (a.n === decision.n ? { ...a, checks: [...a.checks, seen.check] } : a)),
      };
    case 'exhausted':
      return decision.say ? { ...state, exhaustedNotedFor: seen.headSha } : state;
    case 'duplicate':
    case 'stale':
      return state;
  }
}

/**
 * Marks attempt `n` as not started (the entry point refused, and said why on the pull request). It
 * pushed nothing, so it does not count against `fix_ci_attempts`: crew looks again when `lookAfter`
 * (the run of the issue that was still working) ends, and a re-run of the failed jobs or the next
 * head's failure may start it too. A refusal cannot loop: only a run's end or a new CI run asks again.
 */
export function attemptNotStarted(state: FixCiState, n: number, lookAfter: number | null = null): FixCiState {
  return {
    ...state,
    attempts: state.attempts.map((a) => (a.n === n ? { ...a, outcome: 'not-started' as const } : a)),
    ...(lookAfter !== null ? { lookAfter } : {}),
  };
}

/** What fix_ci is doing on a head, for the merge gate's words: fixing it now (an attempt just started), or out of attempts. */
export function usedUpOn(state: FixCiState, headSha: string, max: number): boolean {
  return state.exhaustedNotedFor === headSha || usedAttempts(state) >= max;
}

/** The issue and run whose pull request a head branch is: parsed in refs.ts (kept under this name for its callers). */
export { runOfIntegrationBranch as runOfPullBranch } from './refs';
