export const id = 475;
export const ids = [475,347];
export const modules = {

/***/ 76347:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  O9: () => (/* binding */ finish),
  a4: () => (/* binding */ recordJudgment),
  u1: () => (/* binding */ reportEndedRun)
});

// EXTERNAL MODULE: ./src/domain/judgment.ts
var domain_judgment = __webpack_require__(7882);
// EXTERNAL MODULE: ./src/domain/refs.ts
var refs = __webpack_require__(92);
// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/render/report.ts
var render_report = __webpack_require__(56076);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/text/markdown.ts
var markdown = __webpack_require__(86590);
// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
// EXTERNAL MODULE: ./src/domain/caps.ts
var caps = __webpack_require__(40095);
// EXTERNAL MODULE: ./src/steps/caps.ts
var steps_caps = __webpack_require__(75498);
// EXTERNAL MODULE: ./src/steps/merge.ts + 1 modules
var merge = __webpack_require__(70921);
// EXTERNAL MODULE: ./src/steps/ci-status.ts + 3 modules
var ci_status = __webpack_require__(99691);
// EXTERNAL MODULE: ./src/steps/cleanup.ts
var cleanup = __webpack_require__(42179);
;// CONCATENATED MODULE: ./src/steps/run-end.ts


/**
 * What follows every run's ending, in one order, whatever ended it (the critic's PASS in finish, its
 * tasks failing in advance, `/crew abort`): first the look at CI on its pull requests, then cleanup.
 * The look can merge a pull request (the merge gate reads the checks it found) or start fix_ci's
 * follow-up on its branch; cleanup run after it sees that: a pull request merged just now loses its
 * branches in this job, and a follow-up just started keeps its pull request's branches.
 */
async function afterRunEnded(ctx, issue, run) {
    // CI that completed while the run worked sent its event once, and found the run busy: crew looks now.
    await (0,ci_status.lookAtCiWhenRunEnds)(ctx, issue, run);
    // Any run that ended for good since crew last looked (this one included, when the look merged it).
    await (0,cleanup.tidyUp)(ctx, issue);
}

// EXTERNAL MODULE: ./src/steps/retrospect.ts + 2 modules
var retrospect = __webpack_require__(12451);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/steps/plan-comment/sync.ts + 2 modules
var sync = __webpack_require__(28545);
// EXTERNAL MODULE: ./src/steps/follow-up.ts
var follow_up = __webpack_require__(25442);
// EXTERNAL MODULE: ./src/state/judgments.ts
var judgments = __webpack_require__(67164);
// EXTERNAL MODULE: ./src/domain/surface.ts
var surface = __webpack_require__(45759);
;// CONCATENATED MODULE: ./src/steps/finish.ts



















