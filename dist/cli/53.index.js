export const id = 53;
export const ids = [53];
export const modules = {

/***/ 35053:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   acceptAtBudget: () => (/* binding */ acceptAtBudget),
/* harmony export */   continueRun: () => (/* binding */ continueRun),
/* harmony export */   heldByRepositoryBudget: () => (/* binding */ heldByRepositoryBudget)
/* harmony export */ });
/* harmony import */ var _domain_budgets__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(69158);
/* harmony import */ var _domain_labels__WEBPACK_IMPORTED_MODULE_15__ = __webpack_require__(85745);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(65534);
/* harmony import */ var _render_cost__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(25659);
/* harmony import */ var _render_budget_stop__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(35720);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(24742);
/* harmony import */ var _state_transitions__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(82649);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(33732);
/* harmony import */ var _budget_stop__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(8811);
/* harmony import */ var _spend_gate__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(50746);
/* harmony import */ var _common__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(83405);
/* harmony import */ var _plan_run__WEBPACK_IMPORTED_MODULE_16__ = __webpack_require__(60016);
/* harmony import */ var _leader__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(52814);
/* harmony import */ var _advance__WEBPACK_IMPORTED_MODULE_11__ = __webpack_require__(8090);
/* harmony import */ var _retrospect__WEBPACK_IMPORTED_MODULE_12__ = __webpack_require__(82387);
/* harmony import */ var _replies__WEBPACK_IMPORTED_MODULE_13__ = __webpack_require__(67614);
/* harmony import */ var _domain_surface__WEBPACK_IMPORTED_MODULE_14__ = __webpack_require__(45759);

















/**
 * `/crew continue [$N]`: the step the budget stopped goes on: the tasks from their branches, planning, re-planning,
 * the resolver's merge or the critic; after a run ended, the retrospective it skipped.
 */
