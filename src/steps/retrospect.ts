import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runRetrospector } from '../agents/retrospector';
import { failingEvaluations, runOutcome, type Judgment } from '../domain/judgment';
import { runFolder } from '../domain/refs';
import { knowledgeEntry, renderRetrospective, renderRetrospectiveMd, retroMode, selectProposals, type Retrospective } from '../domain/retrospective';
import { addUsage, logPhase, totalUsage, type RunRecord, type RunView } from '../domain/run-state';
import { KNOWLEDGE_PATH } from '../state/knowledge';
import { parseJson, paths, refreshExecutionLog, writeRun } from '../state/run-files';
import { inert } from '../text/inert';
import { fence } from '../text/markdown';
import { sanitize } from '../text/sanitize';
import { spend } from './caps';
import { agentRun, loadView, nowIso, runModel, SEEN, syncPlanComment, updateRun, type StepContext } from './context';
import { RunBudgetSpent } from '../agents/run-budget';
import { runStop } from './budget-stop';
import { budgetSpentText } from '../render/budget-stop';
import { sentence } from '../domain/surface';
import { runCostLine } from '../render/cost';

/** What the retrospector reads: the run as crew recorded it, as data. */
function facts(view: RunView, judgments: Judgment[]): string {
  const plan = view.plan;
  const total = totalUsage(view);
  const lines = [
    `## Request: ${sanitize(view.run.title, 300)}`,
    plan ? sanitize(plan.summary, 2000) : '(no plan)',
    '',
    '## Tasks',
    ...(plan?.tasks ?? []).map((t) => {
      const r = view.tasks.get(t.id);
      return `- ${t.id} ${sanitize(t.title, 200)} (${t.persona}, ${t.tier}): ${r?.status ?? 'pending'}, ${r?.attempts ?? 0} attempt(s), ${r?.turns ?? 0} turns${r?.error ? `; error: ${sanitize(r.error, 400)}` : ''}${r?.summary ? `; reported: ${sanitize(r.summary.split('\n')[0]!, 300)}` : ''}`;
    }),
    '',
    '## Critic judgments',
    ...(judgments.length
      ? judgments.map(
          (j) =>
            `- iteration ${j.iteration}: ${j.verdict}${
              failingEvaluations(j).length
                ? `; not met: ${failingEvaluations(j)
                    .map((e) => `${e.criterion} (${sanitize(e.evidence[0] ?? e.error ?? '', 200)})`)
                    .join('; ')}`
                : ''
            }${j.adversarial.length ? `; findings: ${j.adversarial.map((f) => f.rule).join(', ')}` : ''}`,
        )
      : ['(the critic did not judge this run)']),
    '',
    `## Outcome: phase ${view.run.phase}${view.run.failure ? `, failed in ${view.run.failure.step}: ${sanitize(view.run.failure.message, 400)}` : ''}${view.run.review?.acceptedBy ? `, accepted by a maintainer despite a FAIL` : ''}`,
    `Usage: ${total.inputTokens} input tokens (${total.cacheReadTokens} from cache), ${total.outputTokens} output, about $${total.costUsd.toFixed(2)}`,
  ];
  return lines.join('\n');
}

async function judgmentsOf(ctx: StepContext, view: RunView): Promise<Judgment[]> {
  const n = view.run.review?.iteration ?? 0;
  if (!n) return [];
  const snap = await ctx.state.load(`${runFolder(view.run.issue, view.run.run)}/`, SEEN);
  return Array.from({ length: n }, (_, i) => parseJson<Judgment>(snap, paths.judgment(view.run.issue, view.run.run, i + 1))).filter((j): j is Judgment => !!j);
}

/**
 * Phase 4: the retrospective. Full after a failure, a partial result or a weak one (or on
 * `/crew retro`), light otherwise. Posted on the PR (the issue when there is none), linked
 * from the plan comment, and kept as retrospective.md and .json on the state branch.
 * `replace`: the note of a retrospective skipped at the budget, which this one takes the place of.
 */
