import { runCritic } from '../agents/critic';
import { RunBudgetSpent } from '../agents/run-budget';
import type { StateTx } from '../ports';
import { checkCommand } from '../domain/command-policy';
import { DIFF_LIMIT_BYTES, parseUnifiedDiff } from '../domain/diff';
import {
  adversarialChecks,
  commandEvaluation,
  commandNotRun,
  failingEvaluations,
  failingFindings,
  rerunAdvice,
  semanticEvaluation,
  tasksToRerun,
  verdictOf,
  type Evaluation,
  type Judgment,
} from '../domain/judgment';
import { addUsage, FRESH_REVIEW, logPhase, reviewedSha, ZERO_USAGE, type RunView } from '../domain/run-state';
import { renderJudgment } from '../render/report';
import { paths, planOf, refreshExecutionLog, taskOf, writeRun, writeTask } from '../state/run-files';
import { sentence } from '../domain/surface';
import { claimReadyTasks } from '../state/transitions';
import { spend } from './caps';
import {
  agentRun,
  dispatchTasks,
  integrationBranchOf,
  loadView,
  nowIso,
  runModel,
  SEEN,
  syncPlanComment,
  taskClaim,
  updateView,
  type StepContext,
} from './context';
import { finish, recordJudgment, type UnrecordedJudgment } from './finish';
import { stopStepAtBudget } from './budget-stop';
import { WAITING_LABEL } from '../domain/labels';
import { lastJudgment } from '../state/judgments';
import { prepareTools, setupNetwork, type JobTools } from '../toolbox/sandbox-setup';
import { join } from 'node:path';
import { jobTempDir } from '../sandbox/own-temp';
import { testFindings, type account, type BaseRun } from '../domain/test-results';
import { TestReports } from '../sandbox/test-reports/reports';
import type { CommandRunner } from '../sandbox/command-runner';
import { baseRuns } from './test-runs';
import { agentCommands } from '../toolbox/command-options';
import { runWithReports, type CommandRun } from '../toolbox/test-runs';
import { addRefusals } from '../domain/egress';
import { localise } from './localise';
import { tamperContext } from './tamper-context';
import { accountWithRerun, baseTreeOf } from './flaky-rerun';
import { blamedBy, describeOutcome } from '../domain/localisation';
import { promptWithInstructions } from './agent-instructions';
import type { Config } from '../config/schema';
import type { Plan } from '../domain/plan';

const CRITIC_MAX_TURNS = 40;

/**
 * The `critic` job: judges the integrated branch against every done criterion, with
 * evidence, and gates completion on it. PASS opens the pull request; FAIL sends the
 * failing criteria back to the tasks behind them, at most `max_iterations` times, and
 * then asks a person.
 */
