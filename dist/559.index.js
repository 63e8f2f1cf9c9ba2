export const id = 559;
export const ids = [559,360,979];
export const modules = {

/***/ 4436:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   tr: () => (/* binding */ readPastRuns),
/* harmony export */   uZ: () => (/* binding */ pastRun)
/* harmony export */ });
/* unused harmony export PAST_RUNS */
/* harmony import */ var _domain_actions_minutes__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(10459);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(65534);
/* harmony import */ var _ports__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(16467);
/* harmony import */ var _domain_retention__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(54282);
/* harmony import */ var _run_files__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(24742);





/** The files an estimate reads of each earlier run: its record, plan, task records and job times, or the digest of a pruned one. */
const WANTED = /^issue-\d+\/run-\d+\/(run\.json|plan\.json|tasks\/task_t\d+\.json|jobs\/job_[^/]+\.json|digest\.json)$/;
const FOLDER = /^issue-(\d+)\/run-(\d+)\//;
/** How many of the newest finished runs an estimate looks at: recent enough to resemble the next one. */
const PAST_RUNS = 20;
/**
 * The repository's finished runs on the state store, newest first, as an estimate needs them
 * (domain/estimate.ts). A run whose files crew cannot read is left out and named in `problems`,
 * so a damaged old run never stops a new one from planning.
 */
async function readPastRuns(store, current, limit = PAST_RUNS) {
    // Finished runs do not change: whatever tip this job saw holds them.
    const snap = await store.loadRuns((p) => WANTED.test(p), _ports__WEBPACK_IMPORTED_MODULE_2__/* .SEEN */ .GL);
    const folders = new Map();
    for (const p of snap.list('')) {
        const m = FOLDER.exec(p);
        if (m)
            folders.set(`${m[1]}/${m[2]}`, { issue: Number(m[1]), run: Number(m[2]) });
    }
    const finished = [];
    const problems = [];
    for (const { issue, run } of folders.values()) {
        if (issue === current.issue && run === current.run)
            continue;
        try {
            const view = (0,_run_files__WEBPACK_IMPORTED_MODULE_4__/* .readView */ .Ml)(snap, issue, run);
            if (view && (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .isTerminal */ .Hd)(view.run.phase))
                finished.push({ createdAt: view.run.createdAt, figures: () => pastRun(view) });
            // A pruned run left its figures in its digest, however old.
            const digest = view ? undefined : (0,_run_files__WEBPACK_IMPORTED_MODULE_4__/* .readChecked */ .Yi)(snap, _run_files__WEBPACK_IMPORTED_MODULE_4__/* .paths */ .f0.digest(issue, run), _domain_retention__WEBPACK_IMPORTED_MODULE_3__/* .RunDigestSchema */ .Xv);
            if (digest)
                finished.push({ createdAt: digest.createdAt, figures: () => digest.figures });
        }
        catch (e) {
            problems.push(`the estimate leaves out run ${run} of issue #${issue}: ${e.message}`);
        }
    }
    finished.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return { runs: finished.slice(0, limit).map((r) => r.figures()), problems };
}
/** One finished run's figures: per task that ran, and what came after the plan when the run recorded its own estimate. */
function pastRun(view) {
    const jobs = view.jobs ?? [];
    const perTask = jobs.length ? (0,_domain_actions_minutes__WEBPACK_IMPORTED_MODULE_0__/* .minutesPerTask */ .kl)(jobs) : null;
    const tasks = (view.plan?.tasks ?? []).flatMap((t) => {
        const rec = view.tasks.get(t.id);
        if (!rec || rec.attempts === 0)
            return [];
        return [{ tier: t.tier, costUsd: rec.usage.costUsd, minutes: perTask ? (perTask.get(t.id) ?? null) : null }];
    });
    const e = view.run.estimate;
    const afterPlan = e && view.run.phase === 'COMPLETED'
        ? {
            costUsd: Math.max(0, view.run.usage.costUsd - e.spentUsd),
            minutes: jobs.length && e.spentMinutes !== null ? Math.max(0, (0,_domain_actions_minutes__WEBPACK_IMPORTED_MODULE_0__/* .runMinutes */ .Rp)(jobs.filter((j) => j.step !== 'work')) - e.spentMinutes) : null,
        }
        : null;
    return { tasks, afterPlan };
}


/***/ }),

/***/ 48360:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   r: () => (/* binding */ readDigest),
/* harmony export */   s: () => (/* binding */ pruneRunFolder)
/* harmony export */ });
/* harmony import */ var _domain_retention__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(54282);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(65534);
/* harmony import */ var _domain_refs__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(92);
/* harmony import */ var _past_runs__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4436);
/* harmony import */ var _run_files__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(24742);





/**
 * A run's folder leaving crew/state: every file of it goes, in the same commit that writes its
 * digest (`digest.json`, domain/retention.ts) in its place. The folder's history stays in the
 * branch's commits; the report stays on GitHub, in its comment.
 */
function readDigest(r, issue, run) {
    return (0,_run_files__WEBPACK_IMPORTED_MODULE_4__/* .readChecked */ .Yi)(r, _run_files__WEBPACK_IMPORTED_MODULE_4__/* .paths */ .f0.digest(issue, run), _domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .RunDigestSchema */ .Xv);
}
/** Replaces the run's folder by its digest; `view` is the run as this write reads it. */
function pruneRunFolder(tx, view, end, now) {
    const { issue, run } = view.run;
    const digest = (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .runDigest */ .sA)(view.run, end, (0,_past_runs__WEBPACK_IMPORTED_MODULE_3__/* .pastRun */ .uZ)(view), (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .totalUsage */ .GG)(view).costUsd, view.plan?.tasks.length ?? 0, now);
    for (const path of tx.list(`${(0,_domain_refs__WEBPACK_IMPORTED_MODULE_2__/* .runFolder */ .kQ)(issue, run)}/`))
        tx.remove(path);
    tx.write(_run_files__WEBPACK_IMPORTED_MODULE_4__/* .paths */ .f0.digest(issue, run), `${JSON.stringify(digest, null, 2)}\n`);
}


