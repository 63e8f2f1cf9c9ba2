import { topologicalOrder } from '../domain/plan';
import { integrationBranch, runFolder } from '../domain/refs';
import { endOfRunDecision } from '../domain/leader-policy';
import { allTasksDone, failedTasks, FRESH_REVIEW, isTerminal, settlement, type RunView, type TaskRecord } from '../domain/run-state';
import { failureComment } from '../render/messages';
import { readView, refreshExecutionLog, writeRun, writeTask } from '../state/run-files';
import { claimReadyTasks } from '../state/transitions';
import { sanitize } from '../text/sanitize';
import { CrewError, failRun, loadView, nonce, nowIso, syncPlanComment, type StepContext } from './context';
import { replanTasks } from './leader';
import { takePushedResult } from './task-results';

/**
 * The `advance` job runs after every matrix: it notices workers that died, restarts
 * tasks nobody holds, and once every task has succeeded integrates the branches for
 * the critic job, which gates the pull request.
 */
/** How often a task whose worker vanished (not a cancelled run) is restarted automatically. */
const MAX_RESTARTS = 2;

export async function advance(ctx: StepContext): Promise<void> {
  const { issue, run } = ctx.settings as Required<typeof ctx.settings>;
  const prefix = `${runFolder(issue, run)}/`;
  let view = await loadView(ctx, issue, run);
  if (isTerminal(view.run.phase)) return ctx.log.info(`run ${run} is already ${view.run.phase}`);

  if (view.run.phase === 'EXECUTING') {
    const { max_parallel: maxParallel } = await ctx.config();
    const cancelled = ctx.settings.workResult === 'cancelled';
    const now = nowIso(ctx);
    const claimNonce = nonce();
    const claim = { runId: `dispatch:${claimNonce}`, nonce: claimNonce, at: now };
    // Matrix legs of this workflow run have all ended; a task still claimed by it lost its worker.
    // What that worker pushed before it died is taken; only what never reached the branch runs again.
    const pushed = new Map<string, 'retry' | 'none'>();
    for (const t of view.tasks.values()) {
      if ((t.status !== 'running' && t.status !== 'retrying') || t.claim?.runId !== ctx.runId) continue;
      const taken = await takePushedResult(ctx, issue, run, t);
      if (taken !== 'recorded') pushed.set(t.id, taken);
    }
    const { value: step } = await ctx.state.update(prefix, `issue #${issue} run ${run}: advance`, (tx) => {
      const v = readView(tx, issue, run)!;
      const lost = [...v.tasks.values()].filter((t) => (t.status === 'running' || t.status === 'retrying') && t.claim?.runId === ctx.runId && pushed.has(t.id));
      // An attempt that never reached the branch does not count against the task.
      const attemptsAfter = (t: TaskRecord) => (pushed.get(t.id) === 'none' ? Math.max(0, t.attempts - 1) : t.attempts);
      if (cancelled && lost.length) {
        // The run was cancelled: nothing failed, so nothing is reported as failed. `/crew resume` picks it up.
        for (const t of lost) writeTask(tx, issue, run, { ...t, status: 'pending', claim: null, attempts: attemptsAfter(t) });
        writeRun(tx, { ...v.run, phase: 'INTERRUPTED' }, now);
        refreshExecutionLog(tx, issue, run);
        return { kind: 'interrupted' as const, lost: lost.map((t) => t.id) };
      }
      const restart: string[] = [];
      for (const t of lost) {
        if (t.restarts < MAX_RESTARTS) {
          restart.push(t.id);
          writeTask(tx, issue, run, { ...t, status: 'running', claim, restarts: t.restarts + 1, attempts: attemptsAfter(t) + 1 });
        } else writeTask(tx, issue, run, { ...t, status: 'failure', claim: null, finishedAt: now, error: `the worker job ended without recording a result, ${MAX_RESTARTS + 1} times (see the workflow logs)` });
      }
      if (lost.length) writeRun(tx, v.run, now);
      const claimed = [...restart, ...claimReadyTasks(tx, issue, run, maxParallel, claim, now)];
      const after = readView(tx, issue, run)!;
      if (!allTasksDone(after)) {
        refreshExecutionLog(tx, issue, run);
        return { kind: 'waiting' as const, claimed };
      }
      const failed = failedTasks(after);
      if (failed.length) {
        const next = endOfRunDecision(after.tasks.size - [...after.tasks.values()].filter((t) => t.replacedBy).length, failed.map((t) => t.id), after.run.leader);
        if (next.action === 'replan_failed') {
          for (const t of failed) writeTask(tx, issue, run, { ...t, pendingReplan: true });
          writeRun(tx, { ...after.run, leader: { ...after.run.leader, escalations: { ...after.run.leader.escalations, planner: after.run.leader.escalations.planner + 1 } } }, now);
          return { kind: 'replan' as const, tasks: next.tasks };
        }
        return { kind: 'failed' as const, failed: failed.map((t) => `${t.id} (${t.status}${t.error ? `: ${t.error}` : ''})`) };
      }
      if (after.run.finalizer !== null && after.run.finalizer !== ctx.runId) return { kind: 'elsewhere' as const };
      writeRun(tx, { ...after.run, phase: 'INTEGRATING', finalizer: ctx.runId }, now);
      refreshExecutionLog(tx, issue, run);
      return { kind: 'finalize' as const };
    });
    if (step.kind === 'interrupted') {
      ctx.log.warn(`the workflow run was cancelled while ${step.lost.join(', ')} ran; the run is interrupted until someone comments /crew resume`);
      await syncPlanComment(ctx, issue, run);
      return;
    }
    if (step.kind === 'waiting') {
      if (step.claimed.length) await ctx.forge.dispatch({ issue: String(issue), run: String(run), tasks: JSON.stringify(step.claimed), nonce: claimNonce });
      ctx.log.info('tasks are still running in other workflow runs; the last of them finishes the run');
      await syncPlanComment(ctx, issue, run);
      return;
    }
    if (step.kind === 'elsewhere') return ctx.log.info('another job is finishing this run');
    if (step.kind === 'replan') {
      // claude-crew's feedback loop: half or more failed after all retries, so re-decompose them, once.
      const replan = await replanTasks(ctx, issue, run, step.tasks, 'Half or more of the plan failed; re-decompose the failed tasks.', { endOfRun: true });
      if (replan.replaced) return;
      view = await loadView(ctx, issue, run);
      return reportFailure(ctx, issue, run, failedTasks(view).map((t) => `${t.id} (${t.status}${t.error ? `: ${t.error}` : ''})`), replan.why);
    }
    if (step.kind === 'failed') return reportFailure(ctx, issue, run, step.failed);
    view = await loadView(ctx, issue, run);
  } else if (view.run.phase === 'REVIEWING' && view.run.finalizer === ctx.runId) {
    // Integrated already in this workflow run (a re-run of this job, or an accepted FAIL): the critic job takes it from here.
    ctx.output('critic', 'true');
    return;
  } else if (view.run.phase !== 'INTEGRATING' || view.run.finalizer !== ctx.runId) {
    return ctx.log.info(`run ${run} is ${view.run.phase}; nothing for this job to do`);
  }
  await finalize(ctx, view);
}

