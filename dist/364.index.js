export const id = 364;
export const ids = [364];
export const modules = {

/***/ 41364:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   help: () => (/* binding */ help),
/* harmony export */   rememberCandidate: () => (/* binding */ rememberCandidate),
/* harmony export */   retro: () => (/* binding */ retro),
/* harmony export */   status: () => (/* binding */ status)
/* harmony export */ });
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(65534);
/* harmony import */ var _render_messages__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(93050);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(24742);
/* harmony import */ var _retrospect__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(12451);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(33732);
/* harmony import */ var _common__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(83405);
/* harmony import */ var _replies__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(67614);
/* harmony import */ var _domain_surface__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(45759);
/* harmony import */ var _render_cleanup__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(94420);
/* harmony import */ var _cleanup__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(42179);
/* harmony import */ var _spend_gate__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(50746);
/* harmony import */ var _render_spend__WEBPACK_IMPORTED_MODULE_11__ = __webpack_require__(86196);












/** `/crew status`, `/crew help`, `/crew retro` and `/crew remember`. */
/** `/crew retro`: a full retrospective of the newest finished run, posted again if there was one. */
async function retro(ctx, ev) {
    const issue = ev.issue.number;
    const last = await (0,_common__WEBPACK_IMPORTED_MODULE_5__/* .latestRun */ .hH)(ctx, issue);
    if (!last || !(0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .isTerminal */ .Hd)(last.phase)) {
        await ctx.forge.postComment(issue, last
            ? `Run ${ctx.surface.runNumber(issue, last.run)} is still ${last.phase.toLowerCase()}; \`/crew retro\` looks back at a finished run. Try again when it ends.`
            : `There is no run on this issue to look back at. ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_7__/* .sentence */ .em)(ctx.surface.give('run'))} first.`);
        return;
    }
    ctx.model(); // fails now, with a clear message, if no key was given
    await (0,_retrospect__WEBPACK_IMPORTED_MODULE_3__/* .retrospect */ .o)(ctx, issue, last.run, true);
}
/**
 * `/crew status`: the plan comment brought up to date (or a question that was never posted, asked
 * now), and, when there are any, the repository's `crew/` branches that belong to no open run, and
 * its spend today and this month against `budgets.day` and `budgets.month` (when one is set), in one comment.
 */
async function status(ctx, ev) {
    const issue = ev.issue.number;
    const last = await (0,_common__WEBPACK_IMPORTED_MODULE_5__/* .latestRun */ .hH)(ctx, issue);
    const said = [];
    if (!last)
        said.push(`There is no crew run on this issue yet. ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_7__/* .sentence */ .em)(ctx.surface.give('run'))} to start one.`);
    else if (!(await (0,_replies__WEBPACK_IMPORTED_MODULE_6__/* .askUnasked */ .lx)(ctx, last)))
        await (0,_context__WEBPACK_IMPORTED_MODULE_4__/* .syncPlanComment */ .Of)(ctx, issue, last.run);
    const strays = await (0,_cleanup__WEBPACK_IMPORTED_MODULE_9__.findStrayBranches)(ctx).catch((e) => {
        ctx.log.warn(`could not list crew's branches: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
    });
    if (strays?.length)
        said.push((0,_render_cleanup__WEBPACK_IMPORTED_MODULE_8__/* .strayBranchLines */ .F)(strays, 30, ctx.surface).join('\n'));
    // The spend is said where a budget is set, or where crew comments anyway; otherwise status only refreshes the plan comment.
    const spend = await (0,_spend_gate__WEBPACK_IMPORTED_MODULE_10__/* .repositorySpend */ .r0)(ctx).catch((e) => {
        ctx.log.warn(`could not sum the repository's spend: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
    });
    const budgeted = spend && (spend.day.budgetUsd !== undefined || spend.month.budgetUsd !== undefined);
    if (spend && (budgeted || said.length))
        said.push((0,_render_spend__WEBPACK_IMPORTED_MODULE_11__/* .spendComment */ .ig)(spend, ctx.surface));
    if (said.length)
        await ctx.forge.postComment(issue, said.join('\n\n'));
}
/** `/crew help`, and any word crew does not know. */
async function help(ctx, ev, unknownWord) {
    await ctx.forge.postComment(ev.issue.number, (0,_render_messages__WEBPACK_IMPORTED_MODULE_1__/* .helpComment */ .X2)(unknownWord));
}
/** `/crew remember <n>`: memory candidate n of the newest retrospective becomes a pull request to the knowledge base. */
async function rememberCandidate(ctx, ev, n) {
    const issue = ev.issue.number;
    const snap = await ctx.state.load(`issue-${issue}/`);
    const runs = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_2__/* .runNumbers */ .Sm)(snap, issue)
        .map((k) => (0,_context__WEBPACK_IMPORTED_MODULE_4__/* .recordIn */ .Rn)(snap, issue, k))
        .filter(Boolean);
    await ctx.forge.postComment(issue, await (0,_retrospect__WEBPACK_IMPORTED_MODULE_3__/* .remember */ .k)(ctx, issue, runs, n, ev.comment.author.login));
}


