import type { Config } from '../config/schema';
import type { CandidateRun, Selection } from '../domain/candidate-record';
import { selectCandidate } from '../domain/candidates';
import type { CheckedResult, Observed } from '../domain/result';
import { addSpent, addUsage, ZERO_USAGE, type RunView } from '../domain/run-state';
import { planOf, refreshExecutionLog, writeTask } from '../state/run-files';
import type { CommandRunner } from '../sandbox/command-runner';
import { selectByEvidence } from './candidate-evidence';
import { dispatchTasks, loadView, nowIso, SEEN, syncPlanComment, taskClaim, updateView, type StepContext } from './context';
import { askAtBudget, repositoryStop, runWideStop, stopRunAtBudget, type BudgetStop } from './budget-stop';
import { claimReadyTasks } from '../state/transitions';
import { testReports } from './critic';
import { setupNetwork } from '../toolbox/sandbox-setup';
import { baseRuns } from './test-runs';
import { recordFinal, type AttemptOutcome, type ChainOffer } from './task-results';
import type { TakenTask } from './work-claim';
import type { Egress } from '../toolbox/egress';

/**
 * A task's parallel attempts (#50), after each leg's worker is done: each leg records its
 * candidate on the task (its usage counted at once, for the run's budget), and the leg whose record
 * completes the set judges them all on their own branches, as the critic judges the run
 * (candidate-evidence.ts), and settles the task on the one kept: its branch becomes the task's
 * (what integration merges), or, with none qualified, the task fails with each candidate's reasons.
 * The other branches stay until the run's branches are deleted.
 */

/** Records one leg's final outcome as a candidate; returns every candidate when this record completed the set, else null. */
export async function recordCandidate(
  ctx: StepContext,
  t: TakenTask,
  o: AttemptOutcome,
  headSha: string,
  /** The budget that ended the leg, and why its worker never began, when it did not (endLegAtBudget). */
  atBudget?: { spent: string; notBegun?: string | undefined },
): Promise<CandidateRun[] | null> {
  const mine: CandidateRun = {
    n: t.n,
    branch: t.branch,
    worker: o.checked.status,
    headSha,
    summary: o.checked.summary,
    changedFiles: o.seen.changedFiles,
    attempt: o.attempt,
    ...(o.mcpNotes?.length ? { mcpNotes: o.mcpNotes } : {}),
    ...(atBudget?.notBegun ? { notBegun: atBudget.notBegun } : {}),
    ...(atBudget ? { budgetStop: atBudget.spent } : {}),
  };
  return updateView(ctx, t.issue, t.run, `${t.leg} ${o.checked.status} (attempt ${t.n} of ${t.of})`, (view, tx) => {
    const rec = view.tasks.get(t.rec.id);
    if (!rec || (rec.status !== 'running' && rec.status !== 'retrying') || rec.candidates?.some((c) => c.n === t.n)) return null;
    const candidates = [...(rec.candidates ?? []), mine].sort((a, b) => a.n - b.n);
    const completes = candidates.length >= (rec.parallel ?? 1);
    writeTask(tx, t.issue, t.run, {
      ...rec,
      candidates,
      // The set complete, this leg judges it: the claim is its workflow run's from this write, so a leg of the same
      // dispatch started again (a retry, a replay) sees it held and judges nothing (work-claim.ts); a re-run of this
      // job, advance's restart and `/crew resume` find it by this run's id.
      ...(completes ? { claim: taskClaim(ctx, 'this-run', nowIso(ctx)) } : {}),
      usage: addUsage(rec.usage, o.seen.usage),
      spent: addSpent(rec.spent, o.seen.usage, o.seen.elapsedMs ?? 0),
      turns: rec.turns + o.seen.turns,
      ...(o.links ? { links: o.links } : {}),
    });
    refreshExecutionLog(tx, t.issue, t.run);
    return completes ? candidates : null;
  });
}