async function continueRun(ctx, ev, amountUsd) {
    const issue = ev.issue.number;
    const last = await (0,_common__WEBPACK_IMPORTED_MODULE_9__/* .latestRun */ .hH)(ctx, issue);
    if (last?.retroAtBudget && (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .isTerminal */ .Hd)(last.phase))
        return continueRetrospective(ctx, ev, last, amountUsd);
    if (last?.phase !== 'ESCALATING' || last.waiting?.kind !== 'budget') {
        await ctx.forge.postComment(issue, `There is no run stopped at a budget on this issue, so there is nothing to continue${last ? ` (run ${ctx.surface.runNumber(issue, last.run)} is ${last.phase.toLowerCase()})` : ''}. ${ctx.surface.command('resume')} carries on an interrupted run.`);
        return;
    }
    if (await (0,_replies__WEBPACK_IMPORTED_MODULE_13__/* .askedJustNow */ .Xk)(ctx, ev, last))
        return;
    const waiting = last.waiting;
    if (!(await (0,_replies__WEBPACK_IMPORTED_MODULE_13__/* .decisionReplyCounts */ .nt)(ctx, ev, waiting.commentId)))
        return;
    // A repository budget still reached: the run keeps waiting, as a new run would be refused.
    if (await heldByRepositoryBudget(ctx, issue, last.run, 'continue'))
        return;
    const run = last.run;
    const config = await ctx.config();
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx);
    const out = await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .updateView */ .vl)(ctx, issue, run, `continue after the budget (@${ev.comment.author.login})`, (view, tx) => {
        if (view.run.waiting?.kind !== 'budget' || view.run.waiting.commentId !== waiting.commentId)
            return null;
        const spent = (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .totalUsage */ .GG)(view);
        // A new limit when one is given or the run's own is spent; a day's or month's stop alone keeps the run's.
        const raise = amountUsd !== undefined || (0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .runBudgetSpent */ .X5)((0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .runBudgets */ .Cc)(config.budgets, view.run).run, spent);
        const budgetRun = raise ? (0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .continuedBudget */ .ZO)(config.budgets.run, spent, amountUsd) : view.run.budgetRun;
        const raised = { waiting: null, ...(budgetRun ? { budgetRun } : {}) };
        const back = { budgetRun: raise ? budgetRun : undefined };
        // Stopped while planning or in the critic: back to that phase, which this workflow run takes up below.
        if (waiting.at === 'planning') {
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, ...raised, phase: 'PLANNING' }, now);
            return { ...back, claimed: [] };
        }
        if (waiting.at === 'review') {
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, ...raised, phase: 'REVIEWING', finalizer: ctx.runId }, now);
            return { ...back, claimed: [] };
        }
        // Stopped in the resolver: this workflow run integrates again (advance, holding INTEGRATING), from the task branches as they are now.
        if (waiting.at === 'integration') {
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, ...raised, phase: 'INTEGRATING', finalizer: ctx.runId }, now);
            return { ...back, claimed: [] };
        }
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, ...raised, phase: 'EXECUTING' }, now);
        return { ...back, claimed: (0,_state_transitions__WEBPACK_IMPORTED_MODULE_5__/* .claimReadyTasks */ .M)(tx, issue, run, config.max_parallel, (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .taskClaim */ .s1)(ctx, 'this-run', now)) };
    });
    if (out === null)
        return ctx.log.info('the decision was already taken');
    await ctx.forge.removeLabel(issue, _domain_labels__WEBPACK_IMPORTED_MODULE_15__/* .WAITING_LABEL */ .J);
    ctx.log.checkpoint('decision-taken');
    ctx.log.info(`continuing run ${run} after the budget${out.budgetRun ? `: the run may spend up to ${(0,_render_cost__WEBPACK_IMPORTED_MODULE_2__/* .money */ .TG)(out.budgetRun.cost_usd)} and ${out.budgetRun.tokens.toLocaleString('en-US')} budget tokens` : ''}; ${goingOn(waiting, out.claimed)}`);
    // Planning goes on in this job, from what it kept (intake's reading, a `/crew revise` it was planning), as `/crew resume` plans.
    const planned = waiting.at === 'planning' ? await (0,_plan_run__WEBPACK_IMPORTED_MODULE_16__/* .planRun */ .n)(ctx, issue, run, waiting.revision) : out.claimed;
    // Re-planning too, as `/crew revise` re-plans: its new tasks are dispatched; a re-plan of the failed half that makes none fails the run as advance would.
    if (waiting.replan) {
        const { tasks, feedback, endOfRun } = waiting.replan;
        if (endOfRun)
            await (0,_advance__WEBPACK_IMPORTED_MODULE_11__/* .replanFailedHalf */ .l)(ctx, issue, run, tasks, feedback);
        else
            await (0,_leader__WEBPACK_IMPORTED_MODULE_10__/* .replanTasks */ .Nd)(ctx, issue, run, tasks, feedback);
    }
    // advance runs next in this workflow run: it hands a REVIEWING run to the critic job.
    await (0,_common__WEBPACK_IMPORTED_MODULE_9__/* .setOutputs */ .n0)(ctx, issue, run, planned, waiting.at !== 'planning');
    await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .syncPlanComment */ .Of)(ctx, issue, run);
}
/** What `/crew continue` goes on with, for the log. */
function goingOn(w, claimed) {
    if (w.at === 'planning')
        return 'planning goes on';
    if (w.at === 'review')
        return 'the critic judges again';
    if (w.at === 'integration')
        return `integrating again, the resolver merging ${w.conflict?.task ?? 'the conflicting task'}`;
    return `${w.replan ? `re-planning ${w.replan.tasks.join(', ')}; ` : ''}starting ${claimed.join(', ') || 'nothing new'}`;
}
/**
 * `/crew accept` at a budget's end: the person takes what exists. Every task with work on its branch
 * counts as done as it is; one never started stays out. The run integrates and opens its pull request
 * without the critic (whose model use the budget no longer covers); the pull request says it was
 * accepted at a budget with its criteria unchecked, and crew never merges it.
 */
