export const id = 979;
export const ids = [979,360];
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


/***/ })

};
