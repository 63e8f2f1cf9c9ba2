import { attemptsFor } from '../domain/attempts';
import { criteriaDigest } from '../domain/judgment';
import { decompose } from '../agents/decomposer';
import { runIntake, type Intake } from '../agents/intake';
import { reviewPlan } from '../agents/plan-reviewer';
import { SubmissionRejected, type AgentCall } from '../agents/submission';
import { RunBudgetSpent } from '../agents/run-budget';
import { stopStepAtBudget } from './budget-stop';
import { configCriteria, statedCriteria, type Criterion } from '../domain/criteria';
import { runFolder } from '../domain/refs';
import type { Plan, PlanTask } from '../domain/plan';
import { checkPlanRules, findingsText, type Finding } from '../domain/plan-review';
import { addUsage, logPhase, newTaskRecord, reviewedSha, ZERO_USAGE, type RunRecord, type Usage, type Waiting } from '../domain/run-state';
import { failureComment } from '../render/messages';
import { sentence } from '../domain/surface';
import { SEEN, type StateSnapshot, type StateTx } from '../ports';
import { followUpCriteria, followUpItems, followUpSection, FollowUpMaterialSchema, type FollowUpMaterial } from '../domain/follow-up';
import { parseJson, paths, readJobTimes, readView, refreshExecutionLog, StateFormatError, writePlan, writeRun, writeTask } from '../state/run-files';
import { readPastRuns } from '../state/past-runs';
import { billableMinutes, runMinutes, type JobTime } from '../domain/actions-minutes';
import { estimateRun } from '../domain/estimate';
import type { CostEstimate } from '../domain/cost-estimate';
import { estimateText } from '../render/cost';
import { claimReadyTasks } from '../state/transitions';
import { renderedMarkup, sanitize } from '../text/sanitize';
import { foundImages, mergeImages, triggerText } from '../domain/images';
import { ensureRoom, spend } from './caps';
import { agentRun, dispatchTasks, nonce, nowIso, runModel, syncPlanComment, taskClaim, updateRun, type StepContext } from './context';
import { WAITING_LABEL } from '../domain/labels';
import { promptWithInstructions } from './agent-instructions';
import { collectImages, loadImages } from './images';
import type { AgentImage } from '../agents/decomposer';
import { planningEyes, readRepoView, scriptsOf, type RepoView } from './repo-map';

/** The plan reviewer may send a plan back this many times before a person decides. */
export const REVIEW_ROUNDS = 3;

/** crew asks clarifying questions at most this many times per run. */
export const QUESTION_ROUNDS = 2;

interface StoredIntake extends Intake {
  /** The answers intake saw, so new answers re-run it. */
  answersSeen: string;
}

function planMarkdown(plan: Plan, version: number): string {
  const lines = [`# Plan v${version}`, '', plan.summary, '', '| Task | Persona | Model | Depends on | Title |', '|---|---|---|---|---|'];
  for (const t of plan.tasks) lines.push(`| ${t.id} | ${t.persona} | ${t.tier} | ${t.dependsOn.join(', ') || '-'} | ${t.title} |`);
  lines.push('', '## Done criteria', ...plan.criteria.map((c) => `- ${c.id} (${c.kind}): ${c.text}${c.command ? ` — \`${c.command}\`` : ''}`), '');
  return lines.join('\n');
}

function taskMarkdown(plan: Plan, id: string): string {
  const t = plan.tasks.find((x) => x.id === id)!;
  return [
    `# ${t.id}: ${t.title}`,
    '',
    `- persona: ${t.persona}`,
    `- model: ${t.tier}`,
    `- depends on: ${t.dependsOn.join(', ') || '-'}`,
    `- files: ${t.files.join(', ') || '-'}`,
    '',
    t.description,
    '',
    '## Done when',
    ...t.criteria.map((c) => `- ${c}`),
    '',
  ].join('\n');
}

/** followup.json of a follow-up run, checked against its schema (a damaged file is named, never guessed at). */
function readFollowUp(snap: StateSnapshot, issue: number, run: number): FollowUpMaterial {
  const path = paths.followUp(issue, run);
  const parsed = FollowUpMaterialSchema.safeParse(parseJson<unknown>(snap, path));
  if (!parsed.success) throw new StateFormatError(path, null, `it is missing or damaged (${parsed.error.issues[0]?.message ?? 'unreadable'})`);
  return parsed.data;
}

