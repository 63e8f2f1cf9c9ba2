export const id = 84;
export const ids = [84];
export const modules = {

/***/ 41084:
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
// EXTERNAL MODULE: ./src/steps/own-code.ts
var own_code = __webpack_require__(8101);
// EXTERNAL MODULE: ./src/steps/commands/common.ts
var common = __webpack_require__(83405);
;// CONCATENATED MODULE: ./src/steps/commands/index.ts




// Each handler's module, imported when its command comes (see HANDLERS).
const approval = () => (0,own_code/* ownCode */.m)('the approve and revise commands', Promise.all(/* import() */[__webpack_require__.e(179), __webpack_require__.e(882), __webpack_require__.e(921), __webpack_require__.e(709), __webpack_require__.e(21), __webpack_require__.e(691), __webpack_require__.e(451), __webpack_require__.e(384), __webpack_require__.e(475), __webpack_require__.e(571), __webpack_require__.e(90), __webpack_require__.e(459), __webpack_require__.e(927)]).then(__webpack_require__.bind(__webpack_require__, 37927)));
const answer = () => (0,own_code/* ownCode */.m)('the answer command', Promise.all(/* import() */[__webpack_require__.e(179), __webpack_require__.e(882), __webpack_require__.e(921), __webpack_require__.e(709), __webpack_require__.e(21), __webpack_require__.e(691), __webpack_require__.e(451), __webpack_require__.e(384), __webpack_require__.e(475), __webpack_require__.e(571), __webpack_require__.e(90), __webpack_require__.e(459), __webpack_require__.e(654)]).then(__webpack_require__.bind(__webpack_require__, 86654)));
const decisions = () => (0,own_code/* ownCode */.m)('the accept and retry commands', Promise.all(/* import() */[__webpack_require__.e(179), __webpack_require__.e(882), __webpack_require__.e(921), __webpack_require__.e(709), __webpack_require__.e(21), __webpack_require__.e(691), __webpack_require__.e(451), __webpack_require__.e(384), __webpack_require__.e(475), __webpack_require__.e(571), __webpack_require__.e(90), __webpack_require__.e(459), __webpack_require__.e(249)]).then(__webpack_require__.bind(__webpack_require__, 78249)));
const abort = () => (0,own_code/* ownCode */.m)('the abort command', Promise.all(/* import() */[__webpack_require__.e(179), __webpack_require__.e(882), __webpack_require__.e(921), __webpack_require__.e(709), __webpack_require__.e(691), __webpack_require__.e(451), __webpack_require__.e(424)]).then(__webpack_require__.bind(__webpack_require__, 6424)));
const resume = () => (0,own_code/* ownCode */.m)('the resume command', Promise.all(/* import() */[__webpack_require__.e(179), __webpack_require__.e(882), __webpack_require__.e(921), __webpack_require__.e(709), __webpack_require__.e(21), __webpack_require__.e(691), __webpack_require__.e(451), __webpack_require__.e(384), __webpack_require__.e(475), __webpack_require__.e(571), __webpack_require__.e(90), __webpack_require__.e(459)]).then(__webpack_require__.bind(__webpack_require__, 78459)));
const cont = () => (0,own_code/* ownCode */.m)('the continue command', Promise.all(/* import() */[__webpack_require__.e(179), __webpack_require__.e(882), __webpack_require__.e(921), __webpack_require__.e(709), __webpack_require__.e(21), __webpack_require__.e(691), __webpack_require__.e(451), __webpack_require__.e(384), __webpack_require__.e(475), __webpack_require__.e(571), __webpack_require__.e(90), __webpack_require__.e(53)]).then(__webpack_require__.bind(__webpack_require__, 35053)));
const info = () => (0,own_code/* ownCode */.m)('the status, retro, remember and help commands', Promise.all(/* import() */[__webpack_require__.e(179), __webpack_require__.e(882), __webpack_require__.e(709), __webpack_require__.e(21), __webpack_require__.e(451), __webpack_require__.e(384), __webpack_require__.e(571), __webpack_require__.e(364)]).then(__webpack_require__.bind(__webpack_require__, 41364)));
const doctor = () => (0,own_code/* ownCode */.m)('the doctor command', Promise.all(/* import() */[__webpack_require__.e(179), __webpack_require__.e(441), __webpack_require__.e(974)]).then(__webpack_require__.bind(__webpack_require__, 10974)));
/**
 * Each command's handler, by kind. The type makes every kind in the registry
 * (domain/commands.ts) have one, so a command cannot be parsed and then go unanswered.
 * A route job answers one command, so each handler's module is imported when its command comes
 * (ncc writes each to a chunk): `/crew run` does not load what `/crew accept` reaches (the merge,
 * integration, the retrospective), nor a refusal any of it. `run` and `plan`, the common start, stay.
 */
const HANDLERS = {
    run: async (ctx, ev, c) => void (await (0,start/* startRun */.AD)(ctx, { ...(0,start/* commentRequest */.bu)(ctx, ev), ...(c.attempts !== undefined ? { attempts: c.attempts } : {}) }, 'run')),
    plan: async (ctx, ev, c) => void (await (0,start/* startRun */.AD)(ctx, { ...(0,start/* commentRequest */.bu)(ctx, ev), ...(c.attempts !== undefined ? { attempts: c.attempts } : {}) }, 'plan')),
    // On crew's own pull request route.ts starts the follow-up; anywhere else there is no branch of crew's to fix.
    fix: async (ctx, ev) => {
        await ctx.forge.postComment(ev.issue.number, `\`/crew fix\` works on a pull request crew opened: comment it there (or submit a review starting with \`/crew\`), and crew follows up on the same branch. On an issue, ${ctx.surface.command('run')} starts a new run.`);
    },
    approve: async (ctx, ev) => (await approval()).approve(ctx, ev),
    revise: async (ctx, ev, c) => (await approval()).revise(ctx, ev, (0,sanitize/* sanitize */.a)(c.feedback, common/* REPLY_CHARS */.xu)),
    answer: async (ctx, ev, c) => {
        const text = (0,sanitize/* sanitize */.a)(c.text, common/* REPLY_CHARS */.xu);
        if (!text) {
            await ctx.forge.postComment(ev.issue.number, `Write the answer after the command: ${ctx.surface.command('answer', '<text>')}.`);
            return;
        }
        return (await answer()).answer(ctx, ev, text, { quiet: false });
    },
    accept: async (ctx, ev) => (await decisions()).accept(ctx, ev),
    retry: async (ctx, ev, c) => (await decisions()).retry(ctx, ev, c.task),
    abort: async (ctx, ev) => (await abort()).abort(ctx, ev),
    resume: async (ctx, ev) => (await resume()).resume(ctx, ev),
    continue: async (ctx, ev, c) => (await cont()).continueRun(ctx, ev, c.amountUsd),
    status: async (ctx, ev) => (await info()).status(ctx, ev),
    retro: async (ctx, ev) => (await info()).retro(ctx, ev),
    remember: async (ctx, ev, c) => (await info()).rememberCandidate(ctx, ev, c.n),
    help: async (ctx, ev) => (await info()).help(ctx, ev),
    doctor: async (ctx, ev) => (await doctor()).doctor(ctx, ev),
    unknown: async (ctx, ev, c) => (await info()).help(ctx, ev, c.word),
};
/** Runs the handler of a parsed command. */
function handle(ctx, ev, command) {
    return HANDLERS[command.kind](ctx, ev, command);
}

// EXTERNAL MODULE: ./src/steps/commands/permission.ts + 2 modules
var permission = __webpack_require__(4419);
// EXTERNAL MODULE: ./src/domain/refs.ts
var refs = __webpack_require__(92);
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
            return (await (0,own_code/* ownCode */.m)('the CI run check', Promise.all(/* import() */[__webpack_require__.e(179), __webpack_require__.e(882), __webpack_require__.e(921), __webpack_require__.e(691)]).then(__webpack_require__.bind(__webpack_require__, 99691)))).routeCiRun(ctx, ctx.event, ctx.event.ci);
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
        return (await (0,own_code/* ownCode */.m)('the answer to a question', Promise.all(/* import() */[__webpack_require__.e(179), __webpack_require__.e(882), __webpack_require__.e(921), __webpack_require__.e(709), __webpack_require__.e(21), __webpack_require__.e(691), __webpack_require__.e(451), __webpack_require__.e(384), __webpack_require__.e(475), __webpack_require__.e(571), __webpack_require__.e(90), __webpack_require__.e(459), __webpack_require__.e(654)]).then(__webpack_require__.bind(__webpack_require__, 86654)))).answer(ctx, ev, (0,sanitize/* sanitize */.a)((0,markdown/* withoutQuotes */.Yg)(ev.comment.body), common/* REPLY_CHARS */.xu), {
            quiet: true,
        });
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
    const { startFollowUp } = await (0,own_code/* ownCode */.m)('the follow-up', __webpack_require__.e(/* import() */ 442).then(__webpack_require__.bind(__webpack_require__, 25442)));
    await startFollowUp(ctx, {
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
    const { startFollowUp } = await (0,own_code/* ownCode */.m)('the follow-up', __webpack_require__.e(/* import() */ 442).then(__webpack_require__.bind(__webpack_require__, 25442)));
    await startFollowUp(ctx, {
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