/** The worker's own text from a result file: the body between the title and the completion marker. */
function resultText(view, read) {
    const out = new Map();
    for (const t of (0,run_files/* planOf */.XC)(view).tasks) {
        const rec = view.tasks.get(t.id);
        const file = read(run_files/* paths */.f0.result(view.run.issue, view.run.run, t.id)) ?? '';
        const body = file
            .replace(/^---[\s\S]*?\n---\n/, '')
            .replace(/^\s*# Result of \S+\s*/, '')
            .replace(/<!-- COMPLETE -->\s*$/, '')
            .trim();
        const summary = rec?.summary ?? '';
        out.set(t.id, { id: t.id, summary, details: body.startsWith(summary) ? body.slice(summary.length).trim() : body });
    }
    return out;
}
/** report.md and report_summary.md on the state branch, with the run record's own changes, in one write. */
async function recordReport(ctx, view, report, judgment, startedAt, mutate) {
    const { issue, run } = view.run;
    const now = (0,context/* nowIso */.kF)(ctx);
    const outcome = (0,domain_judgment/* runOutcome */.CL)(view, judgment, view.run.review?.acceptedBy != null);
    const summary = (0,render_report/* renderReportSummary */.ZM)(view, outcome, judgment, { generatedBy: `crew v${version/* CREW_VERSION */.f}`, date: now.slice(0, 10) });
    await (0,context/* updateRun */.PF)(ctx, issue, run, `report (${outcome.status})`, (rec, tx) => {
        tx.write(run_files/* paths */.f0.report(issue, run), `${report}\n`);
        tx.write(run_files/* paths */.f0.reportSummary(issue, run), `${summary}\n`);
        (0,run_files/* writeRun */.bp)(tx, (0,run_state/* logPhase */.MH)(mutate(rec), 'aggregator', { model: null, started: startedAt, finished: now, status: 'success', retries: 0, error: null }), now);
        (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
    });
}
/** The retrospective after a run ends; one that cannot be written must not undo the ending. */
async function retrospectAfter(ctx, issue, run, target) {
    try {
        await (0,retrospect/* retrospect */.o)(ctx, issue, run, false);
    }
    catch (e) {
        ctx.log.warn(`the retrospective failed: ${e.message}`);
        const again = ctx.surface.give('retro');
        await ctx.forge
            .postComment(target, `crew could not post the retrospective of run ${ctx.surface.runNumber(issue, run)}: ${(0,sanitize/* sanitize */.a)(e.message, 500)}. The run itself is not affected.${again ? ` ${(0,surface/* sentence */.em)(again)} on #${issue} to try again.` : ''}`)
            .catch((post) => ctx.log.warn(`the comment saying so could not be posted either (${post.message}); comment \`/crew retro\` on #${issue} to try again`));
    }
}
/** A judgment in a write of its own: a FAIL, or a PASS no pull request follows (a re-run must not judge again). */
async function recordJudgment(ctx, issue, run, j) {
    await (0,context/* updateRun */.PF)(ctx, issue, run, j.what, (rec, tx) => {
        j.files(tx);
        (0,run_files/* writeRun */.bp)(tx, j.run(rec), (0,context/* nowIso */.kF)(ctx));
        (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
    });
    ctx.log.checkpoint('judged');
}
/**
 * After the critic's PASS (or a person's `/crew accept`): the pull request, created or
 * updated idempotently by its head branch, its labels, the report as its first comment,
 * report.md and report_summary.md on the state branch, the job summary, the plan comment.
 * `judged` is the critic's PASS when it is not on crew/state yet (`view` shows it already).
 */
async function finish(ctx, view, judgment, judged) {
    const { issue, run } = view.run;
    const startedAt = (0,context/* nowIso */.kF)(ctx);
    const prefix = `${(0,refs/* runFolder */.kQ)(issue, run)}/`;
    const config = await ctx.config();
    const acceptedBy = view.run.review?.acceptedBy ?? null;
    // The results the view names; the pull request is found on GitHub, and recorded by a compare-and-swap.
    const snap = await ctx.state.load(prefix, context/* SEEN */.GL);
    const results = resultText(view, (p) => snap.read(p));
    const links = (0,context/* planLinks */.FR)(ctx);
    const reportLink = links.stateFile(run_files/* paths */.f0.report(issue, run));
    const body = (0,markdown/* capBody */.vE)((0,render_report/* renderPullBody */.Gn)(view, results, judgment, acceptedBy), reportLink);
    const branch = (0,context/* integrationBranchOf */.c1)(ctx, view.run);
    // The pull request, its report comment and the retrospective, counted when the PR is recorded below.
    const creates = { pull_requests: 1, comments: config.retrospect.enabled ? 2 : 1 };
    let opened;
    try {
        opened = await openPull(ctx, view, body, branch, creates);
    }
    catch (e) {
        // No pull request this time (a 403, a closed one, caps, GitHub failing): the PASS is kept, so `/crew resume` does not judge again.
        if (judged)
            await recordJudgment(ctx, issue, run, judged).catch((w) => ctx.log.warn(`the critic's PASS could not be recorded either (${w.message}); the critic judges again when the run is resumed`));
        throw e;
    }
    const { pr, existed } = opened;
    ctx.log.checkpoint('pr-opened');
    const notes = [];
    for (const label of config.pr_labels) {
        try {
            await ctx.forge.addLabel(pr.number, label);
        }
        catch (e) {
            ctx.log.warn(`could not add the label '${label}' to #${pr.number}: ${e.message}`);
            notes.push(`crew could not add the label \`${label}\` (from \`pr_labels\`) to this pull request: ${(0,sanitize/* sanitize */.a)(e.message, 300)}`);
        }
    }
    // The critic's PASS rides in this write: a crash before it costs a second judgment (the critic's model call)
    // on the re-run, which finds this pull request again by its head branch rather than opening another.
    await (0,context/* updateRun */.PF)(ctx, issue, run, judged ? `${judged.what}; PR #${pr.number}` : `PR #${pr.number}`, (rec, tx) => {
        if (rec.pr?.number === pr.number && !judged)
            return;
        judged?.files(tx);
        const next = judged ? judged.run(rec) : rec;
        (0,run_files/* writeRun */.bp)(tx, rec.pr?.number === pr.number
            ? next
            : { ...next, pr: { number: pr.number, url: pr.url, reportCommentId: null }, posted: rec.pr ? next.posted : (0,caps/* addPosted */.DG)(next.posted, creates) }, (0,context/* nowIso */.kF)(ctx));
        if (judged)
            (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
    });
    if (judged)
        ctx.log.checkpoint('judged');
    // The merge gate runs before the report, so the report says whether crew merged and why (not).
    const loaded = await (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL);
    const mergeState = await (0,merge.decideMerge)(ctx, loaded, pr.number);
    const current = { ...loaded, run: { ...loaded.run, merge: mergeState } };
    const report = (0,render_report/* renderReport */.B1)(await (0,sync/* withPullsCiAttempts */.r)(ctx, current), results, links, judgment, acceptedBy, {
        notes,
        earlier: await (0,judgments/* earlierJudgments */.A)(ctx.state, current),
    });
    // A PR crew just created has no comments to search.
    let reportId = current.run.pr?.reportCommentId ??
        (existed ? (await ctx.forge.findComment(pr.number, (0,render_report/* reportMarker */.lO)(issue, run), await ctx.forge.botLogin()))?.id : undefined);
    if (reportId)
        await ctx.forge.updateComment(reportId, (0,markdown/* capBody */.vE)(report, reportLink));
    else
        reportId = (await ctx.forge.postComment(pr.number, (0,markdown/* capBody */.vE)(report, reportLink))).id;
    ctx.log.checkpoint('report-posted');
    await recordReport(ctx, current, report, judgment, startedAt, (rec) => ({
        ...rec,
        phase: 'COMPLETED',
        merge: mergeState,
        pr: { number: pr.number, url: pr.url, reportCommentId: reportId },
    }));
    // A report left on the issue by an earlier ending of this run (it failed, then was retried) points on to the PR's.
    if (current.run.issueReportCommentId)
        await ctx.forge.updateComment(current.run.issueReportCommentId, `${(0,render_report/* reportMarker */.lO)(issue, run)}\nRun ${run} failed earlier and was carried on; it completed, and its report is now on ${pr.url}.`);
    await ctx.summary(report);
    // A follow-up answers in each review thread it addressed, naming the commit the critic passed.
    if (current.run.followUp && judgment?.verdict === 'PASS')
        await (0,follow_up.replyInThreads)(ctx, current, judgment.headSha);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
    await retrospectAfter(ctx, issue, run, pr.number);
    // The CI look, then cleanup (merged now: its branches can go).
    await afterRunEnded(ctx, issue, run);
}
/** The run's pull request, found by its head branch and updated, or created. */
async function openPull(ctx, view, body, branch, creates) {
    const found = await ctx.forge.findOpenPull(branch, view.run.base.branch);
    if (!found && view.run.followUp)
        throw new context/* CrewError */.uH('updating the pull request', `pull request #${view.run.followUp.pull} is no longer open, so follow-up ${view.run.followUp.k} cannot update it. Its work is on \`${branch}\`${view.run.review?.headSha ? ` (${view.run.review.headSha.slice(0, 7)})` : ''}.`, `Reopen the pull request, then ${ctx.surface.give('resume')}; or ${ctx.surface.give('run')} for a new one.`);
    if (!found && view.run.pr === null)
        await (0,steps_caps/* ensureRoom */.WG)(ctx, view.run, creates);
    try {
        if (found) {
            await ctx.forge.updatePull(found.number, { body });
            return { pr: found, existed: true };
        }
        return { pr: await ctx.forge.createPull({ title: view.run.title, body, head: branch, base: view.run.base.branch }), existed: false };
    }
    catch (e) {
        if (e instanceof ports/* PullRequestsNotAllowed */.dZ) {
            const head = view.run.review?.headSha?.slice(0, 7) ?? '';
            throw new context/* CrewError */.uH('opening the pull request', `${e.message} The integrated work is on branch \`${branch}\`${head ? ` (${head})` : ''}.`, `Change the setting (or pass a GitHub App or personal token as \`github_token\`), then ${ctx.surface.give('resume')}: crew opens the pull request from the branch it kept, without judging again.`);
        }
        throw e;
    }
}
/**
 * A run that ended without a pull request (its tasks failed, or it was aborted) still gets
 * its report: report.md and report_summary.md (status failure), the report as a comment on
 * the issue (the PR, if an earlier round opened one), the job summary, and the
 * retrospective, which is full for such a run. Then what follows every run's end (run-end.ts):
 * the look at CI on its pull requests (a failed follow-up leaves its pull request as it was), then cleanup.
 */
async function reportEndedRun(ctx, issue, run, why) {
    const startedAt = (0,context/* nowIso */.kF)(ctx);
    const view = await (0,context/* loadView */.QJ)(ctx, issue, run);
    if (!view.plan)
        return ctx.log.info(`run ${run} ended before it had a plan; there is nothing to report`);
    const snap = await ctx.state.load(`${(0,refs/* runFolder */.kQ)(issue, run)}/`);
    const judgment = await (0,judgments/* lastJudgment */.n)(ctx.state, view);
    const links = (0,context/* planLinks */.FR)(ctx);
    const report = (0,render_report/* renderReport */.B1)(view, resultText(view, (p) => snap.read(p)), links, judgment, null, { ended: why });
    const body = (0,markdown/* capBody */.vE)(report, links.stateFile(run_files/* paths */.f0.report(issue, run)));
    const target = view.run.pr?.number ?? issue;
    let id = view.run.issueReportCommentId ?? undefined;
    if (id)
        await ctx.forge.updateComment(id, body);
    else
        id = (await ctx.forge.postComment(target, body)).id;
    await recordReport(ctx, view, report, judgment, startedAt, (rec) => ({ ...rec, issueReportCommentId: id }));
    await ctx.summary(report);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
    await retrospectAfter(ctx, issue, run, target);
    // CI on its pull requests, then cleanup: this run keeps its branches for `cleanup.unfinished_days`; older ended runs may go now.
    await afterRunEnded(ctx, issue, run);
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


/***/ }),

/***/ 20741:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Sr: () => (/* binding */ takePushedResult),
/* harmony export */   _J: () => (/* binding */ attemptCommitMessage),
/* harmony export */   hC: () => (/* binding */ answerShutdown),
/* harmony export */   hl: () => (/* binding */ recordHeld),
/* harmony export */   k7: () => (/* binding */ recordFinal),
/* harmony export */   sG: () => (/* binding */ recordRetry)
/* harmony export */ });
/* unused harmony export parseAttemptCommit */
/* harmony import */ var _domain_result__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(90635);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(65534);
/* harmony import */ var _state_inbox__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(93849);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(24742);
/* harmony import */ var _state_transitions__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(82649);
/* harmony import */ var _text_redact__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(53326);
/* harmony import */ var _text_inert__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(68983);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(33732);
/* harmony import */ var _leader__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(52814);
/* harmony import */ var _budget_stop__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(8811);










const TRAILER = /^Crew-Result: (.+)$/m;
/**
 * The commit message of an attempt, with crew's judgement in a trailer. Because the
 * result and the work are pushed together, a job that dies before recording the result
 * leaves it on the branch, and resuming takes it instead of doing the work again.
 */
function attemptCommitMessage(taskId, title, o) {
    // Pushed with the task's branch: model text in it is redacted like anything crew posts, and inert (a commit that
    // reaches the default branch closes what its message names). The trailer keeps its exact data, written inert.
    return (0,_text_redact__WEBPACK_IMPORTED_MODULE_5__/* .redact */ .E$)(`crew: ${taskId} ${(0,_text_inert__WEBPACK_IMPORTED_MODULE_6__/* .inertGit */ .ZE)(title)} (attempt ${o.attempt}, ${o.checked.status})\n\n${(0,_text_inert__WEBPACK_IMPORTED_MODULE_6__/* .inertGit */ .ZE)(o.checked.summary)}\n\nCrew-Result: ${(0,_text_inert__WEBPACK_IMPORTED_MODULE_6__/* .inertJson */ .nl)(JSON.stringify(o))}\n`);
}
function parseAttemptCommit(message) {
    const m = TRAILER.exec(message);
    if (!m)
        return undefined;
    try {
        return JSON.parse(m[1]);
    }
    catch {
        return undefined;
    }
}
/** What an attempt adds to its task's record, however it ended: its spending, its work's head and files, its notes. */
function attemptFields(mine, o, headSha) {
    return {
        usage: (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .addUsage */ .vk)(mine.usage, o.seen.usage),
        spent: (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .addSpent */ .uG)(mine.spent, o.seen.usage, o.seen.elapsedMs ?? 0),
        turns: mine.turns + o.seen.turns,
        headSha,
        changedFiles: o.seen.changedFiles,
        limitReached: (0,_domain_result__WEBPACK_IMPORTED_MODULE_0__/* .limitRecord */ .J)(o.attempt, o.seen),
        metadataIssues: o.checked.metadataIssues,
        sandboxWarning: o.sandboxWarning,
        mcpNotes: o.mcpNotes ?? [],
        imagesNotLoaded: o.imagesNotLoaded?.length ? o.imagesNotLoaded : undefined,
        refused: o.refused ?? mine.refused,
        ...(o.links ? { links: o.links } : {}),
    };
}
/** Records an attempt that will be retried: the attempt's result file, the task back to `retrying`. */
async function recordRetry(ctx, issue, run, taskId, o, headSha, 
/** How recent a tip the write may start from, and the task's branch when the write carries it (WriteOptions). */
fresh) {
    await (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .updateViewFrom */ .NO)(fresh, ctx, issue, run, `${taskId} attempt ${o.attempt} ${o.checked.status}`, (view, tx) => {
        const mine = view.tasks.get(taskId);
        tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .paths */ .f0.attemptResult(issue, run, taskId, o.attempt), (0,_domain_result__WEBPACK_IMPORTED_MODULE_0__/* .resultFile */ .Cp)(taskId, o.attempt, o.checked, o.seen, headSha));
        if (!mine)
            return;
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeTask */ .bN)(tx, issue, run, { ...mine, ...attemptFields(mine, o, headSha), status: 'retrying', attempts: o.attempt + 1, error: o.checked.reason });
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .refreshExecutionLog */ .qm)(tx, issue, run);
    });
    if (fresh?.carry)
        ctx.log.checkpoint('task-pushed');
}
/**
 * A task a budget stopped (#52): after an attempt that ended at `budgets.run` (`o`, its work on the
 * branch at `headSha`), or before an attempt began (the run's or the repository's budget already
 * reached). The task goes back to pending with its work on its branch, so `/crew continue` starts it
 * again from there, and the run waits at the budget in the same write. Returns whether this job asks.
 */
