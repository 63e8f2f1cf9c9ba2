export const id = 709;
export const ids = [709];
export const modules = {

/***/ 22180:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   D2: () => (/* binding */ NotAccepted),
/* harmony export */   NR: () => (/* binding */ SubmissionRejected),
/* harmony export */   dA: () => (/* binding */ askForSubmission),
/* harmony export */   h2: () => (/* binding */ answerTool)
/* harmony export */ });
/* unused harmony exports REASKS, schemaProblems */
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(98439);
/* harmony import */ var _tool_loop__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(34068);


/** The model's submission failed the checks on every try; `errors` is what was wrong the last time. */
class SubmissionRejected extends Error {
    tool;
    errors;
    attempts;
    usage;
    constructor(tool, errors, attempts, usage) {
        super(`the ${tool} submission failed validation ${attempts} time${attempts === 1 ? '' : 's'}`);
        this.tool = tool;
        this.errors = errors;
        this.attempts = attempts;
        this.usage = usage;
    }
}
/** How many times crew asks again after an invalid submission. */
const REASKS = 2;
/** The look tools, refusing once `turns` turns have passed, with a reason that asks for the answer. */
function allowance(look, answer, turnsSoFar) {
    return look.tools.map((t) => ({
        ...t,
        run(input, facts) {
            if (turnsSoFar() > look.turns)
                throw new Error(`Your ${look.turns} turn${look.turns === 1 ? '' : 's'} of looking at the repository ${look.turns === 1 ? 'is' : 'are'} used up; answer now by calling ${answer}.`);
            return t.run(input, facts);
        },
    }));
}
/** A tool input crew does not take: the problems go back to the model as a tool error, with what to do. */
class NotAccepted extends Error {
    problems;
    constructor(problems, tool) {
        super(`Not accepted:\n${problems.map((p) => `- ${p}`).join('\n')}\nFix these and call ${tool} again.`);
        this.problems = problems;
    }
}
/** What is wrong with an input its schema refused, field by field, as the model reads it. */
function schemaProblems(error) {
    return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`);
}
/**
 * The final tool an agent answers through: the model is given its schema as JSON Schema, and
 * its input is checked against it. `accept` gets the parsed input and returns what the model
 * reads; it throws NotAccepted for checks beyond the schema. A refused input (schema or
 * `accept`) goes back to the model as a tool error naming every problem, and `rejected`
 * hears of it first.
 */
function answerTool(tool, accept, opts = {}) {
    return {
        final: true,
        spec: { name: tool.name, description: tool.description, input_schema: zod__WEBPACK_IMPORTED_MODULE_1__/* .toJSONSchema */ .bl(tool.schema, { io: 'input' }) },
        async run(raw) {
            try {
                const parsed = tool.schema.safeParse(raw);
                if (!parsed.success)
                    throw new NotAccepted(schemaProblems(parsed.error), tool.name);
                return await accept(parsed.data);
            }
            catch (e) {
                if (e instanceof NotAccepted)
                    opts.rejected?.(e.problems);
                throw e;
            }
        },
    };
}
/**
 * Asks an agent for one structured answer through a tool. An invalid answer goes
 * back as an `is_error` tool result with the exact problems, at most twice; crew
 * never forces the tool (current models reject forced tool_choice), it nudges.
 */
async function askForSubmission(req) {
    let value;
    let accepted = false;
    let lastErrors = [];
    let attempts = 0;
    let turns = 0;
    const looking = req.look?.turns ?? 0;
    const outcome = await (0,_tool_loop__WEBPACK_IMPORTED_MODULE_0__/* .runToolLoop */ .ko)({
        model: req.model,
        modelId: req.modelId,
        system: req.system,
        log: req.log,
        firstMessage: req.firstMessage,
        ...(req.images?.length ? { images: req.images } : {}),
        maxTurns: looking + 1 + REASKS,
        ...(req.trajectory ? { trajectory: req.trajectory } : {}),
        nudge: `Answer by calling the ${req.tool.name} tool.`,
        ...(req.look ? { onTurn: (turn) => void (turns = turn) } : {}),
        // The look allowance adds turns, not answers: after 1 + REASKS refused answers the agent is not asked again.
        between: async () => (attempts > REASKS ? { stop: 'max_turns' } : {}),
        tools: [
            ...(req.look ? allowance(req.look, req.tool.name, () => turns) : []),
            answerTool(req.tool, (input) => {
                const checked = req.check ? req.check(input) : { ok: true, value: input };
                if (!checked.ok)
                    throw new NotAccepted(checked.errors, req.tool.name);
                attempts++;
                value = checked.value;
                accepted = true;
                return 'Accepted.';
            }, {
                rejected(problems) {
                    attempts++;
                    lastErrors = problems;
                    req.log.info(`${req.tool.name} attempt ${attempts} rejected: ${problems.join('; ')}`);
                },
            }),
        ],
    });
    if (accepted)
        return { value: value, usage: outcome.usage };
    if (attempts === 0)
        lastErrors = [`the model never called ${req.tool.name}`];
    throw new SubmissionRejected(req.tool.name, lastErrors, Math.max(attempts, 1), outcome.usage);
}


/***/ }),

/***/ 31373:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   e: () => (/* binding */ summarize),
/* harmony export */   f: () => (/* binding */ transcript)
/* harmony export */ });
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(65534);

/** Each block of the turns to fold is kept to this many characters for the summary (head and end of the rest are dropped). */
const MAX_BLOCK_CHARS = 8000;
function clip(text, max) {
    return text.length > max ? `${text.slice(0, max)} …[${text.length - max} characters cut]` : text;
}
/**
 * A transcript in plain text: the summarizer reads it as data, not as a conversation to continue.
 * Thinking blocks are left out: they belong to the conversation that produced them.
 */
function transcript(messages, maxBlockChars = MAX_BLOCK_CHARS) {
    const clipped = (text) => clip(text, maxBlockChars);
    return messages
        .map((m) => m.content
        .map((b) => {
        if (b.type === 'text')
            return `${m.role}: ${clipped(b.text)}`;
        if (b.type === 'tool_use')
            return `${m.role} called ${b.name}(${clipped(JSON.stringify(b.input))})`;
        if (b.type === 'tool_result')
            return `tool result${b.is_error ? ' (error)' : ''}: ${clipped(b.content)}`;
        return '';
    })
        .filter(Boolean)
        .join('\n'))
        .join('\n');
}
/** The most room a summary is given when it was cut off at the configured limit. */
const MAX_SUMMARY_TOKENS = 64_000;
/**
 * Compaction's model half (endless8's history summary): older turns become a short
 * account that keeps what matters for the rest of the task — files changed,
 * decisions, and every failed approach, so it is not tried again. A summary cut off at
 * `max_tokens` (thinking counts) is asked again with twice the room; one that still does not
 * fit, or that the model refuses or leaves empty, is an error: the turns it should fold are
 * never dropped in silence.
 */
async function summarize(model, modelId, system, previous, messages, maxTokens = 16_000) {
    const text = [
        previous ? `Summary so far:\n${previous}\n` : '',
        'Turns to fold into the summary:',
        transcript(messages),
        '',
        'Write the updated summary.',
    ].join('\n');
    let usage;
    for (let room = maxTokens;; room = Math.min(MAX_SUMMARY_TOKENS, room * 2)) {
        const reply = await model.complete({ model: modelId, system, tools: [], maxTokens: room, messages: [{ role: 'user', content: [{ type: 'text', text }] }] });
        usage = usage ? (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .addUsage */ .vk)(usage, reply.usage) : reply.usage;
        const summary = reply.content
            .filter((b) => b.type === 'text')
            .map((b) => b.text)
            .join('\n')
            .trim();
        const cut = reply.stopReason === 'max_tokens' || reply.stopReason === 'model_context_window_exceeded';
        if (cut && room < MAX_SUMMARY_TOKENS && reply.stopReason === 'max_tokens')
            continue;
        if (cut)
            throw new Error(`compaction's summary was cut off (stop_reason ${reply.stopReason}) at ${room} output tokens; raise max_output_tokens.summarizer in .github/crew.yml, or lower context_budget so less is summarised at once`);
        if (reply.stopReason === 'refusal')
            throw new Error("compaction's summary was refused by the model (stop_reason refusal); the turns it should fold were kept out of the summary, so the attempt stops here");
        if (!summary)
            throw new Error(`compaction's summary came back empty (stop_reason ${reply.stopReason ?? 'none'}); the attempt stops rather than lose the turns it should fold`);
        return { summary, usage };
    }
}


