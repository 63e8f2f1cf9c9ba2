export const id = 424;
export const ids = [424];
export const modules = {

/***/ 6424:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   abort: () => (/* binding */ abort)
/* harmony export */ });
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(65534);
/* harmony import */ var _state_inbox__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(93849);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(24742);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(33732);
/* harmony import */ var _finish__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(76347);
/* harmony import */ var _domain_labels__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(85745);
/* harmony import */ var _common__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(83405);
/* harmony import */ var _domain_surface__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(45759);








/**
 * `/crew abort`: the run ends ABORTED at once; every running worker gets a
 * shutdown_request and stops at the end of a turn once it has seen it (within half a minute:
 * workers look at the state between turns, at most every 30 s; TEAM_NEWS_MS in work.ts),
 * committing what it has.
 */
async function abort(ctx, ev) {
    const issue = ev.issue.number;
    const last = await (0,_common__WEBPACK_IMPORTED_MODULE_5__/* .latestRun */ .hH)(ctx, issue);
    if (!last || (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .isTerminal */ .Hd)(last.phase)) {
        await ctx.forge.postComment(issue, 'There is no crew run in progress on this issue, so there is nothing to abort.');
        return;
    }
    const run = last.run;
    const at = (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .nowIso */ .kF)(ctx);
    const stopping = await (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .updateView */ .vl)(ctx, issue, run, `aborted by @${ev.comment.author.login}`, (view, tx) => {
        if ((0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .isTerminal */ .Hd)(view.run.phase))
            return null;
        const running = [...view.tasks.values()].filter((t) => t.status === 'running' || t.status === 'retrying').map((t) => t.id);
        for (const task of running) {
            (0,_state_inbox__WEBPACK_IMPORTED_MODULE_1__/* .writeMessage */ .ZT)(tx, issue, run, {
                id: (0,_state_inbox__WEBPACK_IMPORTED_MODULE_1__/* .messageId */ .Je)(at, 'leader', (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .nonce */ .KU)()),
                from: 'leader',
                to: task,
                type: 'shutdown_request',
                text: `@${ev.comment.author.login} aborted the run. Stop now; your work so far is kept.`,
                at,
            });
        }
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_2__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'ABORTED', waiting: null, failure: { step: 'abort', message: `aborted by @${ev.comment.author.login}` } }, at);
        return running;
    });
    if (stopping === null)
        return;
    if (last.phase === 'ESCALATING')
        await ctx.forge.removeLabel(issue, _domain_labels__WEBPACK_IMPORTED_MODULE_7__/* .WAITING_LABEL */ .J);
    ctx.log.checkpoint('run-aborted');
    await ctx.forge.postComment(issue, stopping.length
        ? `Aborting run ${ctx.surface.runNumber(issue, run)}. ${stopping.join(', ')} will stop at the end of a turn within half a minute and keep their work on their branches; nothing else will start. ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_6__/* .sentence */ .em)(ctx.surface.give('run'))} to start again.`
        : `Aborted run ${ctx.surface.runNumber(issue, run)}; nothing was running. ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_6__/* .sentence */ .em)(ctx.surface.give('run'))} to start again.`);
    await (0,_context__WEBPACK_IMPORTED_MODULE_3__/* .syncPlanComment */ .Of)(ctx, issue, run);
    await (0,_finish__WEBPACK_IMPORTED_MODULE_4__/* .reportEndedRun */ .u1)(ctx, issue, run, `@${ev.comment.author.login} aborted the run${stopping.length ? ` while ${stopping.join(', ')} ran (their work so far stays on their branches)` : ''}, so crew opened no pull request.`);
}


/***/ })

};
