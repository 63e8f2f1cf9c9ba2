export const id = 249;
export const ids = [249];
export const modules = {

/***/ 78249:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   accept: () => (/* binding */ accept),
/* harmony export */   decideTask: () => (/* binding */ decideTask),
/* harmony export */   retry: () => (/* binding */ retry)
/* harmony export */ });
/* harmony import */ var _domain_judgment__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7882);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(65534);
/* harmony import */ var _domain_budgets__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(69158);
/* harmony import */ var _render_budget_stop__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(35720);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(24742);
/* harmony import */ var _state_transitions__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(82649);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(33732);
/* harmony import */ var _leader__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(52814);
/* harmony import */ var _state_judgments__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(67164);
/* harmony import */ var _domain_labels__WEBPACK_IMPORTED_MODULE_14__ = __webpack_require__(85745);
/* harmony import */ var _common__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(83405);
/* harmony import */ var _replies__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(67614);
/* harmony import */ var _resume__WEBPACK_IMPORTED_MODULE_11__ = __webpack_require__(78459);
/* harmony import */ var _continue__WEBPACK_IMPORTED_MODULE_12__ = __webpack_require__(35053);
/* harmony import */ var _domain_surface__WEBPACK_IMPORTED_MODULE_13__ = __webpack_require__(45759);















/**
 * A person's decision on an escalated task: retry it, accept its work as it is,
 * answer its question (it runs again with the answer), or re-plan the failed tasks.
 * Counts only if written by someone with write access after crew asked, and not edited.
 */
async function decideTask(ctx, ev, last, reply, text = '') {
    const issue = ev.issue.number;
    const run = last.run;
    const waiting = last.waiting;
    if (await (0,_replies__WEBPACK_IMPORTED_MODULE_10__/* .askedJustNow */ .Xk)(ctx, ev, last))
        return;
    if (!(await (0,_replies__WEBPACK_IMPORTED_MODULE_10__/* .decisionReplyCounts */ .nt)(ctx, ev, waiting.commentId)))
        return;
    const config = await ctx.config();
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx);
    const claim = (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .taskClaim */ .s1)(ctx, 'this-run', now);
    let toReplan = [];
    const asking = { next: null };
    const claimed = await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .updateView */ .vl)(ctx, issue, run, `${reply} ${waiting.task} (@${ev.comment.author.login})`, (view, tx) => {
        if (view.run.waiting?.kind !== 'decision' || view.run.waiting.commentId !== waiting.commentId)
            return null;
        const task = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .taskOf */ .Xb)(view, waiting.task);
        if (reply === 'accept')
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeTask */ .bN)(tx, issue, run, { ...task, accepted: true });
        if (reply === 'retry' || reply === 'answer') {
            const advice = reply === 'answer' ? [...task.advice, `@${ev.comment.author.login} answered: ${text.trim()}`] : task.advice;
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeTask */ .bN)(tx, issue, run, { ...task, status: 'pending', claim: null, advice, pendingReplan: false });
        }
        if (reply === 'revise') {
            toReplan = (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .failedTasks */ .Ox)(view).map((t) => t.id);
            for (const id of toReplan)
                (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeTask */ .bN)(tx, issue, run, { ...(0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .taskOf */ .Xb)(view, id), pendingReplan: true });
        }
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'EXECUTING', waiting: null }, now);
        const started = reply === 'revise' ? [] : (0,_state_transitions__WEBPACK_IMPORTED_MODULE_5__/* .claimReadyTasks */ .M)(tx, issue, run, config.max_parallel, claim);
        // One question at a time: the next one that waited for this answer is asked now.
        asking.next = (0,_leader__WEBPACK_IMPORTED_MODULE_7__/* .openQueuedQuestion */ .Ub)(tx, issue, run, now);
        return started;
    });
    if (claimed === null)
        return ctx.log.info('the decision was already taken');
    const queued = asking.next;
    if (!queued)
        await ctx.forge.removeLabel(issue, _domain_labels__WEBPACK_IMPORTED_MODULE_14__/* .WAITING_LABEL */ .J);
    ctx.log.checkpoint('decision-taken');
    if (queued)
        await (0,_leader__WEBPACK_IMPORTED_MODULE_7__/* .askPerson */ .fe)(ctx, issue, run, queued.task, queued.question, queued.planReview);
    if (reply === 'revise') {
        await (0,_leader__WEBPACK_IMPORTED_MODULE_7__/* .replanTasks */ .Nd)(ctx, issue, run, toReplan, `A maintainer (@${ev.comment.author.login}) says: ${text}`);
        return (0,_common__WEBPACK_IMPORTED_MODULE_9__/* .setOutputs */ .n0)(ctx, issue, run, [], true);
    }
    await (0,_common__WEBPACK_IMPORTED_MODULE_9__/* .setOutputs */ .n0)(ctx, issue, run, claimed, true);
    await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .syncPlanComment */ .Of)(ctx, issue, run);
}
/**
 * A person's answer to a FAIL the critic could not get past: `accept` takes the work as
 * it is (the PR says which criteria failed and is never merged by crew); `retry` grants
 * one more iteration: the tasks behind the failing criteria run again, or, when the
 * critic could not evaluate, the critic judges again.
 */
