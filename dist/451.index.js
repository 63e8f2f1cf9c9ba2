export const id = 451;
export const ids = [451];
export const modules = {

/***/ 76872:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   F: () => (/* binding */ KNOWLEDGE_TYPES)
/* harmony export */ });
/** The knowledge base's entries (endless8's knowledge types): what a run learned, for later workers. */
const KNOWLEDGE_TYPES = ['discovery', 'lesson', 'pattern', 'constraint', 'codebase'];


/***/ }),

/***/ 93581:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Sc: () => (/* binding */ parseKnowledge),
/* harmony export */   a7: () => (/* binding */ knowledgeLines),
/* harmony export */   jC: () => (/* binding */ KNOWLEDGE_PATH)
/* harmony export */ });
/* harmony import */ var _domain_knowledge__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(76872);
/**
 * The knowledge base: `.github/crew/knowledge.jsonl` on the default branch, one entry
 * a line (endless8's knowledge types). Workers read the newest entries at the start of
 * every task. A malformed line is skipped and reported, never fatal.
 */


const KNOWLEDGE_PATH = '.github/crew/knowledge.jsonl';
function parseKnowledge(text) {
    const entries = [];
    const problems = [];
    for (const [i, line] of (text ?? '').split('\n').entries()) {
        if (!line.trim())
            continue;
        try {
            const e = JSON.parse(line);
            if (!_domain_knowledge__WEBPACK_IMPORTED_MODULE_0__/* .KNOWLEDGE_TYPES */ .F.includes(e.type) || typeof e.content !== 'string' || !e.content.trim())
                throw new Error('needs a known type and a content string');
            entries.push({
                type: e.type,
                content: e.content,
                source: String(e.source ?? ''),
                confidence: Number(e.confidence ?? 0.5),
                created_at: String(e.created_at ?? ''),
            });
        }
        catch (err) {
            problems.push(`${KNOWLEDGE_PATH} line ${i + 1}: ${err.message}; skipped`);
        }
    }
    return { entries, problems };
}
/** The newest `limit` entries, as one line each for a prompt. */
function knowledgeLines(entries, limit) {
    return [...entries]
        .sort((a, b) => b.created_at.localeCompare(a.created_at))
        .slice(0, limit)
        .map((e) => `[${e.type}] ${e.content}`);
}


/***/ }),

/***/ 12451:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  k: () => (/* binding */ remember),
  o: () => (/* binding */ retrospect)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 4 modules
var schemas = __webpack_require__(41514);
// EXTERNAL MODULE: ./src/domain/knowledge.ts
var knowledge = __webpack_require__(76872);
// EXTERNAL MODULE: ./src/agents/submission.ts
var submission = __webpack_require__(22180);
;// CONCATENATED MODULE: ./src/agents/retrospector.ts



const Score = schemas/* int */.Whr().min(1).max(5);
const RetroSchema = schemas/* object */.Ikc({
    summary: schemas/* string */.YjP().trim().min(1),
    went_well: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    went_wrong: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    proposals: schemas/* array */.YOg(schemas/* object */.Ikc({
        kind: schemas/* enum */.k5n(['improvement', 'skill']),
        title: schemas/* string */.YjP().trim().min(1),
        body: schemas/* string */.YjP(),
        recurrence: Score,
        impact: Score,
        generality: Score,
        feasibility: Score,
    }))
        .default([]),
    memory_candidates: schemas/* array */.YOg(schemas/* object */.Ikc({
        type: schemas/* enum */.k5n(knowledge/* KNOWLEDGE_TYPES */.F),
        content: schemas/* string */.YjP().trim().min(1),
        confidence: schemas/* number */.aig().min(0).max(1),
    }))
        .max(5)
        .default([]),
});
const FOCUS = {
    full: 'Mode: full. Look for what to change: improvements to the process and at most a skill.',
    light: 'Mode: light. The run went well: propose only reusable skills.',
};
/** The model half of the retrospective: what went well and wrong, scored proposals, and memory candidates. */
async function runRetrospector(model, input, log, trajectory) {
    const { value, usage } = await (0,submission/* askForSubmission */.dA)({
        model,
        modelId: input.modelId,
        system: input.system,
        firstMessage: [FOCUS[input.mode], '', input.facts].join('\n'),
        log,
        trajectory,
        tool: { name: 'submit_retrospective', description: 'Submit the retrospective of the run: summary, proposals and memory candidates.', schema: RetroSchema },
    });
    return {
        summary: value.summary,
        wentWell: value.went_well,
        wentWrong: value.went_wrong,
        proposals: value.proposals,
        memory: value.memory_candidates,
        usage,
    };
}