export async function critic(ctx: StepContext): Promise<void> {
  const { issue, run } = ctx.settings as Required<typeof ctx.settings>;
  const view = await loadView(ctx, issue, run);
  if (view.run.phase !== 'REVIEWING' || view.run.finalizer !== ctx.runId) return ctx.log.info(`run ${run} is ${view.run.phase}; nothing for the critic to do`);
  const review = view.run.review ?? FRESH_REVIEW;
  if (review.acceptedBy) {
    ctx.log.info(`@${review.acceptedBy} accepted the work as it is; opening the pull request`);
    return finish(ctx, view, await lastJudgment(ctx.state, view));
  }
  // The same head judged PASS already (a re-run of this job): go straight to finishing.
  if (review.verdict === 'PASS' && review.headSha) {
    const j = await lastJudgment(ctx.state, view);
    if (j?.headSha === review.headSha) return finish(ctx, view, j);
  }

  const startedAt = nowIso(ctx);
  const judged = await judge(ctx, view);
  // `budgets.run` reached before the verdict: the work stays integrated, and crew asks as at a worker's budget end (#52).
  // The base's test runs made so far are kept: judging again after `/crew continue` does not run them again.
  if ('stopped' in judged) {
    await stopStepAtBudget(ctx, issue, run, 'review', judged.stopped, { files: (tx) => keepBaseRuns(tx, issue, run, judged.freshBases) });
    return;
  }
  const { freshBases = [], ...judgment } = judged;
  // Stopped half way (local Ctrl-C kills the commands it ran): a judgment of killed commands is no judgment.
  if (ctx.cancellation?.aborted) return ctx.log.info('interrupted while judging; the critic judges again when the run is resumed');
  const { default_model: tier } = await ctx.config();
  const judgedAt = nowIso(ctx);
  const record: UnrecordedJudgment = {
    what: `critic ${judgment.verdict} (iteration ${judgment.iteration})`,
    files: (tx) => {
      tx.write(paths.judgment(issue, run, judgment.iteration), `${JSON.stringify(judgment, null, 2)}\n`);
      keepBaseRuns(tx, issue, run, freshBases);
    },
    run: (rec) => {
      const logged = logPhase(rec, 'critic', {
        model: tier,
        started: startedAt,
        finished: judgedAt,
        status: judgment.verdict === 'PASS' ? 'success' : 'failure',
        retries: judgment.iteration - 1,
        error: judgment.verdict === 'PASS' ? null : judgment.overallReason.slice(0, 500),
      });
      const met = Object.fromEntries(judgment.evaluations.map((e) => [e.criterion, e.met]));
      return {
        ...logged,
        review: { ...(rec.review ?? FRESH_REVIEW), iteration: judgment.iteration, verdict: judgment.verdict, headSha: judgment.headSha, met },
      };
    },
  };
  ctx.log.info(`critic: ${judgment.verdict} at iteration ${judgment.iteration}: ${judgment.overallReason}`);
  // A PASS is recorded with the pull request it opens, in one write (finish.ts), or alone when none opens.
  if (judgment.verdict === 'PASS') {
    const seen = await loadView(ctx, issue, run, SEEN);
    return finish(ctx, { ...seen, run: record.run(seen.run) }, judgment, record);
  }
  await recordJudgment(ctx, issue, run, record);
  // The judgment's own write just landed: its tip is the state.
  return afterFail(ctx, await loadView(ctx, issue, run, SEEN), judgment);
}

/** The base's runs are kept for the run: a later iteration (or judging again after a budget stop) reads them instead of running the base again. */
function keepBaseRuns(tx: StateTx, issue: number, run: number, freshBases: BaseRun[]): void {
  for (const b of freshBases)
    if (tx.read(paths.baseTests(issue, run, b.criterion)) === undefined) tx.write(paths.baseTests(issue, run, b.criterion), `${JSON.stringify(b, null, 2)}\n`);
}