/** A request small enough for one worker skips the decomposer (claude-crew's phase skipping). */
function singleTaskPlan(intake: Intake, title: string, body: string, criteria: Criterion[], images: string[]): Plan {
  const single = intake.single!;
  return {
    summary: intake.task,
    criteria,
    tasks: [
      {
        id: 't1',
        title: single.title,
        description: `${intake.task}${intake.questions.length ? `\n\nQuestions the maintainer left open (make a reasonable assumption for each and say which in your report):\n${intake.questions.map((q, i) => `${i + 1}. ${q}`).join('\n')}` : ''}\n\nThe issue, for reference:\n${body || title}`,
        persona: single.persona,
        tier: single.tier,
        dependsOn: [],
        files: [],
        criteria: criteria.map((c) => c.text),
        ...(images.length ? { images } : {}),
      },
    ],
  };
}

function mergeCriteria(intake: Intake, fromConfig: string[]): Criterion[] {
  const known = new Set(intake.criteria.filter((c) => c.command).map((c) => c.command!.trim()));
  return [
    ...intake.criteria,
    ...configCriteria(
      fromConfig.filter((c) => !known.has(c.trim())),
      intake.criteria.length + 1,
    ),
  ];
}

/** What the parts of one planning job share. */
interface Planning {
  ctx: StepContext;
  issue: number;
  run: number;
  config: Awaited<ReturnType<StepContext['config']>>;
  view: NonNullable<ReturnType<typeof readView>>;
  snap: StateSnapshot;
  request: { title: string; body: string; comment?: string };
  title: string;
  body: string;
  answers: string;
  followUp: FollowUpMaterial | null;
  model: Awaited<ReturnType<typeof runModel>>;
  modelId: string;
  /** A planning role's call: its prompt, and a record of this agent run that starts now. */
  call(agent: 'intake' | 'planner' | 'plan_reviewer', system: string, iteration?: number): AgentCall;
  startedAt: string;
  /** The request, the answers and all: what the repository map is ranked for. */
  requested: string;
  repoView(): Promise<RepoView>;
  /** Books model usage spent in this step; the next `record` writes it. */
  book(u: Usage): void;
  /** One state write that also books the model usage spent so far in this step. */
  record: Recorder;
}

/** What the planning roles were shown of the request's images. */
interface PlanningImages {
  images: AgentImage[];
  notLoaded: string[];
}

/**
 * Plans a run that is in PLANNING: intake (asking questions when the criteria
 * cannot be checked), decomposition, review, then either approval or execution.
 * Returns the task ids to start now (with `dispatch`, already dispatched). Every step that needs a person stops here
 * with a comment; the person's reply starts planning again.
 */
