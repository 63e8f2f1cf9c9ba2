import { runFolder } from '../domain/refs';
import { addUsage, isTerminal, type Usage } from '../domain/run-state';
import { readView, refreshExecutionLog, writeRun, writeTask } from '../state/run-files';
import { nowIso, syncPlanComment, type StepContext } from './context';

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
  spent: { usage: Usage; turns: number },
): Promise<void> {
  const started = Date.now();
  await ctx.repo.commitAll(`crew: ${task.id} ${task.title} (attempt ${attempt}, interrupted)\n\nThe workflow run was cancelled; this is the work so far. \`/crew resume\` continues it.\n`);
  await ctx.repo.push(task.branch);
  const head = await ctx.repo.head();
  await ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: ${task.id} interrupted`, (tx) => {
    const view = readView(tx, issue, run);
    const mine = view?.tasks.get(task.id);
    if (!view || !mine || (mine.status !== 'running' && mine.status !== 'retrying') || mine.claim?.runId !== ctx.runId) return;
    const now = nowIso(ctx);
    writeTask(tx, issue, run, { ...mine, status: 'pending', claim: null, attempts: Math.max(0, attempt - 1), headSha: head, usage: addUsage(mine.usage, spent.usage), turns: mine.turns + spent.turns });
    if (!isTerminal(view.run.phase)) writeRun(tx, { ...view.run, phase: 'INTERRUPTED' }, now);
    refreshExecutionLog(tx, issue, run);
  });
  ctx.log.info(`${task.id}: interrupted; the work so far is on ${task.branch} at ${head.slice(0, 7)}, saved ${Date.now() - started} ms after the worker stopped`);
  await syncPlanComment(ctx, issue, run);
}