async function judge(ctx: StepContext, view: RunView): Promise<(Judgment & { freshBases?: BaseRun[] }) | { stopped: RunBudgetSpent; freshBases: BaseRun[] }> {
  const { base } = view.run;
  const config = await ctx.config();
  const plan = planOf(view);
  const branch = integrationBranchOf(ctx, view.run);
  await ctx.remote.fetchCommit(base.sha);
  const { missing } = await ctx.remote.fetch([branch]);
  if (missing.length) throw new Error(`the integration branch ${branch} is missing`);
  await ctx.repo.checkoutNew(branch, ctx.remote.tracking(branch));
  const headSha = await ctx.repo.head();
  const iteration = (view.run.review?.iteration ?? 0) + 1;
  const previous = await lastJudgment(ctx.state, view);

  // 1. The adversarial checks: criteria unchanged since the reviewed plan, no test deleted, skipped or weakened.
  const { diff, files, adversarial } = await adversarialOf(ctx, view, plan, headSha);

  // 2. Command criteria run for real, in the sandbox, after the trusted setup.
  const commands = plan.criteria.filter((c) => c.kind === 'command');
  const semantic = plan.criteria.filter((c) => c.kind === 'semantic');
  // The integrated branch is the workers' code: setup runs on it only inside the sandbox (toolbox/sandbox-setup.ts).
  const tools = await prepareTools(ctx, config, { trusted: headSha === reviewedSha(view.run) });
  // The proxy and the service bridges stay up while the critic model's commands may use them; closed with the judgment.
  try {
    const runs = await runCommandCriteria(ctx, config, commands, previous, tools);
    const { runner, reports, commandResults, printed, timeoutMs, refused } = runs;

    // 2a. Each command's tests, base against head, by identity (#32): the base runs once per run and criterion.
    const { bases, freshBases, accounts } = await testsByIdentity(ctx, view, config, commands, { diff, files }, runs, headSha);
    const testFindingsNow = () => [...accounts.values()].flatMap((a) => testFindings(a));
    adversarial.push(...testFindingsNow());

    // 2b. A command that fails: which task makes it fail, found by running it again on the base and the task branches.
    const failedCommands = commands.filter((c) => commandResults.find((e) => e.criterion === c.id)?.met === false);
    const localisation =
      runner && failedCommands.length && headSha !== base.sha
        ? await localise(
            ctx,
            view,
            failedCommands.map((c) => ({ criterion: c, ...printed.get(c.id)!, base: bases.get(c.id) })),
            { runner, reports, headSha, budgetSeconds: config.localisation_seconds, commandTimeoutMs: timeoutMs },
          )
        : [];
    await reports?.dispose();
    if (ctx.cancellation?.aborted)
      return {
        iteration,
        headSha,
        verdict: 'FAIL',
        evaluations: [],
        adversarial,
        overallReason: 'interrupted',
        suggestedNextAction: '',
        at: nowIso(ctx),
        ...refused(),
      };
    const decided = new Map(localisation.filter((l) => l.outcome.kind !== 'undecided').map((l) => [l.criterion, l]));

    // 3. Semantic criteria go to the critic model; so do failing commands localisation left undecided, to name the tasks behind them.
    const needsModel = semantic.length > 0 || commandResults.some((e) => e.met !== true && !decided.has(e.criterion)) || adversarial.length > 0;
    const taskIds = new Set(plan.tasks.filter((t) => !view.tasks.get(t.id)?.replacedBy).map((t) => t.id));
    const modelOut = needsModel
      ? await criticModel(ctx, view, { config, plan, semantic, adversarial, taskIds, iteration, previous, headSha, accounts }, runs).catch((e: unknown) => {
          if (e instanceof RunBudgetSpent) return e;
          throw e;
        })
      : undefined;
    if (modelOut instanceof RunBudgetSpent) return { stopped: modelOut, freshBases };
    // The renames the critic model showed (each a listed lost test and a listed new one): those tests are not lost.
    if (modelOut?.renames?.length) {
      for (const r of modelOut.renames) accounts.get(r.criterion)?.renamed.push({ from: r.lost, to: r.replacement });
      for (const a of accounts.values()) if (a.counts && a.renamed.length) a.counts.lost = Math.max(0, a.counts.lost - a.renamed.length);
      const kept = adversarial.filter((f) => f.rule !== 'lost-test' && f.rule !== 'test-report-missing');
      adversarial.splice(0, adversarial.length, ...kept, ...testFindingsNow());
    }
    return judgmentOf(ctx, { plan, commandResults, decided, modelOut, taskIds, adversarial, localisation, accounts, freshBases, refused, iteration, headSha });
  } finally {
    await tools.dispose();
  }
}

/** The adversarial checks: the criteria as reviewed, and the tests neither deleted, skipped nor weakened (domain/tamper.ts). */
async function adversarialOf(ctx: StepContext, view: RunView, plan: Plan, headSha: string) {
  const { base } = view.run;
  const diff = await ctx.repo.unifiedDiff(base.sha, headSha, DIFF_LIMIT_BYTES);
  if (diff.truncated) ctx.log.warn(`the diff is ${diff.bytes} bytes, over the ${DIFF_LIMIT_BYTES} the test-tampering checks read: the critic fails closed`);
  const files = parseUnifiedDiff(diff.text);
  const adversarial = adversarialChecks(
    plan.criteria,
    view.run.criteriaDigest,
    { files, ...(diff.truncated ? { cut: { bytes: diff.bytes, limit: DIFF_LIMIT_BYTES } } : {}) },
    await tamperContext(ctx, base.sha, headSha, files),
    ctx.surface,
  );
  return { diff, files, adversarial };
}