export async function planRun(
  ctx: StepContext,
  issue: number,
  run: number,
  revision?: string,
  claimBy: 'this-run' | 'dispatch' = 'this-run',
): Promise<string[]> {
  ctx.working = { issue, run };
  const config = await ctx.config();
  // Its writes are compare-and-swaps that check the phase again; a job's first read asks GitHub.
  const snap = await ctx.state.load(`${runFolder(issue, run)}/`, SEEN);
  const view = readView(snap, issue, run);
  if (!view || view.run.phase !== 'PLANNING') return [];
  const request = parseJson<{ title: string; body: string; comment?: string }>(snap, paths.requestJson(issue, run))!;
  const title = sanitize(request.title, 300);
  // A follow-up's feedback and review threads (sanitised when stored) join the request; its items are the criteria intake must keep.
  const followUp = view.run.followUp ? readFollowUp(snap, issue, run) : null;
  const body = followUp ? `${sanitize(request.body)}\n\n${followUpSection(followUp, view.run.followUp!.k, view.run.followUp!.pull)}` : sanitize(request.body);
  const answers = snap.read(paths.answers(issue, run)) ?? '';
  let usage: Usage = ZERO_USAGE;
  // What the planning roles see of the repository (#48): read once, ranked for each role's own words.
  const requested = `${title}\n${body}\n${answers}`;
  let read: Promise<RepoView> | undefined;
  const p: Planning = {
    ctx,
    issue,
    run,
    config,
    view,
    snap,
    request,
    title,
    body,
    answers,
    followUp,
    model: await runModel(ctx, view, 'planner'),
    modelId: config.models[config.default_model],
    call(agent, system, iteration) {
      const meta = { agent, model: this.modelId, ...(iteration !== undefined ? { iteration } : {}) };
      return { model: this.model, modelId: this.modelId, system, log: ctx.log, trajectory: agentRun(ctx, meta) };
    },
    startedAt: nowIso(ctx),
    requested,
    repoView: () => (read ??= readRepoView(ctx, requested)),
    book: (u) => void (usage = addUsage(usage, u)),
    record: (message, mutate, then) =>
      updateRun(ctx, issue, run, `${message}`, (rec, tx) => {
        writeRun(tx, mutate({ ...rec, usage: addUsage(rec.usage, usage) }, tx), nowIso(ctx));
        then?.(tx);
        refreshExecutionLog(tx, issue, run);
      }),
  };
  // Intake's reading once it is made: kept when the run's budget stops planning, so going on neither reads nor asks again.
  let intakeRead: StoredIntake | null = null;
  try {
    const images = await requestImages(p);
    // 1. Intake: the task and its done criteria, or questions first.
    const intake = await intakeOrAsk(p, images);
    if (!intake) return [];
    intakeRead = intake;
    // A follow-up keeps the pull request's criteria as they were (the critic judges them again) and numbers the new ones on.
    const fresh = followUp ? followUpCriteria(followUp.kept, intake.criteria) : null;
    const criteria = mergeCriteria(fresh ? { ...intake, criteria: fresh.criteria } : intake, config.criteria);
    // 2. Decompose (or skip it for a single small task), then review, revising up to REVIEW_ROUNDS times.
    const reviewed = await planAndReview(p, intake, criteria, images, revision);
    // After QUESTION_ROUNDS crew stops asking and plans on assumptions; the plan comment says which questions stayed open.
    if (intake.questions.length) reviewed.plan = { ...reviewed.plan, openQuestions: intake.questions };
    // 3. Record the plan; then run it, or wait for a person.
    return await recordPlan(p, intake, fresh, reviewed, claimBy);
  } catch (e) {
    if (e instanceof RunBudgetSpent) {
      const kept = intakeRead;
      await stopStepAtBudget(ctx, issue, run, 'planning', e, {
        ...(kept ? { files: (tx: StateTx) => tx.write(paths.intake(issue, run), `${JSON.stringify(kept, null, 2)}\n`) } : {}),
        revision,
      });
      return [];
    }
    if (!(e instanceof SubmissionRejected)) throw e;
    await planningFailed(p, e);
    return [];
  }
}

/**
 * The request's images (#36): the recorded ones loaded again by hash, new ones (the request's the first time, an
 * answer's once it came) read and recorded, each with the texts that show it, since GitHub serves a private
 * repository's images through those texts' signed links (#47).
 */
async function requestImages(p: Planning): Promise<PlanningImages> {
  const { ctx, issue, run, view, request, followUp } = p;
  let images: AgentImage[] = [];
  let notLoaded: string[] = [];
  const recorded = view.run.images ?? [];
  if (view.run.images !== null) {
    const loaded = await loadImages(ctx, view.run.images);
    images = loaded.images;
    notLoaded = loaded.missing;
    // Said on crew/state for the plan comment, so the maintainer knows the planner did not see them this time.
    if (notLoaded.length || view.run.imagesNotLoaded?.length)
      await updateRun(ctx, issue, run, `images: ${notLoaded.length} could not be loaded again`, (rec, tx) =>
        writeRun(tx, { ...rec, imagesNotLoaded: notLoaded.length ? notLoaded : undefined }, nowIso(ctx)),
      );
  }
  const found =
    view.run.images === null
      ? mergeImages([
          ...foundImages([
            { shown: renderedMarkup(request.body), in: { kind: 'issue', number: issue } },
            ...(request.comment ? [{ shown: renderedMarkup(request.comment), in: triggerText(view.run.trigger, issue) }] : []),
          ]),
          ...(followUp?.images ?? []),
          ...(view.run.answerImages ?? []),
        ])
      : (view.run.answerImages ?? []).filter((f) => !recorded.some((r) => r.source === f.url));
  if (found.length) {
    const got = await collectImages(ctx, found, recorded);
    images = [...images, ...got.images];
    await updateRun(ctx, issue, run, `images: ${got.images.length} read, ${got.records.length - got.images.length} refused`, (rec, tx) =>
      writeRun(tx, { ...rec, images: [...(rec.images ?? []), ...got.records] }, nowIso(ctx)),
    );
  }
  return { images, notLoaded };
}