/***/ }),

/***/ 34068:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ko: () => (/* binding */ runToolLoop)
});

// UNUSED EXPORTS: COMPACT_AT, DEFAULT_MAX_TOKENS, cutToolResults, estimateTokens

// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/domain/images.ts
var domain_images = __webpack_require__(99696);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
;// CONCATENATED MODULE: ./src/text/log-line.ts
/** How long a reason may be on one line of a job log. */
const LOG_REASON_CHARS = 300;
/**
 * A multi-line message (a refused tool call's "Not accepted:" and its list of problems) as one job
 * log line: list items joined by "; ", cut to `max` characters with "…". Line breaks and other
 * control characters never survive: the text may carry model-written words, and on GitHub a log
 * line that starts with `::` is a workflow command.
 */
function logLine(message, max = LOG_REASON_CHARS) {
    let out = '';
    for (const raw of message.split(/[\r\n\u2028\u2029]+/)) {
        const line = raw
            .replace(/\p{Cc}+/gu, ' ')
            .trim()
            .replace(/^[-*] +/, '');
        if (!line)
            continue;
        out = out ? `${out}${/:$/.test(out) ? ' ' : '; '}${line}` : line;
    }
    return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

;// CONCATENATED MODULE: ./src/agents/limits-notice.ts

/** Turns before the end at which the model is warned to wrap up. */
const WARN_TURNS = 3;
const n = (x) => Math.max(0, Math.round(x)).toLocaleString('en-US');
/** Turns the budget still holds at the recent pace; Infinity without a budget or a pace. */
function turnsTheBudgetHolds(s) {
    if (!s.recent.length)
        return Infinity;
    const pace = (f) => s.recent.reduce((sum, r) => sum + f(r), 0) / s.recent.length;
    const byTokens = s.tokens !== undefined && pace((r) => r.tokens) > 0 ? (s.tokens - (0,run_state/* tokensOf */.k8)(s.usage)) / pace((r) => r.tokens) : Infinity;
    const byCost = s.costUsd !== undefined && pace((r) => r.costUsd) > 0 ? (s.costUsd - s.usage.costUsd) / pace((r) => r.costUsd) : Infinity;
    return Math.floor(Math.min(byTokens, byCost));
}
/**
 * What the model reads with each tool result about its limits: the turns and the budget left, and a
 * few turns before either runs out, to wrap up. Claude Code and mini-swe-agent tell the model nothing
 * and let it run into the wall; a worker told its limits can leave its work in a state the next attempt
 * (or a person) can use.
 */
function limitsNotice(s) {
    const parts = [`crew: turn ${s.turn} of ${s.maxTurns} done (${s.maxTurns - s.turn} left)`];
    const budget = [];
    if (s.tokens !== undefined)
        budget.push(`${n(s.tokens - (0,run_state/* tokensOf */.k8)(s.usage))} of ${n(s.tokens)} budget tokens`);
    if (s.costUsd !== undefined)
        budget.push(`$${Math.max(0, s.costUsd - s.usage.costUsd).toFixed(2)} of $${s.costUsd.toFixed(2)}`);
    if (budget.length)
        parts.push(`this attempt's budget left: ${budget.join(', ')}`);
    const left = Math.min(s.maxTurns - s.turn, turnsTheBudgetHolds(s));
    let text = `${parts.join('; ')}.`;
    if (left <= WARN_TURNS)
        text += ` Only about ${left} turn${left === 1 ? '' : 's'} left before this attempt stops: finish the change you are making, make sure it is written to the files, and call report_result with what is done and what is left. crew commits your changes to your branch either way.`;
    return text;
}
/** The one turn the model gets after a limit is reached: report, nothing else. */
function lastTurnNotice(kind) {
    const what = kind === 'max_turns' ? "this attempt's turns are used up" : "this attempt's budget is spent";
    return `crew: ${what}, so this is your last turn. Call report_result now, and nothing else: what you did, what is left, and what the next attempt should do first (status partial if the task is not done). crew has kept your changes and commits them to your branch. No other tool will run.`;
}
/** What a tool call other than the report gets in the last turn. */
const NOT_IN_LAST_TURN = 'crew did not run this call: this is the last turn of the attempt, in which only report_result runs.';

;// CONCATENATED MODULE: ./src/agents/repeats.ts
/** The same call with the same result this many times: the model is told it is going round in circles. */
const REPEAT_NOTE_AT = 3;
/** This many times: the attempt stops, with the reason (OpenHands' stuck detector stops a repeated action with the same observation). */
const REPEAT_STOP_AT = 5;
/**
 * Counts each tool call by its name, its exact input and its exact result (an error included), over
 * the whole attempt, in any order: a model that edits, reads, and edits the same way again is as stuck
 * as one that repeats itself turn after turn.
 */
class RepeatWatch {
    #seen = new Map();
    record(use, result, isError) {
        const key = JSON.stringify([use.name, use.input, isError, result]);
        const count = (this.#seen.get(key) ?? 0) + 1;
        this.#seen.set(key, count);
        const what = `${use.name} with the same input ${count} times, and it ${isError ? 'failed' : 'answered'} the same way each time`;
        if (count === REPEAT_STOP_AT)
            return { act: 'stop', count, text: `the worker called ${what}` };
        if (count === REPEAT_NOTE_AT)
            return {
                act: 'note',
                count,
                text: `crew notes: you have called ${what}. Repeating it will not change the result: read the error or the output again, look at the file as it is now (read_file), and try a different approach. At ${REPEAT_STOP_AT} identical calls with the same result crew stops this attempt.`,
            };
        return undefined;
    }
}

// EXTERNAL MODULE: ./src/agents/summarizer.ts
var summarizer = __webpack_require__(31373);
;// CONCATENATED MODULE: ./src/agents/tool-loop.ts







/** `max_tokens` of an agent's reply unless its role sets one (the planning agents, the critic, the retrospector). */
const DEFAULT_MAX_TOKENS = 32_000;
/** Share of the context budget past which older turns are summarised. */
const COMPACT_AT = 0.6;
/** `keep` characters of `text`, half from its head and half from its tail, with a note of the cut between. */
function keepEnds(text, keep, note) {
    return `${text.slice(0, Math.ceil(keep / 2))}\n…[${note(text.length - keep)}]…\n${text.slice(-Math.floor(keep / 2))}`;
}
/** The newest messages a fresh conversation repeats word for word (three exchanges of a call and its results). */
const KEEP_MESSAGES = 6;
/** The pre-send guard keeps an estimated prompt under this share of the budget (estimates are rough). */
const SEND_LIMIT = 0.85;
/** Characters per token for the estimate: lower than typical English, so it errs towards too many tokens. */
const CHARS_PER_TOKEN = 3;
/** A rough, deliberately high count of the tokens a request's prompt will take. */
function estimateTokens(system, tools, messages) {
    // An image costs what the API charges for it (at most IMAGE_TOKENS), not its base64's length.
    let images = 0;
    const json = JSON.stringify(messages, (key, value) => {
        if (key === 'source' && typeof value === 'object' && value !== null && value.type === 'base64') {
            images++;
            return null;
        }
        return value;
    });
    return Math.ceil((system.length + JSON.stringify(tools).length + json.length) / CHARS_PER_TOKEN) + images * domain_images/* IMAGE_TOKENS */.dI;
}
/**
 * Cuts the largest tool results in `messages[from..]` (head and tail kept, with a note the model
 * reads) until the estimate has shed `overTokens`. Returns how many it cut; the tool_use pairing is
 * untouched. Only messages not yet sent may change: a thinking block is bound to everything sent
 * before it, so editing history the model has seen makes the API refuse the next request.
 */
function cutToolResults(messages, overTokens, from = 0) {
    let over = overTokens * CHARS_PER_TOKEN;
    let cut = 0;
    const results = messages
        .flatMap((m, i) => (i < from ? [] : m.content.map((b, j) => ({ b, i, j }))))
        .filter((x) => x.b.type === 'tool_result')
        .sort((a, b) => b.b.content.length - a.b.content.length);
    for (const { b, i, j } of results) {
        if (over <= 0)
            break;
        const keep = Math.max(400, b.content.length - over - 400);
        if (keep >= b.content.length)
            break;
        const text = keepEnds(b.content, keep, (removed) => `crew cut ${removed} characters of this tool result to keep the prompt within the context budget; ask for a smaller part, e.g. read_file with start_line and end_line`);
        const content = [...messages[i].content];
        content[j] = { ...b, content: text };
        messages[i] = { ...messages[i], content };
        over -= b.content.length - text.length;
        cut++;
    }
    return cut;
}
/**
 * The agent loop: ask the model, run the tools it calls, send the results back,
 * until a final tool succeeds or a limit is reached. Tool failures go back to the
 * model as errors it can read; they never end the job. The trajectory hears how it ended,
 * however it ended.
 */
async function runToolLoop(o) {
    try {
        const outcome = await loop(o);
        o.trajectory?.end({ stop: outcome.stop, ...(outcome.error ? { error: outcome.error } : {}) });
        return outcome;
    }
    catch (e) {
        o.trajectory?.end({ stop: 'error', error: e instanceof Error ? e.message : String(e) });
        throw e;
    }
}
async function loop(o) {
    return new ToolLoop(o).run();
}
/** One agent run's conversation and counts; `run` asks, runs tools and answers until the loop ends. */
class ToolLoop {
    o;
    summary = '';
    /** What the work has changed, when compacted (git diff --stat). */
    changes = '';
    /** The newest turns before the last compaction, as text: a fresh conversation cannot hold their tool calls. */
    lastStep = '';
    messages;
    /**
     * How many messages the model has seen in this conversation. The history is append-only: the
     * API binds each thinking block to everything before it (system, tools, earlier messages) and
     * refuses a request in which that changed. Only messages from here on may still be edited.
     */
    seen = 0;
    byName;
    toolCalls = {};
    promptTokens = [];
    usage = run_state/* ZERO_USAGE */.fI;
    nudged = false;
    compactions = 0;
    cutResults = 0;
    /** With `tellLimits`, a limit was reached: the next turn is the last, for the report only. */
    lastTurn;
    recent = [];
    repeats = new RepeatWatch();
    hasFinal;
    now;
    specs;
    turnsDone = 0;
    constructor(o) {
        this.o = o;
        this.messages = [this.opening()];
        this.byName = new Map(o.tools.map((t) => [t.spec.name, t]));
        this.hasFinal = o.tools.some((t) => t.final);
        this.now = o.limits?.now ?? Date.now;
        this.specs = o.tools.map((t) => t.spec);
    }
    async run() {
        const o = this.o;
        for (let turn = 1; turn <= o.maxTurns || (this.lastTurn !== undefined && turn === this.turnsDone + 1); turn++) {
            // Tool errors never get here: they went back to the model. This is the model API, compaction or `between`.
            let outcome;
            try {
                outcome = await this.step(turn);
            }
            catch (e) {
                // The job being cancelled is not an error, wherever the loop was (compaction's model call, `between`).
                if (e instanceof ports/* Interrupted */.j$ || o.signal?.aborted)
                    return this.done('interrupted', this.turnsDone);
                if (!o.recover)
                    throw e;
                return this.done('error', this.turnsDone, undefined, e instanceof Error ? e.message : String(e));
            }
            if (outcome)
                return outcome;
        }
        return this.done('max_turns', o.maxTurns);
    }
    opening() {
        const parts = [this.o.firstMessage];
        if (this.summary)
            parts.push(`## Your work so far (summarised)\n${this.summary}`);
        if (this.changes)
            parts.push(`## Files changed so far (git diff --stat)\n${this.changes}`);
        if (this.lastStep)
            parts.push(`## Your latest turns, word for word\n${this.lastStep}\n\nGo on from there.`);
        return { role: 'user', content: [...(this.o.images ?? []), { type: 'text', text: parts.join('\n\n') }] };
    }
    done(stop, turns, finalInput, error) {
        return {
            stop,
            turns,
            usage: this.usage,
            finalInput,
            toolCalls: this.toolCalls,
            messages: this.messages,
            promptTokens: this.promptTokens,
            compactions: this.compactions,
            cutResults: this.cutResults,
            ...(this.lastTurn && stop === 'final' ? { limit: this.lastTurn } : {}),
            ...(error ? { error } : {}),
        };
    }
    spent() {
        const limits = this.o.limits;
        return (limits?.tokens !== undefined && (0,run_state/* tokensOf */.k8)(this.usage) >= limits.tokens) || (limits?.costUsd !== undefined && this.usage.costUsd >= limits.costUsd);
    }
    limitsOf() {
        const limits = this.o.limits;
        return {
            ...(limits?.tokens !== undefined ? { tokens: limits.tokens } : {}),
            ...(limits?.costUsd !== undefined ? { costUsd: limits.costUsd } : {}),
        };
    }
    /**
     * After a turn: the limit reached, if any. With `tellLimits` and a final tool, the first time one is
     * reached the model is told and gets one more turn (undefined: go on); otherwise the loop ends.
     */
    limitReached(turn, notes) {
        const o = this.o;
        const kind = this.spent() ? 'budget' : turn >= o.maxTurns ? 'max_turns' : undefined;
        if (this.lastTurn)
            return this.done(this.lastTurn, turn);
        if (!kind) {
            if (o.tellLimits)
                notes.push(limitsNotice({ turn, maxTurns: o.maxTurns, usage: this.usage, ...this.limitsOf(), recent: this.recent.slice(-3) }));
            return undefined;
        }
        if (!o.tellLimits || !this.hasFinal)
            return kind === 'budget' ? this.done('budget', turn) : undefined;
        this.lastTurn = kind;
        notes.push(lastTurnNotice(kind));
        o.log.info(`${kind === 'budget' ? 'the budget is spent' : 'the turn limit is reached'} after turn ${turn}: one last turn to report`);
        o.trajectory?.note(turn, `${kind}: crew gave the model one last turn to report`);
        return undefined;
    }
    /** Adds text blocks to the newest user message, which the model has not seen yet. */
    appendNotes(notes) {
        if (!notes.length)
            return;
        const last = this.messages.at(-1);
        const blocks = notes.map((text) => ({ type: 'text', text }));
        if (last.role === 'user')
            this.messages[this.messages.length - 1] = { ...last, content: [...last.content, ...blocks] };
        else
            this.messages.push({ role: 'user', content: blocks });
    }
    /**
     * Starts a fresh conversation: an opening with the task, a summary of everything but the newest
     * exchanges, what the work changed (git diff --stat), and those exchanges word for word as text. No
     * thinking block is carried over (each is bound to the conversation that produced it); system and
     * tools stay the same, so their cache holds.
     */
    async compact(why) {
        const o = this.o;
        const messages = this.messages;
        // The newest exchanges that fit in a quarter of the budget, word for word (at least the newest call and
        // its results, their ends kept if they alone are too long).
        const room = Math.floor(o.compaction.budgetTokens * CHARS_PER_TOKEN * 0.25);
        let keep = Math.min(KEEP_MESSAGES, messages.length - 2);
        while (keep > 2 && (0,summarizer/* transcript */.f)(messages.slice(-keep), Infinity).length > room)
            keep = Math.max(2, keep - 2);
        const tail = messages.slice(-keep);
        this.changes =
            (await o.compaction.changes?.().catch((e) => `(crew could not read the changes: ${e instanceof Error ? e.message : String(e)})`)) ?? '';
        // The opening's latest turns are not in the summary yet: they go to the summarizer with the turns after them.
        const before = [
            ...(this.changes
                ? [{ role: 'user', content: [{ type: 'text', text: `(files changed so far, git diff --stat)\n${this.changes}` }] }]
                : []),
            ...(this.lastStep
                ? [{ role: 'user', content: [{ type: 'text', text: `(the latest turns before the previous summary)\n${this.lastStep}` }] }]
                : []),
        ];
        const startedAt = Date.now();
        const s = await o.compaction.summarize(this.summary, [...before, ...messages.slice(1, -keep)]);
        o.trajectory?.compaction(this.turnsDone, { startedAt, durationMs: Date.now() - startedAt, usage: s.usage, summary: s.summary });
        this.usage = (0,run_state/* addUsage */.vk)(this.usage, s.usage);
        this.summary = s.summary;
        const step = (0,summarizer/* transcript */.f)(tail, Infinity);
        this.lastStep = step.length <= room ? step : keepEnds(step, room - 100, (removed) => `crew cut ${removed} characters here`);
        this.messages = [this.opening()];
        this.seen = 0;
        this.compactions++;
        o.log.info(`compacted the conversation ${why}; it goes on as a fresh one`);
    }
    /**
     * A reply cut off mid-way: its tool calls may carry half their input (the SDK drops a field whose
     * JSON was not finished), so none runs. The API still wants a tool_result for each; each says
     * why, and how to fit. A full context window is compacted, or ends the loop when it cannot be.
     */
    async cutOff(turn, stop, uses) {
        const o = this.o;
        const record = o.trajectory;
        const room = o.maxTokens ?? DEFAULT_MAX_TOKENS;
        const why = stop === 'max_tokens'
            ? `Your last reply was cut off: it reached the output limit of ${room} tokens (max_tokens; thinking counts towards it) before it was complete.`
            : "Your last reply was cut off: the conversation reached the model's context window.";
        const parts = this.byName.has('edit_file') && this.byName.has('write_file')
            ? ' Write a large file in parts: write_file with the first part, then edit_file to add each next part after the last lines written. Change an existing file with edit_file instead of rewriting it.'
            : '';
        const advice = `Keep each reply, with each tool call's input, well under ${room} tokens.${parts} Think briefly.`;
        o.log.warn(`turn ${turn} was cut off (stop_reason ${stop}); ${uses.length ? `crew ran none of its ${uses.length} tool call(s) and told the model` : 'crew told the model'}`);
        for (const use of uses)
            this.toolCalls[use.name] = (this.toolCalls[use.name] ?? 0) + 1;
        const results = uses.map((use) => {
            const content = `crew did not run this ${use.name} call: its input may be incomplete. ${why} ${advice}`;
            record?.toolResult(turn, { use, content, isError: true, durationMs: 0 });
            return { type: 'tool_result', tool_use_id: use.id, is_error: true, content };
        });
        record?.note(turn, `cut off (stop_reason ${stop}): crew ran none of its tool calls and told the model`);
        record?.turnDone(turn);
        const note = { type: 'text', text: `${why} ${advice}` };
        const last = this.messages.at(-1);
        if (results.length)
            this.messages.push({ role: 'user', content: results });
        else if (last.role === 'user')
            this.messages[this.messages.length - 1] = { ...last, content: [...last.content, note] };
        else
            this.messages.push({ role: 'user', content: [note] });
        if (stop === 'model_context_window_exceeded') {
            if (!o.compaction || this.messages.length <= 3)
                throw new Error(`the conversation filled the model's context window at turn ${turn} (stop_reason model_context_window_exceeded), and there were no older turns to summarise`);
            await this.compact(`after turn ${turn} filled the context window`);
        }
        const notes = [];
        const ended = this.limitReached(turn, notes);
        this.appendNotes(notes);
        return ended;
    }
    /** Before a turn's request: teammates' notes, and the prompt kept within the context budget. */
    async beforeRequest(turn) {
        const o = this.o;
        if (o.between) {
            const b = await o.between(turn);
            if (b.stop)
                return this.done(b.stop, turn - 1);
            if (b.notes?.length) {
                const last = this.messages.at(-1);
                this.messages[this.messages.length - 1] = { ...last, content: [...last.content, ...b.notes.map((text) => ({ type: 'text', text }))] };
            }
        }
        if (o.compaction) {
            const limit = o.compaction.budgetTokens * SEND_LIMIT;
            const estimate = () => estimateTokens(o.system, this.specs, this.messages);
            if (estimate() > limit && this.messages.length > 3)
                await this.compact(`before turn ${turn} (about ${estimate()} tokens estimated)`);
            if (estimate() > limit) {
                const n = cutToolResults(this.messages, estimate() - limit, this.seen);
                this.cutResults += n;
                if (n)
                    o.trajectory?.note(turn - 1, `crew cut ${n} tool result(s) before turn ${turn} to stay within the context budget`);
                o.log.info(`cut ${n} tool result(s) before turn ${turn} to stay within the context budget`);
            }
        }
        return undefined;
    }
    /** One turn: the outcome when the loop ends with it, undefined to go on. */
    async step(turn) {
        const o = this.o;
        const record = o.trajectory;
        if (o.signal?.aborted)
            return this.done('interrupted', turn - 1);
        if (o.limits?.deadline !== undefined && this.now() >= o.limits.deadline)
            return this.done('wall_clock', turn - 1);
        const early = await this.beforeRequest(turn);
        if (early)
            return early;
        let reply;
        this.seen = this.messages.length;
        const askedAt = Date.now();
        try {
            reply = await o.model.complete({
                model: o.modelId,
                system: o.system,
                tools: this.specs,
                messages: this.messages,
                maxTokens: o.maxTokens ?? DEFAULT_MAX_TOKENS,
                ...(o.signal ? { signal: o.signal } : {}),
            });
        }
        catch (e) {
            if (e instanceof ports/* Interrupted */.j$)
                return this.done('interrupted', turn - 1);
            throw e;
        }
        this.turnsDone = turn;
        record?.reply(turn, { model: o.modelId, startedAt: askedAt, durationMs: Date.now() - askedAt, reply });
        this.usage = (0,run_state/* addUsage */.vk)(this.usage, reply.usage);
        this.recent.push({ tokens: (0,run_state/* tokensOf */.k8)(reply.usage), costUsd: reply.usage.costUsd });
        const sent = reply.usage.inputTokens + reply.usage.cacheReadTokens + reply.usage.cacheWriteTokens;
        this.promptTokens.push(sent);
        o.onTurn?.(turn, this.usage, sent);
        if (reply.stopReason === 'refusal')
            throw new Error(`the model refused to continue (stop_reason refusal) at turn ${turn}; crew ran none of the tool calls in that reply`);
        // Empty text blocks are rejected by the API if sent back.
        const content = reply.content.filter((b) => !(b.type === 'text' && b.text.trim() === ''));
        const uses = content.filter((b) => b.type === 'tool_use');
        if (reply.stopReason === 'pause_turn' && uses.length === 0 && content.length) {
            // The API paused a long turn; sending the reply back unchanged lets the model continue it.
            this.messages.push({ role: 'assistant', content: content });
            record?.turnDone(turn);
            return undefined;
        }
        if (reply.stopReason === 'max_tokens' || reply.stopReason === 'model_context_window_exceeded') {
            if (content.length)
                this.messages.push({ role: 'assistant', content: content });
            return this.cutOff(turn, reply.stopReason, uses);
        }
        if (content.length)
            this.messages.push({ role: 'assistant', content: content });
        if (uses.length === 0) {
            record?.turnDone(turn);
            if (this.lastTurn)
                return this.done(this.lastTurn, turn);
            if (!o.nudge || this.nudged || content.length === 0)
                return this.done('no_final', turn);
            this.nudged = true;
            this.messages.push({ role: 'user', content: [{ type: 'text', text: o.nudge }] });
            return undefined;
        }
        return this.answerCalls(turn, uses, sent);
    }
    /** Runs the tools a reply called, sends their results back, and sees whether a limit or a loop ends the run. */
    async answerCalls(turn, uses, sent) {
        const o = this.o;
        const record = o.trajectory;
        const ran = await this.runCalls(turn, uses);
        if (ran.interrupted)
            return this.done('interrupted', turn);
        const results = ran.results;
        this.messages.push({ role: 'user', content: results });
        record?.turnDone(turn);
        if (ran.finished)
            return this.done('final', turn, ran.finalInput);
        const notes = [];
        if (o.tellLimits) {
            for (const r of results) {
                const use = uses.find((u) => u.id === r.tool_use_id);
                const seen = this.repeats.record(use, r.content, r.is_error === true);
                if (seen?.act === 'stop') {
                    o.log.warn(`turn ${turn}: ${seen.text}; the attempt stops`);
                    record?.note(turn, `${seen.text}; crew stopped the attempt`);
                    return this.done('loop', turn, undefined, seen.text);
                }
                if (seen)
                    notes.push(seen.text);
            }
        }
        const ended = this.limitReached(turn, notes);
        this.appendNotes(notes);
        if (ended)
            return ended;
        if (o.compaction && sent > o.compaction.budgetTokens * COMPACT_AT && this.messages.length > 3)
            await this.compact(`after turn ${turn} (${sent} input tokens)`);
        return undefined;
    }
    /** Each call in turn: refused in the last turn or when unknown, else run; a thrown error goes back to the model. */
    async runCalls(turn, uses) {
        const o = this.o;
        const record = o.trajectory;
        const results = [];
        let finalInput;
        let finished = false;
        for (const use of uses) {
            if (o.signal?.aborted) {
                record?.turnDone(turn);
                return { results, finished, interrupted: true };
            }
            this.toolCalls[use.name] = (this.toolCalls[use.name] ?? 0) + 1;
            const tool = this.byName.get(use.name);
            const ranAt = Date.now();
            if (this.lastTurn && tool && !tool.final) {
                record?.toolResult(turn, { use, content: NOT_IN_LAST_TURN, isError: true, durationMs: 0 });
                results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: NOT_IN_LAST_TURN });
                continue;
            }
            if (!tool) {
                const why = o.refused?.[use.name] ?? `There is no tool named '${use.name}'. Available tools: ${[...this.byName.keys()].join(', ')}.`;
                // The name is the model's own (no such tool here): one line of it, like the reason.
                o.log.info(`tool ${logLine(use.name, 80)} refused: ${logLine(why)}`);
                record?.toolResult(turn, { use, content: why, isError: true, durationMs: 0 });
                results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: why });
                continue;
            }
            const facts = {};
            try {
                const text = (await tool.run(use.input, facts)) || '(no output)';
                record?.toolResult(turn, { use, content: text, isError: false, durationMs: Date.now() - ranAt, facts });
                results.push({ type: 'tool_result', tool_use_id: use.id, content: text });
                if (tool.final) {
                    finished = true;
                    finalInput = use.input;
                }
            }
            catch (e) {
                const message = e instanceof Error ? e.message : String(e);
                o.log.info(`tool ${use.name} failed: ${logLine(message)}`);
                record?.toolResult(turn, { use, content: message, isError: true, durationMs: Date.now() - ranAt, facts });
                results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: message });
            }
        }
        return { results, finished, ...(finished ? { finalInput } : {}) };
    }
}


