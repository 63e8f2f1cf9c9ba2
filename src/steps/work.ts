import { jobTempDir } from '../sandbox/own-temp';
import type { Team } from '../agents/team-tools';
import type { LoopStop } from '../agents/tool-loop';
import { withEffort } from '../agents/effort';
import { workerCompaction } from '../agents/worker-compaction';
import { runWorker, taskFocus, WORKER_MAP_CHARS } from '../agents/worker';
import type { PlanTask } from '../domain/plan';
import { loadImages } from './images';
import { serversFor } from '../domain/mcp';
import { hostAllowed } from '../domain/egress';
import { stdioServerDir } from '../mcp/server-dir';
import { startMcpServers } from '../mcp/servers';
import { checkResult, type Observed } from '../domain/result';
import { runFolder } from '../domain/refs';
import { lastFailure, recallAttempts } from '../domain/attempt-memory';
import { isProtectedPath } from '../domain/glob';
import { jobTimeScale, timeScale } from '../clock';
import { saveMarginMinutes } from '../config/job-limit';
import { attemptAllowance, noRoomForAnotherAttempt } from '../domain/budgets';
import { addSpent, addUsage, NOTHING_SPENT, reviewedSha, totalUsage, ZERO_USAGE, type RunView } from '../domain/run-state';
import { messageId, readInbox, writeMessage } from '../state/inbox';
import { knowledgeLines, KNOWLEDGE_PATH, parseKnowledge } from '../state/knowledge';
import { planOf, readAttemptHistory, taskOf } from '../state/run-files';
import {
  agentRun,
  CrewError,
  DISPATCH_CLOCK_SKEW_MS,
  holdsClaim,
  loadView,
  nonce,
  nowIso,
  planCheckSaw,
  SEEN,
  syncPlanComment,
  updateView,
  type StepContext,
} from './context';
import { continueInNewJob, saveInterruptedAttempt } from './interruption';
import { MAX_OUTPUT_BYTES, prepareTools } from './sandbox-setup';
import { mapFor, readRepoView } from './repo-map';
import { addRefusals } from '../domain/egress';
import { attemptCommitMessage, recordFinal, recordRetry, type AttemptOutcome, type ChainOffer } from './task-results';
import type { Config } from '../config/schema';
import { BranchMoved, type WriteOptions } from '../ports';
import { promptWithInstructions } from './agent-instructions';
import { sentence } from '../domain/surface';

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
 * later run waits for the earlier one's `work (<task>)` job to end, then looks again: the task
 * is recorded (nothing to do) or still waits for a worker (this leg takes it). A leg of another
 * issue's task with the same id only delays this one. Runs still queued are not looked at (a leg
 * waiting on one could hold the runner it needs), so if the earlier run starts after the later
 * one, both work the task and the first record wins.
 */
async function noEarlierLeg(ctx: StepContext, issue: number, run: number, view: RunView, taskId: string): Promise<boolean> {
  const claim = view.tasks.get(taskId)?.claim;
  if (!claim || claim.runId === ctx.runId) return true;
  const since = new Date(Date.parse(claim.at) - DISPATCH_CLOCK_SKEW_MS).toISOString();
  for (;;) {
    const earlier = (await ctx.forge.earlierWorkLegs?.(taskId, since, ctx.runId)) ?? [];
    if (!earlier.length) return true;
    ctx.log.info(
      `${taskId}: workflow run ${earlier.join(', ')} has a work job for ${taskId} still going (maybe a first run of this same dispatch); waiting for it to end`,
    );
    await ctx.clock.sleep(EARLIER_LEG_POLL_MS * timeScale());
    if (ctx.cancellation?.aborted || !dispatchedClaimHeld(ctx, await loadView(ctx, issue, run), taskId)) return false;
  }
}

