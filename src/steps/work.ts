import { runWorker, type WorkerReport } from '../agents/worker';
import { runFolder } from '../domain/refs';
import type { TaskStatus } from '../domain/run-state';
import { paths, readView, refreshExecutionLog, writeRun, writeTask } from '../state/run-files';
import { claimReadyTasks } from '../state/transitions';
import { CrewError, loadView, nonce, nowIso, syncPlanComment, type StepContext } from './context';

/** The result file: front matter crew composes from what it observed, the worker's text, and the completion marker. */
function resultMarkdown(taskId: string, report: WorkerReport, changedFiles: string[], headSha: string): string {
  const front = [
    '---',
    `task: ${taskId}`,
    `status: ${report.status}`,
    `turns: ${report.turns}`,
    `head: ${headSha}`,
    `tokens: { input: ${report.usage.inputTokens}, output: ${report.usage.outputTokens}, cache_read: ${report.usage.cacheReadTokens} }`,
    `changed_files: [${changedFiles.map((f) => JSON.stringify(f)).join(', ')}]`,
    `tools_used: { ${Object.entries(report.toolCalls).map(([k, v]) => `${k}: ${v}`).join(', ')} }`,
    '---',
  ];
  return [...front, '', `# Result of ${taskId}`, '', report.summary, '', report.details, '', '<!-- COMPLETE -->', ''].join('\n');
}

/** The `work` job: one task, on its own branch, from claim to pushed result. */
export async function work(ctx: StepContext): Promise<void> {
  const { issue, run, task: taskId } = ctx.settings as Required<typeof ctx.settings>;
  const config = await ctx.config();
  const view = await loadView(ctx, issue, run);
  const task = view.plan?.tasks.find((t) => t.id === taskId);
  const rec = view.tasks.get(taskId);
  if (!task || !rec) throw new CrewError(`task ${taskId}`, `task ${taskId} is not part of run ${run} of issue #${issue}.`, 'Comment `/crew run` to start a fresh run.');
  if (view.run.phase !== 'EXECUTING' || rec.status !== 'running') {
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
  const startSha = await ctx.repo.head();
  ctx.log.checkpoint('work-started');

  const report = await runWorker(
    ctx.model(),
    { task, plan: view.plan!, attempt: rec.attempts, repoDir: ctx.repo.dir, protectedPaths: config.protected_paths, maxTurns: config.worker_max_turns, modelId: config.models[task.tier], system: await ctx.template(`worker_${task.persona}`) },
    ctx.log,
  );
  ctx.log.info(`${taskId}: worker finished with ${report.status} after ${report.turns} turns`);
  const commit = await ctx.repo.commitAll(`crew: ${taskId} ${task.title}\n\n${report.summary}`);
  const changedFiles = await ctx.repo.diffFiles(startSha);
  await ctx.repo.push(rec.branch);
  ctx.log.checkpoint('task-pushed');

  const status: TaskStatus = report.status;
  const now = nowIso(ctx);
  const claimNonce = nonce();
  const { value: claimed } = await ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: ${taskId} ${status}`, (tx) => {
    const current = readView(tx, issue, run);
    const mine = current?.tasks.get(taskId);
    if (!current || !mine || mine.status !== 'running') return [];
    writeTask(tx, issue, run, {
      ...mine,
      status,
      claim: null,
      finishedAt: now,
      headSha: commit.sha,
      usage: report.usage,
      turns: report.turns,
      summary: report.summary,
      error: status === 'success' ? null : report.summary,
      changedFiles,
    });
    tx.write(paths.result(issue, run, taskId), resultMarkdown(taskId, report, changedFiles, commit.sha));
    writeRun(tx, current.run, now);
    const ids = claimReadyTasks(tx, issue, run, config.max_parallel, { runId: `dispatch:${claimNonce}`, nonce: claimNonce, at: now }, now);
    refreshExecutionLog(tx, issue, run);
    return ids;
  });
  ctx.log.checkpoint('task-recorded');
  if (claimed.length) {
    // Tasks this one unblocked start now in a new workflow run, not after the rest of this matrix.
    await ctx.forge.dispatch({ issue: String(issue), run: String(run), tasks: JSON.stringify(claimed), nonce: claimNonce });
  }
  await syncPlanComment(ctx, issue, run);
}
