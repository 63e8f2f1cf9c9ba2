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
/* harmony import */ var _retrospect__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(82387);
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
    const strays = await (0,_cleanup__WEBPACK_IMPORTED_MODULE_9__/* .findStrayBranches */ .hH)(ctx).catch((e) => {
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


/***/ })

};