async function recordHeld(ctx, issue, run, taskId, held, stop, fresh) {
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .nowIso */ .kF)(ctx);
    const asks = await (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .updateViewFrom */ .NO)(fresh, ctx, issue, run, `${taskId} stopped at ${stop.limit === 'run' ? 'the run' : `the ${stop.limit}`}'s budget`, (view, tx) => {
        const mine = view.tasks.get(taskId);
        if (!mine || (mine.status !== 'running' && mine.status !== 'retrying'))
            return false;
        const { o, headSha } = held;
        if (o && headSha)
            tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .paths */ .f0.attemptResult(issue, run, taskId, o.attempt), (0,_domain_result__WEBPACK_IMPORTED_MODULE_0__/* .resultFile */ .Cp)(taskId, o.attempt, o.checked, o.seen, headSha));
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeTask */ .bN)(tx, issue, run, {
            ...mine,
            status: 'pending',
            claim: null,
            // A task of parallel attempts held before any began (#50): its next claim starts every leg afresh.
            candidates: undefined,
            // An attempt that never began does not count: the next claim gives it its number again.
            attempts: o ? o.attempt : Math.max(0, held.attempt - 1),
            ...(o && headSha ? { ...attemptFields(mine, o, headSha), summary: o.checked.summary, error: o.checked.reason } : {}),
        });
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .refreshExecutionLog */ .qm)(tx, issue, run);
        return (0,_budget_stop__WEBPACK_IMPORTED_MODULE_9__/* .stopRunAtBudget */ .kQ)(tx, issue, run, stop, now);
    });
    if (fresh?.carry)
        ctx.log.checkpoint('task-pushed');
    return asks;
}
/**
 * Records a task's final result, lets the leader decide about a failure in the same
 * write, claims what it unblocked and dispatches it. Idempotent: a task already
 * settled is left alone.
 *
 * With a `chain` offer (the work job that ran the task), a write that claims exactly one
 * task, leaving no other ready task waiting for a slot, claims it for this job's own
 * workflow run instead, when it fits in the job's time: no dispatch, no new job start. The
 * claim is a this-run claim like route's, so a job killed mid-chain is found as today
 * (advance of this run, or `/crew resume` asking whether the run is alive). Returns that task.
 */