// EXTERNAL MODULE: ./src/domain/judgment.ts
var judgment = __webpack_require__(7882);
// EXTERNAL MODULE: ./src/domain/refs.ts
var refs = __webpack_require__(92);
// EXTERNAL MODULE: ./src/text/markdown.ts
var markdown = __webpack_require__(86590);
// EXTERNAL MODULE: ./src/text/inert.ts
var inert = __webpack_require__(68983);
;// CONCATENATED MODULE: ./src/domain/retrospective.ts


/** Full when something went wrong (or a person asked with `/crew retro`); light after a clean run. */
function retroMode(o, forced) {
    if (forced)
        return 'full';
    if (o.status === 'failure' || o.status === 'partial')
        return 'full';
    if (o.quality === 'RED')
        return 'full';
    if (o.quality === 'YELLOW' && o.completeness < 80)
        return 'full';
    if (o.failedTasks.length > 0)
        return 'full';
    return 'light';
}
/** Below this a proposal is discarded; between it and the threshold, held. */
const HOLD_FLOOR = 2.5;
/** recurrence 30%, impact 30%, generality 20%, feasibility 20%, to two decimals. */
function proposalScore(p) {
    // Weights in hundredths, so integer scores give an exact result with no float noise.
    return Math.round(p.recurrence * 30 + p.impact * 30 + p.generality * 20 + p.feasibility * 20) / 100;
}
function classify(score, threshold) {
    if (score >= threshold)
        return 'adopt';
    if (score >= HOLD_FLOOR)
        return 'hold';
    return 'discard';
}
/**
 * Scores and sorts the proposals, then applies the caps to the adopted ones: a
 * proposal that scores high enough but is over its cap (or an improvement in light
 * mode) is held, not discarded. Each list is sorted by score, highest first.
 */