/***/ }),

/***/ 83405:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   hH: () => (/* binding */ latestRun),
/* harmony export */   n0: () => (/* binding */ setOutputs),
/* harmony export */   xu: () => (/* binding */ REPLY_CHARS)
/* harmony export */ });
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(65534);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(24742);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(33732);



/** What every command handler shares: the route job's outputs, the newest run, the reply length. */
/** A maintainer's answer or feedback reaches prompts like the issue does: sanitised, and at most this long. */
const REPLY_CHARS = 10_000;
/**
 * The matrix for the work job. With nothing to start the work job is skipped, and so is
 * advance unless `advance` asks for it (a run whose remaining step is to finish).
 */
async function setOutputs(ctx, issue, run, tasks, advance = false) {
    const go = tasks.length > 0 || advance;
    if (go && issue !== '' && run !== '')
        (0,_context__WEBPACK_IMPORTED_MODULE_2__/* .handedOn */ .Uz)(ctx, issue, run);
    ctx.output('issue', go ? String(issue) : '');
    ctx.output('run', go ? String(run) : '');
    // Each parallel attempt of a task (#50) is a leg of the matrix.
    ctx.output('tasks', JSON.stringify(issue !== '' && run !== '' ? await (0,_context__WEBPACK_IMPORTED_MODULE_2__/* .workLegs */ .V8)(ctx, issue, run, tasks) : tasks));
}
async function latestRun(ctx, issue) {
    const snap = await ctx.state.load(`issue-${issue}/`);
    const last = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_1__/* .runNumbers */ .Sm)(snap, issue).at(-1);
    return last === undefined ? undefined : (0,_state_run_files__WEBPACK_IMPORTED_MODULE_1__/* .readRun */ .cI)(snap, issue, last);
}


/***/ }),

/***/ 4419:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  z6: () => (/* binding */ REPOSITORY_BUDGET),
  sv: () => (/* binding */ hasWriteAccess),
  TR: () => (/* binding */ refuse)
});

// EXTERNAL MODULE: ./src/render/messages.ts
var messages = __webpack_require__(93050);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
;// CONCATENATED MODULE: ./src/domain/refusals.ts
/**
 * How often crew tells one person, on one issue, that it will not act for them. Anyone can
 * comment on a public repository, and each refusal is a comment that notifies everyone
 * watching the issue; without a limit, a stranger's comments would make crew spam it. Pure.
 */
/** One refusal comment per person per issue in this window; refusals inside it get a 👎 reaction instead. */
const REFUSAL_WINDOW_MS = 60 * 60_000;
/** Whether a refusal may be a comment, given when the person's last refusal comment on the issue was posted. */
function refusalCommentDue(lastCommentAt, now) {
    if (lastCommentAt === undefined)
        return true;
    return now.getTime() - Date.parse(lastCommentAt) >= REFUSAL_WINDOW_MS;
}
/**
 * The file name for a login: GitHub logins are letters, digits and hyphens, compared
 * without case. Any other character is spelled as `_<hex>`, so a name is never a path.
 */
function refusalKey(login) {
    return login
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, (c) => `_${c.codePointAt(0).toString(16)}`)
        .slice(0, 200);
}

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 4 modules
var schemas = __webpack_require__(41514);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/iso.js
var iso = __webpack_require__(64377);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
;// CONCATENATED MODULE: ./src/state/refusals.ts



/** When crew last posted a refusal to a person on an issue: `issue-<N>/refusals/<login>.json` on crew/state. */
const RefusalSchema = schemas/* looseObject */._H3({
    login: schemas/* string */.YjP(),
    lastCommentAt: iso/* datetime */.w$({ message: 'expected a time such as 2026-01-31T12:00:00Z' }),
});
const refusalsFolder = (issue) => `issue-${issue}/refusals/`;
const refusalPath = (issue, login) => `${refusalsFolder(issue)}${refusalKey(login)}.json`;
function readRefusal(r, issue, login) {
    return (0,run_files/* readChecked */.Yi)(r, refusalPath(issue, login), RefusalSchema);
}
function writeRefusal(tx, issue, rec) {
    tx.write(refusalPath(issue, rec.login), `${JSON.stringify(rec, null, 2)}\n`);
}

// EXTERNAL MODULE: ./src/clock.ts
var clock = __webpack_require__(99373);
;// CONCATENATED MODULE: ./src/steps/commands/permission.ts





/** The refusal window of a repository budget: not a login (GitHub logins have no `:`), so it never meets a person's. */
const REPOSITORY_BUDGET = ':repository-budget';
function askerOf(ev) {
    return 'comment' in ev ? { issue: ev.issue.number, login: ev.comment.author.login, commentId: ev.comment.id } : ev;
}
/** Write or admin, checked with the collaborator-permission API; anything else (or an API failure) is a no. */
async function hasWriteAccess(ctx, ev, sayWhy) {
    const who = askerOf(ev);
    let permission;
    try {
        permission = await ctx.forge.permissionOf(who.login);
    }
    catch (e) {
        throw new context/* CrewError */.uH('the permission check', `GitHub did not answer the permission check for @${who.login} (${e.message}), so crew did not act.`, who.commentId ? 'Comment the command again in a minute.' : 'Remove the label or the assignment and add it again in a minute, or comment `/crew run`.');
    }
    if (permission === 'admin' || permission === 'write')
        return true;
    if (sayWhy)
        await refuse(ctx, who, (0,messages/* refusalComment */.kT)(who.login, permission));
    else
        ctx.log.info(`ignoring a reply from @${who.login}, who has ${permission} access`);
    return false;
}
/**
 * Tells someone crew will not act for them: as a comment at most once per person per issue
 * an hour, remembered on crew/state (each comment is a new job); inside the hour, a 👎
 * reaction on their comment instead (or only the log, when a label or an assignment asked).
 * One state read; a write only when a comment is due.
 */
