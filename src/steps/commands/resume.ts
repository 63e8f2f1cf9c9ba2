import { parseLeg } from '../../domain/attempts';
import { failedTasks, isTerminal, keepsCandidates, type Phase, type RunRecord } from '../../domain/run-state';
import type { CommentEvent } from '../../event';
import { taskOf, writeRun, writeTask } from '../../state/run-files';
import { claimReadyTasks } from '../../state/transitions';
import { DISPATCH_CLOCK_SKEW_MS, loadView, nowIso, syncPlanComment, taskClaim, updateRun, updateView, type StepContext } from '../context';
import { takePushedResult } from '../task-results';
import { planRun } from '../plan-run';
import { latestRun, setOutputs } from './common';
import { askUnasked } from './replies';
import { heldByRepositoryBudget } from './continue';
import { commentRequest, ensurePlanComment, startRun } from './start';
import { sentence } from '../../domain/surface';

/** `/crew resume`: an interrupted run, or one crew failed in after the work, carries on from its state. */

/**
 * `/crew resume`: picks an interrupted run up from its state. Tasks that succeeded are
 * skipped, tasks whose work was pushed keep it (their branch is reused), everything
 * else runs again; a run that was finishing finishes.
 */
export async function resume(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  const last = await latestRun(ctx, issue);
  // Stopped before its run was even written: resuming means doing what was asked.
  if (!last) return void (await startRun(ctx, commentRequest(ctx, ev), 'run'));
  // Going on spends: not past a repository budget (#52).
  const goesOn =
    (last.phase === 'FAILED' && !!last.failure?.resumeFrom) || (!isTerminal(last.phase) && last.phase !== 'ESCALATING' && last.phase !== 'AWAITING_APPROVAL');
  if (goesOn && (await heldByRepositoryBudget(ctx, issue, last.run, 'resume'))) return;
  // crew itself failed (not the work): go back to the phase it failed in.
  if (last.phase === 'FAILED' && last.failure?.resumeFrom) return resumeFailed(ctx, ev, last, last.failure.resumeFrom);
  if ((last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL') && (await askUnasked(ctx, last))) return;
  if (isTerminal(last.phase) || last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL') {
    const why =
      last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL'
        ? `run ${ctx.surface.runNumber(issue, last.run)} is waiting for you, not interrupted (see the plan comment)`
        : last.phase === 'FAILED' && failedTasks(await loadView(ctx, issue, last.run)).length
          ? `run ${ctx.surface.runNumber(issue, last.run)} ended because tasks failed. ${sentence(ctx.surface.give('retry'))} to run them again (or ${ctx.surface.command('retry', '<task>')} for one)`
          : `run ${ctx.surface.runNumber(issue, last.run)} has ended (${last.phase.toLowerCase()})`;
    await ctx.forge.postComment(issue, `Nothing to resume: ${why}.`);
    return;
  }
  return resumeRun(ctx, ev, last);
}

/**
 * Resumes a run that crew failed in (an error outside the tasks): the phase it was in comes
 * back, with this workflow run as the one finishing it. Integration, judging and finishing
 * are idempotent, so they simply run again; a PASS on the same head is not judged twice.
 */
async function resumeFailed(ctx: StepContext, ev: CommentEvent, last: RunRecord, from: Phase): Promise<void> {
  const issue = ev.issue.number;
  const run = last.run;
  const back: Phase = from === 'INTERRUPTED' ? 'EXECUTING' : from;
  const taken = await updateRun(ctx, issue, run, `resume in ${back} after a failure`, (rec, tx) => {
    if (rec.phase !== 'FAILED' || !rec.failure?.resumeFrom) return false;
    const finalizer = back === 'INTEGRATING' || back === 'REVIEWING' ? ctx.runId : null;
    writeRun(tx, { ...rec, phase: back, failure: null, finalizer }, nowIso(ctx));
    return true;
  });
  if (!taken) return ctx.log.info('the run was resumed by another job first');
  ctx.log.info(`resuming run ${run} in ${back}, where crew failed (${last.failure?.step})`);
  const now = await latestRun(ctx, issue);
  if (back === 'INTEGRATING' || back === 'REVIEWING') {
    // advance runs next in this workflow run: it integrates (INTEGRATING) or hands to the critic job (REVIEWING).
    await setOutputs(ctx, issue, run, [], true);
    await syncPlanComment(ctx, issue, run);
    return;
  }
  if (back === 'ESCALATING' || back === 'AWAITING_APPROVAL') {
    if (!(await askUnasked(ctx, now!))) await syncPlanComment(ctx, issue, run);
    return;
  }
  return resumeRun(ctx, ev, now!);
}

async function resumeRun(ctx: StepContext, ev: CommentEvent, last: RunRecord): Promise<void> {
  const issue = ev.issue.number;
  const run = last.run;
  // The run may have stopped before its plan comment was posted or recorded.
  await ensurePlanComment(ctx, issue, run, true);
  if (last.phase === 'PLANNING') {
    const tasks = await planRun(ctx, issue, run);
    await setOutputs(ctx, issue, run, tasks);
    return syncPlanComment(ctx, issue, run);
  }
  const config = await ctx.config();
  const now = nowIso(ctx);
  // Which claims belong to nobody: the workflow run that holds them has finished (or the run was cancelled).
  const snapshot = await loadView(ctx, issue, run);
  const dead = new Set<string>();
  const holding = [...snapshot.tasks.values()].filter((t) => (t.status === 'running' || t.status === 'retrying') && t.claim);
  // A dispatched run's legs work under its `dispatch:` claims without taking them (work.ts): a task
  // with a leg still going in a dispatched run is left to it. Task ids repeat across issues, so this
  // may leave a task to another issue's leg; the comment below says so.
  const dispatched = snapshot.run.phase === 'INTERRUPTED' ? [] : holding.filter((t) => t.claim!.runId.startsWith('dispatch:'));
  const since = dispatched.length ? new Date(Math.min(...dispatched.map((t) => Date.parse(t.claim!.at))) - DISPATCH_CLOCK_SKEW_MS).toISOString() : '';
  // A parallel attempt's leg (`t1-a2`, #50) is its task's.
  const running = new Set((dispatched.length ? await ctx.forge.workLegsRunning(since) : []).map((l) => parseLeg(l)?.task ?? l));
  const leftToLegs: string[] = [];
  for (const t of holding) {
    // A claim still waiting for its dispatched run is claimed afresh: if that dispatch does arrive, its nonce no
    // longer matches and it starts nothing.
    if (t.claim!.runId.startsWith('dispatch:')) {
      if (snapshot.run.phase !== 'INTERRUPTED' && running.has(t.id)) leftToLegs.push(t.id);
      else dead.add(t.id);
      continue;
    }
    const active = snapshot.run.phase === 'INTERRUPTED' ? false : await ctx.forge.workflowRunActive(t.claim!.runId);
    if (active !== true) dead.add(t.id);
  }
  if (leftToLegs.length)
    await ctx.forge.postComment(
      issue,
      `${leftToLegs.map((id) => `\`${id}\``).join(', ')} ${leftToLegs.length === 1 ? 'is' : 'are'} left to the dispatched workflow run that may still be working on ${leftToLegs.length === 1 ? 'it' : 'them'}: a \`work\` job for ${leftToLegs.length === 1 ? 'that task' : 'those tasks'} is still going. If ${leftToLegs.length === 1 ? 'it does' : 'they do'} not finish, ${ctx.surface.give('resume')} again once no such job is running.`,
    );
  // What a vanished worker pushed is taken; only what never reached its branch runs again.
  const pushed = new Map<string, 'retry' | 'none'>();
  const untaken = new Map<string, string>();
  for (const id of dead) {
    const taken = await takePushedResult(ctx, issue, run, taskOf(snapshot, id), (tip) => untaken.set(id, tip));
    if (taken !== 'recorded') pushed.set(id, taken);
  }
  const claimed = await updateView(ctx, issue, run, `resume`, (view, tx) => {
    for (const [id, how] of pushed) {
      const t = taskOf(view, id);
      // An attempt that never reached the branch does not count against the task.
      if (t.status === 'running' || t.status === 'retrying')
        writeTask(tx, issue, run, {
          ...t,
          status: 'pending',
          claim: null,
          // Parallel attempts recorded under the claim (#50) keep it and its number: only the missing legs run again.
          attempts: how === 'none' && !keepsCandidates(t) ? Math.max(0, t.attempts - 1) : t.attempts,
          headSha: t.headSha ?? untaken.get(id) ?? null,
        });
    }
    writeRun(tx, { ...view.run, phase: 'EXECUTING', finalizer: null, failure: null }, now);
    return claimReadyTasks(tx, issue, run, config.max_parallel, taskClaim(ctx, 'this-run', now));
  });
  ctx.log.checkpoint('run-resumed');
  await setOutputs(ctx, issue, run, claimed, true);
  await syncPlanComment(ctx, issue, run);
}