function selectProposals(proposals, mode, caps, threshold) {
    const limits = mode === 'full' ? { improvement: caps.full.max_improvements, skill: caps.full.max_skills } : { improvement: 0, skill: caps.light.max_skills };
    const taken = { improvement: 0, skill: 0 };
    const out = { adopted: [], held: [], discarded: [] };
    const scored = proposals.map((p) => ({ ...p, score: proposalScore(p) })).sort((a, b) => b.score - a.score);
    for (const p of scored) {
        const decision = classify(p.score, threshold);
        if (decision === 'adopt' && taken[p.kind] < limits[p.kind]) {
            taken[p.kind]++;
            out.adopted.push({ ...p, decision });
        }
        else if (decision === 'discard')
            out.discarded.push({ ...p, decision });
        else
            out.held.push({ ...p, decision: 'hold' });
    }
    return out;
}
const MAX_KNOWLEDGE_CHARS = 500;
/** One line of text, at most 500 characters, as a knowledge entry stores it. */
function knowledgeContent(text) {
    return text
        .trim()
        .replace(/\s*[\r\n]+\s*/g, ' ')
        .slice(0, MAX_KNOWLEDGE_CHARS)
        .trimEnd();
}
const clampConfidence = (c) => (Number.isFinite(c) ? Math.max(0, Math.min(1, c)) : 0);
function knowledgeEntry(c, source, createdAt) {
    return { type: c.type, content: knowledgeContent(c.content), source, confidence: clampConfidence(c.confidence), created_at: createdAt };
}
function retroMarker(issue, run) {
    return (0,markdown/* hiddenMarker */.z0)('retro', { issue, run });
}
/** Kept well under GitHub's 65,536-character limit for a comment. */
const RETRO_LIMIT = 60_000;
const MAX_ITEMS = 20;
const oneLine = (text) => text.trim().replace(/\s*[\r\n]+\s*/g, ' ');
// Model text, cut, then made inert: no mention, image, markup (an HTML comment could pass for crew's marker) or closing keyword.
const clip = (text, max) => {
    const t = text.trim();
    return (0,inert/* inert */.tJ)(t.length > max ? `${t.slice(0, max - 1)}…` : t);
};
const list = (heading, items) => {
    const kept = items.map(oneLine).filter(Boolean);
    if (!kept.length)
        return [];
    const extra = kept.length - MAX_ITEMS;
    return [`### ${heading}`, ...kept.slice(0, MAX_ITEMS).map((i) => `- ${clip(i, 500)}`), ...(extra > 0 ? [`- …and ${extra} more`] : []), ''];
};
const row = (p) => `| ${p.decision === 'adopt' ? '✅ adopt' : '⏸ hold'} | ${p.kind} | **${clip((0,markdown/* cell */.Hn)(p.title), 200)}**: ${clip((0,markdown/* cell */.Hn)(p.body), 800)} | ${p.score.toFixed(2)} |`;
function body(r, ctx) {
    const listed = [...r.adopted, ...r.held];
    const shown = listed.slice(0, MAX_ITEMS);
    const lines = [
        `## crew retrospective · run ${ctx.run} (${r.mode})`,
        '',
        clip(r.summary, 4000),
        '',
        ...list('What went well', r.wentWell),
        ...list('What went wrong', r.wentWrong),
    ];
    if (listed.length || r.discarded.length) {
        lines.push('### Proposals', '');
        if (shown.length)
            lines.push('| Decision | Kind | Proposal | Score |', '|---|---|---|---|', ...shown.map(row), '');
        if (listed.length > shown.length)
            lines.push(`…and ${listed.length - shown.length} more held.`, '');
        const n = r.discarded.length;
        if (n)
            lines.push(`${n}${shown.length ? ' other' : ''} proposal${n === 1 ? '' : 's'} scored too low and ${n === 1 ? 'was' : 'were'} discarded.`, '');
    }
    if (r.memory.length) {
        lines.push('### Memory candidates', '', ...r.memory.map((m, i) => `${i + 1}. [${m.type}] ${clip(knowledgeContent(m.content), MAX_KNOWLEDGE_CHARS)} (confidence ${Number(clampConfidence(m.confidence).toFixed(2))})`), '', 'A maintainer can comment `/crew remember <n>` to add one to `.github/crew/knowledge.jsonl` through a small pull request.');
    }
    const text = lines.join('\n').trimEnd();
    if (text.length <= RETRO_LIMIT)
        return text;
    const note = '\n\n…the rest is cut to fit a comment.';
    const room = RETRO_LIMIT - note.length - 100;
    const cut = text.lastIndexOf('\n', room);
    return `${text.slice(0, cut > 0 ? cut : room)}${note}`;
}
/** The PR comment: a hidden marker first, so crew can find and update it. */
function renderRetrospective(r, ctx) {
    return `${retroMarker(ctx.issue, ctx.run)}\n${body(r, ctx)}`;
}
/** The state file retrospective.md. */
function renderRetrospectiveMd(r, ctx) {
    return `${body(r, ctx)}\n`;
}

// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/state/knowledge.ts
var state_knowledge = __webpack_require__(93581);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
// EXTERNAL MODULE: ./src/steps/caps.ts
var caps = __webpack_require__(75498);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/agents/run-budget.ts
var run_budget = __webpack_require__(2909);
// EXTERNAL MODULE: ./src/steps/budget-stop.ts
var budget_stop = __webpack_require__(8811);
// EXTERNAL MODULE: ./src/render/budget-stop.ts
var render_budget_stop = __webpack_require__(35720);
// EXTERNAL MODULE: ./src/domain/surface.ts
var surface = __webpack_require__(45759);
// EXTERNAL MODULE: ./src/render/cost.ts
var cost = __webpack_require__(25659);
;// CONCATENATED MODULE: ./src/steps/retrospect.ts



















