import type { Refusals } from '../domain/egress';
import type { CheckedResult, Observed } from '../domain/result';
import { limitRecord, resultFile } from '../domain/result';
import { addSpent, addUsage, allTasksDone, readyTasks, type TaskLinks, type TaskRecord } from '../domain/run-state';
import { messageId, writeMessage } from '../state/inbox';
import { paths, refreshExecutionLog, writeTask } from '../state/run-files';
import { claimReadyTasks } from '../state/transitions';
import type { WriteOptions } from '../ports';
import { redact } from '../text/redact';
import { inertGit, inertJson } from '../text/inert';
import { dispatchTasks, handedOn, nonce, nowIso, syncPlanComment, taskClaim, updateRunFolder, updateViewFrom, viewIn, type StepContext } from './context';
import { followUp, settleInState } from './leader';
import { stopRunAtBudget, type BudgetStop } from './budget-stop';

/** One attempt at a task, as crew judged it. It travels in the commit that carries the attempt's work. */
export interface AttemptOutcome {
  attempt: number;
  checked: CheckedResult;
  seen: Observed;
  /** No retry follows: this result settles the task. */
  final: boolean;
  sandboxWarning: string | null;
  /** MCP servers that did not start, crashed, hung or printed garbage (#36). */
  mcpNotes?: string[];
  /** The task's images its job could not load again (#36). */
  imagesNotLoaded?: string[];
  /** Requests crew's egress proxy refused in the task's jobs so far (earlier jobs' and this one's), by host. */
  refused?: Refusals;
  /** Where a person reads the attempt: its job's log and its trajectory (absent in attempts recorded before they were kept). */
  links?: TaskLinks;
  /** A parallel attempt the job's limit or a cancellation ended (#50): what it did is its result. */
  cut?: boolean;
}

const TRAILER = /^Crew-Result: (.+)$/m;

/**
 * The commit message of an attempt, with crew's judgement in a trailer. Because the
 * result and the work are pushed together, a job that dies before recording the result
 * leaves it on the branch, and resuming takes it instead of doing the work again.
 */
export function attemptCommitMessage(taskId: string, title: string, o: AttemptOutcome): string {
  // Pushed with the task's branch: model text in it is redacted like anything crew posts, and inert (a commit that
  // reaches the default branch closes what its message names). The trailer keeps its exact data, written inert.
  return redact(
    `crew: ${taskId} ${inertGit(title)} (attempt ${o.attempt}, ${o.checked.status})\n\n${inertGit(o.checked.summary)}\n\nCrew-Result: ${inertJson(JSON.stringify(o))}\n`,
  );
}

export function parseAttemptCommit(message: string): AttemptOutcome | undefined {
  const m = TRAILER.exec(message);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!) as AttemptOutcome;
  } catch {
    return undefined;
  }
}

/** What an attempt adds to its task's record, however it ended: its spending, its work's head and files, its notes. */
function attemptFields(mine: TaskRecord, o: AttemptOutcome, headSha: string): Partial<TaskRecord> {
  return {
    usage: addUsage(mine.usage, o.seen.usage),
    spent: addSpent(mine.spent, o.seen.usage, o.seen.elapsedMs ?? 0),
    turns: mine.turns + o.seen.turns,
    headSha,
    changedFiles: o.seen.changedFiles,
    limitReached: limitRecord(o.attempt, o.seen),
    metadataIssues: o.checked.metadataIssues,
    sandboxWarning: o.sandboxWarning,
    mcpNotes: o.mcpNotes ?? [],
    imagesNotLoaded: o.imagesNotLoaded?.length ? o.imagesNotLoaded : undefined,
    refused: o.refused ?? mine.refused,
    ...(o.links ? { links: o.links } : {}),
  };
}

/** Records an attempt that will be retried: the attempt's result file, the task back to `retrying`. */
export async function recordRetry(
  ctx: StepContext,
  issue: number,
  run: number,
  taskId: string,
  o: AttemptOutcome,
  headSha: string,
  /** How recent a tip the write may start from, and the task's branch when the write carries it (WriteOptions). */
  fresh?: WriteOptions,
): Promise<void> {
  await updateViewFrom(fresh, ctx, issue, run, `${taskId} attempt ${o.attempt} ${o.checked.status}`, (view, tx) => {
    const mine = view.tasks.get(taskId);
    tx.write(paths.attemptResult(issue, run, taskId, o.attempt), resultFile(taskId, o.attempt, o.checked, o.seen, headSha));
    if (!mine) return;
    writeTask(tx, issue, run, { ...mine, ...attemptFields(mine, o, headSha), status: 'retrying', attempts: o.attempt + 1, error: o.checked.reason });
    refreshExecutionLog(tx, issue, run);
  });
  if (fresh?.carry) ctx.log.checkpoint('task-pushed');
}