/**
 * The `work` job: its task, on its own branch, from claim to pushed result, retrying within the
 * job. When recording it claims the one task it unblocked for this job (recordFinal's chain),
 * the job runs that one next, on the same runner and checkout, and so on down the chain.
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
  let taskId: string | undefined = first;
  let chained = false;
  while (taskId) {
    const next: string | undefined = await runTask(ctx, config, issue, run, taskId, { chained, stopTime, chain });
    if (!next) return;
    // The state write that recorded the task claimed `next` for this workflow run: it is ours now.
    ctx.log.info(`crew task: ${next} (unblocked by ${taskId}; it runs next in this job, on the same runner)`);
    // Later messages (failovers, failures) name the task the job is on now.
    ctx.settings = { ...ctx.settings, task: next };
    if (ctx.job) ctx.job.chained = [...(ctx.job.chained ?? []), next];
    taskId = next;
    chained = true;
  }
}

type JobStop = { at: number; minutes: number; startedAt: number };

/**
 * The worker checks its inbox between turns. Asking GitHub for the state's tip each time is a
 * round trip per turn; a teammate's message or an abort's shutdown request can wait this long
 * instead (30 s, time-scaled), which a turn of a real model mostly takes anyway.
 */
const TEAM_NEWS_MS = 30_000;
const teamFreshness = () => ({ seenWithinMs: TEAM_NEWS_MS * timeScale() });

