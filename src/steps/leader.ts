import { decompose } from '../agents/decomposer';
import type { AgentCall } from '../agents/submission';
import { reviewPlan } from '../agents/plan-reviewer';
import { decide, failureSignature, NO_RULE, recordSuccess, type Decision, type EscalationLimits, type FailedTask } from '../domain/leader-policy';
import type { Plan, PlanTask, Tier } from '../domain/plan';
import { checkPlanRules, findingsText } from '../domain/plan-review';
import type { CheckedResult } from '../domain/result';
import { runFolder } from '../domain/refs';
import { addUsage, newTaskRecord, NOTHING_SPENT, reviewedSha, ZERO_USAGE, type RunView, type TaskClaim, type Usage } from '../domain/run-state';
import { RunBudgetSpent } from '../agents/run-budget';
import { stopStepAtBudget } from './budget-stop';
import type { StateTx } from '../ports';
import { parseJson, paths, planOf, planTask, refreshExecutionLog, taskOf, writeRun, writeTask } from '../state/run-files';
import { claimReadyTasks } from '../state/transitions';
import { sanitize } from '../text/sanitize';
import { spend } from './caps';
import { agentRun, dispatchTasks, nonce, nowIso, runModel, syncPlanComment, taskClaim, updateRun, updateView, viewIn, type StepContext } from './context';
import { WAITING_LABEL } from '../domain/labels';
import { planningEyes, readRepoView } from './repo-map';
import { promptWithInstructions } from './agent-instructions';

const STRONGER: Record<Tier, Tier> = { haiku: 'sonnet', sonnet: 'opus', opus: 'opus' };

/**
 * Inside the state write that records a task's final result: the leader decides what
 * happens to a failure and applies the part that must be atomic with it (so a
 * dependent is never marked blocked for a task that is about to be retried or replanned).
 */
export function settleInState(
  tx: StateTx,
  issue: number,
  run: number,
  taskId: string,
  result: CheckedResult,
  claim: TaskClaim,
  limits: EscalationLimits,
): Decision | null {
  const view = viewIn(tx, issue, run);
  const rec = taskOf(view, taskId);
  const task = planTask(view, taskId);
  if (result.status === 'success') {
    writeRun(tx, { ...view.run, leader: recordSuccess(view.run.leader) }, claim.at);
    return null;
  }
  const difficulty = result.feedback?.type === 'difficulty' ? result.feedback : undefined;
  const failed: FailedTask = {
    task: taskId,
    failures: rec.attempts,
    ...(difficulty ? { impediment: difficulty.impediment, ...(difficulty.conflicting?.length ? { conflicting: difficulty.conflicting } : {}) } : {}),
    signature: failureSignature(result.reason ?? result.status),
  };
  const open = view.run.waiting !== null;
  const { decision, memory } = decide(failed, view.run.leader, { userQuestionOpen: open, limits });
  let next = { ...view.run, leader: memory };
  if (decision.action === 'retry_stronger') {
    const tier = STRONGER[rec.tierOverride ?? task.tier];
    writeTask(tx, issue, run, {
      ...rec,
      status: 'running',
      attempts: rec.attempts + 1,
      claim,
      finishedAt: null,
      startedAt: claim.at,
      tierOverride: tier,
      advice: [...rec.advice, decision.notes],
      spent: NOTHING_SPENT,
    });
  } else if (decision.to === 'planner') {
    writeTask(tx, issue, run, { ...rec, pendingReplan: true });
  } else if (decision.action === 'ask' || decision.action === 'review_plan') {
    next = {
      ...next,
      phase: 'ESCALATING',
      waiting: { kind: 'decision', commentId: 0, task: taskId, topic: decision.action === 'ask' ? decision.topic : 'plan_review', question: decision.question },
    };
  } else if (decision.action === 'give_up' && decision.reason !== NO_RULE) {
    // Why crew stopped escalating (the loop detector, a limit reached) goes where the failure report reads it.
    writeTask(tx, issue, run, {
      ...rec,
      error: `${result.reason ?? result.status}; crew stopped escalating it: ${decision.reason}`,
    });
  } else if (decision.action === 'queue') {
    writeTask(tx, issue, run, { ...rec, queuedQuestion: { topic: decision.topic, question: decision.question } });
  }
  writeRun(tx, next, claim.at);
  return decision;
}