/** What the retrospector reads: the run as crew recorded it, as data. */
function facts(view, judgments) {
    const plan = view.plan;
    const total = (0,run_state/* totalUsage */.GG)(view);
    const lines = [
        `## Request: ${(0,sanitize/* sanitize */.a)(view.run.title, 300)}`,
        plan ? (0,sanitize/* sanitize */.a)(plan.summary, 2000) : '(no plan)',
        '',
        '## Tasks',
        ...(plan?.tasks ?? []).map((t) => {
            const r = view.tasks.get(t.id);
            return `- ${t.id} ${(0,sanitize/* sanitize */.a)(t.title, 200)} (${t.persona}, ${t.tier}): ${r?.status ?? 'pending'}, ${r?.attempts ?? 0} attempt(s), ${r?.turns ?? 0} turns${r?.error ? `; error: ${(0,sanitize/* sanitize */.a)(r.error, 400)}` : ''}${r?.summary ? `; reported: ${(0,sanitize/* sanitize */.a)(r.summary.split('\n')[0], 300)}` : ''}`;
        }),
        '',
        '## Critic judgments',
        ...(judgments.length
            ? judgments.map((j) => `- iteration ${j.iteration}: ${j.verdict}${(0,judgment/* failingEvaluations */.Wx)(j).length
                ? `; not met: ${(0,judgment/* failingEvaluations */.Wx)(j)
                    .map((e) => `${e.criterion} (${(0,sanitize/* sanitize */.a)(e.evidence[0] ?? e.error ?? '', 200)})`)
                    .join('; ')}`
                : ''}${j.adversarial.length ? `; findings: ${j.adversarial.map((f) => f.rule).join(', ')}` : ''}`)
            : ['(the critic did not judge this run)']),
        '',
        `## Outcome: phase ${view.run.phase}${view.run.failure ? `, failed in ${view.run.failure.step}: ${(0,sanitize/* sanitize */.a)(view.run.failure.message, 400)}` : ''}${view.run.review?.acceptedBy ? `, accepted by a maintainer despite a FAIL` : ''}`,
        `Usage: ${total.inputTokens} input tokens (${total.cacheReadTokens} from cache), ${total.outputTokens} output, about $${total.costUsd.toFixed(2)}`,
    ];
    return lines.join('\n');
}
async function judgmentsOf(ctx, view) {
    const n = view.run.review?.iteration ?? 0;
    if (!n)
        return [];
    const snap = await ctx.state.load(`${(0,refs/* runFolder */.kQ)(view.run.issue, view.run.run)}/`, context/* SEEN */.GL);
    return Array.from({ length: n }, (_, i) => (0,run_files/* parseJson */.qF)(snap, run_files/* paths */.f0.judgment(view.run.issue, view.run.run, i + 1))).filter((j) => !!j);
}
/**
 * Phase 4: the retrospective. Full after a failure, a partial result or a weak one (or on
 * `/crew retro`), light otherwise. Posted on the PR (the issue when there is none), linked
 * from the plan comment, and kept as retrospective.md and .json on the state branch.
 * `replace`: the note of a retrospective skipped at the budget, which this one takes the place of.
 */