/***/ }),

/***/ 8811:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Hn: () => (/* binding */ repositoryStop),
/* harmony export */   Mm: () => (/* binding */ ownBudgetStop),
/* harmony export */   OH: () => (/* binding */ askAtBudget),
/* harmony export */   Zf: () => (/* binding */ budgetStopBefore),
/* harmony export */   cg: () => (/* binding */ runStop),
/* harmony export */   eO: () => (/* binding */ periodStop),
/* harmony export */   j8: () => (/* binding */ stopStepAtBudget),
/* harmony export */   kQ: () => (/* binding */ stopRunAtBudget),
/* harmony export */   lB: () => (/* binding */ runStopRequest),
/* harmony export */   v7: () => (/* binding */ runWideStop)
/* harmony export */ });
/* unused harmony export replanJoiningStop */
/* harmony import */ var _domain_budgets__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(69158);
/* harmony import */ var _domain_labels__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(85745);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(65534);
/* harmony import */ var _render_budget_stop__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(35720);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(24742);
/* harmony import */ var _caps__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(75498);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(33732);
/* harmony import */ var _spend_gate__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(50746);








/**
 * The run's own budgets, when one is spent: `budgets.run` as this run stands (a person's `/crew continue`
 * may have raised it), then the task's `budgets.task` (what its current allowance of attempts spent).
 */