/** The side of a decision that happens after the state is written: dispatches, model calls, comments. */
export async function followUp(ctx: StepContext, issue: number, run: number, decision: Decision): Promise<void> {
  ctx.log.info(`leader: ${decision.rule} → ${decision.to} (${decision.action}) for ${decision.task}`);
  switch (decision.action) {
    case 'retry_stronger':
      return; // claimed and dispatched with the other tasks the same write started
    case 'replan_task':
    case 'reevaluate_dependencies':
      await replanTasks(ctx, issue, run, [decision.task], decision.feedback);
      return;
    case 'ask':
    case 'review_plan':
      await askPerson(ctx, issue, run, decision.task, decision.question, decision.action === 'review_plan');
      return;
    case 'queue':
      ctx.log.info(`leader: the question about ${decision.task} waits until the open one is answered`);
      return;
    case 'give_up':
      ctx.log.info(`leader: ${decision.task} stays failed: ${decision.reason}`);
  }
}

/**
 * Inside the state write that answers the open question: the next question that waited
 * for it becomes the open one (comment id 0 until `askPerson` posts it). Returns it, or null.
 */
export function openQueuedQuestion(tx: StateTx, issue: number, run: number, now: string): { task: string; question: string; planReview: boolean } | null {
  const view = viewIn(tx, issue, run);
  const next = view.plan?.tasks.map((t) => view.tasks.get(t.id)).find((t) => t?.queuedQuestion);
  if (!next?.queuedQuestion || view.run.waiting) return null;
  const { topic, question } = next.queuedQuestion;
  writeTask(tx, issue, run, { ...next, queuedQuestion: null });
  writeRun(tx, { ...view.run, phase: 'ESCALATING', waiting: { kind: 'decision', commentId: 0, task: next.id, topic, question } }, now);
  return { task: next.id, question, planReview: topic === 'plan_review' };
}

export async function askPerson(ctx: StepContext, issue: number, run: number, task: string, question: string, planReview: boolean): Promise<void> {
  const s = ctx.surface;
  const body = [
    `${s.bold('crew needs a decision')} about ${task}.`,
    '',
    s.modelText(question),
    '',
    'Reply with one of:',
    `- ${s.command('retry', task)} — try it again as it is;`,
    `- ${s.command('accept')} — take ${task}'s work as it is and go on;`,
    ...(planReview ? [`- ${s.command('revise', '<what to change>')} — re-plan the failed tasks with your guidance;`] : []),
    `- ${s.command('abort')} — stop the run;`,
    `- or ${s.answerOr}: ${task} runs again with your answer.`,
    '',
    'Only people with write access can decide. Other tasks keep running; nothing new starts until then.',
    s.marker('decision', { issue, run, task, nonce: nonce() }),
  ].join('\n');
  await spend(ctx, issue, run, { comments: 1 });
  const posted = await ctx.forge.postComment(issue, body);
  await updateRun(ctx, issue, run, `asked about ${task}`, (rec, tx) => {
    if (rec.waiting?.kind === 'decision' && rec.waiting.task === task && rec.waiting.commentId === 0)
      writeRun(tx, { ...rec, waiting: { ...rec.waiting, commentId: posted.id } }, nowIso(ctx));
  });
  await ctx.forge.addLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('decision-asked');
  await syncPlanComment(ctx, issue, run);
}

/** Renumbers a replacement plan's tasks after the existing ones (t1…tN → tN+1…). */
function renumber(tasks: PlanTask[], offset: number): PlanTask[] {
  const map = new Map(tasks.map((t, i) => [t.id, `t${offset + i + 1}`]));
  return tasks.map((t) => ({ ...t, id: map.get(t.id)!, dependsOn: t.dependsOn.map((d) => map.get(d)!) }));
}

/** What re-planning came to: the tasks replaced, not (with why), or stopped at `budgets.run` with the run waiting to go on. */
export type ReplanOutcome = { replaced: true } | { replaced: false; why: string; atBudget?: true };

