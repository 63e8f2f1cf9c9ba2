import { join } from 'node:path';
import { summarize } from '../agents/summarizer';
import type { Team } from '../agents/team-tools';
import { runWorker } from '../agents/worker';
import { checkResult, resultFile, type CheckedResult, type Observed } from '../domain/result';
import { runFolder } from '../domain/refs';
import { addUsage, totalUsage, ZERO_USAGE, type TaskStatus } from '../domain/run-state';
import { prepareSandbox, UnsandboxedRunner, type CommandRunner } from '../sandbox/command-runner';
import { messageId, readInbox, writeMessage } from '../state/inbox';
import { knowledgeLines, KNOWLEDGE_PATH, parseKnowledge } from '../state/knowledge';
import { paths, readView, refreshExecutionLog, writeTask } from '../state/run-files';
import { claimReadyTasks } from '../state/transitions';
import { CrewError, loadView, nonce, nowIso, syncPlanComment, type StepContext } from './context';
import { followUp, settleInState } from './leader';

const MAX_OUTPUT_BYTES = 30_000;

/** The sandbox for run_command, or the reason there is none, said loudly. */
async function commandRunner(ctx: StepContext, allowUnsandboxed: boolean): Promise<{ runner?: CommandRunner; warning: string | null }> {
  const temp = process.env.RUNNER_TEMP ?? '/tmp';
  const prepared = await prepareSandbox(ctx.repo.dir, temp);
  if ('runner' in prepared) {
    ctx.log.info(`run_command is ${prepared.runner.description}`);
    return { runner: prepared.runner, warning: null };
  }
  if (allowUnsandboxed) {
    const runner = new UnsandboxedRunner(join(temp, 'crew-tool-home'));
    ctx.log.warn(`No sandbox: ${prepared.reason}. allow_unsandboxed is on, so ${runner.description}.`);
    return { runner, warning: `commands ran without a sandbox (${prepared.reason})` };
  }
  ctx.log.warn(`No sandbox: ${prepared.reason}. run_command is refused; set allow_unsandboxed: true in .github/crew.yml to run commands without one.`);
  return { warning: `run_command was refused: no sandbox (${prepared.reason})` };
}

/** Trusted setup (config `setup:`), before any agent runs: with network, outside the sandbox, with a scrubbed environment. */
async function runSetup(ctx: StepContext, commands: string[], timeoutMs: number): Promise<string | null> {
  const runner = new UnsandboxedRunner(process.env.HOME ?? '/tmp');
  for (const command of commands) {
    ctx.log.info(`setup: ${command}`);
    const r = await runner.run(command, { cwd: ctx.repo.dir, timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES });
    if (r.exitCode !== 0) return `the setup command \`${command}\` ${r.timedOut ? 'timed out' : `exited with ${r.exitCode}`}: ${r.output.trim().split('\n').slice(-5).join(' / ')}`;
  }
  return null;
}

