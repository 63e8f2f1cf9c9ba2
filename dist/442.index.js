export const id = 442;
export const ids = [442];
export const modules = {

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
