import { decompose, PlanRejected } from '../agents/decomposer';
import { parseCommand } from '../domain/commands';
import { isTaskId, runFolder, taskBranch } from '../domain/refs';
import { isTerminal, newTaskRecord, ZERO_USAGE, addUsage, type RunRecord } from '../domain/run-state';
import type { CommentEvent, DispatchEvent } from '../event';
import { planMarker, renderPlanComment } from '../render/plan-comment';
import { AVAILABLE, failureComment, helpComment, notYetComment, refusalComment } from '../render/messages';
import { paths, readRun, readView, refreshExecutionLog, runNumbers, writePlan, writeRun, writeTask } from '../state/run-files';
import { claimReadyTasks } from '../state/transitions';
import { sanitize } from '../text/sanitize';
import { COMMAND_HELP } from '../domain/commands';
import { CrewError, failRun, loadView, nonce, nowIso, planLinks, syncPlanComment, type StepContext } from './context';
import { ConfigError } from '../config/schema';

function setOutputs(ctx: StepContext, issue: number | '', run: number | '', tasks: string[]) {
  ctx.output('issue', String(issue));
  ctx.output('run', String(run));
  ctx.output('tasks', JSON.stringify(tasks));
}

/** The `route` job: turns a comment or a dispatch into the set of tasks the matrix runs. */
export async function route(ctx: StepContext): Promise<void> {
  setOutputs(ctx, '', '', []);
  if (ctx.event.kind === 'dispatch') return routeDispatch(ctx, ctx.event);
  return routeComment(ctx, ctx.event);
}

async function routeComment(ctx: StepContext, ev: CommentEvent): Promise<void> {
  if (ev.action !== 'created') return ctx.log.info(`ignoring a comment ${ev.action} event`);
  const command = parseCommand(ev.comment.body);
  if (!command) return ctx.log.info('the comment is not a /crew command; nothing to do');
  if (ev.comment.author.type !== 'User') return ctx.log.info(`ignoring a command from ${ev.comment.author.login} (${ev.comment.author.type})`);
  const issue = ev.issue.number;

  await ctx.forge.react(ev.comment.id, 'eyes');
  let permission;
  try {
    permission = await ctx.forge.permissionOf(ev.comment.author.login);
  } catch (e) {
    // Fail closed: without a definite answer nobody is trusted.
    throw new CrewError('the permission check', `GitHub did not answer the permission check for @${ev.comment.author.login} (${(e as Error).message}), so crew did not act.`, 'Comment the command again in a minute.');
  }
  if (permission !== 'admin' && permission !== 'write') {
    await ctx.forge.postComment(issue, refusalComment(ev.comment.author.login, permission));
    return;
  }
  if (ev.issue.isPull) {
    await ctx.forge.postComment(issue, 'crew works from issues. Comment `/crew run` on the issue that describes the change.');
    return;
  }

  switch (command.kind) {
    case 'help':
      await ctx.forge.postComment(issue, helpComment());
      return;
    case 'unknown':
      await ctx.forge.postComment(issue, helpComment(command.word));
      return;
    case 'status':
      return status(ctx, issue);
    case 'run':
      return startRun(ctx, ev);
    default: {
      const usage = COMMAND_HELP.find((c) => c.kind === command.kind)?.usage ?? `/crew ${command.kind}`;
      if (!AVAILABLE.has(command.kind)) await ctx.forge.postComment(issue, notYetComment(usage));
    }
  }
}

async function status(ctx: StepContext, issue: number): Promise<void> {
  const snap = await ctx.state.load(`issue-${issue}/`);
  const last = runNumbers(snap, issue).at(-1);
  if (last === undefined) {
    await ctx.forge.postComment(issue, 'There is no crew run on this issue yet. Comment `/crew run` to start one.');
    return;
  }
  await syncPlanComment(ctx, issue, last);
}