/** Intake's reading of the request (kept until new answers come), or null when it asked questions and planning waits. */
async function intakeOrAsk(p: Planning, { images, notLoaded }: PlanningImages): Promise<StoredIntake | null> {
  const { ctx, issue, run, view, followUp, answers } = p;
  const kept = parseJson<StoredIntake>(p.snap, paths.intake(issue, run));
  if (kept && kept.answersSeen === answers) return kept;
  const system = await promptWithInstructions(ctx, 'intake', reviewedSha(view.run));
  const input = {
    title: p.title,
    body: p.body,
    stated: followUp ? followUpItems(followUp) : statedCriteria(p.body),
    answers,
    ...(followUp ? { kept: followUp.kept } : {}),
    images,
    ...(notLoaded.length ? { imagesNotLoaded: notLoaded } : {}),
    eyes: planningEyes(ctx, await p.repoView(), p.requested),
    scripts: await scriptsOf(ctx, await p.repoView()),
  };
  const out = await runIntake(p.call('intake', system), input);
  p.book(out.usage);
  const intake = { ...out.intake, answersSeen: answers };
  const asked = (answers.match(/^## Questions/gm) ?? []).length;
  if (intake.questions.length && asked < QUESTION_ROUNDS) {
    await ask(ctx, issue, run, intake, p.record);
    return null;
  }
  return intake;
}

interface Reviewed {
  plan: Plan;
  findings: Finding[];
  passed: boolean;
  rounds: number;
}

/** The decomposer's plan (or one task for a small request), reviewed and revised up to REVIEW_ROUNDS times. */
async function planAndReview(
  p: Planning,
  intake: StoredIntake,
  criteria: Criterion[],
  { images, notLoaded }: PlanningImages,
  revision?: string,
): Promise<Reviewed> {
  const { ctx, config, view, title, body, answers } = p;
  const openQuestions = intake.questions;
  const decomposerEyes = async () =>
    planningEyes(ctx, await p.repoView(), `${p.requested}\n${intake.task}\n${criteria.map((c) => `${c.text} ${c.command ?? ''}`).join('\n')}`);
  const decomposer = await promptWithInstructions(ctx, 'decomposer', reviewedSha(view.run));
  // A first plan from the decomposer has at least two tasks; only revising a one-task plan may keep one.
  const ask = async (iteration: number, revise?: { plan: Plan; feedback: string }): Promise<Plan> => {
    const input = {
      title,
      body,
      task: intake.task,
      criteria,
      answers,
      openQuestions,
      eyes: await decomposerEyes(),
      maxTasks: config.max_tasks,
      minTasks: intake.single ? 1 : 2,
      protectedPaths: config.protected_paths,
      images,
      ...(notLoaded.length ? { imagesNotLoaded: notLoaded } : {}),
      ...(revise ? { revise } : {}),
    };
    const r = await decompose(p.call('planner', decomposer, iteration), input);
    p.book(r.usage);
    return r.plan;
  };
  const previous = view.plan;
  let plan: Plan =
    intake.single && !revision
      ? singleTaskPlan(
          intake,
          title,
          body,
          criteria,
          images.map((i) => i.id),
        )
      : await ask(1, revision && previous ? { plan: previous, feedback: revision } : undefined);
  let findings: Finding[] = [];
  let passed = false;
  let rounds = 0;
  const reviewerPrompt = await promptWithInstructions(ctx, 'plan_reviewer', reviewedSha(view.run));
  for (let round = 1; round <= REVIEW_ROUNDS; round++) {
    rounds = round;
    findings = checkPlanRules(plan);
    if (findings.length === 0) {
      const review = await reviewPlan(
        p.call('plan_reviewer', reviewerPrompt, round),
        { title, body },
        plan,
        planningEyes(ctx, await p.repoView(), `${p.requested}\n${plan.tasks.map((t) => `${t.title}\n${t.description}\n${t.files.join(' ')}`).join('\n')}`),
      );
      p.book(review.usage);
      findings = review.findings;
      passed = review.verdict === 'PASS';
    }
    ctx.log.info(`plan review round ${round}: ${passed ? 'PASS' : `FAIL (${findings.length} findings)`}`);
    if (passed || round === REVIEW_ROUNDS) break;
    plan = await ask(round + 1, { plan, feedback: `The plan reviewer found:\n${findingsText(findings)}` });
  }
  return { plan, findings, passed, rounds };
}

/**
 * The plan, its tasks, the review and the estimate in one write; a plan that needs no approval claims its first tasks in
 * the same write (#31 §4). Returns the tasks to start now (with `dispatch`, already dispatched).
 */
async function recordPlan(
  p: Planning,
  intake: StoredIntake,
  fresh: ReturnType<typeof followUpCriteria> | null,
  { plan, findings, passed, rounds }: Reviewed,
  claimBy: 'this-run' | 'dispatch',
): Promise<string[]> {
  const { ctx, issue, run, view, config } = p;
  // Each task gets a branch, and so does the integration. Each parallel attempt of a task (#50) is a branch and a work
  // job of its own: the caps and the estimate count them.
  const attempts = (t: PlanTask) => attemptsFor(view.run.attempts, t, false, config.max_parallel);
  const branches = plan.tasks.reduce((n, t) => n + attempts(t), 0) + 1;
  await ensureRoom(ctx, view.run, { branches: branches - view.run.posted.branches });
  const needsApproval = !passed || config.require_plan_approval || view.run.mode === 'plan';
  const past = await readPastRuns(ctx.state, { issue, run });
  for (const problem of past.problems) ctx.log.warn(problem);
  let estimate: CostEstimate | null = null;
  const now = nowIso(ctx);
  let version = 0;
  const claim = taskClaim(ctx, claimBy, now);
  let claimed: string[] = [];
  const start = needsApproval ? undefined : (tx: StateTx) => void (claimed = claimReadyTasks(tx, issue, run, config.max_parallel, claim));
  await p.record(
    `plan v${view.run.planVersion + 1} with ${plan.tasks.length} tasks${needsApproval ? '' : '; start'}`,
    (current, tx) => {
      let rec = logPhase(current, 'decomposer', {
        model: config.default_model,
        started: p.startedAt,
        finished: now,
        status: 'success',
        retries: rounds - 1,
        error: null,
      });
      version = rec.planVersion + 1;
      tx.write(paths.intake(issue, run), `${JSON.stringify(intake, null, 2)}\n`);
      writePlan(tx, issue, run, plan, planMarkdown(plan, version), (id) => taskMarkdown(plan, id));
      const keep = new Set(plan.tasks.flatMap((t) => [paths.taskJson(issue, run, t.id), paths.taskMd(issue, run, t.id)]));
      for (const file of tx.list(`${runFolder(issue, run)}/tasks/`)) if (!keep.has(file)) tx.remove(file);
      for (const t of plan.tasks) writeTask(tx, issue, run, newTaskRecord(t.id, ctx.branches.task(issue, run, t.id)));
      tx.write(paths.review(issue, run), `# Plan review of v${version}\n\n${passed ? 'PASS' : 'FAIL'}\n\n${findingsText(findings) || '(no findings)'}\n`);
      const criteria = criteriaDigest(plan.criteria);
      estimate = estimateRun({
        at: now,
        tasks: plan.tasks.map((t) => ({ tier: t.tier, attempts: attempts(t) })),
        models: config.models,
        criticTier: config.default_model,
        retroTier: config.retrospect.enabled ? config.retrospect.model : null,
        budgets: config.budgets,
        taskTimeoutMinutes: config.task_timeout_minutes,
        spent: { costUsd: rec.usage.costUsd, minutes: minutesSoFar(ctx, readJobTimes(tx, issue, run)) },
        waitsForApproval: needsApproval,
        past: past.runs,
      });
      rec = { ...rec, estimate, posted: { ...rec.posted, branches: Math.max(rec.posted.branches, branches) } };
      if (rec.followUp && fresh) rec = { ...rec, followUp: { ...rec.followUp, added: fresh.added } };
      if (needsApproval)
        return {
          ...rec,
          phase: 'AWAITING_APPROVAL',
          planVersion: version,
          criteriaDigest: criteria,
          waiting: { kind: 'approval', commentId: 0, planVersion: version, reason: passed ? 'requested' : 'review-failed' },
        };
      return { ...rec, phase: 'EXECUTING', planVersion: version, criteriaDigest: criteria, waiting: null };
    },
    start,
  );
  ctx.log.checkpoint('plan-recorded');
  if (needsApproval) {
    await requestApproval(ctx, issue, run, version, passed, findingsText(findings), estimate);
    return [];
  }
  // A job with no `work` job after it starts them in new workflow runs, as a work job starts what it unblocks.
  if (claimBy === 'dispatch' && claimed.length) await dispatchTasks(ctx, issue, run, claimed, claim);
  return claimed;
}

/** A planning role's answers kept failing crew's checks: the run fails, with what was wrong and what to do. */
async function planningFailed(p: Planning, e: SubmissionRejected): Promise<void> {
  const { ctx, issue, run, config } = p;
  const who = e.tool === 'submit_intake' ? "The intake's reading of the issue" : e.tool === 'submit_review' ? "The plan reviewer's answer" : "The model's plan";
  const message = `${who} failed crew's checks ${e.attempts} time${e.attempts > 1 ? 's' : ''}. The last problems were:\n${e.errors.map((x) => `- ${x}`).join('\n')}`;
  p.book(e.usage);
  await p.record('planning failed', (rec) => ({
    ...logPhase(rec, 'decomposer', {
      model: config.default_model,
      started: p.startedAt,
      finished: nowIso(ctx),
      status: 'failure',
      retries: 0,
      error: message.split('\n')[0]!,
    }),
    phase: 'FAILED',
    failure: { step: 'planning', message: message.split('\n')[0]! },
  }));
  await syncPlanComment(ctx, issue, run);
  await ctx.forge.postComment(
    issue,
    failureComment(
      'planning',
      message,
      ctx.forge.runLink(),
      `Make the issue more specific (what to change, and how to check it is done), then ${ctx.surface.give('run')} again.`,
      ctx.surface,
    ),
  );
}

/** Billable minutes so far: the run's other jobs as recorded, and this one until now; null locally (no Actions minutes). */
function minutesSoFar(ctx: StepContext, jobs: JobTime[]): number | null {
  if (!ctx.job) return null;
  const me = ctx.job;
  return runMinutes(jobs.filter((j) => j.id !== me.id)) + billableMinutes(ctx.clock.now().getTime() - me.startedAt);
}

type Recorder = (message: string, mutate: (rec: RunRecord, tx: StateTx) => RunRecord, then?: (tx: StateTx) => void) => Promise<unknown>;

/** Posts numbered questions, labels the issue so plain replies reach crew, and waits. */
async function ask(ctx: StepContext, issue: number, run: number, intake: StoredIntake, record: Recorder): Promise<void> {
  const body = [
    `Before planning, crew needs answers to ${intake.questions.length === 1 ? 'one question' : `${intake.questions.length} questions`}:`,
    '',
    ...intake.questions.map((q, i) => `${i + 1}. ${ctx.surface.modelText(q.replace(/\s*\r?\n\s*/g, ' '))}`),
    '',
    `${ctx.surface.answerHow} Nothing runs until then.`,
    ctx.surface.marker('question', { issue, run, nonce: nonce() }),
  ].join('\n');
  await spend(ctx, issue, run, { comments: 1 });
  const posted = await ctx.forge.postComment(issue, body);
  const waiting: Waiting = { kind: 'answer', commentId: posted.id, questions: intake.questions };
  await record(`asked ${intake.questions.length} question(s)`, (rec, tx) => {
    tx.write(paths.intake(issue, run), `${JSON.stringify(intake, null, 2)}\n`);
    return { ...rec, phase: 'ESCALATING', waiting };
  });
  await ctx.forge.addLabel(issue, WAITING_LABEL);
  ctx.log.checkpoint('question-asked');
  await syncPlanComment(ctx, issue, run);
}

/** Tells the maintainer the plan waits for them; that comment is what an approval must come after. */
export async function requestApproval(
  ctx: StepContext,
  issue: number,
  run: number,
  version: number,
  passed: boolean,
  findings: string,
  estimate: CostEstimate | null = null,
): Promise<void> {
  const s = ctx.surface;
  const lines = passed
    ? [
        `${s.bold(`Plan v${version} is ready`)} (see the plan comment above). ${sentence(s.give('approve'))} to start it, or ${s.command('revise', '<what to change>')} to plan again.`,
      ]
    : [
        `${s.bold(`The plan reviewer did not pass plan v${version}`)} after ${REVIEW_ROUNDS} rounds. Its findings:`,
        '',
        s.modelText(findings),
        '',
        `${sentence(s.give('approve'))} to run this plan anyway, or ${s.command('revise', '<what to change>')} to plan again.`,
      ];
  // What approving will likely cost, before any of it is spent.
  if (estimate) lines.push('', `${s.bold('Estimate:')} ${estimateText(estimate)}`);
  await spend(ctx, issue, run, { comments: 1 });
  const posted = await ctx.forge.postComment(issue, [...lines, s.marker('approval', { issue, run, v: version })].join('\n'));
  await updateRun(ctx, issue, run, `approval requested for v${version}`, (rec, tx) => {
    if (rec.waiting?.kind === 'approval' && rec.waiting.planVersion === version)
      writeRun(tx, { ...rec, waiting: { ...rec.waiting, commentId: posted.id } }, nowIso(ctx));
  });
  ctx.log.checkpoint('approval-requested');
  await syncPlanComment(ctx, issue, run);
}