/** The replacement the planner proposed and the plan review passed, or why there is none; what its model calls cost. */
interface Proposal {
  replacement?: PlanTask[];
  why: string;
  usage: Usage;
  /** The run's budget refused a request before a replacement was made (#52). */
  atBudget?: RunBudgetSpent;
}

/** The decomposer re-plans the failed tasks, and the plan rules and the plan reviewer check the replacement. */
async function proposeReplacement(
  ctx: StepContext,
  view: RunView,
  request: { title: string; body: string },
  taskIds: string[],
  feedback: string,
): Promise<Proposal> {
  const config = await ctx.config();
  const plan = planOf(view);
  const old = plan.tasks.filter((t) => taskIds.includes(t.id));
  const reasons = old.map((t) => `- ${t.id} ${t.title}: ${view.tasks.get(t.id)?.error ?? 'failed'}`).join('\n');
  let usage: Usage = ZERO_USAGE;
  try {
    const modelId = config.models[config.default_model];
    const model = await runModel(ctx, view, 'planner');
    // The map is ranked for the request and the tasks being replaced (#48).
    const replanFocus = `${request.title}\n${request.body}\n${plan.summary}\n${old.map((t) => `${t.title}\n${t.description}\n${t.files.join(' ')}`).join('\n')}`;
    const repoView = readRepoView(ctx, replanFocus);
    const call = (agent: 'planner' | 'plan_reviewer', system: string): AgentCall => ({
      model,
      modelId,
      system,
      log: ctx.log,
      trajectory: agentRun(ctx, { agent, model: modelId }),
    });
    const system = await promptWithInstructions(ctx, 'decomposer', reviewedSha(view.run));
    const input = {
      title: sanitize(request.title, 300),
      body: sanitize(request.body),
      task: plan.summary,
      criteria: plan.criteria,
      answers: '',
      eyes: planningEyes(ctx, await repoView, replanFocus),
      maxTasks: Math.max(1, config.max_tasks - plan.tasks.length + taskIds.length),
      protectedPaths: config.protected_paths,
      revise: {
        plan: { ...plan, tasks: old },
        feedback: `These tasks failed and must be replaced by new tasks that do their work differently:\n${reasons}\n\n${feedback}\nPlan only the replacement tasks.`,
      },
    };
    const out = await decompose(call('planner', system), input);
    usage = addUsage(usage, out.usage);
    const proposed = renumber(out.plan.tasks, plan.tasks.length);
    const findings = checkPlanRules({ ...plan, tasks: proposed });
    if (findings.length) return { why: `the replacement failed the plan rules:\n${findingsText(findings)}`, usage };
    const review = await reviewPlan(
      call('plan_reviewer', await promptWithInstructions(ctx, 'plan_reviewer', reviewedSha(view.run))),
      request,
      { ...plan, tasks: proposed },
      planningEyes(ctx, await repoView, replanFocus),
    );
    usage = addUsage(usage, review.usage);
    if (review.verdict === 'PASS') return { replacement: proposed, why: '', usage };
    return { why: `the plan reviewer did not pass the replacement:\n${findingsText(review.findings)}`, usage };
  } catch (e) {
    // At the budget, what the replies let through cost is on the error: the decomposer's, when the reviewer was refused.
    if (e instanceof RunBudgetSpent) return { why: `re-planning stopped at the run's budget: ${e.message}`, usage: e.sinceStart, atBudget: e };
    return { why: `re-planning failed: ${(e as Error).message}`, usage };
  }
}

/**
 * The planner's escalation: the failed tasks are re-decomposed into new ones, which
 * the plan review checks like any plan, and take the old tasks' place in the DAG. If
 * the replacement cannot be made or is not passed, the failures stand, and the
 * answer says why so the failure comment can tell the maintainer. At `budgets.run` the
 * run waits and asks instead, the tasks still to be re-planned (#52, budget-stop.ts).
 */