function ownBudgetStop(config, view, runSpent, task) {
    const budgets = (0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .runBudgets */ .Cc)(config.budgets, view.run);
    if ((0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .runBudgetSpent */ .X5)(budgets.run, runSpent))
        return runStop(budgets.run, runSpent);
    if (task && (0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .taskBudgetSpent */ .V3)(budgets.task, task.spent))
        return {
            kind: 'budget',
            limit: 'task',
            task: task.id,
            spentUsd: task.spent.costUsd,
            budgetUsd: budgets.task.cost_usd,
            tokens: { spent: task.spent.tokens, budget: budgets.task.tokens },
        };
    return undefined;
}
function periodStop(p) {
    return { kind: 'budget', limit: p.period, spentUsd: p.spentUsd, budgetUsd: p.budgetUsd, resetsAt: p.resetsAt };
}
/** `budgets.run` (as the run stands) spent: by a worker's attempt, or as the model met it in another step (agents/run-budget.ts). */
function runStop(budget, runSpent) {
    return {
        kind: 'budget',
        limit: 'run',
        spentUsd: runSpent.costUsd,
        budgetUsd: budget.cost_usd,
        tokens: { spent: (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .tokensOf */ .k8)(runSpent), budget: budget.tokens },
    };
}
const STEP = {
    planning: { phase: 'PLANNING', where: 'while planning', waits: 'in planning' },
    review: { phase: 'REVIEWING', where: 'in the critic', waits: "before the critic's verdict" },
    replan: { phase: 'EXECUTING', where: 'while re-planning', waits: 'before re-planning' },
    integration: { phase: 'INTEGRATING', where: 'in the resolver', waits: 'before the conflict is merged' },
};
/**
 * `budgets.run` reached while planning, re-planning, in the resolver or in the critic: the run waits and asks as at a
 * worker's budget end rather than failing. In one write: what the step's model calls cost (the call refused included
 * none), what `keep` keeps for the step's next try (planning: intake's reading, a person's `/crew revise` feedback;
 * re-planning: which tasks, with what feedback; the resolver: which merge), and the wait; then crew asks.
 * Re-planning that meets the budget while the run already waits at one (another task's) joins that wait: the question
 * is asked once. `/crew continue` goes back to the step (commands/continue.ts). Returns whether the run now waits.
 */
