export const id = 459;
export const ids = [459,53];
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
/* harmony import */ var _retrospect__WEBPACK_IMPORTED_MODULE_12__ = __webpack_require__(12451);
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
            await (0,_advance__WEBPACK_IMPORTED_MODULE_11__.replanFailedHalf)(ctx, issue, run, tasks, feedback);
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


/***/ }),

/***/ 78459:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   resume: () => (/* binding */ resume)
/* harmony export */ });
/* harmony import */ var _domain_attempts__WEBPACK_IMPORTED_MODULE_11__ = __webpack_require__(26296);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(65534);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(24742);
/* harmony import */ var _state_transitions__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(82649);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(33732);
/* harmony import */ var _task_results__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(20741);
/* harmony import */ var _plan_run__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(60016);
/* harmony import */ var _common__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(83405);
/* harmony import */ var _replies__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(67614);
/* harmony import */ var _continue__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(35053);
/* harmony import */ var _start__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(52478);
/* harmony import */ var _domain_surface__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(45759);












/** `/crew resume`: an interrupted run, or one crew failed in after the work, carries on from its state. */
/**
 * `/crew resume`: picks an interrupted run up from its state. Tasks that succeeded are
 * skipped, tasks whose work was pushed keep it (their branch is reused), everything
 * else runs again; a run that was finishing finishes.
 */
