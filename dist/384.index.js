export const id = 384;
export const ids = [384];
export const modules = {

/***/ 91565:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   o: () => (/* binding */ decompose)
/* harmony export */ });
/* harmony import */ var _domain_images__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(99696);
/* harmony import */ var _domain_criteria__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(83543);
/* harmony import */ var _domain_plan__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(52517);
/* harmony import */ var _submission__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(22180);
/* harmony import */ var _read_only_tools__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(13297);





async function decompose(call, input) {
    const firstMessage = [
        `Request: ${input.title}`,
        '',
        input.body || '(the issue has no description)',
        '',
        `What is asked, restated: ${input.task}`,
        '',
        'Done criteria for the whole request (the critic checks these; give each task its own criteria too):',
        ...input.criteria.map((c) => `- ${c.id}: ${(0,_domain_criteria__WEBPACK_IMPORTED_MODULE_1__/* .describeCriterion */ .N5)(c)}`),
        ...(input.answers ? ['', 'Answers the maintainer gave to earlier questions:', input.answers] : []),
        ...(input.openQuestions?.length
            ? [
                '',
                'Questions still open (crew asked as often as it may; plan without the answers, and state in the summary what you assumed for each):',
                ...input.openQuestions.map((q, i) => `${i + 1}. ${q}`),
            ]
            : []),
        ...(0,_read_only_tools__WEBPACK_IMPORTED_MODULE_4__/* .eyesSection */ .CL)(input.eyes, 'submit_plan'),
        '',
        ...(input.images?.length
            ? [
                '',
                "The request's images, shown above in this order. A task whose worker must see one lists its id in `images`:",
                ...input.images.map((i) => `- ${i.line}`),
            ]
            : []),
        ...(0,_domain_images__WEBPACK_IMPORTED_MODULE_0__/* .notLoadedNote */ .hl)(input.imagesNotLoaded),
        '',
        `Plan ${(input.minTasks ?? 1) > 1 ? `at least ${input.minTasks} and ` : ''}at most ${input.maxTasks} tasks. No task may touch these protected paths: ${input.protectedPaths.join(', ') || '(none)'}.`,
        ...(input.revise
            ? ['', 'Revise this earlier plan:', '```json', JSON.stringify(input.revise.plan.tasks, null, 1), '```', 'What must change:', input.revise.feedback]
            : []),
    ].join('\n');
    const { value, usage } = await (0,_submission__WEBPACK_IMPORTED_MODULE_3__/* .askForSubmission */ .dA)({
        ...call,
        firstMessage,
        images: input.images?.map((i) => i.block),
        ...(input.eyes.look ? { look: input.eyes.look } : {}),
        tool: { name: 'submit_plan', description: 'Submit the plan. crew checks it and answers with the problems if it is not valid.', schema: _domain_plan__WEBPACK_IMPORTED_MODULE_2__/* .ProposedPlanSchema */ .nu },
        check(raw) {
            const checked = (0,_domain_plan__WEBPACK_IMPORTED_MODULE_2__/* .checkPlan */ .Gy)(raw, input.criteria);
            if (!checked.ok)
                return checked;
            const errors = (0,_domain_plan__WEBPACK_IMPORTED_MODULE_2__/* .planBoundsProblems */ .j)(checked.plan, {
                minTasks: input.minTasks ?? 1,
                maxTasks: input.maxTasks,
                protectedPaths: input.protectedPaths,
                images: input.images?.map((i) => i.id) ?? [],
            });
            return errors.length ? { ok: false, errors } : { ok: true, value: checked.plan };
        },
    });
    return { plan: value, usage };
}


/***/ }),

/***/ 87143:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   c: () => (/* binding */ reviewPlan)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(41514);
/* harmony import */ var _domain_criteria__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(83543);
/* harmony import */ var _submission__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(22180);
/* harmony import */ var _read_only_tools__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(13297);




const ReviewSchema = zod__WEBPACK_IMPORTED_MODULE_3__/* .object */ .Ikc({
    verdict: zod__WEBPACK_IMPORTED_MODULE_3__/* ["enum"] */ .k5n(['PASS', 'FAIL']),
    findings: zod__WEBPACK_IMPORTED_MODULE_3__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_3__/* .object */ .Ikc({
        aspect: zod__WEBPACK_IMPORTED_MODULE_3__/* ["enum"] */ .k5n(['form', 'content', 'consistency', 'completeness', 'adversarial']),
        task: zod__WEBPACK_IMPORTED_MODULE_3__/* .string */ .YjP().optional(),
        problem: zod__WEBPACK_IMPORTED_MODULE_3__/* .string */ .YjP().trim().min(1),
        suggestion: zod__WEBPACK_IMPORTED_MODULE_3__/* .string */ .YjP().optional(),
    }))
        .default([]),
});
/** The model half of the plan review (4QV+): form, content, consistency, completeness, and ways to game the criteria. */
async function reviewPlan(call, request, plan, eyes) {
    const firstMessage = [
        `Request: ${request.title}`,
        '',
        request.body || '(no description)',
        '',
        '## Plan',
        plan.summary,
        '',
        'Done criteria:',
        ...plan.criteria.map((c) => `- ${c.id} (${c.kind}): ${(0,_domain_criteria__WEBPACK_IMPORTED_MODULE_0__/* .describeCriterion */ .N5)(c)}`),
        '',
        ...plan.tasks.flatMap((t) => [
            `### ${t.id}: ${t.title} (${t.persona}, ${t.tier}${t.dependsOn.length ? `, after ${t.dependsOn.join(', ')}` : ''})`,
            t.description,
            `Files: ${t.files.join(', ') || '-'}`,
            `Criteria: ${t.criteria.join('; ') || '(none)'}`,
            '',
        ]),
        ...(0,_read_only_tools__WEBPACK_IMPORTED_MODULE_2__/* .eyesSection */ .CL)(eyes, 'submit_review'),
    ].join('\n');
    const { value, usage } = await (0,_submission__WEBPACK_IMPORTED_MODULE_1__/* .askForSubmission */ .dA)({
        ...call,
        firstMessage,
        ...(eyes?.look ? { look: eyes.look } : {}),
        tool: { name: 'submit_review', description: 'Submit the verdict on the plan, with findings.', schema: ReviewSchema },
        check: (raw) => raw.verdict === 'FAIL' && raw.findings.length === 0 ? { ok: false, errors: ['findings: a FAIL needs at least one finding'] } : { ok: true, value: raw },
    });
    return { verdict: value.verdict, findings: value.findings, usage };
}


/***/ }),

/***/ 85335:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  GS: () => (/* binding */ WORKER_MAP_CHARS),
  WY: () => (/* binding */ runWorker),
  SG: () => (/* binding */ taskFocus)
});

// UNUSED EXPORTS: parseReport, repositoryMapOf

// EXTERNAL MODULE: ./src/domain/images.ts
var domain_images = __webpack_require__(99696);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 4 modules
var schemas = __webpack_require__(41514);
// EXTERNAL MODULE: ./src/domain/criteria.ts
var criteria = __webpack_require__(83543);
// EXTERNAL MODULE: ./src/domain/result.ts
var result = __webpack_require__(90635);
// EXTERNAL MODULE: ./src/state/inbox.ts
var inbox = __webpack_require__(93849);
// EXTERNAL MODULE: ./src/agents/command-tools.ts + 1 modules
var command_tools = __webpack_require__(34627);
// EXTERNAL MODULE: ./src/agents/path-jail.ts
var path_jail = __webpack_require__(22576);
// EXTERNAL MODULE: ./src/agents/bounded-tool.ts
var bounded_tool = __webpack_require__(10586);
;// CONCATENATED MODULE: ./src/agents/team-tools.ts