async function stopStepAtBudget(ctx, issue, run, at, e, keep) {
    const { files, ...kept } = keep ?? {};
    const stop = { ...runStop(e.budget, e.spent), at, ...kept, ...(at === 'planning' ? { intakeKept: !!files } : {}) };
    const { phase, where, waits } = STEP[at];
    const stopped = await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .updateRun */ .PF)(ctx, issue, run, `stopped at the run's budget ${where}`, (rec, tx) => {
        const usage = (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .addUsage */ .vk)(rec.usage, e.sinceStart);
        const joined = stop.replan && replanJoiningStop(rec, stop.replan);
        if (at === 'replan' && joined) {
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeRun */ .bp)(tx, { ...rec, usage, waiting: joined }, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx));
            return 'joined';
        }
        if (rec.phase !== phase || (at === 'replan' && rec.waiting))
            return false;
        files?.(tx);
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeRun */ .bp)(tx, { ...rec, usage, phase: 'ESCALATING', finalizer: null, waiting: { ...stop, commentId: 0 } }, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx));
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .refreshExecutionLog */ .qm)(tx, issue, run);
        return true;
    });
    if (stopped === 'joined') {
        ctx.log.info(`${(0,_render_budget_stop__WEBPACK_IMPORTED_MODULE_2__/* .budgetSpentText */ .tB)(stop)} ${where}; the run already waits at a budget, and going on re-plans these tasks too`);
        return true;
    }
    if (!stopped) {
        ctx.log.info(`run ${run} left ${phase}, or waits on another question, before its budget stop ${where} was recorded; nothing to ask`);
        return false;
    }
    ctx.log.info(`${(0,_render_budget_stop__WEBPACK_IMPORTED_MODULE_2__/* .budgetSpentText */ .tB)(stop)}; the run waits ${waits}`);
    await askAtBudget(ctx, issue, run);
    return true;
}
/**
 * Re-planning that meets `budgets.run` while the run already waits at a budget its tasks met (no other step's, no
 * re-planning of its own yet): the wait it joins, so that going on re-plans these tasks too. Otherwise none: a run
 * waiting on another question, or at another step, lets the failure stand.
 */
