import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runResolver } from '../agents/resolver';
import { conflictHunks, hasConflictMarkers, renderHunks, type ConflictHunk } from '../domain/conflicts';
import { topologicalOrder } from '../domain/plan';
import { addUsage, allTasksDone, failedTasks, FRESH_REVIEW, reviewedSha, settlement, type RunRecord, type RunView, type TaskRecord } from '../domain/run-state';
import { paths, planOf, planTask, refreshExecutionLog, writeRun } from '../state/run-files';
import { sentence } from '../domain/surface';
import { codeSpan } from '../text/markdown';
import { redact } from '../text/redact';
import { sanitize } from '../text/sanitize';
import { spend } from './caps';
import { agentRun, CrewError, handedOn, integrationBranchOf, nowIso, runModel, syncPlanComment, updateView, type StepContext } from './context';
import { WAITING_LABEL } from '../domain/labels';
import { promptWithInstructions } from './agent-instructions';
import { BranchMoved, type StateTx, type WriteOptions } from '../ports';
import { RunBudgetSpent } from '../agents/run-budget';
import { stopStepAtBudget } from './budget-stop';

/**
 * Integration: the done tasks' branches merged onto the run's integration branch in dependency
 * order, a conflict given to the resolver agent or to a person, and the run handed to the critic
 * job. The advance job (advance.ts) settles the matrix and calls in here once every task is done.
 */

type Integration =
  | { headSha: string; resolved: string[]; carry?: { branch: string; sha: string } }
  | { conflict: { task: string; with: string[]; files: string[]; hunks: ConflictHunk[]; why: string } }
  /** The resolver met `budgets.run` (#52): the merge is undone, and the run waits at the budget. */
  | { atBudget: RunBudgetSpent; task: string; files: string[] }
  /** Integrating before the claim stopped short of anything that needs it: a resolver, or a push of its own. */
  | { claimFirst: string };

/**
 * Merges the task branches into the integration branch in dependency order. A conflict
 * goes to the resolver agent with both tasks' intent; if it cannot keep both, the merge
 * is undone and the conflict is returned for a person. Nothing is dropped either way.
 */
async function integrate(ctx: StepContext, view: RunView, claimed = true): Promise<Integration> {
  const { base } = view.run;
  const branch = integrationBranchOf(ctx, view.run);
  const heads = doneInOrder(view);
  await ctx.remote.fetchCommit(base.sha);
  const { missing } = await ctx.remote.fetch([branch, ...heads.map((h) => h.branch)]);
  const lost = heads.filter((h) => missing.includes(h.branch));
  if (lost.length)
    throw new CrewError(
      'integration',
      `the branches of ${lost.map((h) => h.id).join(', ')} are missing from the repository.`,
      `${sentence(ctx.surface.give('run'))} to start a fresh run.`,
      false,
    );
  const existing = missing.includes(branch) ? undefined : await ctx.remote.head(branch);
  if (view.run.followUp && !existing)
    throw new CrewError(
      'integration',
      `the pull request's branch \`${branch}\` is gone, so the follow-up has nowhere to add its commits. Nothing was lost: every task branch is still there.`,
      `Restore the branch (or reopen the pull request), then ${ctx.surface.give('resume')}; or ${ctx.surface.give('run')} on the issue for a new pull request.`,
    );
  if (existing) {
    await ctx.repo.checkoutNew(branch, ctx.remote.tracking(branch));
    const contained = await Promise.all(heads.map((h) => ctx.repo.isAncestor(h.headSha!, existing)));
    if (contained.every(Boolean)) return { headSha: existing, resolved: [] };
    // Replacing a branch that is there is a push of its own, which only the run's finalizer makes.
    if (!claimed) return { claimFirst: `${branch} is there already and lacks some of the tasks` };
  }
  // A follow-up adds merge commits on top of the pull request's head as it is now (hand-pushed commits
  // included), and pushes without force; any other run builds its integration afresh from its base.
  if (!view.run.followUp) await ctx.repo.checkoutNew(branch, base.sha);
  const merged: TaskRecord[] = [];
  const resolved: string[] = [];
  for (const h of heads) {
    const m = await ctx.repo.mergeKeepingConflicts(ctx.remote.tracking(h.branch), `crew: integrate ${h.id}`);
    if (m.ok) {
      merged.push(h);
      continue;
    }
    if (!claimed) {
      await ctx.repo.abortMerge();
      return { claimFirst: `merging ${h.id} needs more than git` };
    }
    if (!m.conflicts.length)
      throw new CrewError(
        'integration',
        `git could not merge ${h.id} (${h.branch}) and reported no conflicting file. Nothing was lost: every task branch is still there.`,
        `Merge the task branches by hand, or ${ctx.surface.give('run')} to start a fresh run.`,
      );
    const outcome = await resolveConflict(ctx, view, h, merged, m.conflicts);
    if ('conflict' in outcome || 'atBudget' in outcome) {
      await ctx.repo.abortMerge();
      return outcome;
    }
    await ctx.repo.commitMerge(redact(`crew: integrate ${h.id}, resolving ${m.conflicts.join(', ')}\n\n${outcome.explanation}`));
    resolved.push(`${h.id} in ${m.conflicts.join(', ')}: ${outcome.explanation}`);
    merged.push(h);
  }
  const headSha = await ctx.repo.head();
  if (existing && !view.run.followUp) await ctx.remote.pushReplacing(branch, existing);
  // A new integration branch goes up in the same push as the write that hands it to the critic (#31 §4).
  else if (!existing && ctx.state.carriesBranches) return { headSha, resolved, carry: { branch, sha: headSha } };
  else await ctx.remote.push(branch);
  return { headSha, resolved };
}