/** check_inbox answers with at most this many bytes of messages; the rest wait for the next call. */
const INBOX_BYTES = 30_000;
function teamTools(self, team, delivered) {
    const tools = [
        {
            spec: {
                name: 'send_message',
                description: "Send a short message (at most 4,000 characters) to another running task (its id, e.g. 't2') or to all of them ('all'). Use it for facts they need: an interface you defined, a file you moved. It arrives between their turns as a <teammate-message>; a task that is not running now is refused, with the ones that are.",
                input_schema: {
                    type: 'object',
                    properties: {
                        to: { type: 'string', description: "A running task's id, or 'all'" },
                        text: { type: 'string', description: 'The message, at most 4,000 characters' },
                    },
                    required: ['to', 'text'],
                },
            },
            async run(input) {
                const i = (input ?? {});
                if (typeof i.to !== 'string' || typeof i.text !== 'string' || !i.text.trim())
                    throw new Error("'to' and a non-empty 'text' are required");
                if (i.text.length > 4000)
                    throw new Error('messages are limited to 4,000 characters');
                const running = await team.running();
                const to = i.to.trim();
                if (to !== 'all' && to === self)
                    throw new Error('you cannot message yourself');
                if (to !== 'all' && !running.includes(to))
                    throw new Error(`task '${to}' is not running now (running: ${running.join(', ') || 'none'})`);
                if (to === 'all' && running.length === 0)
                    return 'no other task is running; nothing was sent';
                await team.send(to, i.text.trim());
                return to === 'all' ? `sent to ${running.join(', ')}` : `sent to ${to}`;
            },
        },
        {
            spec: {
                name: 'check_inbox',
                description: 'Read the messages from other tasks that you have not seen yet (each once, up to 30,000 bytes a call; it says when more wait). New messages also arrive on their own between your turns, so call it only when you are waiting for one.',
                input_schema: { type: 'object', properties: {} },
            },
            async run() {
                const fresh = (await team.inbox()).filter((m) => !delivered.has(m.id));
                const shown = [];
                let bytes = 0;
                for (const m of fresh) {
                    const entry = `from ${m.from} (${m.type}): ${m.text}`;
                    if (shown.length && bytes + Buffer.byteLength(entry) > INBOX_BYTES)
                        break;
                    shown.push(entry);
                    bytes += Buffer.byteLength(entry) + 2;
                    delivered.add(m.id);
                }
                const left = fresh.length - shown.length;
                if (!shown.length)
                    return 'no new messages';
                return `${shown.join('\n\n')}${left ? `\n\n(${left} more message${left === 1 ? '' : 's'}: call check_inbox again)` : ''}`;
            },
        },
    ];
    return tools.map(bounded_tool/* bounded */.M);
}

// EXTERNAL MODULE: ./src/agents/tool-loop.ts + 3 modules
var tool_loop = __webpack_require__(34068);
// EXTERNAL MODULE: ./src/agents/read-only-tools.ts
var read_only_tools = __webpack_require__(13297);
// EXTERNAL MODULE: ./src/domain/repo-map.ts
var repo_map = __webpack_require__(58453);
;// CONCATENATED MODULE: ./src/agents/worker.ts











const FeedbackSchema = schemas/* discriminatedUnion */.gMt('type', [
    schemas/* object */.Ikc({ type: schemas/* literal */.euz('implementation'), result: schemas/* string */.YjP(), changes: schemas/* array */.YOg(schemas/* string */.YjP()).default([]) }),
    schemas/* object */.Ikc({
        type: schemas/* literal */.euz('exploration'),
        findings: schemas/* array */.YOg(schemas/* string */.YjP()),
        recommendations: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
        confidence: schemas/* number */.aig().min(0).max(1),
    }),
    schemas/* object */.Ikc({
        type: schemas/* literal */.euz('difficulty'),
        issue: schemas/* string */.YjP(),
        attempts: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
        impediment: schemas/* object */.Ikc({ category: schemas/* enum */.k5n(['technical', 'ambiguity', 'scope', 'dependency']), requestedAction: schemas/* string */.YjP() }),
        conflicting: schemas/* array */.YOg(schemas/* string */.YjP()).optional(),
    }),
]);
const REPORT_SCHEMA = {
    type: 'object',
    properties: {
        status: {
            type: 'string',
            enum: ['success', 'partial', 'failure'],
            description: 'success: the task is done; partial: part of it; failure: could not do it',
        },
        quality: { type: 'string', enum: ['GREEN', 'YELLOW', 'RED'], description: 'Your own judgement of the result' },
        completeness: { type: 'integer', minimum: 0, maximum: 100, description: 'How much of the task is done, in percent' },
        summary: { type: 'string', description: 'What you did and why, in a few sentences.' },
        details: {
            type: 'string',
            description: 'Markdown report of at least 20 lines: what changed and where, how you checked it, risks, anything the reviewer should know.',
        },
        feedback: {
            description: 'One of: implementation {result, changes[]}; exploration {findings[], recommendations[], confidence 0-1}; difficulty {issue, attempts[], impediment {category: technical|ambiguity|scope|dependency, requestedAction}, conflicting?: [requirement, requirement]}',
            type: 'object',
            properties: { type: { type: 'string', enum: ['implementation', 'exploration', 'difficulty'] } },
            required: ['type'],
        },
    },
    required: ['status', 'summary'],
};
/** Reads what the model reported, keeping what is valid; the metadata rules judge what is missing. */
function parseReport(raw) {
    const r = (raw ?? {});
    const out = {};
    if (r.status === 'success' || r.status === 'partial' || r.status === 'failure')
        out.status = r.status;
    if (r.quality === 'GREEN' || r.quality === 'YELLOW' || r.quality === 'RED')
        out.quality = r.quality;
    if (typeof r.completeness === 'number' && Number.isFinite(r.completeness))
        out.completeness = r.completeness;
    if (typeof r.summary === 'string')
        out.summary = r.summary;
    if (typeof r.details === 'string')
        out.details = r.details;
    const f = FeedbackSchema.safeParse(r.feedback);
    if (f.success)
        out.feedback = f.data;
    return out;
}
function firstMessage(input) {
    const t = input.task;
    const others = input.plan.tasks.filter((x) => x.id !== t.id).map((x) => `- ${x.id}: ${x.title}`);
    const sections = [
        `Task: ${t.id}`,
        `Attempt: ${input.attempt}`,
        ...(input.parallel
            ? [
                `Parallel attempt: ${input.parallel.n} of ${input.parallel.of} (other workers do this same task on branches of their own; crew keeps the one the tests favour)`,
            ]
            : []),
        '',
        `# ${t.title}`,
        '',
        t.description,
        t.files.length ? `\nFiles this task expects to touch: ${t.files.join(', ')}` : '',
        input.images?.length ? `\nThe request's images this task needs, shown above in this order:\n${input.images.map((i) => `- ${i.line}`).join('\n')}` : '',
        ...(0,domain_images/* notLoadedNote */.hl)(input.imagesNotLoaded),
        '',
        'This task is done when:',
        ...t.criteria.map((c) => `- ${c}`),
        '',
        '## The whole request, for context',
        input.plan.summary,
        '',
        'Done criteria for the whole request:',
        ...input.plan.criteria.map((c) => `- ${(0,criteria/* describeCriterion */.N5)(c)}`),
    ];
    if (others.length)
        sections.push('', 'Other workers handle these tasks; do not do them:', ...others);
    if (input.memory.knowledge.length)
        sections.push('', "## What this repository's maintainers want agents to know", ...input.memory.knowledge.map((k) => `- ${k}`));
    if (input.memory.advice.length)
        sections.push('', "## Notes for this attempt (from crew's advisor or a maintainer)", ...input.memory.advice.map((a) => `- ${a}`));
    if (input.memory.continuing) {
        sections.push('', '## Continuing this attempt', 'The job this attempt started in reached its time limit, so crew committed your work so far on this branch and started a new job. Read the files you were changing, then carry on from where the work stopped.');
    }
    if (input.memory.branchHolds) {
        sections.push('', '## What the branch already holds', 'Earlier attempts committed this work on your branch; it is in the files now. Build on it: check it, fix what is wrong, finish what is missing, and do not redo what is done.', input.memory.branchHolds);
    }
    if (input.memory.attempts.length) {
        sections.push('', '## Earlier attempts at this task', ...input.memory.attempts);
        if (input.memory.lastFailure)
            sections.push('', `The last attempt did not succeed because: ${input.memory.lastFailure}. Do not repeat what failed.`);
    }
    return sections.filter((l, i, a) => !(l === '' && a[i - 1] === '')).join('\n');
}
/** The worker's map's size: it sits in the cached system prompt, so every turn reads it at the cached price. */
const WORKER_MAP_CHARS = 16_000;
/**
 * The repository map without the files' contents (an eval or a bench run that passes only the file
 * list): ranked for the task by paths alone, source before docs and assets, every top-level folder counted.
 */