async function refuse(ctx, who, body) {
    const { issue, login } = who;
    const key = who.window ?? login;
    const now = ctx.clock.now();
    const { value: due } = await ctx.state.update(refusalsFolder(issue), `issue #${issue}: refused @${login}`, (tx) => {
        if (!refusalCommentDue(readRefusal(tx, issue, key)?.lastCommentAt, now))
            return false;
        writeRefusal(tx, issue, { login: key, lastCommentAt: (0,clock/* isoSeconds */.nE)(now) });
        return true;
    });
    if (due) {
        await ctx.forge.postComment(issue, body);
        return;
    }
    ctx.log.info(who.window
        ? `#${issue} was already told within the hour that the repository budget is spent`
        : `@${login} was already told on #${issue} within the hour that crew does not act for them`);
    if (who.commentId !== undefined)
        await ctx.forge.react?.(who.commentId, '-1');
}


/***/ }),

/***/ 52478:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   AD: () => (/* binding */ startRun),
/* harmony export */   Pr: () => (/* binding */ ensurePlanComment),
/* harmony export */   bu: () => (/* binding */ commentRequest)
/* harmony export */ });
/* harmony import */ var _config_schema__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(90131);
/* harmony import */ var _domain_attempts__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(26296);
/* harmony import */ var _domain_surface__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(45759);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(65534);
/* harmony import */ var _render_plan_comment__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(24013);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(24742);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(33732);
/* harmony import */ var _plan_run__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(60016);
/* harmony import */ var _common__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(83405);
/* harmony import */ var _permission__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(4419);
/* harmony import */ var _spend_gate__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(50746);











function commentRequest(ctx, ev) {
    return {
        issue: ev.issue,
        by: ev.comment.author.login,
        trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt, workflowRunId: ctx.runId },
        comment: ev.comment.body,
    };
}
/**
 * The same request again: the same comment, or (for a label or an assignment) the same workflow run
 * re-run; for a failed CI run, the same job on the same CI run (one job may end a run and start a
 * follow-up for CI, in the workflow run that started the run it ends).
 */
