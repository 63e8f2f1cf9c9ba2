import { parseLeg } from '../domain/attempts';
import { endOfRunDecision } from '../domain/leader-policy';
import { allTasksDone, candidatesComplete, failedTasks, isTerminal, keepsCandidates, type RunView, type TaskClaim, type TaskRecord } from '../domain/run-state';
import type { Config } from '../config/schema';
import { failureComment } from '../render/messages';
import { refreshExecutionLog, writeRun, writeTask } from '../state/run-files';
import { sentence } from '../domain/surface';
import { claimReadyTasks } from '../state/transitions';
import { codeSpan } from '../text/markdown';
import { sanitize } from '../text/sanitize';
import {
  dispatchTasks,
  failRun,
  holdsClaim,
  loadView,
  nowIso,
  SEEN,
  syncPlanComment,
  taskClaim,
  updateView,
  viewIn,
  handedOn,
  catchUpPlanComment,
  type StepContext,
} from './context';
import { replanTasks } from './leader';
import { reportEndedRun } from './finish';
import { takePushedResult } from './task-results';
import { finalize, integratedInOneWrite } from './integration';
import type { StateTx } from '../ports';

/**
 * The `advance` job runs after every matrix: it notices workers that died, restarts
 * tasks nobody holds, and once every task has succeeded integrates the branches for
 * the critic job, which gates the pull request.
 */
/** How often a task whose worker vanished (not a cancelled run) is restarted automatically. */
const MAX_RESTARTS = 2;

export async function advance(ctx: StepContext): Promise<void> {
  const { issue, run } = ctx.settings as Required<typeof ctx.settings>;
  let view = await loadView(ctx, issue, run);
  if (isTerminal(view.run.phase)) {
    ctx.log.info(`run ${run} is already ${view.run.phase}`);
    return catchUpPlanComment(ctx, issue, run);
  }

  if (view.run.phase === 'EXECUTING') {
    const settled = await settleMatrix(ctx, view);
    if (!settled) return;
    view = settled;
  } else if (view.run.phase === 'REVIEWING' && view.run.finalizer === ctx.runId) {
    // Integrated already in this workflow run (a re-run of this job, or an accepted FAIL): the critic job takes it from here.
    ctx.output('critic', 'true');
    handedOn(ctx, issue, run);
    return;
  } else if (view.run.phase !== 'INTEGRATING' || view.run.finalizer !== ctx.runId) {
    ctx.log.info(`run ${run} is ${view.run.phase}; nothing for this job to do`);
    return catchUpPlanComment(ctx, issue, run);
  }
  await finalize(ctx, view);
}

/** The matrix has ended: its lost workers, the tasks still to run, and, once every task is done, the end of the run. The view to integrate, or nothing when this job is done. */
async function settleMatrix(ctx: StepContext, view: RunView): Promise<RunView | void> {
  const { issue, run } = ctx.settings as Required<typeof ctx.settings>;
  const { max_parallel: maxParallel, escalation_limits: limits } = await ctx.config();
  const cancelled = ctx.settings.workResult === 'cancelled';
  const now = nowIso(ctx);
  const claim = taskClaim(ctx, 'dispatch', now);
  const { ours, pushed, headOf } = await lostWorkers(ctx, view, cancelled);
  const decide = endOfRun(ctx, { cancelled, now, claim, maxParallel, limits }, { ours, pushed, headOf });
  if (pushed.size === 0 && (await integratedInOneWrite(ctx, view, decide))) return;
  const step = await updateView(ctx, issue, run, `advance`, (v, tx) => {
    const next = decide(v, tx);
    // The claim: this workflow run finishes the run, so a model call (the resolver) never runs twice in parallel.
    if (next.kind === 'finalize') {
      writeRun(tx, { ...next.after.run, phase: 'INTEGRATING', finalizer: ctx.runId }, now);
      refreshExecutionLog(tx, issue, run);
    }
    return next;
  });
  return afterStep(ctx, step, claim);
}