function replanJoiningStop(rec, replan) {
    const w = rec.waiting;
    if (rec.phase !== 'ESCALATING' || w?.kind !== 'budget' || w.at || w.replan)
        return undefined;
    return { ...w, replan };
}
/** The budget the run waits at, when it stopped at its own or the repository's (not a task's `budgets.task`). */
function runWideStop(rec) {
    const w = rec?.phase === 'ESCALATING' ? rec.waiting : undefined;
    if (w?.kind !== 'budget' || w.limit === 'task')
        return undefined;
    const { commentId: _, ...stop } = w;
    return stop;
}
/**
 * What a running worker finds in its inbox once the run stopped at its or the repository's budget: a shutdown
 * request, so it ends its attempt at the end of its turn instead of spending the rest of it; crew then holds
 * its task with its work pushed, as the task that met the budget (work.ts). Not stored: after `/crew continue`
 * the run no longer waits, and nothing stops the task again.
 */
function runStopRequest(rec, taskId) {
    const stop = runWideStop(rec);
    if (!stop || !rec)
        return undefined;
    return {
        id: `budget-stop-${rec.updatedAt}`,
        from: 'leader',
        to: taskId,
        type: 'shutdown_request',
        text: `The run stopped at a budget: ${(0,_render_budget_stop__WEBPACK_IMPORTED_MODULE_2__/* .budgetSpentText */ .tB)(stop)}. Stop now; your work so far is kept.`,
        at: rec.updatedAt,
    };
}
/** Before a step that spends (a worker's attempt): the run's and the task's budgets, then the repository's. */
async function budgetStopBefore(ctx, config, view, runSpent, task) {
    return ownBudgetStop(config, view, runSpent, task) ?? (await repositoryStop(ctx));
}
/** The repository's `budgets.day` / `budgets.month`, when reached (counting what this job spent that crew/state does not hold yet). */
async function repositoryStop(ctx, unrecordedUsd = 0) {
    const period = await (0,_spend_gate__WEBPACK_IMPORTED_MODULE_6__/* .repositoryBudgetReached */ .A6)(ctx, unrecordedUsd);
    return period ? periodStop(period) : undefined;
}
/**
 * Inside the write that holds a task: the run stops and waits at the budget (comment id 0 until
 * `askAtBudget` posts the question). A run already waiting (on this budget or another question) is
 * left as it is: the held task is pending, and starts again, or stops again, when the run goes on.
 * Returns whether the question is this job's to ask.
 */
