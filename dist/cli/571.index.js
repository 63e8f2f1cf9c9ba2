export const id = 571;
export const ids = [571];
export const modules = {

/***/ 73571:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  QUESTION_ROUNDS: () => (/* binding */ QUESTION_ROUNDS),
  REVIEW_ROUNDS: () => (/* binding */ REVIEW_ROUNDS),
  planRun: () => (/* binding */ planRun),
  requestApproval: () => (/* binding */ requestApproval)
});

// EXTERNAL MODULE: ./src/domain/attempts.ts
var domain_attempts = __webpack_require__(26296);
// EXTERNAL MODULE: ./src/domain/judgment.ts
var judgment = __webpack_require__(7882);
// EXTERNAL MODULE: ./src/agents/decomposer.ts
var agents_decomposer = __webpack_require__(91565);
// EXTERNAL MODULE: ./src/domain/images.ts
var domain_images = __webpack_require__(99696);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 4 modules
var schemas = __webpack_require__(41514);
// EXTERNAL MODULE: ./src/domain/criteria.ts
var domain_criteria = __webpack_require__(83543);
// EXTERNAL MODULE: ./src/domain/plan.ts
var plan = __webpack_require__(52517);
// EXTERNAL MODULE: ./src/agents/submission.ts
var submission = __webpack_require__(22180);
// EXTERNAL MODULE: ./src/agents/read-only-tools.ts
var read_only_tools = __webpack_require__(13297);
;// CONCATENATED MODULE: ./src/agents/intake.ts






const IntakeSchema = schemas/* object */.Ikc({
    task: schemas/* string */.YjP().trim().min(1).describe('The request restated in one or two sentences.'),
    criteria: schemas/* array */.YOg(schemas/* object */.Ikc({
        text: schemas/* string */.YjP().trim().min(1).describe('The criterion as a statement that is either true or false.'),
        kind: schemas/* enum */.k5n(['command', 'semantic'])
            .describe('command: a shell command decides it (exit 0 met, 1 not met, 2+ error); semantic: judged from evidence.'),
        command: schemas/* string */.YjP().optional().describe('For command criteria: the command to run, one line.'),
        restates: schemas/* int */.Whr()
            .positive()
            .optional()
            .describe("When this is one of the issue's own criteria (reworded, or made a command): its number in the list crew gave you."),
    }))
        .min(1)
        .describe('Done criteria: every one the issue states (reworded if need be), plus any you add; proposed ones when it states none.'),
    questions: schemas/* array */.YOg(schemas/* string */.YjP().trim().min(1))
        .default([])
        .describe('Clarifying questions, only for criteria or requirements that cannot be checked as written.'),
    single_task: schemas/* boolean */.zMY().describe('True when one worker can do the whole request as a single small task.'),
    persona: schemas/* enum */.k5n(plan/* PERSONAS */.Ud).optional().describe('For a single task: the persona to use.'),
    model: schemas/* enum */.k5n(plan/* TIERS */.iB).optional().describe('For a single task: the model tier.'),
});
async function runIntake(call, input) {
    const firstMessage = [
        `Issue: ${input.title}`,
        '',
        input.body || '(no description)',
        '',
        ...(input.kept?.length
            ? [
                `This is a follow-up on crew's open pull request. Its done criteria so far stay exactly as they are and will be judged again; do not repeat them. Write only the new criteria the follow-up needs.\n${input.kept.map((c) => `- ${c.id}: ${c.text}${c.command ? ` (\`${c.command}\`)` : ''}`).join('\n')}`,
                '',
            ]
            : []),
        input.stated.length
            ? `The issue states these done criteria. Keep every one: you may reword it or make it a command, and then give its number as \`restates\`.\n${input.stated.map((s, i) => `${i + 1}. ${s}`).join('\n')}`
            : 'The issue states no done criteria; propose checkable ones.',
        ...(input.answers ? ['', 'The maintainer already answered these questions:', input.answers] : []),
        ...(input.images?.length ? ['', "The request's images, shown above in this order:", ...input.images.map((i) => `- ${i.line}`)] : []),
        ...(0,domain_images/* notLoadedNote */.hl)(input.imagesNotLoaded),
        ...(input.scripts
            ? [
                '',
                '## Scripts the repository has',
                input.scripts.length
                    ? 'A command criterion should run one of these where one fits (the sandbox has what setup installs):'
                    : 'crew found no package.json scripts, Makefile, pyproject.toml, Cargo.toml or go.mod at the root: look before you name a command.',
                ...input.scripts,
            ]
            : []),
        ...(0,read_only_tools/* eyesSection */.CL)(input.eyes, 'submit_intake'),
    ].join('\n');
    const { value, usage } = await (0,submission/* askForSubmission */.dA)({
        ...call,
        firstMessage,
        images: input.images?.map((i) => i.block),
        ...(input.eyes?.look ? { look: input.eyes.look } : {}),
        tool: { name: 'submit_intake', description: 'Submit the restated task, its done criteria and any clarifying questions.', schema: IntakeSchema },
        check(raw) {
            const errors = [];
            raw.criteria.forEach((c, i) => {
                if (c.kind === 'command') {
                    const p = (0,domain_criteria/* commandProblem */.RS)(c.command);
                    if (p)
                        errors.push(`criteria.${i}: a command criterion needs a runnable command: ${p}`);
                }
                if (c.restates !== undefined && c.restates > input.stated.length)
                    errors.push(`criteria.${i}.restates: the issue states ${input.stated.length || 'no'} criteria, so there is no number ${c.restates}`);
            });
            // The issue's own criteria are the maintainer's definition of done: intake may reword them, never drop them.
            for (const d of (0,domain_criteria/* droppedCriteria */.K)(input.stated, raw.criteria))
                errors.push(`criteria: the issue's criterion ${d.n} ("${d.text}") is missing; keep it (reworded or as a command if you like) and set restates: ${d.n}`);
            if (raw.single_task && (!raw.persona || !raw.model))
                errors.push('single_task: give the persona and model for the single task');
            return errors.length ? { ok: false, errors } : { ok: true, value: raw };
        },
    });
    const criteria = value.criteria.map((c, i) => ({
        id: `c${i + 1}`,
        text: c.text,
        kind: c.kind,
        ...(c.kind === 'command' ? { command: c.command.trim() } : {}),
    }));
    // Vague criteria the model did not ask about still get a question, after an answer too (an answer that
    // left a criterion unmeasurable gets asked about again, within planning's question rounds). Only semantic
    // criteria: a command criterion is decided by its exit code, however its text reads.
    const questions = [...value.questions];
    for (const c of criteria) {
        const why = c.kind === 'semantic' ? (0,domain_criteria/* vagueness */._E)(c.text) : undefined;
        if (why && !questions.some((q) => q.toLowerCase().includes(c.text.toLowerCase().slice(0, 24)))) {
            questions.push(`"${c.text}" cannot be checked as written (${why}). What result would show it is met — for example a command that exits 0, or a number?`);
        }
    }
    return {
        intake: {
            task: value.task,
            criteria,
            questions,
            single: value.single_task ? { title: input.title.slice(0, 120), persona: value.persona, tier: value.model } : null,
        },
        usage,
    };
}