/** The command criteria, each run for real after the setup, with the report hooks that read their tests. */
async function runCommandCriteria(
  ctx: StepContext,
  config: Config,
  commands: Plan['criteria'],
  previous: Previous,
  tools: JobTools & { setupFailure: string | null },
) {
  const { runner, warning, setupFailure, egress, hint, reach } = tools;
  // Every round's refusals are kept: the pull request lists what any critic job's setup or commands tried.
  const refused = () => {
    const all = addRefusals(previous?.refused, egress?.refused());
    return Object.keys(all).length ? { refused: all } : {};
  };
  if (config.setup.length) await ctx.repo.excludeUntracked();
  const commandResults: Evaluation[] = [];
  const printed = new Map<string, CommandRun>();
  const timeoutMs = config.command_timeout_seconds * 1000;
  const reports = runner && commands.length ? await testReports(ctx, runner) : undefined;
  for (const c of commands) {
    const allowed = checkCommand(c.command ?? '', config.commands);
    if (setupFailure) commandResults.push(commandNotRun(c, setupFailure));
    else if (!runner) commandResults.push(commandNotRun(c, warning ?? 'no sandbox to run it in'));
    else if (!allowed.ok) commandResults.push(commandNotRun(c, `the command policy refuses it: ${allowed.reason}`));
    else {
      ctx.log.info(`critic: running ${c.id}: ${c.command}`);
      const r = await runWithReports(runner, reports, c.command!, { cwd: ctx.repo.dir, timeoutMs });
      printed.set(c.id, r);
      commandResults.push(commandEvaluation(c, r, hint));
    }
  }
  return { runner, warning, egress, reach, reports, commandResults, printed, timeoutMs, refused };
}

type Previous = Awaited<ReturnType<typeof lastJudgment>>;
type CommandRuns = Awaited<ReturnType<typeof runCommandCriteria>>;
type Accounts = Map<string, ReturnType<typeof account>>;

/** Each command's tests, base against head, by identity; an unreadable report leaves its criterion undecided. */
async function testsByIdentity(
  ctx: StepContext,
  view: RunView,
  config: Config,
  commands: Plan['criteria'],
  { diff, files }: Pick<Awaited<ReturnType<typeof adversarialOf>>, 'diff' | 'files'>,
  { runner, reports, egress, commandResults, printed, timeoutMs }: CommandRuns,
  headSha: string,
) {
  const ran = commands.filter((c) => printed.has(c.id));
  const baseSetup = {
    commands: config.setup,
    network: runner && egress ? setupNetwork(runner, egress) : undefined,
    where: `on the base's own checkout, ${runner?.sandboxed ? 'inside the sandbox' : 'WITHOUT a sandbox (allow_unsandboxed)'}`,
  };
  const { runs: bases, fresh: freshBases } = runner
    ? await baseRuns(ctx, view, ran, { runner, reports, headSha, timeoutMs, head: printed, setup: baseSetup })
    : { runs: new Map(), fresh: [] };
  const accounts = new Map<string, ReturnType<typeof account>>();
  const baseTree = diff.truncated ? undefined : await baseTreeOf(ctx, files);
  for (const c of ran) {
    const b = bases.get(c.id);
    if (!b) continue;
    const a = await accountWithRerun(ctx, { id: c.id, command: c.command! }, b.tests, printed.get(c.id)!.tests, {
      runner,
      reports,
      timeoutMs,
      diff: files,
      ...(baseTree ? { baseTree } : {}),
    });
    accounts.set(c.id, a);
    // An unreadable report leaves the criterion undecided, whatever the exit code: a person looks.
    if (a.state === 'unreadable') {
      const i = commandResults.findIndex((e) => e.criterion === c.id);
      commandResults[i] = {
        ...commandResults[i]!,
        met: null,
        confidence: 0,
        error: `${a.why}; so crew does not count the criterion as met: a person looks`,
      };
    }
  }
  return { bases, freshBases, accounts };
}