function repositoryMapOf(files, task) {
    return (0,repo_map/* repositoryMap */.HJ)({ files, contents: new Map(), focus: taskFocus(task), budgetChars: WORKER_MAP_CHARS });
}
/** The words a worker's map is ranked for: the task's title, description and files. */
function taskFocus(task) {
    return `${task.title}\n${task.description}\n${task.files.join(' ')}`;
}
/** Runs one attempt of a task's agent in the checkout. */
async function runWorker(model, input, log, trajectory) {
    const jail = new path_jail/* PathJail */.S(input.repoDir, input.protectedPaths);
    const delivered = new Set();
    let reported;
    let reportReasks = 0;
    /** Commands the worker ran in this attempt: a report that says a check passed needs at least one. */
    let commandsRun = 0;
    /** The last report sent back to be fixed: it stands, as crew's rules judge it, if the worker has no turn left to fix it. */
    let sentBack;
    const readOnly = input.task.persona === 'reviewer';
    const refused = readOnly
        ? {
            write_file: 'write_file is not available to a reviewer: reviewers read and run checks, they do not change files.',
            edit_file: 'edit_file is not available to a reviewer: reviewers read and run checks, they do not change files.',
        }
        : {};
    const tools = [
        // A reviewer's are the read-only roles' (readOnlyTools).
        ...(0,read_only_tools/* fileTools */.g0)(jail, input.commands.maxOutputBytes, !readOnly),
        counted((0,command_tools/* runCommandTool */.Lx)(jail, input.commands), () => commandsRun++),
        ...teamTools(input.task.id, input.team, delivered),
        // A server's tool cannot stand in for one of crew's: names are mcp__<server>__<tool>, which crew's never are.
        ...(input.extraTools ?? []),
        {
            final: true,
            spec: {
                name: 'report_result',
                description: `Report the outcome of your task and end your attempt: call it once, when the work is done or you cannot go further. crew checks the report first (details of at least ${result/* MIN_REPORT_LINES */.M} lines; a claim that a check passed needs a command you ran); one it cannot accept comes back as an error saying what to fix, with your work kept. Then crew commits and pushes your changes.`,
                input_schema: REPORT_SCHEMA,
            },
            run(raw) {
                const candidate = parseReport(raw);
                // A report that breaks only the report rules is fixed here, in one more turn, not by a new attempt.
                const problems = (0,result/* reportProblems */.Tw)(candidate, commandsRun);
                if (problems.length && reportReasks < result/* REPORT_REASKS */.FR) {
                    reportReasks++;
                    sentBack = candidate;
                    log.info(`report_result sent back (${reportReasks} of ${result/* REPORT_REASKS */.FR}): ${problems.join('; ')}`);
                    throw new Error(`Not accepted yet, only the report: your work is kept as it is.\n${problems.map((p) => `- ${p}`).join('\n')}\nCall report_result again with the whole report fixed; do not redo the work.`);
                }
                reported = candidate;
                return 'Reported. crew will check the report, commit and push your changes.';
            },
        },
    ];
    const outcome = await (0,tool_loop/* runToolLoop */.ko)({
        model,
        modelId: input.modelId,
        system: `${input.system.trimEnd()}\n\n${input.repoMap ?? repositoryMapOf(input.repoFiles, input.task)}`,
        log,
        recover: true,
        ...(trajectory ? { trajectory } : {}),
        tools,
        refused,
        firstMessage: firstMessage(input),
        ...(input.images?.length ? { images: input.images.map((i) => i.block) } : {}),
        maxTurns: input.maxTurns,
        ...(input.maxOutputTokens ? { maxTokens: input.maxOutputTokens } : {}),
        limits: input.limits,
        compaction: input.compaction,
        nudge: 'If you are finished, call report_result with your status and report.',
        tellLimits: true,
        ...(input.signal ? { signal: input.signal } : {}),
        async between(turn) {
            // Where a test can cancel the job mid-task: the tools of the turn before have run.
            if (turn > 1)
                log.checkpoint('worker-turn');
            const fresh = (await input.team.inbox()).filter((m) => !delivered.has(m.id));
            for (const m of fresh)
                delivered.add(m.id);
            if (fresh.some((m) => m.type === 'shutdown_request'))
                return { stop: 'shutdown' };
            return { notes: fresh.map(inbox/* teammateBlock */.iR) };
        },
    });
    const unfixed = !reported && sentBack && (outcome.stop === 'max_turns' || outcome.stop === 'no_final');
    return {
        reported: reported ?? (unfixed ? sentBack : undefined),
        stop: unfixed ? 'final' : outcome.stop,
        turns: outcome.turns,
        usage: outcome.usage,
        toolCalls: outcome.toolCalls,
        promptTokens: outcome.promptTokens,
        compactions: outcome.compactions,
        ...(outcome.error ? { error: outcome.error } : {}),
        ...(outcome.limit ? { limit: outcome.limit } : {}),
    };
}
/** The same tool, calling `onCall` each time it runs. */
function counted(tool, onCall) {
    return {
        ...tool,
        run(raw, facts) {
            onCall();
            return tool.run(raw, facts);
        },
    };
}


/***/ }),

/***/ 75674:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   _: () => (/* binding */ findingsText),
/* harmony export */   h: () => (/* binding */ checkPlanRules)
/* harmony export */ });
/* harmony import */ var _criteria__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(83543);

/**
 * The plan review's deterministic half: checks that need no model. A plan that
 * fails them goes back to the decomposer without spending a review call. (Protected
 * paths and the task count are the decomposer's own checks, `planBoundsProblems`: a
 * plan that breaks them never reaches review, so nobody can approve it anyway.)
 */
function checkPlanRules(plan) {
    const out = [];
    const criterion = (c, where) => {
        if ((0,_criteria__WEBPACK_IMPORTED_MODULE_0__/* .isHollow */ .aN)(c.text))
            out.push({
                aspect: 'content',
                problem: `${where}: "${c.text}" cannot fail, so it proves nothing`,
                suggestion: 'state an observable result or a command that exits 0 only when it holds',
            });
        if (c.kind === 'command') {
            const p = (0,_criteria__WEBPACK_IMPORTED_MODULE_0__/* .commandProblem */ .RS)(c.command);
            if (p)
                out.push({ aspect: 'form', problem: `${where}: command criterion "${c.text}" is not runnable: ${p}` });
        }
    };
    if (plan.criteria.length === 0)
        out.push({ aspect: 'completeness', problem: 'the run has no done criteria' });
    for (const c of plan.criteria)
        criterion(c, `criterion ${c.id}`);
    for (const t of plan.tasks) {
        if (t.criteria.length === 0)
            out.push({
                aspect: 'completeness',
                task: t.id,
                problem: `task ${t.id} has no done criteria of its own`,
                suggestion: 'give it at least one checkable criterion',
            });
        for (const text of t.criteria)
            if ((0,_criteria__WEBPACK_IMPORTED_MODULE_0__/* .isHollow */ .aN)(text))
                out.push({
                    aspect: 'content',
                    task: t.id,
                    problem: `task ${t.id}: "${text}" cannot fail, so it proves nothing`,
                    suggestion: 'state an observable result',
                });
    }
    return out;
}
function findingsText(findings) {
    return findings.map((f) => `- [${f.aspect}]${f.task ? ` ${f.task}:` : ''} ${f.problem}${f.suggestion ? ` — ${f.suggestion}` : ''}`).join('\n');
}


/***/ }),