/***/ }),

/***/ 67614:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Xk: () => (/* binding */ askedJustNow),
/* harmony export */   lx: () => (/* binding */ askUnasked),
/* harmony export */   nt: () => (/* binding */ decisionReplyCounts),
/* harmony export */   uE: () => (/* binding */ trustedReply),
/* harmony export */   yc: () => (/* binding */ nothingToTake)
/* harmony export */ });
/* harmony import */ var _domain_refs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(92);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(65534);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(24742);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(33732);
/* harmony import */ var _leader__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(52814);
/* harmony import */ var _planning__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(73571);
/* harmony import */ var _budget_stop__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(8811);







// Whether a reply counts: written after crew asked, not edited since, and to a question crew did post.
/**
 * A reply to a question crew never posted (its job stopped in between) cannot count: crew
 * asks now, says so, and the reply must come after the question.
 */
async function askedJustNow(ctx, ev, last) {
    if (!(await askUnasked(ctx, last)))
        return false;
    await ctx.forge.postComment(ev.issue.number, `crew had not posted its ${last.waiting.kind === 'approval' ? `request to approve plan v${last.waiting.planVersion}` : 'question'} yet when that reply came, so the reply does not count. The ${last.waiting.kind === 'approval' ? 'request' : 'question'} is above now; reply to it.`);
    return true;
}
/** Whether a reply to crew's decision comment counts; when it does not, says why in a comment. */
async function decisionReplyCounts(ctx, ev, after) {
    const trust = await trustedReply(ctx, ev, after);
    if (trust === 'ok')
        return true;
    await ctx.forge.postComment(ev.issue.number, trust === 'stale'
        ? 'That reply was written before crew asked for a decision, so it does not count. Reply again below.'
        : 'That reply was edited after it was posted, so crew did not take it. Post it as a new comment.');
    return false;
}
/**
 * A reply counts only if it was written after the comment it answers and has not
 * been edited since: crew re-reads it rather than trusting the event alone.
 */
async function trustedReply(ctx, ev, after) {
    if (ev.comment.id <= after)
        return 'stale';
    const now = await ctx.forge.getComment(ev.comment.id);
    // The body, not updated_at: GitHub does not say whether crew's own 👀 reaction moves a comment's
    // updated_at, and if it did, every command crew reacted to would look edited. An edit that
    // matters changes the body from what the event carried.
    if (now.body !== ev.comment.body)
        return 'edited';
    return 'ok';
}
/**
 * A question crew recorded but never posted: the job stopped between writing the state
 * (waiting, comment id 0) and posting. Posts it now; a reply counts only after it.
 */
async function askUnasked(ctx, rec) {
    const w = rec.waiting;
    if (!w || w.commentId !== 0)
        return false;
    ctx.log.info(`run ${rec.run} waits on a ${w.kind} that was never posted; asking now`);
    if (w.kind === 'decision')
        await (0,_leader__WEBPACK_IMPORTED_MODULE_4__/* .askPerson */ .fe)(ctx, rec.issue, rec.run, w.task, w.question, w.topic === 'plan_review');
    else if (w.kind === 'approval') {
        const review = (await ctx.state.load(`${(0,_domain_refs__WEBPACK_IMPORTED_MODULE_0__/* .runFolder */ .kQ)(rec.issue, rec.run)}/`)).read(_state_run_files__WEBPACK_IMPORTED_MODULE_2__/* .paths */ .f0.review(rec.issue, rec.run)) ?? '';
        await (0,_planning__WEBPACK_IMPORTED_MODULE_5__.requestApproval)(ctx, rec.issue, rec.run, w.planVersion, w.reason === 'requested', review.split(/\n\n/).slice(2).join('\n\n').trim(), rec.estimate ?? null);
    }
    else if (w.kind === 'budget')
        await (0,_budget_stop__WEBPACK_IMPORTED_MODULE_6__/* .askAtBudget */ .OH)(ctx, rec.issue, rec.run);
    else
        return false;
    return true;
}
/** A reply from someone with write access in which everything is quoted (or hidden): crew says it took nothing. */
async function nothingToTake(ctx, ev) {
    await ctx.forge.postComment(ev.issue.number, `crew took nothing from that reply: all of it is quoted (lines starting with \`>\`) or hidden, and quoted text is someone else's words, not your answer. Write your answer outside the quote.`);
}


