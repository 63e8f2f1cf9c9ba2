export const id = 691;
export const ids = [691,442];
export const modules = {

/***/ 99691:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  lookAtCiWhenRunEnds: () => (/* binding */ lookAtCiWhenRunEnds),
  routeCiRun: () => (/* binding */ routeCiRun)
});

;// CONCATENATED MODULE: ./src/domain/ci-status.ts
/**
 * The CI on the head of crew's pull request, as one reading of its checks tells it: which runs of
 * the workflows `fix_ci` is named for have failed there (the ones a follow-up may fix), and which
 * are still going (left to their own `workflow_run` event). The merge gate reads the same checks,
 * so what fix_ci does and what the gate says come from one reading. Pure.
 */
const same = (a, b) => (a ?? '').toLowerCase() === b.toLowerCase();
/** The distinct workflow runs behind a head's checks that fix_ci is named for, oldest first. */
function ciRuns(checks, head) {
    const runs = new Map();
    for (const c of checks) {
        const r = c.run;
        if (!r || !head.workflows.includes(r.workflow))
            continue;
        if (r.headSha !== head.headSha || r.headBranch !== head.headBranch || !same(r.headRepo, head.repo))
            continue;
        runs.set(r.id, r);
    }
    return [...runs.values()].sort((a, b) => a.id - b.id);
}
/** The runs that ended in failure: each is what its `workflow_run` event would have brought to fix_ci. */
function failedCiRuns(checks, head) {
    return ciRuns(checks, head).filter((r) => r.status === 'completed' && r.conclusion === 'failure');
}
/** The runs still going: their own `workflow_run` event comes when they complete. */
function runningCiRuns(checks, head) {
    return ciRuns(checks, head).filter((r) => r.status !== 'completed');
}

// EXTERNAL MODULE: ./src/domain/refs.ts
var refs = __webpack_require__(92);
// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/text/redact.ts
var redact = __webpack_require__(53326);
// EXTERNAL MODULE: ./src/text/markdown.ts
var markdown = __webpack_require__(86590);
;// CONCATENATED MODULE: ./src/domain/ci-log.ts



/**
 * A failed CI job's log, cut down to what a follow-up run needs: the end of the failed step's
 * output, without timestamps, colour codes or runner bookkeeping, with secrets redacted and
 * anything a reader of the rendered text would not see removed. The log is untrusted text (a
 * test can print anything, and the branch holds model-written code), so it is handled like an
 * issue body. Pure.
 */
/** How much of a log's end a follow-up run is given: enough for a stack trace and the test summary. */
const LOG_TAIL_LINES = 80;
const LOG_TAIL_CHARS = 6_000;
/** GitHub prefixes every job log line with an ISO-8601 timestamp and a space (`2026-11-27T10:00:01.1234567Z `). */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
/** ANSI escape sequences: colours (CSI … m), cursor moves and OSC titles. */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
/** The runner's own lines around steps: group markers and the cleanup that follows the failed step. */
const GROUP = /^##\[(?:group|endgroup)\]/;
/** The runner's line that ends a failed `run:` step (docs: workflow commands; the runner writes it as an error annotation). */
const STEP_FAILED = /^##\[error\]Process completed with exit code \d+\.?$/;
/** Where the runner's own post-job work starts: nothing after it is the step's output. */
const POST_JOB = /^(?:Post job cleanup\.|Cleaning up orphan processes)$/;
/** One log line as a person reads it in the Actions UI: no timestamp, no colours. */
function cleanLogLine(line) {
    return line.replace(TIMESTAMP, '').replace(ANSI, '').replace(/\r$/, '');
}
/**
 * The end of the failed step's output: the log up to the runner's "Process completed with exit
 * code" line (the last one; the whole log when there is none), without group markers and
 * post-job cleanup, then its last `maxLines` lines and at most `maxChars` characters.
 */
function logTail(raw, maxLines = LOG_TAIL_LINES, maxChars = LOG_TAIL_CHARS) {
    let lines = raw.split('\n').map(cleanLogLine);
    while (lines.length && lines.at(-1).trim() === '')
        lines.pop();
    const failedAt = lines.findLastIndex((l) => STEP_FAILED.test(l));
    if (failedAt >= 0)
        lines = lines.slice(0, failedAt + 1);
    else {
        const post = lines.findIndex((l) => POST_JOB.test(l));
        if (post >= 0)
            lines = lines.slice(0, post);
    }
    lines = lines.filter((l) => !GROUP.test(l));
    const total = lines.length;
    let body = lines.slice(-maxLines).join('\n');
    // Characters, from the end: the first line kept may be cut at its start.
    if (body.length > maxChars)
        body = `…${body.slice(-(maxChars - 1))}`;
    const omittedLines = total - (body ? body.split('\n').length : 0);
    // Redacted before sanitising (sanitising could join the halves of a token split by an invisible
    // character), and sanitised inside a fence, where it keeps the text literal: a log's `<div>` or
    // `[x]: y` is output to read, not markup to drop, while comments, hidden elements and invisible
    // characters still go.
    const fenced = (0,sanitize/* sanitize */.a)((0,markdown/* fence */.EU)((0,redact/* redact */.E$)(body)), maxChars * 2).split('\n');
    const text = fenced.slice(1, -1).join('\n').trimEnd();
    return { text, omittedLines };
}
/** The done criterion a follow-up run adds: named after the failed check, which is what the pull request's checks list shows. */
function ciCriterion(f) {
    return `the ${(0,markdown/* codeSpan */.SS)(f.job)} check of the ${(0,markdown/* codeSpan */.SS)(f.workflow)} workflow passes`;
}
/**
 * The feedback a follow-up run's intake reads: which check failed where, and the log tail in a
 * fence (sanitize keeps a fence's text literal). Names from the workflow file are shown as code,
 * so they format nothing.
 */