/***/ 58453:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   HJ: () => (/* binding */ repositoryMap),
/* harmony export */   lG: () => (/* binding */ filesToRead)
/* harmony export */ });
/* unused harmony exports definitionsOf, mentionsIn, rankFiles */
/* harmony import */ var _definitions__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(32822);
/**
 * The repository map the planning agents and the workers read (#48): every top-level folder with
 * its file count, then the files ranked by relevance to the request, each with its definitions, in
 * a character budget, and a note of what was left out. Ranked as Aider's repo map ranks (the idea,
 * not its code): a graph of files, an edge from each file to the files that define identifiers it
 * uses, PageRank personalised towards what the request names; identifiers the request names, and
 * long, distinctive ones, weigh more (aider/repomap.py, get_ranked_tags: a named identifier ×10, a
 * snake/camel/kebab name of 8+ characters ×10, a `_private` one ×0.1, one defined in more than 5
 * files ×0.1, the square root of the number of references). Definitions come from line-based
 * patterns per language (no parser; definitions.ts, shared with read_file's outline): good enough to
 * name the functions, classes and types a file offers. Pure: a step reads the files through the
 * WorkingCopy port.
 */

/** Source files of languages the map has no definition patterns for: still code, ranked above docs and assets. */
const OTHER_CODE = /\.(scala|c|h|cc|cpp|hpp|php|swift|m|mm|sh|bash|lua|ex|exs|erl|hs|ml|clj|dart|r|jl|zig|vue|svelte|sql)$/i;
const MANIFESTS = /(^|\/)(package\.json|Makefile|makefile|GNUmakefile|pyproject\.toml|setup\.py|setup\.cfg|Cargo\.toml|go\.mod|tsconfig\.json|Dockerfile|justfile|Rakefile|Gemfile|pom\.xml|build\.gradle)$/;
const DOCS = /\.(md|mdx|rst|txt|adoc)$/i;
const CONFIG = /\.(json|ya?ml|toml|ini|cfg|xml)$/i;
function extension(path) {
    const base = path.slice(path.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    return dot > 0 ? base.slice(dot).toLowerCase() : '';
}
/** The code language the map reads a file's definitions in (Markdown's headings are an outline's, not the map's). */
function languageOf(path) {
    const language = (0,_definitions__WEBPACK_IMPORTED_MODULE_0__/* .definitionLanguage */ .kw)(path);
    return language?.headings ? undefined : language;
}
/** Built, bundled or vendored code: nobody edits it, and its definitions would drown the source's. */
const GENERATED = /(^|\/)(dist|build|out|vendor|third_party|node_modules|__generated__)\/|\.(min|bundle)\.[cm]?js$|\.d\.ts$/;
/** How much a file is worth before its contents are known: code first, then manifests and configuration, docs, the rest (assets, data, built code). */
function prior(path) {
    if (GENERATED.test(path))
        return 0.05;
    if (languageOf(path) || OTHER_CODE.test(path))
        return isTest(path) ? 0.6 : 1;
    if (MANIFESTS.test(path))
        return 0.8;
    if (CONFIG.test(path))
        return 0.3;
    if (DOCS.test(path))
        return 0.2;
    return 0.05;
}
function isTest(path) {
    return /(^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]*\.py$|_test\.go$/.test(path);
}
const LINE_CHARS = 120;
/** The definitions a file's text holds, by its language's patterns; none for a language the map does not know. */
function definitionsOf(path, text) {
    const lang = languageOf(path);
    if (!lang)
        return [];
    const out = [];
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        if (line.length > 1000)
            continue;
        const name = (0,_definitions__WEBPACK_IMPORTED_MODULE_0__/* .definitionIn */ .rY)(lang, line)?.name;
        if (!name)
            continue;
        const t = line.trim();
        out.push({ name, line: i + 1, text: t.length > LINE_CHARS ? `${t.slice(0, LINE_CHARS - 1)}…` : t });
    }
    return out;
}
const IDENT = /[A-Za-z_$][\w$]*/g;
/** An identifier that says something: snake_case, camelCase or kebab of 8+ characters (Aider's rule). */
function distinctive(name) {
    return name.length >= 8 && (/_/.test(name.slice(1)) || /[a-z][A-Z]/.test(name) || /-/.test(name));
}
/** A word that reads as an identifier rather than prose. */
function codeShaped(w) {
    return /_/.test(w) || /[a-z][A-Z]/.test(w) || /^[A-Z][A-Z0-9_]{2,}$/.test(w) || /[A-Za-z]\d/.test(w);
}
/** What the focus text names: tracked paths (whole, by their tail, as a dotted module, or without an extension) and words. */
function mentionsIn(focus, files) {
    const paths = new Set();
    const tokens = new Set((focus.match(/[A-Za-z0-9_$][\w$./-]*[\w$]/g) ?? []).map((t) => t.replace(/^\.?\/+/, '')));
    const byBase = new Map();
    const byStem = new Map();
    for (const f of files) {
        const base = f.slice(f.lastIndexOf('/') + 1);
        (byBase.get(base) ?? byBase.set(base, []).get(base)).push(f);
        const stem = f.slice(0, f.length - extension(f).length);
        (byStem.get(stem) ?? byStem.set(stem, []).get(stem)).push(f);
        const init = stem.match(/^(.*)\/(?:__init__|index|mod)$/)?.[1];
        if (init)
            (byStem.get(init) ?? byStem.set(init, []).get(init)).push(f);
    }
    const fileSet = new Set(files);
    for (const t of tokens) {
        if (fileSet.has(t))
            paths.add(t);
        if (t.includes('/')) {
            // A path's tail ("core/expr.py"), or a path without its extension ("src/text/slug").
            for (const f of files)
                if (f.endsWith(`/${t}`))
                    paths.add(f);
            for (const f of byStem.get(t) ?? [])
                paths.add(f);
        }
        else if (/\.[A-Za-z]/.test(t)) {
            const named = byBase.get(t);
            // A bare name that many files share ("index.ts") names none of them in particular.
            if (named && named.length <= 3)
                for (const f of named)
                    paths.add(f);
            // A dotted module name ("sympy.core.expr").
            if (/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/.test(t))
                for (const f of byStem.get(t.replace(/\./g, '/')) ?? [])
                    paths.add(f);
        }
    }
    const words = new Set();
    const code = new Set();
    for (const w of focus.match(IDENT) ?? [])
        if (w.length >= 3)
            words.add(w);
    for (const w of words)
        if (codeShaped(w))
            code.add(w);
    for (const quoted of focus.match(/`[^`\n]{1,200}`/g) ?? [])
        for (const w of quoted.match(IDENT) ?? [])
            if (w.length >= 3)
                code.add(w);
    const stems = new Set();
    const lower = new Set([...words].filter((w) => w.length >= 4).map((w) => w.toLowerCase()));
    for (const f of files) {
        const base = f.slice(f.lastIndexOf('/') + 1);
        if (lower.has(base.slice(0, base.length - extension(base).length).toLowerCase()))
            stems.add(f);
    }
    return { paths, words, code, stems };
}
/**
 * Which files to read for the map, at most `limit`: the files the focus names, then code in the
 * languages the map reads, taken in turn from each top-level folder (shallow files first), so a
 * folder of thousands does not crowd out the rest.
 */
function filesToRead(files, focus, limit) {
    const named = [...mentionsIn(focus, files).paths].filter((f) => languageOf(f));
    const byFolder = new Map();
    for (const f of files) {
        if (!languageOf(f) || GENERATED.test(f))
            continue;
        const top = topFolder(f);
        (byFolder.get(top) ?? byFolder.set(top, []).get(top)).push(f);
    }
    const queues = [...byFolder.values()].map((q) => q.sort((a, b) => depth(a) - depth(b) || (isTest(a) ? 1 : 0) - (isTest(b) ? 1 : 0) || a.localeCompare(b)));
    const out = new Set(named.slice(0, limit));
    for (let i = 0; out.size < limit && queues.some((q) => i < q.length); i++)
        for (const q of queues)
            if (i < q.length && out.size < limit)
                out.add(q[i]);
    return [...out];
}
function depth(path) {
    return path.split('/').length;
}
/** The top-level folder of a path, or '' for a file at the root. */
function topFolder(path) {
    const i = path.indexOf('/');
    return i < 0 ? '' : path.slice(0, i);
}
/** PageRank over weighted edges, personalised by `start` (Aider ranks its graph the same way). */
function pageRank(nodes, edges, start) {
    const damping = 0.85;
    const total = [...start.values()].reduce((a, b) => a + b, 0) || 1;
    const p = new Map(nodes.map((n) => [n, (start.get(n) ?? 0) / total]));
    let rank = new Map(p);
    for (let iter = 0; iter < 30; iter++) {
        const next = new Map(nodes.map((n) => [n, (1 - damping) * p.get(n)]));
        let dangling = 0;
        for (const n of nodes) {
            const out = edges.get(n);
            const sum = out ? [...out.values()].reduce((a, b) => a + b, 0) : 0;
            if (!sum) {
                dangling += rank.get(n);
                continue;
            }
            for (const [to, w] of out)
                next.set(to, next.get(to) + (damping * rank.get(n) * w) / sum);
        }
        for (const n of nodes)
            next.set(n, next.get(n) + damping * dangling * p.get(n));
        rank = next;
    }
    return rank;
}
/** Every file with its score, best first, and the definitions worth showing (most referenced first). */
function rankFiles(input) {
    const { files, contents } = input;
    const mentions = mentionsIn(input.focus, files);
    const defs = new Map();
    const definers = new Map();
    for (const [path, text] of contents) {
        const d = definitionsOf(path, text);
        defs.set(path, d);
        for (const x of d)
            (definers.get(x.name) ?? definers.set(x.name, new Set()).get(x.name)).add(path);
    }
    // Words of the request that name a definition weigh more (Aider's ×10); only those written as code name its file.
    const namedIdents = new Set([...mentions.words].filter((w) => definers.has(w) && w.length >= 4));
    const codeIdents = new Set([...mentions.code].filter((w) => definers.has(w)));
    // Edges: a file that uses a name points at the files defining it, weighted as Aider weighs them.
    const edges = new Map();
    const used = new Map();
    const uses = new Map();
    const spread = new Map();
    for (const [path, text] of contents) {
        const counts = new Map();
        // Short names (`s`, `k`, `id`) are everywhere as locals: a use of one says nothing about where it is defined.
        for (const w of text.match(IDENT) ?? [])
            if (w.length >= 4 && definers.has(w))
                counts.set(w, (counts.get(w) ?? 0) + 1);
        uses.set(path, counts);
        for (const name of counts.keys())
            spread.set(name, (spread.get(name) ?? 0) + 1);
    }
    // A plain word most files use (`number`, `text`, `input`) is a keyword or a local's name far more often than a use of one definition.
    const common = Math.max(5, contents.size / 5);
    for (const [path, counts] of uses) {
        for (const [name, n] of counts) {
            const where = definers.get(name);
            const others = [...where].filter((d) => d !== path);
            if (!others.length)
                continue;
            let mul = 1;
            if (namedIdents.has(name))
                mul *= 10;
            if (distinctive(name))
                mul *= 10;
            if (name.startsWith('_'))
                mul *= 0.1;
            if (where.size > 5)
                mul *= 0.1;
            if (spread.get(name) > common && !distinctive(name))
                mul *= 0.05;
            const w = mul * Math.sqrt(n);
            const out = edges.get(path) ?? edges.set(path, new Map()).get(path);
            for (const d of others) {
                out.set(d, (out.get(d) ?? 0) + w / others.length);
                used.set(`${d}\0${name}`, (used.get(`${d}\0${name}`) ?? 0) + w / others.length);
            }
        }
    }
    const start = new Map();
    for (const f of files)
        start.set(f, prior(f) * (mentions.paths.has(f) ? 100 : mentions.stems.has(f) ? 10 : 1));
    for (const [path, d] of defs) {
        if (d.some((x) => codeIdents.has(x.name)))
            start.set(path, (start.get(path) ?? 0) * 30);
        else if (d.some((x) => namedIdents.has(x.name)))
            start.set(path, (start.get(path) ?? 0) * 3);
    }
    const rank = pageRank([...files], edges, start);
    const ranked = files.map((path) => {
        const d = defs.get(path) ?? [];
        const named = mentions.paths.has(path) || d.some((x) => codeIdents.has(x.name));
        // The definitions the request names first, then the ones the rest of the code uses most, then the rest in file order.
        const weight = (x) => (codeIdents.has(x.name) ? 2e9 : namedIdents.has(x.name) ? 1e9 : 0) + (used.get(`${path}\0${x.name}`) ?? 0);
        const order = [...d].sort((a, b) => weight(b) - weight(a) || a.line - b.line);
        // Of files alike, the shallower first (a root README before a template deep in .github).
        const shallow = 1 / (1 + 0.05 * (depth(path) - 1));
        return { path, score: (rank.get(path) ?? 0) * prior(path) * shallow + (named ? 1 : 0), named, defs: order };
    });
    return ranked.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
}
/**
 * Definitions shown for the file at `rank` (0 the first): the best few files show the most, then
 * fewer, then the path alone, so a map names a hundred files rather than detailing a dozen. The map
 * is a guide; read_file shows the rest.
 */
function defsShown(rank) {
    return rank < 5 ? 10 : rank < 15 ? 4 : rank < 40 ? 1 : 0;
}
const defLine = (d) => `  ${d.line}│ ${d.text}`;
/** Top-level folders named one by one; past this many, the largest are and the rest counted. */
const FOLDERS_NAMED = 60;
/** The rendered map: folders, ranked files with their definitions, what was left out; within `budgetChars`. */
function repositoryMap(input) {
    const { files, budgetChars } = input;
    const folders = new Map();
    for (const f of files)
        folders.set(topFolder(f), (folders.get(topFolder(f)) ?? 0) + 1);
    const rootFiles = folders.get('') ?? 0;
    folders.delete('');
    const named = [...folders].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, FOLDERS_NAMED);
    const unnamed = folders.size - named.length;
    const folderLine = [
        ...named.sort((a, b) => a[0].localeCompare(b[0])).map(([d, n]) => `${d}/ (${n})`),
        ...(unnamed ? [`${unnamed} smaller folders`] : []),
        ...(rootFiles ? [`${rootFiles} at the root`] : []),
    ].join(', ');
    const head = [
        '## Repository map',
        `${files.length} tracked files. Every top-level folder, with its file count: ${folderLine || '(none)'}.`,
        files.length
            ? 'The files most relevant to this work come first (the ones it names, then the ones the code uses most), each with the line numbers and lines of its main definitions:'
            : '(empty repository)',
        '',
    ];
    const ranked = rankFiles(input);
    const body = [];
    let size = head.join('\n').length;
    // Room kept for the closing note, which names what was left out.
    const reserve = 400;
    let shown = 0;
    const left = new Map();
    let full = false;
    for (const r of ranked) {
        const most = defsShown(shown);
        if (!full) {
            const mark = r.named ? '   (named in the request)' : '';
            let entrySize = r.path.length + mark.length + 1;
            if (size + entrySize + reserve <= budgetChars) {
                // A file goes in with as many of its definitions as fit (most used first), shown in file order.
                const kept = [];
                for (const d of r.defs.slice(0, most)) {
                    const line = defLine(d);
                    if (size + entrySize + line.length + 1 + reserve > budgetChars)
                        break;
                    kept.push(d);
                    entrySize += line.length + 1;
                }
                const entry = [`${r.path}${mark}`, ...kept.sort((a, b) => a.line - b.line).map(defLine)];
                if (kept.length && r.defs.length > kept.length)
                    entry.push(`  … ${r.defs.length - kept.length} more definitions`);
                body.push(...entry);
                size += entry.join('\n').length + 1;
                shown++;
                continue;
            }
            full = true;
        }
        const top = topFolder(r.path) || '(root)';
        left.set(top, (left.get(top) ?? 0) + 1);
    }
    const omitted = files.length - shown;
    const note = omitted
        ? [
            '',
            `Left out to keep the map short: ${omitted} more files (${[...left]
                .sort((a, b) => b[1] - a[1])
                .slice(0, 8)
                .map(([d, n]) => `${n} in ${d === '(root)' ? 'the root' : `${d}/`}`)
                .join(', ')}${left.size > 8 ? ', …' : ''}). list_files, search and read_file show them.`,
        ]
        : [];
    return [...head, ...body, ...note].join('\n');
}


/***/ }),

/***/ 90635:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Cp: () => (/* binding */ resultFile),
/* harmony export */   FR: () => (/* binding */ REPORT_REASKS),
/* harmony export */   J: () => (/* binding */ limitRecord),
/* harmony export */   M: () => (/* binding */ MIN_REPORT_LINES),
/* harmony export */   Tw: () => (/* binding */ reportProblems),
/* harmony export */   iJ: () => (/* binding */ checkResult)
/* harmony export */ });
/* unused harmony exports unbackedClaims, reportBody, REPORT_LIMITS, boundReport, limitOf */
/* harmony import */ var yaml__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(38815);

const MIN_REPORT_LINES = 20;
/** How many times a worker is asked to fix a report that breaks only the report rules, in the same conversation. */
const REPORT_REASKS = 2;
/**
 * What is wrong with the report itself, as opposed to the work: missing metadata, or too few
 * lines. The worker is told in the same conversation and can fix it in one more turn; a new
 * attempt is for work that failed (#17 §5).
 */
function reportProblems(r, commandsRun) {
    const out = [];
    if (!r.status)
        out.push('status is missing: say success, partial or failure');
    if (!r.quality)
        out.push('quality is missing: say GREEN, YELLOW or RED');
    if (r.completeness === undefined || !Number.isFinite(r.completeness))
        out.push('completeness is missing: a number from 0 to 100');
    const lines = reportBody(r).split('\n').length;
    if (lines < MIN_REPORT_LINES)
        out.push(`the report has ${lines} lines; at least ${MIN_REPORT_LINES} are expected: what changed and where, why, how you checked it (the commands you ran and what they printed), what is not done, and the risks`);
    const claims = commandsRun === 0 && r.status === 'success' ? unbackedClaims(reportBody(r)) : [];
    if (claims.length)
        out.push(`the report claims checks it has no evidence for (${claims.map((c) => `"${c}"`).join(', ')}), but you ran no command in this attempt: run the check with run_command and report what it printed, or say plainly that you did not run it`);
    return out;
}
/**
 * Sentences where a report says a check passed: "the tests pass", "`npm test` exits 0",
 * "I ran `make`". A worker that ran no command cannot know that, so the claim goes back to it
 * (#17 §5). Wishes and conditions ("make sure the tests pass", "did not run") are not claims.
 * English only: reports in other languages are not checked for this rule.
 */
const CLAIMS = [
    /\b(?:tests?|specs?|checks?|builds?|lint(?:er|ing)?|(?:test )?suites?|type-?checks?|compil(?:es|ation))\s+(?:now\s+|still\s+|all\s+)?(?:pass(?:es|ed)?|succeed(?:s|ed)?|(?:is|are)\s+(?:green|passing|clean))\b/i,
    /`[^`\n]+`\s+(?:now\s+|still\s+)?(?:pass(?:es|ed)?|succeed(?:s|ed)?|exit(?:s|ed)?\s+(?:with\s+)?(?:code\s+|status\s+)?0)\b/i,
    /\b(?:I|we)\s+(?:have\s+)?(?:ran|run)\s+`[^`\n]+`/i,
];
const NOT_A_CLAIM = /(?:\b(?:not|never|could|should|would|will|must|make sure|ensure|until|unless|if|whether|so that|once|when)\b|n't\b)[^.!?\n]*$/i;
function unbackedClaims(body) {
    const found = [];
    for (const sentence of body.split(/(?<=[.!?])\s+|\n+/)) {
        for (const re of CLAIMS) {
            const m = re.exec(sentence);
            if (!m || NOT_A_CLAIM.test(sentence.slice(Math.max(0, m.index - 40), m.index)))
                continue;
            found.push(m[0].trim());
            break;
        }
    }
    return [...new Set(found)].slice(0, 3);
}
/** The text the model reported, as it will appear in the result body. */
function reportBody(r) {
    const parts = [r.summary?.trim() ?? '', r.details?.trim() ?? ''];
    const f = r.feedback;
    if (f?.type === 'implementation')
        parts.push(`## Implementation\n${f.result}\n${f.changes.map((c) => `- ${c}`).join('\n')}`);
    if (f?.type === 'exploration')
        parts.push(`## Findings\n${f.findings.map((x) => `- ${x}`).join('\n')}\n\n## Recommendations\n${f.recommendations.map((x) => `- ${x}`).join('\n')}\n\nConfidence: ${f.confidence}`);
    if (f?.type === 'difficulty')
        parts.push(`## Difficulty\n${f.issue}\n\nTried:\n${f.attempts.map((x) => `- ${x}`).join('\n')}\n\nImpediment (${f.impediment.category}): ${f.impediment.requestedAction}`);
    return parts.filter(Boolean).join('\n\n');
}
const ENDINGS = {
    no_report: { status: 'failure', retry: true, reason: 'the worker stopped without reporting (no completion marker)' },
    max_turns: { status: 'timeout', retry: true, reason: 'the worker reached its turn limit' },
    // task_timeout_minutes covers all the task's attempts, so a retry would have no time left.
    wall_clock: { status: 'timeout', retry: false, reason: 'the task ran out of time (task_timeout_minutes, across its attempts)' },
    // The attempt's own budget: a retry starts a new one, while the task's and the run's have room (the work step checks).
    budget: { status: 'failure', retry: true, reason: "the worker spent the attempt's budget" },
    loop: { status: 'failure', retry: true, reason: 'the attempt was stopped going round in circles' },
    shutdown: { status: 'partial', retry: false, reason: 'the run was aborted; the worker stopped at the end of a turn' },
    error: { status: 'failure', retry: true, reason: 'the attempt stopped on an error' },
};
function checkResult(reported, seen) {
    const checked = checkReport(reported, seen);
    if (!seen.reverted?.length)
        return checked;
    const list = seen.reverted.join(', ');
    const note = `crew undid the changes to protected paths (${list}): agents may not change them, with any tool`;
    return {
        ...checked,
        metadataIssues: [...checked.metadataIssues, `changes to protected paths were reverted: ${list}`],
        reason: checked.reason ? `${checked.reason}; ${note}` : note,
    };
}
/** How much of a report crew keeps: enough for any honest report, and small enough to travel in a commit message. */
const REPORT_LIMITS = { summary: 2_000, details: 40_000, item: 2_000, items: 50 };
function cut(text, max, what, notes) {
    if (text.length <= max)
        return text;
    notes.push(`${what} cut to ${max.toLocaleString('en-US')} characters (the worker wrote ${text.length.toLocaleString('en-US')})`);
    return `${text.slice(0, max)}\n\n[cut: the ${what} had ${text.length.toLocaleString('en-US')} characters; the first ${max.toLocaleString('en-US')} are kept]`;
}
/** A model can reply with anything, of any size; what crew keeps of a report is bounded, and says where it was cut. */
function boundReport(r) {
    const notes = [];
    const item = (x) => cut(String(x ?? ''), REPORT_LIMITS.item, 'feedback item', notes);
    const list = (xs) => {
        const all = Array.isArray(xs) ? xs : [];
        if (all.length > REPORT_LIMITS.items)
            notes.push(`feedback list cut to ${REPORT_LIMITS.items} items (the worker gave ${all.length})`);
        return all.slice(0, REPORT_LIMITS.items).map(item);
    };
    const f = r.feedback;
    const feedback = f?.type === 'implementation'
        ? { type: 'implementation', result: item(f.result), changes: list(f.changes) }
        : f?.type === 'exploration'
            ? { type: 'exploration', findings: list(f.findings), recommendations: list(f.recommendations), confidence: f.confidence }
            : f?.type === 'difficulty'
                ? {
                    type: 'difficulty',
                    issue: item(f.issue),
                    attempts: list(f.attempts),
                    impediment: { category: f.impediment?.category, requestedAction: item(f.impediment?.requestedAction) },
                    ...(f.conflicting ? { conflicting: list(f.conflicting) } : {}),
                }
                : f;
    return {
        reported: {
            ...r,
            ...(r.summary !== undefined ? { summary: cut(String(r.summary), REPORT_LIMITS.summary, 'summary', notes) } : {}),
            ...(r.details !== undefined ? { details: cut(String(r.details), REPORT_LIMITS.details, 'details', notes) } : {}),
            ...(feedback ? { feedback } : {}),
        },
        notes,
    };
}
function checkReport(given, seen) {
    const bounded = given && boundReport(given);
    const reported = bounded?.reported;
    const issues = [...(bounded?.notes ?? [])];
    if (seen.ending !== 'reported' || !reported) {
        const e = ENDINGS[seen.ending === 'reported' ? 'no_report' : seen.ending];
        const reason = seen.ending === 'shutdown' && seen.stoppedBy === 'budget'
            ? 'the run stopped at a budget; the worker stopped at the end of a turn'
            : (seen.ending === 'error' || seen.ending === 'loop') && seen.error
                ? `${e.reason}: ${seen.error}`
                : e.reason;
        issues.push(`${reason}; completion marker missing`);
        return {
            status: e.status,
            quality: 'RED',
            completeness: 0,
            summary: reason,
            details: '',
            feedback: null,
            metadataIssues: issues,
            retry: e.retry,
            reason,
            complete: false,
        };
    }
    let status = reported.status;
    if (!status) {
        issues.push('status missing, treated as failure');
        status = 'failure';
    }
    let quality = reported.quality;
    if (!quality) {
        issues.push('quality missing, defaulted to YELLOW');
        quality = 'YELLOW';
    }
    let completeness = reported.completeness;
    if (completeness === undefined || !Number.isFinite(completeness)) {
        issues.push('completeness missing, defaulted to 0');
        completeness = 0;
    }
    completeness = Math.max(0, Math.min(100, Math.round(completeness)));
    const body = reportBody(reported);
    const lines = body.split('\n').length;
    let retry = status !== 'success';
    let reason = status === 'success' ? null : `the worker reported ${status}: ${reported.summary?.trim() || 'no summary'}`;
    if (seen.limit) {
        const limit = seen.limit === 'budget' ? "spent the attempt's budget" : 'reached its turn limit';
        issues.push(`the worker ${limit} and reported in its last turn`);
        if (reason)
            reason = `${reason} (it ${limit} and reported in its last turn)`;
    }
    if (lines < MIN_REPORT_LINES) {
        issues.push(`report has ${lines} lines (under ${MIN_REPORT_LINES}); quality set to RED`);
        quality = 'RED';
        retry = true;
        reason ??= `the report was too thin (${lines} lines; at least ${MIN_REPORT_LINES} are expected)`;
    }
    if (seen.persona === 'coder' && seen.changedFiles.length === 0) {
        issues.push('coder task changed no files; treated as failure');
        status = 'failure';
        retry = true;
        reason = 'the coder task changed no files';
    }
    const claims = status === 'success' && !seen.toolCalls.run_command ? unbackedClaims(body) : [];
    if (claims.length) {
        // The worker was asked to back or drop these claims and did not: the report is not trusted.
        issues.push(`success claimed without evidence: the report says ${claims.map((c) => `"${c}"`).join(', ')}, but the worker ran no command`);
        quality = 'RED';
        retry = true;
        reason ??= `the report claims checks the worker never ran (${claims.join(', ')})`;
    }
    if (seen.persona === 'researcher' && !/^## Sources/m.test(body))
        issues.push('Sources section missing');
    if (seen.persona === 'coder' && !body.includes('```'))
        issues.push('code block missing');
    return {
        status,
        quality,
        completeness,
        summary: reported.summary?.trim() || '(no summary)',
        details: reported.details?.trim() ?? '',
        feedback: reported.feedback ?? null,
        metadataIssues: issues,
        retry,
        reason,
        complete: true,
    };
}
/** results/result_<id>.md: front matter crew composed, the worker's text, and the marker if it reported. */
function resultFile(taskId, attempt, r, seen, headSha) {
    const front = {
        task: taskId,
        attempt,
        status: r.status,
        quality: r.quality,
        completeness: r.completeness,
        summary: r.summary,
        ...(r.reason ? { reason: r.reason } : {}),
        ...(r.feedback ? { feedback: r.feedback } : {}),
        changed_files: seen.changedFiles,
        turns: seen.turns,
        ...(seen.elapsedMs !== undefined ? { elapsed_seconds: Math.round(seen.elapsedMs / 1000) } : {}),
        tokens: {
            input: seen.usage.inputTokens,
            output: seen.usage.outputTokens,
            cache_read: seen.usage.cacheReadTokens,
            cache_write: seen.usage.cacheWriteTokens,
        },
        cost_usd: seen.usage.costUsd,
        tools_used: seen.toolCalls,
        head: headSha,
        metadata_issues: r.metadataIssues,
    };
    const body = r.complete ? reportBody({ summary: r.summary, details: r.details, ...(r.feedback ? { feedback: r.feedback } : {}) }) : r.summary;
    return ['---', yaml__WEBPACK_IMPORTED_MODULE_0__.stringify(front).trimEnd(), '---', '', `# Result of ${taskId}`, '', body, '', ...(r.complete ? ['<!-- COMPLETE -->'] : []), ''].join('\n');
}
/** The limit an attempt reached, if any (#49): the one it reported after, or the one that ended it. */
function limitOf(seen) {
    if (seen.limit)
        return seen.limit;
    return seen.ending === 'max_turns' || seen.ending === 'budget' || seen.ending === 'loop' ? seen.ending : undefined;
}
/** What a task record keeps of the limit its latest attempt reached (null: none). */
function limitRecord(attempt, seen) {
    const limit = limitOf(seen);
    return limit ? { limit, attempt, turns: seen.turns, reported: seen.ending === 'reported', files: seen.changedFiles.length } : null;
}


/***/ }),