async function startRun(ctx: StepContext, ev: CommentEvent): Promise<void> {
  const issue = ev.issue.number;
  let config;
  try {
    config = await ctx.config();
  } catch (e) {
    if (e instanceof ConfigError) throw new CrewError('reading the configuration', `${e.message}\n\nThe run did not start.`, 'Fix `.github/crew.yml` on the default branch, then comment `/crew run` again.');
    throw e;
  }
  ctx.model(); // fails now, with a clear message, if no key was given
  const defaultBranch = await ctx.forge.defaultBranch();
  const baseSha = await ctx.repo.remoteSha(defaultBranch);
  if (!baseSha) throw new CrewError('starting the run', `the default branch '${defaultBranch}' has no commits.`, 'Push a first commit, then comment `/crew run`.');
  const now = nowIso(ctx);

  const { value: outcome } = await ctx.state.update(`issue-${issue}/`, `issue #${issue}: start a run`, (tx) => {
    const last = runNumbers(tx, issue).at(-1);
    const lastRec = last !== undefined ? readRun(tx, issue, last) : undefined;
    // The same comment again (a re-run of this job) continues its own run.
    if (lastRec && lastRec.trigger.commentId === ev.comment.id) return { kind: 'existing' as const, record: lastRec };
    if (lastRec && !isTerminal(lastRec.phase)) return { kind: 'busy' as const, record: lastRec };
    const k = (last ?? 0) + 1;
    const record: RunRecord = {
      schema: 1,
      issue,
      run: k,
      phase: 'PLANNING',
      title: ev.issue.title,
      version: 0,
      requestedBy: ev.comment.author.login,
      trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt },
      base: { branch: defaultBranch, sha: baseSha },
      planCommentId: null,
      pr: null,
      usage: ZERO_USAGE,
      createdAt: now,
      updatedAt: now,
      failure: null,
      finalizer: null,
    };
    tx.write(paths.request(issue, k), `# ${ev.issue.title}\n\n${ev.issue.body}\n`);
    return { kind: 'created' as const, record: writeRun(tx, record, now) };
  });

  if (outcome.kind === 'busy') {
    const r = outcome.record;
    await ctx.forge.postComment(issue, `crew is already working on this issue (run ${r.run}, ${r.phase.toLowerCase()}). Follow it in the plan comment; a new run can start once it has finished.`);
    return;
  }
  const run = outcome.record.run;
  ctx.log.checkpoint('run-created');
  await ensurePlanComment(ctx, issue, run, outcome.kind === 'existing');
  if (outcome.kind === 'existing' && outcome.record.phase !== 'PLANNING') {
    // Already planned by an earlier attempt of this job: hand on whatever is claimed for this workflow run.
    const view = await loadView(ctx, issue, run);
    const mine = [...view.tasks.values()].filter((t) => t.status === 'running' && t.claim?.runId === ctx.runId).map((t) => t.id);
    setOutputs(ctx, issue, run, mine);
    return;
  }

  let planned;
  try {
    const files = await ctx.repo.listFiles();
    planned = await decompose(ctx.model(), config.models[config.default_model], { title: sanitize(ev.issue.title, 300), body: sanitize(ev.issue.body), files, maxTasks: config.max_tasks }, ctx.log);
  } catch (e) {
    if (!(e instanceof PlanRejected)) throw e;
    const message = `The model's plan failed crew's checks ${e.attempts} time${e.attempts > 1 ? 's' : ''}. The last problems were:\n${e.errors.map((x) => `- ${x}`).join('\n')}`;
    await failRun(ctx, issue, run, 'planning', message.split('\n')[0]!);
    await syncPlanComment(ctx, issue, run);
    await ctx.forge.postComment(issue, failureComment('planning', message, ctx.forge.runLink(), 'Make the issue more specific (what to change, and how to check it is done), then comment `/crew run` again.'));
    return;
  }
  const { plan, usage } = planned;
  const claimNonce = nonce();
  const { value: claimed } = await ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: plan with ${plan.tasks.length} tasks`, (tx) => {
    const rec = readRun(tx, issue, run)!;
    if (rec.phase !== 'PLANNING') return [];
    writePlan(tx, issue, run, plan, planMarkdown(plan), (id) => taskMarkdown(plan, id));
    for (const t of plan.tasks) writeTask(tx, issue, run, newTaskRecord(t.id, taskBranch(issue, run, t.id)));
    writeRun(tx, { ...rec, phase: 'EXECUTING', usage: addUsage(rec.usage, usage) }, now);
    const ids = claimReadyTasks(tx, issue, run, config.max_parallel, { runId: ctx.runId, nonce: claimNonce, at: now }, now);
    refreshExecutionLog(tx, issue, run);
    return ids;
  });
  ctx.log.checkpoint('plan-recorded');
  setOutputs(ctx, issue, run, claimed);
  await syncPlanComment(ctx, issue, run);
}

/**
 * Posts the run's plan comment once and records its id. When this job is a repeat
 * (an earlier attempt may have posted before recording the id), it first looks for
 * the comment by marker and author.
 */
async function ensurePlanComment(ctx: StepContext, issue: number, run: number, repeat: boolean): Promise<void> {
  const view = await loadView(ctx, issue, run);
  if (view.run.planCommentId !== null) return;
  const found = repeat ? await ctx.forge.findComment(issue, planMarker(issue, run), await ctx.forge.botLogin()) : undefined;
  const ref = found ?? (await ctx.forge.postComment(issue, renderPlanComment(view, planLinks(ctx))));
  await ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: plan comment ${ref.id}`, (tx) => {
    const rec = readRun(tx, issue, run)!;
    if (rec.planCommentId === null) writeRun(tx, { ...rec, planCommentId: ref.id }, nowIso(ctx));
  });
  ctx.log.checkpoint('plan-comment-posted');
}