function ciFeedback(f) {
    const where = `${(0,markdown/* codeSpan */.SS)(f.job)}${f.step ? `, step ${(0,markdown/* codeSpan */.SS)(f.step)}` : ''}`;
    const lines = [`The ${(0,markdown/* codeSpan */.SS)(f.workflow)} workflow failed on this pull request's head ${f.headSha.slice(0, 7)}: job ${where}.`, `Job log: ${f.jobUrl}`, ''];
    if (!f.log)
        lines.push('GitHub had no log for this job (it may have expired, or the job never started); look at the job page.');
    else {
        const cut = f.log.omittedLines ? ` (the last lines; ${f.log.omittedLines} earlier lines left out)` : '';
        lines.push(`The end of the failed step's output${cut}:`, '', (0,markdown/* fence */.EU)(f.log.text));
    }
    lines.push('', `Fix the cause on this branch so that ${ciCriterion(f)}. Do not skip, delete or weaken the check or its tests.`);
    return lines.join('\n');
}

// EXTERNAL MODULE: ./src/domain/fix-ci.ts
var fix_ci = __webpack_require__(628);
// EXTERNAL MODULE: ./src/render/fix-ci.ts
var render_fix_ci = __webpack_require__(9844);
// EXTERNAL MODULE: ./src/steps/follow-up.ts
var follow_up = __webpack_require__(25442);
;// CONCATENATED MODULE: ./src/steps/fix-ci.ts









/**
 * `fix_ci` (#19 §2): a CI workflow run failed on the head of crew's own pull request. It comes from
 * the route job (its `workflow_run` event, steps/ci-status.ts), or from the end of a run that looks
 * at the head's CI itself (a failure that came while the run was still working). Either way crew
 * counts the attempt in the record of the run whose branch the pull request is (domain/fix-ci.ts),
 * reads the failed jobs' log tails, and hands a follow-up request to `startCiFollowUp`.
 */
/** How many failed jobs of one CI run crew reads, and turns into criteria. */
const MAX_FAILED_JOBS = 3;
/**
 * fix_ci's answer to one failed CI run on the head of crew's pull request: the attempt decided and
 * counted in the record of the run whose branch the pull request is (a compare-and-swap, after a
 * read that spares a repeat the log downloads), then the follow-up started from the failed jobs'
 * log tails, the attempts said to be used up (once per head), or nothing. `beforeStart` runs once
 * an attempt is counted and before the follow-up plans (the merge gate's words); `dispatch` sends
 * the follow-up's tasks to new workflow runs (a job with no `work` job after it).
 */
