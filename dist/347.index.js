export const id = 347;
export const ids = [347];
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

/***/ 311:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   f: () => (/* binding */ CREW_VERSION)
/* harmony export */ });
/** crew's version, stamped into the reports it writes (claude-crew's `generated_by`). Keep in step with package.json. */
const CREW_VERSION = '0.1.0';


/***/ })

};