async function recordFinal(ctx, issue, run, taskId, o, headSha, chain, 
/**
 * How recent a tip the write may start from (the worker's last look at its inbox; by default GitHub
 * is asked), and the task's branch when the write carries it (WriteOptions): one push for both.
 */
fresh, 
/** What else settles with the result: a task's parallel attempts judged, the branch kept (#50). */
settles) {
    const config = await ctx.config();
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .nowIso */ .kF)(ctx);
    const claim = (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .taskClaim */ .s1)(ctx, 'dispatch', now);
    const outcome = await (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .updateViewFrom */ .NO)(fresh, ctx, issue, run, `${taskId} ${o.checked.status}`, (current, tx) => {
        const mine = current.tasks.get(taskId);
        if (!mine || (mine.status !== 'running' && mine.status !== 'retrying'))
            return { claimed: [], decision: null, settled: false, chained: undefined };
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeTask */ .bN)(tx, issue, run, {
            ...mine,
            ...attemptFields(mine, o, headSha),
            status: o.checked.status,
            attempts: o.attempt,
            claim: null,
            finishedAt: now,
            summary: o.checked.summary,
            error: o.checked.status === 'success' ? null : o.checked.reason,
            ...settles,
        });
        tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .paths */ .f0.attemptResult(issue, run, taskId, o.attempt), (0,_domain_result__WEBPACK_IMPORTED_MODULE_0__/* .resultFile */ .Cp)(taskId, o.attempt, o.checked, o.seen, headSha));
        tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .paths */ .f0.result(issue, run, taskId), (0,_domain_result__WEBPACK_IMPORTED_MODULE_0__/* .resultFile */ .Cp)(taskId, o.attempt, o.checked, o.seen, headSha));
        // The leader decides about a failure in the same write, before anything depending on it is marked blocked.
        const decision = (0,_leader__WEBPACK_IMPORTED_MODULE_8__/* .settleInState */ .GR)(tx, issue, run, taskId, o.checked, claim, config.escalation_limits);
        const ids = (0,_state_transitions__WEBPACK_IMPORTED_MODULE_4__/* .claimReadyTasks */ .M)(tx, issue, run, config.max_parallel, claim, now);
        let chained;
        // Only the one task it unblocked, nothing else ready and waiting for a slot, and only a job that has the time.
        // A task the advisor sends back to a stronger tier is dispatched as today (ids then holds it too).
        // A task of several parallel attempts (#50) is never chained: its other legs need jobs of their own.
        const one = ids.length === 1 ? (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .viewIn */ .zc)(tx, issue, run).tasks.get(ids[0]) : undefined;
        if (chain && decision?.action !== 'retry_stronger' && one && (one.parallel ?? 1) === 1 && !(0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .readyTasks */ .aZ)((0,_context__WEBPACK_IMPORTED_MODULE_7__/* .viewIn */ .zc)(tx, issue, run)).length && chain.fits()) {
            const next = one;
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeTask */ .bN)(tx, issue, run, { ...next, claim: (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .taskClaim */ .s1)(ctx, 'this-run', now) });
            chained = next.id;
        }
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .refreshExecutionLog */ .qm)(tx, issue, run);
        const after = (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .viewIn */ .zc)(tx, issue, run);
        const dispatched = ids.filter((id) => id !== chained);
        return {
            claimed: decision?.action === 'retry_stronger' ? [...dispatched, taskId] : dispatched,
            decision,
            settled: after.run.phase === 'EXECUTING' && (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .allTasksDone */ .oQ)(after),
            chained,
            othersRunning: [...after.tasks.values()].some((t) => t.id !== taskId && (t.status === 'running' || t.status === 'retrying')),
        };
    });
    if (fresh?.carry)
        ctx.log.checkpoint('task-pushed');
    ctx.log.checkpoint('task-recorded');
    if (o.seen.ending === 'shutdown')
        await answerShutdown(ctx, issue, run, taskId, o, headSha);
    // A task still running records its own outcome after this write, and syncs the plan comment then.
    if (outcome.othersRunning)
        (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .handedOn */ .Uz)(ctx, issue, run);
    if (outcome.claimed.length) {
        // Tasks this one unblocked start now in a new workflow run, not after the rest of this matrix.
        await (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .dispatchTasks */ .Xy)(ctx, issue, run, outcome.claimed, claim);
    }
    else if (outcome.settled && ctx.settings.step === 'work') {
        // The last task settled. A work job that succeeds has no advance job after it, so a dispatch with no tasks runs one to finish the run.
        await (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .dispatchTasks */ .Xy)(ctx, issue, run, []);
    }
    if (outcome.decision && outcome.decision.action !== 'retry_stronger')
        await (0,_leader__WEBPACK_IMPORTED_MODULE_8__/* .followUp */ .nF)(ctx, issue, run, outcome.decision);
    await (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .syncPlanComment */ .Of)(ctx, issue, run);
    return outcome.chained;
}
/**
 * The shutdown_response: the leader's record that a worker stopped before its end (a shutdown request, or, for a
 * parallel attempt, the job's limit or a cancellation), and where its work is. `from` is the task, or the attempt's leg.
 */
