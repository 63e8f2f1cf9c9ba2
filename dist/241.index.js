export const id = 241;
export const ids = [241];
export const modules = {

/***/ 28241:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  isOwnComment: () => (/* binding */ isOwnComment),
  route: () => (/* binding */ route)
});

// EXTERNAL MODULE: ./src/domain/attempts.ts
var attempts = __webpack_require__(26296);
// EXTERNAL MODULE: ./src/domain/commands.ts
var commands = __webpack_require__(80488);
// EXTERNAL MODULE: ./src/config/schema.ts
var schema = __webpack_require__(90131);
// EXTERNAL MODULE: ./src/steps/commands/start.ts
var start = __webpack_require__(52478);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/domain/labels.ts
var labels = __webpack_require__(85745);
// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
// EXTERNAL MODULE: ./src/text/markdown.ts
var markdown = __webpack_require__(86590);
// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/state/inbox.ts
var inbox = __webpack_require__(93849);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/steps/finish.ts + 1 modules
var finish = __webpack_require__(76347);
// EXTERNAL MODULE: ./src/steps/commands/common.ts
var common = __webpack_require__(83405);
// EXTERNAL MODULE: ./src/domain/surface.ts
var surface = __webpack_require__(45759);
;// CONCATENATED MODULE: ./src/steps/commands/abort.ts








/**
 * `/crew abort`: the run ends ABORTED at once; every running worker gets a
 * shutdown_request and stops at the end of a turn once it has seen it (within half a minute:
 * workers look at the state between turns, at most every 30 s; TEAM_NEWS_MS in work.ts),
 * committing what it has.
 */
async function abort(ctx, ev) {
    const issue = ev.issue.number;
    const last = await (0,common/* latestRun */.hH)(ctx, issue);
    if (!last || (0,run_state/* isTerminal */.Hd)(last.phase)) {
        await ctx.forge.postComment(issue, 'There is no crew run in progress on this issue, so there is nothing to abort.');
        return;
    }
    const run = last.run;
    const at = (0,context/* nowIso */.kF)(ctx);
    const stopping = await (0,context/* updateView */.vl)(ctx, issue, run, `aborted by @${ev.comment.author.login}`, (view, tx) => {
        if ((0,run_state/* isTerminal */.Hd)(view.run.phase))
            return null;
        const running = [...view.tasks.values()].filter((t) => t.status === 'running' || t.status === 'retrying').map((t) => t.id);
        for (const task of running) {
            (0,inbox/* writeMessage */.ZT)(tx, issue, run, {
                id: (0,inbox/* messageId */.Je)(at, 'leader', (0,context/* nonce */.KU)()),
                from: 'leader',
                to: task,
                type: 'shutdown_request',
                text: `@${ev.comment.author.login} aborted the run. Stop now; your work so far is kept.`,
                at,
            });
        }
        (0,run_files/* writeRun */.bp)(tx, { ...view.run, phase: 'ABORTED', waiting: null, failure: { step: 'abort', message: `aborted by @${ev.comment.author.login}` } }, at);
        return running;
    });
    if (stopping === null)
        return;
    if (last.phase === 'ESCALATING')
        await ctx.forge.removeLabel(issue, labels/* WAITING_LABEL */.J);
    ctx.log.checkpoint('run-aborted');
    await ctx.forge.postComment(issue, stopping.length
        ? `Aborting run ${ctx.surface.runNumber(issue, run)}. ${stopping.join(', ')} will stop at the end of a turn within half a minute and keep their work on their branches; nothing else will start. ${(0,surface/* sentence */.em)(ctx.surface.give('run'))} to start again.`
        : `Aborted run ${ctx.surface.runNumber(issue, run)}; nothing was running. ${(0,surface/* sentence */.em)(ctx.surface.give('run'))} to start again.`);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
    await (0,finish/* reportEndedRun */.u1)(ctx, issue, run, `@${ev.comment.author.login} aborted the run${stopping.length ? ` while ${stopping.join(', ')} ran (their work so far stays on their branches)` : ''}, so crew opened no pull request.`);
}

// EXTERNAL MODULE: ./src/steps/plan-run.ts
var plan_run = __webpack_require__(60016);
// EXTERNAL MODULE: ./src/domain/judgment.ts
var domain_judgment = __webpack_require__(7882);
// EXTERNAL MODULE: ./src/domain/budgets.ts
var budgets = __webpack_require__(69158);
// EXTERNAL MODULE: ./src/render/budget-stop.ts
var budget_stop = __webpack_require__(35720);
// EXTERNAL MODULE: ./src/state/transitions.ts
var transitions = __webpack_require__(82649);
// EXTERNAL MODULE: ./src/steps/leader.ts
var leader = __webpack_require__(52814);
// EXTERNAL MODULE: ./src/state/judgments.ts
var judgments = __webpack_require__(67164);
// EXTERNAL MODULE: ./src/domain/refs.ts
var refs = __webpack_require__(92);
// EXTERNAL MODULE: ./src/steps/planning.ts + 2 modules
var planning = __webpack_require__(73571);
// EXTERNAL MODULE: ./src/steps/budget-stop.ts
var steps_budget_stop = __webpack_require__(8811);
;// CONCATENATED MODULE: ./src/steps/commands/replies.ts







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
        await (0,leader/* askPerson */.fe)(ctx, rec.issue, rec.run, w.task, w.question, w.topic === 'plan_review');
    else if (w.kind === 'approval') {
        const review = (await ctx.state.load(`${(0,refs/* runFolder */.kQ)(rec.issue, rec.run)}/`)).read(run_files/* paths */.f0.review(rec.issue, rec.run)) ?? '';
        await (0,planning.requestApproval)(ctx, rec.issue, rec.run, w.planVersion, w.reason === 'requested', review.split(/\n\n/).slice(2).join('\n\n').trim(), rec.estimate ?? null);
    }
    else if (w.kind === 'budget')
        await (0,steps_budget_stop/* askAtBudget */.OH)(ctx, rec.issue, rec.run);
    else
        return false;
    return true;
}
/** A reply from someone with write access in which everything is quoted (or hidden): crew says it took nothing. */
async function nothingToTake(ctx, ev) {
    await ctx.forge.postComment(ev.issue.number, `crew took nothing from that reply: all of it is quoted (lines starting with \`>\`) or hidden, and quoted text is someone else's words, not your answer. Write your answer outside the quote.`);
}

// EXTERNAL MODULE: ./src/steps/task-results.ts
var task_results = __webpack_require__(20741);
// EXTERNAL MODULE: ./src/render/cost.ts
var cost = __webpack_require__(25659);
// EXTERNAL MODULE: ./src/steps/spend-gate.ts + 1 modules
var spend_gate = __webpack_require__(50746);
// EXTERNAL MODULE: ./src/steps/advance.ts + 3 modules
var advance = __webpack_require__(8090);
// EXTERNAL MODULE: ./src/steps/retrospect.ts + 2 modules
var retrospect = __webpack_require__(12451);
;// CONCATENATED MODULE: ./src/steps/commands/continue.ts

















/**
 * `/crew continue [$N]`: the step the budget stopped goes on: the tasks from their branches, planning, re-planning,
 * the resolver's merge or the critic; after a run ended, the retrospective it skipped.
 */
