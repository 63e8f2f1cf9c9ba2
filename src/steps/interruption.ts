import type { Refusals } from '../domain/egress';
import { addSpent, addUsage, isTerminal, type Usage } from '../domain/run-state';
import { refreshExecutionLog, writeRun, writeTask } from '../state/run-files';
import { CrewError, dispatchTasks, holdsClaim, nowIso, syncPlanComment, taskClaim, updateView, type StepContext } from './context';
import { sentence } from '../domain/surface';

/**
 * The runner is cancelling the job (SIGINT; SIGTERM follows 7.5 s later, then a kill).
 * The attempt's work so far is committed and pushed to the task branch, the task goes
 * back to pending (an interrupted attempt does not count against it) and the run to
 * INTERRUPTED, so `/crew resume` continues from the branch. The commit carries no
 * Crew-Result trailer: it is work in progress, not a result.
 */
export async function saveInterruptedAttempt(
  ctx: StepContext,
  issue: number,
  run: number,
  task: { id: string; title: string; branch: string },
  attempt: number,
  /** With what crew's egress proxy refused in the task's jobs so far, which the task record keeps. */
  spent: { usage: Usage; turns: number; refused?: Refusals },
): Promise<void> {
  const started = Date.now();
  await ctx.repo.commitAll(
    `crew: ${task.id} ${task.title} (attempt ${attempt}, interrupted)\n\nThe workflow run was cancelled; this is the work so far. \`/crew resume\` continues it.\n`,
  );
  await ctx.remote.push(task.branch);
  const head = await ctx.repo.head();
  await updateView(ctx, issue, run, `${task.id} interrupted`, (view, tx) => {
    const mine = view.tasks.get(task.id);
    if (!mine || (mine.status !== 'running' && mine.status !== 'retrying') || !holdsClaim(ctx, mine.claim)) return;
    const now = nowIso(ctx);
    writeTask(tx, issue, run, {
      ...mine,
      status: 'pending',
      claim: null,
      attempts: Math.max(0, attempt - 1),
      headSha: head,
      usage: addUsage(mine.usage, spent.usage),
      turns: mine.turns + spent.turns,
      refused: spent.refused ?? mine.refused,
    });
    if (!isTerminal(view.run.phase)) writeRun(tx, { ...view.run, phase: 'INTERRUPTED' }, now);
    refreshExecutionLog(tx, issue, run);
  });
  ctx.log.info(
    `${task.id}: interrupted; the work so far is on ${task.branch} at ${head.slice(0, 7)}, saved ${Date.now() - started} ms after the worker stopped`,
  );
  await syncPlanComment(ctx, issue, run);
}

/**
 * The work job's time limit is near (its `timeout-minutes`, less a margin to save in) while
 * the task still has time of its own: the work so far is committed and pushed, and the task,
 * still running, is handed to a new job by a dispatch claim, which continues the same attempt
 * from the branch. What the attempt spent counts towards the task's budgets.
 */
export async function continueInNewJob(
  ctx: StepContext,
  issue: number,
  run: number,
  task: { id: string; title: string; branch: string },
  { attempt, firstAttempt }: { attempt: number; firstAttempt: number },
  spent: { usage: Usage; turns: number; elapsedMs: number; refused?: Refusals },
  limitMinutes: number,
): Promise<void> {
  await ctx.repo.commitAll(
    `crew: ${task.id} ${task.title} (attempt ${attempt}, continued in a new job)\n\nThe work job reached its time limit (timeout-minutes: ${limitMinutes}); this is the work so far. A new job continues the attempt.\n`,
    { allowEmpty: true },
  );
  await ctx.remote.push(task.branch);
  const head = await ctx.repo.head();
  const claim = taskClaim(ctx, 'dispatch');
  const handedOver = await updateView(ctx, issue, run, `${task.id} continues in a new job`, (view, tx) => {
    const mine = view.tasks.get(task.id);
    if (!mine || (mine.status !== 'running' && mine.status !== 'retrying') || !holdsClaim(ctx, mine.claim)) return false;
    if (view.run.phase !== 'EXECUTING' && view.run.phase !== 'ESCALATING') return false;
    writeTask(tx, issue, run, {
      ...mine,
      claim: { ...claim, at: nowIso(ctx) },
      continued: { attempt, firstAttempt },
      headSha: head,
      usage: addUsage(mine.usage, spent.usage),
      spent: addSpent(mine.spent, spent.usage, spent.elapsedMs),
      turns: mine.turns + spent.turns,
      continuations: (mine.continuations ?? 0) + 1,
      refused: spent.refused ?? mine.refused,
    });
    refreshExecutionLog(tx, issue, run);
    return true;
  });
  if (!handedOver) {
    ctx.log.warn(`${task.id}: its work so far is on ${task.branch} at ${head.slice(0, 7)}, but the task is no longer this job's, so no new job was started`);
    return;
  }
  try {
    await dispatchTasks(ctx, issue, run, [task.id], claim);
  } catch (e) {
    // No job will present the claim: the task goes back to pending and the run waits for /crew resume.
    await updateView(ctx, issue, run, `${task.id} could not be handed over`, (view, tx) => {
      const mine = view.tasks.get(task.id);
      if (!mine || mine.claim?.nonce !== claim.nonce) return;
      writeTask(tx, issue, run, { ...mine, status: 'pending', claim: null, attempts: Math.max(0, attempt - 1) });
      if (!isTerminal(view.run.phase)) writeRun(tx, { ...view.run, phase: 'INTERRUPTED' }, nowIso(ctx));
      refreshExecutionLog(tx, issue, run);
    });
    throw new CrewError(
      `task ${task.id}`,
      `its work job reached its time limit and crew could not start a new job for it (${e instanceof Error ? e.message : String(e)}). The work so far is on ${task.branch}.`,
      `${sentence(ctx.surface.give('resume'))} to continue it.`,
    );
  }
  ctx.log.info(
    `${task.id}: this job's time limit (timeout-minutes: ${limitMinutes}) is near; the work so far is on ${task.branch} at ${head.slice(0, 7)}, and a new job continues attempt ${attempt}`,
  );
  ctx.log.checkpoint('task-continued');
  await syncPlanComment(ctx, issue, run);
}
