export const id = 179;
export const ids = [179];
export const modules = {

/***/ 94420:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   F: () => (/* binding */ strayBranchLines),
/* harmony export */   m: () => (/* binding */ cleanupComment)
/* harmony export */ });
/* harmony import */ var _domain_surface__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(45759);
/* harmony import */ var _text_markdown__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(86590);


/**
 * Cleaning up after runs, in words: the one comment about a run whose branches crew kept or could not
 * delete, and the list of `crew/` branches that belong to no open run (`/crew status`, and `crew
 * doctor` later). Names from commits and branches are someone else's text: shown as code, they
 * mention nobody and format nothing. Pure.
 */
const list = (items) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
const short = (sha) => sha.slice(0, 7);
/** The comment on the issue when crew kept some of a run's branches or GitHub refused to delete them; undefined when there is nothing to say. */
function cleanupComment(issue, run, c, s = _domain_surface__WEBPACK_IMPORTED_MODULE_0__/* .GITHUB */ .U0) {
    if (!c.kept.length && !c.refused)
        return undefined;
    const lines = [s.bold(`Branches of run ${s.runNumber(issue, run)}`), ''];
    if (c.deleted.length)
        lines.push(`The run has ended, so crew deleted ${list(c.deleted.map(_text_markdown__WEBPACK_IMPORTED_MODULE_1__/* .codeSpan */ .SS))}.`, '');
    for (const k of c.kept) {
        const who = k.people.length
            ? `${list(k.people.map(_text_markdown__WEBPACK_IMPORTED_MODULE_1__/* .codeSpan */ .SS))} committed to it`
            : k.shas.length
                ? 'someone pushed to it while crew was deleting it'
                : 'crew could not check every commit on it';
        const commits = k.shas.length ? ` (${list(k.shas.map((sha) => (0,_text_markdown__WEBPACK_IMPORTED_MODULE_1__/* .codeSpan */ .SS)(short(sha))))})` : '';
        lines.push(`- ${(0,_text_markdown__WEBPACK_IMPORTED_MODULE_1__/* .codeSpan */ .SS)(k.branch)} is kept: ${who}${commits}, and crew never deletes a branch with someone else's work on it. Delete it yourself when you no longer need it.`);
    }
    if (c.refused) {
        lines.push(...(c.kept.length ? [''] : []), `GitHub refused to delete ${list(c.refused.branches.map(_text_markdown__WEBPACK_IMPORTED_MODULE_1__/* .codeSpan */ .SS))}: ${c.refused.reason}. Nothing else about the run changed. To let crew delete its branches once a run has ended, exclude \`crew/**\` from that rule or let the token crew uses bypass it (or give crew's jobs \`contents: write\`, as the README's workflow does). crew does not try again for this run: delete ${c.refused.branches.length === 1 ? 'it' : 'them'} yourself.`);
    }
    return lines.join('\n').trimEnd();
}
function strayWhy(b) {
    const w = b.why;
    if (w.kind === 'not-crews')
        return 'not a name crew gives its branches';
    if (w.kind === 'no-run')
        return `run ${w.run} of #${w.issue} is no longer on crew/state`;
    const how = { 'merged-by-crew': 'merged by crew', merged: 'merged', closed: 'closed', aborted: 'aborted', failed: 'failed' }[w.end.how];
    return `run ${w.run} of #${w.issue} ended (${how}) and crew left this branch`;
}
/** The `crew/` branches that belong to no open run, one line each (the first `max`), or nothing when there are none. */
function strayBranchLines(strays, max = 30, s = _domain_surface__WEBPACK_IMPORTED_MODULE_0__/* .GITHUB */ .U0) {
    if (!strays.length)
        return [];
    const lines = [
        `${s.bold(`${strays.length} ${strays.length === 1 ? 'branch' : 'branches'} under \`crew/\` belong${strays.length === 1 ? 's' : ''} to no open run`)} (crew deletes only the branches of its own runs, and never one with someone else's work on it):`,
        '',
    ];
    for (const b of strays.slice(0, max))
        lines.push(`- ${(0,_text_markdown__WEBPACK_IMPORTED_MODULE_1__/* .codeSpan */ .SS)(b.branch)} at ${(0,_text_markdown__WEBPACK_IMPORTED_MODULE_1__/* .codeSpan */ .SS)(short(b.sha))}: ${strayWhy(b)}.`);
    if (strays.length > max)
        lines.push(`- … and ${strays.length - max} more.`);
    return lines;
}


