import { ciCriterion, ciFeedback, logTail, type CiFailure } from '../domain/ci-log';
import { attemptNotStarted, decideFixCi, recordFixCi, type CiCheck, type CiFailureSeen } from '../domain/fix-ci';
import type { FixCiNote } from '../domain/merge-gate';
import { isTerminal } from '../domain/run-state';
import type { CiRun } from '../event';
import type { FailedJob } from '../ports';
import { fixCiExhaustedComment } from '../render/fix-ci';
import { codeSpan } from '../text/markdown';
import { runFolder } from '../domain/refs';
import { readRun, writeRun } from '../state/run-files';
import type { Started } from './commands/start';
import { nowIso, updateRun, type StepContext } from './context';
import { startFollowUp } from './follow-up';

/**
 * `fix_ci` (#19 §2): a CI workflow run failed on the head of crew's own pull request. It comes from
 * the route job (its `workflow_run` event, steps/ci-status.ts), or from the end of a run that looks
 * at the head's CI itself (a failure that came while the run was still working). Either way crew
 * counts the attempt in the record of the run whose branch the pull request is (domain/fix-ci.ts),
 * reads the failed jobs' log tails, and hands a follow-up request to `startCiFollowUp`.
 */

/** How many failed jobs of one CI run crew reads, and turns into criteria. */
export const MAX_FAILED_JOBS = 3;

/** What a follow-up run for a failed CI needs: the entry point of follow-up runs takes it as it is. */
export interface CiFollowUpRequest {
  /** The run whose pull request it is (`crew/<issue>/r<run>/integration`). */
  issue: number;
  run: number;
  pull: { number: number; headRef: string; headSha: string };
  /** Who the follow-up is on behalf of: the person who asked for the run (no person asked for this one). */
  by: string;
  /** The attempt this is, and `fix_ci_attempts`. */
  attempt: { n: number; max: number };
  /** For intake: which checks failed where, with each failed step's log tail (redacted, sanitised). */
  feedback: string;
  /** The done criteria to add: one per failed check ("the `test` check of the `CI` workflow passes"). */
  criteria: string[];
  source: 'ci';
  /** What started it: the CI workflow run. */
  trigger: { workflowRunId: number; workflow: string; url: string; at: string };
  /** Its tasks go to new workflow runs (the end of another run looked at CI; no `work` job follows). */
  dispatch?: boolean;
}

/** A failed CI run on crew's pull request, checked: the run whose branch the pull request is, the pull request now, and `fix_ci_attempts`. */
export interface CiFailureAt {
  target: { issue: number; run: number };
  pull: CiFollowUpRequest['pull'];
  ci: CiRun;
  max: number;
}

/** What fix_ci did about one failed CI run. */
export type FixCiOutcome =
  /** A follow-up started: attempt `attempt` of `max`. */
  | { kind: 'started'; attempt: number; max: number }
  /** A run of the issue was still working: nothing counted, and crew looks again when run `busy` ends. */
  | { kind: 'deferred'; busy: number }
  /** The follow-up could not start for another reason (crew said why on the pull request); nothing counted. */
  | { kind: 'refused' }
  /** Every attempt is used: said once per head on the pull request. */
  | { kind: 'used-up'; max: number }
  /** Already counted, covered by an attempt on the same head, or for a head the pull request has moved past. */
  | { kind: 'nothing' };

/**
 * fix_ci's answer to one failed CI run on the head of crew's pull request: the attempt decided and
 * counted in the record of the run whose branch the pull request is (a compare-and-swap, after a
 * read that spares a repeat the log downloads), then the follow-up started from the failed jobs'
 * log tails, the attempts said to be used up (once per head), or nothing. `beforeStart` runs once
 * an attempt is counted and before the follow-up plans (the merge gate's words); `dispatch` sends
 * the follow-up's tasks to new workflow runs (a job with no `work` job after it).
 */