async function acceptAtBudget(ctx, ev, last) {
    const issue = ev.issue.number;
    const run = last.run;
    if (await (0,_replies__WEBPACK_IMPORTED_MODULE_13__/* .askedJustNow */ .Xk)(ctx, ev, last))
        return;
    const waiting = last.waiting;
    if (!(await (0,_replies__WEBPACK_IMPORTED_MODULE_13__/* .decisionReplyCounts */ .nt)(ctx, ev, waiting.commentId)))
        return;
    // Stopped while planning (no task exists) or in the resolver (the branches conflict): nothing to open a pull request with; the run keeps waiting.
    if (!(0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .budgetStopAccepts */ .Fw)(waiting)) {
        await ctx.forge.postComment(issue, nothingToAccept(ctx, issue, run, waiting));
        return;
    }
    const who = ev.comment.author.login;
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx);
    const out = await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .updateView */ .vl)(ctx, issue, run, `accept what exists at the budget (@${who})`, (view, tx) => {
        if (view.run.waiting?.kind !== 'budget' || view.run.waiting.commentId !== waiting.commentId)
            return null;
        const tasks = [...view.tasks.values()].filter((t) => !t.replacedBy);
        const running = tasks.filter((t) => t.status === 'running' || t.status === 'retrying').map((t) => t.id);
        if (running.length)
            return { refused: `${running.join(', ')} ${running.length === 1 ? 'is' : 'are'} still running` };
        const open = tasks.filter((t) => (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .settlement */ .W9)(t) === 'open');
        const withWork = open.filter((t) => t.headSha);
        if (!withWork.length && !tasks.some((t) => (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .settlement */ .W9)(t) === 'done'))
            return { refused: 'no task has any work on its branch yet' };
        // A task crew was re-planning goes in as its work stands, its status kept (failure, timeout); without work, its failure stands.
        for (const t of withWork)
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeTask */ .bN)(tx, issue, run, {
                ...t,
                status: t.pendingReplan ? t.status : 'partial',
                accepted: true,
                pendingReplan: false,
                claim: null,
                finishedAt: t.finishedAt ?? now,
            });
        for (const t of open.filter((t) => !t.headSha && t.pendingReplan))
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeTask */ .bN)(tx, issue, run, { ...t, pendingReplan: false });
        for (const t of open.filter((t) => !t.headSha && !t.pendingReplan))
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeTask */ .bN)(tx, issue, run, {
                ...t,
                status: 'blocked',
                claim: null,
                finishedAt: now,
                // Parallel attempts (#50) held before one was kept have no head of the task's own: their work, if any, is on their branches.
                error: (t.parallel ?? 1) > 1
                    ? `not judged: the run stopped at a budget before one of its ${t.parallel} parallel attempts was kept, and @${who} accepted what existed; what they did is on their own branches`
                    : `not started: the run stopped at a budget and @${who} accepted what existed`,
            });
        const review = view.run.review ?? _domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .FRESH_REVIEW */ .e0;
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'INTEGRATING', waiting: null, finalizer: ctx.runId, review: { ...review, acceptedBy: who, acceptedAtBudget: true } }, now);
        return { accepted: withWork.map((t) => t.id) };
    });
    if (out === null)
        return ctx.log.info('the decision was already taken');
    if (out.refused !== undefined) {
        await ctx.forge.postComment(issue, `crew did not accept yet: ${out.refused}. ${ctx.surface.command('continue')} goes on, ${ctx.surface.command('abort')} ends the run${out.refused.includes('running') ? `; or ${ctx.surface.command('accept')} again once it has stopped (the plan comment shows it)` : ''}.`);
        return;
    }
    await ctx.forge.removeLabel(issue, _domain_labels__WEBPACK_IMPORTED_MODULE_15__/* .WAITING_LABEL */ .J);
    ctx.log.checkpoint('decision-taken');
    // advance runs next in this workflow run: holding INTEGRATING, it integrates and hands to the critic job, which opens the pull request.
    await (0,_common__WEBPACK_IMPORTED_MODULE_9__/* .setOutputs */ .n0)(ctx, issue, run, [], true);
    await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .syncPlanComment */ .Of)(ctx, issue, run);
}
/** Why `/crew accept` has nothing to take where the run stopped (while planning, or in the resolver), and what to do. */
function nothingToAccept(ctx, issue, run, w) {
    const s = ctx.surface;
    const where = w.at === 'planning'
        ? 'while planning, so there is no plan and no work yet to open a pull request with'
        : `while merging the tasks: ${w.conflict?.task ?? 'a task'}'s branch conflicts with the work before it, and the resolver stopped before it merged them, so there is no integrated work to open a pull request with`;
    const goOn = w.at === 'planning' ? 'to go on planning' : 'to let the resolver merge it (or push a fix to a task branch first, and crew merges that)';
    return `crew did not accept: run ${s.runNumber(issue, run)} stopped at its budget ${where}. ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_14__/* .sentence */ .em)(s.give('continue'))} ${goOn} (${s.command('continue', '$N')} to set how much more it may spend), or ${s.command('abort')} to end the run.`;
}
/**
 * `/crew continue [$N]` after the retrospective was skipped at the run's budget (retrospect.ts): the run has ended, so
 * only the retrospective goes on, with another `budgets.run` from what the run spent (or $N more), written in the
 * note's place. Counts only from a writer, after the note, unedited, as every decision does.
 */
