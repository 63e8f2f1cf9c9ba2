import { withEffort } from '../agents/effort';
import { workerCompaction } from '../agents/worker-compaction';
import { runWorker } from '../agents/worker';
import { loadImages } from './images';
import { runFolder } from '../domain/refs';
import { lastFailure, recallAttempts } from '../domain/attempt-memory';
import { isProtectedPath } from '../domain/glob';
import { attemptLimits, type AttemptLimits } from '../domain/attempt-allowance';
import { runBudgets } from '../domain/budgets';
import { askAtBudget, budgetStopBefore, repositoryStop, runWideStop, type BudgetStop } from './budget-stop';
import { budgetSpentText } from '../render/budget-stop';
import { addSpent, NOTHING_SPENT, reviewedSha, totalUsage } from '../domain/run-state';
import { knowledgeLines, KNOWLEDGE_PATH, parseKnowledge } from '../state/knowledge';
import { planOf, readAttemptHistory } from '../state/run-files';
import { agentRun, loadView, SEEN, syncPlanComment, type StepContext } from './context';
import { continueInNewJob, saveInterruptedAttempt } from './interruption';
import { agentCommands } from '../toolbox/command-options';
import { workerMap } from './repo-map';
import { recordHeld, type AttemptOutcome, type ChainOffer } from './task-results';
import type { Config } from '../config/schema';
import { promptWithInstructions } from './agent-instructions';
import { jobStopTime, noTimeToWork, type JobStop } from './job-stop';
import { takeTask, type TakenTask } from './work-claim';
import { branchHolds, checkoutTaskBranch } from './work-branch';
import { openToolbox, type Toolbox } from './work-toolbox';
import { recordAttempt } from './work-record';
import { outcomeAtBudget, settleCandidates } from './parallel-attempts';
import { judgeAttempt, type AttemptState, type Ran, type WorkerRun } from './attempt-judgement';

/**
 * The `work` job: its task, on its own branch, from claim to pushed result, retrying within the
 * job. When recording it claims the one task it unblocked for this job (recordFinal's chain),
 * the job runs that one next, on the same runner and checkout, and so on down the chain. A leg of
 * a task's parallel attempt (`t1-a2`, #50) works that attempt on its own branch.
 */
export async function work(ctx: StepContext): Promise<void> {
  const { issue, run, task: first } = ctx.settings as Required<typeof ctx.settings>;
  const config = await ctx.config();
  let jobStop: JobStop | undefined | null = null;
  // Read once, when the first task is taken: the limit comes from the default branch's workflow.
  const stopTime = async (taskId: string) => (jobStop === null ? (jobStop = await jobStopTime(ctx, config.task_timeout_minutes, taskId)) : jobStop);
  const chain: ChainOffer = {
    // The chained task starts with the whole task_timeout_minutes ahead of it; it must end before this job saves and stops.
    fits: () => !ctx.cancellation?.aborted && (!jobStop || ctx.clock.now().getTime() + config.task_timeout_minutes * 60_000 <= jobStop.at),
  };
  let leg: string | undefined = first;
  let chained = false;
  while (leg) {
    const next: string | undefined = await runTask(ctx, config, issue, run, leg, { chained, stopTime, chain });
    if (!next) return;
    // The state write that recorded the task claimed `next` for this workflow run: it is ours now.
    ctx.log.info(`crew task: ${next} (unblocked by ${leg}; it runs next in this job, on the same runner)`);
    // Later messages (failovers, failures) name the task the job is on now.
    ctx.settings = { ...ctx.settings, task: next };
    if (ctx.job) ctx.job.chained = [...(ctx.job.chained ?? []), next];
    leg = next;
    chained = true;
  }
}

type JobOffer = { chained: boolean; stopTime: (taskId: string) => Promise<JobStop | undefined>; chain: ChainOffer };