/***/ }),

/***/ 42179:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   cleanup: () => (/* binding */ cleanup),
/* harmony export */   cleanupAtMerge: () => (/* binding */ cleanupAtMerge),
/* harmony export */   findStrayBranches: () => (/* binding */ findStrayBranches),
/* harmony export */   retentionOf: () => (/* binding */ retentionOf),
/* harmony export */   saidCleanedUpAtMerge: () => (/* binding */ saidCleanedUpAtMerge),
/* harmony export */   tidyUp: () => (/* binding */ tidyUp)
/* harmony export */ });
/* harmony import */ var _domain_retention__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(54282);
/* harmony import */ var _domain_refs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(92);
/* harmony import */ var _ports__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(16467);
/* harmony import */ var _render_cleanup__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(94420);
/* harmony import */ var _state_run_digests__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(48360);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(24742);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(33732);







/**
 * crew cleans up after its runs in jobs it runs anyway: at the end of a run (finish, or a run that
 * failed or was aborted), after the merge job merged, and in the `cleanup` job when crew's pull
 * request closes. Each of those calls tidyUp, which deletes the branches of runs that have ended for
 * good (domain/retention.ts decides which, and when), then prunes old runs' folders from crew/state.
 * Nothing here changes a run's outcome: a failure is logged, and a later job tries again.
 */
/** Runs whose branches one job deals with, at most: a sweep must fit in the shortest job (merge: 10 minutes). */
const RUNS_PER_JOB = 10;
/** The files the sweep reads of every run: its record, plan and tasks (may a job still work on it?), or the digest of a pruned one. */
const SWEPT = /^issue-\d+\/run-\d+\/(run\.json|plan\.json|tasks\/task_t\d+\.json|digest\.json)$/;
function retentionOf(config) {
    const c = config.cleanup;
    return { deleteBranches: c.delete_branches, unfinishedDays: c.unfinished_days, keepRuns: c.keep_runs, keepDays: c.keep_days };
}
/**
 * The `cleanup` job: crew's pull request was closed, merged by a person or not merged. GitHub is
 * asked whether it is closed now (a re-run of an old job must not act on a pull request reopened
 * since); every run with that pull request records it; then the sweep deletes what may go.
 */
async function cleanup(ctx) {
    const ev = ctx.event;
    if (ev.kind !== 'pull' || ev.source !== 'pull_request_target' || ev.action !== 'closed')
        return ctx.log.info('the cleanup step runs when a pull request of crew closes (pull_request_target, closed)');
    const ours = ev.pulls.flatMap((p) => {
        const own = (0,_domain_refs__WEBPACK_IMPORTED_MODULE_1__/* .runOfIntegrationBranch */ .$o)(p.headRef);
        return own ? [{ ...p, issue: own.issue }] : [];
    });
    if (!ours.length)
        return ctx.log.info(`no pull request of crew's in this ${ev.source} event`);
    for (const p of ours) {
        const { issue } = p;
        const pull = await ctx.forge.getPull(p.number);
        if (pull.state !== 'closed') {
            ctx.log.info(`#${p.number} is open again; nothing to clean up`);
            continue;
        }
        const snap = await ctx.state.load(_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .paths */ .f0.issue(issue));
        const at = (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx);
        const sender = ev.sender ?? '';
        for (const k of (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .runNumbers */ .Sm)(snap, issue)) {
            const rec = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .readRun */ .cI)(snap, issue, k);
            if (rec?.pr?.number !== p.number || rec.prClosed || rec.merge?.state === 'merged')
                continue;
            await (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .updateRun */ .PF)(ctx, issue, k, `pull request #${p.number} ${pull.merged ? 'merged' : 'closed'}`, (r, tx) => {
                if (!r.prClosed && r.merge?.state !== 'merged')
                    (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .writeRun */ .bp)(tx, { ...r, prClosed: { merged: pull.merged, at, by: sender } }, at);
            });
        }
        await tidyUp(ctx, issue);
    }
}
/**
 * Deletes the branches of runs that have ended for good and prunes finished runs' folders from
 * crew/state, as `.github/crew.yml`'s `cleanup` keys say. `issue`, when given, is dealt with first.
 * GitHub only (ctx.crewBranches); never throws.
 */