export async function fixCiFailure(
  ctx: StepContext,
  f: CiFailureAt,
  opts: { dispatch?: boolean; beforeStart?: (note: FixCiNote) => Promise<void> } = {},
  round = 1,
): Promise<FixCiOutcome> {
  const { ci, target, pull, max } = f;
  const prefix = `${runFolder(target.issue, target.run)}/`;
  const peeked = readRun(await ctx.state.load(prefix), target.issue, target.run);
  if (!peeked) {
    ctx.log.info(`fix_ci: run ${target.run} of issue #${target.issue} is not on crew/state; nothing to do`);
    return { kind: 'nothing' };
  }
  // The failed jobs name the checks; their logs are read only for an attempt that starts.
  const jobs = (await ctx.forge.failedJobs?.(ci.runId, MAX_FAILED_JOBS)) ?? [];
  const seen = seenOf(ci, jobs[0]?.name ?? ci.workflow, jobs[0]?.url ?? ci.url);
  const first = decideFixCi(peeked.fixCi, seen, pull.headSha, max);
  const failures: CiFailure[] = [];
  if (first.kind === 'start')
    for (const j of jobs.length ? jobs : [undefined]) failures.push(failureOf(ci, j, j ? ((await ctx.forge.jobLog?.(j.id)) ?? null) : null));
  const at = nowIso(ctx);
  const { decision, by, changed } = await updateRun(ctx, target.issue, target.run, 'fix_ci: count the attempt', (rec, tx) => {
    const d = decideFixCi(rec.fixCi, seen, pull.headSha, max);
    let fixCi = recordFixCi(rec.fixCi, { ...seen, check: { ...seen.check, at } }, d, at);
    // The other failed jobs of the same run join the attempt, so the plan comment and the report list them.
    if (d.kind === 'start') for (const j of jobs.slice(1)) fixCi = recordFixCi(fixCi, seenOf(ci, j.name, j.url, at), { kind: 'same-head', n: d.n }, at);
    const changed = fixCi !== rec.fixCi;
    if (changed) writeRun(tx, { ...rec, fixCi: { ...fixCi, limit: max } }, at);
    return { decision: d, by: rec.requestedBy, changed };
  });
  // The plan comment lists the attempts; the state write above is what it renders.
  if (changed) await ctx.planComment.syncHolder(target.issue, target.run);
  // (A decision that changed between the peek and the write only ever changes away from starting.)
  if (decision.kind === 'start' && !failures.length) failures.push(...(jobs.length ? jobs : [undefined]).map((j) => failureOf(ci, j, null)));
  const on = `${ci.workflow} run ${ci.runId} on ${ci.headSha.slice(0, 7)} (#${pull.number})`;
  switch (decision.kind) {
    case 'duplicate':
      ctx.log.info(`fix_ci: ${on} is already counted in attempt ${decision.n}; nothing to do`);
      return { kind: 'nothing' };
    case 'same-head':
      ctx.log.info(`fix_ci: ${on} failed on the head attempt ${decision.n} already covers; listed with it, nothing new starts`);
      return { kind: 'nothing' };
    case 'stale':
      ctx.log.info(`fix_ci: ${on} is for an older head (the pull request is at ${decision.pullHead.slice(0, 7)}); its CI decides`);
      return { kind: 'nothing' };
    case 'exhausted':
      if (!decision.say) ctx.log.info(`fix_ci: ${on} failed with no attempts left; crew said so on this head already`);
      else {
        ctx.log.info(`fix_ci: ${on} failed with all ${decision.max} attempts used; saying so`);
        await ctx.forge.postComment(pull.number, fixCiExhaustedComment({ ...seen.check, at }, seen.headSha, decision.max, ctx.surface));
      }
      return { kind: 'used-up', max: decision.max };
    case 'start':
      break;
  }
  ctx.log.info(`fix_ci: ${on} failed; attempt ${decision.n} of ${max}`);
  await opts.beforeStart?.({ kind: 'fixing', attempt: decision.n, max });
  const started = await startCiFollowUp(ctx, {
    issue: target.issue,
    run: target.run,
    pull,
    by,
    attempt: { n: decision.n, max },
    feedback: failures.map(ciFeedback).join('\n\n'),
    criteria: failures.map(ciCriterion),
    source: 'ci',
    trigger: { workflowRunId: ci.runId, workflow: ci.workflow, url: ci.url, at },
    ...(opts.dispatch ? { dispatch: true } : {}),
  });
  if (started.started) return { kind: 'started', attempt: decision.n, max };
  if (started.busy === undefined) return { kind: 'refused' };
  // Whoever writes last looks last: the run that was working may have ended, and looked at CI, before
  // the attempt above was marked not started; then that look saw it counted, and this job tries again.
  const busy = readRun(await ctx.state.load(`${runFolder(target.issue, started.busy)}/`), target.issue, started.busy);
  if (round < 2 && busy && isTerminal(busy.phase)) {
    ctx.log.info(`fix_ci: run ${started.busy} ended while the attempt was being put off; trying again`);
    return fixCiFailure(ctx, f, opts, round + 1);
  }
  return { kind: 'deferred', busy: started.busy };
}