function sameRequest(a, b) {
    // A review's id and a comment's may be equal numbers: the kind of text counts too.
    if (b.commentId)
        return a.commentId === b.commentId && a.how === b.how;
    return !a.commentId && a.how === b.how && a.workflowRunId !== undefined && a.workflowRunId === b.workflowRunId && a.ciRunId === b.ciRunId;
}
/** The run's parallel attempts (#50): what the request asked for, within `attempts.max`, else `attempts.parallel`. */
function runAttempts(ctx, config, asked) {
    if (asked === undefined)
        return { parallel: config.parallel, max: config.max };
    const ok = (0,_domain_attempts__WEBPACK_IMPORTED_MODULE_9__/* .checkAttemptsRequest */ .On)(asked, config.max);
    if (!ok.ok)
        throw new _context__WEBPACK_IMPORTED_MODULE_5__/* .CrewError */ .uH('starting the run', `${ok.why}. The run did not start.`, `${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_1__/* .sentence */ .em)(ctx.surface.give('run'))} with \`--attempts\` from 1 to ${config.max}.`);
    return { parallel: asked, max: Math.max(config.max, asked) };
}
/** Starts a run of the issue (or continues this job's earlier attempt's), and plans it; when it cannot, says why where it was asked. */
async function startRun(ctx, ev, mode) {
    const issue = ev.issue.number;
    const before = await checksBeforeRun(ctx, ev);
    const outcome = await writeStart(ctx, ev, mode, before);
    if (outcome.kind === 'refused') {
        await sayRefused(ctx, ev, outcome.admit);
        return { started: false };
    }
    if (outcome.kind === 'busy') {
        await sayBusy(ctx, ev, outcome.record);
        return { started: false, busy: outcome.record.run };
    }
    const run = outcome.record.run;
    ctx.log.checkpoint('run-created');
    ctx.working = { issue, run };
    await ensurePlanComment(ctx, issue, run, outcome.kind === 'existing');
    // A follow-up's comment still shows the run it took it over from: show the follow-up at once.
    if (outcome.kind === 'created' && ev.followUp)
        await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .syncPlanComment */ .Of)(ctx, issue, run);
    if (outcome.kind === 'created')
        await ev.onCreated?.(run);
    if (outcome.kind === 'existing' && outcome.record.phase === 'EXECUTING') {
        // Already planned by an earlier attempt of this job: hand on whatever is claimed for this workflow run.
        const view = await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .loadView */ .QJ)(ctx, issue, run);
        if (!ev.dispatch)
            await (0,_common__WEBPACK_IMPORTED_MODULE_6__/* .setOutputs */ .n0)(ctx, issue, run, [...view.tasks.values()].filter((t) => t.status === 'running' && t.claim?.runId === ctx.runId).map((t) => t.id));
        return { started: true, run };
    }
    const tasks = await (0,_plan_run__WEBPACK_IMPORTED_MODULE_10__/* .planRun */ .n)(ctx, issue, run, undefined, ev.dispatch ? 'dispatch' : 'this-run');
    if (!ev.dispatch)
        await (0,_common__WEBPACK_IMPORTED_MODULE_6__/* .setOutputs */ .n0)(ctx, issue, run, tasks);
    await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .syncPlanComment */ .Of)(ctx, issue, run);
    return { started: true, run };
}
/** What a run needs before its start is written: a readable configuration, a model, the attempts asked for, the base, whether the last planner died, and admission. */
async function checksBeforeRun(ctx, ev) {
    const issue = ev.issue.number;
    try {
        await ctx.config();
    }
    catch (e) {
        if (e instanceof _config_schema__WEBPACK_IMPORTED_MODULE_0__/* .ConfigError */ .xL)
            throw new _context__WEBPACK_IMPORTED_MODULE_5__/* .CrewError */ .uH('reading the configuration', `${e.message}\n\nThe run did not start.`, `Fix \`.github/crew.yml\` on the default branch, then ${ctx.surface.give('run')} again.`);
        throw e;
    }
    ctx.model(); // fails now, with a clear message, if no key was given
    const config = await ctx.config();
    const attempts = runAttempts(ctx, config.attempts, ev.attempts);
    const baseBranch = ev.base?.branch ?? config.base_branch ?? (await ctx.forge.defaultBranch());
    // The base branch's head comes in the same answer as the state's first read (#31 §4).
    if (!ev.base?.sha)
        ctx.remote.expectHead?.(baseBranch);
    // Whether the run a PLANNING record belongs to has ended without planning: asked before the state write, outside it.
    const deadPlanners = new Set();
    const previous = await (0,_common__WEBPACK_IMPORTED_MODULE_6__/* .latestRun */ .hH)(ctx, issue);
    const baseSha = ev.base?.sha ?? (await ctx.remote.head(baseBranch));
    if (previous?.phase === 'PLANNING' && previous.trigger.workflowRunId && (await ctx.forge.workflowRunActive(previous.trigger.workflowRunId)) === false)
        deadPlanners.add(`${previous.run}`);
    const stalePlanning = (r) => r.phase === 'PLANNING' && deadPlanners.has(`${r.run}`);
    if (!baseSha)
        throw new _context__WEBPACK_IMPORTED_MODULE_5__/* .CrewError */ .uH('starting the run', `the base branch '${baseBranch}' does not exist or has no commits.`, `Push a first commit (or fix \`base_branch\` in \`.github/crew.yml\`), then ${ctx.surface.give('run')}.`);
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx);
    // After the state's first read, from the same tip: the budgets and the rate cost no request (#52).
    const admit = await (0,_spend_gate__WEBPACK_IMPORTED_MODULE_8__/* .admission */ .at)(ctx, { by: ev.by, automatic: ev.trigger.how === 'ci' });
    return { attempts, baseBranch, baseSha, stalePlanning, now, admit };
}
/** The write that starts the run: this job's earlier run again, the issue's run still working, a refusal, or a new run with its request. */
async function writeStart(ctx, ev, mode, { attempts, baseBranch, baseSha, stalePlanning, now, admit }) {
    const issue = ev.issue.number;
    const { value: outcome } = await ctx.state.update(`issue-${issue}/`, `issue #${issue}: start a run`, (tx) => {
        const last = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .runNumbers */ .Sm)(tx, issue).at(-1);
        const lastRec = last !== undefined ? (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .readRun */ .cI)(tx, issue, last) : undefined;
        // The same comment again (a re-run of this job) continues its own run.
        if (lastRec && sameRequest(lastRec.trigger, ev.trigger))
            return { kind: 'existing', record: lastRec };
        if (lastRec && !(0,_domain_run_state__WEBPACK_IMPORTED_MODULE_2__/* .isTerminal */ .Hd)(lastRec.phase) && !stalePlanning(lastRec))
            return { kind: 'busy', record: lastRec };
        // A run whose planner died (its workflow run is over) is taken over, not refused.
        if (lastRec && stalePlanning(lastRec))
            return { kind: 'existing', record: lastRec };
        if (admit.kind === 'refused')
            return { kind: 'refused', admit };
        const k = (last ?? 0) + 1;
        const record = (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_2__/* .newRunRecord */ .pB)({
            issue,
            run: k,
            mode,
            title: ev.issue.title,
            requestedBy: ev.by,
            trigger: ev.trigger,
            base: { branch: baseBranch, sha: baseSha, ...(ev.base?.pull ? { pull: ev.base.pull } : {}) },
            now,
            host: ctx.job ? 'actions' : 'local',
            attempts,
            ...(ev.followUp ? { followUp: { record: ev.followUp.record, pr: ev.followUp.pr } } : {}),
        });
        if (admit.kind === 'admit' && admit.warning)
            record.spendWarning = admit.warning;
        if (ev.followUp)
            tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .paths */ .f0.followUp(issue, k), `${JSON.stringify(ev.followUp.material, null, 2)}\n`);
        // The issue keeps one live plan comment: a follow-up takes over the comment of the run whose pull
        // request it continues, in this same write, so from here on only the newer run renders into it.
        const from = ev.followUp ? (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .readRun */ .cI)(tx, issue, ev.followUp.record.fromRun) : undefined;
        if (from && from.planCommentId !== null) {
            record.planCommentId = from.planCommentId;
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...from, planCommentPassedTo: k }, now);
        }
        // The request is taken from the event payload: what the issue said when the maintainer asked.
        tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .paths */ .f0.request(issue, k), `# ${ev.issue.title}\n\n${ev.issue.body}\n`);
        tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .paths */ .f0.requestJson(issue, k), `${JSON.stringify({ title: ev.issue.title, body: ev.issue.body, ...(ev.comment ? { comment: ev.comment } : {}) }, null, 2)}\n`);
        return { kind: 'created', record: (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, record, now) };
    });
    return outcome;
}
/** "crew is already working on this issue", said where the run was asked. */
async function sayBusy(ctx, ev, r) {
    const issue = ev.issue.number;
    const what = r.phase === 'ESCALATING'
        ? 'waiting for answers to its questions'
        : r.phase === 'AWAITING_APPROVAL'
            ? `waiting for ${ctx.surface.command('approve')} or ${ctx.surface.command('revise')}`
            : r.phase.toLowerCase();
    const where = r.planCommentId ? ctx.surface.commentLink('the plan comment', ctx.forge.commentLink(issue, r.planCommentId)) : 'the plan comment';
    await ctx.forge.postComment(ev.replyOn ?? issue, ev.followUp?.record.source === 'ci'
        ? `CI failed on ${ev.base?.sha.slice(0, 7) ?? 'this pull request'} while crew is still working on issue #${issue} (run ${ctx.surface.runNumber(issue, r.run)}, ${what}). crew will look at this pull request's CI again when that run ends, and starts the fix (\`fix_ci\`) then if CI still fails; nothing is counted until it starts. Follow it in ${where}.`
        : ev.followUp
            ? `crew is still working on issue #${issue} (run ${ctx.surface.runNumber(issue, r.run)}, ${what}), so this follow-up did not start: two runs on one branch would push over each other. Follow it in ${where}, then ask again once it has finished; your review comments stay unresolved, so the next follow-up reads them.`
            : `crew is already working on this issue (run ${ctx.surface.runNumber(issue, r.run)}, ${what}). Follow it in ${where}; a new run can start once it has finished.`);
}
/** A run past a repository budget or the person's rate: one comment where it was asked, once an hour (the rate per person and issue, a budget per issue), then a 👎. */
async function sayRefused(ctx, ev, admit) {
    const on = ev.replyOn ?? ev.issue.number;
    ctx.log.info(`the run did not start: ${admit.why === 'budget' ? 'a repository budget is spent' : `@${ev.by} is past limits.runs_per_person_per_day`}`);
    // A review's id is not a comment's: only a comment in the conversation gets the 👎.
    const commentId = ev.trigger.commentId && !ev.trigger.how ? { commentId: ev.trigger.commentId } : {};
    // A budget's refusal is the repository's, not the person's: once an hour on the issue, whoever asks (#52).
    if (admit.why === 'budget')
        return (0,_permission__WEBPACK_IMPORTED_MODULE_7__/* .refuse */ .TR)(ctx, { issue: on, login: ev.by, window: _permission__WEBPACK_IMPORTED_MODULE_7__/* .REPOSITORY_BUDGET */ .z6, ...commentId }, admit.text);
    await (0,_permission__WEBPACK_IMPORTED_MODULE_7__/* .refuse */ .TR)(ctx, { issue: on, login: admit.login, ...commentId }, admit.text);
}
/**
 * Posts the run's plan comment once and has its id recorded. When this job is a repeat
 * (an earlier attempt may have posted before recording the id), it first looks for
 * the comment by marker and author. The id rides in the job's next write of the run
 * (state/pending-plan-comment.ts): every read shows it from here on, and the job's end
 * records it if no write came (recordHeldPlanComments).
 */