async function tidyUp(ctx, issue) {
    if (!ctx.crewBranches)
        return;
    try {
        const retention = retentionOf(await ctx.config());
        const now = ctx.clock.now();
        // What this job last saw will do (it has just written, or read, the state): a run that ended a moment
        // ago is a later job's to tidy, and every write below is a compare-and-swap that reads again (#31 §4).
        let swept = sweptRuns(await ctx.state.loadRuns((p) => SWEPT.test(p), _context__WEBPACK_IMPORTED_MODULE_6__/* .SEEN */ .GL), retention, now, ctx.log);
        // crew's branches are listed only when a run that ended has branches crew has not dealt with yet:
        // without one, neither the deletions nor the pruning (branchesSettled) asks which branches exist.
        // Only those runs' folders are listed: no other run's branches count for either.
        const unsettled = retention.deleteBranches
            ? swept.filter((r) => r.end && r.view.run.cleanup === null).map((r) => (0,_domain_refs__WEBPACK_IMPORTED_MODULE_1__/* .runBranchFolder */ ._$)(r.view.run.issue, r.view.run.run))
            : [];
        const branches = unsettled.length ? branchesByRun(await ctx.crewBranches.list(unsettled)) : new Map();
        // What the deletions recorded counts for the pruning: read again only when there were some.
        if (retention.deleteBranches && (await deleteEndedRunsBranches(ctx, swept, branches, issue)))
            swept = sweptRuns(await ctx.state.loadRuns((p) => SWEPT.test(p), _context__WEBPACK_IMPORTED_MODULE_6__/* .SEEN */ .GL), retention, now, ctx.log);
        await pruneFinishedRuns(ctx, swept, branches, retention, now);
    }
    catch (e) {
        ctx.log.warn(`crew could not clean up after ended runs this time (${e instanceof Error ? e.message : String(e)}); a later job tries again`);
    }
}
/** crew's branches on GitHub by the run they belong to (`N/k`); other names are left out. */
function branchesByRun(tips) {
    const byRun = new Map();
    for (const tip of tips) {
        const owner = (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .branchOwner */ .g5)(tip.branch);
        if (owner)
            byRun.set(`${owner.issue}/${owner.run}`, [...(byRun.get(`${owner.issue}/${owner.run}`) ?? []), tip]);
    }
    return byRun;
}
const keyOf = (rec) => `${rec.issue}/${rec.run}`;
/** Every run on crew/state with its view, and whether its cleanup is due now; pruned runs and damaged ones are left out. */
function sweptRuns(snap, retention, now, log) {
    const views = [];
    for (const { issue, run } of runFolders(snap)) {
        try {
            const view = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .readView */ .Ml)(snap, issue, run);
            if (view)
                views.push(view);
        }
        catch (e) {
            log.warn(`cleanup leaves run ${run} of issue #${issue} alone: ${e.message}`);
        }
    }
    return views.map((view) => {
        const samePull = view.run.pr
            ? views.filter((v) => v !== view && v.run.issue === view.run.issue && v.run.pr?.number === view.run.pr.number).map((v) => v.run)
            : [];
        const due = (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .cleanupDue */ .dN)(view.run, view.tasks.values(), now, retention, samePull);
        return { view, end: due.due ? due.end : undefined };
    });
}
function runFolders(snap) {
    const seen = new Map();
    for (const p of snap.list('issue-')) {
        const m = /^issue-(\d+)\/run-(\d+)\//.exec(p);
        if (m)
            seen.set(`${m[1]}/${m[2]}`, { issue: Number(m[1]), run: Number(m[2]) });
    }
    return [...seen.values()];
}
/**
 * Deals with the branches of the runs whose cleanup is due and that have branches left (the most
 * RUNS_PER_JOB, the issue this job is about first, then those that ended longest ago); returns how many.
 */