/** A dispatch names tasks a finishing job claimed; only a live claim with the same nonce starts them. */
async function routeDispatch(ctx: StepContext, ev: DispatchEvent): Promise<void> {
  const issue = Number(ev.inputs.issue);
  const run = Number(ev.inputs.run);
  let tasks: unknown;
  try {
    tasks = JSON.parse(ev.inputs.tasks ?? '[]');
  } catch {
    tasks = undefined;
  }
  if (!Number.isInteger(issue) || !Number.isInteger(run) || !Array.isArray(tasks) || !tasks.every((t) => typeof t === 'string' && isTaskId(t))) {
    ctx.log.warn(`ignoring a dispatch with malformed inputs: ${JSON.stringify(ev.inputs)}`);
    return;
  }
  const now = nowIso(ctx);
  const { value: mine } = await ctx.state.update(`${runFolder(issue, run)}/`, `issue #${issue} run ${run}: start ${tasks.join(', ')}`, (tx) => {
    const view = readView(tx, issue, run);
    if (!view || view.run.phase !== 'EXECUTING') return [];
    const live = (tasks as string[]).filter((id) => {
      const t = view.tasks.get(id);
      return t?.status === 'running' && t.claim?.nonce === ev.inputs.nonce;
    });
    for (const id of live) writeTask(tx, issue, run, { ...view.tasks.get(id)!, claim: { runId: ctx.runId, nonce: ev.inputs.nonce!, at: now } });
    return live;
  });
  if (mine.length === 0) ctx.log.info(`dispatch for ${tasks.join(', ')} is stale; nothing to start`);
  setOutputs(ctx, issue, run, mine);
}

function planMarkdown(plan: import('../domain/plan').Plan): string {
  const lines = ['# Plan', '', plan.summary, '', '| Task | Persona | Model | Depends on | Title |', '|---|---|---|---|---|'];
  for (const t of plan.tasks) lines.push(`| ${t.id} | ${t.persona} | ${t.tier} | ${t.dependsOn.join(', ') || '-'} | ${t.title} |`);
  lines.push('', '## Done criteria', ...plan.criteria.map((c) => `- ${c}`), '');
  return lines.join('\n');
}

function taskMarkdown(plan: import('../domain/plan').Plan, id: string): string {
  const t = plan.tasks.find((x) => x.id === id)!;
  return [`# ${t.id}: ${t.title}`, '', `- persona: ${t.persona}`, `- model: ${t.tier}`, `- depends on: ${t.dependsOn.join(', ') || '-'}`, `- files: ${t.files.join(', ') || '-'}`, '', t.description, ''].join('\n');
}