/**
 * A task a budget stopped (#52): after an attempt that ended at `budgets.run` (`o`, its work on the
 * branch at `headSha`), or before an attempt began (the run's or the repository's budget already
 * reached). The task goes back to pending with its work on its branch, so `/crew continue` starts it
 * again from there, and the run waits at the budget in the same write. Returns whether this job asks.
 */
export async function recordHeld(
  ctx: StepContext,
  issue: number,
  run: number,
  taskId: string,
  held: { attempt: number; o?: AttemptOutcome; headSha?: string },
  stop: BudgetStop,
  fresh?: WriteOptions,
): Promise<boolean> {
  const now = nowIso(ctx);
  const asks = await updateViewFrom(
    fresh,
    ctx,
    issue,
    run,
    `${taskId} stopped at ${stop.limit === 'run' ? 'the run' : `the ${stop.limit}`}'s budget`,
    (view, tx) => {
      const mine = view.tasks.get(taskId);
      if (!mine || (mine.status !== 'running' && mine.status !== 'retrying')) return false;
      const { o, headSha } = held;
      if (o && headSha) tx.write(paths.attemptResult(issue, run, taskId, o.attempt), resultFile(taskId, o.attempt, o.checked, o.seen, headSha));
      writeTask(tx, issue, run, {
        ...mine,
        status: 'pending',
        claim: null,
        // A task of parallel attempts held before any began (#50): its next claim starts every leg afresh.
        candidates: undefined,
        // An attempt that never began does not count: the next claim gives it its number again.
        attempts: o ? o.attempt : Math.max(0, held.attempt - 1),
        ...(o && headSha ? { ...attemptFields(mine, o, headSha), summary: o.checked.summary, error: o.checked.reason } : {}),
      });
      refreshExecutionLog(tx, issue, run);
      return stopRunAtBudget(tx, issue, run, stop, now);
    },
  );
  if (fresh?.carry) ctx.log.checkpoint('task-pushed');
  return asks;
}

/**
 * A work job that may run the next task itself (a chain): `fits` says whether a task with the
 * whole of `task_timeout_minutes` ahead of it still fits in what is left of this job.
 */
export interface ChainOffer {
  fits(): boolean;
}

/**
 * Records a task's final result, lets the leader decide about a failure in the same
 * write, claims what it unblocked and dispatches it. Idempotent: a task already
 * settled is left alone.
 *
 * With a `chain` offer (the work job that ran the task), a write that claims exactly one
 * task, leaving no other ready task waiting for a slot, claims it for this job's own
 * workflow run instead, when it fits in the job's time: no dispatch, no new job start. The
 * claim is a this-run claim like route's, so a job killed mid-chain is found as today
 * (advance of this run, or `/crew resume` asking whether the run is alive). Returns that task.
 */