async function deleteEndedRunsBranches(ctx, swept, branches, first) {
    const due = swept.filter((r) => r.end && !r.view.run.cleanup && branches.has(keyOf(r.view.run)));
    if (!due.length)
        return 0;
    due.sort((a, b) => Number(b.view.run.issue === first) - Number(a.view.run.issue === first) || a.end.at.localeCompare(b.end.at));
    const now = due.slice(0, RUNS_PER_JOB);
    for (const r of now) {
        // One run that cannot be dealt with now must not hold up the others behind it.
        await cleanUpRun(ctx, r.view.run, r.end, branches.get(keyOf(r.view.run))).catch((e) => ctx.log.warn(`crew could not clean up after run ${r.view.run.run} of #${r.view.run.issue} (${e instanceof Error ? e.message : String(e)}); a later job tries again`));
    }
    if (due.length > now.length)
        ctx.log.info(`${due.length - now.length} more ended runs' branches are left for crew's next jobs`);
    return now.length;
}
/**
 * One run's branches: each that goes (retention.branchGoes) and holds only crew's commits beyond the
 * branch the run goes into is deleted, leased to the commit listed; the rest stay. What happened is
 * recorded on the run once, and said on the issue once when a branch stayed or GitHub refused.
 */
async function cleanUpRun(ctx, rec, end, tips) {
    const { issue, run } = rec;
    const { kept, candidates } = await sortBranches(ctx, rec, end, tips);
    let from = 0;
    const write = (record, options) => (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .updateRun */ .PF)(ctx, issue, run, `branches cleaned up (${end.how})`, (r, tx) => {
        if (r.cleanup)
            return false;
        from = r.version;
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .writeRun */ .bp)(tx, { ...r, cleanup: record }, record.at);
        return true;
    }, options);
    // The deletions and their record in one push (#31 §4). Anything GitHub refuses in it takes the way
    // below, which deletes branch by branch and tells each outcome apart.
    const together = async () => {
        if (!candidates.length || !ctx.state.deletesBranches)
            return undefined;
        const record = { at: (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx), deleted: candidates.map((c) => c.branch).sort(), kept, refused: null };
        ctx.log.checkpoint('branches-cleaned');
        try {
            return { record, mine: await write(record, { deleting: candidates }) };
        }
        catch (e) {
            if (!(e instanceof _ports__WEBPACK_IMPORTED_MODULE_2__/* .DeletionsRefused */ .QN))
                throw e;
            ctx.log.info(`${e.message}; deleting them one by one`);
            return undefined;
        }
    };
    const oneByOne = async () => {
        const deleted = [];
        const refusedBranches = [];
        let reason = '';
        for (const d of await ctx.crewBranches.delete(candidates)) {
            if (d.outcome === 'deleted' || d.outcome === 'gone')
                deleted.push(d.branch);
            else if (d.outcome === 'moved')
                kept.push({ branch: d.branch, people: [], shas: [d.sha] });
            else {
                refusedBranches.push(d.branch);
                reason = d.reason;
            }
        }
        const refused = refusedBranches.length ? { branches: refusedBranches, reason } : null;
        const record = { at: (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx), deleted: deleted.sort(), kept, refused };
        ctx.log.checkpoint('branches-cleaned');
        return { record, mine: await write(record) };
    };
    const { record, mine } = (await together()) ?? (await oneByOne());
    await sayCleanedUp(ctx, rec, end, record, mine);
    // The plan comment does not show what became of the branches.
    if (mine)
        ctx.planComment.wroteUnshown(issue, run, from);
}
/**
 * Which of an ended run's branches go (retention.branchGoes, and only crew's commits beyond the branch
 * the run went into) and which stay, with whose commits. GitHub compares each at once.
 */