/***/ }),

/***/ 52814:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   GR: () => (/* binding */ settleInState),
/* harmony export */   Nd: () => (/* binding */ replanTasks),
/* harmony export */   Ub: () => (/* binding */ openQueuedQuestion),
/* harmony export */   fe: () => (/* binding */ askPerson),
/* harmony export */   nF: () => (/* binding */ followUp)
/* harmony export */ });
/* harmony import */ var _agents_decomposer__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(91565);
/* harmony import */ var _agents_plan_reviewer__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(87143);
/* harmony import */ var _domain_leader_policy__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(55394);
/* harmony import */ var _domain_plan_review__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(75674);
/* harmony import */ var _domain_refs__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(92);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(65534);
/* harmony import */ var _agents_run_budget__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(2909);
/* harmony import */ var _budget_stop__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(8811);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(24742);
/* harmony import */ var _state_transitions__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(82649);
/* harmony import */ var _text_sanitize__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(64212);
/* harmony import */ var _caps__WEBPACK_IMPORTED_MODULE_11__ = __webpack_require__(75498);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_12__ = __webpack_require__(33732);
/* harmony import */ var _domain_labels__WEBPACK_IMPORTED_MODULE_15__ = __webpack_require__(85745);
/* harmony import */ var _repo_map__WEBPACK_IMPORTED_MODULE_13__ = __webpack_require__(47389);
/* harmony import */ var _agent_instructions__WEBPACK_IMPORTED_MODULE_14__ = __webpack_require__(88098);
















const STRONGER = { haiku: 'sonnet', sonnet: 'opus', opus: 'opus' };
/**
 * Inside the state write that records a task's final result: the leader decides what
 * happens to a failure and applies the part that must be atomic with it (so a
 * dependent is never marked blocked for a task that is about to be retried or replanned).
 */