/** The tasks this workflow run held whose workers ended without a result, with what each pushed before it died. */
async function lostWorkers(ctx: StepContext, view: RunView, cancelled: boolean): Promise<Workers> {
  const { issue, run } = ctx.settings as Required<typeof ctx.settings>;
  // A dispatch's legs work under its claims (`dispatch:<nonce>`) without taking them, so those are
  // this run's only for legs that started: a workflow that routes dispatches wrongly starts none.
  const dispatched = [...view.tasks.values()].filter((t) => t.claim?.runId !== ctx.runId && holdsClaim(ctx, t.claim));
  // A parallel attempt's leg (`t1-a2`, #50) is its task's.
  const started = new Set((dispatched.length ? await ctx.forge.workLegsStarted(ctx.runId) : []).map((l) => parseLeg(l)?.task ?? l));
  const ours = (t: TaskRecord) => t.claim?.runId === ctx.runId || (holdsClaim(ctx, t.claim) && started.has(t.id));
  // A leg GitHub does not list by its name is left alone (it may never have started); say so, or the run waits unseen.
  const unlisted = dispatched.filter((t) => (t.status === 'running' || t.status === 'retrying') && !started.has(t.id)).map((t) => t.id);
  if (unlisted.length && !cancelled) await ctx.forge.postComment(issue, legsNotListed(ctx, unlisted));
  // Matrix legs of this workflow run have all ended; a task still claimed by it lost its worker.
  // What that worker pushed before it died is taken; only what never reached the branch runs again.
  const pushed = new Map<string, 'retry' | 'none'>();
  const untaken = new Map<string, string>();
  for (const t of view.tasks.values()) {
    if ((t.status !== 'running' && t.status !== 'retrying') || !ours(t)) continue;
    const taken = await takePushedResult(ctx, issue, run, t, (tip) => untaken.set(t.id, tip));
    if (taken !== 'recorded') pushed.set(t.id, taken);
  }
  // A branch with work no record names (a save cut short) is the task's head from now on: its next attempt starts there.
  const headOf = (t: TaskRecord) => ({ headSha: t.headSha ?? untaken.get(t.id) ?? null });
  return { ours, pushed, headOf };
}

interface Workers {
  ours: (t: TaskRecord) => boolean;
  pushed: Map<string, 'retry' | 'none'>;
  headOf: (t: TaskRecord) => { headSha: string | null };
}

interface Moment {
  cancelled: boolean;
  now: string;
  claim: TaskClaim;
  maxParallel: number;
  limits: Config['escalation_limits'];
}