async function fixCiFailure(ctx, f, opts = {}, round = 1) {
    const { ci, target, pull, max } = f;
    const prefix = `${(0,refs/* runFolder */.kQ)(target.issue, target.run)}/`;
    const peeked = (0,run_files/* readRun */.cI)(await ctx.state.load(prefix), target.issue, target.run);
    if (!peeked) {
        ctx.log.info(`fix_ci: run ${target.run} of issue #${target.issue} is not on crew/state; nothing to do`);
        return { kind: 'nothing' };
    }
    // The failed jobs name the checks; their logs are read only for an attempt that starts.
    const jobs = (await ctx.forge.failedJobs?.(ci.runId, MAX_FAILED_JOBS)) ?? [];
    const seen = seenOf(ci, jobs[0]?.name ?? ci.workflow, jobs[0]?.url ?? ci.url);
    const first = (0,fix_ci/* decideFixCi */._u)(peeked.fixCi, seen, pull.headSha, max);
    const failures = [];
    if (first.kind === 'start')
        for (const j of jobs.length ? jobs : [undefined])
            failures.push(failureOf(ci, j, j ? ((await ctx.forge.jobLog?.(j.id)) ?? null) : null));
    const at = (0,context/* nowIso */.kF)(ctx);
    const { decision, by, changed } = await (0,context/* updateRun */.PF)(ctx, target.issue, target.run, 'fix_ci: count the attempt', (rec, tx) => {
        const d = (0,fix_ci/* decideFixCi */._u)(rec.fixCi, seen, pull.headSha, max);
        let fixCi = (0,fix_ci/* recordFixCi */.$e)(rec.fixCi, { ...seen, check: { ...seen.check, at } }, d, at);
        // The other failed jobs of the same run join the attempt, so the plan comment and the report list them.
        if (d.kind === 'start')
            for (const j of jobs.slice(1))
                fixCi = (0,fix_ci/* recordFixCi */.$e)(fixCi, seenOf(ci, j.name, j.url, at), { kind: 'same-head', n: d.n }, at);
        const changed = fixCi !== rec.fixCi;
        if (changed)
            (0,run_files/* writeRun */.bp)(tx, { ...rec, fixCi: { ...fixCi, limit: max } }, at);
        return { decision: d, by: rec.requestedBy, changed };
    });
    // The plan comment lists the attempts; the state write above is what it renders.
    if (changed)
        await ctx.planComment.syncHolder(target.issue, target.run);
    // (A decision that changed between the peek and the write only ever changes away from starting.)
    if (decision.kind === 'start' && !failures.length)
        failures.push(...(jobs.length ? jobs : [undefined]).map((j) => failureOf(ci, j, null)));
    const on = `${ci.workflow} run ${ci.runId} on ${ci.headSha.slice(0, 7)} (#${pull.number})`;
    switch (decision.kind) {
        case 'duplicate':
            ctx.log.info(`fix_ci: ${on} is already counted in attempt ${decision.n}; nothing to do`);
            return { kind: 'nothing' };
        case 'same-head':
            ctx.log.info(`fix_ci: ${on} failed on the head attempt ${decision.n} already covers; listed with it, nothing new starts`);
            return { kind: 'nothing' };
        case 'stale':
            ctx.log.info(`fix_ci: ${on} is for an older head (the pull request is at ${decision.pullHead.slice(0, 7)}); its CI decides`);
            return { kind: 'nothing' };
        case 'exhausted':
            if (!decision.say)
                ctx.log.info(`fix_ci: ${on} failed with no attempts left; crew said so on this head already`);
            else {
                ctx.log.info(`fix_ci: ${on} failed with all ${decision.max} attempts used; saying so`);
                await ctx.forge.postComment(pull.number, (0,render_fix_ci/* fixCiExhaustedComment */.c)({ ...seen.check, at }, seen.headSha, decision.max, ctx.surface));
            }
            return { kind: 'used-up', max: decision.max };
        case 'start':
            break;
    }
    ctx.log.info(`fix_ci: ${on} failed; attempt ${decision.n} of ${max}`);
    await opts.beforeStart?.({ kind: 'fixing', attempt: decision.n, max });
    const started = await startCiFollowUp(ctx, {
        issue: target.issue,
        run: target.run,
        pull,
        by,
        attempt: { n: decision.n, max },
        feedback: failures.map(ciFeedback).join('\n\n'),
        criteria: failures.map(ciCriterion),
        source: 'ci',
        trigger: { workflowRunId: ci.runId, workflow: ci.workflow, url: ci.url, at },
        ...(opts.dispatch ? { dispatch: true } : {}),
    });
    if (started.started)
        return { kind: 'started', attempt: decision.n, max };
    if (started.busy === undefined)
        return { kind: 'refused' };
    // Whoever writes last looks last: the run that was working may have ended, and looked at CI, before
    // the attempt above was marked not started; then that look saw it counted, and this job tries again.
    const busy = (0,run_files/* readRun */.cI)(await ctx.state.load(`${(0,refs/* runFolder */.kQ)(target.issue, started.busy)}/`), target.issue, started.busy);
    if (round < 2 && busy && (0,run_state/* isTerminal */.Hd)(busy.phase)) {
        ctx.log.info(`fix_ci: run ${started.busy} ended while the attempt was being put off; trying again`);
        return fixCiFailure(ctx, f, opts, round + 1);
    }
    return { kind: 'deferred', busy: started.busy };
}
function seenOf(ci, job, url, at = '') {
    const check = { workflow: ci.workflow, job, runId: ci.runId, url, at };
    return { headSha: ci.headSha, check };
}
function failureOf(ci, job, log) {
    return {
        workflow: ci.workflow,
        runId: ci.runId,
        runUrl: ci.url,
        // A run that failed before any job (an invalid workflow file) is named after the workflow.
        job: job?.name ?? ci.workflow,
        jobUrl: job?.url ?? ci.url,
        step: job?.step ?? null,
        headSha: ci.headSha,
        log: log ? logTail(log) : null,
    };
}
/**
 * The one place a CI failure becomes a follow-up run: the failed checks become criteria and their
 * log tails the feedback. When the follow-up cannot start (a run of the issue is still working, the
 * pull request closed), startFollowUp has said why on the pull request, and the attempt is marked
 * not started: it pushed nothing, so it does not count. A refusal because a run was working names
 * that run (`lookAfter`): when it ends, crew looks at this pull request's CI again.
 */