async function sortBranches(ctx, rec, end, tips) {
    const going = tips.filter((t) => (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .branchGoes */ .Z9)((0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .branchOwner */ .g5)(t.branch).kind, end));
    const compared = await Promise.all(going.map(async (tip) => 
    // The branch the run went into; if it is gone (a person's branch, merged and deleted), the default branch.
    (await ctx.crewBranches.commitsBeyond(rec.base.branch, tip.sha)) ??
        (await ctx.crewBranches.commitsBeyond(await ctx.forge.defaultBranch(), tip.sha)) ?? { commits: [], complete: false }));
    const kept = [];
    const candidates = [];
    going.forEach((tip, i) => {
        const { commits, complete } = compared[i];
        const others = (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .othersCommits */ .I$)(commits);
        if (others.shas.length || !complete)
            kept.push({ branch: tip.branch, people: others.people, shas: others.shas.slice(0, 5) });
        else
            candidates.push(tip);
    });
    return { kept, candidates };
}
/** The job's log line about a run's cleanup, and the issue's comment when a branch stayed or GitHub refused (once: `mine`). */
async function sayCleanedUp(ctx, rec, end, record, mine) {
    const { issue, run } = rec;
    ctx.log.info(`run ${run} of #${issue} (${end.how}): deleted ${record.deleted.length ? record.deleted.join(', ') : 'nothing'}${record.kept.length ? `; kept ${record.kept.map((k) => k.branch).join(', ')}` : ''}${record.refused ? `; GitHub refused ${record.refused.branches.join(', ')}: ${record.refused.reason}` : ''}`);
    const said = (0,_render_cleanup__WEBPACK_IMPORTED_MODULE_3__/* .cleanupComment */ .m)(issue, run, record, ctx.surface);
    if (mine && said)
        await ctx.forge.postComment(issue, said);
}
/**
 * The cleanup of the run crew has just merged, for the write that records the merge to carry, its
 * deletions in the same push (#31 §4): one write instead of two, and no listing of its own. The
 * branches are those the job's first read of the issue listed (before the merge): GitHub's
 * "Automatically delete head branches" takes the pull request's own with the merge, so that one is
 * left to GitHub; every other deletion is leased to the commit listed, and a lease that fails (a
 * branch someone pushed to or deleted since) refuses the whole push (DeletionsRefused), after which
 * the merge is recorded alone and tidyUp deals with the branches its own way. Undefined when the run
 * has nothing to clean up now, or crew cannot tell without asking.
 */