export async function retrospect(ctx: StepContext, issue: number, run: number, forced: boolean, replace?: number): Promise<void> {
  const config = await ctx.config();
  if (!config.retrospect.enabled && !forced) return ctx.log.info('retrospect.enabled is off; no retrospective');
  // After the run's last write in this job, that write's tip; a `/crew retro` job's first read asks GitHub.
  const view = await loadView(ctx, issue, run, SEEN);
  // A repeat of the finishing job does not write a second one; `/crew retro` always does, and so
  // does a run that ended again differently (failed, then retried to completion): it is replaced in place.
  if (view.run.retro && view.run.retro.phase === view.run.phase && !forced) return ctx.log.info('the retrospective of this run is already posted');
  if (view.run.retroAtBudget?.phase === view.run.phase && !forced && replace === undefined)
    return ctx.log.info("the retrospective of this run was skipped at the run's budget already");
  // A note left where a retrospective skipped at the budget would have been: this one (or the next note) takes its place,
  // unless the run has ended differently since (the note may be on the issue, the run now on its pull request).
  const note = replace ?? (view.run.retroAtBudget?.phase === view.run.phase ? view.run.retroAtBudget.commentId : undefined);
  const judgments = await judgmentsOf(ctx, view);
  const outcome = runOutcome(view, judgments.at(-1) ?? null, !!view.run.review?.acceptedBy);
  const mode = retroMode(outcome, forced);
  const target = view.run.pr?.number ?? issue;
  const startedAt = nowIso(ctx);
  let out;
  try {
    out = await runRetrospector(
      await runModel(ctx, view, 'retrospector'),
      { modelId: config.models[config.retrospect.model], system: await ctx.template('retrospector'), mode, facts: facts(view, judgments) },
      ctx.log,
      agentRun(ctx, { agent: 'retrospector', model: config.models[config.retrospect.model] }),
    );
  } catch (e) {
    if (e instanceof RunBudgetSpent) return skipAtBudget(ctx, view, target, e, forced, note);
    ctx.log.warn(`retrospective: the model failed: ${(e as Error).message}`);
    const again = ctx.surface.give('retro');
    await ctx.forge.postComment(
      target,
      `crew could not write the retrospective of run ${ctx.surface.runNumber(issue, run)}: ${sanitize((e as Error).message, 500)}. The run itself is not affected.${again ? ` ${sentence(again)} on #${issue} to try again.` : ''}`,
    );
    return;
  }
  const chosen = selectProposals(
    out.proposals,
    mode,
    { full: config.retrospect.full_mode, light: config.retrospect.light_mode },
    config.retrospect.filter_threshold,
  );
  const retro: Retrospective = { mode, summary: out.summary, wentWell: out.wentWell, wentWrong: out.wentWrong, ...chosen, memory: out.memory, at: nowIso(ctx) };
  // What the run cost beside its estimate, as recorded before the retrospector's own use.
  const body = `${renderRetrospective(retro, { issue, run })}\n\n${runCostLine(view)}`;
  // Found by the id crew stored, never by listing comments (issues can have thousands).
  // A run that ended differently since (failed, then finished) gets a new one where it now ends (its PR).
  const existing = note ?? (forced || view.run.retro?.phase === view.run.phase ? view.run.retro?.commentId : undefined);
  const ref = await placeComment(ctx, view, target, body, existing, forced);
  const finished = nowIso(ctx);
  // The plan comment's link to it is edited in before the write: a write that lands on the state this job
  // last saw needs no check after it, which spares the finishing job its last look at the state (#31 §4).
  await ctx.planComment.updateShownFirst(
    await loadView(ctx, issue, run, SEEN),
    `${mode} retrospective`,
    (rec) => {
      const logged = logPhase(rec, 'retrospector', {
        model: config.retrospect.model,
        started: startedAt,
        finished,
        status: 'success',
        retries: 0,
        error: null,
      });
      return { ...logged, usage: addUsage(rec.usage, out.usage), retro: { commentId: ref.id, url: ref.url, mode, phase: rec.phase }, retroAtBudget: undefined };
    },
    undefined,
    (tx) => {
      tx.write(paths.retrospective(issue, run), renderRetrospectiveMd(retro, { issue, run }));
      tx.write(paths.retrospectiveJson(issue, run), `${JSON.stringify(retro, null, 2)}\n`);
      refreshExecutionLog(tx, issue, run);
    },
  );
  ctx.log.info(
    `retrospective (${mode}): ${chosen.adopted.length} adopted, ${chosen.held.length} held, ${chosen.discarded.length} discarded, ${out.memory.length} memory candidate(s)`,
  );
}

/** The retrospective (or the note in its place) edited into `existing`, or posted on `target`. */
async function placeComment(
  ctx: StepContext,
  view: RunView,
  target: number,
  body: string,
  existing: number | undefined,
  forced: boolean,
): Promise<{ id: number; url: string }> {
  if (existing) {
    await ctx.forge.updateComment(existing, body);
    return { id: existing, url: ctx.forge.commentLink(target, existing) };
  }
  // After finishing, the retrospective was counted with the pull request; `/crew retro` counts its own.
  if (forced) await spend(ctx, view.run.issue, view.run.run, { comments: 1 });
  return ctx.forge.postComment(target, body);
}

/**
 * `budgets.run` was spent when the retrospective came (#52). The run has ended (its pull request is open, or it
 * failed) and the retrospective changes nothing in it, so nothing is held and no question waits: the retrospective is
 * skipped, with a note where it would have been that says the budget was reached (not a failure), and
 * `/crew continue [$N]` on the issue writes it in the note's place (commands/continue.ts).
 */