export async function recordFinal(
  ctx: StepContext,
  issue: number,
  run: number,
  taskId: string,
  o: AttemptOutcome,
  headSha: string,
  chain?: ChainOffer,
  /**
   * How recent a tip the write may start from (the worker's last look at its inbox; by default GitHub
   * is asked), and the task's branch when the write carries it (WriteOptions): one push for both.
   */
  fresh?: WriteOptions,
  /** What else settles with the result: a task's parallel attempts judged, the branch kept (#50). */
  settles?: Partial<TaskRecord>,
): Promise<string | undefined> {
  const config = await ctx.config();
  const now = nowIso(ctx);
  const claim = taskClaim(ctx, 'dispatch', now);
  const outcome = await updateViewFrom(fresh, ctx, issue, run, `${taskId} ${o.checked.status}`, (current, tx) => {
    const mine = current.tasks.get(taskId);
    if (!mine || (mine.status !== 'running' && mine.status !== 'retrying'))
      return { claimed: [] as string[], decision: null, settled: false, chained: undefined as string | undefined };
    writeTask(tx, issue, run, {
      ...mine,
      ...attemptFields(mine, o, headSha),
      status: o.checked.status,
      attempts: o.attempt,
      claim: null,
      finishedAt: now,
      summary: o.checked.summary,
      error: o.checked.status === 'success' ? null : o.checked.reason,
      ...settles,
    });
    tx.write(paths.attemptResult(issue, run, taskId, o.attempt), resultFile(taskId, o.attempt, o.checked, o.seen, headSha));
    tx.write(paths.result(issue, run, taskId), resultFile(taskId, o.attempt, o.checked, o.seen, headSha));
    // The leader decides about a failure in the same write, before anything depending on it is marked blocked.
    const decision = settleInState(tx, issue, run, taskId, o.checked, claim, config.escalation_limits);
    const ids = claimReadyTasks(tx, issue, run, config.max_parallel, claim, now);
    let chained: string | undefined;
    // Only the one task it unblocked, nothing else ready and waiting for a slot, and only a job that has the time.
    // A task the advisor sends back to a stronger tier is dispatched as today (ids then holds it too).
    // A task of several parallel attempts (#50) is never chained: its other legs need jobs of their own.
    const one = ids.length === 1 ? viewIn(tx, issue, run).tasks.get(ids[0]!) : undefined;
    if (chain && decision?.action !== 'retry_stronger' && one && (one.parallel ?? 1) === 1 && !readyTasks(viewIn(tx, issue, run)).length && chain.fits()) {
      const next = one;
      writeTask(tx, issue, run, { ...next, claim: taskClaim(ctx, 'this-run', now) });
      chained = next.id;
    }
    refreshExecutionLog(tx, issue, run);
    const after = viewIn(tx, issue, run);
    const dispatched = ids.filter((id) => id !== chained);
    return {
      claimed: decision?.action === 'retry_stronger' ? [...dispatched, taskId] : dispatched,
      decision,
      settled: after.run.phase === 'EXECUTING' && allTasksDone(after),
      chained,
      othersRunning: [...after.tasks.values()].some((t) => t.id !== taskId && (t.status === 'running' || t.status === 'retrying')),
    };
  });
  if (fresh?.carry) ctx.log.checkpoint('task-pushed');
  ctx.log.checkpoint('task-recorded');
  if (o.seen.ending === 'shutdown') await answerShutdown(ctx, issue, run, taskId, o, headSha);
  // A task still running records its own outcome after this write, and syncs the plan comment then.
  if (outcome.othersRunning) handedOn(ctx, issue, run);
  if (outcome.claimed.length) {
    // Tasks this one unblocked start now in a new workflow run, not after the rest of this matrix.
    await dispatchTasks(ctx, issue, run, outcome.claimed, claim);
  } else if (outcome.settled && ctx.settings.step === 'work') {
    // The last task settled. A work job that succeeds has no advance job after it, so a dispatch with no tasks runs one to finish the run.
    await dispatchTasks(ctx, issue, run, []);
  }
  if (outcome.decision && outcome.decision.action !== 'retry_stronger') await followUp(ctx, issue, run, outcome.decision);
  await syncPlanComment(ctx, issue, run);
  return outcome.chained;
}

/**
 * The shutdown_response: the leader's record that a worker stopped before its end (a shutdown request, or, for a
 * parallel attempt, the job's limit or a cancellation), and where its work is. `from` is the task, or the attempt's leg.
 */
export async function answerShutdown(ctx: StepContext, issue: number, run: number, from: string, o: AttemptOutcome, headSha: string): Promise<void> {
  const now = nowIso(ctx);
  await updateRunFolder(ctx, issue, run, `${from} stopped`, (tx) => {
    writeMessage(tx, issue, run, {
      id: messageId(now, from, nonce()),
      from,
      to: 'leader',
      type: 'shutdown_response',
      text: `stopped after ${o.seen.turns} turn${o.seen.turns === 1 ? '' : 's'}; partial work is at ${headSha.slice(0, 7)}`,
      at: now,
    });
  });
}

/**
 * For a task whose worker vanished: if the attempt that was running pushed its result,
 * take it. `retry` means the pushed attempt asked for another; `none` means nothing of
 * the running attempt reached the branch.
 */
export async function takePushedResult(
  ctx: StepContext,
  issue: number,
  run: number,
  rec: TaskRecord,
  /** Told the branch's tip when the branch holds work but no result to take (a save cut short): the caller records it as the task's head. */
  onUntakenWork?: (tip: string) => void,
): Promise<'recorded' | 'retry' | 'none'> {
  // A parallel attempt's pushed result is its candidate, never the task's (#50): its leg runs again and records it.
  if ((rec.parallel ?? 1) > 1) return 'none';
  const { missing } = await ctx.remote.fetch([rec.branch]);
  if (missing.length) return 'none';
  const message = await ctx.repo.commitMessage(ctx.remote.tracking(rec.branch));
  const pushed = parseAttemptCommit(message);
  if (!pushed && TRAILER.test(message))
    ctx.log.warn(`${rec.id}: the Crew-Result trailer at the tip of ${rec.branch} is not valid JSON, so crew cannot take that result; the attempt runs again`);
  if (!pushed || pushed.attempt !== rec.attempts) {
    // The branch is there all the same: with its tip recorded, the next attempt starts from it (work.ts, noBranchYet).
    const tip = rec.headSha === null ? await ctx.remote.head(rec.branch) : undefined;
    if (tip) onUntakenWork?.(tip);
    return 'none';
  }
  const head = await ctx.remote.head(rec.branch);
  if (!pushed.final) return 'retry';
  ctx.log.info(`${rec.id}: taking the result attempt ${pushed.attempt} pushed before its job ended`);
  await recordFinal(ctx, issue, run, rec.id, pushed, head!);
  return 'recorded';
}