/** The `work` job: one task, on its own branch, from claim to pushed result, retrying within the job. */
export async function work(ctx: StepContext): Promise<void> {
  const { issue, run, task: taskId } = ctx.settings as Required<typeof ctx.settings>;
  const prefix = `${runFolder(issue, run)}/`;
  const config = await ctx.config();
  const view = await loadView(ctx, issue, run);
  const task = view.plan?.tasks.find((t) => t.id === taskId);
  const rec = view.tasks.get(taskId);
  if (!task || !rec) throw new CrewError(`task ${taskId}`, `task ${taskId} is not part of run ${run} of issue #${issue}.`, 'Comment `/crew run` to start a fresh run.');
  if (view.run.phase !== 'EXECUTING' || (rec.status !== 'running' && rec.status !== 'retrying')) {
    ctx.log.info(`task ${taskId} is ${rec.status} and the run is ${view.run.phase}; nothing to do`);
    return;
  }

  // The branch starts from the run's base plus the work of every task it depends on.
  await ctx.repo.fetchCommit(view.run.base.sha);
  const depBranches = task.dependsOn.map((d) => view.tasks.get(d)!.branch);
  const { missing } = await ctx.repo.fetch([rec.branch, ...depBranches]);
  const resuming = !missing.includes(rec.branch);
  await ctx.repo.checkoutNew(rec.branch, resuming ? `refs/remotes/origin/${rec.branch}` : view.run.base.sha);
  if (!resuming) {
    for (const dep of task.dependsOn) {
      const branch = view.tasks.get(dep)!.branch;
      if (missing.includes(branch)) throw new CrewError(`task ${taskId}`, `the branch of ${dep} (${branch}) is missing, although ${dep} succeeded.`, 'Comment `/crew run` to start a fresh run.');
      const merged = await ctx.repo.merge(`refs/remotes/origin/${branch}`, `crew: start ${taskId} from ${dep}`);
      if (!merged.ok) throw new CrewError(`task ${taskId}`, `the results of its dependencies conflict in ${merged.conflicts.join(', ')}.`, 'Resolve the overlap in the plan and comment `/crew run` again.');
    }
  }
  const startSha = resuming ? view.run.base.sha : await ctx.repo.head();
  ctx.log.checkpoint('work-started');

  const setupFailure = await runSetup(ctx, config.setup, config.command_timeout_seconds * 1000);
  if (config.setup.length) {
    const produced = await ctx.repo.excludeUntracked();
    if (produced.length) ctx.log.info(`setup produced ${produced.length} untracked path(s); they stay out of the task's commits`);
  }
  const { runner, warning } = setupFailure ? { runner: undefined, warning: null } : await commandRunner(ctx, config.allow_unsandboxed);
  const knowledge = parseKnowledge(await ctx.readDefaultBranchFile(KNOWLEDGE_PATH));
  for (const p of knowledge.problems) ctx.log.warn(p);
  const team: Team = {
    running: async () => [...(await loadView(ctx, issue, run)).tasks.values()].filter((t) => t.id !== taskId && (t.status === 'running' || t.status === 'retrying')).map((t) => t.id),
    send: async (to, text) => {
      await ctx.state.update(prefix, `issue #${issue} run ${run}: ${taskId} messages ${to}`, (tx) => {
        const v = readView(tx, issue, run)!;
        const targets = to === 'all' ? [...v.tasks.values()].filter((t) => t.id !== taskId && (t.status === 'running' || t.status === 'retrying')).map((t) => t.id) : [to];
        const at = nowIso(ctx);
        for (const target of targets) writeMessage(tx, issue, run, { id: messageId(at, taskId, nonce()), from: taskId, to: target, type: to === 'all' ? 'broadcast' : 'message', text, at });
      });
    },
    inbox: async () => readInbox(await ctx.state.load(prefix), issue, run, taskId),
  };

  const attempts: string[] = [];
  let lastFailure: string | null = null;
  let attempt = rec.attempts;
  const firstAttempt = attempt;
  const tier = rec.tierOverride ?? task.tier;
  let checked: CheckedResult;
  let seen: Observed;
  let headSha: string;
  for (;;) {
    const current = await loadView(ctx, issue, run);
    const spent = totalUsage(current);
    const remainingTokens = config.budgets.run.tokens - (spent.inputTokens + spent.outputTokens + spent.cacheReadTokens + spent.cacheWriteTokens);
    const remainingCost = config.budgets.run.cost_usd - spent.costUsd;
    const stopEarly: Observed['ending'] | null = setupFailure ? 'no_report' : remainingTokens <= 0 || remainingCost <= 0 ? 'budget' : null;
    let workerRun;
    if (!stopEarly) {
      workerRun = await runWorker(
        ctx.model(),
        {
          task,
          plan: view.plan!,
          attempt,
          repoDir: ctx.repo.dir,
          protectedPaths: config.protected_paths,
          maxTurns: config.worker_max_turns,
          modelId: config.models[tier],
          system: await ctx.template(`worker_${task.persona}`),
          commands: { runner, unavailable: warning ?? undefined, policy: config.commands, timeoutMs: config.command_timeout_seconds * 1000, maxOutputBytes: MAX_OUTPUT_BYTES },
          team,
          limits: { tokens: Math.min(config.budgets.task.tokens, remainingTokens), costUsd: Math.min(config.budgets.task.cost_usd, remainingCost), deadline: Date.now() + config.task_timeout_minutes * 60_000 },
          compaction: {
            budgetTokens: config.context_budget,
            summarize: async (previous, messages) => summarize(ctx.model(), config.models.haiku, await ctx.template('summarizer'), previous, messages),
          },
          memory: { attempts: attempts.slice(-config.history_context_size), lastFailure, knowledge: knowledgeLines(knowledge.entries, config.knowledge_context_size), advice: rec.advice },
        },
        ctx.log,
      );
      ctx.log.info(`${taskId} attempt ${attempt}: the worker stopped (${workerRun.stop}) after ${workerRun.turns} turns`);
    }
    // Whatever happened, the work so far is committed and pushed, so nothing is lost.
    await ctx.repo.commitAll(`crew: ${taskId} ${task.title} (attempt ${attempt})`);
    await ctx.repo.push(rec.branch);
    headSha = await ctx.repo.head();
    ctx.log.checkpoint('task-pushed');
    const ending: Observed['ending'] = stopEarly ?? ({ final: 'reported', max_turns: 'max_turns', no_final: 'no_report', budget: 'budget', wall_clock: 'wall_clock', shutdown: 'shutdown' } as const)[workerRun!.stop];
    seen = {
      persona: task.persona,
      ending,
      changedFiles: await ctx.repo.diffFiles(startSha),
      turns: workerRun?.turns ?? 0,
      usage: workerRun?.usage ?? ZERO_USAGE,
      toolCalls: workerRun?.toolCalls ?? {},
    };
    checked = checkResult(workerRun?.reported, seen);
    if (setupFailure) checked = { ...checked, status: 'failure', retry: false, reason: setupFailure, summary: setupFailure };
    // Each job gets 1 + max_retries attempts; a retry a person or the advisor asked for starts a fresh allowance.
    // An impediment the worker reported goes to the leader at once: retrying blind would only repeat it.
    const impeded = checked.feedback?.type === 'difficulty';
    const last = attempt >= firstAttempt + config.max_retries || !checked.retry || checked.status === 'success' || impeded;
    const status: TaskStatus = last ? checked.status : 'retrying';
    const attemptNo = attempt;
    const prior = rec;
    await ctx.state.update(prefix, `issue #${issue} run ${run}: ${taskId} attempt ${attemptNo} ${checked.status}`, (tx) => {
      const mine = readView(tx, issue, run)?.tasks.get(taskId) ?? prior;
      tx.write(paths.attemptResult(issue, run, taskId, attemptNo), resultFile(taskId, attemptNo, checked, seen, headSha));
      if (last) return;
      writeTask(tx, issue, run, { ...mine, status, attempts: attemptNo + 1, usage: addUsage(mine.usage, seen.usage), turns: mine.turns + seen.turns, error: checked.reason, metadataIssues: checked.metadataIssues, sandboxWarning: warning, headSha, changedFiles: seen.changedFiles });
      refreshExecutionLog(tx, issue, run);
    });
    if (last) {
      if (ending === 'shutdown') {
        // The shutdown_response: the leader's record that the worker stopped, and where its work is.
        await ctx.state.update(prefix, `issue #${issue} run ${run}: ${taskId} stopped`, (tx) => {
          const at = nowIso(ctx);
          writeMessage(tx, issue, run, { id: messageId(at, taskId, nonce()), from: taskId, to: 'leader', type: 'shutdown_response', text: `stopped after ${seen.turns} turns; partial work is on ${rec.branch} at ${headSha.slice(0, 7)}`, at });
        });
      }
      break;
    }
    attempts.push(`Attempt ${attemptNo} (${checked.status}): ${checked.summary}${checked.reason ? ` — ${checked.reason}` : ''}`);
    lastFailure = checked.reason;
    attempt++;
    ctx.log.info(`${taskId}: retrying (attempt ${attempt - firstAttempt + 1} of ${1 + config.max_retries}) because ${checked.reason}`);
    await syncPlanComment(ctx, issue, run);
  }

  const now = nowIso(ctx);
  const claimNonce = nonce();
  const final = checked!;
  const observed = seen!;
  const { value: outcome } = await ctx.state.update(prefix, `issue #${issue} run ${run}: ${taskId} ${final.status}`, (tx) => {
    const current = readView(tx, issue, run);
    const mine = current?.tasks.get(taskId);
    if (!current || !mine || (mine.status !== 'running' && mine.status !== 'retrying')) return { claimed: [] as string[], decision: null };
    writeTask(tx, issue, run, {
      ...mine,
      status: final.status,
      claim: null,
      finishedAt: now,
      headSha: headSha!,
      usage: addUsage(mine.usage, observed.usage),
      turns: mine.turns + observed.turns,
      summary: final.summary,
      error: final.status === 'success' ? null : final.reason,
      changedFiles: observed.changedFiles,
      metadataIssues: final.metadataIssues,
      sandboxWarning: warning,
    });
    tx.write(paths.result(issue, run, taskId), resultFile(taskId, attempt, final, observed, headSha!));
    const claim = { runId: `dispatch:${claimNonce}`, nonce: claimNonce, at: now };
    // The leader decides about a failure in the same write, before anything depending on it is marked blocked.
    const decision = settleInState(tx, issue, run, taskId, final, claim);
    const ids = claimReadyTasks(tx, issue, run, config.max_parallel, claim, now);
    refreshExecutionLog(tx, issue, run);
    return { claimed: decision?.action === 'retry_stronger' ? [...ids, taskId] : ids, decision };
  });
  ctx.log.checkpoint('task-recorded');
  if (outcome.claimed.length) {
    // Tasks this one unblocked start now in a new workflow run, not after the rest of this matrix.
    await ctx.forge.dispatch({ issue: String(issue), run: String(run), tasks: JSON.stringify(outcome.claimed), nonce: claimNonce });
  }
  if (outcome.decision && outcome.decision.action !== 'retry_stronger') await followUp(ctx, issue, run, outcome.decision);
  await syncPlanComment(ctx, issue, run);
}