// EXTERNAL MODULE: ./src/agents/plan-reviewer.ts
var plan_reviewer = __webpack_require__(87143);
// EXTERNAL MODULE: ./src/agents/run-budget.ts
var run_budget = __webpack_require__(2909);
// EXTERNAL MODULE: ./src/steps/budget-stop.ts
var budget_stop = __webpack_require__(8811);
// EXTERNAL MODULE: ./src/domain/refs.ts
var refs = __webpack_require__(92);
// EXTERNAL MODULE: ./src/domain/plan-review.ts
var plan_review = __webpack_require__(75674);
// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/render/messages.ts
var messages = __webpack_require__(93050);
// EXTERNAL MODULE: ./src/domain/surface.ts
var surface = __webpack_require__(45759);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
// EXTERNAL MODULE: ./src/domain/follow-up.ts
var follow_up = __webpack_require__(75933);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/state/past-runs.ts
var past_runs = __webpack_require__(4436);
// EXTERNAL MODULE: ./src/domain/actions-minutes.ts
var actions_minutes = __webpack_require__(10459);
// EXTERNAL MODULE: ./src/domain/pricing.ts
var pricing = __webpack_require__(70878);
;// CONCATENATED MODULE: ./src/domain/estimate.ts

/** Figures of one kind needed before past runs replace the assumptions. */
const MIN_SAMPLES = 3;
const LOW_Q = 0.25;
const HIGH_Q = 0.9;
/**
 * crew's assumptions where a repository has no runs of its own yet (docs/ARCHITECTURE.md,
 * "What a run costs"). A light worker attempt: about 8 turns on a small context. A heavy one:
 * the 30 turns `worker_max_turns` allows by default, its context growing to about 100k tokens,
 * mostly read from the prompt cache. The critic judges once, lightly or with long command output;
 * the retrospector makes one call. Minutes: a light work job bills 2 (setup, checkout and a
 * minute of work), a heavy one runs 15 minutes (or the task's time limit) plus one; the finish
 * (advance, then the critic job with the pull request and the retrospective) bills 2 to 10.
 */