/***/ 93849:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Je: () => (/* binding */ messageId),
/* harmony export */   ZT: () => (/* binding */ writeMessage),
/* harmony export */   iR: () => (/* binding */ teammateBlock),
/* harmony export */   n2: () => (/* binding */ readInbox)
/* harmony export */ });
/* unused harmony export inboxFolder */
/* harmony import */ var _domain_refs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(92);

const inboxFolder = (issue, run, task) => `${(0,_domain_refs__WEBPACK_IMPORTED_MODULE_0__/* .runFolder */ .kQ)(issue, run)}/inbox/${task}/`;
/** Ids sort in sending order: time first, then sender and a nonce to break ties. */
function messageId(at, from, nonce) {
    return `${at.replace(/[-:]/g, '').replace(/\.\d+Z$|Z$/, '')}-${from}-${nonce}`;
}
function writeMessage(tx, issue, run, message) {
    tx.write(`${inboxFolder(issue, run, message.to)}${message.id}.json`, `${JSON.stringify(message, null, 2)}\n`);
}
function readInbox(r, issue, run, task) {
    return r
        .list(inboxFolder(issue, run, task))
        .filter((p) => p.endsWith('.json'))
        .map((p) => {
        try {
            return JSON.parse(r.read(p));
        }
        catch {
            return undefined;
        }
    })
        .filter((m) => m !== undefined)
        .sort((a, b) => a.id.localeCompare(b.id));
}
/** A message as the model reads it between turns. */
function teammateBlock(m) {
    const text = m.text.replace(/<\/teammate-message>/g, '</ teammate-message>');
    return `<teammate-message from="${m.from}" type="${m.type}">\n${text}\n</teammate-message>`;
}


