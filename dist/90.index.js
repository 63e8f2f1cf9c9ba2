export const id = 90;
export const ids = [90];
export const modules = {

/***/ 8090:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  advance: () => (/* binding */ advance),
  replanFailedHalf: () => (/* binding */ replanFailedHalf)
});

// EXTERNAL MODULE: ./src/domain/attempts.ts
var attempts = __webpack_require__(26296);
// EXTERNAL MODULE: ./src/domain/leader-policy.ts
var leader_policy = __webpack_require__(55394);
// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/render/messages.ts
var messages = __webpack_require__(93050);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/domain/surface.ts
var surface = __webpack_require__(45759);
// EXTERNAL MODULE: ./src/state/transitions.ts
var transitions = __webpack_require__(82649);
// EXTERNAL MODULE: ./src/text/markdown.ts
var markdown = __webpack_require__(86590);
// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/steps/leader.ts
var leader = __webpack_require__(52814);
// EXTERNAL MODULE: ./src/steps/finish.ts + 1 modules
var finish = __webpack_require__(76347);
// EXTERNAL MODULE: ./src/steps/task-results.ts
var task_results = __webpack_require__(20741);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 4 modules
var schemas = __webpack_require__(41514);
;// CONCATENATED MODULE: ./src/domain/conflicts.ts
/**
 * Merge conflicts as data: the hunks git left between its markers, so a resolver (or a
 * person) sees both sides with their line numbers. Pure.
 */

const START = /^<{7}(?: |$)/;
const BASE = /^\|{7}(?: |$)/;
const MIDDLE = /^={7}$/;
const END = /^>{7}(?: |$)/;
function conflictHunks(file, text) {
    const hunks = [];
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
        if (!START.test(lines[i]))
            continue;
        const ours = [];
        const theirs = [];
        let side = 'ours';
        let j = i + 1;
        for (; j < lines.length && !END.test(lines[j]); j++) {
            const l = lines[j];
            if (BASE.test(l))
                side = 'base';
            else if (MIDDLE.test(l))
                side = 'theirs';
            else if (side === 'ours')
                ours.push(l);
            else if (side === 'theirs')
                theirs.push(l);
        }
        hunks.push({ file, line: i + 1, ours: ours.join('\n'), theirs: theirs.join('\n') });
        i = j;
    }
    return hunks;
}
/** True while any conflict marker line is left in the text. */
function hasConflictMarkers(text) {
    return text.split('\n').some((l) => START.test(l) || MIDDLE.test(l) || END.test(l));
}
/** The hunks as markdown for a comment or a prompt, each side fenced. */
function renderHunks(hunks, labels, maxChars = 20_000) {
    const out = [];
    for (const h of hunks) {
        out.push(`**${h.file}** line ${h.line}`, '', `${labels.ours}:`, (0,markdown/* fence */.EU)(h.ours.slice(0, 3000)), `${labels.theirs}:`, (0,markdown/* fence */.EU)(h.theirs.slice(0, 3000)), '');
    }
    const text = out.join('\n');
    return text.length > maxChars ? `${text.slice(0, maxChars)}\n\n… (more hunks left out)` : text;
}

// EXTERNAL MODULE: ./src/agents/command-tools.ts + 1 modules
var command_tools = __webpack_require__(34627);
// EXTERNAL MODULE: ./src/agents/path-jail.ts
var path_jail = __webpack_require__(22576);
// EXTERNAL MODULE: ./src/agents/submission.ts
var submission = __webpack_require__(22180);
// EXTERNAL MODULE: ./src/agents/tool-loop.ts + 3 modules
var tool_loop = __webpack_require__(34068);
// EXTERNAL MODULE: ./src/agents/workspace-tools.ts + 2 modules
var workspace_tools = __webpack_require__(82565);
;// CONCATENATED MODULE: ./src/agents/resolver.ts