const PRIOR = {
    worker: {
        light: { input: 4_000, output: 4_000, cacheRead: 100_000, cacheWrite: 20_000 },
        heavy: { input: 10_000, output: 40_000, cacheRead: 2_000_000, cacheWrite: 120_000 },
    },
    critic: {
        light: { input: 4_000, output: 3_000, cacheRead: 40_000, cacheWrite: 15_000 },
        heavy: { input: 10_000, output: 20_000, cacheRead: 600_000, cacheWrite: 60_000 },
    },
    retrospector: {
        light: { input: 10_000, output: 3_000, cacheRead: 0, cacheWrite: 0 },
        heavy: { input: 30_000, output: 8_000, cacheRead: 0, cacheWrite: 0 },
    },
    workMinutes: { light: 2, heavy: 15 },
    finishMinutes: { light: 2, heavy: 10 },
};
const cost = (model, t) => (0,pricing/* usageOf */.F)(model, t).costUsd;
/** The q-quantile of `values` (linear between neighbours). */
function quantile(values, q) {
    if (!values.length)
        return NaN;
    const sorted = [...values].sort((a, b) => a - b);
    const at = (sorted.length - 1) * Math.min(1, Math.max(0, q));
    const lo = Math.floor(at);
    const hi = Math.ceil(at);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}
function spread(samples) {
    return samples.length >= MIN_SAMPLES ? { low: quantile(samples, LOW_Q), high: quantile(samples, HIGH_Q) } : undefined;
}
function estimateRun(input) {
    const actions = input.spent.minutes !== null;
    const runsUsed = new Set();
    const tasksUsed = new Set();
    const use = (samples) => {
        const range = spread(samples.map((s) => s.value));
        if (range)
            for (const s of samples) {
                runsUsed.add(s.run);
                if (s.task)
                    tasksUsed.add(s.task);
            }
        return range;
    };
    const pastTasks = (pick) => input.past.flatMap((r, run) => r.tasks.flatMap((t, i) => {
        const value = pick(t);
        return value === null ? [] : [{ run, task: `${run}:${i}`, value }];
    }));
    // Model cost per task, by tier.
    let costLow = 0;
    let costHigh = 0;
    const byTier = new Map();
    for (const t of input.tasks)
        byTier.set(t.tier, (byTier.get(t.tier) ?? 0) + (t.attempts ?? 1));
    for (const [tier, count] of byTier) {
        const past = use(pastTasks((t) => (t.tier === tier ? t.costUsd : null)));
        const model = input.models[tier];
        const high = Math.min(input.budgets.task.cost_usd, past?.high ?? cost(model, PRIOR.worker.heavy));
        const low = Math.min(high, past?.low ?? cost(model, PRIOR.worker.light));
        costLow += count * low;
        costHigh += count * high;
    }
    // Minutes per work job, whatever the tier: a job's length is mostly its work, not its model.
    let minutesLow = 0;
    let minutesHigh = 0;
    if (actions && input.tasks.length) {
        const past = use(pastTasks((t) => t.minutes));
        const heavy = Math.min(PRIOR.workMinutes.heavy, input.taskTimeoutMinutes) + 1;
        const jobs = input.tasks.reduce((n, t) => n + (t.attempts ?? 1), 0);
        minutesLow += jobs * Math.ceil(past?.low ?? PRIOR.workMinutes.light);
        minutesHigh += jobs * Math.ceil(past?.high ?? heavy);
    }
    // The finish: integration, the critic, the pull request and the retrospective.
    const after = input.past.flatMap((r, run) => (r.afterPlan ? [{ run, ...r.afterPlan }] : []));
    const finishCost = use(after.map((a) => ({ run: a.run, value: a.costUsd })));
    const critic = input.models[input.criticTier];
    const retro = input.retroTier ? input.models[input.retroTier] : null;
    costLow += finishCost?.low ?? cost(critic, PRIOR.critic.light) + (retro ? cost(retro, PRIOR.retrospector.light) : 0);
    costHigh += finishCost?.high ?? cost(critic, PRIOR.critic.heavy) + (retro ? cost(retro, PRIOR.retrospector.heavy) : 0);
    if (actions) {
        const finish = use(after.flatMap((a) => (a.minutes === null ? [] : [{ run: a.run, value: a.minutes }])));
        const approval = input.waitsForApproval ? 1 : 0;
        minutesLow += Math.ceil(finish?.low ?? PRIOR.finishMinutes.light) + approval;
        minutesHigh += Math.ceil(finish?.high ?? PRIOR.finishMinutes.heavy) + approval;
    }
    const spent = input.spent.costUsd;
    const cap = input.budgets.run.cost_usd;
    // The run's budget stops every agent; what was spent before the estimate stays spent.
    const high = Math.max(spent, Math.min(cap, spent + costHigh));
    const low = Math.min(high, spent + costLow);
    return {
        at: input.at,
        // Outward to a hundredth of a cent, so the range holds what it was computed from.
        costUsd: { low: Math.floor(low * 1e4 + 1e-6) / 1e4, high: Math.ceil(high * 1e4 - 1e-6) / 1e4 },
        minutes: actions ? { low: input.spent.minutes + minutesLow, high: input.spent.minutes + Math.max(minutesLow, minutesHigh) } : null,
        spentUsd: spent,
        spentMinutes: input.spent.minutes,
        capUsd: cap,
        basis: { runs: runsUsed.size, tasks: tasksUsed.size },
    };
}