async function ensurePlanComment(ctx, issue, run, repeat) {
    // Right after the run's start was written.
    const view = await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .loadView */ .QJ)(ctx, issue, run, _context__WEBPACK_IMPORTED_MODULE_5__/* .SEEN */ .GL);
    if (view.run.planCommentId !== null)
        return;
    const found = repeat ? await ctx.forge.findComment(issue, (0,_render_plan_comment__WEBPACK_IMPORTED_MODULE_3__/* .planMarker */ .YH)(issue, run), await ctx.forge.botLogin()) : undefined;
    const ref = found ?? (await ctx.forge.postComment(issue, (0,_render_plan_comment__WEBPACK_IMPORTED_MODULE_3__/* .renderPlanComment */ .zk)(view, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .planLinks */ .FR)(ctx), ctx.surface)));
    // Posted but not yet recorded: a job that dies here leaves a comment only a search can find.
    if (!found)
        ctx.log.checkpoint('plan-comment-sent');
    if (ctx.planCommentIds)
        ctx.planCommentIds.hold(issue, run, ref.id);
    else
        await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .updateRun */ .PF)(ctx, issue, run, `plan comment ${ref.id}`, (rec, tx) => {
            if (rec.planCommentId === null)
                (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...rec, planCommentId: ref.id }, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx));
        });
    ctx.log.checkpoint('plan-comment-posted');
}


/***/ }),

/***/ 60016:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   n: () => (/* binding */ planRun)
/* harmony export */ });
/**
 * planRun (planning.ts), loaded when a command plans: planning brings the agents, the sandbox and
 * the egress proxy, which a route job that answers a comment without planning does not parse.
 */
async function planRun(...args) {
    return (await Promise.all(/* import() */[__webpack_require__.e(882), __webpack_require__.e(709), __webpack_require__.e(21), __webpack_require__.e(384), __webpack_require__.e(571)]).then(__webpack_require__.bind(__webpack_require__, 73571))).planRun(...args);
}


/***/ }),

/***/ 50746:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  at: () => (/* binding */ admission),
  A6: () => (/* binding */ repositoryBudgetReached),
  r0: () => (/* binding */ repositorySpend)
});

// EXTERNAL MODULE: ./src/domain/spend.ts
var spend = __webpack_require__(48180);
// EXTERNAL MODULE: ./src/render/spend.ts
var render_spend = __webpack_require__(86196);
// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
// EXTERNAL MODULE: ./src/state/run-digests.ts
var run_digests = __webpack_require__(48360);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
;// CONCATENATED MODULE: ./src/state/spend.ts




/** The files the sums read of each run: its record, plan and task records (what it spent), or the digest of a pruned one. */
const WANTED = /^issue-\d+\/run-\d+\/(run\.json|plan\.json|tasks\/task_t\d+\.json|digest\.json)$/;
const FOLDER = /^issue-(\d+)\/run-(\d+)\//;
/**
 * Every run's recorded spend on crew/state, pruned runs by their digests (domain/spend.ts). Read
 * from the tip this job already saw: the route job has just read the state, so this asks GitHub
 * nothing more. A run whose files crew cannot read is left out and named in `problems`.
 */