/** The critic model: the semantic criteria, and the failing commands localisation left undecided; its usage is recorded at once. */
async function criticModel(
  ctx: StepContext,
  view: RunView,
  j: {
    config: Config;
    plan: Plan;
    semantic: Plan['criteria'];
    adversarial: Findings;
    taskIds: Set<string>;
    iteration: number;
    previous: Previous;
    headSha: string;
    accounts: Accounts;
  },
  { runner, warning, egress, reach, commandResults }: CommandRuns,
): Promise<ModelOut> {
  const { issue, run, base } = view.run;
  const { config, plan, semantic, adversarial, taskIds, iteration, previous, headSha, accounts } = j;
  let modelOut: ModelOut;
  const model = await runModel(ctx, view, 'critic');
  try {
    modelOut = await runCritic(
      model,
      {
        repoDir: ctx.repo.dir,
        modelId: config.models[config.default_model],
        system: await promptWithInstructions(
          ctx,
          'critic',
          reviewedSha(view.run),
          plan.tasks.flatMap((t) => t.files),
        ),
        plan,
        judge: semantic,
        commandResults,
        adversarial,
        taskSummaries: plan.tasks
          .filter((t) => taskIds.has(t.id))
          .map((t) => ({ id: t.id, title: t.title, summary: view.tasks.get(t.id)?.summary ?? '', files: view.tasks.get(t.id)?.changedFiles ?? [] })),
        diffStat: await ctx.repo.diffStat(base.sha, headSha),
        guidance: config.prompts.judgment,
        commands: agentCommands({ runner, warning, egress, reach }, config),
        maxTurns: CRITIC_MAX_TURNS,
        iteration,
        limit: config.max_iterations + (view.run.review?.allowance ?? 0),
        previous: previous ? rerunAdvice(previous).slice(0, 4000) : undefined,
        readTree: (path) => ctx.repo.readFileAt(headSha, path),
        readBase: (path) => ctx.repo.readFileAt(base.sha, path),
        lostTests: [...accounts.values()]
          .filter((a) => a.lost.length)
          .map((a) => ({ criterion: a.criterion, command: a.command, lost: a.lost.map((l) => l.test), newPassing: a.newPassing })),
      },
      ctx.log,
      agentRun(ctx, { agent: 'critic', model: config.models[config.default_model], iteration }),
    );
  } catch (e) {
    // The run's budget is reached: no verdict; the run waits and asks (critic() catches it, budget-stop.ts).
    if (e instanceof RunBudgetSpent) throw e;
    // The model being unreachable is not the work's fault: it becomes an error a person can retry.
    ctx.log.warn(`critic: the model failed: ${(e as Error).message}`);
    modelOut = {
      evaluations: [],
      overallReason: `the critic's model call failed: ${(e as Error).message}`,
      suggestedNextAction: `${sentence(ctx.surface.give('retry'))} to judge again.`,
      usage: ZERO_USAGE,
      turns: 0,
      submitted: false,
    };
  }
  await updateView(ctx, issue, run, `critic usage`, (v, tx) => {
    writeRun(tx, { ...v.run, usage: addUsage(v.run.usage, modelOut!.usage) }, nowIso(ctx));
  });
  return modelOut;
}

type Findings = ReturnType<typeof adversarialChecks>;
type ModelOut = Awaited<ReturnType<typeof runCritic>>;
type Localised = Awaited<ReturnType<typeof localise>>;