function seenOf(ci: CiRun, job: string, url: string, at = ''): CiFailureSeen {
  const check: CiCheck = { workflow: ci.workflow, job, runId: ci.runId, url, at };
  return { headSha: ci.headSha, check };
}

function failureOf(ci: CiRun, job: FailedJob | undefined, log: string | null): CiFailure {
  return {
    workflow: ci.workflow,
    runId: ci.runId,
    runUrl: ci.url,
    // A run that failed before any job (an invalid workflow file) is named after the workflow.
    job: job?.name ?? ci.workflow,
    jobUrl: job?.url ?? ci.url,
    step: job?.step ?? null,
    headSha: ci.headSha,
    log: log ? logTail(log) : null,
  };
}

/**
 * The one place a CI failure becomes a follow-up run: the failed checks become criteria and their
 * log tails the feedback. When the follow-up cannot start (a run of the issue is still working, the
 * pull request closed), startFollowUp has said why on the pull request, and the attempt is marked
 * not started: it pushed nothing, so it does not count. A refusal because a run was working names
 * that run (`lookAfter`): when it ends, crew looks at this pull request's CI again.
 */
export async function startCiFollowUp(ctx: StepContext, req: CiFollowUpRequest): Promise<Started> {
  const s = ctx.surface;
  const started = await startFollowUp(ctx, {
    pull: req.pull.number,
    by: req.by,
    feedback: req.feedback,
    criteria: req.criteria,
    source: 'ci',
    trigger: { commentId: 0, createdAt: req.trigger.at, workflowRunId: ctx.runId, how: 'ci', ciRunId: req.trigger.workflowRunId },
    why: `CI failed on ${req.pull.headSha.slice(0, 7)}: the ${codeSpan(req.trigger.workflow)} workflow (${s.link('run', req.trigger.url)}); with \`fix_ci\` on, this is attempt ${req.attempt.n} of ${req.attempt.max} (\`fix_ci_attempts\`).`,
    ...(req.dispatch ? { dispatch: true } : {}),
  });
  if (started.started) return started;
  ctx.log.info(`fix_ci: attempt ${req.attempt.n} did not start${started.busy ? `; crew looks again when run ${started.busy} ends` : ''}`);
  await updateRun(ctx, req.issue, req.run, `fix_ci attempt ${req.attempt.n} not started`, (rec, tx) => {
    writeRun(tx, { ...rec, fixCi: attemptNotStarted(rec.fixCi, req.attempt.n, started.busy ?? null) }, nowIso(ctx));
  });
  await ctx.planComment.syncHolder(req.issue, req.run);
  return started;
}