async function decideVerdict(ctx, ev, last, reply) {
    const issue = ev.issue.number;
    const run = last.run;
    const waiting = last.waiting;
    if (!(await (0,_replies__WEBPACK_IMPORTED_MODULE_10__/* .decisionReplyCounts */ .nt)(ctx, ev, waiting.commentId)))
        return;
    const config = await ctx.config();
    const judgment = await (0,_state_judgments__WEBPACK_IMPORTED_MODULE_8__/* .lastJudgment */ .n)(ctx.state, await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .loadView */ .QJ)(ctx, issue, run));
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx);
    const claim = (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .taskClaim */ .s1)(ctx, 'this-run', now);
    const judgeAgain = reply === 'accept' || !judgment || ((0,_domain_judgment__WEBPACK_IMPORTED_MODULE_0__/* .failingEvaluations */ .Wx)(judgment).every((e) => e.met === null) && judgment.adversarial.length === 0);
    const claimed = await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .updateView */ .vl)(ctx, issue, run, `${reply} the critic's FAIL (@${ev.comment.author.login})`, (view, tx) => {
        if (view.run.waiting?.kind !== 'verdict' || view.run.waiting.commentId !== waiting.commentId)
            return null;
        const review = view.run.review ?? _domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .FRESH_REVIEW */ .e0;
        if (reply === 'accept') {
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'REVIEWING', waiting: null, finalizer: ctx.runId, review: { ...review, acceptedBy: ev.comment.author.login } }, now);
            return [];
        }
        const allowance = Math.max(review.allowance, review.iteration - config.max_iterations) + 1;
        if (judgeAgain) {
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'REVIEWING', waiting: null, finalizer: ctx.runId, review: { ...review, allowance } }, now);
            return [];
        }
        // The person asks for another round: a failure that was already on the base is the tasks' to fix too.
        const targets = (0,_domain_judgment__WEBPACK_IMPORTED_MODULE_0__/* .tasksToRerun */ .qz)(judgment, view, { blameBefore: true });
        for (const id of targets) {
            const t = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .taskOf */ .Xb)(view, id);
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeTask */ .bN)(tx, issue, run, { ...t, status: 'pending', claim: null, error: null, finishedAt: null, advice: [...t.advice, (0,_domain_judgment__WEBPACK_IMPORTED_MODULE_0__/* .rerunAdvice */ .bB)(judgment, id)] });
        }
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'EXECUTING', waiting: null, finalizer: null, review: { ...review, allowance, rerun: targets } }, now);
        return (0,_state_transitions__WEBPACK_IMPORTED_MODULE_5__/* .claimReadyTasks */ .M)(tx, issue, run, config.max_parallel, claim);
    });
    if (claimed === null)
        return ctx.log.info('the decision was already taken');
    await ctx.forge.removeLabel(issue, _domain_labels__WEBPACK_IMPORTED_MODULE_14__/* .WAITING_LABEL */ .J);
    ctx.log.checkpoint('decision-taken');
    // advance runs next in this workflow run: with REVIEWING held by this run it hands over to the critic job.
    await (0,_common__WEBPACK_IMPORTED_MODULE_9__/* .setOutputs */ .n0)(ctx, issue, run, claimed, true);
    await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .syncPlanComment */ .Of)(ctx, issue, run);
}
/** `/crew retry` on a merge conflict crew could not resolve: integrate again (the maintainer may have fixed a branch). */
async function retryIntegration(ctx, ev, last) {
    const issue = ev.issue.number;
    const run = last.run;
    const waiting = last.waiting;
    if (!(await (0,_replies__WEBPACK_IMPORTED_MODULE_10__/* .decisionReplyCounts */ .nt)(ctx, ev, waiting.commentId)))
        return;
    const taken = await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .updateView */ .vl)(ctx, issue, run, `integrate again (@${ev.comment.author.login})`, (view, tx) => {
        if (view.run.waiting?.kind !== 'conflict' || view.run.waiting.commentId !== waiting.commentId)
            return false;
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'INTEGRATING', waiting: null, finalizer: ctx.runId }, (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx));
        return true;
    });
    if (!taken)
        return ctx.log.info('the decision was already taken');
    await ctx.forge.removeLabel(issue, _domain_labels__WEBPACK_IMPORTED_MODULE_14__/* .WAITING_LABEL */ .J);
    ctx.log.checkpoint('decision-taken');
    // advance runs next in this workflow run and, holding INTEGRATING, integrates again.
    await (0,_common__WEBPACK_IMPORTED_MODULE_9__/* .setOutputs */ .n0)(ctx, issue, run, [], true);
    await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .syncPlanComment */ .Of)(ctx, issue, run);
}
/** `/crew retry [task]`: failed tasks (or the one named) run again, with a fresh allowance of attempts. */
async function retry(ctx, ev, only) {
    const issue = ev.issue.number;
    const last = await (0,_common__WEBPACK_IMPORTED_MODULE_9__/* .latestRun */ .hH)(ctx, issue);
    // A run waiting at a budget (#52) goes on with `/crew continue`, not a retry: said before the repository's budget, which continue waits on too.
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'budget') {
        const s = ctx.surface;
        await ctx.forge.postComment(issue, `There is nothing to retry: run ${s.runNumber(issue, last.run)} waits at a budget${(0,_render_budget_stop__WEBPACK_IMPORTED_MODULE_3__/* .budgetStopWhere */ .Jn)(last.waiting)} (see the plan comment). ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_13__/* .sentence */ .em)(s.give('continue'))} to go on from where it stopped (${s.command('continue', '$N')} to set how much more it may spend)${(0,_domain_budgets__WEBPACK_IMPORTED_MODULE_2__/* .budgetStopAccepts */ .Fw)(last.waiting) ? `, ${s.command('accept')} to open the pull request with what exists` : ''} or ${s.command('abort')} to end it.`);
        return;
    }
    // Retrying spends: not past a repository budget (#52).
    if (last && ['FAILED', 'EXECUTING', 'INTERRUPTED', 'ESCALATING'].includes(last.phase) && (await (0,_continue__WEBPACK_IMPORTED_MODULE_12__.heldByRepositoryBudget)(ctx, issue, last.run, 'retry')))
        return;
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision' && (!only || only === last.waiting.task))
        return decideTask(ctx, ev, last, 'retry');
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'verdict' && !only)
        return decideVerdict(ctx, ev, last, 'retry');
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'conflict' && !only)
        return retryIntegration(ctx, ev, last);
    if (!last || !['FAILED', 'EXECUTING', 'INTERRUPTED'].includes(last.phase)) {
        await ctx.forge.postComment(issue, `There is nothing to retry${last ? ` (run ${ctx.surface.runNumber(issue, last.run)} is ${last.phase.toLowerCase()})` : ''}. ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_13__/* .sentence */ .em)(ctx.surface.give('run'))} to start a run.`);
        return;
    }
    const run = last.run;
    const config = await ctx.config();
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx);
    const out = await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .updateView */ .vl)(ctx, issue, run, `retry ${only ?? 'failed tasks'}`, (view, tx) => {
        const failed = (id) => (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .settlement */ .W9)(view.tasks.get(id)) === 'failed';
        // A task blocked by a failed dependency can only run if that dependency runs again too.
        const wanted = new Set();
        const want = (id) => {
            if (wanted.has(id) || !failed(id))
                return;
            wanted.add(id);
            for (const d of view.plan?.tasks.find((t) => t.id === id)?.dependsOn ?? [])
                want(d);
        };
        for (const t of view.tasks.values())
            if (!only || t.id === only)
                want(t.id);
        const targets = [...wanted].map((id) => (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .taskOf */ .Xb)(view, id));
        // crew failed after the tasks (integrating, judging, finishing): retrying means carrying on from there.
        if (!targets.length && !only && view.run.phase === 'FAILED' && view.run.failure?.resumeFrom)
            return { resume: true };
        if (!targets.length)
            return { error: only ? `task ${only} has not failed, so there is nothing to retry.` : 'no task has failed, so there is nothing to retry.' };
        for (const t of targets)
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeTask */ .bN)(tx, issue, run, { ...t, status: 'pending', claim: null, error: null, finishedAt: null });
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'EXECUTING', failure: null }, now);
        return {
            claimed: (0,_state_transitions__WEBPACK_IMPORTED_MODULE_5__/* .claimReadyTasks */ .M)(tx, issue, run, config.max_parallel, (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .taskClaim */ .s1)(ctx, 'this-run', now)),
            retried: targets.map((t) => t.id),
        };
    });
    if ('resume' in out)
        return (0,_resume__WEBPACK_IMPORTED_MODULE_11__.resume)(ctx, ev);
    if ('error' in out) {
        await ctx.forge.postComment(issue, `Run ${ctx.surface.runNumber(issue, run)}: ${out.error}`);
        return;
    }
    ctx.log.info(`retrying ${out.retried.join(', ')}`);
    await (0,_common__WEBPACK_IMPORTED_MODULE_9__/* .setOutputs */ .n0)(ctx, issue, run, out.claimed, true);
    await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .syncPlanComment */ .Of)(ctx, issue, run);
}
/** `/crew accept`: take an escalated task's work as it is, a critic's FAIL, or what exists at a budget's end. */
async function accept(ctx, ev) {
    const last = await (0,_common__WEBPACK_IMPORTED_MODULE_9__/* .latestRun */ .hH)(ctx, ev.issue.number);
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision')
        return decideTask(ctx, ev, last, 'accept');
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'verdict')
        return decideVerdict(ctx, ev, last, 'accept');
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'budget')
        return (0,_continue__WEBPACK_IMPORTED_MODULE_12__.acceptAtBudget)(ctx, ev, last);
    // The run has ended and only its retrospective was skipped at the budget (retrospect.ts): that is `/crew continue`'s.
    if (last?.retroAtBudget && (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .isTerminal */ .Hd)(last.phase)) {
        const s = ctx.surface;
        await ctx.forge.postComment(ev.issue.number, `There is nothing to accept: run ${s.runNumber(ev.issue.number, last.run)} has ended (${last.pr ? `its pull request is ${last.pr.url}` : last.phase.toLowerCase()}); only its retrospective was skipped at the run's budget. ${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_13__/* .sentence */ .em)(s.give('continue'))} to write it (${s.command('continue', '$N')} to set how much more it may spend).`);
        return;
    }
    await ctx.forge.postComment(ev.issue.number, 'There is no escalated task, critic verdict or budget stop waiting for a decision on this issue, so there is nothing to accept.');
}


/***/ })

};