/** One task of a work job, from its claim to its recorded result; returns the task the record chained to this job, if any. */
async function runTask(
  ctx: StepContext,
  config: Config,
  issue: number,
  run: number,
  taskId: string,
  job: { chained: boolean; stopTime: (taskId: string) => Promise<JobStop | undefined>; chain: ChainOffer },
): Promise<string | undefined> {
  const prefix = `${runFolder(issue, run)}/`;
  // A chained task was claimed for this job by its own last write, so the tip it saw will do. A job's
  // first read lists no branches: where the task's branch may exist, its fetch below asks for it.
  const view = await loadView(ctx, issue, run, job.chained ? SEEN : { withoutBranches: true });
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
  // A chained task was claimed for this workflow run by the write that recorded the one before.
  if (job.chained && rec.claim?.runId !== ctx.runId) {
    ctx.log.info(`${taskId} is no longer held by this workflow run; nothing more to do in this job`);
    return;
  }
  if (!job.chained && ctx.event.kind === 'dispatch' && !(dispatchedClaimHeld(ctx, view, taskId) && (await noEarlierLeg(ctx, issue, run, view, taskId)))) {
    ctx.log.info(`the dispatch for ${taskId} is stale (another job holds it, or it finished); nothing to do`);
    return;
  }

  // Read before anything runs in the checkout: the limit comes from the default branch's workflow.
  const jobStop = await job.stopTime(taskId);

  // The branch starts from the run's base plus the work of every task it depends on.
  await ctx.remote.fetchCommit(view.run.base.sha);
  const depBranches = task.dependsOn.map((d) => taskOf(view, d).branch);
  // A task on its first attempt with no pushed work recorded has no branch yet, where a branch moves with its
  // record (one push carries both): nothing to ask. Every re-claim of a task whose worker was lost first looks
  // at its branch (takePushedResult): a pushed attempt counts, and work no record names (a save cut short
  // between its push and its write) becomes the task's headSha, so the attempt that follows fetches it. What is
  // left, a re-run of this very job after such a push, is BranchMoved at this job's write, which then rebases.
  const noBranchYet = ctx.state.carriesBranches === true && rec.attempts <= 1 && rec.headSha === null && !rec.continued && depBranches.length === 0;
  const { missing } = noBranchYet ? { missing: [rec.branch] } : await ctx.remote.fetch([rec.branch, ...depBranches]);
  const resuming = !missing.includes(rec.branch);
  const mergeDependencies = async () => {
    for (const dep of task.dependsOn) {
      const branch = taskOf(view, dep).branch;
      if (missing.includes(branch))
        throw new CrewError(
          `task ${taskId}`,
          `the branch of ${dep} (${branch}) is missing, although ${dep} succeeded.`,
          `${sentence(ctx.surface.give('run'))} to start a fresh run.`,
          false,
        );
      const merged = await ctx.repo.merge(ctx.remote.tracking(branch), `crew: start ${taskId} from ${dep}`);
      if (!merged.ok)
        throw new CrewError(
          `task ${taskId}`,
          `the results of its dependencies conflict in ${merged.conflicts.join(', ')}.`,
          `Resolve the overlap in the plan and ${ctx.surface.give('run')} again.`,
          false,
        );
    }
  };
  // Where the task's own work starts: the base with its dependencies merged in. The files the task
  // changed are counted from there, on a resumed branch too (never from the base, which would count
  // its dependencies' files as its own).
  await ctx.repo.checkoutNew(rec.branch, view.run.base.sha);
  await mergeDependencies();
  const startSha = await ctx.repo.head();
  if (resuming) {
    await ctx.repo.checkoutNew(rec.branch, ctx.remote.tracking(rec.branch));
    // A dependency sent back by the critic may have moved on since this branch started.
    await mergeDependencies();
  }
  ctx.log.checkpoint('work-started');

  // Only the run's base itself is the repository's reviewed code; a resumed branch or merged dependencies hold a model's.
  // A chained task's checkout is the one the task before it worked in: ignored files its commands left (setup
  // output is excluded, `git clean` keeps it) are a model's, so its setup runs in the sandbox whatever its start.
  // A follow-up's base is its pull request's head, a model's: reviewedSha is then the first run's base, never this checkout.
  const trusted = !job.chained && (await ctx.repo.head()) === reviewedSha(view.run);
  const mcpServers = serversFor(config.mcp_servers, 'worker');
  const { runner, warning, setupFailure, egress } = await prepareTools(ctx, config, { trusted, mcp: mcpServers.some(([, s]) => !!s.command) });
  // What the proxy refuses in this job adds to what the task's earlier jobs recorded.
  const refusedBefore = rec.refused;
  if (config.setup.length) {
    const produced = await ctx.repo.excludeUntracked();
    if (produced.length) ctx.log.info(`setup produced ${produced.length} untracked path(s); they stay out of the task's commits`);
  }
  const knowledge = parseKnowledge(await ctx.readDefaultBranchFile(KNOWLEDGE_PATH));
  for (const p of knowledge.problems) ctx.log.warn(p);
  let looked = false;
  const team: Team = {
    running: async () =>
      [...(await loadView(ctx, issue, run, teamFreshness())).tasks.values()]
        .filter((t) => t.id !== taskId && (t.status === 'running' || t.status === 'retrying'))
        .map((t) => t.id),
    send: async (to, text) => {
      await updateView(ctx, issue, run, `${taskId} messages ${to}`, (v, tx) => {
        const targets =
          to === 'all' ? [...v.tasks.values()].filter((t) => t.id !== taskId && (t.status === 'running' || t.status === 'retrying')).map((t) => t.id) : [to];
        const at = nowIso(ctx);
        for (const target of targets)
          writeMessage(tx, issue, run, {
            id: messageId(at, taskId, nonce()),
            from: taskId,
            to: target,
            type: to === 'all' ? 'broadcast' : 'message',
            text,
            at,
          });
      });
    },
    inbox: async () => {
      // An attempt's first look may use what the job last saw (it read the state to start the task); later looks are fresh within TEAM_NEWS_MS.
      const fresh = looked ? teamFreshness() : SEEN;
      looked = true;
      const seen = await ctx.state.load(prefix, fresh);
      // A look GitHub answered also makes the check put off after the job's last plan comment edit. The
      // worker's turn does not hang on the comment: a failed render stays pending for the job's end.
      await planCheckSaw(ctx, issue, run, seen).catch((e: unknown) =>
        ctx.log.warn(`could not bring the plan comment up to date between turns (tried again at the job's end): ${e instanceof Error ? e.message : String(e)}`),
      );
      return readInbox(seen, issue, run, taskId);
    },
  };

  // Memory from earlier attempts, this job's and those recorded before it (a resumed job, a re-run task).
  const history = readAttemptHistory(await ctx.state.load(prefix, SEEN), issue, run, taskId, rec.attempts);
  let attempt = rec.attempts;
  // An attempt carried over from a job that ran out of time keeps its retry allowance.
  const carried = rec.continued && rec.continued.attempt === attempt && resuming ? rec.continued : undefined;
  const firstAttempt = carried?.firstAttempt ?? attempt;
  const tier = rec.tierOverride ?? task.tier;
  const isProtected = (path: string) => isProtectedPath(config.protected_paths, path);
  // The repository's MCP servers for workers (#36), started once per task; their tools go through the worker's tool loop.
  // Started last, right before the `try` whose `finally` stops them: nothing that may throw comes between.
  const serverDir = await stdioServerDir({
    // With no stdio server to start, there is nothing to copy.
    trusted: trusted || setupFailure !== null || !mcpServers.some(([, s]) => !!s.command),
    repo: ctx.repo,
    remote: ctx.remote,
    reviewedSha: reviewedSha(view.run),
    tempDir: jobTempDir(),
    log: ctx.log,
  });
  const mcp = await startMcpServers({
    servers: setupFailure ? [] : mcpServers,
    runner,
    cwd: serverDir.dir,
    // What the step's own `env:` passes (the full form), and the crew_env input's variables (either form) over it.
    env: { ...process.env, ...ctx.settings.crewEnv },
    network: runner?.egress ? 'allowlist' : 'none',
    allowedHost: (host) => hostAllowed(config.network.allow, host),
    log: ctx.log,
  }).catch(async (e: unknown) => {
    await serverDir.dispose();
    throw e;
  });
  try {
    for (;;) {
      looked = false;
      // What the task and the run have spent: this job's own last write or read holds it (a parallel
      // task's spending is a moment behind at most, as it is between any two reads).
      const current = await loadView(ctx, issue, run, SEEN);
      const runSpent = totalUsage(current);
      // The task's budgets are hard stops across its attempts: what earlier attempts spent is gone.
      const taskSpent = current.tasks.get(taskId)?.spent ?? NOTHING_SPENT;
      // Each attempt has its own budget, within what the task's attempts and the run have left (#49).
      const left = { ...attemptAllowance(config.budgets, taskSpent, runSpent), ms: config.task_timeout_minutes * 60_000 - taskSpent.ms };
      const stopEarly: Observed['ending'] | null = setupFailure
        ? 'no_report'
        : left.tokens <= 0 || left.costUsd <= 0
          ? 'budget'
          : left.ms <= 0
            ? 'wall_clock'
            : null;
      const started = ctx.clock.now().getTime();
      // The job's limit comes before the task's: the attempt stops in time to save, and goes on in a new job.
      const jobBinds = jobStop !== undefined && jobStop.at < started + left.ms;
      if (!stopEarly && jobBinds && started >= jobStop.at) throw noTimeToWork(taskId, jobStop.minutes);
      const jobTimer = jobBinds ? new AbortController() : undefined;
      const timer = jobTimer ? setTimeout(() => jobTimer.abort(), Math.max(0, jobStop!.at - started)) : undefined;
      const signal = jobTimer ? (ctx.cancellation ? AbortSignal.any([ctx.cancellation, jobTimer.signal]) : jobTimer.signal) : ctx.cancellation;
      let workerRun;
      let imagesNotLoaded: string[] = [];
      if (!stopEarly) {
        // The images this task lists (#36), fetched again and checked against planning's hashes.
        const shown = task.images?.length ? await loadImages(ctx, view.run.images, task.images) : { images: [], missing: [] };
        imagesNotLoaded = shown.missing;
        workerRun = await runWorker(
          withEffort(ctx.model(), config.effort, 'worker'),
          {
            task,
            plan: planOf(view),
            attempt,
            repoDir: ctx.repo.dir,
            protectedPaths: config.protected_paths,
            maxTurns: config.worker_max_turns,
            maxOutputTokens: config.max_output_tokens.worker,
            modelId: config.models[tier],
            system: await promptWithInstructions(ctx, `worker_${task.persona}`, reviewedSha(view.run), task.files),
            ...(await workerMap(ctx, task)),
            commands: {
              runner,
              unavailable: warning ?? undefined,
              policy: config.commands,
              timeoutMs: config.command_timeout_seconds * 1000,
              maxOutputBytes: MAX_OUTPUT_BYTES,
              ...(egress?.tools === 'allowlist' ? { network: 'allowlist' as const } : {}),
              ...(jobBinds ? { until: jobStop!.at, now: () => ctx.clock.now().getTime() } : {}),
            },
            team,
            ...(shown.images.length ? { images: shown.images } : {}),
            ...(shown.missing.length ? { imagesNotLoaded: shown.missing } : {}),
            ...(mcp.tools.length ? { extraTools: mcp.tools } : {}),
            limits: { tokens: left.tokens, costUsd: left.costUsd, deadline: jobBinds ? jobStop!.at : started + left.ms, now: () => ctx.clock.now().getTime() },
            compaction: workerCompaction(
              config,
              ctx.model(),
              tier,
              () => ctx.template('summarizer'),
              () => ctx.repo.workingDiffStat(startSha),
            ),
            memory: {
              attempts: recallAttempts(history, config.history_context_size),
              lastFailure: lastFailure(history),
              knowledge: knowledgeLines(knowledge.entries, config.knowledge_context_size),
              advice: rec.advice,
              continuing: carried?.attempt === attempt,
              branchHolds: history.length ? await branchHolds(ctx, resuming ? null : startSha, rec.changedFiles) : undefined,
            },
            ...(signal ? { signal } : {}),
          },
          ctx.log,
          agentRun(ctx, { agent: 'worker', model: config.models[tier], task: taskId, attempt }),
        ).finally(() => clearTimeout(timer));
        ctx.log.info(
          `${taskId} attempt ${attempt}: the worker stopped (${workerRun.stop}) after ${workerRun.turns} turns${workerRun.error ? `: ${workerRun.error}` : ''}`,
        );
      }
      clearTimeout(timer);
      const elapsedMs = Math.max(0, ctx.clock.now().getTime() - started);
      // run_command can write anywhere the tool user can; what it did to protected paths never reaches a commit.
      const reverted = await ctx.repo.restorePaths(isProtected);
      if (reverted.length) ctx.log.warn(`${taskId} attempt ${attempt}: undid changes to protected paths: ${reverted.join(', ')}`);
      // Only a stop the job's limit caused hands over (not a shutdown or a cancellation that came with it).
      const jobLimitReached =
        jobBinds &&
        !ctx.cancellation?.aborted &&
        ((workerRun?.stop === 'interrupted' && jobTimer!.signal.aborted) || (workerRun?.stop === 'wall_clock' && ctx.clock.now().getTime() >= jobStop!.at));
      if (workerRun && jobLimitReached) {
        // A job that got no turn done before its limit would hand over for ever: say so instead.
        if (workerRun.turns === 0) throw noTimeToWork(taskId, jobStop!.minutes);
        // The whole job's time counts against task_timeout_minutes, setup included.
        const jobMs = Math.max(elapsedMs, ctx.clock.now().getTime() - jobStop!.startedAt);
        await continueInNewJob(
          ctx,
          issue,
          run,
          { id: taskId, title: task.title, branch: rec.branch },
          { attempt, firstAttempt },
          { usage: workerRun.usage, turns: workerRun.turns, elapsedMs: jobMs, refused: addRefusals(refusedBefore, egress?.refused(), mcp.refused()) },
          jobStop!.minutes,
        );
        return undefined;
      }
      // The job is being cancelled: save the work so far and stop; `/crew resume` continues the attempt.
      if (workerRun?.stop === 'interrupted') {
        await saveInterruptedAttempt(ctx, issue, run, { id: taskId, title: task.title, branch: rec.branch }, attempt, {
          ...workerRun,
          refused: addRefusals(refusedBefore, egress?.refused(), mcp.refused()),
        });
        return undefined;
      }
      const ending: Observed['ending'] =
        stopEarly ??
        (workerRun!.reported && workerRun!.stop === 'final'
          ? 'reported'
          : (
              {
                final: 'reported',
                max_turns: 'max_turns',
                no_final: 'no_report',
                budget: 'budget',
                wall_clock: 'wall_clock',
                shutdown: 'shutdown',
                error: 'error',
                loop: 'loop',
              } as const
            )[workerRun!.stop as Exclude<LoopStop, 'interrupted'>]);
      const seen: Observed = {
        persona: task.persona,
        ending,
        changedFiles: await ctx.repo.changedSince(startSha),
        turns: workerRun?.turns ?? 0,
        usage: workerRun?.usage ?? ZERO_USAGE,
        toolCalls: workerRun?.toolCalls ?? {},
        elapsedMs,
        ...(reverted.length ? { reverted } : {}),
        ...(workerRun?.error ? { error: workerRun.error } : {}),
        ...(workerRun?.limit ? { limit: workerRun.limit } : {}),
      };
      let checked = checkResult(workerRun?.reported, seen);
      if (setupFailure) checked = { ...checked, status: 'failure', retry: false, reason: setupFailure, summary: setupFailure };
      // Each job gets 1 + max_retries attempts; a retry a person or the advisor asked for starts a fresh allowance.
      // An impediment the worker reported goes to the leader at once: retrying blind would only repeat it.
      const impeded = checked.feedback?.type === 'difficulty';
      // A success the rules sent back (a report under 20 lines: RED) is retried like any other, while attempts are left.
      // A retry needs room in the task's and the run's budgets after this attempt's spending.
      const noRoom = checked.retry ? noRoomForAnotherAttempt(config.budgets, addSpent(taskSpent, seen.usage, 0), addUsage(runSpent, seen.usage)) : null;
      if (noRoom) checked = { ...checked, reason: `${checked.reason ?? checked.summary}; ${noRoom}` };
      const final = attempt >= firstAttempt + config.max_retries || !checked.retry || impeded || noRoom !== null;
      // The attempt's trajectory is kept before its result is recorded, so the record can link it (and the job's log).
      const [log, trajectory] = await Promise.all([ctx.jobLink?.() ?? null, ctx.trajectories?.publish(`${taskId}-attempt${attempt}`) ?? null]);
      const outcome: AttemptOutcome = {
        attempt,
        checked,
        seen,
        final,
        sandboxWarning: warning,
        mcpNotes: [...mcp.notes],
        imagesNotLoaded,
        links: { log, trajectory },
        refused: addRefusals(refusedBefore, egress?.refused(), mcp.refused()),
      };
      // Whatever happened, the work and crew's judgement of it are pushed together, so nothing is lost.
      await ctx.repo.commitAll(attemptCommitMessage(taskId, task.title, outcome), { allowEmpty: true });
      // The worker looked at the state between its turns: a write from that tip loses only if the tip moved since.
      const record = (headSha: string, carry?: WriteOptions['carry']) => {
        const options = { ...teamFreshness(), ...(carry ? { carry } : {}) };
        return final
          ? recordFinal(ctx, issue, run, taskId, outcome, headSha, job.chain, options)
          : recordRetry(ctx, issue, run, taskId, outcome, headSha, options);
      };
      const pushThenRecord = async () => {
        await ctx.remote.push(rec.branch);
        const headSha = await ctx.repo.head();
        ctx.log.checkpoint('task-pushed');
        return record(headSha);
      };
      let recorded: string | undefined | void;
      if (!ctx.state.carriesBranches) recorded = await pushThenRecord();
      else {
        // One push for the work and its record (#17 §3): both land, or neither. A branch another
        // worker of this task moved meanwhile takes the separate way, which rebases onto its push.
        const headSha = await ctx.repo.head();
        recorded = await record(headSha, { branch: rec.branch, sha: headSha }).catch((e: unknown) => {
          if (!(e instanceof BranchMoved)) throw e;
          ctx.log.info(`${rec.branch} moved while ${taskId} worked; pushing it on its own first`);
          return pushThenRecord();
        });
      }
      if (final) return recorded || undefined;
      history.push({ attempt, status: checked.status, summary: checked.summary, reason: checked.reason });
      attempt++;
      ctx.log.info(`${taskId}: retrying (attempt ${attempt - firstAttempt + 1} of ${1 + config.max_retries}) because ${checked.reason}`);
      await syncPlanComment(ctx, issue, run);
    }
  } finally {
    await mcp.close();
    await serverDir.dispose();
  }
}