export async function replanTasks(
  ctx: StepContext,
  issue: number,
  run: number,
  taskIds: string[],
  feedback: string,
  opts: { endOfRun?: boolean } = {},
): Promise<ReplanOutcome> {
  const config = await ctx.config();
  const prefix = `${runFolder(issue, run)}/`;
  const snap = await ctx.state.load(prefix);
  const view = viewIn(snap, issue, run);
  const old = planOf(view).tasks.filter((t) => taskIds.includes(t.id));
  const request = parseJson<{ title: string; body: string }>(snap, paths.requestJson(issue, run))!;
  const { replacement, why, usage, atBudget } = await proposeReplacement(ctx, view, request, taskIds, feedback);
  if (atBudget && (await stopStepAtBudget(ctx, issue, run, 'replan', atBudget, { replan: { tasks: taskIds, feedback, endOfRun: !!opts.endOfRun } })))
    return { replaced: false, why, atBudget: true };
  // Each replacement task gets a branch of its own; parallel jobs may re-plan at once, so this counts in its own write.
  if (replacement) await spend(ctx, issue, run, { branches: replacement.length });
  const now = nowIso(ctx);
  const claim = taskClaim(ctx, 'dispatch', now);
  const claimed = await updateView(ctx, issue, run, `re-plan ${taskIds.join(', ')}`, (v, tx) => {
    const rec = { ...v.run, usage: addUsage(v.run.usage, usage), ...(opts.endOfRun ? { leader: { ...v.run.leader, replannedFailed: true } } : {}) };
    if (!replacement) {
      for (const id of taskIds) writeTask(tx, issue, run, { ...taskOf(v, id), pendingReplan: false });
      writeRun(tx, rec, now);
      refreshExecutionLog(tx, issue, run);
      return [];
    }
    const newIds = replacement.map((t) => t.id);
    // New tasks start where the old ones did; whatever depended on an old task now waits for its replacements.
    const inherited = [...new Set(old.flatMap((t) => t.dependsOn))].filter((d) => !taskIds.includes(d));
    const added = replacement.map((t) => ({ ...t, dependsOn: [...new Set([...t.dependsOn, ...inherited])] }));
    const kept = planOf(v).tasks.map((t) => ({ ...t, dependsOn: [...new Set(t.dependsOn.flatMap((d) => (taskIds.includes(d) ? newIds : [d])))] }));
    const next: Plan = { ...planOf(v), tasks: [...kept, ...added] };
    tx.write(paths.planJson(issue, run), `${JSON.stringify(next, null, 2)}\n`);
    for (const t of added) {
      tx.write(paths.taskMd(issue, run, t.id), `# ${t.id}: ${t.title}\n\n${t.description}\n\nReplaces ${taskIds.join(', ')}.\n`);
      writeTask(tx, issue, run, newTaskRecord(t.id, ctx.branches.task(issue, run, t.id)));
    }
    for (const id of taskIds) writeTask(tx, issue, run, { ...taskOf(v, id), pendingReplan: false, replacedBy: newIds });
    // A question still open about another task stays open: the new tasks start once it is answered.
    const answered = rec.waiting?.kind === 'decision' && taskIds.includes(rec.waiting.task);
    const stillWaiting = rec.phase === 'ESCALATING' && !answered;
    writeRun(
      tx,
      {
        ...rec,
        planVersion: rec.planVersion + 1,
        phase: stillWaiting ? 'ESCALATING' : rec.phase === 'ESCALATING' || rec.phase === 'FAILED' ? 'EXECUTING' : rec.phase,
        waiting: stillWaiting ? rec.waiting : null,
        failure: null,
      },
      now,
    );
    return claimReadyTasks(tx, issue, run, config.max_parallel, claim);
  });
  if (!replacement) ctx.log.warn(`leader: could not replace ${taskIds.join(', ')}: ${why}`);
  else ctx.log.info(`leader: replaced ${taskIds.join(', ')} with ${replacement.map((t) => t.id).join(', ')}`);
  if (claimed.length) await dispatchTasks(ctx, issue, run, claimed, claim);
  await syncPlanComment(ctx, issue, run);
  return replacement ? { replaced: true } : { replaced: false, why };
}