const ResolutionSchema = schemas/* object */.Ikc({
    resolved: schemas/* boolean */.zMY(),
    explanation: schemas/* string */.YjP().trim().min(1).describe('How both intents were kept, or why they cannot both be kept.'),
});
const intent = (t) => `- ${t.id} "${t.title}": ${t.description}${t.summary ? `\n  Its worker reported: ${t.summary.split('\n')[0]}` : ''}`;
/** The resolver: file tools only (no commands), then submit_resolution. */
async function runResolver(model, input, log, trajectory) {
    const jail = new path_jail/* PathJail */.S(input.repoDir, input.protectedPaths);
    const written = new Set();
    let out;
    const tools = [
        ...(0,workspace_tools/* workspaceTools */.z)(jail, (p) => written.add(p)),
        (0,command_tools/* searchTool */.tD)(jail, input.maxOutputBytes),
        (0,submission/* answerTool */.h2)({
            name: 'submit_resolution',
            description: 'Say whether the conflicts are resolved with both intents kept. Call it once, at the end.',
            schema: ResolutionSchema,
        }, (resolution) => {
            out = resolution;
            return 'Recorded.';
        }),
    ];
    const firstMessage = [
        '## The side already on the integration branch (the first side of each hunk)',
        ...input.ours.map(intent),
        '',
        '## The task being merged (the second side)',
        intent(input.theirs),
        '',
        '## Conflicted hunks',
        renderHunks(input.hunks, { ours: 'integration branch', theirs: input.theirs.id }),
        `Resolve every hunk in ${[...new Set(input.hunks.map((h) => h.file))].join(', ')} so both intents hold, then call submit_resolution.`,
    ].join('\n');
    const outcome = await (0,tool_loop/* runToolLoop */.ko)({
        model,
        modelId: input.modelId,
        system: input.system,
        log,
        ...(trajectory ? { trajectory } : {}),
        tools,
        firstMessage,
        maxTurns: input.maxTurns,
        ...(input.maxOutputTokens ? { maxTokens: input.maxOutputTokens } : {}),
        nudge: 'When every conflicted file is written without markers, call submit_resolution.',
    });
    const result = out ?? { resolved: false, explanation: `the resolver did not submit a resolution (${outcome.stop} after ${outcome.turns} turns)` };
    return { ...result, usage: outcome.usage, turns: outcome.turns, written: [...written] };
}

// EXTERNAL MODULE: ./src/domain/plan.ts
var plan = __webpack_require__(52517);
// EXTERNAL MODULE: ./src/text/redact.ts
var redact = __webpack_require__(53326);
// EXTERNAL MODULE: ./src/steps/caps.ts
var caps = __webpack_require__(75498);
// EXTERNAL MODULE: ./src/domain/labels.ts
var labels = __webpack_require__(85745);
// EXTERNAL MODULE: ./src/steps/agent-instructions.ts + 1 modules
var agent_instructions = __webpack_require__(88098);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
// EXTERNAL MODULE: ./src/agents/run-budget.ts
var run_budget = __webpack_require__(2909);
// EXTERNAL MODULE: ./src/steps/budget-stop.ts
var budget_stop = __webpack_require__(8811);
;// CONCATENATED MODULE: ./src/steps/integration.ts


















/**
 * Merges the task branches into the integration branch in dependency order. A conflict
 * goes to the resolver agent with both tasks' intent; if it cannot keep both, the merge
 * is undone and the conflict is returned for a person. Nothing is dropped either way.
 */