/***/ }),

/***/ 47389:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  qd: () => (/* binding */ planningEyes),
  wx: () => (/* binding */ readRepoView),
  Sf: () => (/* binding */ scriptsOf),
  dJ: () => (/* binding */ workerMap)
});

// UNUSED EXPORTS: PLANNING_LOOK_TURNS, PLANNING_MAP_CHARS, mapFor

// EXTERNAL MODULE: ./src/agents/path-jail.ts
var path_jail = __webpack_require__(22576);
// EXTERNAL MODULE: ./src/agents/read-only-tools.ts
var read_only_tools = __webpack_require__(13297);
// EXTERNAL MODULE: ./src/domain/repo-map.ts
var repo_map = __webpack_require__(58453);
// EXTERNAL MODULE: ./src/domain/stack.ts
var domain_stack = __webpack_require__(35908);
;// CONCATENATED MODULE: ./src/domain/repo-scripts.ts
/**
 * The commands a repository already has, from the files at its root: package.json scripts, Makefile
 * targets, pyproject's scripts and tool sections, Cargo and Go. The intake reads them before it
 * writes command criteria (#48), so a criterion runs a script the repository has rather than a guess.
 * Pure: the step reads the root files.
 */

/** The root files this reads (and proposeStack's), so a step knows which to fetch. */
const SCRIPT_FILES = ['package.json', 'Makefile', 'makefile', 'GNUmakefile', 'pyproject.toml', 'Cargo.toml', 'go.mod', 'setup.py'];
const MAX_ENTRIES = 40;
const COMMAND_CHARS = 160;
const cut = (s) => (s.length > COMMAND_CHARS ? `${s.slice(0, COMMAND_CHARS - 1)}…` : s);
function makeTargets(text) {
    const out = [];
    for (const m of text.matchAll(/^([A-Za-z0-9][\w./-]*(?:[ \t]+[A-Za-z0-9][\w./-]*)*)[ \t]*:(?![=:])/gm))
        for (const t of m[1].split(/[ \t]+/))
            if (!t.includes('%') && !out.includes(t))
                out.push(t);
    return out;
}
/** `[section]` headers of a TOML file, and the `key = …` lines directly under the ones `wanted` picks. */
function tomlSections(text) {
    const sections = new Map();
    let current;
    for (const line of text.split('\n')) {
        const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
        if (header) {
            const name = header[1];
            current = sections.get(name) ?? sections.set(name, []).get(name);
            continue;
        }
        const key = /^\s*("?[\w.-]+"?)\s*=\s*(.*)$/.exec(line);
        if (key && current)
            current.push(`${key[1].replace(/"/g, '')} = ${key[2].trim()}`);
    }
    return sections;
}
/** The repository's scripts as lines for a prompt section; empty when it has none crew recognises. */
function repositoryScripts(files) {
    const names = new Set(files.names);
    const lines = [];
    const list = (items) => [...items.slice(0, MAX_ENTRIES), ...(items.length > MAX_ENTRIES ? [`  … and ${items.length - MAX_ENTRIES} more`] : [])];
    if (names.has('package.json')) {
        const scripts = Object.entries((0,domain_stack/* packageScripts */.DF)(files));
        lines.push(scripts.length ? 'package.json scripts (run with `npm run <name>`, or the package manager below):' : 'package.json (no scripts)', ...list(scripts.map(([n, c]) => `  ${n}: ${cut(c)}`)));
    }
    for (const name of ['Makefile', 'makefile', 'GNUmakefile']) {
        const text = files.read(name);
        if (text === undefined)
            continue;
        const targets = makeTargets(text);
        lines.push(`${name} targets (run with \`make <target>\`): ${targets.length ? list(targets).join(', ') : '(none found)'}`);
    }
    const pyproject = files.read('pyproject.toml');
    if (pyproject !== undefined) {
        const sections = tomlSections(pyproject);
        const scripts = ['project.scripts', 'tool.poetry.scripts', 'tool.poe.tasks', 'tool.pdm.scripts'].flatMap((s) => (sections.get(s) ?? []).map((l) => `  [${s}] ${cut(l)}`));
        const tools = [...sections.keys()].filter((s) => /^tool\.[\w-]+$/.test(s) || /^tool\.[\w-]+\.ini_options$/.test(s)).map((s) => s.split('.')[1]);
        lines.push(`pyproject.toml${tools.length ? `: tool sections for ${[...new Set(tools)].join(', ')}` : ''}${scripts.length ? '; scripts:' : ''}`, ...list(scripts));
    }
    const cargo = files.read('Cargo.toml');
    if (cargo !== undefined) {
        const sections = tomlSections(cargo);
        const bins = (sections.get('bin') ?? []).filter((l) => l.startsWith('name ='));
        const members = sections.get('workspace')?.find((l) => l.startsWith('members ='));
        lines.push(`Cargo.toml (cargo build, cargo test${bins.length ? `; binaries: ${bins.map((b) => b.slice(7)).join(', ')}` : ''}${members ? `; workspace ${cut(members)}` : ''})`);
    }
    const gomod = files.read('go.mod');
    if (gomod !== undefined) {
        const module = /^module\s+(\S+)/m.exec(gomod)?.[1];
        lines.push(`go.mod${module ? ` (module ${module})` : ''}: go build ./..., go test ./...`);
    }
    const stack = (0,domain_stack/* proposeStack */.d$)(files);
    if (stack.found.length)
        lines.push(`Tooling found: ${stack.found.join('; ')}`);
    if (stack.criteria.length)
        lines.push(`Checks that would run from these: ${stack.criteria.map((c) => `\`${c}\``).join(', ')}`);
    return lines;
}

// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
// EXTERNAL MODULE: ./src/agents/worker.ts + 1 modules
var worker = __webpack_require__(85335);
// EXTERNAL MODULE: ./src/toolbox/command-options.ts
var command_options = __webpack_require__(33625);
;// CONCATENATED MODULE: ./src/steps/repo-map.ts







/** Source files read for a map's definitions at most; the rest are ranked by their paths alone. */
const READ_FILES = 300;
/** A larger file is not read for definitions (a generated file can be megabytes). */
const READ_BYTES = 200_000;
/** The map's size for the planning roles, in their first message (a worker's: WORKER_MAP_CHARS). */
const PLANNING_MAP_CHARS = 12_000;
/** Turns a planning role may spend looking at the repository before it answers. */
const PLANNING_LOOK_TURNS = 6;
/** Reads what maps of the checkout need, once per job: the file list, and the source files `focus` picks first (through the WorkingCopy port). */
async function readRepoView(ctx, focus) {
    const files = await ctx.repo.listFiles();
    if (!files.length)
        return { files, contents: new Map() };
    const started = Date.now();
    const contents = await ctx.repo.readFilesAt(await ctx.repo.head(), (0,repo_map/* filesToRead */.lG)(files, focus, READ_FILES), READ_BYTES);
    ctx.log.info(`repository map: ${files.length} files, ${contents.size} read for definitions in ${Date.now() - started} ms`);
    return { files, contents };
}
/** The map of `view` ranked for `focus`, sanitised like every repository text that reaches a prompt. */
function mapFor(view, focus, budgetChars) {
    return (0,sanitize/* sanitize */.a)((0,repo_map/* repositoryMap */.HJ)({ files: view.files, contents: view.contents, focus, budgetChars }), budgetChars + 200);
}
/** A planning role's eyes: the map for `focus` and the read-only tools over the checkout, with their allowance. */
function planningEyes(ctx, view, focus) {
    return {
        map: mapFor(view, focus, PLANNING_MAP_CHARS),
        look: { tools: (0,read_only_tools/* readOnlyTools */.qJ)(new path_jail/* PathJail */.S(ctx.repo.dir, []), command_options/* MAX_OUTPUT_BYTES */.$), turns: PLANNING_LOOK_TURNS },
    };
}
/** The repository's scripts at the checkout's root (package.json, Makefile, pyproject, Cargo, go), sanitised, for the intake. */
async function scriptsOf(ctx, view) {
    const names = [...new Set(view.files.map((f) => f.split('/')[0]))];
    const wanted = [...SCRIPT_FILES, ...names.filter((n) => /^requirements.*\.txt$/.test(n))].filter((n) => view.files.includes(n));
    const texts = wanted.length ? await ctx.repo.readFilesAt(await ctx.repo.head(), wanted, READ_BYTES) : new Map();
    const lines = repositoryScripts({ names, read: (n) => texts.get(n) });
    return lines.length ? (0,sanitize/* sanitize */.a)(lines.join('\n'), 8000).split('\n') : [];
}
/** The worker's repository map, ranked for its task with the definitions read from the checkout (#48). */
async function workerMap(ctx, task) {
    const view = await readRepoView(ctx, (0,worker/* taskFocus */.SG)(task));
    return { repoFiles: view.files, repoMap: mapFor(view, (0,worker/* taskFocus */.SG)(task), worker/* WORKER_MAP_CHARS */.GS) };
}


/***/ })

};