async function readRunSpends(store) {
    const snap = await store.loadRuns((p) => WANTED.test(p), ports/* SEEN */.GL);
    const folders = new Map();
    for (const p of snap.list('')) {
        const m = FOLDER.exec(p);
        if (m)
            folders.set(`${m[1]}/${m[2]}`, { issue: Number(m[1]), run: Number(m[2]) });
    }
    const runs = [];
    const problems = [];
    for (const { issue, run } of folders.values()) {
        try {
            const view = (0,run_files/* readView */.Ml)(snap, issue, run);
            if (view) {
                runs.push({
                    issue,
                    run,
                    createdAt: view.run.createdAt,
                    costUsd: (0,run_state/* totalUsage */.GG)(view).costUsd,
                    by: view.run.requestedBy,
                    finished: (0,run_state/* isTerminal */.Hd)(view.run.phase),
                    automatic: view.run.trigger.how === 'ci',
                });
                continue;
            }
            const digest = (0,run_digests/* readDigest */.r)(snap, issue, run);
            if (digest)
                runs.push({ issue, run, createdAt: digest.createdAt, costUsd: digest.costUsd, by: digest.requestedBy, finished: true, automatic: digest.automatic });
        }
        catch (e) {
            problems.push(`the spend leaves out run ${run} of issue #${issue}: ${e.message}`);
        }
    }
    return { runs: runs.sort((a, b) => a.issue - b.issue || a.run - b.run), problems };
}

// EXTERNAL MODULE: ./src/clock.ts
var clock = __webpack_require__(99373);
;// CONCATENATED MODULE: ./src/steps/spend-gate.ts




async function admission(ctx, req) {
    const config = await ctx.config();
    const now = ctx.clock.now();
    const { runs, problems } = await readRunSpends(ctx.state);
    for (const p of problems)
        ctx.log.warn(p);
    const { day, month } = config.budgets;
    const verdict = (0,spend/* budgetVerdict */.lS)((0,spend/* spendSummary */.T3)(runs, now, { day, month }), (0,spend/* typicalRunCost */.v5)(runs));
    if (verdict.kind === 'refused')
        return { kind: 'refused', why: 'budget', text: (0,render_spend/* budgetRefusal */.ag)(verdict.over, verdict.typicalUsd) };
    if (!req.automatic) {
        const count = (0,spend/* runsToday */.Y$)(runs, req.by, now);
        if (!(0,spend/* rateAllows */.No)(count, req.by, config.limits))
            return {
                kind: 'refused',
                why: 'rate',
                login: req.by,
                text: (0,render_spend/* rateRefusal */.NI)(req.by, count, config.limits.runs_per_person_per_day, (0,clock/* isoSeconds */.nE)((0,spend/* nextUtcDay */.e4)(now))),
            };
    }
    return verdict.kind === 'warn' ? { kind: 'admit', warning: (0,spend/* spendWarning */.PH)(verdict.near) } : { kind: 'admit' };
}
/** The repository's spend today and this month against its budgets, and the month's costliest runs (`/crew status`, `/crew doctor`). */
async function repositorySpend(ctx) {
    const { day, month } = (await ctx.config()).budgets;
    const { runs, problems } = await readRunSpends(ctx.state);
    for (const p of problems)
        ctx.log.warn(p);
    return (0,spend/* spendSummary */.T3)(runs, ctx.clock.now(), { day, month });
}
/**
 * The repository budget (`budgets.day`, `budgets.month`) the spend has reached, if any (#52): a running
 * run stops at its next step and asks, and `/crew continue`, `/crew resume` and `/crew retry` wait for room.
 * Read from the state this job has seen, like `admission`.
 */
async function repositoryBudgetReached(ctx, 
/** What this job spent that crew/state does not hold yet (a parallel leg's attempts before its candidate is recorded). */
unrecordedUsd = 0) {
    const { day, month } = (await ctx.config()).budgets;
    if (day === undefined && month === undefined)
        return undefined;
    const s = await repositorySpend(ctx);
    const plus = (p) => ({ ...p, spentUsd: p.spentUsd + unrecordedUsd });
    return (0,spend/* periodSpent */.Qh)({ ...s, day: plus(s.day), month: plus(s.month) });
}


/***/ }),