async function startCiFollowUp(ctx, req) {
    const s = ctx.surface;
    const started = await (0,follow_up.startFollowUp)(ctx, {
        pull: req.pull.number,
        by: req.by,
        feedback: req.feedback,
        criteria: req.criteria,
        source: 'ci',
        trigger: { commentId: 0, createdAt: req.trigger.at, workflowRunId: ctx.runId, how: 'ci', ciRunId: req.trigger.workflowRunId },
        why: `CI failed on ${req.pull.headSha.slice(0, 7)}: the ${(0,markdown/* codeSpan */.SS)(req.trigger.workflow)} workflow (${s.link('run', req.trigger.url)}); with \`fix_ci\` on, this is attempt ${req.attempt.n} of ${req.attempt.max} (\`fix_ci_attempts\`).`,
        ...(req.dispatch ? { dispatch: true } : {}),
    });
    if (started.started)
        return started;
    ctx.log.info(`fix_ci: attempt ${req.attempt.n} did not start${started.busy ? `; crew looks again when run ${started.busy} ends` : ''}`);
    await (0,context/* updateRun */.PF)(ctx, req.issue, req.run, `fix_ci attempt ${req.attempt.n} not started`, (rec, tx) => {
        (0,run_files/* writeRun */.bp)(tx, { ...rec, fixCi: (0,fix_ci/* attemptNotStarted */.Q5)(rec.fixCi, req.attempt.n, started.busy ?? null) }, (0,context/* nowIso */.kF)(ctx));
    });
    await ctx.planComment.syncHolder(req.issue, req.run);
    return started;
}

// EXTERNAL MODULE: ./src/steps/merge.ts + 1 modules
var merge = __webpack_require__(70921);
;// CONCATENATED MODULE: ./src/steps/ci-status.ts









/**
 * CI on the head of crew's pull request, wherever crew learns of it: GitHub's `workflow_run` event
 * for a failed CI run (the route job), or crew's own look at the head when a run of the issue ends
 * (a failure that came while the run was still working is not lost: GitHub sends the event once).
 * Either way fix_ci decides first (domain/fix-ci.ts, steps/fix-ci.ts), and then the merge gate says
 * in the report's Merge section and the plan comment why the pull request is not merged (which check
 * of which workflow failed on which head, with a link, and what a person can do), from the same
 * reading of the head's checks where crew made one.
 */
/**
 * The route job's part: a CI workflow run on a `crew/…/integration` branch completed in failure (the
 * workflow's `if:` let through only those, from a workflow other than crew's; checked again here, since
 * a copied workflow may have lost a condition). fix_ci acts when it is on; the merge gate speaks either way.
 */
async function routeCiRun(ctx, ev, ci) {
    const skip = (why) => ctx.log.info(`CI: ${why}; nothing to do`);
    if (ci.conclusion !== 'failure')
        return skip(`the ${ci.workflow} run ${ci.runId} ended ${ci.conclusion ?? 'without a conclusion'}, not in failure`);
    const repo = `${ctx.forge.repo.owner}/${ctx.forge.repo.name}`.toLowerCase();
    // A fork can name its branch crew/1/r1/integration: only a head in this repository is crew's.
    if (!ci.headRepo || ci.headRepo.toLowerCase() !== repo)
        return skip(`the ${ci.workflow} run ${ci.runId} is on ${ci.headRepo ?? 'an unknown repository'}, not ${repo}`);
    const target = ci.headBranch ? (0,refs/* runOfIntegrationBranch */.$o)(ci.headBranch) : undefined;
    if (!target || !ci.headBranch)
        return skip(`the ${ci.workflow} run ${ci.runId} is on ${ci.headBranch ?? 'no branch'}, not one of crew's pull request branches`);
    // The run's record names its pull request; the event's list of pull requests may be empty, so it is only checked against.
    const owner = (0,run_files/* readRun */.cI)(await ctx.state.load(`issue-${target.issue}/`), target.issue, target.run);
    if (!owner)
        return skip(`run ${target.run} of issue #${target.issue} is not on crew/state`);
    if (!owner.pr) {
        // CI on the integration branch can fail before the critic opens the pull request: the run's end looks at it.
        if (!(0,run_state/* isTerminal */.Hd)(owner.phase))
            return skip(`run ${target.run} of issue #${target.issue} has no pull request yet; crew looks at its CI when the run ends`);
        return skip(`run ${target.run} of issue #${target.issue} has no pull request`);
    }
    const number = owner.pr.number;
    const listed = ev.pulls.find((p) => p.headRef === ci.headBranch);
    if (listed && listed.number !== number)
        ctx.log.warn(`CI: GitHub lists pull request #${listed.number} for ${ci.headBranch}; the run's is #${number}`);
    const pull = await ctx.forge.getPull(number);
    if (pull.state !== 'open' || pull.fromFork || pull.headRef !== ci.headBranch)
        return skip(`pull request #${number} is not crew's open pull request from ${ci.headBranch}`);
    const config = await ctx.config();
    let note;
    if (config.fix_ci) {
        const out = await fixCiFailure(ctx, { target, pull: { number, headRef: ci.headBranch, headSha: pull.headSha }, ci, max: config.fix_ci_attempts }, { beforeStart: (n) => gateAfterCi(ctx, target.issue, number, { fixCi: n }) });
        note = noteOf(out);
    }
    else {
        // Off means off for fixing: no comment about it. The merge gate still says why the pull request is not merged.
        ctx.log.info(`fix_ci: fix_ci is off in .github/crew.yml (CI failed on ${ci.headBranch}); crew does not fix it`);
    }
    await gateAfterCi(ctx, target.issue, number, note ? { fixCi: note } : {});
}
/**
 * When a run of the issue ends, whatever ended it (the critic's PASS, its tasks failing, `/crew
 * abort`), crew looks once at the CI of the pull request it worked on, and of any pull request whose
 * CI failed while it worked (`fixCi.lookAfter`): a failed run of a workflow fix_ci is named for, with
 * no attempt covering that head, gets its follow-up now, as if its `workflow_run` event had come now
 * (an aborted CI follow-up's own head is covered by its attempt, so it does not start again); a run
 * still going is left to its own event. Then the merge gate reads the same checks. A failure here is
 * said on the pull request and never undoes the run's ending.
 */