/** One task (or one parallel attempt of it) of a work job, from its claim to its recorded result; returns the task the record chained to this job, if any. */
async function runTask(ctx: StepContext, config: Config, issue: number, run: number, leg: string, job: JobOffer): Promise<string | undefined> {
  const t = await takeTask(ctx, issue, run, leg, job.chained);
  if (!t) return;
  // Read before anything runs in the checkout: the limit comes from the default branch's workflow.
  const jobStop = await job.stopTime(t.rec.id);
  const { startSha, resuming } = await checkoutTaskBranch(ctx, t);
  ctx.log.checkpoint('work-started');
  const tools = await openToolbox(ctx, config, t, job.chained);
  try {
    // The job that judged the task's recorded attempts stopped before it settled them: judge them again, nothing else (#50).
    if (t.judge)
      return await settleCandidates(ctx, config, t, t.rec.candidates!, {
        runner: tools.runner,
        egress: tools.egress,
        chain: job.chain,
        sandboxWarning: tools.warning,
      });
    // Memory from earlier attempts, this job's and those recorded before it (a resumed job, a re-run task).
    const history = readAttemptHistory(await ctx.state.load(`${runFolder(issue, run)}/`, SEEN), issue, run, t.rec.id, t.rec.attempts);
    // An attempt carried over from a job that ran out of time keeps its retry allowance.
    const carried = t.rec.continued && t.rec.continued.attempt === t.rec.attempts && resuming ? t.rec.continued : undefined;
    const state: AttemptState = { attempt: t.rec.attempts, firstAttempt: carried?.firstAttempt ?? t.rec.attempts, history, carried };
    const knowledge = parseKnowledge(await ctx.readDefaultBranchFile(KNOWLEDGE_PATH));
    for (const p of knowledge.problems) ctx.log.warn(p);
    const memory = { knowledge: knowledgeLines(knowledge.entries, config.knowledge_context_size), startSha, resuming };
    // A parallel attempt's spending is its own (each attempt is a task's worth, #50); a task run once spends the task's.
    let legSpent = NOTHING_SPENT;
    let last: AttemptOutcome | undefined;
    for (;;) {
      tools.newAttempt();
      // What the task and the run have spent: this job's own last write or read holds it (a parallel
      // task's spending is a moment behind at most, as it is between any two reads).
      const current = await loadView(ctx, issue, run, SEEN);
      const runSpent = totalUsage(current);
      // The task's budgets are hard stops across its attempts: what earlier attempts spent is gone.
      const taskSpent = t.of > 1 ? legSpent : (current.tasks.get(t.rec.id)?.spent ?? NOTHING_SPENT);
      // The run's budget (as a person's `/crew continue` left it), the task's or the repository's is reached: the
      // task waits with its work on its branch, and the run asks (#52). A parallel attempt ends as its limits say.
      const budgetStop = t.of === 1 ? await budgetStopBefore(ctx, config, current, runSpent, { id: t.rec.id, spent: taskSpent }) : undefined;
      if (budgetStop) {
        ctx.log.info(`${t.leg}: ${budgetSpentText(budgetStop)}; the task waits, its work on its branch`);
        await holdAtBudget(ctx, t, budgetStop, (stop) => recordHeld(ctx, issue, run, t.rec.id, { attempt: state.attempt }, stop));
        return undefined;
      }
      // A parallel attempt is not held on its own: at the repository's day or month budget its leg ends with what it has,
      // and the task is judged on what the attempts did, or waits at the budget (#50, #52; parallel-attempts.ts waitAtBudget).
      // The leg's own attempts so far are not on crew/state until its candidate is: counted here.
      // The run already waits at a budget (another task met it): the leg ends likewise, without a worker.
      const legStop = t.of > 1 ? (runWideStop(current.run) ?? (await repositoryStop(ctx, legSpent.costUsd))) : undefined;
      if (legStop) return endLegAtBudget(ctx, config, t, { state, last, tools, chain: job.chain }, legStop);
      const budgets = runBudgets(config.budgets, current.run);
      const limits = attemptLimits(budgets, config.task_timeout_minutes, taskSpent, runSpent, tools.setupFailure !== null);
      const ran = await runAttempt(ctx, config, t, state, tools, limits, jobStop, memory);
      if (ran.handedOver) return undefined;
      // Stopped because the run stopped at a budget (its inbox said so): held like the task that met it, or, for a
      // parallel attempt, its work so far is its candidate, as at the repository's budget.
      const runStopped = ran.workerRun?.stop === 'shutdown' ? runWideStop((await loadView(ctx, issue, run, SEEN)).run) : undefined;
      const { outcome, seen, heldAt } = judgeAttempt(ctx, config, t, state, ran, tools, { taskSpent, runSpent, budgets, view: current, runStopped });
      legSpent = addSpent(legSpent, seen.usage, seen.elapsedMs ?? 0);
      // The attempt's trajectory is kept before its result is recorded, so the record can link it (and the job's log).
      const [log, trajectory] = await Promise.all([ctx.jobLink?.() ?? null, ctx.trajectories?.publish(`${t.leg}-attempt${state.attempt}`) ?? null]);
      outcome.links = { log, trajectory };
      if (runStopped && t.of > 1) return endLegAtBudget(ctx, config, t, { state, last: outcome, tools, chain: job.chain }, runStopped);
      const recorded = await recordAttempt(ctx, config, t, outcome, { chain: job.chain, runner: tools.runner, egress: tools.egress, heldAt });
      if (heldAt) {
        ctx.log.info(`${t.leg}: ${budgetSpentText(heldAt)}; the task waits, its work pushed to ${t.rec.branch}`);
        if (recorded === true) await askAtBudget(ctx, issue, run);
        else await syncPlanComment(ctx, issue, run);
        return undefined;
      }
      if (outcome.final) return typeof recorded === 'string' ? recorded : undefined;
      last = outcome;
      state.history.push({ attempt: state.attempt, status: outcome.checked.status, summary: outcome.checked.summary, reason: outcome.checked.reason });
      state.attempt++;
      ctx.log.info(`${t.leg}: retrying (attempt ${state.attempt - state.firstAttempt + 1} of ${1 + config.max_retries}) because ${outcome.checked.reason}`);
      if (t.of === 1) await syncPlanComment(ctx, issue, run);
    }
  } finally {
    await tools.dispose();
  }
}