async function continueRun(ctx, ev, amountUsd) {
    const issue = ev.issue.number;
    const last = await (0,common/* latestRun */.hH)(ctx, issue);
    if (last?.retroAtBudget && (0,run_state/* isTerminal */.Hd)(last.phase))
        return continueRetrospective(ctx, ev, last, amountUsd);
    if (last?.phase !== 'ESCALATING' || last.waiting?.kind !== 'budget') {
        await ctx.forge.postComment(issue, `There is no run stopped at a budget on this issue, so there is nothing to continue${last ? ` (run ${ctx.surface.runNumber(issue, last.run)} is ${last.phase.toLowerCase()})` : ''}. ${ctx.surface.command('resume')} carries on an interrupted run.`);
        return;
    }
    if (await askedJustNow(ctx, ev, last))
        return;
    const waiting = last.waiting;
    if (!(await decisionReplyCounts(ctx, ev, waiting.commentId)))
        return;
    // A repository budget still reached: the run keeps waiting, as a new run would be refused.
    if (await heldByRepositoryBudget(ctx, issue, last.run, 'continue'))
        return;
    const run = last.run;
    const config = await ctx.config();
    const now = (0,context/* nowIso */.kF)(ctx);
    const out = await (0,context/* updateView */.vl)(ctx, issue, run, `continue after the budget (@${ev.comment.author.login})`, (view, tx) => {
        if (view.run.waiting?.kind !== 'budget' || view.run.waiting.commentId !== waiting.commentId)
            return null;
        const spent = (0,run_state/* totalUsage */.GG)(view);
        // A new limit when one is given or the run's own is spent; a day's or month's stop alone keeps the run's.
        const raise = amountUsd !== undefined || (0,budgets/* runBudgetSpent */.X5)((0,budgets/* runBudgets */.Cc)(config.budgets, view.run).run, spent);
        const budgetRun = raise ? (0,budgets/* continuedBudget */.ZO)(config.budgets.run, spent, amountUsd) : view.run.budgetRun;
        const raised = { waiting: null, ...(budgetRun ? { budgetRun } : {}) };
        const back = { budgetRun: raise ? budgetRun : undefined };
        // Stopped while planning or in the critic: back to that phase, which this workflow run takes up below.
        if (waiting.at === 'planning') {
            (0,run_files/* writeRun */.bp)(tx, { ...view.run, ...raised, phase: 'PLANNING' }, now);
            return { ...back, claimed: [] };
        }
        if (waiting.at === 'review') {
            (0,run_files/* writeRun */.bp)(tx, { ...view.run, ...raised, phase: 'REVIEWING', finalizer: ctx.runId }, now);
            return { ...back, claimed: [] };
        }
        // Stopped in the resolver: this workflow run integrates again (advance, holding INTEGRATING), from the task branches as they are now.
        if (waiting.at === 'integration') {
            (0,run_files/* writeRun */.bp)(tx, { ...view.run, ...raised, phase: 'INTEGRATING', finalizer: ctx.runId }, now);
            return { ...back, claimed: [] };
        }
        (0,run_files/* writeRun */.bp)(tx, { ...view.run, ...raised, phase: 'EXECUTING' }, now);
        return { ...back, claimed: (0,transitions/* claimReadyTasks */.M)(tx, issue, run, config.max_parallel, (0,context/* taskClaim */.s1)(ctx, 'this-run', now)) };
    });
    if (out === null)
        return ctx.log.info('the decision was already taken');
    await ctx.forge.removeLabel(issue, labels/* WAITING_LABEL */.J);
    ctx.log.checkpoint('decision-taken');
    ctx.log.info(`continuing run ${run} after the budget${out.budgetRun ? `: the run may spend up to ${(0,cost/* money */.TG)(out.budgetRun.cost_usd)} and ${out.budgetRun.tokens.toLocaleString('en-US')} budget tokens` : ''}; ${goingOn(waiting, out.claimed)}`);
    // Planning goes on in this job, from what it kept (intake's reading, a `/crew revise` it was planning), as `/crew resume` plans.
    const planned = waiting.at === 'planning' ? await (0,plan_run/* planRun */.n)(ctx, issue, run, waiting.revision) : out.claimed;
    // Re-planning too, as `/crew revise` re-plans: its new tasks are dispatched; a re-plan of the failed half that makes none fails the run as advance would.
    if (waiting.replan) {
        const { tasks, feedback, endOfRun } = waiting.replan;
        if (endOfRun)
            await (0,advance.replanFailedHalf)(ctx, issue, run, tasks, feedback);
        else
            await (0,leader/* replanTasks */.Nd)(ctx, issue, run, tasks, feedback);
    }
    // advance runs next in this workflow run: it hands a REVIEWING run to the critic job.
    await (0,common/* setOutputs */.n0)(ctx, issue, run, planned, waiting.at !== 'planning');
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
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
    if (await askedJustNow(ctx, ev, last))
        return;
    const waiting = last.waiting;
    if (!(await decisionReplyCounts(ctx, ev, waiting.commentId)))
        return;
    // Stopped while planning (no task exists) or in the resolver (the branches conflict): nothing to open a pull request with; the run keeps waiting.
    if (!(0,budgets/* budgetStopAccepts */.Fw)(waiting)) {
        await ctx.forge.postComment(issue, nothingToAccept(ctx, issue, run, waiting));
        return;
    }
    const who = ev.comment.author.login;
    const now = (0,context/* nowIso */.kF)(ctx);
    const out = await (0,context/* updateView */.vl)(ctx, issue, run, `accept what exists at the budget (@${who})`, (view, tx) => {
        if (view.run.waiting?.kind !== 'budget' || view.run.waiting.commentId !== waiting.commentId)
            return null;
        const tasks = [...view.tasks.values()].filter((t) => !t.replacedBy);
        const running = tasks.filter((t) => t.status === 'running' || t.status === 'retrying').map((t) => t.id);
        if (running.length)
            return { refused: `${running.join(', ')} ${running.length === 1 ? 'is' : 'are'} still running` };
        const open = tasks.filter((t) => (0,run_state/* settlement */.W9)(t) === 'open');
        const withWork = open.filter((t) => t.headSha);
        if (!withWork.length && !tasks.some((t) => (0,run_state/* settlement */.W9)(t) === 'done'))
            return { refused: 'no task has any work on its branch yet' };
        // A task crew was re-planning goes in as its work stands, its status kept (failure, timeout); without work, its failure stands.
        for (const t of withWork)
            (0,run_files/* writeTask */.bN)(tx, issue, run, {
                ...t,
                status: t.pendingReplan ? t.status : 'partial',
                accepted: true,
                pendingReplan: false,
                claim: null,
                finishedAt: t.finishedAt ?? now,
            });
        for (const t of open.filter((t) => !t.headSha && t.pendingReplan))
            (0,run_files/* writeTask */.bN)(tx, issue, run, { ...t, pendingReplan: false });
        for (const t of open.filter((t) => !t.headSha && !t.pendingReplan))
            (0,run_files/* writeTask */.bN)(tx, issue, run, {
                ...t,
                status: 'blocked',
                claim: null,
                finishedAt: now,
                error: `not started: the run stopped at a budget and @${who} accepted what existed`,
            });
        const review = view.run.review ?? run_state/* FRESH_REVIEW */.e0;
        (0,run_files/* writeRun */.bp)(tx, { ...view.run, phase: 'INTEGRATING', waiting: null, finalizer: ctx.runId, review: { ...review, acceptedBy: who, acceptedAtBudget: true } }, now);
        return { accepted: withWork.map((t) => t.id) };
    });
    if (out === null)
        return ctx.log.info('the decision was already taken');
    if (out.refused !== undefined) {
        await ctx.forge.postComment(issue, `crew did not accept yet: ${out.refused}. ${ctx.surface.command('continue')} goes on, ${ctx.surface.command('abort')} ends the run${out.refused.includes('running') ? `; or ${ctx.surface.command('accept')} again once it has stopped (the plan comment shows it)` : ''}.`);
        return;
    }
    await ctx.forge.removeLabel(issue, labels/* WAITING_LABEL */.J);
    ctx.log.checkpoint('decision-taken');
    // advance runs next in this workflow run: holding INTEGRATING, it integrates and hands to the critic job, which opens the pull request.
    await (0,common/* setOutputs */.n0)(ctx, issue, run, [], true);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
/** Why `/crew accept` has nothing to take where the run stopped (while planning, or in the resolver), and what to do. */
function nothingToAccept(ctx, issue, run, w) {
    const s = ctx.surface;
    const where = w.at === 'planning'
        ? 'while planning, so there is no plan and no work yet to open a pull request with'
        : `while merging the tasks: ${w.conflict?.task ?? 'a task'}'s branch conflicts with the work before it, and the resolver stopped before it merged them, so there is no integrated work to open a pull request with`;
    const goOn = w.at === 'planning' ? 'to go on planning' : 'to let the resolver merge it (or push a fix to a task branch first, and crew merges that)';
    return `crew did not accept: run ${s.runNumber(issue, run)} stopped at its budget ${where}. ${(0,surface/* sentence */.em)(s.give('continue'))} ${goOn} (${s.command('continue', '$N')} to set how much more it may spend), or ${s.command('abort')} to end the run.`;
}
/**
 * `/crew continue [$N]` after the retrospective was skipped at the run's budget (retrospect.ts): the run has ended, so
 * only the retrospective goes on, with another `budgets.run` from what the run spent (or $N more), written in the
 * note's place. Counts only from a writer, after the note, unedited, as every decision does.
 */
async function continueRetrospective(ctx, ev, last, amountUsd) {
    const issue = ev.issue.number;
    const note = last.retroAtBudget;
    if (!(await decisionReplyCounts(ctx, ev, note.commentId)))
        return;
    if (await heldByRepositoryBudget(ctx, issue, last.run, 'continue'))
        return;
    ctx.model(); // fails now, with a clear message, if no key was given
    const config = await ctx.config();
    const budgetRun = await (0,context/* updateView */.vl)(ctx, issue, last.run, `continue to the retrospective (@${ev.comment.author.login})`, (view, tx) => {
        if (view.run.retroAtBudget?.commentId !== note.commentId)
            return null;
        const { retroAtBudget: _, ...rec } = view.run;
        const raised = (0,budgets/* continuedBudget */.ZO)(config.budgets.run, (0,run_state/* totalUsage */.GG)(view), amountUsd);
        (0,run_files/* writeRun */.bp)(tx, { ...rec, budgetRun: raised }, (0,context/* nowIso */.kF)(ctx));
        return raised;
    });
    if (budgetRun === null)
        return ctx.log.info('the decision was already taken');
    ctx.log.checkpoint('decision-taken');
    ctx.log.info(`writing the retrospective of run ${last.run}: the run may spend up to ${(0,cost/* money */.TG)(budgetRun.cost_usd)} and ${budgetRun.tokens.toLocaleString('en-US')} budget tokens`);
    await (0,retrospect/* retrospect */.o)(ctx, issue, last.run, !!note.forced, note.phase === last.phase ? note.commentId : undefined);
}
/**
 * Whether the repository's `budgets.day` or `budgets.month` is reached, so that `/crew continue`,
 * `/crew resume` or `/crew retry` of an existing run does not start model work now (#52); if so, says
 * the spend and when it resets.
 */
async function heldByRepositoryBudget(ctx, issue, run, command) {
    const period = await (0,spend_gate/* repositoryBudgetReached */.A6)(ctx);
    if (!period)
        return false;
    ctx.log.info(`run ${run} does not go on: the repository's budgets.${period.period} is reached`);
    await ctx.forge.postComment(issue, `Run ${ctx.surface.runNumber(issue, run)} does not go on yet: ${(0,budget_stop/* budgetSpentText */.tB)((0,steps_budget_stop/* periodStop */.eO)(period))}. ${(0,surface/* sentence */.em)(ctx.surface.give(command))} again after that, or once \`budgets.${period.period}\` is raised in \`.github/crew.yml\` on the default branch. Its work stays on its branches.`);
    return true;
}

;// CONCATENATED MODULE: ./src/steps/commands/resume.ts












/** `/crew resume`: an interrupted run, or one crew failed in after the work, carries on from its state. */
/**
 * `/crew resume`: picks an interrupted run up from its state. Tasks that succeeded are
 * skipped, tasks whose work was pushed keep it (their branch is reused), everything
 * else runs again; a run that was finishing finishes.
 */
async function resume(ctx, ev) {
    const issue = ev.issue.number;
    const last = await (0,common/* latestRun */.hH)(ctx, issue);
    // Stopped before its run was even written: resuming means doing what was asked.
    if (!last)
        return void (await (0,start/* startRun */.AD)(ctx, (0,start/* commentRequest */.bu)(ctx, ev), 'run'));
    // Going on spends: not past a repository budget (#52).
    const goesOn = (last.phase === 'FAILED' && !!last.failure?.resumeFrom) || (!(0,run_state/* isTerminal */.Hd)(last.phase) && last.phase !== 'ESCALATING' && last.phase !== 'AWAITING_APPROVAL');
    if (goesOn && (await heldByRepositoryBudget(ctx, issue, last.run, 'resume')))
        return;
    // crew itself failed (not the work): go back to the phase it failed in.
    if (last.phase === 'FAILED' && last.failure?.resumeFrom)
        return resumeFailed(ctx, ev, last, last.failure.resumeFrom);
    if ((last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL') && (await askUnasked(ctx, last)))
        return;
    if ((0,run_state/* isTerminal */.Hd)(last.phase) || last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL') {
        const why = last.phase === 'ESCALATING' || last.phase === 'AWAITING_APPROVAL'
            ? `run ${ctx.surface.runNumber(issue, last.run)} is waiting for you, not interrupted (see the plan comment)`
            : last.phase === 'FAILED' && (0,run_state/* failedTasks */.Ox)(await (0,context/* loadView */.QJ)(ctx, issue, last.run)).length
                ? `run ${ctx.surface.runNumber(issue, last.run)} ended because tasks failed. ${(0,surface/* sentence */.em)(ctx.surface.give('retry'))} to run them again (or ${ctx.surface.command('retry', '<task>')} for one)`
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
    const taken = await (0,context/* updateRun */.PF)(ctx, issue, run, `resume in ${back} after a failure`, (rec, tx) => {
        if (rec.phase !== 'FAILED' || !rec.failure?.resumeFrom)
            return false;
        const finalizer = back === 'INTEGRATING' || back === 'REVIEWING' ? ctx.runId : null;
        (0,run_files/* writeRun */.bp)(tx, { ...rec, phase: back, failure: null, finalizer }, (0,context/* nowIso */.kF)(ctx));
        return true;
    });
    if (!taken)
        return ctx.log.info('the run was resumed by another job first');
    ctx.log.info(`resuming run ${run} in ${back}, where crew failed (${last.failure?.step})`);
    const now = await (0,common/* latestRun */.hH)(ctx, issue);
    if (back === 'INTEGRATING' || back === 'REVIEWING') {
        // advance runs next in this workflow run: it integrates (INTEGRATING) or hands to the critic job (REVIEWING).
        await (0,common/* setOutputs */.n0)(ctx, issue, run, [], true);
        await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
        return;
    }
    if (back === 'ESCALATING' || back === 'AWAITING_APPROVAL') {
        if (!(await askUnasked(ctx, now)))
            await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
        return;
    }
    return resumeRun(ctx, ev, now);
}
async function resumeRun(ctx, ev, last) {
    const issue = ev.issue.number;
    const run = last.run;
    // The run may have stopped before its plan comment was posted or recorded.
    await (0,start/* ensurePlanComment */.Pr)(ctx, issue, run, true);
    if (last.phase === 'PLANNING') {
        const tasks = await (0,plan_run/* planRun */.n)(ctx, issue, run);
        await (0,common/* setOutputs */.n0)(ctx, issue, run, tasks);
        return (0,context/* syncPlanComment */.Of)(ctx, issue, run);
    }
    const config = await ctx.config();
    const now = (0,context/* nowIso */.kF)(ctx);
    // Which claims belong to nobody: the workflow run that holds them has finished (or the run was cancelled).
    const snapshot = await (0,context/* loadView */.QJ)(ctx, issue, run);
    const dead = new Set();
    const holding = [...snapshot.tasks.values()].filter((t) => (t.status === 'running' || t.status === 'retrying') && t.claim);
    // A dispatched run's legs work under its `dispatch:` claims without taking them (work.ts): a task
    // with a leg still going in a dispatched run is left to it. Task ids repeat across issues, so this
    // may leave a task to another issue's leg; the comment below says so.
    const dispatched = snapshot.run.phase === 'INTERRUPTED' ? [] : holding.filter((t) => t.claim.runId.startsWith('dispatch:'));
    const since = dispatched.length ? new Date(Math.min(...dispatched.map((t) => Date.parse(t.claim.at))) - context/* DISPATCH_CLOCK_SKEW_MS */.wk).toISOString() : '';
    // A parallel attempt's leg (`t1-a2`, #50) is its task's.
    const running = new Set((dispatched.length ? await ctx.forge.workLegsRunning(since) : []).map((l) => (0,attempts/* parseLeg */.U3)(l)?.task ?? l));
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
        const taken = await (0,task_results/* takePushedResult */.Sr)(ctx, issue, run, (0,run_files/* taskOf */.Xb)(snapshot, id), (tip) => untaken.set(id, tip));
        if (taken !== 'recorded')
            pushed.set(id, taken);
    }
    const claimed = await (0,context/* updateView */.vl)(ctx, issue, run, `resume`, (view, tx) => {
        for (const [id, how] of pushed) {
            const t = (0,run_files/* taskOf */.Xb)(view, id);
            // An attempt that never reached the branch does not count against the task.
            if (t.status === 'running' || t.status === 'retrying')
                (0,run_files/* writeTask */.bN)(tx, issue, run, {
                    ...t,
                    status: 'pending',
                    claim: null,
                    // Parallel attempts recorded under the claim (#50) keep it and its number: only the missing legs run again.
                    attempts: how === 'none' && !(0,run_state/* keepsCandidates */.V1)(t) ? Math.max(0, t.attempts - 1) : t.attempts,
                    headSha: t.headSha ?? untaken.get(id) ?? null,
                });
        }
        (0,run_files/* writeRun */.bp)(tx, { ...view.run, phase: 'EXECUTING', finalizer: null, failure: null }, now);
        return (0,transitions/* claimReadyTasks */.M)(tx, issue, run, config.max_parallel, (0,context/* taskClaim */.s1)(ctx, 'this-run', now));
    });
    ctx.log.checkpoint('run-resumed');
    await (0,common/* setOutputs */.n0)(ctx, issue, run, claimed, true);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}

;// CONCATENATED MODULE: ./src/steps/commands/decisions.ts















/**
 * A person's decision on an escalated task: retry it, accept its work as it is,
 * answer its question (it runs again with the answer), or re-plan the failed tasks.
 * Counts only if written by someone with write access after crew asked, and not edited.
 */
async function decideTask(ctx, ev, last, reply, text = '') {
    const issue = ev.issue.number;
    const run = last.run;
    const waiting = last.waiting;
    if (await askedJustNow(ctx, ev, last))
        return;
    if (!(await decisionReplyCounts(ctx, ev, waiting.commentId)))
        return;
    const config = await ctx.config();
    const now = (0,context/* nowIso */.kF)(ctx);
    const claim = (0,context/* taskClaim */.s1)(ctx, 'this-run', now);
    let toReplan = [];
    const asking = { next: null };
    const claimed = await (0,context/* updateView */.vl)(ctx, issue, run, `${reply} ${waiting.task} (@${ev.comment.author.login})`, (view, tx) => {
        if (view.run.waiting?.kind !== 'decision' || view.run.waiting.commentId !== waiting.commentId)
            return null;
        const task = (0,run_files/* taskOf */.Xb)(view, waiting.task);
        if (reply === 'accept')
            (0,run_files/* writeTask */.bN)(tx, issue, run, { ...task, accepted: true });
        if (reply === 'retry' || reply === 'answer') {
            const advice = reply === 'answer' ? [...task.advice, `@${ev.comment.author.login} answered: ${text.trim()}`] : task.advice;
            (0,run_files/* writeTask */.bN)(tx, issue, run, { ...task, status: 'pending', claim: null, advice, pendingReplan: false });
        }
        if (reply === 'revise') {
            toReplan = (0,run_state/* failedTasks */.Ox)(view).map((t) => t.id);
            for (const id of toReplan)
                (0,run_files/* writeTask */.bN)(tx, issue, run, { ...(0,run_files/* taskOf */.Xb)(view, id), pendingReplan: true });
        }
        (0,run_files/* writeRun */.bp)(tx, { ...view.run, phase: 'EXECUTING', waiting: null }, now);
        const started = reply === 'revise' ? [] : (0,transitions/* claimReadyTasks */.M)(tx, issue, run, config.max_parallel, claim);
        // One question at a time: the next one that waited for this answer is asked now.
        asking.next = (0,leader/* openQueuedQuestion */.Ub)(tx, issue, run, now);
        return started;
    });
    if (claimed === null)
        return ctx.log.info('the decision was already taken');
    const queued = asking.next;
    if (!queued)
        await ctx.forge.removeLabel(issue, labels/* WAITING_LABEL */.J);
    ctx.log.checkpoint('decision-taken');
    if (queued)
        await (0,leader/* askPerson */.fe)(ctx, issue, run, queued.task, queued.question, queued.planReview);
    if (reply === 'revise') {
        await (0,leader/* replanTasks */.Nd)(ctx, issue, run, toReplan, `A maintainer (@${ev.comment.author.login}) says: ${text}`);
        return (0,common/* setOutputs */.n0)(ctx, issue, run, [], true);
    }
    await (0,common/* setOutputs */.n0)(ctx, issue, run, claimed, true);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
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
    if (!(await decisionReplyCounts(ctx, ev, waiting.commentId)))
        return;
    const config = await ctx.config();
    const judgment = await (0,judgments/* lastJudgment */.n)(ctx.state, await (0,context/* loadView */.QJ)(ctx, issue, run));
    const now = (0,context/* nowIso */.kF)(ctx);
    const claim = (0,context/* taskClaim */.s1)(ctx, 'this-run', now);
    const judgeAgain = reply === 'accept' || !judgment || ((0,domain_judgment/* failingEvaluations */.Wx)(judgment).every((e) => e.met === null) && judgment.adversarial.length === 0);
    const claimed = await (0,context/* updateView */.vl)(ctx, issue, run, `${reply} the critic's FAIL (@${ev.comment.author.login})`, (view, tx) => {
        if (view.run.waiting?.kind !== 'verdict' || view.run.waiting.commentId !== waiting.commentId)
            return null;
        const review = view.run.review ?? run_state/* FRESH_REVIEW */.e0;
        if (reply === 'accept') {
            (0,run_files/* writeRun */.bp)(tx, { ...view.run, phase: 'REVIEWING', waiting: null, finalizer: ctx.runId, review: { ...review, acceptedBy: ev.comment.author.login } }, now);
            return [];
        }
        const allowance = Math.max(review.allowance, review.iteration - config.max_iterations) + 1;
        if (judgeAgain) {
            (0,run_files/* writeRun */.bp)(tx, { ...view.run, phase: 'REVIEWING', waiting: null, finalizer: ctx.runId, review: { ...review, allowance } }, now);
            return [];
        }
        // The person asks for another round: a failure that was already on the base is the tasks' to fix too.
        const targets = (0,domain_judgment/* tasksToRerun */.qz)(judgment, view, { blameBefore: true });
        for (const id of targets) {
            const t = (0,run_files/* taskOf */.Xb)(view, id);
            (0,run_files/* writeTask */.bN)(tx, issue, run, { ...t, status: 'pending', claim: null, error: null, finishedAt: null, advice: [...t.advice, (0,domain_judgment/* rerunAdvice */.bB)(judgment, id)] });
        }
        (0,run_files/* writeRun */.bp)(tx, { ...view.run, phase: 'EXECUTING', waiting: null, finalizer: null, review: { ...review, allowance, rerun: targets } }, now);
        return (0,transitions/* claimReadyTasks */.M)(tx, issue, run, config.max_parallel, claim);
    });
    if (claimed === null)
        return ctx.log.info('the decision was already taken');
    await ctx.forge.removeLabel(issue, labels/* WAITING_LABEL */.J);
    ctx.log.checkpoint('decision-taken');
    // advance runs next in this workflow run: with REVIEWING held by this run it hands over to the critic job.
    await (0,common/* setOutputs */.n0)(ctx, issue, run, claimed, true);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
/** `/crew retry` on a merge conflict crew could not resolve: integrate again (the maintainer may have fixed a branch). */
async function retryIntegration(ctx, ev, last) {
    const issue = ev.issue.number;
    const run = last.run;
    const waiting = last.waiting;
    if (!(await decisionReplyCounts(ctx, ev, waiting.commentId)))
        return;
    const taken = await (0,context/* updateView */.vl)(ctx, issue, run, `integrate again (@${ev.comment.author.login})`, (view, tx) => {
        if (view.run.waiting?.kind !== 'conflict' || view.run.waiting.commentId !== waiting.commentId)
            return false;
        (0,run_files/* writeRun */.bp)(tx, { ...view.run, phase: 'INTEGRATING', waiting: null, finalizer: ctx.runId }, (0,context/* nowIso */.kF)(ctx));
        return true;
    });
    if (!taken)
        return ctx.log.info('the decision was already taken');
    await ctx.forge.removeLabel(issue, labels/* WAITING_LABEL */.J);
    ctx.log.checkpoint('decision-taken');
    // advance runs next in this workflow run and, holding INTEGRATING, integrates again.
    await (0,common/* setOutputs */.n0)(ctx, issue, run, [], true);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
/** `/crew retry [task]`: failed tasks (or the one named) run again, with a fresh allowance of attempts. */
async function retry(ctx, ev, only) {
    const issue = ev.issue.number;
    const last = await (0,common/* latestRun */.hH)(ctx, issue);
    // A run waiting at a budget (#52) goes on with `/crew continue`, not a retry: said before the repository's budget, which continue waits on too.
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'budget') {
        const s = ctx.surface;
        await ctx.forge.postComment(issue, `There is nothing to retry: run ${s.runNumber(issue, last.run)} waits at a budget${(0,budget_stop/* budgetStopWhere */.Jn)(last.waiting)} (see the plan comment). ${(0,surface/* sentence */.em)(s.give('continue'))} to go on from where it stopped (${s.command('continue', '$N')} to set how much more it may spend)${(0,budgets/* budgetStopAccepts */.Fw)(last.waiting) ? `, ${s.command('accept')} to open the pull request with what exists` : ''} or ${s.command('abort')} to end it.`);
        return;
    }
    // Retrying spends: not past a repository budget (#52).
    if (last && ['FAILED', 'EXECUTING', 'INTERRUPTED', 'ESCALATING'].includes(last.phase) && (await heldByRepositoryBudget(ctx, issue, last.run, 'retry')))
        return;
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision' && (!only || only === last.waiting.task))
        return decideTask(ctx, ev, last, 'retry');
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'verdict' && !only)
        return decideVerdict(ctx, ev, last, 'retry');
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'conflict' && !only)
        return retryIntegration(ctx, ev, last);
    if (!last || !['FAILED', 'EXECUTING', 'INTERRUPTED'].includes(last.phase)) {
        await ctx.forge.postComment(issue, `There is nothing to retry${last ? ` (run ${ctx.surface.runNumber(issue, last.run)} is ${last.phase.toLowerCase()})` : ''}. ${(0,surface/* sentence */.em)(ctx.surface.give('run'))} to start a run.`);
        return;
    }
    const run = last.run;
    const config = await ctx.config();
    const now = (0,context/* nowIso */.kF)(ctx);
    const out = await (0,context/* updateView */.vl)(ctx, issue, run, `retry ${only ?? 'failed tasks'}`, (view, tx) => {
        const failed = (id) => (0,run_state/* settlement */.W9)(view.tasks.get(id)) === 'failed';
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
        const targets = [...wanted].map((id) => (0,run_files/* taskOf */.Xb)(view, id));
        // crew failed after the tasks (integrating, judging, finishing): retrying means carrying on from there.
        if (!targets.length && !only && view.run.phase === 'FAILED' && view.run.failure?.resumeFrom)
            return { resume: true };
        if (!targets.length)
            return { error: only ? `task ${only} has not failed, so there is nothing to retry.` : 'no task has failed, so there is nothing to retry.' };
        for (const t of targets)
            (0,run_files/* writeTask */.bN)(tx, issue, run, { ...t, status: 'pending', claim: null, error: null, finishedAt: null });
        (0,run_files/* writeRun */.bp)(tx, { ...view.run, phase: 'EXECUTING', failure: null }, now);
        return {
            claimed: (0,transitions/* claimReadyTasks */.M)(tx, issue, run, config.max_parallel, (0,context/* taskClaim */.s1)(ctx, 'this-run', now)),
            retried: targets.map((t) => t.id),
        };
    });
    if ('resume' in out)
        return resume(ctx, ev);
    if ('error' in out) {
        await ctx.forge.postComment(issue, `Run ${ctx.surface.runNumber(issue, run)}: ${out.error}`);
        return;
    }
    ctx.log.info(`retrying ${out.retried.join(', ')}`);
    await (0,common/* setOutputs */.n0)(ctx, issue, run, out.claimed, true);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
/** `/crew accept`: take an escalated task's work as it is, a critic's FAIL, or what exists at a budget's end. */
async function accept(ctx, ev) {
    const last = await (0,common/* latestRun */.hH)(ctx, ev.issue.number);
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision')
        return decideTask(ctx, ev, last, 'accept');
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'verdict')
        return decideVerdict(ctx, ev, last, 'accept');
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'budget')
        return acceptAtBudget(ctx, ev, last);
    // The run has ended and only its retrospective was skipped at the budget (retrospect.ts): that is `/crew continue`'s.
    if (last?.retroAtBudget && (0,run_state/* isTerminal */.Hd)(last.phase)) {
        const s = ctx.surface;
        await ctx.forge.postComment(ev.issue.number, `There is nothing to accept: run ${s.runNumber(ev.issue.number, last.run)} has ended (${last.pr ? `its pull request is ${last.pr.url}` : last.phase.toLowerCase()}); only its retrospective was skipped at the run's budget. ${(0,surface/* sentence */.em)(s.give('continue'))} to write it (${s.command('continue', '$N')} to set how much more it may spend).`);
        return;
    }
    await ctx.forge.postComment(ev.issue.number, 'There is no escalated task, critic verdict or budget stop waiting for a decision on this issue, so there is nothing to accept.');
}

// EXTERNAL MODULE: ./src/steps/commands/permission.ts + 2 modules
var permission = __webpack_require__(4419);
// EXTERNAL MODULE: ./src/domain/images.ts
var domain_images = __webpack_require__(99696);
;// CONCATENATED MODULE: ./src/steps/commands/answer.ts












/** `/crew answer` and a plain reply while crew waits on a question. */
/** An answer to crew's questions: a plain reply on a labelled issue, or `/crew answer`. */
async function answer(ctx, ev, text, opts) {
    const issue = ev.issue.number;
    const last = await (0,common/* latestRun */.hH)(ctx, issue);
    if (!last || last.phase !== 'ESCALATING' || (last.waiting?.kind !== 'answer' && last.waiting?.kind !== 'decision')) {
        if (!opts.quiet)
            await ctx.forge.postComment(issue, `crew is not waiting for an answer on this issue. ${(0,surface/* sentence */.em)(ctx.surface.give('status'))} to see where the run stands.`);
        else
            ctx.log.info('crew is not waiting for an answer; the comment is ordinary conversation');
        return;
    }
    if (last.waiting.kind === 'decision') {
        if (opts.quiet) {
            if (!(await (0,permission/* hasWriteAccess */.sv)(ctx, ev, false)))
                return;
            await ctx.forge.react?.(ev.comment.id, 'eyes');
        }
        if (!text)
            return nothingToTake(ctx, ev);
        return decideTask(ctx, ev, last, 'answer', text);
    }
    if (opts.quiet) {
        if (!(await (0,permission/* hasWriteAccess */.sv)(ctx, ev, false)))
            return;
        await ctx.forge.react?.(ev.comment.id, 'eyes');
    }
    if (!text)
        return nothingToTake(ctx, ev);
    const waiting = last.waiting;
    if (waiting.kind !== 'answer')
        return;
    const trust = await trustedReply(ctx, ev, waiting.commentId);
    if (trust !== 'ok') {
        await ctx.forge.postComment(issue, trust === 'stale'
            ? 'That comment was written before crew asked its questions, so it does not count as an answer. Reply again below.'
            : 'That answer was edited after it was posted, so crew did not take it. Post the answer as a new comment.');
        return;
    }
    const run = last.run;
    const taken = await (0,context/* updateRun */.PF)(ctx, issue, run, `answer from @${ev.comment.author.login}`, (rec, tx) => {
        if (rec.phase !== 'ESCALATING' || rec.waiting?.kind !== 'answer' || rec.waiting.commentId !== waiting.commentId)
            return false;
        const before = tx.read(run_files/* paths */.f0.answers(issue, run)) ?? '';
        const entry = [
            '## Questions',
            ...waiting.questions.map((q, i) => `${i + 1}. ${q}`),
            '',
            `## Answer from @${ev.comment.author.login}`,
            text.trim(),
            '',
        ].join('\n');
        tx.write(run_files/* paths */.f0.answers(issue, run), `${before}${before ? '\n' : ''}${entry}`);
        // The answer's images (`text` is sanitised: they are `[image]` there), with the comment that shows them: planning reads them next to the request's (#47).
        const images = (0,domain_images/* foundImages */.Lh)([{ shown: (0,sanitize/* renderedMarkup */.Q)((0,markdown/* withoutQuotes */.Yg)(ev.comment.body)), in: { kind: 'comment', id: ev.comment.id } }]);
        const answerImages = (0,domain_images/* mergeImages */.nV)([...(rec.answerImages ?? []), ...images]);
        (0,run_files/* writeRun */.bp)(tx, { ...rec, phase: 'PLANNING', waiting: null, ...(answerImages.length ? { answerImages } : {}) }, (0,context/* nowIso */.kF)(ctx));
        return true;
    });
    if (!taken)
        return ctx.log.info('another reply answered the questions first');
    await ctx.forge.removeLabel(issue, labels/* WAITING_LABEL */.J);
    ctx.log.checkpoint('answer-recorded');
    const tasks = await (0,plan_run/* planRun */.n)(ctx, issue, run);
    await (0,common/* setOutputs */.n0)(ctx, issue, run, tasks);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}

// EXTERNAL MODULE: ./src/domain/doctor.ts
var doctor = __webpack_require__(84441);
// EXTERNAL MODULE: ./src/domain/criteria.ts
var criteria = __webpack_require__(83543);
// EXTERNAL MODULE: ./src/domain/toolchain-setup.ts
var toolchain_setup = __webpack_require__(47323);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/domain/setup-caches.ts
var setup_caches = __webpack_require__(59613);
;// CONCATENATED MODULE: ./src/doctor/setup-caches.ts



/** The setup action's cache folders on the default branch (domain/setup-caches.ts); undefined when there is no setup action. */
async function setupCacheFacts(settings) {
    const reads = await Promise.all([toolchain_setup/* SETUP_ACTION_PATH */.BC, '.npmrc', '.yarnrc.yml'].map((f) => settings.defaultBranchFile(f)));
    const refused = reads.find((r) => !r.ok);
    if (refused && !refused.ok)
        return refused;
    const [action, npmrc, yarnrc] = reads.map((r) => (r.ok && r.value !== null ? r.value : undefined));
    if (action === undefined)
        return undefined;
    return (0,doctor.ok)((0,setup_caches/* setupCaches */.dc)(action, { ...(npmrc !== undefined ? { npmrc } : {}), ...(yarnrc !== undefined ? { yarnrc } : {}) }));
}

;// CONCATENATED MODULE: ./src/doctor/gather.ts






/** A task branch's name as crew makes them (the rules of any `crew/<N>/r<k>/<task>` branch are asked through it). */
const SAMPLE_TASK_BRANCH = 'crew/1/r1/t1';
const STATE_BRANCH = 'crew/state';
/** The toolchain files and the setup action on the default branch; undefined when no file declares a version. */
async function toolchainFacts(settings, opts) {
    const reads = await Promise.all([...toolchain_setup/* TOOLCHAIN_FILES */.MX, toolchain_setup/* SETUP_ACTION_PATH */.BC].map(async (f) => [f, await settings.defaultBranchFile(f)]));
    const refused = reads.find(([, r]) => !r.ok && r.status !== 0)?.[1];
    if (refused && !refused.ok)
        return refused;
    // A file GitHub sends without its content (over 1 MB) is said, and the check goes on with the others.
    const unread = reads.flatMap(([, r]) => (r.ok ? [] : [r.message]));
    const texts = new Map(reads.flatMap(([f, r]) => (r.ok && r.value !== null ? [[f, r.value]] : [])));
    const declared = (0,toolchain_setup/* declaredVersions */.sI)((0,toolchain_setup/* toolchainSetup */.RG)({ names: [...texts.keys()], read: (n) => texts.get(n) }));
    if (!declared.length && !unread.length)
        return undefined;
    const action = texts.get(toolchain_setup/* SETUP_ACTION_PATH */.BC);
    const facts = { declared, setUp: action === undefined ? null : [...(0,toolchain_setup/* toolchainsSetUp */.wU)(action)], ...(unread.length ? { unread } : {}) };
    const uncovered = declared.map((d) => d.tool).filter((t) => !facts.setUp?.includes(t));
    if (opts.runnerToolchains && uncovered.length)
        facts.runner = await opts.runnerToolchains(uncovered);
    return (0,doctor.ok)(facts);
}
/** Everything `diagnose` needs, read at once; a read GitHub refuses is kept as its status, never thrown. */
async function gatherFacts(settings, opts) {
    const repo = await settings.repository();
    const [actions, workflowPermissions, taskBranchRules, stateBranchRules, stateBranchProtected, workflowFile, configText, secret] = await Promise.all([
        settings.actionsPermissions(),
        settings.workflowPermissions(),
        settings.branchRules(SAMPLE_TASK_BRANCH),
        settings.branchRules(STATE_BRANCH),
        settings.branchProtected(STATE_BRANCH),
        settings.defaultBranchFile(doctor/* WORKFLOW_PATH */.A8),
        settings.defaultBranchFile(doctor/* CONFIG_FILE */.g2),
        opts.asking === 'job' ? Promise.resolve((0,doctor.ok)(opts.jobHasKey === true)) : settings.secretExists(doctor/* SECRET_NAME */.J4),
    ]);
    const toolchains = await toolchainFacts(settings, opts);
    const setupCaches = await setupCacheFacts(settings);
    const facts = {
        repo,
        asking: opts.asking,
        actions,
        workflowPermissions,
        taskBranchRules,
        stateBranchRules,
        stateBranchProtected,
        workflowFile,
        config: configOf(configText),
        secret,
        crewVersion: version/* CREW_VERSION */.f,
        ...(toolchains ? { toolchains } : {}),
        ...(setupCaches ? { setupCaches } : {}),
    };
    if (opts.strays) {
        facts.strays = await opts.strays().then((s) => (s === undefined ? undefined : (0,doctor.ok)(s)), (e) => ({ ok: false, status: 0, message: e.message }));
        if (!facts.strays)
            delete facts.strays;
    }
    if (opts.spend)
        facts.spend = await opts.spend().then(doctor.ok, (e) => ({ ok: false, status: 0, message: e.message }));
    return facts;
}
function configOf(text) {
    if (!text.ok)
        return text;
    if (text.value === null)
        return (0,doctor.ok)(null);
    try {
        const config = (0,schema/* parseConfig */.o4)(text.value, doctor/* CONFIG_FILE */.g2);
        // `criteria:` takes commands; one the plan review would refuse stops every run at planning.
        const unrunnable = config.criteria.flatMap((c, i) => {
            const p = (0,criteria/* commandProblem */.RS)(c);
            return p ? [`criteria[${i}] "${c}" is not a command crew can run: ${p}`] : [];
        });
        return (0,doctor.ok)({ provider: config.provider, ...(unrunnable.length ? { error: unrunnable.join('; ') } : {}) });
    }
    catch (e) {
        if (e instanceof schema/* ConfigError */.xL)
            return (0,doctor.ok)({ error: e.problems.join('; '), provider: 'anthropic' });
        throw e;
    }
}

;// CONCATENATED MODULE: ./src/doctor/report.ts

const MARK = { ok: '✅', problem: '❌', unknown: '❔', note: '⚠️' };
const WORD = { ok: 'ok', problem: 'FIX', unknown: '??', note: 'note' };
function summary(findings) {
    const problems = findings.filter((f) => f.status === 'problem').length;
    return (0,doctor/* healthy */.s2)(findings) ? 'crew is set up: nothing to fix.' : `${problems} thing${problems === 1 ? '' : 's'} to fix before crew can run here.`;
}
/** The comment `/crew doctor` posts: a summary line, then one line per check with its fix. */
function doctorComment(facts, findings) {
    const lines = findings.map((f) => `- ${MARK[f.status]} ${f.says}${f.fix ? `<br>Fix: ${f.fix}` : ''}`);
    return [`### crew doctor: ${facts.repo.fullName}`, '', `**${summary(findings)}**`, '', ...lines].join('\n');
}
/** What `crew doctor` prints at a terminal. */
function doctorText(facts, findings) {
    const lines = findings.flatMap((f) => [`  ${WORD[f.status].padEnd(4)}  ${f.says}`, ...(f.fix ? [`        fix: ${f.fix}`] : [])]);
    return [`crew doctor: ${facts.repo.fullName} (default branch ${facts.repo.defaultBranch})`, '', ...lines, '', summary(findings), ''].join('\n');
}
/** `crew doctor --json`: the findings for tools. */
function doctorJson(facts, findings) {
    return `${JSON.stringify({ repository: facts.repo.fullName, defaultBranch: facts.repo.defaultBranch, healthy: healthy(findings), findings }, null, 2)}\n`;
}

// EXTERNAL MODULE: ./src/steps/cleanup.ts
var cleanup = __webpack_require__(42179);
// EXTERNAL MODULE: ./src/render/spend.ts
var render_spend = __webpack_require__(86196);
// EXTERNAL MODULE: ./src/domain/spend.ts
var spend = __webpack_require__(48180);
// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(31421);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(57975);
// EXTERNAL MODULE: ./src/domain/toolchain-check.ts + 1 modules
var toolchain_check = __webpack_require__(98112);
;// CONCATENATED MODULE: ./src/doctor/runner-toolchains.ts



const run = (0,external_node_util_.promisify)(external_node_child_process_.execFile);
/** How long a program has to say its version. */
const VERSION_TIMEOUT_MS = 15_000;
/**
 * The versions of the runner's own programs, as a job's shell steps find them on PATH (`/crew doctor`
 * runs in crew's route job, on the same runner image as the work jobs, before any setup steps): the
 * first version-looking word of each one's answer; null when the program is not there or fails;
 * `{ silentForMs }` when it did not answer in time (it is there, so "missing" would mislead).
 */
async function runnerToolchains(tools, timeoutMs = VERSION_TIMEOUT_MS) {
    const found = await Promise.all(tools.map(async (t) => {
        try {
            const { stdout, stderr } = await run(toolchain_check/* TOOLCHAIN_PROGRAM */.r6[t], toolchain_check/* VERSION_ARGS */.Lx[t], { timeout: timeoutMs });
            return [t, /\b(?:go|v)?(\d+\.\d+(?:\.\d+)?)/.exec(`${stdout} ${stderr}`)?.[1] ?? null];
        }
        catch (e) {
            // execFile's timeout kills the program and says so with `killed`.
            return [t, e.killed ? { silentForMs: timeoutMs } : null];
        }
    }));
    return Object.fromEntries(found);
}

;// CONCATENATED MODULE: ./src/steps/commands/doctor.ts








/**
 * `/crew doctor`: the repository's setup as this job's token can see it, one line per check with its
 * fix, in one comment. The job's token cannot read the admin-only settings; those lines say where to
 * look, and that `npx crew doctor` with an admin's token reads them.
 */
async function doctor_doctor(ctx, ev) {
    const issue = ev.issue.number;
    if (!ctx.repositorySettings) {
        await ctx.forge.postComment(issue, 'crew doctor checks a repository on GitHub; in a local run there is nothing of GitHub to check.');
        return;
    }
    const config = await ctx.config().catch(() => undefined);
    const facts = await gatherFacts(ctx.repositorySettings, {
        asking: 'job',
        // The key's presence only: a provider other than anthropic signs in otherwise (diagnose says so).
        jobHasKey: ctx.settings.anthropicApiKey.length > 0,
        strays: async () => (await (0,cleanup.findStrayBranches)(ctx))?.map((b) => b.branch),
        spend: async () => {
            const summary = await (0,spend_gate/* repositorySpend */.r0)(ctx);
            return { says: (0,render_spend/* spendSentence */.Mu)(summary), near: (0,spend/* budgetVerdict */.lS)(summary, 0).kind !== 'ok' };
        },
        // This job runs on the runner image the work jobs get, before any setup steps: its programs are theirs.
        runnerToolchains: runnerToolchains,
    });
    if (config && facts.config.ok && facts.config.value)
        facts.config.value.provider = config.provider;
    await ctx.forge.postComment(issue, doctorComment(facts, (0,doctor/* diagnose */.h4)(facts)));
}

;// CONCATENATED MODULE: ./src/steps/commands/approval.ts








/** `/crew approve` and `/crew revise`: the plan that waits for a person. */
async function approve(ctx, ev) {
    const issue = ev.issue.number;
    const last = await (0,common/* latestRun */.hH)(ctx, issue);
    if (!last || last.phase !== 'AWAITING_APPROVAL' || last.waiting?.kind !== 'approval') {
        await ctx.forge.postComment(issue, `There is no plan waiting for approval on this issue, so crew ignored that approval. ${(0,surface/* sentence */.em)(ctx.surface.give('plan'))} to make one.`);
        return;
    }
    const waiting = last.waiting;
    if (await askedJustNow(ctx, ev, last))
        return;
    const trust = await trustedReply(ctx, ev, waiting.commentId);
    if (trust !== 'ok') {
        await ctx.forge.postComment(issue, trust === 'stale'
            ? `That approval was written before plan v${waiting.planVersion} was posted, so crew ignored it. ${(0,surface/* sentence */.em)(ctx.surface.give('approve'))} again to approve the current plan.`
            : `That approval was edited after it was posted, so crew ignored it. Post ${ctx.surface.command('approve')} as a new comment.`);
        return;
    }
    const run = last.run;
    const config = await ctx.config();
    const now = (0,context/* nowIso */.kF)(ctx);
    const claimed = await (0,context/* updateRun */.PF)(ctx, issue, run, `plan v${waiting.planVersion} approved by @${ev.comment.author.login}`, (rec, tx) => {
        if (rec.phase !== 'AWAITING_APPROVAL' || rec.waiting?.kind !== 'approval' || rec.waiting.planVersion !== waiting.planVersion)
            return null;
        (0,run_files/* writeRun */.bp)(tx, { ...rec, phase: 'EXECUTING', waiting: null, approvedBy: ev.comment.author.login }, now);
        return (0,transitions/* claimReadyTasks */.M)(tx, issue, run, config.max_parallel, (0,context/* taskClaim */.s1)(ctx, 'this-run', now));
    });
    if (claimed === null)
        return ctx.log.info('the plan changed or was approved by someone else first');
    ctx.log.checkpoint('plan-approved');
    await (0,common/* setOutputs */.n0)(ctx, issue, run, claimed);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
async function revise(ctx, ev, feedback) {
    const issue = ev.issue.number;
    if (!feedback) {
        await ctx.forge.postComment(issue, `Say what to change after the command: ${ctx.surface.command('revise', '<what to change>')}.`);
        return;
    }
    const last = await (0,common/* latestRun */.hH)(ctx, issue);
    if (last?.phase === 'ESCALATING' && last.waiting?.kind === 'decision' && last.waiting.topic === 'plan_review')
        return decideTask(ctx, ev, last, 'revise', feedback);
    if (!last || last.phase !== 'AWAITING_APPROVAL') {
        await ctx.forge.postComment(issue, `There is no plan waiting for approval on this issue, so there is nothing to revise. ${(0,surface/* sentence */.em)(ctx.surface.give('plan'))} to make one.`);
        return;
    }
    const run = last.run;
    const taken = await (0,context/* updateRun */.PF)(ctx, issue, run, `revise`, (rec, tx) => {
        if (rec.phase !== 'AWAITING_APPROVAL')
            return false;
        (0,run_files/* writeRun */.bp)(tx, { ...rec, phase: 'PLANNING', waiting: null }, (0,context/* nowIso */.kF)(ctx));
        return true;
    });
    if (!taken)
        return;
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
    const tasks = await (0,plan_run/* planRun */.n)(ctx, issue, run, `A maintainer (@${ev.comment.author.login}) asked for these changes: ${feedback}`);
    await (0,common/* setOutputs */.n0)(ctx, issue, run, tasks);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}

// EXTERNAL MODULE: ./src/render/messages.ts
var messages = __webpack_require__(93050);
// EXTERNAL MODULE: ./src/render/cleanup.ts
var render_cleanup = __webpack_require__(94420);
;// CONCATENATED MODULE: ./src/steps/commands/info.ts












/** `/crew status`, `/crew help`, `/crew retro` and `/crew remember`. */
/** `/crew retro`: a full retrospective of the newest finished run, posted again if there was one. */
async function retro(ctx, ev) {
    const issue = ev.issue.number;
    const last = await (0,common/* latestRun */.hH)(ctx, issue);
    if (!last || !(0,run_state/* isTerminal */.Hd)(last.phase)) {
        await ctx.forge.postComment(issue, last
            ? `Run ${ctx.surface.runNumber(issue, last.run)} is still ${last.phase.toLowerCase()}; \`/crew retro\` looks back at a finished run. Try again when it ends.`
            : `There is no run on this issue to look back at. ${(0,surface/* sentence */.em)(ctx.surface.give('run'))} first.`);
        return;
    }
    ctx.model(); // fails now, with a clear message, if no key was given
    await (0,retrospect/* retrospect */.o)(ctx, issue, last.run, true);
}
/**
 * `/crew status`: the plan comment brought up to date (or a question that was never posted, asked
 * now), and, when there are any, the repository's `crew/` branches that belong to no open run, and
 * its spend today and this month against `budgets.day` and `budgets.month` (when one is set), in one comment.
 */
async function info_status(ctx, ev) {
    const issue = ev.issue.number;
    const last = await (0,common/* latestRun */.hH)(ctx, issue);
    const said = [];
    if (!last)
        said.push(`There is no crew run on this issue yet. ${(0,surface/* sentence */.em)(ctx.surface.give('run'))} to start one.`);
    else if (!(await askUnasked(ctx, last)))
        await (0,context/* syncPlanComment */.Of)(ctx, issue, last.run);
    const strays = await (0,cleanup.findStrayBranches)(ctx).catch((e) => {
        ctx.log.warn(`could not list crew's branches: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
    });
    if (strays?.length)
        said.push((0,render_cleanup/* strayBranchLines */.F)(strays, 30, ctx.surface).join('\n'));
    // The spend is said where a budget is set, or where crew comments anyway; otherwise status only refreshes the plan comment.
    const spend = await (0,spend_gate/* repositorySpend */.r0)(ctx).catch((e) => {
        ctx.log.warn(`could not sum the repository's spend: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
    });
    const budgeted = spend && (spend.day.budgetUsd !== undefined || spend.month.budgetUsd !== undefined);
    if (spend && (budgeted || said.length))
        said.push((0,render_spend/* spendComment */.ig)(spend, ctx.surface));
    if (said.length)
        await ctx.forge.postComment(issue, said.join('\n\n'));
}
/** `/crew help`, and any word crew does not know. */
async function help(ctx, ev, unknownWord) {
    await ctx.forge.postComment(ev.issue.number, (0,messages/* helpComment */.X2)(unknownWord));
}
/** `/crew remember <n>`: memory candidate n of the newest retrospective becomes a pull request to the knowledge base. */
async function rememberCandidate(ctx, ev, n) {
    const issue = ev.issue.number;
    const snap = await ctx.state.load(`issue-${issue}/`);
    const runs = (0,run_files/* runNumbers */.Sm)(snap, issue)
        .map((k) => (0,context/* recordIn */.Rn)(snap, issue, k))
        .filter(Boolean);
    await ctx.forge.postComment(issue, await (0,retrospect/* remember */.k)(ctx, issue, runs, n, ev.comment.author.login));
}

;// CONCATENATED MODULE: ./src/steps/commands/index.ts











/**
 * Each command's handler, by kind. The type makes every kind in the registry
 * (domain/commands.ts) have one, so a command cannot be parsed and then go unanswered.
 */
const HANDLERS = {
    run: async (ctx, ev, c) => void (await (0,start/* startRun */.AD)(ctx, { ...(0,start/* commentRequest */.bu)(ctx, ev), ...(c.attempts !== undefined ? { attempts: c.attempts } : {}) }, 'run')),
    plan: async (ctx, ev, c) => void (await (0,start/* startRun */.AD)(ctx, { ...(0,start/* commentRequest */.bu)(ctx, ev), ...(c.attempts !== undefined ? { attempts: c.attempts } : {}) }, 'plan')),
    // On crew's own pull request route.ts starts the follow-up; anywhere else there is no branch of crew's to fix.
    fix: async (ctx, ev) => {
        await ctx.forge.postComment(ev.issue.number, `\`/crew fix\` works on a pull request crew opened: comment it there (or submit a review starting with \`/crew\`), and crew follows up on the same branch. On an issue, ${ctx.surface.command('run')} starts a new run.`);
    },
    approve: (ctx, ev) => approve(ctx, ev),
    revise: (ctx, ev, c) => revise(ctx, ev, (0,sanitize/* sanitize */.a)(c.feedback, common/* REPLY_CHARS */.xu)),
    answer: async (ctx, ev, c) => {
        const text = (0,sanitize/* sanitize */.a)(c.text, common/* REPLY_CHARS */.xu);
        if (!text) {
            await ctx.forge.postComment(ev.issue.number, `Write the answer after the command: ${ctx.surface.command('answer', '<text>')}.`);
            return;
        }
        return answer(ctx, ev, text, { quiet: false });
    },
    accept: (ctx, ev) => accept(ctx, ev),
    retry: (ctx, ev, c) => retry(ctx, ev, c.task),
    abort: (ctx, ev) => abort(ctx, ev),
    resume: (ctx, ev) => resume(ctx, ev),
    continue: (ctx, ev, c) => continueRun(ctx, ev, c.amountUsd),
    status: (ctx, ev) => info_status(ctx, ev),
    retro: (ctx, ev) => retro(ctx, ev),
    remember: (ctx, ev, c) => rememberCandidate(ctx, ev, c.n),
    help: (ctx, ev) => help(ctx, ev),
    doctor: (ctx, ev) => doctor_doctor(ctx, ev),
    unknown: (ctx, ev, c) => help(ctx, ev, c.word),
};
/** Runs the handler of a parsed command. */
function handle(ctx, ev, command) {
    return HANDLERS[command.kind](ctx, ev, command);
}

// EXTERNAL MODULE: ./src/steps/follow-up.ts
var follow_up = __webpack_require__(25442);
// EXTERNAL MODULE: ./src/steps/ci-status.ts + 3 modules
var ci_status = __webpack_require__(99691);
;// CONCATENATED MODULE: ./src/steps/route.ts















/** The `route` job: turns a comment or a dispatch into the set of tasks the matrix runs. */
async function route(ctx) {
    await (0,common/* setOutputs */.n0)(ctx, '', '', []);
    if (ctx.event.kind === 'dispatch')
        outdatedWorkflow(ctx.event);
    if (ctx.event.kind === 'pull') {
        // A review or a review comment carries words: a `/crew` there counts like a comment on the pull request.
        if (ctx.event.comment)
            return routeComment(ctx, ctx.event.comment);
        // A CI run that failed on crew's pull request: fix_ci's to count and answer, and the merge gate's to say so.
        if (ctx.event.ci)
            return (0,ci_status/* routeCiRun */.D)(ctx, ctx.event, ctx.event.ci);
        return ctx.log.info(`route has nothing to do on a ${ctx.event.source} event; the merge job handles it`);
    }
    if (ctx.event.kind === 'issue')
        return routeIssueEvent(ctx, ctx.event);
    return routeComment(ctx, ctx.event);
}
async function routeComment(ctx, ev) {
    if (ev.action !== 'created')
        return ctx.log.info(`ignoring a comment ${ev.action} event`);
    if (ev.comment.author.type !== 'User')
        return ctx.log.info(`ignoring a comment from ${ev.comment.author.login} (${ev.comment.author.type})`);
    if (await isOwnComment(ctx, ev))
        return ctx.log.info(`ignoring crew's own comment (as @${ev.comment.author.login})`);
    const command = (0,commands/* parseCommand */.RM)(ev.comment.body);
    const issue = ev.issue.number;
    if (!command && ev.via === 'review' && ev.reviewState === 'changes_requested')
        return routeChangesRequested(ctx, ev);
    if (!command) {
        // The workflow lets through only reviews that start with /crew (and changes requested on crew's own); any other is not an answer either.
        if (ev.via)
            return ctx.log.info(`the ${ev.via === 'review' ? 'review' : 'review comment'} is not a /crew command; nothing to do`);
        // A plain comment only matters as the answer to a question crew is waiting on; otherwise it costs nothing.
        if (!ev.issue.labels.includes(labels/* WAITING_LABEL */.J))
            return ctx.log.info('the comment is not a /crew command; nothing to do');
        // Quoted lines are someone else's words (often crew's own question, or another person's text).
        return answer(ctx, ev, (0,sanitize/* sanitize */.a)((0,markdown/* withoutQuotes */.Yg)(ev.comment.body), common/* REPLY_CHARS */.xu), { quiet: true });
    }
    // Reviews have no reactions in the REST API, and a review comment's are on another endpoint: the reply says crew saw it.
    // The reaction says crew saw the comment whoever wrote it, so it need not wait for the permission check (one round trip less).
    const [, writer] = await Promise.all([
        ev.via ? undefined : ctx.forge.react?.(ev.comment.id, 'eyes'),
        (0,permission/* hasWriteAccess */.sv)(ctx, ev.via ? { issue, login: ev.comment.author.login } : ev, true),
    ]);
    if (!writer)
        return;
    if (ev.issue.isPull)
        return routePullCommand(ctx, ev, command);
    await handle(ctx, ev, command);
}
/** What a review or a review comment may ask for: the commands that need no re-reading of the comment. */
const FROM_REVIEWS = new Set(['run', 'plan', 'status', 'help', 'unknown']);
/**
 * A `/crew` command on a pull request, from a person with write access. crew's own pull requests
 * (head `crew/<issue>/r<k>/integration`) get follow-up runs on their branch. A fork's is refused: crew cannot push
 * there, and would run the fork's code in jobs that hold this repository's tokens. A person's
 * branch in this repository is the base of a run under the pull request's number, whose own pull
 * request goes into that branch; crew never pushes to it.
 */
async function routePullCommand(ctx, ev, command) {
    const number = ev.issue.number;
    const pull = await ctx.forge.getPull(number);
    if (pull.fromFork) {
        await ctx.forge.postComment(number, forkRefusal(pull));
        return;
    }
    const own = (0,refs/* runOfIntegrationBranch */.$o)(pull.headRef);
    if (own)
        return ownPullCommand(ctx, ev, command, own.issue);
    if (pull.headRef.startsWith('crew/')) {
        await ctx.forge.postComment(number, `This pull request's branch (\`${pull.headRef}\`) is one of crew's, but not a run's pull request, so crew does not work on it. Comment \`/crew run\` on the issue it came from to start a new run.`);
        return;
    }
    if (pull.state !== 'open') {
        await ctx.forge.postComment(number, 'This pull request is closed, so crew will not work on it. Reopen it, or comment `/crew run` on an issue that describes the change.');
        return;
    }
    if (ev.via && !FROM_REVIEWS.has(command.kind)) {
        await ctx.forge.postComment(number, `crew takes \`/crew ${command.kind}\` only as a comment in the pull request's conversation, not in a review${ev.via === 'review_comment' ? ' comment' : ''}. Comment it there.`);
        return;
    }
    if (command.kind === 'run' || command.kind === 'plan')
        return void (await (0,start/* startRun */.AD)(ctx, pullRequestRun(ctx, ev, pull), command.kind));
    await handle(ctx, ev, command);
}
/**
 * A `/crew` on crew's own pull request: `/crew fix <feedback>`, `/crew run [feedback]` and
 * `/crew <feedback>` start a follow-up on its branch; the commands about a run are given on its
 * issue, where the run lives.
 */
async function ownPullCommand(ctx, ev, command, issue) {
    const feedback = command.kind === 'fix' ? command.feedback : command.kind === 'run' || command.kind === 'unknown' ? (0,commands/* commandText */.jt)(ev.comment.body) : undefined;
    if (command.kind === 'unknown')
        ctx.log.info(`/crew ${command.word} on crew's own pull request: taken as feedback for a follow-up`);
    if (feedback === undefined) {
        if (command.kind === 'help' || command.kind === 'doctor')
            return handle(ctx, ev, command);
        await ctx.forge.postComment(ev.issue.number, `This pull request is crew's own: \`/crew ${command.kind}\` is about its run, so comment it on issue #${issue}, where the run lives. Here, \`/crew fix <feedback>\` (or \`/crew <feedback>\`) starts a follow-up on this branch.`);
        return;
    }
    // `/crew run` and unknown words: the words after `/crew` (the word itself included) are the feedback.
    const words = command.kind === 'unknown' ? ev.comment.body.replace(/^\/crew\s*/, '') : feedback;
    await (0,follow_up/* startFollowUp */.R)(ctx, {
        pull: ev.issue.number,
        by: ev.comment.author.login,
        feedback: (0,markdown/* withoutQuotes */.Yg)(words),
        source: ev.via ? 'review' : 'comment',
        trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt, workflowRunId: ctx.runId, ...(ev.via ? { how: ev.via } : {}) },
    });
}
/**
 * A review that requests changes without a command. The workflow cannot read crew.yml, so it
 * starts this job for every such review on a `crew/` head; only `iterate_on_review: true` makes
 * it a follow-up, by a writer, on crew's own open pull request. Otherwise it is skipped, logged.
 */
async function routeChangesRequested(ctx, ev) {
    let on = false;
    try {
        on = (await ctx.config()).iterate_on_review;
    }
    catch (e) {
        if (!(e instanceof schema/* ConfigError */.xL))
            throw e;
        return ctx.log.warn(`a review requested changes, but .github/crew.yml cannot be read (${e.message}); no follow-up started`);
    }
    if (!on)
        return ctx.log.info('a review requested changes; iterate_on_review is off in .github/crew.yml, so no follow-up starts (comment /crew fix to start one)');
    if (ev.comment.author.type !== 'User')
        return ctx.log.info(`ignoring a review by ${ev.comment.author.login} (${ev.comment.author.type})`);
    const pull = await ctx.forge.getPull(ev.issue.number);
    if (!(0,refs/* runOfIntegrationBranch */.$o)(pull.headRef) || pull.fromFork)
        return ctx.log.info(`#${ev.issue.number} is not crew's own pull request; a review there starts nothing`);
    // Without a command, a reader's review is ordinary review traffic, not a request to crew: no refusal comment.
    if (!(await (0,permission/* hasWriteAccess */.sv)(ctx, { issue: ev.issue.number, login: ev.comment.author.login }, false)))
        return;
    ctx.log.info(`@${ev.comment.author.login} requested changes on crew's pull request #${ev.issue.number}: starting a follow-up (iterate_on_review)`);
    await (0,follow_up/* startFollowUp */.R)(ctx, {
        pull: ev.issue.number,
        by: ev.comment.author.login,
        feedback: (0,markdown/* withoutQuotes */.Yg)(ev.comment.body),
        source: 'review',
        trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt, workflowRunId: ctx.runId, how: 'review' },
    });
}
/** The run a person's pull request asks for: its title and body, the words after the command, and its head as the base. */
function pullRequestRun(ctx, ev, pull) {
    const asked = (0,commands/* commandText */.jt)(ev.comment.body);
    return {
        issue: { number: ev.issue.number, title: ev.issue.title, body: asked ? `${ev.issue.body}\n\n${asked}` : ev.issue.body },
        by: ev.comment.author.login,
        trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt, workflowRunId: ctx.runId, ...(ev.via ? { how: ev.via } : {}) },
        base: { branch: pull.headRef, sha: pull.headSha, pull: ev.issue.number },
        // Its images are read through the texts that show them (#47): the words after the command are the comment's.
        comment: ev.comment.body,
    };
}
function forkRefusal(pull) {
    const where = pull.headRepo ? `\`${pull.headRepo}\`` : 'a fork that no longer exists';
    return [
        `crew does not work on pull requests from forks, and this one's branch is in ${where}.`,
        '',
        '- crew cannot push there: it pushes only to `crew/` branches of this repository.',
        "- It does not run a fork's code in jobs that hold this repository's write token and secrets.",
        '',
        'Instead, open an issue that describes the change and comment `/crew run` on it; or, if you have write access, push the branch to this repository, open a pull request from it and comment `/crew run` there.',
    ].join('\n');
}
/**
 * A label or an assignment starts `/crew run` when it is the configured trigger and the person
 * who made it (the event's sender, not the issue's author) has write access: triage users can
 * label and assign, so neither is a sign of it.
 */