async function lookAtCiWhenRunEnds(ctx, issue, run) {
    // Where there is no workflow (local mode) there is no CI to look at.
    if (!ctx.ciWorkflows)
        return;
    let said;
    try {
        // Neither fixes CI nor merges: nothing to look at, and nothing read (the usual configuration costs no round trip).
        const config = await ctx.config();
        if (!config.fix_ci && !config.auto_merge)
            return;
        // Called as the run ends, right after its last write in this job.
        const snap = await ctx.state.load(`issue-${issue}/`, ports/* SEEN */.GL);
        const ending = (0,run_files/* readRun */.cI)(snap, issue, run);
        if (!ending || !(0,run_state/* isTerminal */.Hd)(ending.phase))
            return;
        const pulls = new Set();
        if (ending.pr)
            pulls.add(ending.pr.number);
        for (const k of (0,run_files/* runNumbers */.Sm)(snap, issue)) {
            const rec = (0,run_files/* readRun */.cI)(snap, issue, k);
            if (rec?.pr && rec.fixCi.lookAfter === run)
                pulls.add(rec.pr.number);
        }
        said = ending.pr?.number;
        for (const n of pulls) {
            said = n;
            await lookAtPull(ctx, snap, issue, n);
        }
    }
    catch (e) {
        // A follow-up this look started failed while planning: that is the follow-up's own failure (main.ts reports it).
        if (ctx.working && (ctx.working.issue !== issue || ctx.working.run !== run))
            throw e;
        const why = e instanceof Error ? e.message : String(e);
        ctx.log.warn(`crew could not look at CI after run ${run} of issue #${issue} ended: ${why}`);
        await ctx.forge
            .postComment(said ?? issue, `crew could not look at this pull request's CI after run ${ctx.surface.runNumber(issue, run)} of #${issue} ended: ${(0,sanitize/* sanitize */.a)(why, 500)}. If CI failed on its head, re-run the failed jobs: crew acts on the failure when it arrives.`)
            .catch((post) => ctx.log.warn(`the comment saying so could not be posted either (${post instanceof Error ? post.message : String(post)})`));
    }
}
async function lookAtPull(ctx, snap, issue, number) {
    const skip = (why) => ctx.log.info(`CI on #${number}: ${why}; nothing to do`);
    const newest = newestOfPull(snap, issue, number);
    if (newest && !(0,run_state/* isTerminal */.Hd)(newest.phase))
        return skip(`run ${newest.run} is working on it; crew looks when that run ends`);
    const config = await ctx.config();
    // Without fix_ci only the merge gate may have something new to say, and it reads what it needs itself.
    if (!config.fix_ci)
        return config.auto_merge ? gateAfterCi(ctx, issue, number, {}) : skip('fix_ci and auto_merge are off');
    const pull = await ctx.forge.getPull(number);
    if (pull.state !== 'open' || pull.fromFork)
        return skip(`the pull request is ${pull.merged ? 'merged' : pull.state}`);
    const target = (0,refs/* runOfIntegrationBranch */.$o)(pull.headRef);
    if (!target || target.issue !== issue)
        return skip(`${pull.headRef} is not one of issue #${issue}'s pull request branches`);
    const read = await ctx.ciWorkflows();
    if ('unreadable' in read)
        ctx.log.warn(`CI on #${number}: crew cannot tell which workflows fix_ci is named for (${read.unreadable}), so it looks at none`);
    const workflows = 'names' in read ? read.names : [];
    const repo = `${ctx.forge.repo.owner}/${ctx.forge.repo.name}`;
    // One reading of the head's checks: fix_ci acts on it, and the merge gate decides on it.
    const checks = (await ctx.forge.checksOn?.(pull.headSha)) ?? [];
    const head = { workflows, headSha: pull.headSha, headBranch: pull.headRef, repo };
    for (const r of runningCiRuns(checks, head))
        ctx.log.info(`CI on #${number}: ${r.workflow} run ${r.id} is still ${r.status}; its own workflow_run event decides`);
    let note;
    for (const r of failedCiRuns(checks, head)) {
        const out = await fixCiFailure(ctx, { target, pull: { number, headRef: pull.headRef, headSha: pull.headSha }, ci: ciRunOf(r, repo), max: config.fix_ci_attempts }, { dispatch: true, beforeStart: (n) => gateAfterCi(ctx, issue, number, { checks, fixCi: n }) });
        note = noteOf(out) ?? note;
    }
    await gateAfterCi(ctx, issue, number, { checks, ...(note ? { fixCi: note } : {}) });
}
/**
 * The merge gate once CI has spoken: for the newest run of the issue with this pull request, when it
 * is completed and not merged, the gate decides again and its word replaces the Merge section of the
 * report and the plan comment's line (edited in place; nothing when nothing changed). A run still
 * working says its own word when it finishes.
 */