/** Every criterion's evaluation, the verdict and its reason: the judgment as recorded. */
function judgmentOf(
  ctx: StepContext,
  j: {
    plan: Plan;
    commandResults: Evaluation[];
    decided: Map<string, Localised[number]>;
    modelOut: ModelOut | undefined;
    taskIds: Set<string>;
    adversarial: Findings;
    localisation: Localised;
    accounts: Accounts;
    freshBases: BaseRun[];
    refused: CommandRuns['refused'];
    iteration: number;
    headSha: string;
  },
): Judgment & { freshBases?: BaseRun[] } {
  const { plan, commandResults, decided, modelOut, taskIds, adversarial, localisation, accounts, freshBases, refused, iteration, headSha } = j;
  const given = new Map((modelOut?.evaluations ?? []).map((e) => [e.criterion, e]));
  const evaluations = plan.criteria.map((c) => {
    if (c.kind === 'command') {
      const e = commandResults.find((r) => r.criterion === c.id)!;
      if (e.met === true) return e;
      const found = decided.get(c.id);
      if (found) return { ...e, evidence: [...e.evidence, describeOutcome(found)], tasks: blamedBy(found.outcome) };
      return { ...e, tasks: (given.get(c.id)?.tasks ?? []).filter((t) => taskIds.has(t)) };
    }
    if (modelOut && !modelOut.submitted)
      return {
        criterion: c.id,
        text: c.text,
        kind: c.kind,
        met: null,
        evidence: [],
        confidence: 0,
        error: modelOut.overallReason,
        tasks: [],
      } satisfies Evaluation;
    return semanticEvaluation(c, given.get(c.id), taskIds);
  });
  const verdict = verdictOf(evaluations, adversarial);
  const failing = failingEvaluations({ evaluations });
  const overallReason =
    verdict === 'PASS'
      ? (modelOut?.overallReason ?? `every criterion is a command and every one exited 0`)
      : [
          failing.length ? `${failing.length} of ${evaluations.length} criteria not met (${failing.map((e) => e.criterion).join(', ')})` : '',
          adversarial.length
            ? `${adversarial.length} adversarial finding${adversarial.length === 1 ? '' : 's'} (${[...new Set(adversarial.map((f) => f.rule))].join(', ')})`
            : '',
          ...localisation.map(describeOutcome),
          modelOut?.overallReason ? `the critic says: ${modelOut.overallReason.trim().replace(/[.;]+$/, '')}` : '',
        ]
          .filter(Boolean)
          .join('; ');
  return {
    iteration,
    headSha,
    verdict,
    evaluations,
    adversarial,
    overallReason,
    suggestedNextAction: modelOut?.suggestedNextAction ?? '',
    at: nowIso(ctx),
    ...(localisation.length ? { localisation } : {}),
    ...(accounts.size ? { tests: [...accounts.values()].map(({ changes: _, ...a }) => a) } : {}),
    ...(freshBases.length ? { freshBases } : {}),
    ...refused(),
  };
}

/** The report hooks for this job's command criteria; without them, every criterion's tests are unknown (and why is logged). */
export async function testReports(ctx: StepContext, runner: CommandRunner): Promise<TestReports | undefined> {
  try {
    return await TestReports.prepare(join(jobTempDir(), 'crew-test-reports'), runner, ctx.repo.dir);
  } catch (e) {
    ctx.log.warn(`critic: crew could not set up its test report hooks (${(e as Error).message}); the tests of every command are unknown`);
    return undefined;
  }
}