const RESOLVER_MAX_TURNS = 30;

async function resolveConflict(
  ctx: StepContext,
  view: RunView,
  task: TaskRecord,
  merged: TaskRecord[],
  files: string[],
): Promise<{ explanation: string } | Extract<Integration, { conflict: unknown } | { atBudget: unknown }>> {
  const { issue, run } = view.run;
  const hunks: ConflictHunk[] = [];
  const unreadable: string[] = [];
  for (const f of files) {
    const text = await readFile(join(ctx.repo.dir, f), 'utf8').catch(() => undefined);
    const found = text === undefined ? [] : conflictHunks(f, text);
    if (found.length) hunks.push(...found);
    else unreadable.push(f);
  }
  const touching = merged.filter((t) => t.changedFiles.some((f) => files.includes(f)));
  const others = (touching.length ? touching : merged).map((t) => t.id);
  const conflict = (why: string) => ({ conflict: { task: task.id, with: others, files, hunks, why } });
  // A file deleted on one side, or a binary file, has no hunks to merge line by line.
  if (unreadable.length) return conflict(`${unreadable.map((f) => `\`${f}\``).join(', ')} cannot be merged line by line (deleted on one side, or not text)`);
  const intentOf = (t: TaskRecord) => {
    const p = planTask(view, t.id);
    return { id: t.id, title: p.title, description: p.description, summary: t.summary ?? '' };
  };
  const config = await ctx.config();
  ctx.log.info(`integration: ${task.id} conflicts with ${others.join(', ')} in ${files.join(', ')}; asking the resolver to keep both`);
  let out;
  try {
    out = await runResolver(
      await runModel(ctx, view, 'resolver'),
      {
        repoDir: ctx.repo.dir,
        modelId: config.models[config.default_model],
        system: await promptWithInstructions(ctx, 'resolver', reviewedSha(view.run), files),
        protectedPaths: config.protected_paths,
        ours: (touching.length ? touching : merged).map(intentOf),
        theirs: intentOf(task),
        hunks,
        maxTurns: RESOLVER_MAX_TURNS,
        maxOutputTokens: config.max_output_tokens.worker,
        maxOutputBytes: 64_000,
      },
      ctx.log,
      agentRun(ctx, { agent: 'resolver', model: config.models[config.default_model], task: task.id }),
    );
  } catch (e) {
    // The run's budget is no reason to hand a person the merge: the run waits at it, and `/crew continue` merges again.
    if (e instanceof RunBudgetSpent) return { atBudget: e, task: task.id, files };
    return conflict(`the resolver's model call failed: ${(e as Error).message}`);
  }
  await updateView(ctx, issue, run, `resolver usage`, (v, tx) => {
    writeRun(tx, { ...v.run, usage: addUsage(v.run.usage, out.usage) }, nowIso(ctx));
  });
  if (!out.resolved) return conflict(`the resolver could not keep both intents: ${sanitize(out.explanation, 1000)}`);
  const outside = out.written.filter((f) => !files.includes(f));
  if (outside.length) return conflict(`the resolver changed files outside the conflict (${outside.join(', ')}), which crew does not accept`);
  for (const f of files) {
    const text = await readFile(join(ctx.repo.dir, f), 'utf8').catch(() => '');
    if (hasConflictMarkers(text)) return conflict(`the resolver said it was done, but \`${f}\` still has conflict markers`);
  }
  ctx.log.info(`integration: the resolver merged ${task.id}: ${out.explanation}`);
  return { explanation: sanitize(out.explanation, 1000) };
}