async function gateAfterCi(ctx, issue, number, read) {
    const newest = newestOfPull(await ctx.state.load(`issue-${issue}/`, ports/* SEEN */.GL), issue, number);
    if (!newest)
        return ctx.log.info(`auto-merge: no run of issue #${issue} has pull request #${number}`);
    if (newest.phase !== 'COMPLETED')
        return ctx.log.info(`auto-merge: run ${newest.run} of issue #${issue} is ${newest.phase.toLowerCase()}; it speaks for #${number} when it ends`);
    if (newest.merge?.state === 'merged')
        return;
    const view = await (0,context/* loadView */.QJ)(ctx, issue, newest.run, ports/* SEEN */.GL);
    await (0,merge.recordMerge)(ctx, view, await (0,merge.decideMerge)(ctx, view, number, read));
}
/** The newest run of the issue whose record names this pull request (follow-ups update the one pull request). */
function newestOfPull(snap, issue, number) {
    for (const k of [...(0,run_files/* runNumbers */.Sm)(snap, issue)].reverse()) {
        const rec = (0,run_files/* readRun */.cI)(snap, issue, k);
        if (rec?.pr?.number === number)
            return rec;
    }
    return undefined;
}
/** What the merge gate says of fix_ci after its answer: a follow-up fixing it, or no attempts left. */
function noteOf(out) {
    if (out.kind === 'started')
        return { kind: 'fixing', attempt: out.attempt, max: out.max };
    if (out.kind === 'used-up')
        return { kind: 'used-up', max: out.max };
    return undefined;
}
/** A failed run crew found on the head, as its `workflow_run` event would have carried it. */
function ciRunOf(r, repo) {
    return {
        runId: r.id,
        workflow: r.workflow,
        path: r.path,
        conclusion: r.conclusion,
        headBranch: r.headBranch,
        headSha: r.headSha,
        headRepo: r.headRepo,
        repo,
        url: r.url,
    };
}


/***/ }),

/***/ 25442:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   replyInThreads: () => (/* binding */ replyInThreads),
/* harmony export */   startFollowUp: () => (/* binding */ startFollowUp)
/* harmony export */ });
/* harmony import */ var _domain_follow_up__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(75933);
/* harmony import */ var _domain_commands__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(80488);
/* harmony import */ var _domain_refs__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(92);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(24742);
/* harmony import */ var _text_sanitize__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(64212);
/* harmony import */ var _domain_images__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(99696);
/* harmony import */ var _caps__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(75498);
/* harmony import */ var _commands_start__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(52478);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(33732);









/** Review text's limits on the way to a prompt: each comment, each hunk, the feedback. */
const COMMENT_CHARS = 2_000;
const HUNK_CHARS = 1_500;
const FEEDBACK_CHARS = 6_000;
/**
 * The one entry point for a follow-up run: crew's open pull request gets new commits on its own
 * branch for the feedback, every unresolved review thread a writer took part in, and the stated
 * criteria, judged with all the pull request's criteria again; the same pull request, report
 * comment and issue are updated. A comment on the pull request says why when it cannot start
 * (closed, not crew's, a run of the issue still active, nothing asked), and it returns not started.
 */