/**
 * When this job must stop working to save in time: its `timeout-minutes` less a margin, from
 * when the job started (scaled in tests by CREW_JOB_TIME_SCALE); undefined without a limit
 * (local mode). Says so when the task may outlast the job, or the limit could not be read.
 */
async function jobStopTime(ctx: StepContext, taskMinutes: number, taskId: string): Promise<JobStop | undefined> {
  const limit = await ctx.jobLimit?.();
  if (!limit) return undefined;
  const usable = limit.minutes - saveMarginMinutes(limit.minutes);
  if (limit.unreadable)
    ctx.log.warn(`crew could not read this job's time limit (${limit.unreadable}), so it assumes the shipped workflow's ${limit.minutes} minutes`);
  if (taskMinutes > usable) {
    ctx.log.warn(
      `task_timeout_minutes (${taskMinutes}) is longer than this work job can run (timeout-minutes: ${limit.minutes}): ${taskId} saves its work ${saveMarginMinutes(limit.minutes)} minutes before the job's limit and goes on in a new job. ${limit.calledWorkflow ? "To keep a task in one job, use the full workflow (crew's docs/workflow.md) and raise its work job's timeout-minutes." : "Raise the work job's timeout-minutes in your workflow to keep a task in one job."}`,
    );
  }
  return { at: limit.startedAt + usable * 60_000 * jobTimeScale(), minutes: limit.minutes, startedAt: limit.startedAt };
}