/** The resolver could not merge: a person decides, with the files and hunks in front of them. */
async function escalateConflict(ctx: StepContext, view: RunView, c: Extract<Integration, { conflict: unknown }>['conflict']): Promise<void> {
  const { issue, run } = view.run;
  const s = ctx.surface;
  const body = [
    `${s.bold('crew needs a decision')} on run ${s.runNumber(issue, run)}: merging ${s.bold(c.task)} into \`${integrationBranchOf(ctx, view.run)}\` conflicts with ${c.with.join(', ') || 'the tasks before it'} in ${c.files.map((f) => s.modelText(codeSpan(f))).join(', ')}, and ${s.modelText(c.why.replace(/\s*\r?\n\s*/g, ' '))}.`,
    '',
    'Nothing was lost: every task branch is still there, and the integration branch was not changed.',
    '',
    s.details(
      'The conflicting hunks',
      c.hunks.length
        ? s.modelText(renderHunks(c.hunks, { ours: `the integration branch (${c.with.join(', ') || 'earlier tasks'})`, theirs: c.task }))
        : '(no line-by-line hunks: see the files above)',
      true,
    ),
    '',
    s.bold('Reply with one of:'),
    `- ${s.command('retry')}: integrate again, for example after you pushed a fix to one of the task branches.`,
    `- ${s.command('abort')}: stop here; the branches stay.`,
  ].join('\n');
  await spend(ctx, issue, run, { comments: 1 });
  const posted = await ctx.forge.postComment(issue, body);
  await updateView(ctx, issue, run, `merge conflict goes to a person`, (v, tx) => {
    writeRun(
      tx,
      { ...v.run, phase: 'ESCALATING', finalizer: null, waiting: { kind: 'conflict', commentId: posted.id, task: c.task, files: c.files } },
      nowIso(ctx),
    );
    refreshExecutionLog(tx, issue, run);
  });
  await ctx.forge.addLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('conflict-escalated');
  await syncPlanComment(ctx, issue, run);
}

/** The tasks integration merges, in the order it merges them. */
function doneInOrder(view: RunView): TaskRecord[] {
  return topologicalOrder(planOf(view))
    .map((id) => view.tasks.get(id)!)
    .filter((t) => settlement(t) === 'done');
}

/** What an integration was built from: the done tasks' heads, in order. */
const integratedHeads = (view: RunView) =>
  doneInOrder(view)
    .map((t) => `${t.id}@${t.headSha}`)
    .join(' ');

/** The write that hands the run to the critic job: REVIEWING, held by this workflow run, on `headSha`. */
function handOverToCritic(ctx: StepContext, tx: StateTx, rec: RunRecord, headSha: string, resolved: string[]): void {
  const { issue, run } = rec;
  const review = rec.review ?? FRESH_REVIEW;
  // A PASS on this very head (the run was interrupted after judging) stands; anything else is judged afresh.
  const verdict = review.headSha === headSha && review.verdict === 'PASS' ? 'PASS' : null;
  writeRun(tx, { ...rec, phase: 'REVIEWING', finalizer: ctx.runId, review: { ...review, headSha, verdict } }, nowIso(ctx));
  if (resolved.length)
    tx.write(
      paths.integration(issue, run),
      `# Integration\n\nConflicts the resolver merged, keeping both intents:\n\n${resolved.map((r) => `- ${r}`).join('\n')}\n`,
    );
  refreshExecutionLog(tx, issue, run);
}