async function startFollowUp(ctx, req) {
    const pull = await ctx.forge.getPull(req.pull);
    const own = (0,_domain_refs__WEBPACK_IMPORTED_MODULE_2__/* .runOfIntegrationBranch */ .$o)(pull.headRef);
    if (!own || pull.fromFork) {
        await ctx.forge.postComment(req.pull, `This pull request's branch (\`${pull.headRef}\`) is not one crew opened, so crew does not follow up on it.`);
        return { started: false };
    }
    const issue = own.issue;
    if (pull.state !== 'open') {
        await ctx.forge.postComment(req.pull, `This pull request is ${pull.merged ? 'merged' : 'closed'}, so crew does not follow up on it. Comment \`/crew run\` on issue #${issue} to start a new run, which opens a new pull request.`);
        return { started: false };
    }
    const from = await pullsRun(ctx, issue, req.pull);
    if (!from?.view.plan) {
        await ctx.forge.postComment(req.pull, `crew has no finished run of issue #${issue} with this pull request on its state branch, so it cannot follow up here. Comment \`/crew run\` on issue #${issue} to start a new run.`);
        return { started: false };
    }
    const { threads, leftOut } = await writersThreads(ctx, req.pull);
    const material = {
        feedback: (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .sanitize */ .a)(req.feedback, FEEDBACK_CHARS),
        criteria: (req.criteria ?? []).map((c) => (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .sanitize */ .a)(c, 500)).filter(Boolean),
        threads: threads.map((t) => t.material),
        kept: from.view.plan.criteria,
        leftOut,
        source: req.source,
        images: (0,_domain_images__WEBPACK_IMPORTED_MODULE_5__/* .foundImages */ .Lh)([
            { shown: (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .renderedMarkup */ .Q)(req.feedback), in: (0,_domain_images__WEBPACK_IMPORTED_MODULE_5__/* .triggerText */ .GA)(req.trigger, req.pull) },
            ...threads.flatMap((t) => t.said).map((words) => ({ shown: (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .renderedMarkup */ .Q)(words), in: { kind: 'review-comments', pull: req.pull } })),
        ]),
    };
    if (!(0,_domain_follow_up__WEBPACK_IMPORTED_MODULE_0__/* .followUpItems */ .Fz)(material).length) {
        await ctx.forge.postComment(req.pull, 'crew found nothing to follow up on: no words after the command and no unresolved review comment by someone with write access. Say what to change, for example `/crew fix rename the option to --dry-run`, or leave review comments first.');
        return { started: false };
    }
    const k = (from.view.run.followUp?.k ?? 0) + 1;
    const request = from.request ?? { title: from.view.run.title, body: '' };
    const record = {
        pull: req.pull,
        k,
        fromRun: from.view.run.run,
        branch: pull.headRef,
        source: req.source,
        reviewedSha: from.view.run.followUp?.reviewedSha ?? from.view.run.base.sha,
        crewHead: from.view.run.review?.headSha ?? null,
        threads: threads.map((t) => t.record),
        added: [],
    };
    const pr = from.view.run.pr;
    return (0,_commands_start__WEBPACK_IMPORTED_MODULE_7__/* .startRun */ .AD)(ctx, {
        issue: { number: issue, title: request.title, body: request.body },
        by: req.by,
        trigger: req.trigger,
        // A follow-up of a stacked run (crew's pull request into a person's branch) stays stacked: never merged into it by crew.
        base: { branch: pull.baseRef, sha: pull.headSha, ...(from.view.run.base.pull ? { pull: from.view.run.base.pull } : {}) },
        followUp: { record, pr, material },
        replyOn: req.pull,
        onCreated: (run) => announce(ctx, pull, req, { issue, run, k, threads: threads.length, handPushed: (0,_domain_follow_up__WEBPACK_IMPORTED_MODULE_0__/* .handPushed */ .Bw)(record, pull.headSha) }),
        ...(req.dispatch ? { dispatch: true } : {}),
    }, 'run');
}
/** The newest run of the issue with this pull request, its view and the first run's request (what the issue said). */
async function pullsRun(ctx, issue, pull) {
    const snap = await ctx.state.load(`issue-${issue}/`);
    for (const k of [...(0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .runNumbers */ .Sm)(snap, issue)].reverse()) {
        const rec = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .readRun */ .cI)(snap, issue, k);
        if (rec?.pr?.number !== pull)
            continue;
        const view = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .readView */ .Ml)(snap, issue, k);
        if (!view)
            return undefined;
        return { view, request: (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .parseJson */ .qF)(snap, _state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .paths */ .f0.requestJson(issue, k)) };
    }
    return undefined;
}
/**
 * The unresolved review threads, each with the comments people with write access wrote in it
 * (collaborator-permission check, once per login per job; a failed check leaves the comment out),
 * sanitised like issue text. crew's own replies and bots' comments are left out; a `/crew` line
 * counts for the words after the command.
 */