async function skipAtBudget(ctx: StepContext, view: RunView, target: number, e: RunBudgetSpent, forced: boolean, replace?: number): Promise<void> {
  const { issue, run } = view.run;
  const s = ctx.surface;
  ctx.log.info(`retrospective: skipped, ${budgetSpentText(runStop(e.budget, e.spent))}`);
  const body = [
    `${s.bold('No retrospective')} of run ${s.runNumber(issue, run)} yet: ${budgetSpentText(runStop(e.budget, e.spent))}, and writing it would spend more.`,
    `This is not a failure: the run itself is not affected${view.run.pr ? ', and its pull request stands as it is' : ''}.`,
    // At the terminal `continue` is an answer while a run waits, and this run no longer does: nothing to offer there.
    ...(s.name === 'github'
      ? [
          `${sentence(s.give('continue'))}${target === issue ? '' : ` on #${issue}`} to write it here, with another \`budgets.run\` to spend from what the run spent (${s.command('continue', '$N')}: $N more). Nothing else waits for it.`,
        ]
      : []),
  ].join(' ');
  const ref = await placeComment(ctx, view, target, body, replace, forced);
  await updateRun(ctx, issue, run, 'retrospective skipped at the budget', (rec, tx) => {
    const note = { commentId: ref.id, url: ref.url, phase: rec.phase, ...(forced ? { forced } : {}) };
    writeRun(tx, { ...rec, usage: addUsage(rec.usage, e.sinceStart), retroAtBudget: note }, nowIso(ctx));
  });
  await syncPlanComment(ctx, issue, run);
}

/**
 * `/crew remember <n>`: memory candidate n of the newest retrospective on this issue goes into
 * the knowledge base, through a small pull request from a crew/ branch (crew never pushes to
 * the default branch). Workers read the knowledge base once it is merged.
 */
export async function remember(ctx: StepContext, issue: number, runs: RunRecord[], n: number, by: string): Promise<string> {
  for (const rec of [...runs].sort((a, b) => b.run - a.run)) {
    const snap = await ctx.state.load(`${runFolder(issue, rec.run)}/`);
    const retro = parseJson<Retrospective>(snap, paths.retrospectiveJson(issue, rec.run));
    if (!retro) continue;
    const candidate = retro.memory[n - 1];
    if (!candidate)
      return `The retrospective of run ${rec.run} has ${retro.memory.length} memory candidate${retro.memory.length === 1 ? '' : 's'}, so there is no number ${n}.`;
    const entry = knowledgeEntry(candidate, `issue #${issue} run ${rec.run} retrospective, remembered by @${by}`, nowIso(ctx));
    const branch = ctx.branches.memory(issue, rec.run, n);
    const base = await ctx.forge.defaultBranch();
    const open = await ctx.forge.findOpenPull(branch, base);
    if (open) return `Memory ${n} of run ${rec.run} is already proposed in ${open.url}.`;
    await ctx.remote.fetch([base]);
    await ctx.repo.checkoutNew(branch, ctx.remote.tracking(base));
    const current = (await ctx.repo.readFileAt(ctx.remote.tracking(base), KNOWLEDGE_PATH)) ?? '';
    await mkdir(dirname(join(ctx.repo.dir, KNOWLEDGE_PATH)), { recursive: true });
    await writeFile(join(ctx.repo.dir, KNOWLEDGE_PATH), `${current}${current && !current.endsWith('\n') ? '\n' : ''}${JSON.stringify(entry)}\n`);
    await ctx.repo.commitAll(`crew: remember a ${entry.type} from issue #${issue} run ${rec.run}`);
    // A branch left by an earlier proposal whose PR was closed is replaced, never force-pushed blindly.
    const stale = await ctx.remote.head(branch);
    await spend(ctx, issue, rec.run, { pull_requests: 1, branches: stale ? 0 : 1 });
    if (stale) await ctx.remote.pushReplacing(branch, stale);
    else await ctx.remote.push(branch);
    const pr = await ctx.forge.createPull({
      title: `crew: remember "${entry.content.slice(0, 60)}${entry.content.length > 60 ? '…' : ''}"`,
      head: branch,
      base,
      body: inert(
        [
          `Adds one entry to \`${KNOWLEDGE_PATH}\`, from the retrospective of run ${rec.run} of #${issue} (memory candidate ${n}, asked for by @${by}). Workers read the knowledge base at the start of every task once this is merged.`,
          '',
          fence(JSON.stringify(entry, null, 2), 'json'),
        ].join('\n'),
      ),
    });
    return `Opened ${pr.url} to add memory ${n} to the knowledge base. Workers read it from the first run after it is merged.`;
  }
  return 'No run on this issue has a retrospective yet, so there is nothing to remember. Memory candidates are listed in a retrospective; `/crew retro` writes one.';
}