/***/ 64212:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Q: () => (/* binding */ renderedMarkup),
/* harmony export */   a: () => (/* binding */ sanitize)
/* harmony export */ });
/**
 * Cleans untrusted text (issue bodies, comments, answers) before it reaches a prompt.
 *
 * The rule: the model sees no more than a person reading the rendered issue on GitHub.
 * What a reader cannot see is removed, because hidden content is the usual carrier of
 * injected instructions: HTML comments and other markup that renders as nothing, elements
 * marked hidden, attribute values, image alt text, link titles, link reference
 * definitions, zero-width, bidi, tag and other invisible characters, and entities that
 * spell them. Where GitHub's rendering is ambiguous, crew removes: hiding visible text
 * from the model is safe, showing it hidden text is not. Fenced code blocks are shown
 * literally by GitHub, so inside them only invisible characters are removed (and hidden
 * elements and comments, which are removed everywhere, since a block that looks fenced
 * may sit inside raw HTML).
 */
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]/g;
/** Unicode tag characters and the variation-selector supplement: both can smuggle whole texts inside one visible glyph. */
const ASTRAL_INVISIBLE = /[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u{1D173}-\u{1D17A}]/gu;
const LINE_SEPARATORS = /[\u2028\u2029]/g;
/** Elements whose content a browser never shows (or GitHub's sanitiser drops). */
const NOT_RENDERED = ['script', 'style', 'template', 'noscript', 'iframe', 'object', 'frameset', 'head', 'title', 'svg', 'math', 'xmp'];
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** An HTML tag with its attributes; written so that no input can make it backtrack badly. */
const ATTRS = String.raw `(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>\x60]+))?)*\s*`;
const OPEN_TAG = new RegExp(String.raw `<([A-Za-z][A-Za-z0-9-]*)(${ATTRS})(/?)>`, 'g');
const ANY_TAG = new RegExp(String.raw `<(/?)([A-Za-z][A-Za-z0-9-]*)(${ATTRS})(/?)>`, 'g');
const IMG_TAG = new RegExp(String.raw `<img(?=[\s/>])${ATTRS}/?>`, 'gi');
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const HIDING_STYLE = /display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|opacity\s*:\s*0*\.?0+\s*(?:;|$)|font-size\s*:\s*0+(?:\.0+)?(?:[a-z%]*)?\s*(?:;|$)|(?:^|;)\s*(?:max-)?(?:height|width)\s*:\s*0+(?:[a-z%]*)?\s*(?:;|$)/i;
const INVISIBLE_NAMED_ENTITY = /&(?:zwj|zwnj|lrm|rlm|shy|ZeroWidthSpace|NegativeVeryThinSpace|NegativeThinSpace|NegativeMediumSpace|NegativeThickSpace|NoBreak|ic|InvisibleComma|it|InvisibleTimes|af|ApplyFunction);/g;
/** How much of a huge input is looked at, relative to what is kept: enough that removals cannot starve the result. */
const WORK_FACTOR = 3;
function sanitize(text, maxChars = 20_000) {
    const original = text.length;
    let out = text.length > maxChars * WORK_FACTOR ? text.slice(0, maxChars * WORK_FACTOR) : text;
    out = out.replace(/\r\n?/g, '\n').replace(LINE_SEPARATORS, '\n');
    // Every pass only removes or escapes, so it settles; removing one construct can join the halves of another.
    let settled = false;
    for (let i = 0; i < 10 && !settled; i++) {
        const next = pass(out);
        settled = next === out;
        out = next;
    }
    if (!settled) {
        // Markup nested to defeat the passes: keep only what the next pass would leave alone.
        const next = pass(out);
        let k = 0;
        while (k < out.length && out[k] === next[k])
            k++;
        out = `${out.slice(0, k)}\n\n[the rest is cut: its markup nests too deep to show safely]`;
    }
    out = out
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
    if (out.length > maxChars || original > maxChars * WORK_FACTOR) {
        out = `${out.slice(0, maxChars)}\n\n[truncated: the text has ${original.toLocaleString('en-US')} characters; only the first part is shown]`;
    }
    return out;
}
/**
 * The markup a reader's page renders, images and all: hidden elements, comments, invisible
 * characters and code blocks gone, nothing else changed. Where the request's images are looked
 * for (#36): an image in a hidden part or a code block is not one the person showed.
 */
function renderedMarkup(text) {
    let out = text.replace(/\r\n?/g, '\n');
    for (let i = 0; i < 10; i++) {
        const next = removeHiddenElements(removeComments(stripInvisible(out)));
        if (next === out)
            break;
        out = next;
    }
    return segments(out)
        .filter((s) => !s.code)
        .map((s) => s.text)
        .join('');
}
function pass(text) {
    let out = stripInvisible(text);
    out = removeComments(out);
    out = removeHiddenElements(out);
    return segments(out)
        .map((s) => (s.code ? s.text : cleanProse(s.text)))
        .join('');
}
function stripInvisible(text) {
    return text.replace(INVISIBLE, '').replace(ASTRAL_INVISIBLE, '');
}
/**
 * HTML comments, CDATA, processing instructions and declarations render as nothing. One
 * that starts a line and never ends hides the rest of the document (an HTML block); one
 * inside a line that never ends is shown as text, so it stays.
 */
function removeComments(text) {
    let out = text;
    for (const [open, close] of [
        ['<!--', '-->'],
        ['<![CDATA[', ']]>'],
        ['<?', '?>'],
    ])
        out = removeDelimited(out, open, close);
    return removeDelimited(out, '<!', '>', /^<![A-Za-z]/);
}
/** Linear in the text, however many openers it holds: once no closer follows, none will. */
function removeDelimited(text, open, close, shape) {
    let out = '';
    let i = 0;
    for (;;) {
        const at = text.indexOf(open, i);
        if (at < 0)
            return out + text.slice(i);
        if (shape && !shape.test(text.slice(at, at + 3))) {
            out += text.slice(i, at + open.length);
            i = at + open.length;
            continue;
        }
        const end = text.indexOf(close, at + open.length);
        if (end >= 0) {
            out += text.slice(i, at);
            i = end + close.length;
            continue;
        }
        // Never closed: inline it is text, but one that starts a line is an HTML block hiding the rest.
        const lineStart = text.lastIndexOf('\n', at - 1) + 1;
        if (/^[ \t]{0,3}$/.test(text.slice(lineStart, at)))
            return out + text.slice(i, lineStart);
        const escaped = open.replace(/[[\]?]/g, '\\$&');
        const block = new RegExp(`\\n[ \\t]{0,3}${escaped}`).exec(text.slice(at));
        return out + text.slice(i, block ? at + block.index + 1 : text.length);
    }
}
function attributes(attrs) {
    const map = new Map();
    for (const m of attrs.matchAll(ATTR))
        map.set(m[1].toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '');
    return map;
}
function hides(tag, attrs) {
    if (NOT_RENDERED.includes(tag))
        return true;
    const a = attributes(attrs);
    return (a.has('hidden') ||
        a.get('aria-hidden')?.toLowerCase() === 'true' ||
        (tag === 'input' && a.get('type')?.toLowerCase() === 'hidden') ||
        HIDING_STYLE.test(a.get('style') ?? ''));
}
/**
 * Removes every element a reader cannot see, with all it contains, counting nested
 * elements of the same name so `<div hidden><div>x</div>evil</div>` goes whole. An
 * element that is never closed hides everything after it.
 */