// EXTERNAL MODULE: ./src/render/cost.ts
var render_cost = __webpack_require__(25659);
// EXTERNAL MODULE: ./src/state/transitions.ts
var transitions = __webpack_require__(82649);
// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
// EXTERNAL MODULE: ./src/steps/caps.ts
var caps = __webpack_require__(75498);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/domain/labels.ts
var labels = __webpack_require__(85745);
// EXTERNAL MODULE: ./src/steps/agent-instructions.ts + 1 modules
var agent_instructions = __webpack_require__(88098);
// EXTERNAL MODULE: ./src/steps/images.ts
var steps_images = __webpack_require__(46749);
// EXTERNAL MODULE: ./src/steps/repo-map.ts + 1 modules
var repo_map = __webpack_require__(47389);
;// CONCATENATED MODULE: ./src/steps/planning.ts






























/** The plan reviewer may send a plan back this many times before a person decides. */
const REVIEW_ROUNDS = 3;
/** crew asks clarifying questions at most this many times per run. */
const QUESTION_ROUNDS = 2;
function planMarkdown(plan, version) {
    const lines = [`# Plan v${version}`, '', plan.summary, '', '| Task | Persona | Model | Depends on | Title |', '|---|---|---|---|---|'];
    for (const t of plan.tasks)
        lines.push(`| ${t.id} | ${t.persona} | ${t.tier} | ${t.dependsOn.join(', ') || '-'} | ${t.title} |`);
    lines.push('', '## Done criteria', ...plan.criteria.map((c) => `- ${c.id} (${c.kind}): ${c.text}${c.command ? ` — \`${c.command}\`` : ''}`), '');
    return lines.join('\n');
}
function taskMarkdown(plan, id) {
    const t = plan.tasks.find((x) => x.id === id);
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
function readFollowUp(snap, issue, run) {
    const path = run_files/* paths */.f0.followUp(issue, run);
    const parsed = follow_up/* FollowUpMaterialSchema */.v_.safeParse((0,run_files/* parseJson */.qF)(snap, path));
    if (!parsed.success)
        throw new run_files/* StateFormatError */.H7(path, null, `it is missing or damaged (${parsed.error.issues[0]?.message ?? 'unreadable'})`);
    return parsed.data;
}
/** A request small enough for one worker skips the decomposer (claude-crew's phase skipping). */
function singleTaskPlan(intake, title, body, criteria, images) {
    const single = intake.single;
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
function mergeCriteria(intake, fromConfig) {
    const known = new Set(intake.criteria.filter((c) => c.command).map((c) => c.command.trim()));
    return [
        ...intake.criteria,
        ...(0,domain_criteria/* configCriteria */.eF)(fromConfig.filter((c) => !known.has(c.trim())), intake.criteria.length + 1),
    ];
}
/**
 * Plans a run that is in PLANNING: intake (asking questions when the criteria
 * cannot be checked), decomposition, review, then either approval or execution.
 * Returns the task ids to start now (with `dispatch`, already dispatched). Every step that needs a person stops here
 * with a comment; the person's reply starts planning again.
 */
async function planRun(ctx, issue, run, revision, claimBy = 'this-run') {
    ctx.working = { issue, run };
    const config = await ctx.config();
    // Its writes are compare-and-swaps that check the phase again; a job's first read asks GitHub.
    const snap = await ctx.state.load(`${(0,refs/* runFolder */.kQ)(issue, run)}/`, ports/* SEEN */.GL);
    const view = (0,run_files/* readView */.Ml)(snap, issue, run);
    if (!view || view.run.phase !== 'PLANNING')
        return [];
    const request = (0,run_files/* parseJson */.qF)(snap, run_files/* paths */.f0.requestJson(issue, run));
    const title = (0,sanitize/* sanitize */.a)(request.title, 300);
    // A follow-up's feedback and review threads (sanitised when stored) join the request; its items are the criteria intake must keep.
    const followUp = view.run.followUp ? readFollowUp(snap, issue, run) : null;
    const body = followUp ? `${(0,sanitize/* sanitize */.a)(request.body)}\n\n${(0,follow_up/* followUpSection */.oL)(followUp, view.run.followUp.k, view.run.followUp.pull)}` : (0,sanitize/* sanitize */.a)(request.body);
    const answers = snap.read(run_files/* paths */.f0.answers(issue, run)) ?? '';
    let usage = run_state/* ZERO_USAGE */.fI;
    // What the planning roles see of the repository (#48): read once, ranked for each role's own words.
    const requested = `${title}\n${body}\n${answers}`;
    let read;
    const p = {
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
        model: await (0,context/* runModel */.L4)(ctx, view, 'planner'),
        modelId: config.models[config.default_model],
        call(agent, system, iteration) {
            const meta = { agent, model: this.modelId, ...(iteration !== undefined ? { iteration } : {}) };
            return { model: this.model, modelId: this.modelId, system, log: ctx.log, trajectory: (0,context/* agentRun */.Vv)(ctx, meta) };
        },
        startedAt: (0,context/* nowIso */.kF)(ctx),
        requested,
        repoView: () => (read ??= (0,repo_map/* readRepoView */.wx)(ctx, requested)),
        book: (u) => void (usage = (0,run_state/* addUsage */.vk)(usage, u)),
        record: (message, mutate, then) => (0,context/* updateRun */.PF)(ctx, issue, run, `${message}`, (rec, tx) => {
            (0,run_files/* writeRun */.bp)(tx, mutate({ ...rec, usage: (0,run_state/* addUsage */.vk)(rec.usage, usage) }, tx), (0,context/* nowIso */.kF)(ctx));
            then?.(tx);
            (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
        }),
    };
    // Intake's reading once it is made: kept when the run's budget stops planning, so going on neither reads nor asks again.
    let intakeRead = null;
    try {
        const images = await requestImages(p);
        // 1. Intake: the task and its done criteria, or questions first.
        const intake = await intakeOrAsk(p, images);
        if (!intake)
            return [];
        intakeRead = intake;
        // A follow-up keeps the pull request's criteria as they were (the critic judges them again) and numbers the new ones on.
        const fresh = followUp ? (0,follow_up/* followUpCriteria */.mG)(followUp.kept, intake.criteria) : null;
        const criteria = mergeCriteria(fresh ? { ...intake, criteria: fresh.criteria } : intake, config.criteria);
        // 2. Decompose (or skip it for a single small task), then review, revising up to REVIEW_ROUNDS times.
        const reviewed = await planAndReview(p, intake, criteria, images, revision);
        // After QUESTION_ROUNDS crew stops asking and plans on assumptions; the plan comment says which questions stayed open.
        if (intake.questions.length)
            reviewed.plan = { ...reviewed.plan, openQuestions: intake.questions };
        // 3. Record the plan; then run it, or wait for a person.
        return await recordPlan(p, intake, fresh, reviewed, claimBy);
    }
    catch (e) {
        if (e instanceof run_budget/* RunBudgetSpent */.J) {
            const kept = intakeRead;
            await (0,budget_stop/* stopStepAtBudget */.j8)(ctx, issue, run, 'planning', e, {
                ...(kept ? { files: (tx) => tx.write(run_files/* paths */.f0.intake(issue, run), `${JSON.stringify(kept, null, 2)}\n`) } : {}),
                revision,
            });
            return [];
        }
        if (!(e instanceof submission/* SubmissionRejected */.NR))
            throw e;
        await planningFailed(p, e);
        return [];
    }
}
/**
 * The request's images (#36): the recorded ones loaded again by hash, new ones (the request's the first time, an
 * answer's once it came) read and recorded, each with the texts that show it, since GitHub serves a private
 * repository's images through those texts' signed links (#47).
 */
async function requestImages(p) {
    const { ctx, issue, run, view, request, followUp } = p;
    let images = [];
    let notLoaded = [];
    const recorded = view.run.images ?? [];
    if (view.run.images !== null) {
        const loaded = await (0,steps_images/* loadImages */.z)(ctx, view.run.images);
        images = loaded.images;
        notLoaded = loaded.missing;
        // Said on crew/state for the plan comment, so the maintainer knows the planner did not see them this time.
        if (notLoaded.length || view.run.imagesNotLoaded?.length)
            await (0,context/* updateRun */.PF)(ctx, issue, run, `images: ${notLoaded.length} could not be loaded again`, (rec, tx) => (0,run_files/* writeRun */.bp)(tx, { ...rec, imagesNotLoaded: notLoaded.length ? notLoaded : undefined }, (0,context/* nowIso */.kF)(ctx)));
    }
    const found = view.run.images === null
        ? (0,domain_images/* mergeImages */.nV)([
            ...(0,domain_images/* foundImages */.Lh)([
                { shown: (0,sanitize/* renderedMarkup */.Q)(request.body), in: { kind: 'issue', number: issue } },
                ...(request.comment ? [{ shown: (0,sanitize/* renderedMarkup */.Q)(request.comment), in: (0,domain_images/* triggerText */.GA)(view.run.trigger, issue) }] : []),
            ]),
            ...(followUp?.images ?? []),
            ...(view.run.answerImages ?? []),
        ])
        : (view.run.answerImages ?? []).filter((f) => !recorded.some((r) => r.source === f.url));
    if (found.length) {
        const got = await (0,steps_images/* collectImages */.F)(ctx, found, recorded);
        images = [...images, ...got.images];
        await (0,context/* updateRun */.PF)(ctx, issue, run, `images: ${got.images.length} read, ${got.records.length - got.images.length} refused`, (rec, tx) => (0,run_files/* writeRun */.bp)(tx, { ...rec, images: [...(rec.images ?? []), ...got.records] }, (0,context/* nowIso */.kF)(ctx)));
    }
    return { images, notLoaded };
}
/** Intake's reading of the request (kept until new answers come), or null when it asked questions and planning waits. */
async function intakeOrAsk(p, { images, notLoaded }) {
    const { ctx, issue, run, view, followUp, answers } = p;
    const kept = (0,run_files/* parseJson */.qF)(p.snap, run_files/* paths */.f0.intake(issue, run));
    if (kept && kept.answersSeen === answers)
        return kept;
    const system = await (0,agent_instructions/* promptWithInstructions */.U)(ctx, 'intake', (0,run_state/* reviewedSha */.cK)(view.run));
    const input = {
        title: p.title,
        body: p.body,
        stated: followUp ? (0,follow_up/* followUpItems */.Fz)(followUp) : (0,domain_criteria/* statedCriteria */.Dm)(p.body),
        answers,
        ...(followUp ? { kept: followUp.kept } : {}),
        images,
        ...(notLoaded.length ? { imagesNotLoaded: notLoaded } : {}),
        eyes: (0,repo_map/* planningEyes */.qd)(ctx, await p.repoView(), p.requested),
        scripts: await (0,repo_map/* scriptsOf */.Sf)(ctx, await p.repoView()),
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
/** The decomposer's plan (or one task for a small request), reviewed and revised up to REVIEW_ROUNDS times. */
async function planAndReview(p, intake, criteria, { images, notLoaded }, revision) {
    const { ctx, config, view, title, body, answers } = p;
    const openQuestions = intake.questions;
    const decomposerEyes = async () => (0,repo_map/* planningEyes */.qd)(ctx, await p.repoView(), `${p.requested}\n${intake.task}\n${criteria.map((c) => `${c.text} ${c.command ?? ''}`).join('\n')}`);
    const decomposer = await (0,agent_instructions/* promptWithInstructions */.U)(ctx, 'decomposer', (0,run_state/* reviewedSha */.cK)(view.run));
    // A first plan from the decomposer has at least two tasks; only revising a one-task plan may keep one.
    const ask = async (iteration, revise) => {
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
        const r = await (0,agents_decomposer/* decompose */.o)(p.call('planner', decomposer, iteration), input);
        p.book(r.usage);
        return r.plan;
    };
    const previous = view.plan;
    let plan = intake.single && !revision
        ? singleTaskPlan(intake, title, body, criteria, images.map((i) => i.id))
        : await ask(1, revision && previous ? { plan: previous, feedback: revision } : undefined);
    let findings = [];
    let passed = false;
    let rounds = 0;
    const reviewerPrompt = await (0,agent_instructions/* promptWithInstructions */.U)(ctx, 'plan_reviewer', (0,run_state/* reviewedSha */.cK)(view.run));
    for (let round = 1; round <= REVIEW_ROUNDS; round++) {
        rounds = round;
        findings = (0,plan_review/* checkPlanRules */.h)(plan);
        if (findings.length === 0) {
            const review = await (0,plan_reviewer/* reviewPlan */.c)(p.call('plan_reviewer', reviewerPrompt, round), { title, body }, plan, (0,repo_map/* planningEyes */.qd)(ctx, await p.repoView(), `${p.requested}\n${plan.tasks.map((t) => `${t.title}\n${t.description}\n${t.files.join(' ')}`).join('\n')}`));
            p.book(review.usage);
            findings = review.findings;
            passed = review.verdict === 'PASS';
        }
        ctx.log.info(`plan review round ${round}: ${passed ? 'PASS' : `FAIL (${findings.length} findings)`}`);
        if (passed || round === REVIEW_ROUNDS)
            break;
        plan = await ask(round + 1, { plan, feedback: `The plan reviewer found:\n${(0,plan_review/* findingsText */._)(findings)}` });
    }
    return { plan, findings, passed, rounds };
}
/**
 * The plan, its tasks, the review and the estimate in one write; a plan that needs no approval claims its first tasks in
 * the same write (#31 §4). Returns the tasks to start now (with `dispatch`, already dispatched).
 */
async function recordPlan(p, intake, fresh, { plan, findings, passed, rounds }, claimBy) {
    const { ctx, issue, run, view, config } = p;
    // Each task gets a branch, and so does the integration. Each parallel attempt of a task (#50) is a branch and a work
    // job of its own: the caps and the estimate count them.
    const attempts = (t) => (0,domain_attempts/* attemptsFor */.mh)(view.run.attempts, t, false, config.max_parallel);
    const branches = plan.tasks.reduce((n, t) => n + attempts(t), 0) + 1;
    await (0,caps/* ensureRoom */.WG)(ctx, view.run, { branches: branches - view.run.posted.branches });
    const needsApproval = !passed || config.require_plan_approval || view.run.mode === 'plan';
    const past = await (0,past_runs/* readPastRuns */.tr)(ctx.state, { issue, run });
    for (const problem of past.problems)
        ctx.log.warn(problem);
    let estimate = null;
    const now = (0,context/* nowIso */.kF)(ctx);
    let version = 0;
    const claim = (0,context/* taskClaim */.s1)(ctx, claimBy, now);
    let claimed = [];
    const start = needsApproval ? undefined : (tx) => void (claimed = (0,transitions/* claimReadyTasks */.M)(tx, issue, run, config.max_parallel, claim));
    await p.record(`plan v${view.run.planVersion + 1} with ${plan.tasks.length} tasks${needsApproval ? '' : '; start'}`, (current, tx) => {
        let rec = (0,run_state/* logPhase */.MH)(current, 'decomposer', {
            model: config.default_model,
            started: p.startedAt,
            finished: now,
            status: 'success',
            retries: rounds - 1,
            error: null,
        });
        version = rec.planVersion + 1;
        tx.write(run_files/* paths */.f0.intake(issue, run), `${JSON.stringify(intake, null, 2)}\n`);
        (0,run_files/* writePlan */.pD)(tx, issue, run, plan, planMarkdown(plan, version), (id) => taskMarkdown(plan, id));
        const keep = new Set(plan.tasks.flatMap((t) => [run_files/* paths */.f0.taskJson(issue, run, t.id), run_files/* paths */.f0.taskMd(issue, run, t.id)]));
        for (const file of tx.list(`${(0,refs/* runFolder */.kQ)(issue, run)}/tasks/`))
            if (!keep.has(file))
                tx.remove(file);
        for (const t of plan.tasks)
            (0,run_files/* writeTask */.bN)(tx, issue, run, (0,run_state/* newTaskRecord */.r9)(t.id, ctx.branches.task(issue, run, t.id)));
        tx.write(run_files/* paths */.f0.review(issue, run), `# Plan review of v${version}\n\n${passed ? 'PASS' : 'FAIL'}\n\n${(0,plan_review/* findingsText */._)(findings) || '(no findings)'}\n`);
        const criteria = (0,judgment/* criteriaDigest */.QB)(plan.criteria);
        estimate = estimateRun({
            at: now,
            tasks: plan.tasks.map((t) => ({ tier: t.tier, attempts: attempts(t) })),
            models: config.models,
            criticTier: config.default_model,
            retroTier: config.retrospect.enabled ? config.retrospect.model : null,
            budgets: config.budgets,
            taskTimeoutMinutes: config.task_timeout_minutes,
            spent: { costUsd: rec.usage.costUsd, minutes: minutesSoFar(ctx, (0,run_files/* readJobTimes */.yX)(tx, issue, run)) },
            waitsForApproval: needsApproval,
            past: past.runs,
        });
        rec = { ...rec, estimate, posted: { ...rec.posted, branches: Math.max(rec.posted.branches, branches) } };
        if (rec.followUp && fresh)
            rec = { ...rec, followUp: { ...rec.followUp, added: fresh.added } };
        if (needsApproval)
            return {
                ...rec,
                phase: 'AWAITING_APPROVAL',
                planVersion: version,
                criteriaDigest: criteria,
                waiting: { kind: 'approval', commentId: 0, planVersion: version, reason: passed ? 'requested' : 'review-failed' },
            };
        return { ...rec, phase: 'EXECUTING', planVersion: version, criteriaDigest: criteria, waiting: null };
    }, start);
    ctx.log.checkpoint('plan-recorded');
    if (needsApproval) {
        await requestApproval(ctx, issue, run, version, passed, (0,plan_review/* findingsText */._)(findings), estimate);
        return [];
    }
    // A job with no `work` job after it starts them in new workflow runs, as a work job starts what it unblocks.
    if (claimBy === 'dispatch' && claimed.length)
        await (0,context/* dispatchTasks */.Xy)(ctx, issue, run, claimed, claim);
    return claimed;
}
/** A planning role's answers kept failing crew's checks: the run fails, with what was wrong and what to do. */
async function planningFailed(p, e) {
    const { ctx, issue, run, config } = p;
    const who = e.tool === 'submit_intake' ? "The intake's reading of the issue" : e.tool === 'submit_review' ? "The plan reviewer's answer" : "The model's plan";
    const message = `${who} failed crew's checks ${e.attempts} time${e.attempts > 1 ? 's' : ''}. The last problems were:\n${e.errors.map((x) => `- ${x}`).join('\n')}`;
    p.book(e.usage);
    await p.record('planning failed', (rec) => ({
        ...(0,run_state/* logPhase */.MH)(rec, 'decomposer', {
            model: config.default_model,
            started: p.startedAt,
            finished: (0,context/* nowIso */.kF)(ctx),
            status: 'failure',
            retries: 0,
            error: message.split('\n')[0],
        }),
        phase: 'FAILED',
        failure: { step: 'planning', message: message.split('\n')[0] },
    }));
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
    await ctx.forge.postComment(issue, (0,messages/* failureComment */.Ac)('planning', message, ctx.forge.runLink(), `Make the issue more specific (what to change, and how to check it is done), then ${ctx.surface.give('run')} again.`, ctx.surface));
}
/** Billable minutes so far: the run's other jobs as recorded, and this one until now; null locally (no Actions minutes). */
function minutesSoFar(ctx, jobs) {
    if (!ctx.job)
        return null;
    const me = ctx.job;
    return (0,actions_minutes/* runMinutes */.Rp)(jobs.filter((j) => j.id !== me.id)) + (0,actions_minutes/* billableMinutes */.rT)(ctx.clock.now().getTime() - me.startedAt);
}
/** Posts numbered questions, labels the issue so plain replies reach crew, and waits. */
async function ask(ctx, issue, run, intake, record) {
    const body = [
        `Before planning, crew needs answers to ${intake.questions.length === 1 ? 'one question' : `${intake.questions.length} questions`}:`,
        '',
        ...intake.questions.map((q, i) => `${i + 1}. ${ctx.surface.modelText(q.replace(/\s*\r?\n\s*/g, ' '))}`),
        '',
        `${ctx.surface.answerHow} Nothing runs until then.`,
        ctx.surface.marker('question', { issue, run, nonce: (0,context/* nonce */.KU)() }),
    ].join('\n');
    await (0,caps/* spend */.Rf)(ctx, issue, run, { comments: 1 });
    const posted = await ctx.forge.postComment(issue, body);
    const waiting = { kind: 'answer', commentId: posted.id, questions: intake.questions };
    await record(`asked ${intake.questions.length} question(s)`, (rec, tx) => {
        tx.write(run_files/* paths */.f0.intake(issue, run), `${JSON.stringify(intake, null, 2)}\n`);
        return { ...rec, phase: 'ESCALATING', waiting };
    });
    await ctx.forge.addLabel(issue, labels/* WAITING_LABEL */.J);
    ctx.log.checkpoint('question-asked');
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
/** Tells the maintainer the plan waits for them; that comment is what an approval must come after. */
async function requestApproval(ctx, issue, run, version, passed, findings, estimate = null) {
    const s = ctx.surface;
    const lines = passed
        ? [
            `${s.bold(`Plan v${version} is ready`)} (see the plan comment above). ${(0,surface/* sentence */.em)(s.give('approve'))} to start it, or ${s.command('revise', '<what to change>')} to plan again.`,
        ]
        : [
            `${s.bold(`The plan reviewer did not pass plan v${version}`)} after ${REVIEW_ROUNDS} rounds. Its findings:`,
            '',
            s.modelText(findings),
            '',
            `${(0,surface/* sentence */.em)(s.give('approve'))} to run this plan anyway, or ${s.command('revise', '<what to change>')} to plan again.`,
        ];
    // What approving will likely cost, before any of it is spent.
    if (estimate)
        lines.push('', `${s.bold('Estimate:')} ${(0,render_cost/* estimateText */.YL)(estimate)}`);
    await (0,caps/* spend */.Rf)(ctx, issue, run, { comments: 1 });
    const posted = await ctx.forge.postComment(issue, [...lines, s.marker('approval', { issue, run, v: version })].join('\n'));
    await (0,context/* updateRun */.PF)(ctx, issue, run, `approval requested for v${version}`, (rec, tx) => {
        if (rec.waiting?.kind === 'approval' && rec.waiting.planVersion === version)
            (0,run_files/* writeRun */.bp)(tx, { ...rec, waiting: { ...rec.waiting, commentId: posted.id } }, (0,context/* nowIso */.kF)(ctx));
    });
    ctx.log.checkpoint('approval-requested');
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}


/***/ })

};