/** One attempt's worker, within the attempt's limits and this job's; a stop at the job's limit hands the attempt to a new job. */
async function runAttempt(
  ctx: StepContext,
  config: Config,
  t: TakenTask,
  state: AttemptState,
  tools: Toolbox,
  limits: AttemptLimits,
  jobStop: JobStop | undefined,
  memory: { knowledge: string[]; startSha: string; resuming: boolean },
): Promise<Ran> {
  const { task, rec } = t;
  const { stopEarly } = limits;
  const started = ctx.clock.now().getTime();
  // The job's limit comes before the task's: the attempt stops in time to save, and goes on in a new job.
  const jobBinds = jobStop !== undefined && jobStop.at < started + limits.ms;
  if (!stopEarly && jobBinds && started >= jobStop.at) throw noTimeToWork(t.leg, jobStop.minutes);
  const jobTimer = jobBinds ? new AbortController() : undefined;
  const timer = jobTimer ? setTimeout(() => jobTimer.abort(), Math.max(0, jobStop!.at - started)) : undefined;
  const signal = jobTimer ? (ctx.cancellation ? AbortSignal.any([ctx.cancellation, jobTimer.signal]) : jobTimer.signal) : ctx.cancellation;
  const tier = rec.tierOverride ?? task.tier;
  let workerRun: WorkerRun | undefined;
  let imagesNotLoaded: string[] = [];
  if (!stopEarly) {
    // The images this task lists (#36), fetched again and checked against planning's hashes.
    const shown = task.images?.length ? await loadImages(ctx, t.view.run.images, task.images) : { images: [], missing: [] };
    imagesNotLoaded = shown.missing;
    const attempt = state.attempt;
    workerRun = await runWorker(
      withEffort(ctx.model(), config.effort, 'worker'),
      {
        task,
        plan: planOf(t.view),
        attempt,
        ...(t.of > 1 ? { parallel: { n: t.n, of: t.of } } : {}),
        repoDir: ctx.repo.dir,
        protectedPaths: config.protected_paths,
        maxTurns: config.worker_max_turns,
        maxOutputTokens: config.max_output_tokens.worker,
        modelId: config.models[tier],
        system: await promptWithInstructions(ctx, `worker_${task.persona}`, reviewedSha(t.view.run), task.files),
        ...(await workerMap(ctx, task)),
        commands: agentCommands(
          { runner: tools.runner, warning: tools.warning, egress: tools.egress, reach: tools.reach },
          config,
          jobBinds ? { until: jobStop!.at, now: () => ctx.clock.now().getTime() } : undefined,
        ),
        team: tools.team,
        ...(shown.images.length ? { images: shown.images } : {}),
        ...(shown.missing.length ? { imagesNotLoaded: shown.missing } : {}),
        ...(tools.mcp.tools.length ? { extraTools: tools.mcp.tools } : {}),
        limits: {
          tokens: limits.tokens,
          costUsd: limits.costUsd,
          deadline: jobBinds ? jobStop!.at : started + limits.ms,
          now: () => ctx.clock.now().getTime(),
        },
        compaction: workerCompaction(
          config,
          ctx.model(),
          tier,
          () => ctx.template('summarizer'),
          () => ctx.repo.workingDiffStat(memory.startSha),
        ),
        memory: {
          attempts: recallAttempts(state.history, config.history_context_size),
          lastFailure: lastFailure(state.history),
          knowledge: memory.knowledge,
          advice: rec.advice,
          continuing: state.carried?.attempt === attempt,
          branchHolds: state.history.length ? await branchHolds(ctx, memory.resuming ? null : memory.startSha, rec.changedFiles) : undefined,
        },
        ...(signal ? { signal } : {}),
      },
      ctx.log,
      agentRun(ctx, { agent: 'worker', model: config.models[tier], task: t.leg, attempt }),
    ).finally(() => clearTimeout(timer));
    ctx.log.info(
      `${t.leg} attempt ${attempt}: the worker stopped (${workerRun.stop}) after ${workerRun.turns} turns${workerRun.error ? `: ${workerRun.error}` : ''}`,
    );
  }
  clearTimeout(timer);
  const elapsedMs = Math.max(0, ctx.clock.now().getTime() - started);
  // run_command can write anywhere the tool user can; what it did to protected paths never reaches a commit.
  const reverted = await ctx.repo.restorePaths((path) => isProtectedPath(config.protected_paths, path));
  if (reverted.length) ctx.log.warn(`${t.leg} attempt ${state.attempt}: undid changes to protected paths: ${reverted.join(', ')}`);
  // Only a stop the job's limit caused hands over (not a shutdown or a cancellation that came with it).
  const jobLimitReached =
    jobBinds &&
    !ctx.cancellation?.aborted &&
    ((workerRun?.stop === 'interrupted' && jobTimer!.signal.aborted) || (workerRun?.stop === 'wall_clock' && ctx.clock.now().getTime() >= jobStop!.at));
  const changedFiles = await ctx.repo.changedSince(memory.startSha);
  const ran = { handedOver: false as const, workerRun, stopEarly, elapsedMs, reverted, changedFiles, imagesNotLoaded, cut: false };
  if (workerRun && (jobLimitReached || workerRun.stop === 'interrupted') && t.of > 1) {
    // A parallel attempt is not handed on (#50): what it did by the job's limit or a cancellation is its result.
    return { ...ran, cut: true };
  }
  if (workerRun && (await handOver(ctx, t, state, tools, workerRun, { elapsedMs, jobStop, jobLimitReached }))) return { handedOver: true };
  return ran;
}