async function resume(ctx, ev) {
    const issue = ev.issue.number;
    const last = await (0,_common__WEBPACK_IMPORTED_MODULE_5__/* .latestRun */ .hH)(ctx, issue);
    // Stopped before its run was even written: resuming means doing what was asked.
    if (!last)
        return void (await (0,_start__WEBPACK_IMPORTED_MODULE_8__/* .startRun */ .AD)(ctx, (0,_start__WEBPACK_IMPORTED_MODULE_8__/* .commentRequest */ .bu)(ctx, ev), 'run'));
    // Going on spends: not past a repository budget (#52).
    const goesOn = (last.phase === 'FAILED' && !!last.failure?.resumeFrom) || (!(0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .isTerminal */ .Hd)(last.phase) && last.phase !== 'ESCALATING' && last.phase !== 'AWAITING_APPROVAL');
    if (goesOn && (await (0,_continue__WEBPACK_IMPORTED_MODULE_7__.heldByRepositoryBudget)(ctx, issue, last.run, 'resume')))
        return;
    // crew itself failed (not the work): go back to the phase it failed in.
    if (last.phase === 'FAILED' && last.failure?.resumeFrom)
        return resumeFailed(ctx, ev, last, last.failure.resumeFrom);
    if ((last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL') && (await (0,_replies__WEBPACK_IMPORTED_MODULE_6__/* .askUnasked */ .lx)(ctx, last)))
        return;
    if ((0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .isTerminal */ .Hd)(last.phase) || last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL') {
        const why = last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL'
            ? `run ${ctx.surface.runNumber(issue, last.run)} is waiting for you, not interrupted (see the plan comment)`
            : last.phase === 'FAILED' && (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .failedTasks */ .Ox)(await (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .loadView */ .QJ)(ctx, issue, last.run)).length
                ? `run ${ctx.surface.runNumber(issue, last.run)} ended because tasks failed. ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_9__/* .sentence */ .em)(ctx.surface.give('retry'))} to run them again (or ${ctx.surface.command('retry', '<task>')} for one)`
                : `run ${ctx.surface.runNumber(issue, last.run)} has ended (${last.phase.toLowerCase()})`;
        await ctx.forge.postComment(issue, `Nothing to resume: ${why}.`);
        return;
    }
    return resumeRun(ctx, ev, last);
}
/**
 * Resumes a run that crew failed in (an error outside the tasks): the phase it was in comes
 * back, with this workflow run as the one finishing it. Integration, judging and finishing
 * are idempotent, so they simply run again; a PASS on the same head is not judged twice.
 */
async function resumeFailed(ctx, ev, last, from) {
    const issue = ev.issue.number;
    const run = last.run;
    const back = from === 'INTERRUPTED' ? 'EXECUTING' : from;
    const taken = await (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .updateRun */ .PF)(ctx, issue, run, `resume in ${back} after a failure`, (rec, tx) => {
        if (rec.phase !== 'FAILED' || !rec.failure?.resumeFrom)
            return false;
        const finalizer = back === 'INTEGRATING' || back === 'REVIEWING' ? ctx.runId : null;
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_1__/* .writeRun */ .bp)(tx, { ...rec, phase: back, failure: null, finalizer }, (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .nowIso */ .kF)(ctx));
        return true;
    });
    if (!taken)
        return ctx.log.info('the run was resumed by another job first');
    ctx.log.info(`resuming run ${run} in ${back}, where crew failed (${last.failure?.step})`);
    const now = await (0,_common__WEBPACK_IMPORTED_MODULE_5__/* .latestRun */ .hH)(ctx, issue);
    if (back === 'INTEGRATING' || back === 'REVIEWING') {
        // advance runs next in this workflow run: it integrates (INTEGRATING) or hands to the critic job (REVIEWING).
        await (0,_common__WEBPACK_IMPORTED_MODULE_5__/* .setOutputs */ .n0)(ctx, issue, run, [], true);
        await (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .syncPlanComment */ .Of)(ctx, issue, run);
        return;
    }
    if (back === 'ESCALATING' || back === 'AWAITING_APPROVAL') {
        if (!(await (0,_replies__WEBPACK_IMPORTED_MODULE_6__/* .askUnasked */ .lx)(ctx, now)))
            await (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .syncPlanComment */ .Of)(ctx, issue, run);
        return;
    }
    return resumeRun(ctx, ev, now);
}
async function resumeRun(ctx, ev, last) {
    const issue = ev.issue.number;
    const run = last.run;
    // The run may have stopped before its plan comment was posted or recorded.
    await (0,_start__WEBPACK_IMPORTED_MODULE_8__/* .ensurePlanComment */ .Pr)(ctx, issue, run, true);
    if (last.phase === 'PLANNING') {
        const tasks = await (0,_plan_run__WEBPACK_IMPORTED_MODULE_10__/* .planRun */ .n)(ctx, issue, run);
        await (0,_common__WEBPACK_IMPORTED_MODULE_5__/* .setOutputs */ .n0)(ctx, issue, run, tasks);
        return (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .syncPlanComment */ .Of)(ctx, issue, run);
    }
    const config = await ctx.config();
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .nowIso */ .kF)(ctx);
    // Which claims belong to nobody: the workflow run that holds them has finished (or the run was cancelled).
    const snapshot = await (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .loadView */ .QJ)(ctx, issue, run);
    const dead = new Set();
    const holding = [...snapshot.tasks.values()].filter((t) => (t.status === 'running' || t.status === 'retrying') && t.claim);
    // A dispatched run's legs work under its `dispatch:` claims without taking them (work.ts): a task
    // with a leg still going in a dispatched run is left to it. Task ids repeat across issues, so this
    // may leave a task to another issue's leg; the comment below says so.
    const dispatched = snapshot.run.phase === 'INTERRUPTED' ? [] : holding.filter((t) => t.claim.runId.startsWith('dispatch:'));
    const since = dispatched.length ? new Date(Math.min(...dispatched.map((t) => Date.parse(t.claim.at))) - _context__WEBPACK_IMPORTED_MODULE_3__/* .DISPATCH_CLOCK_SKEW_MS */ .wk).toISOString() : '';
    // A parallel attempt's leg (`t1-a2`, #50) is its task's.
    const running = new Set((dispatched.length ? await ctx.forge.workLegsRunning(since) : []).map((l) => (0,_domain_attempts__WEBPACK_IMPORTED_MODULE_11__/* .parseLeg */ .U3)(l)?.task ?? l));
    const leftToLegs = [];
    for (const t of holding) {
        // A claim still waiting for its dispatched run is claimed afresh: if that dispatch does arrive, its nonce no
        // longer matches and it starts nothing.
        if (t.claim.runId.startsWith('dispatch:')) {
            if (snapshot.run.phase !== 'INTERRUPTED' && running.has(t.id))
                leftToLegs.push(t.id);
            else
                dead.add(t.id);
            continue;
        }
        const active = snapshot.run.phase === 'INTERRUPTED' ? false : await ctx.forge.workflowRunActive(t.claim.runId);
        if (active !== true)
            dead.add(t.id);
    }
    if (leftToLegs.length)
        await ctx.forge.postComment(issue, `${leftToLegs.map((id) => `\`${id}\``).join(', ')} ${leftToLegs.length === 1 ? 'is' : 'are'} left to the dispatched workflow run that may still be working on ${leftToLegs.length === 1 ? 'it' : 'them'}: a \`work\` job for ${leftToLegs.length === 1 ? 'that task' : 'those tasks'} is still going. If ${leftToLegs.length === 1 ? 'it does' : 'they do'} not finish, ${ctx.surface.give('resume')} again once no such job is running.`);
    // What a vanished worker pushed is taken; only what never reached its branch runs again.
    const pushed = new Map();
    const untaken = new Map();
    for (const id of dead) {
        const taken = await (0,_task_results__WEBPACK_IMPORTED_MODULE_4__/* .takePushedResult */ .Sr)(ctx, issue, run, (0,_state_run_files__WEBPACK_IMPORTED_MODULE_1__/* .taskOf */ .Xb)(snapshot, id), (tip) => untaken.set(id, tip));
        if (taken !== 'recorded')
            pushed.set(id, taken);
    }
    const claimed = await (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .updateView */ .vl)(ctx, issue, run, `resume`, (view, tx) => {
        for (const [id, how] of pushed) {
            const t = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_1__/* .taskOf */ .Xb)(view, id);
            // An attempt that never reached the branch does not count against the task.
            if (t.status === 'running' || t.status === 'retrying')
                (0,_state_run_files__WEBPACK_IMPORTED_MODULE_1__/* .writeTask */ .bN)(tx, issue, run, {
                    ...t,
                    status: 'pending',
                    claim: null,
                    // Parallel attempts recorded under the claim (#50) keep it and its number: only the missing legs run again.
                    attempts: how === 'none' && !(0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .keepsCandidates */ .V1)(t) ? Math.max(0, t.attempts - 1) : t.attempts,
                    headSha: t.headSha ?? untaken.get(id) ?? null,
                });
        }
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_1__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'EXECUTING', finalizer: null, failure: null }, now);
        return (0,_state_transitions__WEBPACK_IMPORTED_MODULE_2__/* .claimReadyTasks */ .M)(tx, issue, run, config.max_parallel, (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .taskClaim */ .s1)(ctx, 'this-run', now));
    });
    ctx.log.checkpoint('run-resumed');
    await (0,_common__WEBPACK_IMPORTED_MODULE_5__/* .setOutputs */ .n0)(ctx, issue, run, claimed, true);
    await (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .syncPlanComment */ .Of)(ctx, issue, run);
}


/***/ })

};
