import { timeScale } from '../clock';
import { parseLeg } from '../domain/attempts';
import type { PlanTask } from '../domain/plan';
import { candidateBranch } from '../domain/refs';
import { candidatesComplete, type RunView, type TaskRecord } from '../domain/run-state';
import { sentence } from '../domain/surface';
import { CrewError, DISPATCH_CLOCK_SKEW_MS, holdsClaim, loadView, SEEN, type StepContext } from './context';

/** A work leg's task, taken: the run as the leg read it, the task, its record, and which of its parallel attempts this leg is (#50). */
export interface TakenTask {
  issue: number;
  run: number;
  /** The leg's id: the task's (`t1`), or a parallel attempt's (`t1-a2`). */
  leg: string;
  view: RunView;
  task: PlanTask;
  rec: TaskRecord;
  /** This leg's attempt (1 for the task's own leg) and how many run side by side; `of` is 1 for a task run once. */
  n: number;
  of: number;
  /** The branch this leg works on: the task's, or `<task branch>-a<n>`. */
  branch: string;
  /**
   * Every parallel attempt is recorded and the task is not settled yet: the leg that completed the set
   * stopped while judging them (crashed, cancelled, out of time). This leg judges them again (#50).
   */
  judge?: boolean;
}

/**
 * A dispatched task was claimed for `dispatch:<nonce>` by the job that unblocked it, and the
 * dispatch carries that nonce: a stale or repeated one (the claim has moved on) starts nothing.
 * The leg writes nothing to take it. Every write to crew/state races every other job's, and a
 * claim write at each dispatched job's start was the most of them at `max_parallel` 10 (#17's
 * retries). Who holds such a claim is asked of GitHub instead: this run's advance job lists the
 * legs that started (Forge.workLegsStarted), `/crew resume` the legs still going (workLegsRunning).
 */
function dispatchedClaimHeld(ctx: StepContext, view: RunView, taskId: string): boolean {
  const t = view.tasks.get(taskId);
  if ((view.run.phase !== 'EXECUTING' && view.run.phase !== 'ESCALATING') || !t || (t.status !== 'running' && t.status !== 'retrying')) return false;
  // Also a claim this workflow run holds by its id: a re-run of the job after it chained or was handed a task.
  return holdsClaim(ctx, t.claim);
}

/** How often a leg waiting for an earlier leg of the same dispatch asks GitHub again (time-scaled). */
const EARLIER_LEG_POLL_MS = 30_000;

/**
 * A dispatch repeated with the same nonce (a retry whose first answer was lost, or a person's
 * replay) starts a second run whose leg passes the nonce check while the first leg works. The
 * later run waits for the earlier one's `work (<leg>)` job to end, then looks again: the task
 * is recorded (nothing to do) or still waits for a worker (this leg takes it). A leg of another
 * issue's task with the same id only delays this one. Runs still queued are not looked at (a leg
 * waiting on one could hold the runner it needs), so if the earlier run starts after the later
 * one, both work the task and the first record wins.
 */
async function noEarlierLeg(ctx: StepContext, issue: number, run: number, view: RunView, taskId: string, leg: string): Promise<boolean> {
  const claim = view.tasks.get(taskId)?.claim;
  if (!claim || claim.runId === ctx.runId) return true;
  const since = new Date(Date.parse(claim.at) - DISPATCH_CLOCK_SKEW_MS).toISOString();
  for (;;) {
    const earlier = (await ctx.forge.earlierWorkLegs?.(leg, since, ctx.runId)) ?? [];
    if (!earlier.length) return true;
    ctx.log.info(
      `${leg}: workflow run ${earlier.join(', ')} has a work job for ${leg} still going (maybe a first run of this same dispatch); waiting for it to end`,
    );
    await ctx.clock.sleep(EARLIER_LEG_POLL_MS * timeScale());
    if (ctx.cancellation?.aborted || !dispatchedClaimHeld(ctx, await loadView(ctx, issue, run), taskId)) return false;
  }
}

/**
 * Whether this leg may work its task now, and on what: the run is executing, the task is running
 * and held by this workflow run (or its dispatch), and this leg's parallel attempt is not recorded yet.
 */
export async function takeTask(ctx: StepContext, issue: number, run: number, leg: string, chained: boolean): Promise<TakenTask | undefined> {
  const which = parseLeg(leg)!;
  const taskId = which.task;
  // A chained task was claimed for this job by its own last write, so the tip it saw will do. A job's
  // first read lists no branches: where the task's branch may exist, its fetch asks for it.
  const view = await loadView(ctx, issue, run, chained ? SEEN : { withoutBranches: true });
  const task = view.plan?.tasks.find((t) => t.id === taskId);
  const rec = view.tasks.get(taskId);
  if (!task || !rec)
    throw new CrewError(
      `task ${taskId}`,
      `task ${taskId} is not part of ${ctx.surface.runOfIssue(issue, run)}.`,
      `${sentence(ctx.surface.give('run'))} to start a fresh run.`,
      false,
    );
  // A run waiting on a question keeps its claimed tasks running (only new claims wait), and an
  // answer that starts a task may open the next queued question in the same write.
  if ((view.run.phase !== 'EXECUTING' && view.run.phase !== 'ESCALATING') || (rec.status !== 'running' && rec.status !== 'retrying')) {
    ctx.log.info(`task ${taskId} is ${rec.status} and the run is ${view.run.phase}; nothing to do`);
    return;
  }
  const of = rec.parallel ?? 1;
  if (which.n > of) return void ctx.log.info(`${leg}: ${taskId} runs ${of} attempt(s) since its claim; nothing to do`);
  const judge = candidatesComplete(rec);
  if (!judge && rec.candidates?.some((c) => c.n === which.n)) return void ctx.log.info(`${leg}: this attempt of ${taskId} is recorded already; nothing to do`);
  // The leg whose record completed the set took the claim for its workflow run in that write (recordCandidate), and
  // judges them: a leg of a repeated dispatch, or any other job, sees that and runs no judging command twice.
  if (judge && !holdsClaim(ctx, rec.claim)) {
    const by = rec.claim ? `workflow run ${rec.claim.runId}` : 'no job (its claim is gone)';
    ctx.log.info(`${leg}: every parallel attempt of ${taskId} is recorded and held for judging by ${by}; this job does not judge them too`);
    return;
  }
  // A chained task was claimed for this workflow run by the write that recorded the one before.
  if (chained && rec.claim?.runId !== ctx.runId) {
    ctx.log.info(`${taskId} is no longer held by this workflow run; nothing more to do in this job`);
    return;
  }
  if (!chained && ctx.event.kind === 'dispatch' && !(dispatchedClaimHeld(ctx, view, taskId) && (await noEarlierLeg(ctx, issue, run, view, taskId, leg)))) {
    ctx.log.info(`the dispatch for ${leg} is stale (another job holds it, or it finished); nothing to do`);
    return;
  }
  if (judge) ctx.log.info(`${leg}: every parallel attempt of ${taskId} is recorded but not judged (the job judging them stopped); judging them now`);
  return { issue, run, leg, view, task, rec, n: which.n, of, branch: candidateBranch(rec.branch, which.n), ...(judge ? { judge } : {}) };
}