/** A FAIL: send the failing criteria back to their tasks, or, past the limit (or when it could not judge), ask a person. */
async function afterFail(ctx: StepContext, view: RunView, j: Judgment): Promise<void> {
  const { issue, run } = view.run;
  const config = await ctx.config();
  const review = view.run.review ?? FRESH_REVIEW;
  const failing = failingEvaluations(j);
  // An evaluation that errored is not the work's fault: running the tasks again would not fix it.
  const onlyErrors = failing.length > 0 && failing.every((e) => e.met === null) && failingFindings(j.adversarial).length === 0;
  // Running the tasks again would not make the change small enough to read: a person decides.
  const tooLarge = j.adversarial.find((f) => f.rule === 'diff-too-large');
  const limit = config.max_iterations + review.allowance;
  if (tooLarge) return escalateVerdict(ctx, view, j, 'the change is too large for the test-tampering checks to read whole');
  if (j.iteration >= limit || onlyErrors)
    return escalateVerdict(
      ctx,
      view,
      j,
      onlyErrors
        ? 'the critic could not evaluate every criterion'
        : `the critic judged FAIL ${j.iteration} time${j.iteration === 1 ? '' : 's'}, the limit (max_iterations: ${config.max_iterations}${review.allowance ? ` + ${review.allowance}` : ''})`,
    );
  const targets = tasksToRerun(j, view);
  // Every failure was there before crew's changes: running a task again cannot be the fix, so a person decides.
  if (!targets.length)
    return escalateVerdict(
      ctx,
      view,
      j,
      (j.localisation ?? [])
        .filter((l) => l.outcome.kind === 'before')
        .map(describeOutcome)
        .join('; ') || 'no task can be sent back for what failed',
    );
  // What localisation found is shown where the maintainer looks, before the tasks go back.
  if (j.localisation?.length) {
    await spend(ctx, issue, run, { comments: 1 });
    await ctx.forge.postComment(
      issue,
      [
        `${ctx.surface.bold("crew's critic")} judged run ${ctx.surface.runNumber(issue, run)} FAIL (iteration ${j.iteration} of ${limit}) and sends ${targets.join(', ')} back.`,
        '',
        renderJudgment(j, ctx.surface),
      ].join('\n'),
    );
  }
  const now = nowIso(ctx);
  const claim = taskClaim(ctx, 'dispatch', now);
  const claimed = await updateView(ctx, issue, run, `critic sends back ${targets.join(', ')}`, (v, tx) => {
    if (v.run.phase !== 'REVIEWING') return [];
    for (const id of targets) {
      const t = taskOf(v, id);
      writeTask(tx, issue, run, {
        ...t,
        status: 'pending',
        claim: null,
        error: null,
        finishedAt: null,
        accepted: false,
        advice: [...t.advice, rerunAdvice(j, id)],
      });
    }
    writeRun(tx, { ...v.run, phase: 'EXECUTING', finalizer: null, review: { ...(v.run.review ?? FRESH_REVIEW), rerun: targets } }, now);
    return claimReadyTasks(tx, issue, run, config.max_parallel, claim);
  });
  ctx.log.info(`critic: FAIL; running ${targets.join(', ')} again with the critic's reasons (iteration ${j.iteration} of ${limit})`);
  if (claimed.length) await dispatchTasks(ctx, issue, run, claimed, claim);
  await syncPlanComment(ctx, issue, run);
}

async function escalateVerdict(ctx: StepContext, view: RunView, j: Judgment, why: string): Promise<void> {
  const { issue, run } = view.run;
  const s = ctx.surface;
  const body = [
    `${s.bold('crew needs a decision')} on run ${s.runNumber(issue, run)}: ${why}.`,
    '',
    renderJudgment(j, s),
    s.bold('Reply with one of:'),
    `- ${s.command('retry')}: one more round: the tasks behind the failing criteria run again with the critic's reasons, then the critic judges again.`,
    `- ${s.command('accept')}: open the pull request as it is, with the failing criteria stated at its top. crew will not merge it by itself.`,
    `- ${s.command('abort')}: stop here; the branches stay.`,
  ].join('\n');
  await spend(ctx, issue, run, { comments: 1 });
  const posted = await ctx.forge.postComment(issue, body);
  await updateView(ctx, issue, run, `critic FAIL goes to a person`, (v, tx) => {
    writeRun(tx, { ...v.run, phase: 'ESCALATING', finalizer: null, waiting: { kind: 'verdict', commentId: posted.id, iteration: j.iteration } }, nowIso(ctx));
    refreshExecutionLog(tx, issue, run);
  });
  await ctx.forge.addLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('verdict-escalated');
  await syncPlanComment(ctx, issue, run);
}