function noTimeToWork(taskId: string, minutes: number): CrewError {
  return new CrewError(
    `task ${taskId}`,
    `the work job's time limit (timeout-minutes: ${minutes}) left ${taskId} no time to work: crew stops ${saveMarginMinutes(minutes)} minutes before the limit to save the work, and setup and the first model turn took the rest.`,
    "Raise `timeout-minutes` of the work job in your workflow (the README's has 60).",
  );
}

/**
 * What the task's branch holds from earlier attempts, for the next attempt's prompt: the diff
 * stat since the task started, or, on a branch resumed in a new job (whose start is the base
 * plus its dependencies' work), the files earlier attempts recorded.
 */
async function branchHolds(ctx: StepContext, startSha: string | null, recorded: string[]): Promise<string> {
  if (startSha) return (await ctx.repo.diffStat(startSha, 'HEAD')) || '(nothing yet)';
  return recorded.length ? recorded.map((f) => `- ${f}`).join('\n') : '(nothing yet)';
}

/** The worker's repository map, ranked for its task with the definitions read from the checkout (#48). */
async function workerMap(ctx: StepContext, task: PlanTask): Promise<{ repoFiles: string[]; repoMap: string }> {
  const view = await readRepoView(ctx, taskFocus(task));
  return { repoFiles: view.files, repoMap: mapFor(view, taskFocus(task), WORKER_MAP_CHARS) };
}