/** What one write decides: lost workers restarted or failed, stragglers claimed, and whether the run ends (re-plan, fail or integrate). */
function endOfRun(ctx: StepContext, { cancelled, now, claim, maxParallel, limits }: Moment, { ours, pushed, headOf }: Workers) {
  const { issue, run } = ctx.settings as Required<typeof ctx.settings>;
  return (v: RunView, tx: StateTx) => {
    // Moved on since this job read it (another job finished the run, or someone stopped it): not this job's to change.
    if (v.run.phase !== 'EXECUTING') return { kind: 'moved' as const, phase: v.run.phase };
    const lost = [...v.tasks.values()].filter((t) => (t.status === 'running' || t.status === 'retrying') && ours(t) && pushed.has(t.id));
    // An attempt that never reached the branch does not count against the task.
    // Parallel attempts recorded under the claim (#50) keep it and its number: only what is missing runs again.
    const attemptsAfter = (t: TaskRecord) => (pushed.get(t.id) === 'none' && !keepsCandidates(t) ? Math.max(0, t.attempts - 1) : t.attempts);
    if (cancelled && lost.length) {
      // The run was cancelled: nothing failed, so nothing is reported as failed. `/crew resume` picks it up.
      for (const t of lost) writeTask(tx, issue, run, { ...t, ...headOf(t), status: 'pending', claim: null, attempts: attemptsAfter(t) });
      writeRun(tx, { ...v.run, phase: 'INTERRUPTED' }, now);
      refreshExecutionLog(tx, issue, run);
      return { kind: 'interrupted' as const, lost: lost.map((t) => t.id) };
    }
    const restart: string[] = [];
    for (const t of lost) {
      if (t.restarts < MAX_RESTARTS) {
        restart.push(t.id);
        writeTask(tx, issue, run, {
          ...t,
          ...headOf(t),
          status: 'running',
          claim,
          restarts: t.restarts + 1,
          attempts: attemptsAfter(t) + (keepsCandidates(t) ? 0 : 1),
        });
      } else
        writeTask(tx, issue, run, {
          ...t,
          status: 'failure',
          claim: null,
          finishedAt: now,
          error: candidatesComplete(t)
            ? `the job judging its ${t.parallel} parallel attempts ended without a result, ${MAX_RESTARTS + 1} times (see the workflow logs); ${ctx.surface.command('retry', t.id)} judges them again`
            : `the worker job ended without recording a result, ${MAX_RESTARTS + 1} times (see the workflow logs)`,
        });
    }
    if (lost.length) writeRun(tx, v.run, now);
    const claimed = [...restart, ...claimReadyTasks(tx, issue, run, maxParallel, claim)];
    const after = viewIn(tx, issue, run);
    if (!allTasksDone(after)) {
      refreshExecutionLog(tx, issue, run);
      return { kind: 'waiting' as const, claimed };
    }
    const failed = failedTasks(after);
    if (failed.length) {
      const next = endOfRunDecision(
        after.tasks.size - [...after.tasks.values()].filter((t) => t.replacedBy).length,
        failed.map((t) => t.id),
        after.run.leader,
        limits,
      );
      if (next.action === 'replan_failed') {
        for (const t of failed) writeTask(tx, issue, run, { ...t, pendingReplan: true });
        writeRun(
          tx,
          {
            ...after.run,
            leader: { ...after.run.leader, escalations: { ...after.run.leader.escalations, planner: after.run.leader.escalations.planner + 1 } },
          },
          now,
        );
        return { kind: 'replan' as const, tasks: next.tasks };
      }
      return { kind: 'failed' as const, failed: failed.map((t) => `${t.id} (${t.status}${t.error ? `: ${t.error}` : ''})`), notReplanned: next.notReplanned };
    }
    if (after.run.finalizer !== null && after.run.finalizer !== ctx.runId) return { kind: 'elsewhere' as const };
    return { kind: 'finalize' as const, after };
  };
}

type Decision = ReturnType<ReturnType<typeof endOfRun>>;

/** What this job does after the write: stop, dispatch the claimed tasks, re-plan, report the failure, or hand back the view to integrate. */
async function afterStep(ctx: StepContext, step: Decision, claim: TaskClaim): Promise<RunView | void> {
  const { issue, run } = ctx.settings as Required<typeof ctx.settings>;
  if (step.kind === 'moved') {
    ctx.log.info(`run ${run} is ${step.phase}; nothing for this job to do`);
    return catchUpPlanComment(ctx, issue, run);
  }
  if (step.kind === 'interrupted') {
    ctx.log.warn(`the workflow run was cancelled while ${step.lost.join(', ')} ran; the run is interrupted until someone comments /crew resume`);
    await syncPlanComment(ctx, issue, run);
    return;
  }
  if (step.kind === 'waiting') {
    if (step.claimed.length) await dispatchTasks(ctx, issue, run, step.claimed, claim);
    ctx.log.info('tasks are still running in other workflow runs; the last of them finishes the run');
    await syncPlanComment(ctx, issue, run);
    return;
  }
  if (step.kind === 'elsewhere') {
    ctx.log.info('another job is finishing this run');
    return catchUpPlanComment(ctx, issue, run);
  }
  // claude-crew's feedback loop: half or more failed after all retries, so re-decompose them, once.
  if (step.kind === 'replan') return replanFailedHalf(ctx, issue, run, step.tasks, FAILED_HALF);
  if (step.kind === 'failed')
    return reportFailure(ctx, issue, run, step.failed, step.notReplanned ? `crew did not re-plan them: ${step.notReplanned}.` : undefined);
  // The step's own write just landed: its tip is the state.
  return loadView(ctx, issue, run, SEEN);
}