async function writersThreads(ctx, pull) {
    const all = (await ctx.forge.reviewThreads?.(pull)) ?? [];
    const me = (await ctx.forge.botLogin()).toLowerCase();
    const writer = new Map();
    const isWriter = async (login) => {
        const key = login.toLowerCase();
        if (!writer.has(key)) {
            const p = await ctx.forge.permissionOf(login).catch((e) => {
                ctx.log.warn(`the permission check for @${login} failed (${e instanceof Error ? e.message : String(e)}); their review comments are left out`);
                return 'none';
            });
            writer.set(key, p === 'admin' || p === 'write');
        }
        return writer.get(key);
    };
    const out = [];
    let open = 0;
    for (const t of all.filter((x) => !x.resolved)) {
        const said = [];
        const raw = [];
        for (const c of t.comments) {
            if (c.author.type !== 'User' || c.author.login.toLowerCase() === me || !(await isWriter(c.author.login)))
                continue;
            const words = c.body.trimStart().startsWith('/crew') ? (0,_domain_commands__WEBPACK_IMPORTED_MODULE_1__/* .commandText */ .jt)(c.body) : c.body;
            const body = (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .sanitize */ .a)(words, COMMENT_CHARS);
            if (body)
                said.push({ author: c.author.login, body });
            raw.push(words);
        }
        if (!said.length)
            continue;
        open++;
        if (out.length >= _domain_follow_up__WEBPACK_IMPORTED_MODULE_0__/* .MAX_THREADS */ .J$)
            continue;
        const first = t.comments[0];
        const path = (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .sanitize */ .a)(first.path, 300);
        out.push({
            record: { rootId: t.rootId, path, line: first.line, replied: false },
            material: { rootId: t.rootId, path, line: first.line, diffHunk: (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .sanitize */ .a)(first.diffHunk, HUNK_CHARS), comments: said },
            said: raw,
        });
    }
    return { threads: out, leftOut: open - out.length };
}
/** The note on the pull request that the follow-up started, with where to follow it. */
async function announce(ctx, pull, req, a) {
    const view = await (0,_context__WEBPACK_IMPORTED_MODULE_8__/* .loadView */ .QJ)(ctx, a.issue, a.run);
    const where = view.run.planCommentId
        ? ctx.surface.commentLink('the plan comment', ctx.forge.commentLink(a.issue, view.run.planCommentId))
        : `issue #${a.issue}`;
    const checks = req.criteria?.length ?? 0;
    const asked = req.why
        ? `${req.why} The failed check${checks === 1 ? '' : 's'}${a.threads ? ` and ${a.threads} unresolved review thread${a.threads === 1 ? '' : 's'}` : ''}`
        : `asked by @${req.by}: ${a.threads ? `your words and ${a.threads} unresolved review thread${a.threads === 1 ? '' : 's'}` : 'your words'}`;
    const become = req.why && checks === 1 && !a.threads ? 'becomes a new done criterion' : 'become new done criteria';
    const lines = [
        `crew starts follow-up ${a.k} on this pull request (run ${ctx.surface.runNumber(a.issue, a.run)} of #${a.issue})${req.why ? '. ' : ', '}${asked} ${become} next to the earlier ones, and the critic judges them all again. New commits go on \`${pull.headRef}\`; nothing is force-pushed. Follow it in ${where}.`,
    ];
    if (a.handPushed)
        lines.push('', `The branch has commits crew did not make (its head is ${pull.headSha.slice(0, 7)}); the follow-up starts from them and keeps them. The critic's earlier pass no longer counts for merging: only a pass on the new head does.`);
    await (0,_caps__WEBPACK_IMPORTED_MODULE_6__/* .spend */ .Rf)(ctx, a.issue, a.run, { comments: 1 });
    await ctx.forge.postComment(req.pull, lines.join('\n'));
}
/**
 * After the critic passed a follow-up: a reply in every review thread it addressed, naming the
 * commit on the branch that addresses it, once each (recorded, so a re-run does not reply twice).
 * crew resolves no thread: people do.
 */
async function replyInThreads(ctx, view, headSha) {
    const f = view.run.followUp;
    if (!f)
        return;
    const { issue, run } = view.run;
    for (const t of f.threads.filter((x) => !x.replied)) {
        try {
            await ctx.forge.replyInThread?.(f.pull, t.rootId, `Addressed in ${headSha} (follow-up ${f.k}, run ${ctx.surface.runNumber(issue, run)} of #${issue}); the critic judged it with every other criterion. Resolve this thread if you agree.`);
        }
        catch (e) {
            ctx.log.warn(`could not reply in the review thread ${t.rootId}: ${e.message}`);
            continue;
        }
        await (0,_context__WEBPACK_IMPORTED_MODULE_8__/* .updateRun */ .PF)(ctx, issue, run, `replied in review thread ${t.rootId}`, (rec, tx) => {
            if (!rec.followUp)
                return;
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeRun */ .bp)(tx, { ...rec, followUp: { ...rec.followUp, threads: rec.followUp.threads.map((x) => (x.rootId === t.rootId ? { ...x, replied: true } : x)) } }, (0,_context__WEBPACK_IMPORTED_MODULE_8__/* .nowIso */ .kF)(ctx));
        });
    }
}


/***/ })

};