/** The run changed under a write that was to claim and hand over at once: nothing of it may land. */
class ClaimMoved extends Error {}

/**
 * #31 §4: when every task branch merges as git merges it, the claim ("advance": INTEGRATING, this
 * workflow run finishing) and the hand-over to the critic are one write, made after integrating from
 * the state this job read. Its mutate decides again as the claim would have; unless the run is still
 * this job's to finish, from the same task heads, it throws, so neither the record nor the carried
 * branch lands, and the job goes the claim-first way, which sees why. A crash before the write leaves
 * nothing to redo but the merges. Returns whether the run went to the critic.
 */
export async function integratedInOneWrite(
  ctx: StepContext,
  view: RunView,
  decide: (v: RunView, tx: StateTx) => { kind: string; after?: RunView },
): Promise<boolean> {
  const { issue, run, finalizer } = view.run;
  // A follow-up pushes onto the pull request's branch, which no write carries: that push waits for the claim.
  if (view.run.followUp || !ctx.state.carriesBranches) return false;
  if (!allTasksDone(view) || failedTasks(view).length || (finalizer !== null && finalizer !== ctx.runId)) return false;
  const integration = await integrate(ctx, view, false);
  if ('claimFirst' in integration) {
    ctx.log.info(`integration: ${integration.claimFirst}; this job claims the run first`);
    return false;
  }
  if ('conflict' in integration || 'atBudget' in integration) return false;
  const { headSha, carry } = integration;
  const heads = integratedHeads(view);
  ctx.log.checkpoint('integrated');
  try {
    await updateView(
      ctx,
      issue,
      run,
      `integrated ${headSha.slice(0, 7)} for the critic`,
      (v, tx) => {
        const next = decide(v, tx);
        if (next.kind !== 'finalize' || integratedHeads(next.after!) !== heads) throw new ClaimMoved();
        handOverToCritic(ctx, tx, next.after!.run, headSha, []);
      },
      carry ? { carry } : undefined,
    );
  } catch (e) {
    if (!(e instanceof ClaimMoved || e instanceof BranchMoved)) throw e;
    ctx.log.info(`the run changed while this job integrated it${e instanceof BranchMoved ? ` (${e.branch} appeared)` : ''}; nothing was recorded or pushed`);
    return false;
  }
  await toCritic(ctx, issue, run);
  return true;
}

async function toCritic(ctx: StepContext, issue: number, run: number): Promise<void> {
  ctx.output('critic', 'true');
  handedOn(ctx, issue, run);
  await syncPlanComment(ctx, issue, run);
}

/**
 * Integrates the branches and hands the run to the critic job of this workflow run:
 * phase REVIEWING, held by this run (the finalizer), and the `critic` output set.
 */
export async function finalize(ctx: StepContext, view: RunView): Promise<void> {
  const { issue, run } = view.run;
  const integration = await integrate(ctx, view);
  if ('claimFirst' in integration) throw new Error(`integration stopped for a claim this job holds: ${integration.claimFirst}`);
  if ('conflict' in integration) return escalateConflict(ctx, view, integration.conflict);
  if ('atBudget' in integration) {
    const { atBudget, task, files } = integration;
    await stopStepAtBudget(ctx, issue, run, 'integration', atBudget, { conflict: { task, files } });
    return;
  }
  const { headSha, resolved, carry } = integration;
  ctx.log.checkpoint('integrated');
  const handOver = (options?: WriteOptions) =>
    updateView(
      ctx,
      issue,
      run,
      `integrated ${headSha.slice(0, 7)} for the critic`,
      (v, tx) => {
        if (v.run.phase !== 'INTEGRATING' || v.run.finalizer !== ctx.runId) return;
        handOverToCritic(ctx, tx, v.run, headSha, resolved);
      },
      options,
    );
  if (!carry) await handOver();
  else
    await handOver({ carry }).catch(async (e: unknown) => {
      // Someone created the branch meanwhile: the separate push goes on top of theirs, or fails saying why.
      if (!(e instanceof BranchMoved)) throw e;
      ctx.log.info(`${carry.branch} appeared while the run was integrated; pushing it on its own first`);
      await ctx.remote.push(carry.branch);
      await handOver();
    });
  await toCritic(ctx, issue, run);
}