async function continueRetrospective(ctx, ev, last, amountUsd) {
    const issue = ev.issue.number;
    const note = last.retroAtBudget;
    if (!(await (0,_replies__WEBPACK_IMPORTED_MODULE_13__/* .decisionReplyCounts */ .nt)(ctx, ev, note.commentId)))
        return;
    const config = await ctx.config();
    // Turned off since the note (retrospect.ts would skip it without a word): the note stays, and the answer says why.
    if (!config.retrospect.enabled && !note.forced) {
        const s = ctx.surface;
        const retro = s.give('retro');
        await ctx.forge.postComment(issue, `crew did not write the retrospective of run ${s.runNumber(issue, last.run)}: \`retrospect.enabled\` is off in \`.github/crew.yml\` now.${retro ? ` ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_14__/* .sentence */ .em)(retro)} to write one anyway, or turn it on and ${s.command('continue')} again.` : ''}`);
        return;
    }
    if (await heldByRepositoryBudget(ctx, issue, last.run, 'continue'))
        return;
    ctx.model(); // fails now, with a clear message, if no key was given
    const budgetRun = await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .updateView */ .vl)(ctx, issue, last.run, `continue to the retrospective (@${ev.comment.author.login})`, (view, tx) => {
        if (view.run.retroAtBudget?.commentId !== note.commentId)
            return null;
        const { retroAtBudget: _, ...rec } = view.run;
        const raised = (0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .continuedBudget */ .ZO)(config.budgets.run, (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .totalUsage */ .GG)(view), amountUsd);
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...rec, budgetRun: raised }, (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx));
        return raised;
    });
    if (budgetRun === null)
        return ctx.log.info('the decision was already taken');
    ctx.log.checkpoint('decision-taken');
    ctx.log.info(`writing the retrospective of run ${last.run}: the run may spend up to ${(0,_render_cost__WEBPACK_IMPORTED_MODULE_2__/* .money */ .TG)(budgetRun.cost_usd)} and ${budgetRun.tokens.toLocaleString('en-US')} budget tokens`);
    await (0,_retrospect__WEBPACK_IMPORTED_MODULE_12__/* .retrospect */ .o)(ctx, issue, last.run, !!note.forced, note.phase === last.phase ? note.commentId : undefined);
}
/**
 * Whether the repository's `budgets.day` or `budgets.month` is reached, so that `/crew continue`,
 * `/crew resume` or `/crew retry` of an existing run does not start model work now (#52); if so, says
 * the spend and when it resets.
 */
async function heldByRepositoryBudget(ctx, issue, run, command) {
    const period = await (0,_spend_gate__WEBPACK_IMPORTED_MODULE_8__/* .repositoryBudgetReached */ .A6)(ctx);
    if (!period)
        return false;
    ctx.log.info(`run ${run} does not go on: the repository's budgets.${period.period} is reached`);
    await ctx.forge.postComment(issue, `Run ${ctx.surface.runNumber(issue, run)} does not go on yet: ${(0,_render_budget_stop__WEBPACK_IMPORTED_MODULE_3__/* .budgetSpentText */ .tB)((0,_budget_stop__WEBPACK_IMPORTED_MODULE_7__/* .periodStop */ .eO)(period))}. ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_14__/* .sentence */ .em)(ctx.surface.give(command))} again after that, or once \`budgets.${period.period}\` is raised in \`.github/crew.yml\` on the default branch. Its work stays on its branches.`);
    return true;
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


/***/ })

};