async function routeIssueEvent(ctx, ev) {
    const how = ev.action === 'labeled' ? 'label' : ev.action === 'assigned' ? 'assignee' : undefined;
    if (!how)
        return ctx.log.info(`ignoring an issues ${ev.action} event`);
    if (ev.sender.type !== 'User')
        return ctx.log.info(`ignoring an issues ${ev.action} event by ${ev.sender.login} (${ev.sender.type})`);
    let config;
    try {
        config = await ctx.config();
    }
    catch (e) {
        if (!(e instanceof schema/* ConfigError */.xL))
            throw e;
        // Whether this label is crew's trigger is in the file crew cannot read: say so, but only to a writer.
        if (!(await (0,permission/* hasWriteAccess */.sv)(ctx, { issue: ev.issue.number, login: ev.sender.login }, false)))
            return;
        throw new context/* CrewError */.uH('reading the configuration', `${e.message}\n\ncrew could not tell whether this ${how === 'label' ? `label (\`${ev.label}\`)` : `assignment (@${ev.assignee})`} should start a run, so nothing started.`, 'Fix `.github/crew.yml` on the default branch, then comment `/crew run`.');
    }
    const wanted = how === 'label' ? config.trigger_label : config.trigger_assignee;
    const got = how === 'label' ? ev.label : ev.assignee;
    // With label triggers on, `crew: best of N` starts a run of N parallel attempts of each task (#50).
    const bestOf = how === 'label' && wanted && got ? (0,attempts/* bestOfLabel */.im)(got) : null;
    if (!wanted || !got || (wanted.toLowerCase() !== got.toLowerCase() && bestOf === null))
        return ctx.log.info(`the ${how} ${got ?? '(none)'} is not crew's trigger_${how} (${wanted ?? 'not set'}); nothing to do`);
    if (await isOwnLogin(ctx, ev.sender.login))
        return ctx.log.info(`ignoring crew's own ${how} (as @${ev.sender.login})`);
    if (!(await (0,permission/* hasWriteAccess */.sv)(ctx, { issue: ev.issue.number, login: ev.sender.login }, true)))
        return;
    ctx.log.info(`@${ev.sender.login} ${how === 'label' ? `labelled the issue ${got}` : `assigned the issue to @${got}`}: starting a run`);
    await (0,start/* startRun */.AD)(ctx, {
        issue: ev.issue,
        by: ev.sender.login,
        trigger: { commentId: 0, createdAt: ev.issue.updatedAt, workflowRunId: ctx.runId, how },
        ...(bestOf !== null ? { attempts: bestOf } : {}),
    }, 'run');
}
async function isOwnLogin(ctx, login) {
    try {
        return login.toLowerCase() === (await ctx.forge.botLogin()).toLowerCase();
    }
    catch {
        return false;
    }
}
/**
 * With a personal token crew comments as a user, so its own comments pass the workflow's
 * `type == 'User'` filter and, while `crew: waiting` is on, would be taken as the answer.
 * Its comments are told apart by the idempotency key crew puts on every comment, and its
 * login: someone who lends crew their own token still answers as themselves, with no key.
 * Only keyed comments cost the look-up of crew's login. When that look-up fails (an invalid
 * crew.yml with `bot_login`, GitHub down), a keyed comment counts as crew's: answering it
 * with a failure comment, itself keyed, would start this job again and again.
 */
async function isOwnComment(ctx, ev) {
    if (!(0,markdown/* postedByCrew */.GB)(ev.comment.body))
        return false;
    try {
        return ev.comment.author.login.toLowerCase() === (await ctx.forge.botLogin()).toLowerCase();
    }
    catch (e) {
        ctx.log.warn(`could not tell crew's own login (${e instanceof Error ? e.message : String(e)}); a comment with crew's key counts as crew's`);
        return true;
    }
}
/**
 * Dispatches start their tasks in the work job directly, one job fewer on every step of
 * the critical path. A workflow that still routes them here is an old copy of crew's: the
 * tasks would never start, so say so on the issue rather than stall.
 */
function outdatedWorkflow(ev) {
    throw new context/* CrewError */.uH('starting dispatched tasks', `This repository's crew workflow runs the \`route\` job for crew's own dispatches (tasks ${sanitizeInput(ev.inputs.tasks)}), so those tasks cannot start. crew now starts them in the \`work\` job.`, 
    // GitHub's own workflow file is the problem, so this is said only there.
    "Replace `.github/workflows/crew.yml` with the workflow in crew's README (its `route` job skips `workflow_dispatch`, and `work` reads the dispatch's inputs), then comment `/crew resume`.");
}
function sanitizeInput(value) {
    return `\`${(value ?? '').replace(/[^\w",[\]]/g, '').slice(0, 200)}\``;
}


/***/ })

};