function settleInState(tx, issue, run, taskId, result, claim, limits) {
    const view = (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .viewIn */ .zc)(tx, issue, run);
    const rec = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .taskOf */ .Xb)(view, taskId);
    const task = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .planTask */ .PE)(view, taskId);
    if (result.status === 'success') {
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeRun */ .bp)(tx, { ...view.run, leader: (0,_domain_leader_policy__WEBPACK_IMPORTED_MODULE_2__/* .recordSuccess */ .B3)(view.run.leader) }, claim.at);
        return null;
    }
    const difficulty = result.feedback?.type === 'difficulty' ? result.feedback : undefined;
    const failed = {
        task: taskId,
        failures: rec.attempts,
        ...(difficulty ? { impediment: difficulty.impediment, ...(difficulty.conflicting?.length ? { conflicting: difficulty.conflicting } : {}) } : {}),
        signature: (0,_domain_leader_policy__WEBPACK_IMPORTED_MODULE_2__/* .failureSignature */ .vH)(result.reason ?? result.status),
    };
    const open = view.run.waiting !== null;
    const { decision, memory } = (0,_domain_leader_policy__WEBPACK_IMPORTED_MODULE_2__/* .decide */ .LD)(failed, view.run.leader, { userQuestionOpen: open, limits });
    let next = { ...view.run, leader: memory };
    if (decision.action === 'retry_stronger') {
        const tier = STRONGER[rec.tierOverride ?? task.tier];
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeTask */ .bN)(tx, issue, run, {
            ...rec,
            status: 'running',
            attempts: rec.attempts + 1,
            claim,
            finishedAt: null,
            startedAt: claim.at,
            tierOverride: tier,
            advice: [...rec.advice, decision.notes],
            spent: _domain_run_state__WEBPACK_IMPORTED_MODULE_5__/* .NOTHING_SPENT */ .zx,
        });
    }
    else if (decision.to === 'planner') {
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeTask */ .bN)(tx, issue, run, { ...rec, pendingReplan: true });
    }
    else if (decision.action === 'ask' || decision.action === 'review_plan') {
        next = {
            ...next,
            phase: 'ESCALATING',
            waiting: { kind: 'decision', commentId: 0, task: taskId, topic: decision.action === 'ask' ? decision.topic : 'plan_review', question: decision.question },
        };
    }
    else if (decision.action === 'give_up' && decision.reason !== _domain_leader_policy__WEBPACK_IMPORTED_MODULE_2__/* .NO_RULE */ .LT) {
        // Why crew stopped escalating (the loop detector, a limit reached) goes where the failure report reads it.
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeTask */ .bN)(tx, issue, run, {
            ...rec,
            error: `${result.reason ?? result.status}; crew stopped escalating it: ${decision.reason}`,
        });
    }
    else if (decision.action === 'queue') {
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeTask */ .bN)(tx, issue, run, { ...rec, queuedQuestion: { topic: decision.topic, question: decision.question } });
    }
    (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeRun */ .bp)(tx, next, claim.at);
    return decision;
}
/** The side of a decision that happens after the state is written: dispatches, model calls, comments. */
async function followUp(ctx, issue, run, decision) {
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
function openQueuedQuestion(tx, issue, run, now) {
    const view = (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .viewIn */ .zc)(tx, issue, run);
    const next = view.plan?.tasks.map((t) => view.tasks.get(t.id)).find((t) => t?.queuedQuestion);
    if (!next?.queuedQuestion || view.run.waiting)
        return null;
    const { topic, question } = next.queuedQuestion;
    (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeTask */ .bN)(tx, issue, run, { ...next, queuedQuestion: null });
    (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'ESCALATING', waiting: { kind: 'decision', commentId: 0, task: next.id, topic, question } }, now);
    return { task: next.id, question, planReview: topic === 'plan_review' };
}
async function askPerson(ctx, issue, run, task, question, planReview) {
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
        s.marker('decision', { issue, run, task, nonce: (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .nonce */ .KU)() }),
    ].join('\n');
    await (0,_caps__WEBPACK_IMPORTED_MODULE_11__/* .spend */ .Rf)(ctx, issue, run, { comments: 1 });
    const posted = await ctx.forge.postComment(issue, body);
    await (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .updateRun */ .PF)(ctx, issue, run, `asked about ${task}`, (rec, tx) => {
        if (rec.waiting?.kind === 'decision' && rec.waiting.task === task && rec.waiting.commentId === 0)
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeRun */ .bp)(tx, { ...rec, waiting: { ...rec.waiting, commentId: posted.id } }, (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .nowIso */ .kF)(ctx));
    });
    await ctx.forge.addLabel(issue, _domain_labels__WEBPACK_IMPORTED_MODULE_15__/* .WAITING_LABEL */ .J);
    ctx.log.checkpoint('decision-asked');
    await (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .syncPlanComment */ .Of)(ctx, issue, run);
}
/** Renumbers a replacement plan's tasks after the existing ones (t1…tN → tN+1…). */
function renumber(tasks, offset) {
    const map = new Map(tasks.map((t, i) => [t.id, `t${offset + i + 1}`]));
    return tasks.map((t) => ({ ...t, id: map.get(t.id), dependsOn: t.dependsOn.map((d) => map.get(d)) }));
}
/** The decomposer re-plans the failed tasks, and the plan rules and the plan reviewer check the replacement. */
async function proposeReplacement(ctx, view, request, taskIds, feedback) {
    const config = await ctx.config();
    const plan = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .planOf */ .XC)(view);
    const old = plan.tasks.filter((t) => taskIds.includes(t.id));
    const reasons = old.map((t) => `- ${t.id} ${t.title}: ${view.tasks.get(t.id)?.error ?? 'failed'}`).join('\n');
    let usage = _domain_run_state__WEBPACK_IMPORTED_MODULE_5__/* .ZERO_USAGE */ .fI;
    try {
        const modelId = config.models[config.default_model];
        const model = await (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .runModel */ .L4)(ctx, view, 'planner');
        // The map is ranked for the request and the tasks being replaced (#48).
        const replanFocus = `${request.title}\n${request.body}\n${plan.summary}\n${old.map((t) => `${t.title}\n${t.description}\n${t.files.join(' ')}`).join('\n')}`;
        const repoView = (0,_repo_map__WEBPACK_IMPORTED_MODULE_13__/* .readRepoView */ .wx)(ctx, replanFocus);
        const call = (agent, system) => ({
            model,
            modelId,
            system,
            log: ctx.log,
            trajectory: (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .agentRun */ .Vv)(ctx, { agent, model: modelId }),
        });
        const system = await (0,_agent_instructions__WEBPACK_IMPORTED_MODULE_14__/* .promptWithInstructions */ .U)(ctx, 'decomposer', (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_5__/* .reviewedSha */ .cK)(view.run));
        const input = {
            title: (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_10__/* .sanitize */ .a)(request.title, 300),
            body: (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_10__/* .sanitize */ .a)(request.body),
            task: plan.summary,
            criteria: plan.criteria,
            answers: '',
            eyes: (0,_repo_map__WEBPACK_IMPORTED_MODULE_13__/* .planningEyes */ .qd)(ctx, await repoView, replanFocus),
            maxTasks: Math.max(1, config.max_tasks - plan.tasks.length + taskIds.length),
            protectedPaths: config.protected_paths,
            revise: {
                plan: { ...plan, tasks: old },
                feedback: `These tasks failed and must be replaced by new tasks that do their work differently:\n${reasons}\n\n${feedback}\nPlan only the replacement tasks.`,
            },
        };
        const out = await (0,_agents_decomposer__WEBPACK_IMPORTED_MODULE_0__/* .decompose */ .o)(call('planner', system), input);
        usage = (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_5__/* .addUsage */ .vk)(usage, out.usage);
        const proposed = renumber(out.plan.tasks, plan.tasks.length);
        const findings = (0,_domain_plan_review__WEBPACK_IMPORTED_MODULE_3__/* .checkPlanRules */ .h)({ ...plan, tasks: proposed });
        if (findings.length)
            return { why: `the replacement failed the plan rules:\n${(0,_domain_plan_review__WEBPACK_IMPORTED_MODULE_3__/* .findingsText */ ._)(findings)}`, usage };
        const review = await (0,_agents_plan_reviewer__WEBPACK_IMPORTED_MODULE_1__/* .reviewPlan */ .c)(call('plan_reviewer', await (0,_agent_instructions__WEBPACK_IMPORTED_MODULE_14__/* .promptWithInstructions */ .U)(ctx, 'plan_reviewer', (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_5__/* .reviewedSha */ .cK)(view.run))), request, { ...plan, tasks: proposed }, (0,_repo_map__WEBPACK_IMPORTED_MODULE_13__/* .planningEyes */ .qd)(ctx, await repoView, replanFocus));
        usage = (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_5__/* .addUsage */ .vk)(usage, review.usage);
        if (review.verdict === 'PASS')
            return { replacement: proposed, why: '', usage };
        return { why: `the plan reviewer did not pass the replacement:\n${(0,_domain_plan_review__WEBPACK_IMPORTED_MODULE_3__/* .findingsText */ ._)(review.findings)}`, usage };
    }
    catch (e) {
        // At the budget, what the replies let through cost is on the error: the decomposer's, when the reviewer was refused.
        if (e instanceof _agents_run_budget__WEBPACK_IMPORTED_MODULE_6__/* .RunBudgetSpent */ .J)
            return { why: `re-planning stopped at the run's budget: ${e.message}`, usage: e.sinceStart, atBudget: e };
        return { why: `re-planning failed: ${e.message}`, usage };
    }
}
/**
 * The planner's escalation: the failed tasks are re-decomposed into new ones, which
 * the plan review checks like any plan, and take the old tasks' place in the DAG. If
 * the replacement cannot be made or is not passed, the failures stand, and the
 * answer says why so the failure comment can tell the maintainer. At `budgets.run` the
 * run waits and asks instead, the tasks still to be re-planned (#52, budget-stop.ts).
 */