const FAILED_HALF = 'Half or more of the plan failed; re-decompose the failed tasks.';

/**
 * The failed half of the plan re-planned at the run's end; when no replacement is made, the run fails saying why.
 * At `budgets.run` the run waits instead, and `/crew continue` comes back here with the same tasks and feedback.
 */
export async function replanFailedHalf(ctx: StepContext, issue: number, run: number, tasks: string[], feedback: string): Promise<void> {
  const replan = await replanTasks(ctx, issue, run, tasks, feedback, { endOfRun: true });
  if (replan.replaced || replan.atBudget) return;
  const view = await loadView(ctx, issue, run, SEEN);
  return reportFailure(
    ctx,
    issue,
    run,
    failedTasks(view).map((t) => `${t.id} (${t.status}${t.error ? `: ${t.error}` : ''})`),
    `crew tried to re-plan them, but ${sanitize(replan.why, 3000)}`,
  );
}

/**
 * This dispatched run held tasks by its nonce, and GitHub lists no `work (<task>)` job of it that
 * started for them. crew knows its legs by that name, so a workflow whose `work` job is renamed or
 * skipped leaves them claimed with no worker; `/crew resume` claims them afresh.
 */
function legsNotListed(ctx: StepContext, tasks: string[]): string {
  const one = tasks.length === 1;
  const names = tasks.map((id) => codeSpan(id)).join(', ');
  const jobs = tasks.map((id) => codeSpan(`work (${id})`)).join(', ');
  return (
    `This workflow run was dispatched to work on ${names}, but GitHub lists no ${jobs} job of it that started, so ${one ? 'that task stays' : 'those tasks stay'} claimed with no worker on ${one ? 'it' : 'them'}. ` +
    `crew finds its work jobs by that name: the shipped workflow's \`work\` job, one per task. If \`.github/workflows/crew.yml\` renames that job or skips it, put it back as in crew's README. ` +
    `Then ${ctx.surface.give('resume')}: it starts ${one ? 'the task' : 'the tasks'} again.`
  );
}

/** `why` says why the failed tasks were not re-planned, when crew would otherwise have re-planned them. */
async function reportFailure(ctx: StepContext, issue: number, run: number, failed: string[], why?: string): Promise<void> {
  const tried = why ? `\n\n${why}` : '';
  const message = `These tasks did not succeed:\n${failed.map((f) => `- ${f}`).join('\n')}${tried}`;
  await failRun(ctx, issue, run, 'the tasks', `${failed.length} task(s) did not succeed`);
  await syncPlanComment(ctx, issue, run);
  await ctx.forge.postComment(
    issue,
    failureComment(
      'the tasks',
      message,
      ctx.forge.runLink(),
      `Read the report below and each task's result on the crew/state branch. ${sentence(ctx.surface.give('retry'))} to run the failed tasks again (or ${ctx.surface.command('retry', '<task>')} for one), or clarify the issue and ${ctx.surface.give('run')}.`,
      ctx.surface,
    ),
  );
  // claude-crew goes on to the report even when the tasks failed: what was done, what was not, and a full retrospective.
  await reportEndedRun(
    ctx,
    issue,
    run,
    `The run failed: ${failed.length} task${failed.length === 1 ? '' : 's'} did not succeed (${failed.map((f) => f.split(' ')[0]).join(', ')}), so crew opened no pull request.`,
  );
}