async function retrospect(ctx, issue, run, forced, replace) {
    const config = await ctx.config();
    if (!config.retrospect.enabled && !forced)
        return ctx.log.info('retrospect.enabled is off; no retrospective');
    // After the run's last write in this job, that write's tip; a `/crew retro` job's first read asks GitHub.
    const view = await (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL);
    // A repeat of the finishing job does not write a second one; `/crew retro` always does, and so
    // does a run that ended again differently (failed, then retried to completion): it is replaced in place.
    if (view.run.retro && view.run.retro.phase === view.run.phase && !forced)
        return ctx.log.info('the retrospective of this run is already posted');
    if (view.run.retroAtBudget?.phase === view.run.phase && !forced && replace === undefined)
        return ctx.log.info("the retrospective of this run was skipped at the run's budget already");
    // A note left where a retrospective skipped at the budget would have been: this one (or the next note) takes its place,
    // unless the run has ended differently since (the note may be on the issue, the run now on its pull request).
    const note = replace ?? (view.run.retroAtBudget?.phase === view.run.phase ? view.run.retroAtBudget.commentId : undefined);
    const judgments = await judgmentsOf(ctx, view);
    const outcome = (0,judgment/* runOutcome */.CL)(view, judgments.at(-1) ?? null, !!view.run.review?.acceptedBy);
    const mode = retroMode(outcome, forced);
    const target = view.run.pr?.number ?? issue;
    const startedAt = (0,context/* nowIso */.kF)(ctx);
    let out;
    try {
        out = await runRetrospector(await (0,context/* runModel */.L4)(ctx, view, 'retrospector'), { modelId: config.models[config.retrospect.model], system: await ctx.template('retrospector'), mode, facts: facts(view, judgments) }, ctx.log, (0,context/* agentRun */.Vv)(ctx, { agent: 'retrospector', model: config.models[config.retrospect.model] }));
    }
    catch (e) {
        if (e instanceof run_budget/* RunBudgetSpent */.J)
            return skipAtBudget(ctx, view, target, e, forced, note);
        ctx.log.warn(`retrospective: the model failed: ${e.message}`);
        const again = ctx.surface.give('retro');
        await ctx.forge.postComment(target, `crew could not write the retrospective of run ${ctx.surface.runNumber(issue, run)}: ${(0,sanitize/* sanitize */.a)(e.message, 500)}. The run itself is not affected.${again ? ` ${(0,surface/* sentence */.em)(again)} on #${issue} to try again.` : ''}`);
        return;
    }
    const chosen = selectProposals(out.proposals, mode, { full: config.retrospect.full_mode, light: config.retrospect.light_mode }, config.retrospect.filter_threshold);
    const retro = { mode, summary: out.summary, wentWell: out.wentWell, wentWrong: out.wentWrong, ...chosen, memory: out.memory, at: (0,context/* nowIso */.kF)(ctx) };
    // What the run cost beside its estimate, as recorded before the retrospector's own use.
    const body = `${renderRetrospective(retro, { issue, run })}\n\n${(0,cost/* runCostLine */.pM)(view)}`;
    // Found by the id crew stored, never by listing comments (issues can have thousands).
    // A run that ended differently since (failed, then finished) gets a new one where it now ends (its PR).
    const existing = note ?? (forced || view.run.retro?.phase === view.run.phase ? view.run.retro?.commentId : undefined);
    const ref = await placeComment(ctx, view, target, body, existing, forced);
    const finished = (0,context/* nowIso */.kF)(ctx);
    // The plan comment's link to it is edited in before the write: a write that lands on the state this job
    // last saw needs no check after it, which spares the finishing job its last look at the state (#31 §4).
    await ctx.planComment.updateShownFirst(await (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL), `${mode} retrospective`, (rec) => {
        const logged = (0,run_state/* logPhase */.MH)(rec, 'retrospector', {
            model: config.retrospect.model,
            started: startedAt,
            finished,
            status: 'success',
            retries: 0,
            error: null,
        });
        return { ...logged, usage: (0,run_state/* addUsage */.vk)(rec.usage, out.usage), retro: { commentId: ref.id, url: ref.url, mode, phase: rec.phase }, retroAtBudget: undefined };
    }, undefined, (tx) => {
        tx.write(run_files/* paths */.f0.retrospective(issue, run), renderRetrospectiveMd(retro, { issue, run }));
        tx.write(run_files/* paths */.f0.retrospectiveJson(issue, run), `${JSON.stringify(retro, null, 2)}\n`);
        (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
    });
    ctx.log.info(`retrospective (${mode}): ${chosen.adopted.length} adopted, ${chosen.held.length} held, ${chosen.discarded.length} discarded, ${out.memory.length} memory candidate(s)`);
}
/** The retrospective (or the note in its place) edited into `existing`, or posted on `target`. */
async function placeComment(ctx, view, target, body, existing, forced) {
    if (existing) {
        await ctx.forge.updateComment(existing, body);
        return { id: existing, url: ctx.forge.commentLink(target, existing) };
    }
    // After finishing, the retrospective was counted with the pull request; `/crew retro` counts its own.
    if (forced)
        await (0,caps/* spend */.Rf)(ctx, view.run.issue, view.run.run, { comments: 1 });
    return ctx.forge.postComment(target, body);
}
/**
 * `budgets.run` was spent when the retrospective came (#52). The run has ended (its pull request is open, or it
 * failed) and the retrospective changes nothing in it, so nothing is held and no question waits: the retrospective is
 * skipped, with a note where it would have been that says the budget was reached (not a failure), and
 * `/crew continue [$N]` on the issue writes it in the note's place (commands/continue.ts).
 */
async function skipAtBudget(ctx, view, target, e, forced, replace) {
    const { issue, run } = view.run;
    const s = ctx.surface;
    ctx.log.info(`retrospective: skipped, ${(0,render_budget_stop/* budgetSpentText */.tB)((0,budget_stop/* runStop */.cg)(e.budget, e.spent))}`);
    const body = [
        `${s.bold('No retrospective')} of run ${s.runNumber(issue, run)} yet: ${(0,render_budget_stop/* budgetSpentText */.tB)((0,budget_stop/* runStop */.cg)(e.budget, e.spent))}, and writing it would spend more.`,
        `This is not a failure: the run itself is not affected${view.run.pr ? ', and its pull request stands as it is' : ''}.`,
        // At the terminal `continue` is an answer while a run waits, and this run no longer does: nothing to offer there.
        ...(s.name === 'github'
            ? [
                `${(0,surface/* sentence */.em)(s.give('continue'))}${target === issue ? '' : ` on #${issue}`} to write it here, with another \`budgets.run\` to spend from what the run spent (${s.command('continue', '$N')}: $N more). Nothing else waits for it.`,
            ]
            : []),
    ].join(' ');
    const ref = await placeComment(ctx, view, target, body, replace, forced);
    await (0,context/* updateRun */.PF)(ctx, issue, run, 'retrospective skipped at the budget', (rec, tx) => {
        const note = { commentId: ref.id, url: ref.url, phase: rec.phase, ...(forced ? { forced } : {}) };
        (0,run_files/* writeRun */.bp)(tx, { ...rec, usage: (0,run_state/* addUsage */.vk)(rec.usage, e.sinceStart), retroAtBudget: note }, (0,context/* nowIso */.kF)(ctx));
    });
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
/**
 * `/crew remember <n>`: memory candidate n of the newest retrospective on this issue goes into
 * the knowledge base, through a small pull request from a crew/ branch (crew never pushes to
 * the default branch). Workers read the knowledge base once it is merged.
 */
async function remember(ctx, issue, runs, n, by) {
    for (const rec of [...runs].sort((a, b) => b.run - a.run)) {
        const snap = await ctx.state.load(`${(0,refs/* runFolder */.kQ)(issue, rec.run)}/`);
        const retro = (0,run_files/* parseJson */.qF)(snap, run_files/* paths */.f0.retrospectiveJson(issue, rec.run));
        if (!retro)
            continue;
        const candidate = retro.memory[n - 1];
        if (!candidate)
            return `The retrospective of run ${rec.run} has ${retro.memory.length} memory candidate${retro.memory.length === 1 ? '' : 's'}, so there is no number ${n}.`;
        const entry = knowledgeEntry(candidate, `issue #${issue} run ${rec.run} retrospective, remembered by @${by}`, (0,context/* nowIso */.kF)(ctx));
        const branch = ctx.branches.memory(issue, rec.run, n);
        const base = await ctx.forge.defaultBranch();
        const open = await ctx.forge.findOpenPull(branch, base);
        if (open)
            return `Memory ${n} of run ${rec.run} is already proposed in ${open.url}.`;
        await ctx.remote.fetch([base]);
        await ctx.repo.checkoutNew(branch, ctx.remote.tracking(base));
        const current = (await ctx.repo.readFileAt(ctx.remote.tracking(base), state_knowledge/* KNOWLEDGE_PATH */.jC)) ?? '';
        await (0,promises_.mkdir)((0,external_node_path_.dirname)((0,external_node_path_.join)(ctx.repo.dir, state_knowledge/* KNOWLEDGE_PATH */.jC)), { recursive: true });
        await (0,promises_.writeFile)((0,external_node_path_.join)(ctx.repo.dir, state_knowledge/* KNOWLEDGE_PATH */.jC), `${current}${current && !current.endsWith('\n') ? '\n' : ''}${JSON.stringify(entry)}\n`);
        await ctx.repo.commitAll(`crew: remember a ${entry.type} from issue #${issue} run ${rec.run}`);
        // A branch left by an earlier proposal whose PR was closed is replaced, never force-pushed blindly.
        const stale = await ctx.remote.head(branch);
        await (0,caps/* spend */.Rf)(ctx, issue, rec.run, { pull_requests: 1, branches: stale ? 0 : 1 });
        if (stale)
            await ctx.remote.pushReplacing(branch, stale);
        else
            await ctx.remote.push(branch);
        const pr = await ctx.forge.createPull({
            title: `crew: remember "${entry.content.slice(0, 60)}${entry.content.length > 60 ? '…' : ''}"`,
            head: branch,
            base,
            body: (0,inert/* inert */.tJ)([
                `Adds one entry to \`${state_knowledge/* KNOWLEDGE_PATH */.jC}\`, from the retrospective of run ${rec.run} of #${issue} (memory candidate ${n}, asked for by @${by}). Workers read the knowledge base at the start of every task once this is merged.`,
                '',
                (0,markdown/* fence */.EU)(JSON.stringify(entry, null, 2), 'json'),
            ].join('\n')),
        });
        return `Opened ${pr.url} to add memory ${n} to the knowledge base. Workers read it from the first run after it is merged.`;
    }
    return 'No run on this issue has a retrospective yet, so there is nothing to remember. Memory candidates are listed in a retrospective; `/crew retro` writes one.';
}


/***/ })

};