async function cleanupAtMerge(ctx, view, merged, headRef) {
    if (!ctx.crewBranches || !ctx.state.deletesBranches)
        return undefined;
    try {
        const retention = retentionOf(await ctx.config());
        if (!retention.deleteBranches)
            return undefined;
        const { issue, run } = view.run;
        const rec = { ...view.run, merge: merged };
        const snap = await ctx.state.load(_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .paths */ .f0.issue(issue), _context__WEBPACK_IMPORTED_MODULE_6__/* .SEEN */ .GL);
        const samePull = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .runNumbers */ .Sm)(snap, issue)
            .filter((k) => k !== run)
            .map((k) => (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .readRun */ .cI)(snap, issue, k))
            .filter((r) => r?.pr?.number === rec.pr?.number);
        const due = (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .cleanupDue */ .dN)(rec, view.tasks.values(), ctx.clock.now(), retention, samePull);
        if (!due.due || rec.cleanup)
            return undefined;
        const listed = ctx.crewBranches.listed([(0,_domain_refs__WEBPACK_IMPORTED_MODULE_1__/* .runBranchFolder */ ._$)(issue, run)]);
        if (!listed)
            return undefined;
        const headGoes = (await ctx.forge.deletesHeadOnMerge?.()) ?? false;
        const tips = listed.filter((t) => (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .branchOwner */ .g5)(t.branch) && !(headGoes && t.branch === headRef));
        const { kept, candidates } = await sortBranches(ctx, rec, due.end, tips);
        ctx.log.checkpoint('branches-cleaned');
        return { record: { at: (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx), deleted: candidates.map((c) => c.branch).sort(), kept, refused: null }, deleting: candidates, end: due.end };
    }
    catch (e) {
        ctx.log.warn(`crew could not look at the branches of the run it merged (${e instanceof Error ? e.message : String(e)}); tidying up after the merge deals with them`);
        return undefined;
    }
}
/** Says what the merge's write did with the run's branches (cleanupAtMerge), as a cleanup of its own would. */
function saidCleanedUpAtMerge(ctx, rec, cleanup) {
    return sayCleanedUp(ctx, rec, cleanup.end, cleanup.record, true);
}
/** One write that replaces the folders the policy lets go by their digests (re-checked inside the write). */
async function pruneFinishedRuns(ctx, swept, branches, retention, now) {
    // crew is done with a run's branches once it recorded what it did with them, or when none are left.
    const settled = (rec) => !retention.deleteBranches || rec.cleanup !== null || !branches.has(keyOf(rec));
    const chosen = (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .runsToPrune */ .Yg)(swept.map((r) => ({ issue: r.view.run.issue, run: r.view.run.run, end: r.end, branchesSettled: settled(r.view.run) })), now, retention);
    if (!chosen.length)
        return;
    const at = (0,_context__WEBPACK_IMPORTED_MODULE_6__/* .nowIso */ .kF)(ctx);
    const pruned = await ctx.state.update('', `prune ${chosen.length} finished run${chosen.length === 1 ? '' : 's'} (their digests stay)`, (tx) => {
        const done = [];
        for (const { issue, run } of chosen) {
            const again = stillPrunable(tx, issue, run, retention, now, settled);
            if (!again)
                continue;
            (0,_state_run_digests__WEBPACK_IMPORTED_MODULE_4__/* .pruneRunFolder */ .s)(tx, again.view, again.end, at);
            done.push(`#${issue} run ${run}`);
        }
        return done;
    });
    if (pruned.value.length)
        ctx.log.info(`pruned from crew/state: ${pruned.value.join(', ')}`);
}
/** The run as this write reads it, if it is still one the policy lets go (another job may have moved it on). */
function stillPrunable(tx, issue, run, retention, now, settled) {
    try {
        const view = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .readView */ .Ml)(tx, issue, run);
        if (!view || !settled(view.run))
            return undefined;
        const samePull = view.run.pr
            ? (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .runNumbers */ .Sm)(tx, issue)
                .filter((k) => k !== run)
                .map((k) => (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .readRun */ .cI)(tx, issue, k))
                .filter((r) => r?.pr?.number === view.run.pr.number)
            : [];
        const due = (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .cleanupDue */ .dN)(view.run, view.tasks.values(), now, retention, samePull);
        return due.due ? { view, end: due.end } : undefined;
    }
    catch {
        return undefined;
    }
}
/**
 * The `crew/` branches that belong to no open run (domain/retention.ts, strayBranches): what `/crew
 * status` lists, and what `crew doctor` will. Undefined where crew has no view of GitHub's branches
 * (local mode). A damaged run record counts as an open run: its branches are not called stray.
 */
async function findStrayBranches(ctx) {
    if (!ctx.crewBranches)
        return undefined;
    const snap = await ctx.state.loadRuns((p) => /^issue-\d+\/run-\d+\/(run|digest)\.json$/.test(p));
    const runs = new Map();
    for (const { issue, run } of runFolders(snap)) {
        try {
            const rec = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_5__/* .readRun */ .cI)(snap, issue, run);
            runs.set(`${issue}/${run}`, rec ?? 'pruned');
        }
        catch {
            continue;
        }
    }
    const damaged = new Set(runFolders(snap)
        .map(({ issue, run }) => `${issue}/${run}`)
        .filter((key) => !runs.has(key)));
    return (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .strayBranches */ .Cb)(await ctx.crewBranches.list(), runs).filter((b) => {
        const owner = (0,_domain_retention__WEBPACK_IMPORTED_MODULE_0__/* .branchOwner */ .g5)(b.branch);
        return !owner || !damaged.has(`${owner.issue}/${owner.run}`);
    });
}


/***/ })

};