/**
 * A stop at the job's limit hands the attempt to a new job (the whole job's time counts against
 * task_timeout_minutes); a cancellation saves the work so far for `/crew resume`. True when handed over.
 */
async function handOver(
  ctx: StepContext,
  t: TakenTask,
  state: AttemptState,
  tools: Toolbox,
  workerRun: WorkerRun,
  o: { elapsedMs: number; jobStop: JobStop | undefined; jobLimitReached: boolean },
): Promise<boolean> {
  if (o.jobLimitReached) {
    // A job that got no turn done before its limit would hand over for ever: say so instead.
    if (workerRun.turns === 0) throw noTimeToWork(t.leg, o.jobStop!.minutes);
    // The whole job's time counts against task_timeout_minutes, setup included.
    const jobMs = Math.max(o.elapsedMs, ctx.clock.now().getTime() - o.jobStop!.startedAt);
    await continueInNewJob(
      ctx,
      t.issue,
      t.run,
      { id: t.rec.id, title: t.task.title, branch: t.rec.branch },
      { attempt: state.attempt, firstAttempt: state.firstAttempt },
      { usage: workerRun.usage, turns: workerRun.turns, elapsedMs: jobMs, refused: tools.refused() },
      o.jobStop!.minutes,
    );
    return true;
  }
  // The job is being cancelled: save the work so far and stop; `/crew resume` continues the attempt.
  if (workerRun.stop === 'interrupted') {
    await saveInterruptedAttempt(ctx, t.issue, t.run, { id: t.rec.id, title: t.task.title, branch: t.rec.branch }, state.attempt, {
      ...workerRun,
      refused: tools.refused(),
    });
    return true;
  }
  return false;
}