/** Each candidate judged on its own branch against the base; with no sandbox to run the criteria in, none can qualify. */
async function judgeCandidates(
  ctx: StepContext,
  config: Config,
  view: RunView,
  taskId: string,
  candidates: CandidateRun[],
  tools: { runner: CommandRunner | null | undefined; egress: Egress | null | undefined },
): Promise<Selection> {
  const { runner, egress } = tools;
  const toJudge = candidates.map((c) => ({ n: c.n, branch: c.branch, worker: c.worker, notBegun: c.notBegun }));
  if (!runner)
    return selectCandidate(
      taskId,
      toJudge.map(({ notBegun, ...c }) => ({
        ...c,
        headSha: null,
        commands: [],
        tests: [],
        findings: [],
        changedLines: 0,
        absent: notBegun ?? 'crew had no sandbox to run the criteria in',
      })),
    );
  const criteria = planOf(view).criteria.filter((c) => c.kind === 'command' && c.command);
  const timeoutMs = config.command_timeout_seconds * 1000;
  const reports = criteria.length ? await testReports(ctx, runner) : undefined;
  try {
    const setup = {
      commands: config.setup,
      network: egress ? setupNetwork(runner, egress) : undefined,
      where: `on the base's own checkout, ${runner.sandboxed ? 'inside the sandbox' : 'WITHOUT a sandbox (allow_unsandboxed)'}`,
    };
    const head = candidates.find((c) => c.headSha)?.headSha ?? '';
    const { runs: bases } = await baseRuns(ctx, view, criteria, { runner, reports, headSha: head, timeoutMs, setup });
    return await selectByEvidence(ctx, taskId, toJudge, { baseSha: view.run.base.sha, criteria, bases, runner, reports, timeoutMs, policy: config.commands });
  } finally {
    await reports?.dispose();
  }
}

/**
 * The task settled on its judged candidates: the one kept is its result, or it failed with every candidate's reasons.
 * With none kept while a budget stopped some (#52), it waits at the budget instead (waitAtBudget); when every one was
 * stopped so, nothing is judged.
 */
export async function settleCandidates(
  ctx: StepContext,
  config: Config,
  t: TakenTask,
  candidates: CandidateRun[],
  tools: {
    runner: CommandRunner | null | undefined;
    egress: Egress | null | undefined;
    chain: ChainOffer;
    sandboxWarning: string | null;
    heldAt?: BudgetStop | undefined;
  },
): Promise<string | undefined> {
  const view = await loadView(ctx, t.issue, t.run, SEEN);
  // A job that stops from here on leaves every candidate recorded: a re-run of its leg, advance's restart or `/crew resume` judges them again.
  ctx.log.checkpoint('candidates-judging');
  const byBudget = candidates.filter(stoppedByBudget);
  if (byBudget.length === candidates.length) {
    ctx.log.info(`${t.rec.id}: a budget stopped all ${candidates.length} parallel attempts before their end; nothing to judge`);
    return waitAtBudget(ctx, config, t, candidates, tools.heldAt);
  }
  ctx.log.info(`${t.rec.id}: all ${candidates.length} parallel attempts are done; judging each on its own branch`);
  const selection = await judgeCandidates(ctx, config, view, t.rec.id, candidates, tools);
  ctx.log.info(`${t.rec.id}: ${selection.chosen === null ? 'none kept' : `kept attempt ${selection.chosen}`}: ${selection.reason}`);
  if (selection.chosen === null && byBudget.length) return waitAtBudget(ctx, config, t, candidates, tools.heldAt);
  const kept = candidates.find((c) => c.n === selection.chosen);
  const checked: CheckedResult = kept
    ? {
        status: 'success',
        quality: 'GREEN',
        completeness: 100,
        summary: kept.summary,
        details: selection.reason,
        feedback: null,
        metadataIssues: [],
        retry: false,
        reason: null,
        complete: true,
      }
    : failedByCrew(`none of the ${candidates.length} parallel attempts qualified`, selection.reason);
  // Each candidate's use was counted when its leg recorded it: the settling adds none.
  const outcome: AttemptOutcome = {
    attempt: t.rec.attempts,
    checked,
    seen: nothingSpent(t, 'reported', kept?.changedFiles ?? []),
    final: true,
    sandboxWarning: tools.sandboxWarning,
    // Each leg's MCP trouble was part of how its attempt went: kept, once each, whichever attempt is kept.
    mcpNotes: [...new Set(candidates.flatMap((c) => c.mcpNotes ?? []))],
  };
  const headSha = (kept ?? candidates[0]!).headSha ?? view.run.base.sha;
  return recordFinal(ctx, t.issue, t.run, t.rec.id, outcome, headSha, tools.chain, undefined, {
    selection,
    branch: kept ? kept.branch : t.rec.branch,
    parallel: undefined,
  });
}

/**
 * A budget stopped the attempt before its end. A leg recorded before `budgetStop` was (an older crew, mid-run when
 * this one came) says so only by `notBegun`, which only a budget set: read as stopped, its task waits rather than fails.
 */