function removeHiddenElements(text) {
    let out = '';
    let from = 0;
    OPEN_TAG.lastIndex = 0;
    for (let m = OPEN_TAG.exec(text); m; m = OPEN_TAG.exec(text)) {
        const tag = m[1].toLowerCase();
        if (!hides(tag, m[2]))
            continue;
        out += text.slice(from, m.index);
        const end = m[3] || VOID.has(tag) ? OPEN_TAG.lastIndex : closingEnd(text, tag, OPEN_TAG.lastIndex);
        from = end;
        OPEN_TAG.lastIndex = end;
        if (end >= text.length)
            break;
    }
    return out + text.slice(from);
}
/** Where the element opened just before `from` ends: after its matching close tag, or the end of the text. */
function closingEnd(text, tag, from) {
    const re = new RegExp(String.raw `<(/?)${tag}(?=[\s/>])${ATTRS}(/?)>`, 'gi');
    re.lastIndex = from;
    let depth = 1;
    for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[1])
            depth--;
        else if (!m[2])
            depth++;
        if (depth === 0)
            return re.lastIndex;
    }
    return text.length;
}
/**
 * Splits the text into fenced code blocks and the rest. Conservative where GitHub's
 * parser is subtle: a fence inside raw HTML is no fence, and a closing fence is any
 * line GitHub would close on, so nothing GitHub renders as markup is taken for code.
 */
function segments(text) {
    const out = [];
    const push = (code, line) => {
        const last = out.at(-1);
        if (last && last.code === code)
            last.text += line;
        else
            out.push({ code, text: line });
    };
    let fence = null;
    let html = null;
    const lines = text.split(/(?<=\n)/);
    for (const line of lines) {
        const body = line.replace(/\n$/, '');
        if (fence) {
            push(true, line);
            const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(body);
            if (close && close[1][0] === fence.char && close[1].length >= fence.len)
                fence = null;
            continue;
        }
        if (html) {
            push(false, line);
            if (html === 'blank' ? body.trim() === '' : html.test(body))
                html = null;
            continue;
        }
        const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(body);
        if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
            fence = { char: open[1][0], len: open[1].length };
            push(true, line);
            continue;
        }
        const end = htmlBlockEnd(body);
        push(false, line);
        if (end && (end === 'blank' || !end.test(body.replace(/^ {0,3}<[^\s>]*/, ''))))
            html = end;
    }
    return out;
}
/** CommonMark's HTML blocks: how the one this line starts ends (none when it starts none). */
function htmlBlockEnd(line) {
    if (/^ {0,3}<(?:script|pre|style|textarea)(?:\s|>|$)/i.test(line))
        return /<\/(?:script|pre|style|textarea)>/i;
    if (/^ {0,3}<!--/.test(line))
        return /-->/;
    if (/^ {0,3}<\?/.test(line))
        return /\?>/;
    if (/^ {0,3}<!\[CDATA\[/.test(line))
        return /\]\]>/;
    if (/^ {0,3}<![A-Za-z]/.test(line))
        return />/;
    if (/^ {0,3}<\/?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)/.test(line))
        return 'blank';
    return null;
}
/** Markdown and HTML outside code: what renders invisibly goes, the visible text stays. */
function cleanProse(text) {
    let out = text.replace(IMG_TAG, '[image]');
    out = replaceImages(out);
    // Link reference definitions never render, title and label included; footnotes ([^1]: …) do.
    out = out.replace(/^ {0,3}\[(?!\^)(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*\S+(?:[ \t]*\n?[ \t]*(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$\n?/gm, '');
    // A link's title shows only as a tooltip.
    out = out.replace(/\]\([ \t]*(<[^>\n]{0,2000}>|[^\s)]{0,2000})[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\))[ \t]*\)/g, ']($1)');
    // Attribute values (title, alt, aria-label, data-*, anything) show nowhere; the tags themselves may stay.
    out = out.replace(ANY_TAG, (_, close, tag, _attrs, self) => `<${close}${tag}${self ? ' /' : ''}>`);
    return decodeEntities(out);
}
/**
 * `![alt](url)`, `![alt][ref]` and `![alt]` become `[image]`: alt text is what a
 * reader does not see. Brackets nest, so the alt text is matched by counting.
 */
function replaceImages(text) {
    let out = '';
    let i = 0;
    for (;;) {
        const at = text.indexOf('![', i);
        if (at < 0)
            return out + text.slice(i);
        const close = matching(text, at + 1, '[', ']');
        if (close < 0)
            return out + text.slice(i);
        let end = close + 1;
        const target = text[end] === '(' ? matching(text, end, '(', ')') : text[end] === '[' ? matching(text, end, '[', ']') : -1;
        if (target > 0)
            end = target + 1;
        out += `${text.slice(i, at)}[image]`;
        i = end;
    }
}
/** Index of the bracket closing the one at `open`, skipping escapes; -1 if none. */
function matching(text, open, left, right) {
    let depth = 0;
    for (let i = open; i < text.length; i++) {
        const c = text[i];
        if (c === '\\')
            i++;
        else if (c === left)
            depth++;
        else if (c === right && --depth === 0)
            return i;
    }
    return -1;
}
/**
 * Numeric entities render as the character they name, so they are decoded and what
 * is invisible removed. `<`, `>` and `&` stay escaped: decoded, `&#60;!-- x --&#62;`
 * would become markup the reader saw as plain text.
 */
function decodeEntities(text) {
    const decode = (code) => {
        if (code === 60)
            return '&lt;';
        if (code === 62)
            return '&gt;';
        if (code === 38)
            return '&amp;';
        if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
            return '\uFFFD';
        return String.fromCodePoint(code);
    };
    const decoded = text
        .replace(/&#[xX]([0-9a-fA-F]{1,8});/g, (_, hex) => decode(Number.parseInt(hex, 16)))
        .replace(/&#(\d{1,9});/g, (_, dec) => decode(Number.parseInt(dec, 10)))
        .replace(INVISIBLE_NAMED_ENTITY, '')
        .replace(/&nbsp;/g, ' ');
    return stripInvisible(decoded.replace(LINE_SEPARATORS, '\n'));
}


/***/ })

};