async function integrate(ctx, view, claimed = true) {
    const { base } = view.run;
    const branch = (0,context/* integrationBranchOf */.c1)(ctx, view.run);
    const heads = doneInOrder(view);
    await ctx.remote.fetchCommit(base.sha);
    const { missing } = await ctx.remote.fetch([branch, ...heads.map((h) => h.branch)]);
    const lost = heads.filter((h) => missing.includes(h.branch));
    if (lost.length)
        throw new context/* CrewError */.uH('integration', `the branches of ${lost.map((h) => h.id).join(', ')} are missing from the repository.`, `${(0,surface/* sentence */.em)(ctx.surface.give('run'))} to start a fresh run.`, false);
    const existing = missing.includes(branch) ? undefined : await ctx.remote.head(branch);
    if (view.run.followUp && !existing)
        throw new context/* CrewError */.uH('integration', `the pull request's branch \`${branch}\` is gone, so the follow-up has nowhere to add its commits. Nothing was lost: every task branch is still there.`, `Restore the branch (or reopen the pull request), then ${ctx.surface.give('resume')}; or ${ctx.surface.give('run')} on the issue for a new pull request.`);
    if (existing) {
        await ctx.repo.checkoutNew(branch, ctx.remote.tracking(branch));
        const contained = await Promise.all(heads.map((h) => ctx.repo.isAncestor(h.headSha, existing)));
        if (contained.every(Boolean))
            return { headSha: existing, resolved: [] };
        // Replacing a branch that is there is a push of its own, which only the run's finalizer makes.
        if (!claimed)
            return { claimFirst: `${branch} is there already and lacks some of the tasks` };
    }
    // A follow-up adds merge commits on top of the pull request's head as it is now (hand-pushed commits
    // included), and pushes without force; any other run builds its integration afresh from its base.
    if (!view.run.followUp)
        await ctx.repo.checkoutNew(branch, base.sha);
    const merged = [];
    const resolved = [];
    for (const h of heads) {
        const m = await ctx.repo.mergeKeepingConflicts(ctx.remote.tracking(h.branch), `crew: integrate ${h.id}`);
        if (m.ok) {
            merged.push(h);
            continue;
        }
        if (!claimed) {
            await ctx.repo.abortMerge();
            return { claimFirst: `merging ${h.id} needs more than git` };
        }
        if (!m.conflicts.length)
            throw new context/* CrewError */.uH('integration', `git could not merge ${h.id} (${h.branch}) and reported no conflicting file. Nothing was lost: every task branch is still there.`, `Merge the task branches by hand, or ${ctx.surface.give('run')} to start a fresh run.`);
        const outcome = await resolveConflict(ctx, view, h, merged, m.conflicts);
        if ('conflict' in outcome || 'atBudget' in outcome) {
            await ctx.repo.abortMerge();
            return outcome;
        }
        await ctx.repo.commitMerge((0,redact/* redact */.E$)(`crew: integrate ${h.id}, resolving ${m.conflicts.join(', ')}\n\n${outcome.explanation}`));
        resolved.push(`${h.id} in ${m.conflicts.join(', ')}: ${outcome.explanation}`);
        merged.push(h);
    }
    const headSha = await ctx.repo.head();
    if (existing && !view.run.followUp)
        await ctx.remote.pushReplacing(branch, existing);
    // A new integration branch goes up in the same push as the write that hands it to the critic (#31 §4).
    else if (!existing && ctx.state.carriesBranches)
        return { headSha, resolved, carry: { branch, sha: headSha } };
    else
        await ctx.remote.push(branch);
    return { headSha, resolved };
}
const RESOLVER_MAX_TURNS = 30;
async function resolveConflict(ctx, view, task, merged, files) {
    const { issue, run } = view.run;
    const hunks = [];
    const unreadable = [];
    for (const f of files) {
        const text = await (0,promises_.readFile)((0,external_node_path_.join)(ctx.repo.dir, f), 'utf8').catch(() => undefined);
        const found = text === undefined ? [] : conflictHunks(f, text);
        if (found.length)
            hunks.push(...found);
        else
            unreadable.push(f);
    }
    const touching = merged.filter((t) => t.changedFiles.some((f) => files.includes(f)));
    const others = (touching.length ? touching : merged).map((t) => t.id);
    const conflict = (why) => ({ conflict: { task: task.id, with: others, files, hunks, why } });
    // A file deleted on one side, or a binary file, has no hunks to merge line by line.
    if (unreadable.length)
        return conflict(`${unreadable.map((f) => `\`${f}\``).join(', ')} cannot be merged line by line (deleted on one side, or not text)`);
    const intentOf = (t) => {
        const p = (0,run_files/* planTask */.PE)(view, t.id);
        return { id: t.id, title: p.title, description: p.description, summary: t.summary ?? '' };
    };
    const config = await ctx.config();
    ctx.log.info(`integration: ${task.id} conflicts with ${others.join(', ')} in ${files.join(', ')}; asking the resolver to keep both`);
    let out;
    try {
        out = await runResolver(await (0,context/* runModel */.L4)(ctx, view, 'resolver'), {
            repoDir: ctx.repo.dir,
            modelId: config.models[config.default_model],
            system: await (0,agent_instructions/* promptWithInstructions */.U)(ctx, 'resolver', (0,run_state/* reviewedSha */.cK)(view.run), files),
            protectedPaths: config.protected_paths,
            ours: (touching.length ? touching : merged).map(intentOf),
            theirs: intentOf(task),
            hunks,
            maxTurns: RESOLVER_MAX_TURNS,
            maxOutputTokens: config.max_output_tokens.worker,
            maxOutputBytes: 64_000,
        }, ctx.log, (0,context/* agentRun */.Vv)(ctx, { agent: 'resolver', model: config.models[config.default_model], task: task.id }));
    }
    catch (e) {
        // The run's budget is no reason to hand a person the merge: the run waits at it, and `/crew continue` merges again.
        if (e instanceof run_budget/* RunBudgetSpent */.J)
            return { atBudget: e, task: task.id, files };
        return conflict(`the resolver's model call failed: ${e.message}`);
    }
    await (0,context/* updateView */.vl)(ctx, issue, run, `resolver usage`, (v, tx) => {
        (0,run_files/* writeRun */.bp)(tx, { ...v.run, usage: (0,run_state/* addUsage */.vk)(v.run.usage, out.usage) }, (0,context/* nowIso */.kF)(ctx));
    });
    if (!out.resolved)
        return conflict(`the resolver could not keep both intents: ${(0,sanitize/* sanitize */.a)(out.explanation, 1000)}`);
    const outside = out.written.filter((f) => !files.includes(f));
    if (outside.length)
        return conflict(`the resolver changed files outside the conflict (${outside.join(', ')}), which crew does not accept`);
    for (const f of files) {
        const text = await (0,promises_.readFile)((0,external_node_path_.join)(ctx.repo.dir, f), 'utf8').catch(() => '');
        if (hasConflictMarkers(text))
            return conflict(`the resolver said it was done, but \`${f}\` still has conflict markers`);
    }
    ctx.log.info(`integration: the resolver merged ${task.id}: ${out.explanation}`);
    return { explanation: (0,sanitize/* sanitize */.a)(out.explanation, 1000) };
}
/** The resolver could not merge: a person decides, with the files and hunks in front of them. */
async function escalateConflict(ctx, view, c) {
    const { issue, run } = view.run;
    const s = ctx.surface;
    const body = [
        `${s.bold('crew needs a decision')} on run ${s.runNumber(issue, run)}: merging ${s.bold(c.task)} into \`${(0,context/* integrationBranchOf */.c1)(ctx, view.run)}\` conflicts with ${c.with.join(', ') || 'the tasks before it'} in ${c.files.map((f) => s.modelText((0,markdown/* codeSpan */.SS)(f))).join(', ')}, and ${s.modelText(c.why.replace(/\s*\r?\n\s*/g, ' '))}.`,
        '',
        'Nothing was lost: every task branch is still there, and the integration branch was not changed.',
        '',
        s.details('The conflicting hunks', c.hunks.length
            ? s.modelText(renderHunks(c.hunks, { ours: `the integration branch (${c.with.join(', ') || 'earlier tasks'})`, theirs: c.task }))
            : '(no line-by-line hunks: see the files above)', true),
        '',
        s.bold('Reply with one of:'),
        `- ${s.command('retry')}: integrate again, for example after you pushed a fix to one of the task branches.`,
        `- ${s.command('abort')}: stop here; the branches stay.`,
    ].join('\n');
    await (0,caps/* spend */.Rf)(ctx, issue, run, { comments: 1 });
    const posted = await ctx.forge.postComment(issue, body);
    await (0,context/* updateView */.vl)(ctx, issue, run, `merge conflict goes to a person`, (v, tx) => {
        (0,run_files/* writeRun */.bp)(tx, { ...v.run, phase: 'ESCALATING', finalizer: null, waiting: { kind: 'conflict', commentId: posted.id, task: c.task, files: c.files } }, (0,context/* nowIso */.kF)(ctx));
        (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
    });
    await ctx.forge.addLabel(issue, labels/* WAITING_LABEL */.J);
    ctx.log.checkpoint('conflict-escalated');
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
/** The tasks integration merges, in the order it merges them. */
function doneInOrder(view) {
    return (0,plan/* topologicalOrder */._o)((0,run_files/* planOf */.XC)(view))
        .map((id) => view.tasks.get(id))
        .filter((t) => (0,run_state/* settlement */.W9)(t) === 'done');
}
/** What an integration was built from: the done tasks' heads, in order. */
const integratedHeads = (view) => doneInOrder(view)
    .map((t) => `${t.id}@${t.headSha}`)
    .join(' ');
/** The write that hands the run to the critic job: REVIEWING, held by this workflow run, on `headSha`. */
function handOverToCritic(ctx, tx, rec, headSha, resolved) {
    const { issue, run } = rec;
    const review = rec.review ?? run_state/* FRESH_REVIEW */.e0;
    // A PASS on this very head (the run was interrupted after judging) stands; anything else is judged afresh.
    const verdict = review.headSha === headSha && review.verdict === 'PASS' ? 'PASS' : null;
    (0,run_files/* writeRun */.bp)(tx, { ...rec, phase: 'REVIEWING', finalizer: ctx.runId, review: { ...review, headSha, verdict } }, (0,context/* nowIso */.kF)(ctx));
    if (resolved.length)
        tx.write(run_files/* paths */.f0.integration(issue, run), `# Integration\n\nConflicts the resolver merged, keeping both intents:\n\n${resolved.map((r) => `- ${r}`).join('\n')}\n`);
    (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
}
/** The run changed under a write that was to claim and hand over at once: nothing of it may land. */
class ClaimMoved extends Error {
}
/**
 * #31 §4: when every task branch merges as git merges it, the claim ("advance": INTEGRATING, this
 * workflow run finishing) and the hand-over to the critic are one write, made after integrating from
 * the state this job read. Its mutate decides again as the claim would have; unless the run is still
 * this job's to finish, from the same task heads, it throws, so neither the record nor the carried
 * branch lands, and the job goes the claim-first way, which sees why. A crash before the write leaves
 * nothing to redo but the merges. Returns whether the run went to the critic.
 */
async function integratedInOneWrite(ctx, view, decide) {
    const { issue, run, finalizer } = view.run;
    // A follow-up pushes onto the pull request's branch, which no write carries: that push waits for the claim.
    if (view.run.followUp || !ctx.state.carriesBranches)
        return false;
    if (!(0,run_state/* allTasksDone */.oQ)(view) || (0,run_state/* failedTasks */.Ox)(view).length || (finalizer !== null && finalizer !== ctx.runId))
        return false;
    const integration = await integrate(ctx, view, false);
    if ('claimFirst' in integration) {
        ctx.log.info(`integration: ${integration.claimFirst}; this job claims the run first`);
        return false;
    }
    if ('conflict' in integration || 'atBudget' in integration)
        return false;
    const { headSha, carry } = integration;
    const heads = integratedHeads(view);
    ctx.log.checkpoint('integrated');
    try {
        await (0,context/* updateView */.vl)(ctx, issue, run, `integrated ${headSha.slice(0, 7)} for the critic`, (v, tx) => {
            const next = decide(v, tx);
            if (next.kind !== 'finalize' || integratedHeads(next.after) !== heads)
                throw new ClaimMoved();
            handOverToCritic(ctx, tx, next.after.run, headSha, []);
        }, carry ? { carry } : undefined);
    }
    catch (e) {
        if (!(e instanceof ClaimMoved || e instanceof ports/* BranchMoved */.A5))
            throw e;
        ctx.log.info(`the run changed while this job integrated it${e instanceof ports/* BranchMoved */.A5 ? ` (${e.branch} appeared)` : ''}; nothing was recorded or pushed`);
        return false;
    }
    await toCritic(ctx, issue, run);
    return true;
}
async function toCritic(ctx, issue, run) {
    ctx.output('critic', 'true');
    (0,context/* handedOn */.Uz)(ctx, issue, run);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
/**
 * Integrates the branches and hands the run to the critic job of this workflow run:
 * phase REVIEWING, held by this run (the finalizer), and the `critic` output set.
 */
async function finalize(ctx, view) {
    const { issue, run } = view.run;
    const integration = await integrate(ctx, view);
    if ('claimFirst' in integration)
        throw new Error(`integration stopped for a claim this job holds: ${integration.claimFirst}`);
    if ('conflict' in integration)
        return escalateConflict(ctx, view, integration.conflict);
    if ('atBudget' in integration) {
        const { atBudget, task, files } = integration;
        await (0,budget_stop/* stopStepAtBudget */.j8)(ctx, issue, run, 'integration', atBudget, { conflict: { task, files } });
        return;
    }
    const { headSha, resolved, carry } = integration;
    ctx.log.checkpoint('integrated');
    const handOver = (options) => (0,context/* updateView */.vl)(ctx, issue, run, `integrated ${headSha.slice(0, 7)} for the critic`, (v, tx) => {
        if (v.run.phase !== 'INTEGRATING' || v.run.finalizer !== ctx.runId)
            return;
        handOverToCritic(ctx, tx, v.run, headSha, resolved);
    }, options);
    if (!carry)
        await handOver();
    else
        await handOver({ carry }).catch(async (e) => {
            // Someone created the branch meanwhile: the separate push goes on top of theirs, or fails saying why.
            if (!(e instanceof ports/* BranchMoved */.A5))
                throw e;
            ctx.log.info(`${carry.branch} appeared while the run was integrated; pushing it on its own first`);
            await ctx.remote.push(carry.branch);
            await handOver();
        });
    await toCritic(ctx, issue, run);
}

;// CONCATENATED MODULE: ./src/steps/advance.ts














/**
 * The `advance` job runs after every matrix: it notices workers that died, restarts
 * tasks nobody holds, and once every task has succeeded integrates the branches for
 * the critic job, which gates the pull request.
 */
/** How often a task whose worker vanished (not a cancelled run) is restarted automatically. */
const MAX_RESTARTS = 2;
async function advance(ctx) {
    const { issue, run } = ctx.settings;
    let view = await (0,context/* loadView */.QJ)(ctx, issue, run);
    if ((0,run_state/* isTerminal */.Hd)(view.run.phase)) {
        ctx.log.info(`run ${run} is already ${view.run.phase}`);
        return (0,context/* catchUpPlanComment */.R1)(ctx, issue, run);
    }
    if (view.run.phase === 'EXECUTING') {
        const settled = await settleMatrix(ctx, view);
        if (!settled)
            return;
        view = settled;
    }
    else if (view.run.phase === 'REVIEWING' && view.run.finalizer === ctx.runId) {
        // Integrated already in this workflow run (a re-run of this job, or an accepted FAIL): the critic job takes it from here.
        ctx.output('critic', 'true');
        (0,context/* handedOn */.Uz)(ctx, issue, run);
        return;
    }
    else if (view.run.phase !== 'INTEGRATING' || view.run.finalizer !== ctx.runId) {
        ctx.log.info(`run ${run} is ${view.run.phase}; nothing for this job to do`);
        return (0,context/* catchUpPlanComment */.R1)(ctx, issue, run);
    }
    await finalize(ctx, view);
}
/** The matrix has ended: its lost workers, the tasks still to run, and, once every task is done, the end of the run. The view to integrate, or nothing when this job is done. */
async function settleMatrix(ctx, view) {
    const { issue, run } = ctx.settings;
    const { max_parallel: maxParallel, escalation_limits: limits } = await ctx.config();
    const cancelled = ctx.settings.workResult === 'cancelled';
    const now = (0,context/* nowIso */.kF)(ctx);
    const claim = (0,context/* taskClaim */.s1)(ctx, 'dispatch', now);
    const { ours, pushed, headOf } = await lostWorkers(ctx, view, cancelled);
    const decide = endOfRun(ctx, { cancelled, now, claim, maxParallel, limits }, { ours, pushed, headOf });
    if (pushed.size === 0 && (await integratedInOneWrite(ctx, view, decide)))
        return;
    const step = await (0,context/* updateView */.vl)(ctx, issue, run, `advance`, (v, tx) => {
        const next = decide(v, tx);
        // The claim: this workflow run finishes the run, so a model call (the resolver) never runs twice in parallel.
        if (next.kind === 'finalize') {
            (0,run_files/* writeRun */.bp)(tx, { ...next.after.run, phase: 'INTEGRATING', finalizer: ctx.runId }, now);
            (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
        }
        return next;
    });
    return afterStep(ctx, step, claim);
}
/** The tasks this workflow run held whose workers ended without a result, with what each pushed before it died. */
async function lostWorkers(ctx, view, cancelled) {
    const { issue, run } = ctx.settings;
    // A dispatch's legs work under its claims (`dispatch:<nonce>`) without taking them, so those are
    // this run's only for legs that started: a workflow that routes dispatches wrongly starts none.
    const dispatched = [...view.tasks.values()].filter((t) => t.claim?.runId !== ctx.runId && (0,context/* holdsClaim */.jG)(ctx, t.claim));
    // A parallel attempt's leg (`t1-a2`, #50) is its task's.
    const started = new Set((dispatched.length ? await ctx.forge.workLegsStarted(ctx.runId) : []).map((l) => (0,attempts/* parseLeg */.U3)(l)?.task ?? l));
    const ours = (t) => t.claim?.runId === ctx.runId || ((0,context/* holdsClaim */.jG)(ctx, t.claim) && started.has(t.id));
    // A leg GitHub does not list by its name is left alone (it may never have started); say so, or the run waits unseen.
    const unlisted = dispatched.filter((t) => (t.status === 'running' || t.status === 'retrying') && !started.has(t.id)).map((t) => t.id);
    if (unlisted.length && !cancelled)
        await ctx.forge.postComment(issue, legsNotListed(ctx, unlisted));
    // Matrix legs of this workflow run have all ended; a task still claimed by it lost its worker.
    // What that worker pushed before it died is taken; only what never reached the branch runs again.
    const pushed = new Map();
    const untaken = new Map();
    for (const t of view.tasks.values()) {
        if ((t.status !== 'running' && t.status !== 'retrying') || !ours(t))
            continue;
        const taken = await (0,task_results/* takePushedResult */.Sr)(ctx, issue, run, t, (tip) => untaken.set(t.id, tip));
        if (taken !== 'recorded')
            pushed.set(t.id, taken);
    }
    // A branch with work no record names (a save cut short) is the task's head from now on: its next attempt starts there.
    const headOf = (t) => ({ headSha: t.headSha ?? untaken.get(t.id) ?? null });
    return { ours, pushed, headOf };
}
/** What one write decides: lost workers restarted or failed, stragglers claimed, and whether the run ends (re-plan, fail or integrate). */
function endOfRun(ctx, { cancelled, now, claim, maxParallel, limits }, { ours, pushed, headOf }) {
    const { issue, run } = ctx.settings;
    return (v, tx) => {
        // Moved on since this job read it (another job finished the run, or someone stopped it): not this job's to change.
        if (v.run.phase !== 'EXECUTING')
            return { kind: 'moved', phase: v.run.phase };
        const lost = [...v.tasks.values()].filter((t) => (t.status === 'running' || t.status === 'retrying') && ours(t) && pushed.has(t.id));
        // An attempt that never reached the branch does not count against the task.
        // Parallel attempts recorded under the claim (#50) keep it and its number: only what is missing runs again.
        const attemptsAfter = (t) => (pushed.get(t.id) === 'none' && !(0,run_state/* keepsCandidates */.V1)(t) ? Math.max(0, t.attempts - 1) : t.attempts);
        if (cancelled && lost.length) {
            // The run was cancelled: nothing failed, so nothing is reported as failed. `/crew resume` picks it up.
            for (const t of lost)
                (0,run_files/* writeTask */.bN)(tx, issue, run, { ...t, ...headOf(t), status: 'pending', claim: null, attempts: attemptsAfter(t) });
            (0,run_files/* writeRun */.bp)(tx, { ...v.run, phase: 'INTERRUPTED' }, now);
            (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
            return { kind: 'interrupted', lost: lost.map((t) => t.id) };
        }
        const restart = [];
        for (const t of lost) {
            if (t.restarts < MAX_RESTARTS) {
                restart.push(t.id);
                (0,run_files/* writeTask */.bN)(tx, issue, run, {
                    ...t,
                    ...headOf(t),
                    status: 'running',
                    claim,
                    restarts: t.restarts + 1,
                    attempts: attemptsAfter(t) + ((0,run_state/* keepsCandidates */.V1)(t) ? 0 : 1),
                });
            }
            else
                (0,run_files/* writeTask */.bN)(tx, issue, run, {
                    ...t,
                    status: 'failure',
                    claim: null,
                    finishedAt: now,
                    error: (0,run_state/* candidatesComplete */.ug)(t)
                        ? `the job judging its ${t.parallel} parallel attempts ended without a result, ${MAX_RESTARTS + 1} times (see the workflow logs); ${ctx.surface.command('retry', t.id)} judges them again`
                        : `the worker job ended without recording a result, ${MAX_RESTARTS + 1} times (see the workflow logs)`,
                });
        }
        if (lost.length)
            (0,run_files/* writeRun */.bp)(tx, v.run, now);
        const claimed = [...restart, ...(0,transitions/* claimReadyTasks */.M)(tx, issue, run, maxParallel, claim)];
        const after = (0,context/* viewIn */.zc)(tx, issue, run);
        if (!(0,run_state/* allTasksDone */.oQ)(after)) {
            (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
            return { kind: 'waiting', claimed };
        }
        const failed = (0,run_state/* failedTasks */.Ox)(after);
        if (failed.length) {
            const next = (0,leader_policy/* endOfRunDecision */.eB)(after.tasks.size - [...after.tasks.values()].filter((t) => t.replacedBy).length, failed.map((t) => t.id), after.run.leader, limits);
            if (next.action === 'replan_failed') {
                for (const t of failed)
                    (0,run_files/* writeTask */.bN)(tx, issue, run, { ...t, pendingReplan: true });
                (0,run_files/* writeRun */.bp)(tx, {
                    ...after.run,
                    leader: { ...after.run.leader, escalations: { ...after.run.leader.escalations, planner: after.run.leader.escalations.planner + 1 } },
                }, now);
                return { kind: 'replan', tasks: next.tasks };
            }
            return { kind: 'failed', failed: failed.map((t) => `${t.id} (${t.status}${t.error ? `: ${t.error}` : ''})`), notReplanned: next.notReplanned };
        }
        if (after.run.finalizer !== null && after.run.finalizer !== ctx.runId)
            return { kind: 'elsewhere' };
        return { kind: 'finalize', after };
    };
}
/** What this job does after the write: stop, dispatch the claimed tasks, re-plan, report the failure, or hand back the view to integrate. */
async function afterStep(ctx, step, claim) {
    const { issue, run } = ctx.settings;
    if (step.kind === 'moved') {
        ctx.log.info(`run ${run} is ${step.phase}; nothing for this job to do`);
        return (0,context/* catchUpPlanComment */.R1)(ctx, issue, run);
    }
    if (step.kind === 'interrupted') {
        ctx.log.warn(`the workflow run was cancelled while ${step.lost.join(', ')} ran; the run is interrupted until someone comments /crew resume`);
        await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
        return;
    }
    if (step.kind === 'waiting') {
        if (step.claimed.length)
            await (0,context/* dispatchTasks */.Xy)(ctx, issue, run, step.claimed, claim);
        ctx.log.info('tasks are still running in other workflow runs; the last of them finishes the run');
        await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
        return;
    }
    if (step.kind === 'elsewhere') {
        ctx.log.info('another job is finishing this run');
        return (0,context/* catchUpPlanComment */.R1)(ctx, issue, run);
    }
    // claude-crew's feedback loop: half or more failed after all retries, so re-decompose them, once.
    if (step.kind === 'replan')
        return replanFailedHalf(ctx, issue, run, step.tasks, FAILED_HALF);
    if (step.kind === 'failed')
        return reportFailure(ctx, issue, run, step.failed, step.notReplanned ? `crew did not re-plan them: ${step.notReplanned}.` : undefined);
    // The step's own write just landed: its tip is the state.
    return (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL);
}
const FAILED_HALF = 'Half or more of the plan failed; re-decompose the failed tasks.';
/**
 * The failed half of the plan re-planned at the run's end; when no replacement is made, the run fails saying why.
 * At `budgets.run` the run waits instead, and `/crew continue` comes back here with the same tasks and feedback.
 */
async function replanFailedHalf(ctx, issue, run, tasks, feedback) {
    const replan = await (0,leader/* replanTasks */.Nd)(ctx, issue, run, tasks, feedback, { endOfRun: true });
    if (replan.replaced || replan.atBudget)
        return;
    const view = await (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL);
    return reportFailure(ctx, issue, run, (0,run_state/* failedTasks */.Ox)(view).map((t) => `${t.id} (${t.status}${t.error ? `: ${t.error}` : ''})`), `crew tried to re-plan them, but ${(0,sanitize/* sanitize */.a)(replan.why, 3000)}`);
}
/**
 * This dispatched run held tasks by its nonce, and GitHub lists no `work (<task>)` job of it that
 * started for them. crew knows its legs by that name, so a workflow whose `work` job is renamed or
 * skipped leaves them claimed with no worker; `/crew resume` claims them afresh.
 */
function legsNotListed(ctx, tasks) {
    const one = tasks.length === 1;
    const names = tasks.map((id) => (0,markdown/* codeSpan */.SS)(id)).join(', ');
    const jobs = tasks.map((id) => (0,markdown/* codeSpan */.SS)(`work (${id})`)).join(', ');
    return (`This workflow run was dispatched to work on ${names}, but GitHub lists no ${jobs} job of it that started, so ${one ? 'that task stays' : 'those tasks stay'} claimed with no worker on ${one ? 'it' : 'them'}. ` +
        `crew finds its work jobs by that name: the shipped workflow's \`work\` job, one per task. If \`.github/workflows/crew.yml\` renames that job or skips it, put it back as in crew's README. ` +
        `Then ${ctx.surface.give('resume')}: it starts ${one ? 'the task' : 'the tasks'} again.`);
}
/** `why` says why the failed tasks were not re-planned, when crew would otherwise have re-planned them. */
async function reportFailure(ctx, issue, run, failed, why) {
    const tried = why ? `\n\n${why}` : '';
    const message = `These tasks did not succeed:\n${failed.map((f) => `- ${f}`).join('\n')}${tried}`;
    await (0,context/* failRun */.QQ)(ctx, issue, run, 'the tasks', `${failed.length} task(s) did not succeed`);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
    await ctx.forge.postComment(issue, (0,messages/* failureComment */.Ac)('the tasks', message, ctx.forge.runLink(), `Read the report below and each task's result on the crew/state branch. ${(0,surface/* sentence */.em)(ctx.surface.give('retry'))} to run the failed tasks again (or ${ctx.surface.command('retry', '<task>')} for one), or clarify the issue and ${ctx.surface.give('run')}.`, ctx.surface));
    // claude-crew goes on to the report even when the tasks failed: what was done, what was not, and a full retrospective.
    await (0,finish/* reportEndedRun */.u1)(ctx, issue, run, `The run failed: ${failed.length} task${failed.length === 1 ? '' : 's'} did not succeed (${failed.map((f) => f.split(' ')[0]).join(', ')}), so crew opened no pull request.`);
}


/***/ })

};