const stoppedByBudget = (c: CandidateRun): boolean => !!(c.budgetStop ?? c.notBegun);

/**
 * A task of parallel attempts none of which qualified while a budget stopped some of them (#52): it waits at the
 * budget as a task run once does, not failed. The attempts that ended on their own stay recorded (they do not run
 * again); those the budget stopped are dropped from the record, their work so far on their branches, and their legs
 * go on from there once the run goes on (`/crew continue`, a claim that keeps the others: state/transitions.ts).
 * With the budget no longer binding (a person's `/crew continue` came first), the legs start again at once.
 */
async function waitAtBudget(ctx: StepContext, config: Config, t: TakenTask, candidates: CandidateRun[], heldAt: BudgetStop | undefined): Promise<undefined> {
  const { issue, run } = t;
  const taskId = t.rec.id;
  const stop = heldAt ?? runWideStop((await loadView(ctx, issue, run, SEEN)).run) ?? (await repositoryStop(ctx));
  const finished = candidates.filter((c) => !stoppedByBudget(c));
  const began = candidates.some((c) => !c.notBegun);
  const now = nowIso(ctx);
  const claim = taskClaim(ctx, 'dispatch', now);
  const out = await updateView(ctx, issue, run, `${taskId} waits at a budget with its parallel attempts`, (view, tx) => {
    const rec = view.tasks.get(taskId);
    if (!rec || (rec.status !== 'running' && rec.status !== 'retrying')) return null;
    writeTask(tx, issue, run, {
      ...rec,
      status: 'pending',
      claim: null,
      candidates: finished.length ? finished : undefined,
      // Attempts kept, or work begun, count under this claim's number; with none begun, the next claim gives it again.
      attempts: finished.length || began ? rec.attempts : Math.max(0, rec.attempts - 1),
    });
    refreshExecutionLog(tx, issue, run);
    if (stop) return { asks: stopRunAtBudget(tx, issue, run, stop, now), claimed: [] as string[] };
    return { asks: false, claimed: claimReadyTasks(tx, issue, run, config.max_parallel, claim, now) };
  });
  ctx.log.info(
    `${taskId}: no parallel attempt qualified and a budget stopped ${candidates.length - finished.length} of them; ${stop ? "the task waits at the budget, every attempt's work on its branch" : 'the budget no longer binds, so they go on'}`,
  );
  if (out?.asks) await askAtBudget(ctx, issue, run);
  else if (out?.claimed.length) await dispatchTasks(ctx, issue, run, out.claimed, claim);
  else await syncPlanComment(ctx, issue, run);
  return undefined;
}

/** A result crew writes itself, with no worker's report behind it: failed, and why. */
function failedByCrew(summary: string, reason: string): CheckedResult {
  return {
    status: 'failure',
    quality: 'RED',
    completeness: 0,
    summary,
    details: reason,
    feedback: null,
    metadataIssues: [],
    retry: false,
    reason,
    complete: false,
  };
}

/** What an outcome crew records without a worker turn saw: no spending, no turns. */
function nothingSpent(t: TakenTask, ending: Observed['ending'], changedFiles: string[]): Observed {
  return { persona: t.task.persona, ending, changedFiles, turns: 0, usage: ZERO_USAGE, toolCalls: {}, elapsedMs: 0 };
}

/**
 * A parallel leg the repository's day or month budget ends before its next attempt (#50, #52; the
 * why is in `attempts.parallel`'s docs): its last attempt, if it had one, becomes its candidate as it
 * stands, not retried; without one, its candidate says it never began (`notBegun`), and is not judged.
 */
export function outcomeAtBudget(
  t: TakenTask,
  last: AttemptOutcome | undefined,
  next: { attempt: number; sandboxWarning: string | null; mcpNotes: string[] },
  spent: string,
): { outcome: AttemptOutcome; notBegun?: string } {
  if (last)
    return {
      outcome: {
        ...last,
        final: true,
        checked: { ...last.checked, retry: false, reason: `${last.checked.reason ?? last.checked.summary}; not retried: ${spent}` },
      },
    };
  const notBegun = `it never began: ${spent}`;
  return {
    outcome: {
      attempt: next.attempt,
      checked: failedByCrew(`not begun: ${spent}`, notBegun),
      seen: nothingSpent(t, 'budget', []),
      final: true,
      sandboxWarning: next.sandboxWarning,
      mcpNotes: next.mcpNotes,
    },
    notBegun,
  };
}