async function answerShutdown(ctx, issue, run, from, o, headSha) {
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .nowIso */ .kF)(ctx);
    await (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .updateRunFolder */ .T5)(ctx, issue, run, `${from} stopped`, (tx) => {
        (0,_state_inbox__WEBPACK_IMPORTED_MODULE_2__/* .writeMessage */ .ZT)(tx, issue, run, {
            id: (0,_state_inbox__WEBPACK_IMPORTED_MODULE_2__/* .messageId */ .Je)(now, from, (0,_context__WEBPACK_IMPORTED_MODULE_7__/* .nonce */ .KU)()),
            from,
            to: 'leader',
            type: 'shutdown_response',
            text: `stopped after ${o.seen.turns} turn${o.seen.turns === 1 ? '' : 's'}; partial work is at ${headSha.slice(0, 7)}`,
            at: now,
        });
    });
}
/**
 * For a task whose worker vanished: if the attempt that was running pushed its result,
 * take it. `retry` means the pushed attempt asked for another; `none` means nothing of
 * the running attempt reached the branch.
 */
async function takePushedResult(ctx, issue, run, rec, 
/** Told the branch's tip when the branch holds work but no result to take (a save cut short): the caller records it as the task's head. */
onUntakenWork) {
    // A parallel attempt's pushed result is its candidate, never the task's (#50): its leg runs again and records it.
    if ((rec.parallel ?? 1) > 1)
        return 'none';
    const { missing } = await ctx.remote.fetch([rec.branch]);
    if (missing.length)
        return 'none';
    const message = await ctx.repo.commitMessage(ctx.remote.tracking(rec.branch));
    const pushed = parseAttemptCommit(message);
    if (!pushed && TRAILER.test(message))
        ctx.log.warn(`${rec.id}: the Crew-Result trailer at the tip of ${rec.branch} is not valid JSON, so crew cannot take that result; the attempt runs again`);
    if (!pushed || pushed.attempt !== rec.attempts) {
        // The branch is there all the same: with its tip recorded, the next attempt starts from it (work.ts, noBranchYet).
        const tip = rec.headSha === null ? await ctx.remote.head(rec.branch) : undefined;
        if (tip)
            onUntakenWork?.(tip);
        return 'none';
    }
    const head = await ctx.remote.head(rec.branch);
    if (!pushed.final)
        return 'retry';
    ctx.log.info(`${rec.id}: taking the result attempt ${pushed.attempt} pushed before its job ended`);
    await recordFinal(ctx, issue, run, rec.id, pushed, head);
    return 'recorded';
}


/***/ }),

/***/ 311:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   f: () => (/* binding */ CREW_VERSION)
/* harmony export */ });
/** crew's version, stamped into the reports it writes (claude-crew's `generated_by`). Keep in step with package.json. */
const CREW_VERSION = '0.1.0';


/***/ })

};