function stopRunAtBudget(tx, issue, run, stop, now) {
    const view = (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .viewIn */ .zc)(tx, issue, run);
    if (view.run.phase !== 'EXECUTING' || view.run.waiting)
        return false;
    (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'ESCALATING', waiting: { ...stop, commentId: 0 } }, now);
    return true;
}
/** Posts the budget question a run records but has not asked yet, and labels the issue as waiting. */
async function askAtBudget(ctx, issue, run) {
    const view = await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .loadView */ .QJ)(ctx, issue, run);
    const w = view.run.waiting;
    if (view.run.phase !== 'ESCALATING' || w?.kind !== 'budget' || w.commentId !== 0)
        return;
    const s = ctx.surface;
    const body = (0,_render_budget_stop__WEBPACK_IMPORTED_MODULE_2__/* .budgetQuestion */ .SG)(view, w, s, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .planLinks */ .FR)(ctx).branch, s.marker('budget', { issue, run, nonce: (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nonce */ .KU)() }));
    await (0,_caps__WEBPACK_IMPORTED_MODULE_4__/* .spend */ .Rf)(ctx, issue, run, { comments: 1 });
    const posted = await ctx.forge.postComment(issue, body);
    await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .updateRun */ .PF)(ctx, issue, run, `asked at the budget`, (rec, tx) => {
        if (rec.waiting?.kind === 'budget' && rec.waiting.commentId === 0)
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeRun */ .bp)(tx, { ...rec, waiting: { ...rec.waiting, commentId: posted.id } }, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx));
    });
    await ctx.forge.addLabel(issue, _domain_labels__WEBPACK_IMPORTED_MODULE_7__/* .WAITING_LABEL */ .J);
    ctx.log.checkpoint('budget-asked');
    await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .syncPlanComment */ .Of)(ctx, issue, run);
}


/***/ })

};