async function replanTasks(ctx, issue, run, taskIds, feedback, opts = {}) {
    const config = await ctx.config();
    const prefix = `${(0,_domain_refs__WEBPACK_IMPORTED_MODULE_4__/* .runFolder */ .kQ)(issue, run)}/`;
    const snap = await ctx.state.load(prefix);
    const view = (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .viewIn */ .zc)(snap, issue, run);
    const old = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .planOf */ .XC)(view).tasks.filter((t) => taskIds.includes(t.id));
    const request = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .parseJson */ .qF)(snap, _state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .paths */ .f0.requestJson(issue, run));
    const { replacement, why, usage, atBudget } = await proposeReplacement(ctx, view, request, taskIds, feedback);
    if (atBudget && (await (0,_budget_stop__WEBPACK_IMPORTED_MODULE_7__/* .stopStepAtBudget */ .j8)(ctx, issue, run, 'replan', atBudget, { replan: { tasks: taskIds, feedback, endOfRun: !!opts.endOfRun } })))
        return { replaced: false, why, atBudget: true };
    // Each replacement task gets a branch of its own; parallel jobs may re-plan at once, so this counts in its own write.
    if (replacement)
        await (0,_caps__WEBPACK_IMPORTED_MODULE_11__/* .spend */ .Rf)(ctx, issue, run, { branches: replacement.length });
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .nowIso */ .kF)(ctx);
    const claim = (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .taskClaim */ .s1)(ctx, 'dispatch', now);
    const claimed = await (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .updateView */ .vl)(ctx, issue, run, `re-plan ${taskIds.join(', ')}`, (v, tx) => {
        const rec = { ...v.run, usage: (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_5__/* .addUsage */ .vk)(v.run.usage, usage), ...(opts.endOfRun ? { leader: { ...v.run.leader, replannedFailed: true } } : {}) };
        if (!replacement) {
            for (const id of taskIds)
                (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeTask */ .bN)(tx, issue, run, { ...(0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .taskOf */ .Xb)(v, id), pendingReplan: false });
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeRun */ .bp)(tx, rec, now);
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .refreshExecutionLog */ .qm)(tx, issue, run);
            return [];
        }
        const newIds = replacement.map((t) => t.id);
        // New tasks start where the old ones did; whatever depended on an old task now waits for its replacements.
        const inherited = [...new Set(old.flatMap((t) => t.dependsOn))].filter((d) => !taskIds.includes(d));
        const added = replacement.map((t) => ({ ...t, dependsOn: [...new Set([...t.dependsOn, ...inherited])] }));
        const kept = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .planOf */ .XC)(v).tasks.map((t) => ({ ...t, dependsOn: [...new Set(t.dependsOn.flatMap((d) => (taskIds.includes(d) ? newIds : [d])))] }));
        const next = { ...(0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .planOf */ .XC)(v), tasks: [...kept, ...added] };
        tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .paths */ .f0.planJson(issue, run), `${JSON.stringify(next, null, 2)}\n`);
        for (const t of added) {
            tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .paths */ .f0.taskMd(issue, run, t.id), `# ${t.id}: ${t.title}\n\n${t.description}\n\nReplaces ${taskIds.join(', ')}.\n`);
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeTask */ .bN)(tx, issue, run, (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_5__/* .newTaskRecord */ .r9)(t.id, ctx.branches.task(issue, run, t.id)));
        }
        for (const id of taskIds)
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeTask */ .bN)(tx, issue, run, { ...(0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .taskOf */ .Xb)(v, id), pendingReplan: false, replacedBy: newIds });
        // A question still open about another task stays open: the new tasks start once it is answered.
        const answered = rec.waiting?.kind === 'decision' && taskIds.includes(rec.waiting.task);
        const stillWaiting = rec.phase === 'ESCALATING' && !answered;
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_8__/* .writeRun */ .bp)(tx, {
            ...rec,
            planVersion: rec.planVersion + 1,
            phase: stillWaiting ? 'ESCALATING' : rec.phase === 'ESCALATING' || rec.phase === 'FAILED' ? 'EXECUTING' : rec.phase,
            waiting: stillWaiting ? rec.waiting : null,
            failure: null,
        }, now);
        return (0,_state_transitions__WEBPACK_IMPORTED_MODULE_9__/* .claimReadyTasks */ .M)(tx, issue, run, config.max_parallel, claim);
    });
    if (!replacement)
        ctx.log.warn(`leader: could not replace ${taskIds.join(', ')}: ${why}`);
    else
        ctx.log.info(`leader: replaced ${taskIds.join(', ')} with ${replacement.map((t) => t.id).join(', ')}`);
    if (claimed.length)
        await (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .dispatchTasks */ .Xy)(ctx, issue, run, claimed, claim);
    await (0,_context__WEBPACK_IMPORTED_MODULE_12__/* .syncPlanComment */ .Of)(ctx, issue, run);
    return replacement ? { replaced: true } : { replaced: false, why };
}


/***/ })

};
