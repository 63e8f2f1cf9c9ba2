import { ciCriterion, ciFeedback, logTail, type CiFailure } from '../domain/ci-log';
import { attemptNotStarted, decideFixCi, recordFixCi, runOfPullBranch, type CiCheck, type CiFailureSeen, type FixCiDecision } from '../domain/fix-ci';
import type { CiRun, PullEvent } from '../event';
import type { FailedJob } from '../ports';
import { fixCiExhaustedComment } from '../render/fix-ci';
import { codeSpan } from '../text/markdown';
import { runFolder } from '../domain/refs';
import { readRun, writeRun } from '../state/run-files';
import { nowIso, syncPlanComment, updateRun, type StepContext } from './context';
import { startFollowUp } from './follow-up';

/**
 * `fix_ci` (#19 §2): a CI workflow run failed on the head of crew's own pull request. The route job
 * gets it through the `workflow_run` trigger, whose `if:` already let through only failures on a
 * `crew/…/integration` branch of this repository from a workflow other than crew's. Here crew checks
 * all of that again (a copied workflow may have lost a condition), finds its open pull request and
 * the run behind it, counts the attempt in that run's record (domain/fix-ci.ts), reads the failed
 * jobs' log tails, and hands a follow-up request to `startCiFollowUp`.
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
}

export async function routeCiFailure(ctx: StepContext, ev: PullEvent, ci: CiRun): Promise<void> {
  const skip = (why: string) => ctx.log.info(`fix_ci: ${why}; nothing to do`);
  if (ci.conclusion !== 'failure') return skip(`the ${ci.workflow} run ${ci.runId} ended ${ci.conclusion ?? 'without a conclusion'}, not in failure`);
  const repo = `${ctx.forge.repo.owner}/${ctx.forge.repo.name}`.toLowerCase();
  // A fork can name its branch crew/1/r1/integration: only a head in this repository is crew's.
  if (!ci.headRepo || ci.headRepo.toLowerCase() !== repo)
    return skip(`the ${ci.workflow} run ${ci.runId} is on ${ci.headRepo ?? 'an unknown repository'}, not ${repo}`);
  const target = ci.headBranch ? runOfPullBranch(ci.headBranch) : undefined;
  if (!target || !ci.headBranch)
    return skip(`the ${ci.workflow} run ${ci.runId} is on ${ci.headBranch ?? 'no branch'}, not one of crew's pull request branches`);
  const config = await ctx.config();
  // Off means off: no comment, so a repository that never asked for it hears nothing about its CI.
  if (!config.fix_ci) return skip(`fix_ci is off in .github/crew.yml (CI failed on ${ci.headBranch})`);
  const max = config.fix_ci_attempts;

  // The run's record names its pull request; the event's list of pull requests may be empty, so it is
  // only checked against. The peek also spares a repeat the log downloads; the write below decides
  // again on the newest state.
  const prefix = `${runFolder(target.issue, target.run)}/`;
  const peeked = readRun(await ctx.state.load(prefix), target.issue, target.run);
  if (!peeked?.pr) return skip(`run ${target.run} of issue #${target.issue} ${peeked ? 'has no pull request' : 'is not on crew/state'}`);
  const number = peeked.pr.number;
  const listed = ev.pulls.find((p) => p.headRef === ci.headBranch);
  if (listed && listed.number !== number) ctx.log.warn(`fix_ci: GitHub lists pull request #${listed.number} for ${ci.headBranch}; the run's is #${number}`);
  const pull = await ctx.forge.getPull(number);
  if (pull.state !== 'open' || pull.fromFork || pull.headRef !== ci.headBranch)
    return skip(`pull request #${number} is not crew's open pull request from ${ci.headBranch}`);

  // The failed jobs name the checks; their logs are read only for an attempt that starts.
  const jobs = await ctx.forge.failedJobs(ci.runId, MAX_FAILED_JOBS);
  const seen = seenOf(ci, jobs[0]?.name ?? ci.workflow, jobs[0]?.url ?? ci.url);
  const first = decideFixCi(peeked.fixCi, seen, pull.headSha, max);
  const failures: CiFailure[] = [];
  if (first.kind === 'start') for (const j of jobs.length ? jobs : [undefined]) failures.push(failureOf(ci, j, j ? await ctx.forge.jobLog(j.id) : null));
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
  if (changed) await syncPlanComment(ctx, target.issue, target.run);
  // (A decision that changed between the peek and the write only ever changes away from starting.)
  if (decision.kind === 'start' && !failures.length) failures.push(...(jobs.length ? jobs : [undefined]).map((j) => failureOf(ci, j, null)));
  await act(ctx, decision, { ci, seen, failures, target, pull: { number, headRef: ci.headBranch, headSha: pull.headSha }, by, max, at });
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

async function act(
  ctx: StepContext,
  d: FixCiDecision,
  c: {
    ci: CiRun;
    seen: CiFailureSeen;
    failures: CiFailure[];
    target: { issue: number; run: number };
    pull: CiFollowUpRequest['pull'];
    by: string;
    max: number;
    at: string;
  },
): Promise<void> {
  const on = `${c.ci.workflow} run ${c.ci.runId} on ${c.ci.headSha.slice(0, 7)} (#${c.pull.number})`;
  switch (d.kind) {
    case 'duplicate':
      return ctx.log.info(`fix_ci: ${on} is already counted in attempt ${d.n}; nothing to do`);
    case 'same-head':
      return ctx.log.info(`fix_ci: ${on} failed on the head attempt ${d.n} already covers; listed with it, nothing new starts`);
    case 'stale':
      return ctx.log.info(`fix_ci: ${on} is for an older head (the pull request is at ${d.pullHead.slice(0, 7)}); its CI decides`);
    case 'exhausted':
      if (!d.say) return ctx.log.info(`fix_ci: ${on} failed with no attempts left; crew said so on this head already`);
      ctx.log.info(`fix_ci: ${on} failed with all ${d.max} attempts used; saying so`);
      await ctx.forge.postComment(c.pull.number, fixCiExhaustedComment({ ...c.seen.check, at: c.at }, c.seen.headSha, d.max, ctx.surface));
      return;
    case 'start':
      ctx.log.info(`fix_ci: ${on} failed; attempt ${d.n} of ${c.max}`);
      return startCiFollowUp(ctx, {
        issue: c.target.issue,
        run: c.target.run,
        pull: c.pull,
        by: c.by,
        attempt: { n: d.n, max: c.max },
        feedback: c.failures.map(ciFeedback).join('\n\n'),
        criteria: c.failures.map(ciCriterion),
        source: 'ci',
        trigger: { workflowRunId: c.ci.runId, workflow: c.ci.workflow, url: c.ci.url, at: c.at },
      });
  }
}

/**
 * The one place a CI failure becomes a follow-up run: the failed checks become criteria and their
 * log tails the feedback. When the follow-up cannot start (a run of the issue is still working, the
 * pull request closed), startFollowUp has said why on the pull request, and the attempt is marked
 * not started; it still counts, so a refusal cannot loop either.
 */
export async function startCiFollowUp(ctx: StepContext, req: CiFollowUpRequest): Promise<void> {
  const s = ctx.surface;
  const started = await startFollowUp(ctx, {
    pull: req.pull.number,
    by: req.by,
    feedback: req.feedback,
    criteria: req.criteria,
    source: 'ci',
    trigger: { commentId: 0, createdAt: req.trigger.at, workflowRunId: ctx.runId, how: 'ci' },
    why: `CI failed on ${req.pull.headSha.slice(0, 7)}: the ${codeSpan(req.trigger.workflow)} workflow (${s.link('run', req.trigger.url)}); with \`fix_ci\` on, this is attempt ${req.attempt.n} of ${req.attempt.max} (\`fix_ci_attempts\`).`,
  });
  if (started) return;
  ctx.log.info(`fix_ci: attempt ${req.attempt.n} did not start`);
  await updateRun(ctx, req.issue, req.run, `fix_ci attempt ${req.attempt.n} not started`, (rec, tx) => {
    writeRun(tx, { ...rec, fixCi: attemptNotStarted(rec.fixCi, req.attempt.n) }, nowIso(ctx));
  });
}