async function reportFailure(ctx: StepContext, issue: number, run: number, failed: string[], replanFailure?: string): Promise<void> {
  const tried = replanFailure ? `\n\ncrew tried to re-plan them, but ${sanitize(replanFailure, 3000)}` : '';
  const message = `These tasks did not succeed:\n${failed.map((f) => `- ${f}`).join('\n')}${tried}`;
  await failRun(ctx, issue, run, 'the tasks', `${failed.length} task(s) did not succeed`);
  await syncPlanComment(ctx, issue, run);
  await ctx.forge.postComment(
    issue,
    failureComment('the tasks', message, ctx.forge.runLink(), "Read each task's result on the crew/state branch. Comment `/crew retry` to run the failed tasks again (or `/crew retry <task>` for one), or clarify the issue and comment `/crew run`."),
  );
}

/** Merges the task branches into the integration branch in dependency order. */
async function integrate(ctx: StepContext, view: RunView): Promise<string> {
  const { issue, run, base } = view.run;
  const branch = integrationBranch(issue, run);
  const heads = topologicalOrder(view.plan!)
    .map((id) => view.tasks.get(id)!)
    .filter((t) => settlement(t) === 'done');
  await ctx.repo.fetchCommit(base.sha);
  const { missing } = await ctx.repo.fetch([branch, ...heads.map((h) => h.branch)]);
  const lost = heads.filter((h) => missing.includes(h.branch));
  if (lost.length) throw new CrewError('integration', `the branches of ${lost.map((h) => h.id).join(', ')} are missing from the repository.`, 'Comment `/crew run` to start a fresh run.');
  const existing = missing.includes(branch) ? undefined : await ctx.repo.remoteSha(branch);
  if (existing) {
    await ctx.repo.checkoutNew(branch, `refs/remotes/origin/${branch}`);
    const contained = await Promise.all(heads.map((h) => ctx.repo.isAncestor(h.headSha!, existing)));
    if (contained.every(Boolean)) return existing;
  }
  await ctx.repo.checkoutNew(branch, base.sha);
  for (const h of heads) {
    const merged = await ctx.repo.merge(`refs/remotes/origin/${h.branch}`, `crew: integrate ${h.id}`);
    if (!merged.ok) {
      throw new CrewError('integration', `merging ${h.id} (${h.branch}) conflicts with the tasks before it in ${merged.conflicts.map((f) => `\`${f}\``).join(', ')}. Nothing was lost: every task branch is still there.`, 'Merge the task branches by hand, or comment `/crew run` after making the issue say which task owns those files.');
    }
  }
  if (existing) await ctx.repo.pushReplacing(branch, existing);
  else await ctx.repo.push(branch);
  return ctx.repo.head();
}

/**
 * Integrates the branches and hands the run to the critic job of this workflow run:
 * phase REVIEWING, held by this run (the finalizer), and the `critic` output set.
 */
async function finalize(ctx: StepContext, view: RunView): Promise<void> {
  const { issue, run } = view.run;
  const headSha = await integrate(ctx, view);
  ctx.log.checkpoint('integrated');
  await ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: integrated ${headSha.slice(0, 7)} for the critic`, (tx) => {
    const v = readView(tx, issue, run)!;
    if (v.run.phase !== 'INTEGRATING' || v.run.finalizer !== ctx.runId) return;
    const review = v.run.review ?? FRESH_REVIEW;
    // A PASS on this very head (the run was interrupted after judging) stands; anything else is judged afresh.
    const verdict = review.headSha === headSha && review.verdict === 'PASS' ? 'PASS' : null;
    writeRun(tx, { ...v.run, phase: 'REVIEWING', review: { ...review, headSha, verdict } }, nowIso(ctx));
    refreshExecutionLog(tx, issue, run);
  });
  ctx.output('critic', 'true');
  await syncPlanComment(ctx, issue, run);
}