/** A task stopped at a budget before its attempt: held (pending, its work on its branch), and the run asks once. */
async function holdAtBudget(ctx: StepContext, t: TakenTask, stop: BudgetStop, hold: (stop: BudgetStop) => Promise<boolean>): Promise<void> {
  if (await hold(stop)) await askAtBudget(ctx, t.issue, t.run);
  else await syncPlanComment(ctx, t.issue, t.run);
}

/**
 * A parallel attempt's leg at a budget (#50, #52): the repository's day or month budget before its next attempt, or the
 * run waiting at its or the repository's budget (before an attempt, or its worker stopped at the end of a turn). No
 * worker starts again, and what it did is recorded as its candidate, marked as the budget's: unless another attempt
 * qualifies, the task waits at the budget and this leg goes on from its branch after `/crew continue`.
 */
async function endLegAtBudget(
  ctx: StepContext,
  config: Config,
  t: TakenTask,
  leg: { state: AttemptState; last: AttemptOutcome | undefined; tools: Toolbox; chain: ChainOffer },
  stop: BudgetStop,
): Promise<string | undefined> {
  const { tools } = leg;
  const spent = budgetSpentText(stop);
  ctx.log.info(`${t.leg}: ${spent}; this parallel attempt stops here and is judged on what it did`);
  const next = { attempt: leg.state.attempt, sandboxWarning: tools.warning, mcpNotes: [...tools.mcp.notes] };
  const { outcome, notBegun } = outcomeAtBudget(t, leg.last, next, spent);
  // The leg that completes the set judges, or, with no attempt qualified, the task waits at the budget and asks (parallel-attempts.ts).
  const recorded = await recordAttempt(
    ctx,
    config,
    t,
    outcome,
    { chain: leg.chain, runner: tools.runner, egress: tools.egress, heldAt: stop },
    { spent, notBegun },
  );
  return typeof recorded === 'string' ? recorded : undefined;
}
