export const id = 921;
export const ids = [921];
export const modules = {

/***/ 7882:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   CL: () => (/* binding */ runOutcome),
/* harmony export */   Es: () => (/* binding */ forAPerson),
/* harmony export */   Fx: () => (/* binding */ semanticEvaluation),
/* harmony export */   QB: () => (/* binding */ criteriaDigest),
/* harmony export */   Vj: () => (/* binding */ verdictOf),
/* harmony export */   Wx: () => (/* binding */ failingEvaluations),
/* harmony export */   _c: () => (/* binding */ commandEvaluation),
/* harmony export */   bB: () => (/* binding */ rerunAdvice),
/* harmony export */   cj: () => (/* binding */ commandNotRun),
/* harmony export */   mG: () => (/* binding */ adversarialChecks),
/* harmony export */   qz: () => (/* binding */ tasksToRerun),
/* harmony export */   v9: () => (/* binding */ failingFindings)
/* harmony export */ });
/* unused harmony export MIN_CONFIDENCE */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _tamper__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(30668);
/* harmony import */ var _localisation__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(34406);
/* harmony import */ var _test_results_types__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(30087);
/* harmony import */ var _surface__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(45759);





/** Below this, a "met" from the model is not trusted: it counts as not met. */
const MIN_CONFIDENCE = 0.5;
/** endless8's command convention: 0 met, 1 not met, anything else (or a timeout) an error. */
function commandEvaluation(c, r, 
/** What crew knows that points at the repository's setup steps (toolbox/sandbox-reach.ts), said after a failure's output. */
hint) {
    const tail = r.output.trimEnd().split('\n').slice(-15).join('\n').slice(-2000);
    const pointer = r.exitCode !== 0 || r.timedOut ? hint?.(r.output) : null;
    const evidence = [
        `\`${c.command}\` ${r.timedOut ? 'timed out' : `exited with ${r.exitCode ?? 'a signal'}`}`,
        ...(tail ? [tail] : []),
        ...(pointer ? [pointer] : []),
    ];
    const base = { criterion: c.id, text: c.text, kind: c.kind, evidence, confidence: 1, tasks: [] };
    if (r.exitCode === 0 && !r.timedOut)
        return { ...base, met: true };
    if (r.exitCode === 1 && !r.timedOut)
        return { ...base, met: false };
    const why = r.timedOut ? 'the command timed out' : `the command exited with ${r.exitCode ?? 'a signal'}, which means it could not check the criterion`;
    return { ...base, met: null, error: why };
}
/** A command criterion that could not run at all (no sandbox, setup failed). */
function commandNotRun(c, why) {
    return { criterion: c.id, text: c.text, kind: c.kind, met: null, evidence: [], confidence: 0, error: why, tasks: [] };
}
/**
 * The model's word on a semantic criterion, held to the rules: a PASS without evidence
 * is a FAIL, a PASS it is not confident of is a FAIL, and a criterion it skipped is not met.
 */
function semanticEvaluation(c, given, taskIds) {
    const base = { criterion: c.id, text: c.text, kind: c.kind };
    if (!given)
        return { ...base, met: false, evidence: ['the critic gave no judgment for this criterion'], confidence: 0, tasks: [] };
    const evidence = given.evidence.map((e) => e.trim()).filter(Boolean);
    const tasks = (given.tasks ?? []).filter((t) => taskIds.has(t));
    const confidence = Math.max(0, Math.min(1, given.confidence));
    if (given.met && evidence.length === 0)
        return { ...base, met: false, evidence: ['judged met without any evidence, which counts as not met'], confidence, tasks };
    if (given.met && confidence < MIN_CONFIDENCE)
        return { ...base, met: false, evidence: [...evidence, `judged met with confidence ${confidence}, below ${MIN_CONFIDENCE}`], confidence, tasks };
    const verified = given.citations?.verified.length ? { verified: given.citations.verified } : {};
    // Evidence that cites what the tree does not hold is no evidence: not met, with crew's reasons.
    if (given.met && given.citations?.problems.length)
        return {
            ...base,
            met: false,
            evidence: [...evidence, ...given.citations.problems.map((p) => `crew checked the evidence: ${p}`)],
            confidence,
            tasks,
            ...verified,
        };
    return { ...base, met: given.met, evidence, confidence, tasks, ...verified };
}
/**
 * Findings that are not cheating but need a person's eyes: a lifecycle script may be exactly what the issue
 * asked for (husky's `prepare`, a `postinstall` build), so sending the task back cannot fix it. They do not
 * fail the critic; the PR lists them under "Look at before merging", and crew never auto-merges a PR that
 * has one (merge-gate.ts).
 */
const FOR_A_PERSON = new Set(['lifecycle-script-changed']);
const forAPerson = (adversarial) => adversarial.filter((f) => FOR_A_PERSON.has(f.rule));
/** The findings that fail the critic. */
const failingFindings = (adversarial) => adversarial.filter((f) => !FOR_A_PERSON.has(f.rule));
/** PASS only when every criterion is met with evidence and no adversarial check found cheating. */
function verdictOf(evaluations, adversarial) {
    return evaluations.length > 0 && evaluations.every((e) => e.met === true) && failingFindings(adversarial).length === 0 ? 'PASS' : 'FAIL';
}
function failingEvaluations(j) {
    return j.evaluations.filter((e) => e.met !== true);
}
/** A digest of the done criteria, recorded with the reviewed plan and checked by the critic. */
function criteriaDigest(criteria) {
    const canonical = criteria.map((c) => ({ id: c.id, text: c.text, kind: c.kind, command: c.command ?? null }));
    return (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 16);
}
const megabytes = (n) => `${(n / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;
/**
 * The critic's adversarial checks (4QV+): the done criteria are the ones the plan review
 * passed (same digest), and the diff does not delete, skip or weaken tests or change how
 * they run. Every finding fails the verdict with its evidence. A diff too large to read
 * whole fails closed: what the checks did not read, they cannot vouch for.
 */
function adversarialChecks(criteria, reviewedDigest, diff, context = {}, 
/** Where the finding is read, for the command it names. */
surface = _surface__WEBPACK_IMPORTED_MODULE_3__/* .GITHUB */ .U0) {
    const read = Array.isArray(diff) ? { files: diff } : diff;
    const out = [];
    const now = criteriaDigest(criteria);
    if (reviewedDigest && now !== reviewedDigest)
        out.push({
            rule: 'criteria-changed',
            evidence: `the done criteria in plan.json (digest ${now}) differ from the ones the plan review passed (digest ${reviewedDigest})`,
        });
    if (read.cut) {
        out.push({
            rule: 'diff-too-large',
            evidence: `the change is ${megabytes(read.cut.bytes)} (${read.cut.bytes.toLocaleString('en-US')} bytes) of diff, over the ${megabytes(read.cut.limit)} limit the test-tampering checks read, so they cannot vouch for the rest: a person must review it (${surface.command('accept')} opens the pull request anyway), or the work must be split into smaller runs`,
        });
    }
    for (const f of (0,_tamper__WEBPACK_IMPORTED_MODULE_1__/* .findTampering */ .Ny)(read.files, context))
        out.push({ rule: f.rule, evidence: f.evidence, file: f.file, ...(f.line ? { line: f.line } : {}) });
    return out;
}
/**
 * The tasks to run again after a FAIL (#18 re-run scoping). For a failed command: the tasks
 * localisation convicted; when it fails the same way on the base, the tasks whose files are the
 * code its failing tests exercise (#50), none if no task's are; else the tasks whose
 * changed files its output names, else the ones the critic named. For a semantic criterion, the
 * ones the critic named; for a finding, the tasks that changed its file. When nothing points
 * anywhere: the tasks whose files any evidence mentions, else the tasks no other task builds on,
 * leaving out, for failed commands, tasks that changed documentation only. `blameBefore` (a
 * person's `/crew retry`) treats a failure that was already on the base like any other.
 */
function tasksToRerun(j, view, opts = {}) {
    const plan = view.plan;
    const live = plan.tasks.filter((t) => !view.tasks.get(t.id)?.replacedBy).map((t) => t.id);
    const changed = (id) => view.tasks.get(id)?.changedFiles ?? [];
    // A stack names the test that called the code as well as the code that threw: the code is the cause.
    const named = (text) => {
        const hits = live.filter((id) => changed(id).some((file) => text.includes(file)));
        const inCode = hits.filter((id) => changed(id).some((file) => !(0,_tamper__WEBPACK_IMPORTED_MODULE_1__/* .isTestFile */ .hl)(file) && text.includes(file)));
        return inCode.length ? inCode : hits;
    };
    const localised = new Map((j.localisation ?? []).map((l) => [l.criterion, l.outcome]));
    const owners = (e) => {
        const found = localised.get(e.criterion);
        return found?.kind === 'before' ? (found.owners?.tasks ?? []).filter((t) => live.includes(t)) : [];
    };
    // A failure already on the base that no task owns: nobody's to fix (a person's retry aside).
    const before = (e) => !opts.blameBefore && localised.get(e.criterion)?.kind === 'before' && !owners(e).length;
    const failing = failingEvaluations(j).filter((e) => !before(e));
    const picked = new Set();
    for (const e of failing) {
        const found = localised.get(e.criterion);
        if (found?.kind === 'tasks' || owners(e).length) {
            for (const t of found?.kind === 'tasks' ? found.tasks : owners(e))
                if (live.includes(t))
                    picked.add(t);
            continue;
        }
        // What the command printed is evidence; the critic's attribution of a command's failure is its guess.
        const fromOutput = e.kind === 'command' ? named(e.evidence.join('\n')) : [];
        for (const t of fromOutput.length ? fromOutput : e.tasks.filter((t) => live.includes(t)))
            picked.add(t);
    }
    for (const f of failingFindings(j.adversarial)) {
        const owners = f.file ? live.filter((id) => changed(id).includes(f.file)) : [];
        // A test lost without its file changing (a config that leaves it out, a hook that deselects it): the tasks that changed how tests run.
        const how = owners.length || (f.rule !== 'lost-test' && f.rule !== 'test-report-missing') ? [] : live.filter((id) => changed(id).some(_tamper__WEBPACK_IMPORTED_MODULE_1__/* .changesHowTestsRun */ .Qe));
        for (const t of [...owners, ...how])
            picked.add(t);
    }
    // Only failures that were there before crew's changes: no task is to blame.
    if (failing.length === 0 && failingFindings(j.adversarial).length === 0)
        return [];
    if (picked.size === 0)
        for (const e of failing)
            for (const id of named(e.evidence.join('\n')))
                picked.add(id);
    if (picked.size === 0) {
        const dependedOn = new Set(plan.tasks.filter((t) => live.includes(t.id)).flatMap((t) => t.dependsOn));
        const leaves = live.filter((id) => !dependedOn.has(id));
        const commandsOnly = failing.length > 0 && failing.every((e) => e.kind === 'command') && failingFindings(j.adversarial).length === 0;
        const scoped = commandsOnly ? leaves.filter((id) => !(0,_localisation__WEBPACK_IMPORTED_MODULE_2__/* .isDocsOnly */ .I3)({ changedFiles: changed(id) })) : leaves;
        for (const id of scoped.length ? scoped : leaves)
            picked.add(id);
    }
    return live.filter((id) => picked.has(id));
}
/** What the next attempt at a task is told (or, with no task, the next critic): the critic's reasons, criterion by criterion. */
function rerunAdvice(j, taskId) {
    const blamed = (e) => {
        const found = j.localisation?.find((l) => l.criterion === e.criterion)?.outcome;
        return found?.kind === 'tasks' ? found.tasks : found?.kind === 'before' && found.owners ? found.owners.tasks : e.tasks;
    };
    const mine = failingEvaluations(j).filter((e) => taskId === undefined || blamed(e).length === 0 || blamed(e).includes(taskId));
    // The run that convicts this task: what its own branch printed, which is the failure to fix.
    const convicting = (criterion) => {
        const l = j.localisation?.find((x) => x.criterion === criterion);
        if (taskId && l?.outcome.kind === 'before' && l.outcome.owners?.tasks.includes(taskId)) {
            const o = l.outcome.owners;
            const base = l.runs.find((x) => x.site.kind === 'base');
            const names = (base?.failingTests ?? []).slice(0, 10).map((k) => (0,_test_results_types__WEBPACK_IMPORTED_MODULE_4__/* .describeTest */ .Ww)((0,_test_results_types__WEBPACK_IMPORTED_MODULE_4__/* .testOfKey */ .Lq)(k)));
            return `\n  This failure was there before crew's changes: \`${l.command}\` fails the same way on the base${names.length ? ` (failing: ${names.join('; ')})` : ''}. The failing ${o.tests.length === 1 ? 'test file is' : 'test files are'} ${o.tests.join(', ')}, and ${o.tests.length === 1 ? 'it exercises' : 'they exercise'} code in this task's files (${o.code.join(', ')}): the issue asks for it to pass, so fix that code (not the test). What it printed:\n${(base?.output ?? '').slice(-1200)}`;
        }
        if (!taskId || l?.outcome.kind !== 'tasks' || !l.outcome.tasks.includes(taskId))
            return '';
        const how = l.outcome.how;
        if (how === 'code') {
            const shown = l.runs.find((x) => x.site.kind === 'alone' && l.outcome.kind === 'tasks' && l.outcome.shownBy?.includes(x.site.task));
            return `\n  crew re-ran \`${l.command}\` on the branches of the tasks that build on this one: it fails in code this task wrote. What it printed:\n${(shown?.output ?? '').slice(-1200)}`;
        }
        const r = l.runs.find((x) => x.site.kind === how && x.site.task === taskId);
        if (!r)
            return '';
        if (how === 'without')
            return `\n  crew re-ran \`${l.command}\` on the integrated work without this task, and it passes: the failure above comes from this task's work.`;
        return `\n  crew re-ran \`${l.command}\` on this task's branch alone, and it fails (exit ${r.exitCode}). What it printed there:\n${r.output.slice(-1200)}`;
    };
    const lines = [
        `The critic judged the integrated work FAIL (iteration ${j.iteration}): ${j.overallReason}`,
        ...mine.map((e) => `- ${e.criterion} "${e.text}": ${e.met === null ? `error: ${e.error}` : 'not met'}. ${e.evidence.slice(0, 2).join(' / ').slice(0, 600)}${convicting(e.criterion)}`),
        ...j.adversarial.map((f) => `- ${f.rule}: ${f.evidence}`),
        j.suggestedNextAction ? `Suggested next step: ${j.suggestedNextAction}` : '',
    ];
    return lines.filter(Boolean).join('\n');
}
/** The run's outcome for the report summary and the retrospective. */
function runOutcome(view, j, accepted) {
    const failedTasks = [...view.tasks.values()].filter((t) => !t.replacedBy && t.status !== 'success').map((t) => t.id);
    const evaluations = j?.evaluations ?? [];
    const met = evaluations.filter((e) => e.met === true).length;
    const completeness = evaluations.length ? Math.round((met / evaluations.length) * 100) : 0;
    if (j?.verdict === 'PASS' && failedTasks.length === 0)
        return { status: 'success', quality: 'GREEN', completeness, failedTasks };
    if (accepted || j?.verdict === 'PASS')
        return { status: 'partial', quality: completeness >= 80 ? 'YELLOW' : 'RED', completeness, failedTasks };
    return { status: 'failure', quality: 'RED', completeness, failedTasks };
}


/***/ }),

/***/ 34406:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   I3: () => (/* binding */ isDocsOnly),
/* harmony export */   LD: () => (/* binding */ decide),
/* harmony export */   SS: () => (/* binding */ describeOutcome),
/* harmony export */   Sm: () => (/* binding */ leftOutWith),
/* harmony export */   XZ: () => (/* binding */ describeVerdict),
/* harmony export */   Z_: () => (/* binding */ blamedBy),
/* harmony export */   gV: () => (/* binding */ verdictOfRun),
/* harmony export */   i3: () => (/* binding */ tryOrder),
/* harmony export */   qk: () => (/* binding */ settledByAloneRuns),
/* harmony export */   te: () => (/* binding */ compareWithBase),
/* harmony export */   xd: () => (/* binding */ describeSite)
/* harmony export */ });
/* unused harmony exports failureSignature, ancestors */
/* harmony import */ var _tamper__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(30668);

const DOCS = /\.(?:md|mdx|markdown|rst|txt|adoc)$/i;
/** Documentation: a change to these alone rarely makes a command fail. */
const isDocsOnly = (t) => t.changedFiles.length > 0 && t.changedFiles.every((f) => DOCS.test(f));
/**
 * The order to try tasks in, so that a spent time budget leaves the likeliest tried: those whose
 * code the failure output names, then those whose tests it names, then the rest, documentation last.
 */
function tryOrder(tasks, failureOutput) {
    const rank = (t) => {
        const named = t.changedFiles.filter((f) => failureOutput.includes(f));
        if (named.some((f) => !(0,_tamper__WEBPACK_IMPORTED_MODULE_0__/* .isTestFile */ .hl)(f)))
            return 0;
        if (named.length)
            return 1;
        return isDocsOnly(t) ? 3 : 2;
    };
    return tasks
        .filter((t) => t.changedFiles.length > 0)
        .map((t, i) => ({ id: t.id, r: rank(t), i }))
        .sort((a, b) => a.r - b.r || a.i - b.i)
        .map((x) => x.id);
}
/**
 * Lines that say what failed, with the parts that change from run to run (times, paths of
 * temporary folders, addresses) left out. Empty when the command prints no such line.
 */
function failureSignature(output) {
    const marker = /(✖|✗|×|\bFAIL\b|\bfail(?:ed|ing|ure)?\b|not ok|Error\b|error:|panic:|Traceback|assert)/i;
    return new Set(output
        .split('\n')
        .filter((l) => marker.test(l))
        .map(normalise)
        .filter((l) => l && !/^(?:ℹ|#)?\s*(?:fail|failed|failures?|tests?|pass(?:ed)?)\s*\d*$/i.test(l)));
}
function normalise(line) {
    return line
        .replace(/\x1b\[[0-9;]*m/g, '')
        .replace(/(?:file:\/\/)?\/[^\s:()'"]*\/(?=[^\s/:()'"]+)/g, '')
        .replace(/\(?\d+(?:\.\d+)?\s*m?s\)?/g, '')
        .replace(/0x[0-9a-f]+/gi, '')
        .replace(/\s+/g, ' ')
        .trim();
}
/**
 * How a failing run compares with a failing base: the same (every failure it names, the base
 * names too), different (it names a new one), or unknown (one of them names none, as `test -f`
 * prints nothing, so the runs cannot be told apart).
 */
function compareWithBase(base, now) {
    // By test identity when both runs reported their tests (#32): the same tests failing is the same failure, however it was printed.
    if (base.failingTests?.length && now.failingTests?.length) {
        const before = new Set(base.failingTests);
        return now.failingTests.every((k) => before.has(k)) ? 'same' : 'different';
    }
    const before = failureSignature(base.output);
    const after = failureSignature(now.output);
    if (!before.size || !after.size)
        return 'unknown';
    return [...after].every((l) => before.has(l)) ? 'same' : 'different';
}
/** A run's verdict: its exit code, read against the base where the base already fails. */
function verdictOfRun(run, failingBase) {
    if (run.timedOut || run.exitCode === null || (run.exitCode !== 0 && run.exitCode !== 1))
        return 'not-run';
    if (run.exitCode === 0)
        return 'passes';
    // A task's branch failing where the base fails too convicts it only of a failure the base does not have.
    return failingBase && compareWithBase(failingBase, run) !== 'different' ? 'as-before' : 'fails';
}
/** Every task a task builds on, directly or through others. */
function ancestors(tasks, id) {
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const out = new Set();
    const visit = (x) => {
        for (const d of byId.get(x)?.dependsOn ?? [])
            if (!out.has(d))
                (out.add(d), visit(d));
    };
    visit(id);
    return out;
}
/** The tasks whose work a run "without" this task must leave out too: it and every task built on it (their branches hold its work). */
function leftOutWith(tasks, id) {
    return new Set([id, ...tasks.filter((t) => ancestors(tasks, t.id).has(id)).map((t) => t.id)]);
}
/**
 * The verdict from the runs. The base fails the same way: nobody's fault. A task whose branch
 * fails alone is the cause, unless a task it builds on fails alone too (its branch carries that
 * work). Else a task without which the integrated work passes. Else undecided.
 */
function decide(tasks, runs, integrated) {
    const base = runs.find((r) => r.site.kind === 'base');
    if (base?.verdict === 'fails' && compareWithBase(base, integrated) === 'same')
        return { kind: 'before' };
    const aloneFails = new Set(runs.filter((r) => r.site.kind === 'alone' && r.verdict === 'fails').map((r) => r.site.task));
    const failing = [...aloneFails].filter((id) => ![...ancestors(tasks, id)].some((a) => aloneFails.has(a)));
    const blamed = failing.map((id) => ({ id, on: throwsIn(tasks, id, runs.find((r) => r.site.kind === 'alone' && r.site.task === id).output) }));
    const shownBy = blamed.filter((b) => b.on[0] !== b.id).map((b) => b.id);
    if (blamed.length) {
        const convicted = order(tasks, blamed.flatMap((x) => x.on));
        // Every failing branch failed in code a task it builds on wrote: say so, and through which branches.
        if (shownBy.length === blamed.length)
            return { kind: 'tasks', tasks: convicted, how: 'code', shownBy: order(tasks, shownBy) };
        return { kind: 'tasks', tasks: convicted, how: 'alone' };
    }
    const freed = runs.filter((r) => r.site.kind === 'without' && r.verdict === 'passes').map((r) => r.site.task);
    if (freed.length)
        return { kind: 'tasks', tasks: order(tasks, freed), how: 'without' };
    const tried = runs.filter((r) => r.site.kind !== 'base' && r.verdict !== 'not-run').length;
    const why = !tried
        ? 'it could not be re-run on the task branches'
        : base?.verdict === 'fails'
            ? base.failingTests?.length && integrated.failingTests?.length
                ? 'it fails on the base too, and no task branch fails a test the base does not'
                : 'it fails on the base too, and what it prints does not tell the failures apart'
            : `no task's branch fails alone, and no task left out makes it pass (${tried} run${tried === 1 ? '' : 's'})`;
    return { kind: 'undecided', why };
}
/**
 * A task's branch holds the work of the tasks it builds on: when what it prints names code only
 * they wrote (a stack through the task's new test into their function), the failure is theirs,
 * and the task's test only showed it.
 */
function throwsIn(tasks, id, output) {
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const namedCode = (t) => (byId.get(t)?.changedFiles ?? []).some((f) => !(0,_tamper__WEBPACK_IMPORTED_MODULE_0__/* .isTestFile */ .hl)(f) && output.includes(f));
    if (namedCode(id))
        return [id];
    const upstream = [...ancestors(tasks, id)].filter(namedCode);
    return upstream.length ? upstream : [id];
}
const order = (tasks, ids) => tasks.map((t) => t.id).filter((id) => ids.includes(id));
/** Whether the runs so far settle it, so the slower "without" runs are not needed. */
function settledByAloneRuns(tasks, runs, integrated) {
    const o = decide(tasks, runs, integrated);
    return o.kind === 'before' || (o.kind === 'tasks' && o.how === 'alone');
}
/** How a run site reads in the table and in a task's advice. */
function describeSite(site, baseSha) {
    if (site.kind === 'base')
        return `the base (${baseSha.slice(0, 7)}), before crew's changes`;
    if (site.kind === 'alone')
        return `${site.task}'s branch alone on the base`;
    return `the integrated work without ${site.task}`;
}
function describeVerdict(r) {
    if (r.verdict === 'not-run')
        return `could not run: ${r.output.split('\n')[0]?.slice(0, 120) || (r.timedOut ? 'timed out' : 'no exit code')}`;
    if (r.verdict === 'as-before')
        return r.failingTests ? 'fails, as on the base (the same tests)' : 'fails, as on the base';
    if (r.site.kind === 'base')
        return r.verdict === 'fails' ? 'fails' : 'passes';
    if (r.verdict === 'fails' && r.convicting?.length)
        return `fails: ${r.convicting.slice(0, 3).join('; ')}${r.convicting.length > 3 ? ` and ${r.convicting.length - 3} more` : ''}`;
    return r.verdict;
}
/** The tasks an outcome sends back: those convicted, or the owners of a failure already on the base. */
function blamedBy(o) {
    return o.kind === 'tasks' ? o.tasks : o.kind === 'before' ? (o.owners?.tasks ?? []) : [];
}
/** One line for the overall reason and the plan comment. */
function describeOutcome(l) {
    const o = l.outcome;
    if (o.kind === 'before' && o.owners?.tasks.length)
        return `${l.criterion} fails before crew's changes: \`${l.command}\` fails the same way on the base branch, and ${o.owners.tests.join(', ')} ${o.owners.tests.length === 1 ? 'exercises' : 'exercise'} code in ${o.owners.tasks.join(', ')}'s files (${o.owners.code.join(', ')}): ${o.owners.tasks.length === 1 ? 'that task is' : 'those tasks are'} to fix it`;
    if (o.kind === 'before')
        return `${l.criterion} fails before crew's changes: \`${l.command}\` fails the same way on the base branch`;
    if (o.kind === 'tasks' && o.how === 'alone')
        return `${l.criterion} fails because of ${o.tasks.join(', ')}: \`${l.command}\` fails on ${o.tasks.length === 1 ? 'its branch' : 'their branches'} alone`;
    if (o.kind === 'tasks' && o.how === 'code')
        return `${l.criterion} fails because of ${o.tasks.join(', ')}: \`${l.command}\` fails on the branch of ${(o.shownBy ?? []).join(', ')}, which builds on it, in code ${o.tasks.join(', ')} wrote`;
    if (o.kind === 'tasks')
        return `${l.criterion} fails because of ${o.tasks.join(', ')}: without ${o.tasks.length === 1 ? 'it' : 'one of them'}, \`${l.command}\` passes`;
    return `${l.criterion}: crew could not tell which task makes \`${l.command}\` fail (${o.why})`;
}


/***/ }),

/***/ 30668:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Qe: () => (/* binding */ changesHowTestsRun),
  Ny: () => (/* binding */ findTampering),
  v8: () => (/* binding */ isRunnerConfigFile),
  hl: () => (/* binding */ isTestFile),
  Rk: () => (/* binding */ setupFilesNamedIn)
});

// UNUSED EXPORTS: LIFECYCLE_SCRIPTS

;// CONCATENATED MODULE: ./src/domain/hollow-tests.ts
/**
 * Hollow and constant tests (#18): a test case a change added or touched that asserts nothing,
 * or asserts only constants (`expect(1).toBe(1)`, `assert True`), passes whatever the code does.
 * Test cases are found per style in the whole file as the change left it: JavaScript and
 * TypeScript runners (`it`/`test` calls: vitest, jest, mocha, node:test), pytest and unittest
 * (`def test_…`), and Go's `testing` (`func TestX(t *testing.T)`). Heuristic, like the other
 * tamper checks: a test that asserts through a helper counts when the helper's name says so
 * (`check…`, `verify…`, `expect…`) or, in Go, when it is handed `t`.
 */
function testStyle(path) {
    if (/\.[cm]?[jt]sx?$/.test(path))
        return 'js';
    if (/\.py$/.test(path))
        return 'python';
    if (/_test\.go$/.test(path))
        return 'go';
    return undefined;
}
const lineAt = (text, index) => text.slice(0, index).split('\n').length;
/** The index just past the bracket that closes the one at `open`, skipping strings and comments; -1 when it never closes. */
function closing(text, open) {
    const pairs = { '(': ')', '{': '}', '[': ']' };
    const stack = [];
    for (let i = open; i < text.length; i++) {
        const c = text[i];
        if (c === '/' && text[i + 1] === '/')
            i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
        else if (c === '/' && text[i + 1] === '*')
            i = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 1;
        else if (c === '"' || c === "'" || c === '`') {
            for (i++; i < text.length && text[i] !== c; i++)
                if (text[i] === '\\')
                    i++;
        }
        else if (pairs[c])
            stack.push(pairs[c]);
        else if (c === stack.at(-1)) {
            stack.pop();
            if (!stack.length)
                return i + 1;
        }
    }
    return -1;
}
const JS_CASE = /(?<![\w.$])(?:it|test)(?:\.(?:concurrent|each\s*\([^)]*\)|only))?\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
const GO_CASE = /^func\s+(Test\w*)\s*\(\s*\w+\s+\*testing\.T\s*\)\s*\{/gm;
const PY_CASE = /^([ \t]*)(?:async\s+)?def\s+(test\w*)\s*\(/gm;
/** A test given as a function defined elsewhere (`it('adds', checkAdd)`): its body is not here to judge. */
const JS_REFERENCE = /^\s*,\s*[A-Za-z_$][\w$.]*\s*[,)]/;
/** The test function's first parameter (`t` of ava, tap and node:test), whose methods assert. */
const JS_PARAM = /^\s*,\s*(?:async\s*)?(?:function\s*\w*\s*)?\(?\s*([A-Za-z_$][\w$]*)/;
/** Python's triple quotes: lines inside such a string belong to the body whatever their indentation. */
const TRIPLE = /"{3}|'{3}/g;
function testCasesIn(path, text) {
    const style = testStyle(path);
    const out = [];
    if (style === 'js') {
        for (const m of text.matchAll(JS_CASE)) {
            // The call's own parenthesis: the one before the name (after `.each(…)`, if any).
            const open = text.lastIndexOf('(', m.index + m[0].length - m[2].length - 2);
            const end = closing(text, open);
            const afterName = m.index + m[0].length;
            const next = text.slice(afterName, afterName + 200);
            if (end < 0 || JS_REFERENCE.test(next))
                continue;
            const param = JS_PARAM.exec(next)?.[1];
            out.push({
                name: m[2],
                startLine: lineAt(text, m.index),
                endLine: lineAt(text, end - 1),
                body: text.slice(afterName, end),
                ...(param && !['done', 'async', 'function'].includes(param) ? { param } : {}),
            });
        }
    }
    else if (style === 'go') {
        for (const m of text.matchAll(GO_CASE)) {
            const open = m.index + m[0].length - 1;
            const end = closing(text, open);
            if (end < 0)
                continue;
            out.push({ name: m[1], startLine: lineAt(text, m.index), endLine: lineAt(text, end - 1), body: text.slice(open, end) });
        }
    }
    else if (style === 'python') {
        const lines = text.split('\n');
        for (const m of text.matchAll(PY_CASE)) {
            const start = lineAt(text, m.index);
            // A fixture named test_… is not a test.
            if (/@pytest\.fixture\b/.test(lines.slice(Math.max(0, start - 4), start - 1).join('\n')))
                continue;
            const indent = m[1].length;
            // The signature may span lines (black puts each parameter on its own): it ends at its bracket.
            const sigEnd = closing(text, m.index + m[0].length - 1);
            if (sigEnd < 0)
                continue;
            const bodyStart = lineAt(text, sigEnd - 1);
            let end = bodyStart;
            let inString;
            // The body: every following line indented deeper, blank, or inside a triple-quoted string.
            for (let n = bodyStart; n < lines.length; n++) {
                const l = lines[n];
                const wasInString = inString;
                for (const q of l.match(TRIPLE) ?? [])
                    inString = inString === q ? undefined : (inString ?? q);
                if (!wasInString) {
                    if (l.trim() === '')
                        continue;
                    if (l.length - l.trimStart().length <= indent)
                        break;
                }
                end = n + 1;
            }
            out.push({
                name: m[2],
                startLine: start,
                endLine: end,
                body: lines
                    .slice(bodyStart - 1, end)
                    .join('\n')
                    .slice(sigEnd - (text.lastIndexOf('\n', sigEnd - 1) + 1)),
            });
        }
    }
    return out;
}
/** Calls that assert, in each style: call syntax, so `const expected = 1` or the word in a name is not one. */
const ASSERTS = {
    js: /\b(?:expect\w*|assert\w*)\s*[.(]|\.should\b|\b(?:check|verify|ensure)\w*\s*\(|\bfail\s*\(|\b(?:screen\.)?(?:get|getAll|find|findAll)By\w+\s*\(/,
    python: /^\s*assert\b|\bself\.(?:assert\w+|fail)\s*\(|\bpytest\.(?:raises|warns|fail)\b|\b(?:assert|check|verify)_?\w*\s*\(/m,
    go: /\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow|Run)\b|\b(?:assert|require)\.\w+|\b(?:check|verify|expect)\w*\s*\(|\(\s*t\s*[,)]/,
};
const LIT = String.raw `(?:-?\d+(?:\.\d+)?|true|false|True|False|null|undefined|None|nil|'[^'\n]*'|"[^"\n]*")`;
/** An assertion on literals alone, matched from where the assertion starts to the end of its line. */
const END = String.raw `[\s;)}\]]*$`;
const CONSTANT = {
    js: new RegExp(String.raw `^(?:expect\(\s*${LIT}\s*\)(?:\.not)?\.\w+\(\s*(?:${LIT})?\s*\)|assert(?:\.\w+)?\(\s*${LIT}(?:\s*,\s*${LIT})*\s*\))${END}`),
    python: new RegExp(String.raw `^(?:assert\s+${LIT}(?:\s*(?:==|!=|is not|is)\s*${LIT})?(?:\s*,.*)?|self\.assert\w+\(\s*${LIT}(?:\s*,\s*${LIT})*\s*\))${END}`),
    go: new RegExp(String.raw `^(?:assert|require)\.\w+\(\s*t\s*,\s*${LIT}(?:\s*,\s*${LIT})*\s*\)${END}`),
};
const COMMENT = { js: /\/\/[^\n]*|\/\*[\s\S]*?\*\//g, go: /\/\/[^\n]*|\/\*[\s\S]*?\*\//g, python: /#[^\n]*/g };
/** String contents blanked, keeping their length so positions hold: a word inside a string is not a call. */
const blankStrings = (code) => code.replace(/(['"])((?:\\.|(?!\1)[^\\\n])*)\1/g, (_m, q, inner) => `${q}${' '.repeat(inner.length)}${q}`);
/** Whether a test case checks nothing, or only constants; undefined when it asserts on something real. */
function hollowness(style, body, param) {
    const code = body.replace(COMMENT[style], '');
    const scan = blankStrings(code);
    const asserts = param ? new RegExp(`${ASSERTS[style].source}|\\b${param.replace(/\$/g, '\\$')}\\.\\w+\\s*\\(`, ASSERTS[style].flags) : ASSERTS[style];
    if (!asserts.test(scan))
        return 'no-assertion';
    const codeLines = code.split('\n');
    const asserting = scan
        .split('\n')
        .map((l, n) => {
        const at = l.search(asserts);
        return at < 0 ? undefined : codeLines[n].slice(at).trim();
    })
        .filter((l) => l !== undefined);
    if (asserting.every((l) => CONSTANT[style].test(l)))
        return 'constant-only';
    return undefined;
}
/** Whether the file's `beforeEach`/`afterEach` hooks assert: then every test in it may be checked there. */
function hooksAssert(path, text) {
    if (testStyle(path) !== 'js')
        return false;
    for (const m of text.matchAll(/\b(?:beforeEach|afterEach)\s*\(/g)) {
        const end = closing(text, m.index + m[0].length - 1);
        if (end > 0 && ASSERTS.js.test(blankStrings(text.slice(m.index, end))))
            return true;
    }
    return false;
}

;// CONCATENATED MODULE: ./src/domain/tamper.ts

const TEST_PATH = [
    /(^|\/)(tests?|__tests__|specs?)\//i,
    /\.(test|spec)\.[cm]?[jt]sx?$/i,
    /(^|\/)test_[^/]+\.py$/i,
    /_test\.(py|go|rb|exs?)$/i,
    /_spec\.rb$/i,
    /Tests?\.(java|kt|cs|swift)$/,
];
function isTestFile(path) {
    return TEST_PATH.some((re) => re.test(path));
}
const SKIP = [
    /\b(?:it|test|describe|context|suite)\.(?:skip|todo|only)\s*\(/,
    /\bx(?:it|test|describe|context)\s*\(/,
    /@pytest\.mark\.(?:skip|skipif|xfail)\b/,
    /@unittest\.(?:skip|skipIf|skipUnless|expectedFailure)\b/,
    /\bpytest\.skip\s*\(/,
    /\bt\.Skip(?:Now|f)?\s*\(/,
    /#\[ignore\]/,
    /@(?:Disabled|Ignore)\b/,
];
const ASSERTION = /\b(?:expect|assert\w*|should|t\.(?:Error|Errorf|Fatal|Fatalf)|require\.\w+|XCTAssert\w*)\b/;
const WEAK = /\.(?:toBeTruthy|toBeDefined|toBeUndefined|toBeFalsy)\(\s*\)|expect\.anything\(\)|\bassert\s+True\b|\bassert\(\s*true\s*\)|assertTrue\(\s*true\s*\)/;
/** Matchers that pin a value exactly, and looser ones that accept more (a swap from the first to the second weakens a test). */
const EXACT = /\.(?:toStrictEqual|toEqual|toBe|toHaveLength|toBeNull|toHaveBeenCalledWith|toHaveBeenCalledTimes)\(|\.toThrow\(\s*[^)\s]|\bassert(?:Equal|Equals|StrictEqual|DeepStrictEqual|DeepEqual|Is|IsNone|Count|ListEqual|DictEqual)\b|\bassert\.(?:equal|strictEqual|deepStrictEqual|deepEqual)\(|\bassert\s+\S.*==/;
const LOOSE = /\.(?:toMatchObject|toContain|toContainEqual|toMatch|toBeGreaterThan|toBeGreaterThanOrEqual|toBeLessThan|toBeLessThanOrEqual|toBeCloseTo|toHaveBeenCalled)\(|\.toThrow\(\s*\)|\bexpect\.(?:objectContaining|arrayContaining|stringContaining|stringMatching|any)\(|\bassert(?:In|IsNotNone|Greater|GreaterEqual|Less|LessEqual|AlmostEqual|Regex|IsInstance)\b|\bassert\.(?:ok|match|notEqual)\(/;
/** Test-runner configuration: a change there decides which tests run at all. */
const RUNNER_CONFIG = /(^|\/)(?:(?:vitest|vite|jest|playwright|karma|cypress|ava)\.config\.[cm]?[jt]s|jest\.config\.json|\.mocharc\.\w+|pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|phpunit\.xml(?:\.dist)?|package\.json)$/;
/** Code the runner loads around every test, by convention: pytest's conftest.py and the usual setup file names. */
const RUNNER_CODE = /(^|\/)(?:conftest\.py|(?:vitest|jest|test|tests)\.setup\.[cm]?[jt]sx?|setup-?tests?\.[cm]?[jt]sx?|global-?(?:setup|teardown)\.[cm]?[jt]sx?)$/i;
/** Settings that leave tests out, or let a run with no tests pass. */
const NARROWING = /\b(?:exclude|testPathIgnorePatterns|modulePathIgnorePatterns|testIgnore|ignorePatterns|passWithNoTests|onlyChanged)\b|--ignore(?:-glob)?\b|--deselect\b|(?:^|\s)-k\s/;
/** Settings that name code the runner loads before the tests: it can decide what every test sees. */
const SETUP_KEYS = /\b(?:setupFiles|setupFilesAfterEnv|globalSetup|globalTeardown)\b/;
/** In runner code: hooks that drop tests or rewrite their outcome, and replacements of the test functions themselves. */
const RUNNER_HOOKS = /\b(?:collect_ignore(?:_glob)?|pytest_collection_modifyitems|pytest_ignore_collect|pytest_deselected|pytest_runtest_(?:setup|call|makereport)|pytest_runtest_protocol|pytest_sessionfinish|exitstatus)\b|\b(?:globalThis|global|window)\s*\.\s*(?:expect|it|test|describe|assert)\s*=|^\s*(?:expect|it|test|describe|assert)\s*=[^=]|\b(?:process\.exit|os\._exit|sys\.exit)\s*\(/;
/** The test script in package.json: `npm test` is what command criteria usually run. */
const TEST_SCRIPT = /^\s*"test"\s*:\s*"((?:[^"\\]|\\.)*)"/;
/**
 * npm's lifecycle scripts (docs.npmjs.com, "Scripts" › "Life Cycle Scripts" and "Life Cycle
 * Operation Order"): npm runs them by itself on install, ci, pack, publish, test, … on every
 * machine that installs or tests the package, people's and CI's alike.
 */
const LIFECYCLE_SCRIPTS = [
    'preinstall',
    'install',
    'postinstall',
    'preuninstall',
    'uninstall',
    'postuninstall',
    'prepublish',
    'preprepare',
    'prepare',
    'postprepare',
    'prepublishOnly',
    'prepack',
    'postpack',
    'publish',
    'postpublish',
    'prerestart',
    'restart',
    'postrestart',
    'prestart',
    'poststart',
    'prestop',
    'stop',
    'poststop',
    'pretest',
    'posttest',
    'preversion',
    'version',
    'postversion',
    'dependencies',
];
const LIFECYCLE_LINE = new RegExp(`^\\s*"(${LIFECYCLE_SCRIPTS.join('|')})"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`);
const quote = (s) => `\`${s.trim().slice(0, 160)}\``;
/** The `scripts` of a package.json, or undefined when it is not JSON with a scripts object. */
function scriptsOf(text) {
    if (text === undefined)
        return {};
    try {
        const scripts = JSON.parse(text).scripts;
        if (scripts === undefined)
            return {};
        if (!scripts || typeof scripts !== 'object' || Array.isArray(scripts))
            return undefined;
        return Object.fromEntries(Object.entries(scripts).filter(([, v]) => typeof v === 'string'));
    }
    catch {
        return undefined;
    }
}
/**
 * Lifecycle scripts a package.json adds or changes. Read from the whole file before and after when
 * the critic has it (a dependency named `install` is not a script); else from the diff's lines.
 */
function lifecycleFindings(f, whole) {
    const lineOf = (name) => f.added.find((l) => LIFECYCLE_LINE.exec(l.text)?.[1] === name)?.line;
    const finding = (name, was, now) => {
        const line = lineOf(name);
        const where = line ? `${f.path}:${line}` : f.path;
        const what = was === undefined ? `adds the \`${name}\` script ${quote(now)}` : `changes the \`${name}\` script from ${quote(was)} to ${quote(now)}`;
        return {
            rule: 'lifecycle-script-changed',
            file: f.path,
            ...(line ? { line } : {}),
            evidence: `${where} ${what}, which npm runs by itself (on install, test, pack or publish): look at it before merging`,
        };
    };
    const before = whole ? scriptsOf(whole.before) : undefined;
    const after = whole ? scriptsOf(whole.after) : undefined;
    if (before && after) {
        return LIFECYCLE_SCRIPTS.filter((n) => after[n] !== undefined && after[n] !== before[n]).map((n) => finding(n, before[n], after[n]));
    }
    const was = new Map(f.removed
        .map((l) => LIFECYCLE_LINE.exec(l.text))
        .filter((m) => m !== null)
        .map((m) => [m[1], m[2]]));
    const out = [];
    for (const l of f.added) {
        const m = LIFECYCLE_LINE.exec(l.text);
        if (m && was.get(m[1]) !== m[2])
            out.push(finding(m[1], was.get(m[1]), m[2]));
    }
    return out;
}
/** Any change to a `.gitattributes`: it decides how git shows, converts and merges files, so it can hide a change from review. */
function attributesFinding(f) {
    const lines = f.added.length ? f.added : f.removed;
    const sample = lines
        .slice(0, 3)
        .map((l) => quote(l.text))
        .join(', ');
    const verb = f.status === 'deleted' ? 'deletes' : f.status === 'added' ? 'adds' : 'changes';
    return {
        rule: 'git-attributes-changed',
        file: f.path,
        ...(f.added[0] ? { line: f.added[0].line } : {}),
        evidence: `${f.added[0] ? `${f.path}:${f.added[0].line}` : f.path} ${verb} git attributes${sample ? ` (${f.added.length ? 'now' : 'removed'}: ${sample})` : ''}; they decide how git shows and converts files (\`-diff\` shows a change as "Binary files differ"), so no task may change them`,
    };
}
/** Changes to how the tests are run, rather than to the tests: the test script, the runner's exclusions, setup files and runner code. */
function runnerFindings(f, context) {
    const out = [];
    if (/(^|\/)package\.json$/.test(f.path)) {
        const before = f.removed.map((l) => TEST_SCRIPT.exec(l.text)?.[1]).find((v) => v !== undefined);
        const after = f.added.map((l) => ({ l, v: TEST_SCRIPT.exec(l.text)?.[1] })).find((x) => x.v !== undefined);
        if (before !== undefined && before !== after?.v) {
            out.push({
                rule: 'test-command-changed',
                file: f.path,
                ...(after ? { line: after.l.line } : {}),
                evidence: after
                    ? `${f.path}:${after.l.line} changes the test script from ${quote(before)} to ${quote(after.v)}`
                    : `${f.path} removes the test script ${quote(before)}`,
            });
        }
        out.push(...lifecycleFindings(f, context.packageJson?.[f.path]));
    }
    if (RUNNER_CONFIG.test(f.path)) {
        for (const l of f.added) {
            if (NARROWING.test(l.text) && !TEST_SCRIPT.test(l.text))
                out.push({ rule: 'runner-config-weakened', file: f.path, line: l.line, evidence: `${f.path}:${l.line} changes which tests run: ${quote(l.text)}` });
            else if (SETUP_KEYS.test(l.text))
                out.push({
                    rule: 'runner-config-weakened',
                    file: f.path,
                    line: l.line,
                    evidence: `${f.path}:${l.line} changes the code the runner loads before the tests: ${quote(l.text)}`,
                });
        }
        for (const l of f.removed) {
            if (SETUP_KEYS.test(l.text) && !f.added.some((a) => a.text.trim() === l.text.trim()))
                out.push({
                    rule: 'runner-config-weakened',
                    file: f.path,
                    line: l.line,
                    evidence: `${f.path} no longer has the runner setting on its former line ${l.line}: ${quote(l.text)}`,
                });
        }
    }
    if (isRunnerCode(f.path, context)) {
        for (const l of f.added) {
            if (RUNNER_HOOKS.test(l.text) || NARROWING.test(l.text) || SKIP.some((re) => re.test(l.text))) {
                out.push({
                    rule: 'runner-config-weakened',
                    file: f.path,
                    line: l.line,
                    evidence: `${f.path}:${l.line} is runner code loaded around every test, and this line changes which tests run or how they end: ${quote(l.text)}`,
                });
            }
        }
    }
    return out;
}
/** Whether a path is configuration or code that decides how tests run (for a diff git could not show as text). */
const isRunnerFile = (path, context) => RUNNER_CONFIG.test(path) || isRunnerCode(path, context) || isAttributesFile(path);
/** conftest.py, a conventionally named setup file, or one the configuration names (which may leave out the extension). */
const isRunnerCode = (path, context) => RUNNER_CODE.test(path) || !!context.setupFiles?.some((s) => s === path || s === path.replace(/\.[^./]+$/, ''));
const isAttributesFile = (path) => /(^|\/)\.gitattributes$/.test(path);
function findTampering(files, context = {}) {
    const out = [];
    for (const f of files) {
        if (isAttributesFile(f.path))
            out.push(attributesFinding(f));
        if (f.binary) {
            // crew reads diffs with --text; a file still shown as binary is one the checks could not read.
            if (isTestFile(f.path) || isRunnerFile(f.path, context))
                out.push({
                    rule: 'diff-unreadable',
                    file: f.path,
                    evidence: `the change to ${f.path} could not be read as text ("Binary files differ"), so the test-tampering checks cannot vouch for it`,
                });
            continue;
        }
        out.push(...runnerFindings(f, context));
        out.push(...reportFindings(f));
        if (!isTestFile(f.path))
            continue;
        if (f.status === 'deleted') {
            out.push({ rule: 'deleted-test', file: f.path, evidence: `the test file ${f.path} was deleted (${f.removed.length} lines)` });
            continue;
        }
        const whole = context.testFiles?.[f.path];
        if (whole !== undefined)
            out.push(...hollowTests(f, whole, context.testFilesBefore?.[f.path]));
        for (const l of f.added) {
            if (SKIP.some((re) => re.test(l.text)))
                out.push({ rule: 'skipped-test', file: f.path, line: l.line, evidence: `${f.path}:${l.line} skips or narrows tests: ${quote(l.text)}` });
        }
        const removedAsserts = f.removed.filter((l) => ASSERTION.test(l.text));
        const addedAsserts = f.added.filter((l) => ASSERTION.test(l.text));
        const strongAdded = addedAsserts.filter((l) => !WEAK.test(l.text));
        const strongRemoved = removedAsserts.filter((l) => !WEAK.test(l.text));
        if (strongRemoved.length > strongAdded.length) {
            const lost = strongRemoved.length - strongAdded.length;
            const sample = strongRemoved
                .slice(0, 3)
                .map((l) => `${f.path}:${l.line} ${quote(l.text)}`)
                .join('; ');
            const weakened = addedAsserts.length > strongAdded.length ? `, ${addedAsserts.length - strongAdded.length} replaced by a weaker check` : '';
            out.push({
                rule: 'weakened-assertions',
                file: f.path,
                line: strongRemoved[0].line,
                evidence: `${lost} assertion(s) fewer in ${f.path}${weakened}; removed: ${sample}`,
            });
        }
        else {
            // As many assertions as before, but exact matchers swapped for ones that accept more.
            const exactLost = f.removed.filter((l) => EXACT.test(l.text)).length - f.added.filter((l) => EXACT.test(l.text)).length;
            const looseGained = f.added.filter((l) => LOOSE.test(l.text)).length - f.removed.filter((l) => LOOSE.test(l.text)).length;
            if (exactLost > 0 && looseGained > 0) {
                const was = f.removed.find((l) => EXACT.test(l.text));
                const now = f.added.find((l) => LOOSE.test(l.text));
                out.push({
                    rule: 'loosened-matcher',
                    file: f.path,
                    line: now.line,
                    evidence: `${f.path}:${now.line} checks less than before: ${quote(was.text)} became ${quote(now.text)}`,
                });
            }
        }
    }
    return out;
}
/**
 * Test cases the change added or touched that assert nothing, or only constants. A case that was
 * already so before the change (same name, same verdict) is not the change's doing; with a
 * `beforeEach`/`afterEach` that asserts, a case without assertions of its own may still be checked.
 */
function hollowTests(f, whole, before) {
    const style = testStyle(f.path);
    if (!style)
        return [];
    const hooks = hooksAssert(f.path, whole);
    const touched = new Set(f.added.map((l) => l.line));
    const earlier = new Map((before === undefined ? [] : testCasesIn(f.path, before)).map((c) => [c.name, hollowness(style, c.body, c.param)]));
    return testCasesIn(f.path, whole)
        .filter((c) => f.status === 'added' || [...touched].some((n) => n >= c.startLine && n <= c.endLine))
        .flatMap((c) => {
        const kind = hollowness(style, c.body, c.param);
        if (!kind || (kind === 'no-assertion' && hooks) || (earlier.has(c.name) && earlier.get(c.name) === kind))
            return [];
        const what = kind === 'no-assertion' ? 'asserts nothing' : 'asserts only constants';
        return [
            {
                rule: 'hollow-test',
                file: f.path,
                line: c.startLine,
                evidence: `${f.path}:${c.startLine} the test ${quote(c.name)} ${what}, so it passes whatever the code does`,
            },
        ];
    });
}
/** crew's own names for the test report route (sandbox/test-reports): nothing in a repository has a reason to name them. */
const CREW_REPORT_NAMES = /\bCREW_TEST_REPORT_DIR\b|crew-test-(?:reports|hooks)|crew-(?:node-reporter|node-preload|mocha-reporter|go-exec|cargo-runner)\b/;
/** The variables that carry the route to each runner: a test or the code a runner loads that reads them is looking for the report. */
const REPORT_ROUTES = /\b(?:PYTEST_ADDOPTS|NODE_OPTIONS|GOFLAGS|CARGO_TARGET_\w+_RUNNER)\b|\bjunit_?xml\b|\bxmlpath\b|\/proc\/[^\s'"]*\/environ\b/;
/**
 * A change that goes after the test report (#32): one that names crew's report folder or hooks anywhere, or,
 * in a test or code the runner loads, reads the variables that route the reports (or another process's
 * environment). The report itself is judged by the runs; this says where the change reached for it.
 */
function reportFindings(f) {
    const out = [];
    const runnerCode = isTestFile(f.path) || RUNNER_CODE.test(f.path);
    for (const l of f.added) {
        if (CREW_REPORT_NAMES.test(l.text) || (runnerCode && REPORT_ROUTES.test(l.text)))
            out.push({
                rule: 'test-report-tampering',
                file: f.path,
                line: l.line,
                evidence: `${f.path}:${l.line} reaches for the test report crew reads (its folder, or the variable that routes a runner's report there): ${quote(l.text)}`,
            });
    }
    return out.slice(0, 5);
}
/** Files that decide which tests run and how (runner configuration, code the runner loads, build files that run the tests). */
function changesHowTestsRun(path) {
    return (isRunnerConfigFile(path) ||
        RUNNER_CODE.test(path) ||
        /(^|\/)(?:Makefile|GNUmakefile|noxfile\.py|Cargo\.toml|go\.mod|\.cargo\/config(?:\.toml)?)$/.test(path));
}
/** Runner configuration files worth reading whole at the head, to learn which setup files it loads. */
function isRunnerConfigFile(path) {
    return RUNNER_CONFIG.test(path) && !/(^|\/)node_modules\//.test(path);
}
/**
 * The setup files a runner configuration names (vitest and jest `setupFiles`, `setupFilesAfterEnv`,
 * `globalSetup`, `globalTeardown`), as repository paths. A heuristic read of the text: a string or a
 * list of strings after the key, relative to the configuration's folder (`<rootDir>` too).
 */
function setupFilesNamedIn(configPath, text) {
    const folder = configPath.includes('/') ? configPath.slice(0, configPath.lastIndexOf('/') + 1) : '';
    const out = new Set();
    const key = /["']?\b(?:setupFiles|setupFilesAfterEnv|globalSetup|globalTeardown)\b["']?\s*:\s*(\[[^\]]*\]|"[^"]*"|'[^']*'|`[^`]*`)/g;
    for (const m of text.matchAll(key)) {
        for (const s of m[1].matchAll(/["'`]([^"'`]+)["'`]/g)) {
            const raw = s[1].replace(/^<rootDir>\//, '');
            // An absolute path is outside the repository; a bare name without an extension is a package (`jest-extended/all`).
            const looksLikeFile = raw.startsWith('.') || /\.(?:[cm]?[jt]sx?|py)$/.test(raw);
            if (raw.startsWith('/') || !looksLikeFile)
                continue;
            const parts = [];
            for (const seg of `${folder}${raw}`.split('/')) {
                if (seg === '' || seg === '.')
                    continue;
                if (seg === '..')
                    parts.pop();
                else
                    parts.push(seg);
            }
            if (parts.length)
                out.add(parts.join('/'));
        }
    }
    return [...out];
}


/***/ }),

/***/ 83209:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Uk: () => (/* binding */ describeLost),
/* harmony export */   WN: () => (/* binding */ countsText),
/* harmony export */   ZN: () => (/* binding */ testFindings),
/* harmony export */   ct: () => (/* binding */ account)
/* harmony export */ });
/* unused harmony exports LIST_LIMIT, lineInDiff, summaryLine */
/* harmony import */ var _compare__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(94753);
/* harmony import */ var _types__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(30087);


/** The most tests any list names (the counts are whole): a judgment stays readable and small. */
const LIST_LIMIT = 50;
/** A line of the diff that names the test (or else its innermost suite): where the change shows it. */
function lineInDiff(files, t) {
    const f = files.find((x) => x.path === t.file);
    if (!f)
        return undefined;
    const names = [t.name, ...[...t.suite].reverse()].filter((n) => n.length >= 3);
    for (const name of names) {
        const added = f.added.find((l) => l.text.includes(name));
        if (added)
            return { line: added.line, on: 'head' };
        const removed = f.removed.find((l) => l.text.includes(name));
        if (removed)
            return { line: removed.line, on: 'base' };
    }
    return undefined;
}
/**
 * The head compared with the base for one criterion. `flaky`: identities of lost-by-failing tests that passed
 * when the head was run again. `baseTree`: what the critic knows of the base's tree (whether it holds a test
 * file; the files the change added), to tell a base with no test at all from one whose tests went unread.
 */
function account(criterion, base, head, opts = {}) {
    const empty = {
        criterion: criterion.id,
        command: criterion.command,
        lost: [],
        fixed: [],
        flaky: [],
        renamed: [],
        missingReports: [],
        newPassing: [],
        changes: [],
    };
    if (head.kind === 'unreadable')
        return { ...empty, state: 'unreadable', why: `the head's report is unreadable: ${head.why}` };
    if (base.kind === 'unreadable')
        return { ...empty, state: 'unreadable', why: `the base's report is unreadable: ${base.why}` };
    // A base whose tests cannot be read while the head's can hides every test the head lost: never "nothing lost" (#46).
    // Only a base with no test file, where the head reports tests of files the change added alone, had none to lose.
    const baseHadNone = opts.baseTree && !opts.baseTree.hasTestFile && head.kind === 'known' && head.tests.every((t) => opts.baseTree.added.has(t.file));
    if (base.kind === 'unknown' && head.kind === 'known' && !baseHadNone)
        return {
            ...empty,
            state: 'unreadable',
            why: `the base's tests could not be read (${base.why}), though the head's were: crew cannot tell whether a test that passed on the base is lost`,
        };
    if (base.kind === 'unknown')
        return { ...empty, state: 'unknown', why: `on the base, ${base.why}` };
    if (head.kind === 'unknown')
        return { ...empty, state: 'missing', missingReports: base.runners, why: `on the head, ${head.why}` };
    const missingReports = base.runners.filter((r) => !head.runners.includes(r));
    // A runner whose whole report is missing is one finding, not one per test it ran.
    const changes = (0,_compare__WEBPACK_IMPORTED_MODULE_0__/* .compare */ .UD)(base.tests.filter((t) => !missingReports.includes(t.runner)), head.tests);
    const flakyKeys = opts.flaky ?? new Set();
    const isFlaky = (c) => c.kind === 'lost' && c.after === 'failed' && flakyKeys.has((0,_types__WEBPACK_IMPORTED_MODULE_1__/* .testKey */ .S8)(c.test));
    const lost = changes.filter((c) => c.kind === 'lost' && !isFlaky(c));
    const fixed = changes.filter((c) => c.kind === 'fail-to-pass');
    const newPassing = changes.filter((c) => c.kind === 'fail-to-pass' && c.before === 'missing');
    const flaky = changes.filter(isFlaky);
    const count = (k) => changes.filter((c) => c.kind === k).length;
    const counts = {
        passed: changes.filter((c) => c.after === 'passed').length,
        fixed: fixed.length,
        lost: lost.length,
        failing: changes.filter((c) => c.after === 'failed').length,
        failingAsBefore: count('still-failing'),
        skippedAsBefore: count('skipped-as-before'),
        skippedNew: count('skipped-new'),
        flaky: flaky.length,
    };
    return {
        ...empty,
        state: missingReports.length ? 'missing' : 'compared',
        ...(missingReports.length
            ? { why: `on the head, ${missingReports.join(', ')} wrote no report, though ${missingReports.length === 1 ? 'it' : 'they'} did on the base` }
            : {}),
        counts,
        missingReports,
        lost: lost.slice(0, LIST_LIMIT).map((c) => {
            const at = opts.diff ? lineInDiff(opts.diff, c.test) : undefined;
            return { test: (0,_types__WEBPACK_IMPORTED_MODULE_1__/* .describeTest */ .Ww)(c.test), file: c.test.file, now: c.after, ...(at ? { line: at.line, lineOn: at.on } : {}) };
        }),
        fixed: fixed.slice(0, LIST_LIMIT).map((c) => (0,_types__WEBPACK_IMPORTED_MODULE_1__/* .describeTest */ .Ww)(c.test)),
        flaky: flaky.slice(0, LIST_LIMIT).map((c) => (0,_types__WEBPACK_IMPORTED_MODULE_1__/* .describeTest */ .Ww)(c.test)),
        newPassing: newPassing.slice(0, LIST_LIMIT).map((c) => (0,_types__WEBPACK_IMPORTED_MODULE_1__/* .describeTest */ .Ww)(c.test)),
        ...(lost.length > LIST_LIMIT || fixed.length > LIST_LIMIT || newPassing.length > LIST_LIMIT
            ? {
                more: {
                    lost: Math.max(0, lost.length - LIST_LIMIT),
                    fixed: Math.max(0, fixed.length - LIST_LIMIT),
                    newPassing: Math.max(0, newPassing.length - LIST_LIMIT),
                },
            }
            : {}),
        changes,
    };
}
/** A criterion's counts in words: "124 passed, 3 fixed, 0 lost, 2 skipped as on the base" (or why there are none). */
function countsText(a) {
    if (a.state === 'unknown')
        return `test identities unknown (${a.why})`;
    if (a.state === 'unreadable')
        return `undecided: ${a.why}`;
    const c = a.counts;
    if (!c)
        return a.why ?? '';
    const parts = [`${c.passed} passed`, `${c.fixed} fixed`, `${c.lost} lost`];
    if (a.renamed.length)
        parts.push(`${a.renamed.length} renamed`);
    if (c.failing)
        parts.push(`${c.failing} failing${c.failingAsBefore ? ` (${c.failingAsBefore} as on the base)` : ''}`);
    if (c.skippedAsBefore || !c.skippedNew)
        parts.push(`${c.skippedAsBefore} skipped as on the base`);
    if (c.skippedNew)
        parts.push(`${c.skippedNew} newly skipped`);
    if (c.flaky)
        parts.push(`${c.flaky} flaky`);
    return `${parts.join(', ')}${a.state === 'missing' ? `; ${a.why}` : ''}`;
}
/** One line per criterion, for logs and the model: "`npm test`: 124 passed, 3 fixed, 0 lost, 2 skipped as on the base". */
function summaryLine(a) {
    return `\`${a.command.replace(/`/g, "'")}\`: ${countsText(a)}`;
}
/** A lost test in words: "test/a.test.js › sum › adds passed on the base and is missing on the head (it did not run)". */
function describeLost(l) {
    const now = l.now === 'missing' ? 'missing on the head (it did not run)' : l.now === 'skipped' ? 'skipped on the head' : 'failing on the head';
    return `${l.test} passed on the base and is ${now}`;
}
/** What the critic's adversarial findings hold for a criterion's tests: each lost test, and each runner whose report went missing. */
function testFindings(a) {
    const renamed = new Set(a.renamed.map((r) => r.from));
    const cmd = `\`${a.command.replace(/`/g, "'")}\``;
    const out = a.lost
        .filter((l) => !renamed.has(l.test))
        .map((l) => ({
        rule: 'lost-test',
        evidence: `${cmd}: ${describeLost(l)}${l.line && l.lineOn === 'base' ? ` (the change removed line ${l.line} of the base's ${l.file}, which names it)` : ''}`,
        file: l.file,
        ...(l.line && l.lineOn === 'head' ? { line: l.line } : {}),
    }));
    if (a.more?.lost)
        out.push({ rule: 'lost-test', evidence: `${cmd}: ${a.more.lost} more tests that passed on the base do not pass on the head` });
    for (const r of a.missingReports)
        out.push({
            rule: 'test-report-missing',
            evidence: `${cmd} wrote no ${r} report on the head, though it did on the base: the change keeps the runner, or its report, from running, so crew cannot see which tests ran`,
        });
    return out;
}


/***/ }),

/***/ 94753:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $Q: () => (/* binding */ failingKeys),
/* harmony export */   UD: () => (/* binding */ compare)
/* harmony export */ });
/* unused harmony exports changeKind, failToPass, passToPass, lostTests */
/* harmony import */ var _types__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(30087);

function changeKind(before, after) {
    if (after === 'passed')
        return before === 'passed' ? 'pass-to-pass' : before === 'skipped' ? 'skip-to-pass' : 'fail-to-pass';
    if (before === 'passed')
        return 'lost';
    if (after === 'failed')
        return before === 'failed' ? 'still-failing' : 'new-failing';
    if (after === 'skipped')
        return before === 'skipped' ? 'skipped-as-before' : 'skipped-new';
    return 'gone';
}
const RANK = { passed: 0, skipped: 1, failed: 2 };
/**
 * Every test of the base and the head, paired by identity. Duplicate identities are counted, not
 * merged: the n-th of a name on the base is paired with the n-th on the head, passes with passes
 * first (duplicates cannot be told apart, so no pairing can be more right than that).
 */
function compare(base, head) {
    const group = (tests) => {
        const m = new Map();
        for (const t of tests) {
            const k = (0,_types__WEBPACK_IMPORTED_MODULE_0__/* .testKey */ .S8)(t);
            const list = m.get(k) ?? [];
            list.push(t);
            m.set(k, list);
        }
        for (const list of m.values())
            list.sort((a, b) => RANK[a.outcome] - RANK[b.outcome]);
        return m;
    };
    const before = group(base);
    const after = group(head);
    const out = [];
    for (const key of new Set([...after.keys(), ...before.keys()])) {
        const b = before.get(key) ?? [];
        const a = after.get(key) ?? [];
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
            const was = b[i]?.outcome ?? 'missing';
            const now = a[i]?.outcome ?? 'missing';
            out.push({ test: a[i] ?? b[i], before: was, after: now, kind: changeKind(was, now) });
        }
    }
    return out;
}
/** SWE-bench's FAIL_TO_PASS: the changes whose test fails (or does not exist) before and passes after. */
const failToPass = (changes) => changes.filter((c) => c.kind === 'fail-to-pass');
/** SWE-bench's PASS_TO_PASS: the changes whose test passes before and after. */
const passToPass = (changes) => changes.filter((c) => c.kind === 'pass-to-pass');
/** The tests that passed on the base and do not pass on the head. */
const lostTests = (changes) => changes.filter((c) => c.kind === 'lost');
/** The identities that failed in a run, each once: what localisation compares a branch's run with the base's by. */
function failingKeys(tests) {
    return new Set(tests.filter((t) => t.outcome === 'failed').map(_types__WEBPACK_IMPORTED_MODULE_0__/* .testKey */ .S8));
}


/***/ }),

/***/ 30087:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ir: () => (/* binding */ RUNNERS),
/* harmony export */   Lq: () => (/* binding */ testOfKey),
/* harmony export */   S8: () => (/* binding */ testKey),
/* harmony export */   Ww: () => (/* binding */ describeTest)
/* harmony export */ });
/**
 * Test results as data (#32): which tests a command ran and how each ended, read from the
 * runner's own machine-readable report, never from what it printed. A test is known by its
 * identity (file, suite path, name), which stays the same from run to run; its position does not.
 */
/** The runners crew reads reports from (sandbox/test-reports says how each is asked for one). */
const RUNNERS = ['node', 'vitest', 'jest', 'mocha', 'pytest', 'unittest', 'go', 'cargo'];
/** A test's identity as one string: equal exactly when file, suite path and name are. */
const testKey = (t) => JSON.stringify([t.file, ...t.suite, t.name]);
/** The identity a testKey stands for. */
function testOfKey(key) {
    const parts = JSON.parse(key);
    return { file: parts[0] ?? '', suite: parts.slice(1, -1), name: parts.length > 1 ? parts[parts.length - 1] : '' };
}
/** How a test is named to people and to the critic model: `test/sum.test.js › sum › adds negatives`. */
function describeTest(t) {
    const parts = [...t.suite, t.name || '(the file itself)'];
    return [t.file, ...parts].filter((p) => p !== '').join(' › ');
}


/***/ }),

/***/ 56076:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   B1: () => (/* binding */ renderReport),
/* harmony export */   Gn: () => (/* binding */ renderPullBody),
/* harmony export */   ZM: () => (/* binding */ renderReportSummary),
/* harmony export */   Zm: () => (/* binding */ renderJudgment),
/* harmony export */   lO: () => (/* binding */ reportMarker),
/* harmony export */   qO: () => (/* binding */ replaceMergeSection)
/* harmony export */ });
/* unused harmony exports refusedLines, renderTests, renderLocalisation, renderMergeSection */
/* harmony import */ var _domain_criteria__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(83543);
/* harmony import */ var _budget_stop__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(35720);
/* harmony import */ var _domain_egress__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(30061);
/* harmony import */ var _domain_judgment__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(7882);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(65534);
/* harmony import */ var _domain_follow_up__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(75933);
/* harmony import */ var _domain_localisation__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(34406);
/* harmony import */ var _domain_test_results_accounting__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(83209);
/* harmony import */ var _domain_surface__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(45759);
/* harmony import */ var _text_inert__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(68983);
/* harmony import */ var _cost__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(25659);
/* harmony import */ var _text_markdown__WEBPACK_IMPORTED_MODULE_11__ = __webpack_require__(86590);
/* harmony import */ var _plan_comment__WEBPACK_IMPORTED_MODULE_12__ = __webpack_require__(24013);
/* harmony import */ var _candidates__WEBPACK_IMPORTED_MODULE_13__ = __webpack_require__(75588);
/* harmony import */ var _fix_ci__WEBPACK_IMPORTED_MODULE_14__ = __webpack_require__(9844);







// Not the folder's index, which brings the report parsers (fast-xml-parser) into every job that renders (docs/PERFORMANCE.md, "Cold start").








/** Model text on one line of crew's text (a list item, a quote): flattened first, so no fence spans lines. */
const lineFor = (s, text) => s.modelText(text.replace(/\s*\r?\n\s*/g, ' '));
/** The same in the report and the pull request body, which are markdown documents on every surface (report.md in a local run). */
const line = (text) => lineFor(_domain_surface__WEBPACK_IMPORTED_MODULE_8__/* .GITHUB */ .U0, text);
/** crew's own words on one line (the merge gate's reasons name the requester and reviewers): mentions stay mentions. */
const own = (text) => text.replace(/\s*\r?\n\s*/g, ' ');
function reportMarker(issue, run) {
    return (0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .hiddenMarker */ .z0)('report', { issue, run });
}
const mark = (e) => (!e ? '◻️' : e.met === true ? '✅' : e.met === false ? '❌' : '⚠️');
const verdictWord = (e) => (e.met === true ? 'met' : e.met === false ? 'not met' : `error: ${e.error ?? 'could not be evaluated'}`);
/** The tasks a pull request accepted at a budget's end leaves unfinished: stopped part way, or never started. */
const unfinishedAtBudget = (view) => [...view.tasks.values()]
    .filter((t) => !t.replacedBy && t.status !== 'success')
    .map((t) => `${t.id} (${t.status === 'blocked' ? 'not started' : 'stopped part way'})`);
/** At the top of an accepted PR: which criteria failed, so nobody mistakes it for a PASS. */
function acceptedBanner(j, acceptedBy) {
    const failing = (0,_domain_judgment__WEBPACK_IMPORTED_MODULE_3__/* .failingEvaluations */ .Wx)(j);
    return [
        `> [!WARNING]`,
        `> @${acceptedBy} accepted this with \`/crew accept\` although the critic judged it **FAIL** (iteration ${j.iteration}). crew never merges an accepted pull request by itself.`,
        ...failing.map((e) => `> - ${mark(e)} **${e.criterion}** ${line(e.text)}: ${line(verdictWord(e))}`),
        ...j.adversarial.map((f) => `> - ❌ ${f.rule}: ${line(f.evidence)}`),
        '',
    ];
}
/**
 * What a reviewer must look at before merging: every adversarial finding (a lifecycle script npm
 * runs by itself, changed git attributes, a deleted test, …), as a checklist, and the hosts crew's
 * egress proxy refused to model-written code. A lifecycle script and a refused host do not fail the
 * critic (judgment.ts, forAPerson) but keep crew from merging; the others reach a PR only through
 * `/crew accept`.
 */
function lookBeforeMerging(j, refused) {
    const egress = refusedLines(refused);
    if (!j?.adversarial.length && !egress.length)
        return [];
    return [
        '### ⚠️ Look at before merging',
        ...(j?.adversarial.length
            ? [
                "crew's adversarial checks found these in the change; each needs a person's review:",
                ...j.adversarial.map((f) => `- [ ] **${f.rule}**${f.file ? ` in \`${f.file}\`` : ''}: ${f.evidence}`),
            ]
            : []),
        ...egress,
        '',
    ];
}
/** How many refused hosts are named one by one; the rest are summed on one line. */
const LISTED_HOSTS = 20;
/**
 * The refused hosts, like Copilot's firewall warning: each with its count. A host name is the model's
 * choice (any CONNECT target), so each sits in a code span, and the list is bounded.
 */
function refusedLines(refused) {
    const hosts = Object.entries(refused).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
    if (!hosts.length)
        return [];
    const total = hosts.reduce((n, [, k]) => n + k, 0);
    const shown = hosts.slice(0, LISTED_HOSTS);
    const rest = hosts.slice(LISTED_HOSTS);
    return [
        `- [ ] **egress-refused**: model-written code (setup on a task's tree, or the agents' commands) asked for ${hosts.length} host${hosts.length === 1 ? '' : 's'} outside the allowlist, and crew's proxy refused ${total === 1 ? 'the request' : `all ${total} requests`}. If the repository needs one, add it to \`network.allow\` in \`.github/crew.yml\`; otherwise find out what asked for it.`,
        // `named (via allowed)` and `host (why)`: a request to an allowed host that named another site, or none (egress/proxy.ts).
        ...(hosts.some(([h]) => /\S \(/.test(h))
            ? [
                '  A request to an allowed host that named another site in its `Host` header or TLS server name (`… (via …)`), or named none, was refused whatever `network.allow` says: that is how code reaches another site on a CDN the allowed host shares.',
            ]
            : []),
        ...shown.map(([host, n]) => `  - ${(0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .codeSpan */ .SS)(host)}: ${n} request${n === 1 ? '' : 's'}`),
        ...(rest.length ? [`  - and ${rest.length} more host${rest.length === 1 ? '' : 's'} (${rest.reduce((n, [, k]) => n + k, 0)} requests)`] : []),
    ];
}
/** The report's own place for refused hosts (the pull request body has them under "Look at before merging"). */
function refusedSection(refused) {
    const lines = refusedLines(refused);
    return lines.length ? ['### ⚠️ Look at before merging', ...lines, ''] : [];
}
function mcpSection(view, inert) {
    const lines = (0,_plan_comment__WEBPACK_IMPORTED_MODULE_12__/* .mcpLines */ .mL)(view, inert);
    return lines.length ? ['### MCP servers', 'The run went on without what these servers would have given:', ...lines, ''] : [];
}
const SOURCE = { comment: 'a comment', review: 'a review' };
/** A follow-up's short section: which follow-up, what it added, and what the critic judged (crew's own words, no model text). */
function followUpLines(view) {
    const f = view.run.followUp;
    if (!f)
        return [];
    const added = f.added.length ? `new criteria ${f.added.join(', ')}` : 'no new criteria';
    const threads = f.threads.length ? `; ${f.threads.length} review thread${f.threads.length === 1 ? '' : 's'} addressed` : '';
    return [
        `### Follow-up ${f.k}`,
        '',
        `Run ${view.run.run} continues run ${f.fromRun} on this pull request, ${f.source === 'ci' ? `started by a failed check (\`fix_ci\`) for @${view.run.requestedBy}` : `asked by @${view.run.requestedBy} in ${SOURCE[f.source]}`}: ${added}${threads}. The critic judged every criterion again, the earlier ones and the new ones. New commits went on top of the branch; nothing was force-pushed.`,
        ...((0,_domain_follow_up__WEBPACK_IMPORTED_MODULE_5__/* .handPushed */ .Bw)(f, view.run.base.sha)
            ? [
                '',
                `The branch had commits crew did not make (head ${view.run.base.sha.slice(0, 7)} when the follow-up started, crew's last was ${f.crewHead.slice(0, 7)}): they were kept, and the earlier pass no longer counts for merging.`,
            ]
            : []),
        '',
    ];
}
/** The PR body: the summary, what each task did, the criteria with the critic's marks, and the closing keyword. */
function renderPullBody(view, results, judgment, acceptedBy) {
    const plan = view.plan;
    const byId = new Map(judgment?.evaluations.map((e) => [e.criterion, e]));
    const lines = [
        ...(judgment && acceptedBy ? acceptedBanner(judgment, acceptedBy) : []),
        ...(acceptedBy && view.run.review?.acceptedAtBudget ? (0,_budget_stop__WEBPACK_IMPORTED_MODULE_1__/* .acceptedAtBudgetBanner */ .E2)(acceptedBy, unfinishedAtBudget(view)) : []),
        (0,_text_inert__WEBPACK_IMPORTED_MODULE_9__/* .inert */ .tJ)(plan.summary),
        '',
        '### What changed',
        ...plan.tasks
            .filter((t) => !view.tasks.get(t.id)?.replacedBy)
            .map((t) => `- **${t.id} ${line(t.title)}** — ${line(results.get(t.id)?.summary.split('\n')[0] ?? '(no summary)')}`),
        '',
        `### Done criteria${judgment ? ` (critic: ${judgment.verdict})` : ''}`,
        ...plan.criteria.map((c) => `- ${judgment ? `${mark(byId.get(c.id))} ` : ''}${line((0,_domain_criteria__WEBPACK_IMPORTED_MODULE_0__/* .describeCriterion */ .N5)(c))}`),
        '',
        ...lookBeforeMerging(judgment, (0,_domain_egress__WEBPACK_IMPORTED_MODULE_2__/* .runRefusals */ .r_)(view.tasks.values(), judgment)),
        ...followUpLines(view),
        // Into a person's pull request: merging adds these commits to their branch, and closes nothing.
        view.run.base.pull
            ? `Stacked on #${view.run.base.pull}: this pull request goes into its branch \`${view.run.base.branch}\`, which crew does not push to.`
            : `Closes #${view.run.issue}`,
        '',
        `<sub>Opened by crew (run ${view.run.run}, requested by @${view.run.requestedBy}). The full report is in the first comment.</sub>`,
        (0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .hiddenMarker */ .z0)('pr', { issue: view.run.issue, run: view.run.run }),
    ];
    return lines.join('\n');
}
/** The critic's judgment: one row per criterion, the evidence folded under it; worded and marked up for the surface it is shown on. */
function renderJudgment(j, s) {
    const inert = s.modelText;
    const out = [
        s.heading(`Critic: ${j.verdict === 'PASS' ? '✅ PASS' : '❌ FAIL'} (iteration ${j.iteration}, ${j.headSha.slice(0, 7)})`),
        '',
        inert(j.overallReason),
        '',
        '| Criterion | Verdict | Confidence |',
        '|---|---|---|',
        ...j.evaluations.map((e) => `| ${mark(e)} ${s.bold(e.criterion)} ${inert((0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .cell */ .Hn)(e.text))} | ${inert((0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .cell */ .Hn)(verdictWord(e)))} | ${e.met === null ? '–' : e.confidence.toFixed(2)} |`),
        '',
    ];
    for (const e of j.evaluations) {
        if (!e.evidence.length)
            continue;
        const checked = e.verified?.length
            ? `\n\ncrew found the cited code in the tree: ${inert(e.verified.map((v) => `\`${v.replace(/`/g, "'")}\``).join(', '))}`
            : '';
        out.push(s.details(`Evidence for ${e.criterion}${e.verified?.length && e.met ? ' (citations verified)' : ''}`, `${inert((0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .fence */ .EU)(e.evidence.join('\n\n')))}${checked}`), '');
    }
    out.push(...renderTests(j.tests ?? [], s));
    out.push(...renderLocalisation(j, s));
    if (j.adversarial.length)
        out.push(s.bold('Adversarial checks found:'), ...j.adversarial.map((f) => `- ${f.rule}: ${lineFor(s, f.evidence)}`), '');
    else
        out.push('Adversarial checks (criteria unchanged; no deleted, skipped, weakened or hollow tests): nothing found.', '');
    if (j.suggestedNextAction)
        out.push(`${s.bold('Suggested next step:')} ${inert(j.suggestedNextAction)}`, '');
    return out.join('\n');
}
/**
 * Each command criterion's tests, base against head (#32): one line of counts per criterion, the lost
 * tests by name with their file and line, renames, flaky tests, and the fixed tests folded. Test names
 * are the repository's (or a model's) words: inert, in code spans.
 */
function renderTests(tests, s) {
    if (!tests.length)
        return [];
    const inert = s.modelText;
    const name = (t) => inert((0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .codeSpan */ .SS)(t));
    const out = [`${s.bold('Tests, base against head')} (crew ran each command on the run's base and here, and compared the tests by name):`];
    for (const a of tests) {
        out.push(`- ${name(a.command)}: ${lineFor(s, (0,_domain_test_results_accounting__WEBPACK_IMPORTED_MODULE_7__/* .countsText */ .WN)(a))}`);
        const renamed = new Set(a.renamed.map((r) => r.from));
        for (const l of a.lost.filter((x) => !renamed.has(x.test)))
            out.push(`  - ❌ lost: ${name(l.test)}${l.line ? ` (${name(`${l.file}:${l.line}`)}${l.lineOn === 'base' ? ' on the base' : ''})` : ''}: ${lineFor(s, (0,_domain_test_results_accounting__WEBPACK_IMPORTED_MODULE_7__/* .describeLost */ .Uk)(l).slice(l.test.length + 1))}`);
        if (a.more?.lost)
            out.push(`  - and ${a.more.lost} more lost`);
        for (const r of a.renamed)
            out.push(`  - renamed (the critic named its replacement): ${name(r.from)} → ${name(r.to)}`);
        for (const f of a.flaky)
            out.push(`  - ⚠️ flaky: ${name(f)} failed here, passed when run again, and passed on the base`);
    }
    const fixed = tests.filter((a) => a.fixed.length);
    if (fixed.length)
        out.push('', s.details(`Fixed: tests that failed or did not exist on the base and pass here (${fixed.reduce((n, a) => n + (a.counts?.fixed ?? 0), 0)})`, fixed
            .map((a) => [`${name(a.command)}:`, ...a.fixed.map((f) => `- ${name(f)}`), ...(a.more?.fixed ? [`- and ${a.more.fixed} more`] : [])].join('\n'))
            .join('\n\n')));
    out.push('');
    return out;
}
/** Where each failed command's failure comes from: crew's own runs on the base and the task branches, a table per criterion. */
function renderLocalisation(j, s) {
    const inert = s.modelText;
    const out = [];
    for (const l of j.localisation ?? []) {
        out.push(`${s.bold(`Where ${l.criterion} fails`)} (crew re-ran ${inert((0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .codeSpan */ .SS)(l.command))} in the sandbox; no model involved): ${lineFor(s, (0,_domain_localisation__WEBPACK_IMPORTED_MODULE_6__/* .describeOutcome */ .SS)(l))}.`, '');
        out.push('| Task | What ran | Exit code | Verdict |', '|---|---|---|---|');
        for (const r of l.runs) {
            const task = r.site.kind === 'base' ? '–' : r.site.task;
            const exit = r.timedOut ? 'timed out' : (r.exitCode ?? '–');
            out.push(`| ${task} | ${inert((0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .cell */ .Hn)(`${l.command} on ${(0,_domain_localisation__WEBPACK_IMPORTED_MODULE_6__/* .describeSite */ .xd)(r.site, l.base ?? '')}`))} | ${exit} | ${inert((0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .cell */ .Hn)((0,_domain_localisation__WEBPACK_IMPORTED_MODULE_6__/* .describeVerdict */ .XZ)(r)))} |`);
        }
        if (!l.runs.length)
            out.push('| – | nothing: there was no time left | – | – |');
        out.push('');
    }
    return out;
}
function earlierRounds(judgments) {
    const rounds = judgments.filter((j) => j.localisation?.length);
    if (!rounds.length)
        return [];
    const body = rounds
        .map((j) => [`**Iteration ${j.iteration}: ${j.verdict}** (${j.headSha.slice(0, 7)})`, '', ...renderLocalisation(j, _domain_surface__WEBPACK_IMPORTED_MODULE_8__/* .GITHUB */ .U0)].join('\n'))
        .join('\n');
    return [(0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .details */ .zH)(`Earlier rounds: where the failures came from (${rounds.length})`, body), ''];
}
function renderReport(view, results, links, judgment, acceptedBy, opts = {}) {
    const plan = view.plan;
    const total = (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_4__/* .totalUsage */ .GG)(view);
    const out = [
        reportMarker(view.run.issue, view.run.run),
        `## crew report · issue #${view.run.issue} · run ${view.run.run}`,
        '',
        // crew's own words (task ids, the login of the person who aborted): a mention of that person stays a mention.
        ...(opts.ended ? ['> [!CAUTION]', `> ${own(opts.ended)}`, ''] : []),
        ...(judgment && acceptedBy ? acceptedBanner(judgment, acceptedBy) : []),
        ...(acceptedBy && view.run.review?.acceptedAtBudget ? (0,_budget_stop__WEBPACK_IMPORTED_MODULE_1__/* .acceptedAtBudgetBanner */ .E2)(acceptedBy, unfinishedAtBudget(view)) : []),
        ...followUpLines(view),
        (0,_text_inert__WEBPACK_IMPORTED_MODULE_9__/* .inert */ .tJ)(plan.summary),
        '',
        ...(judgment ? [renderJudgment(judgment, _domain_surface__WEBPACK_IMPORTED_MODULE_8__/* .GITHUB */ .U0)] : []),
        ...earlierRounds(opts.earlier ?? []),
        ...refusedSection((0,_domain_egress__WEBPACK_IMPORTED_MODULE_2__/* .runRefusals */ .r_)(view.tasks.values(), judgment)),
        ...mcpSection(view, _text_inert__WEBPACK_IMPORTED_MODULE_9__/* .inert */ .tJ),
        '### Tasks',
        '',
        '| Task | Status | Turns | Files changed | Tokens in / out |',
        '|---|---|---|---|---|',
    ];
    for (const t of plan.tasks) {
        const rec = view.tasks.get(t.id);
        out.push(`| **${t.id}** ${(0,_text_inert__WEBPACK_IMPORTED_MODULE_9__/* .inert */ .tJ)((0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .cell */ .Hn)(t.title))} | ${rec?.replacedBy ? `replaced by ${rec.replacedBy.join(', ')}` : (rec?.status ?? 'pending')} | ${rec?.turns ?? 0} | ${rec?.changedFiles.length ?? 0} | ${(rec?.usage.inputTokens ?? 0).toLocaleString('en-US')} / ${(rec?.usage.outputTokens ?? 0).toLocaleString('en-US')} |`);
    }
    out.push('');
    // A task's parallel attempts (#50): each candidate's result and failing tests, the one kept and why (or that none was).
    const attempts = (0,_candidates__WEBPACK_IMPORTED_MODULE_13__/* .runSelectionLines */ .R)(view, _domain_surface__WEBPACK_IMPORTED_MODULE_8__/* .GITHUB */ .U0);
    if (attempts.length)
        out.push(...attempts.slice(1), '');
    for (const t of plan.tasks) {
        const rec = view.tasks.get(t.id);
        const r = results.get(t.id);
        // Each piece of model text is made inert on its own, so a fence one leaves open cannot reach the next.
        const body = [
            (0,_text_inert__WEBPACK_IMPORTED_MODULE_9__/* .inert */ .tJ)(r?.summary ?? '(no summary)'),
            r?.details ? `\n${(0,_text_inert__WEBPACK_IMPORTED_MODULE_9__/* .inert */ .tJ)(r.details)}` : '',
            rec?.changedFiles.length ? `\n**Files:** ${rec.changedFiles.map((f) => (0,_text_inert__WEBPACK_IMPORTED_MODULE_9__/* .inert */ .tJ)((0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .codeSpan */ .SS)(f))).join(', ')}` : '',
        ].join('\n');
        out.push((0,_text_markdown__WEBPACK_IMPORTED_MODULE_11__/* .details */ .zH)(`${t.id} · ${(0,_text_inert__WEBPACK_IMPORTED_MODULE_9__/* .inert */ .tJ)(t.title.replace(/\s+/g, ' '), 'html')} — ${rec?.status ?? 'pending'}`, body.trim()));
        out.push('');
    }
    out.push(...agentRunLinks(view, links.run));
    if (opts.notes?.length)
        out.push('**Problems on the way:**', ...opts.notes.map((n) => `- ⚠️ ${line(n)}`), '');
    // Where a provider hit its limits and the run went on elsewhere: part of how the result came about.
    const failovers = (0,_plan_comment__WEBPACK_IMPORTED_MODULE_12__/* .failoverLines */ .ul)(view.run.failovers ?? []);
    if (failovers.length)
        out.push(...failovers.map((l) => `> ${l}`), '');
    // CI failures on the pull request and what crew did about them (fix_ci).
    const ciFixes = (0,_fix_ci__WEBPACK_IMPORTED_MODULE_14__/* .renderFixCiAttempts */ .q)(view.run.fixCi);
    if (ciFixes.length)
        out.push(...ciFixes, '');
    if (!opts.ended)
        out.push(renderMergeSection(view.run.merge), '');
    out.push(`**Total usage:** ${total.inputTokens.toLocaleString('en-US')} input · ${total.cacheReadTokens.toLocaleString('en-US')} from cache · ${total.outputTokens.toLocaleString('en-US')} output tokens · about $${total.costUsd.toFixed(2)}${(0,_cost__WEBPACK_IMPORTED_MODULE_10__/* .minutesNote */ .St)(view)}`);
    const estimate = (0,_cost__WEBPACK_IMPORTED_MODULE_10__/* .estimateVsActual */ .oU)(view);
    if (estimate)
        out.push('', estimate);
    out.push('');
    out.push(`<sub>The run's files, including every task's result and the critic's judgments, are on the [crew/state branch](${links.stateFile(`issue-${view.run.issue}/run-${view.run.run}`)}).</sub>`);
    return out.join('\n');
}
const MERGE_START = '<!-- crew:merge -->';
const MERGE_END = '<!-- /crew:merge -->';
/** The report's merge section: merged, waiting (and for what), or why not. Replaced in place as the gate re-runs. */
function renderMergeSection(m) {
    const text = m === null
        ? 'crew has not looked at merging yet.'
        : m.state === 'merged'
            ? `✅ Merged by crew as ${m.mergeSha?.slice(0, 7) ?? ''}${m.reason ? ` (${own(m.reason)})` : ''}.`
            : m.state === 'waiting'
                ? `⏳ Not merged yet: ${own(m.reason)}.`
                : `Not merged by crew: ${own(m.reason)}.`;
    return `${MERGE_START}\n### Merge\n\n${text}\n${MERGE_END}`;
}
function replaceMergeSection(report, m) {
    const start = report.indexOf(MERGE_START);
    const end = report.indexOf(MERGE_END);
    if (start < 0 || end < start)
        return `${report}\n\n${renderMergeSection(m)}`;
    return report.slice(0, start) + renderMergeSection(m) + report.slice(end + MERGE_END.length);
}
const yamlString = (s) => JSON.stringify(s);
/**
 * report_summary.md (claude-crew): at most 50 lines, front matter first, for a reader
 * who will not open the full report (and for the retrospective's mode decision).
 */
function renderReportSummary(view, outcome, judgment, meta) {
    const plan = view.plan;
    const head = [
        '---',
        `generated_by: ${yamlString(meta.generatedBy)}`,
        `date: ${yamlString(meta.date)}`,
        `run_id: ${yamlString(`issue-${view.run.issue}/run-${view.run.run}`)}`,
        `status: ${outcome.status}`,
        `quality: ${outcome.quality}`,
        `completeness: ${outcome.completeness}`,
        `failed_tasks: [${outcome.failedTasks.join(', ')}]`,
        `task_count: ${plan.tasks.filter((t) => !view.tasks.get(t.id)?.replacedBy).length}`,
        '---',
        `# Summary: issue #${view.run.issue}, run ${view.run.run}`,
        '',
        plan.summary.split('\n')[0].slice(0, 300),
        '',
    ];
    const criteria = judgment
        ? [
            `## Critic: ${judgment.verdict} (iteration ${judgment.iteration})`,
            ...judgment.evaluations.map((e) => `- ${mark(e)} ${e.criterion}: ${e.text.slice(0, 120)}`),
        ]
        : [];
    const tasks = ['## Tasks', ...plan.tasks.map((t) => `- ${t.id} ${t.title.slice(0, 80)}: ${view.tasks.get(t.id)?.status ?? 'pending'}`)];
    const room = 50 - head.length - 2;
    const body = [...criteria, '', ...tasks];
    const lines = body.length > room ? [...body.slice(0, room - 1), `- … ${body.length - room + 1} more lines in report.md`] : body;
    return [...head, ...lines].join('\n').trimEnd();
}
/**
 * Where every agent run of the run can be read (docs/trajectories.md): each task's latest attempt
 * (its job's log and its trajectory), and each workflow run whose jobs recorded agent runs, where
 * their artifacts are listed. `runPage` is a workflow run's page (this job's), from which the others' follow.
 */
function agentRunLinks(view, runPage) {
    const lines = [];
    for (const t of view.plan?.tasks ?? []) {
        const l = view.tasks.get(t.id)?.links;
        const parts = [l?.log ? `[job log](${l.log})` : null, l?.trajectory ? `[trajectory](${l.trajectory})` : null].filter(Boolean);
        if (parts.length)
            lines.push(`- **${t.id}** (attempt ${view.tasks.get(t.id).attempts}): ${parts.join(' · ')}`);
    }
    const runs = new Map();
    for (const j of view.jobs ?? []) {
        const id = /^(\d+)-/.exec(j.id)?.[1];
        if (id)
            runs.set(id, (runs.get(id) ?? new Set()).add(j.task ? `${j.step} ${j.task}` : j.step));
    }
    if (runPage && /\/\d+$/.test(runPage) && runs.size)
        lines.push(`- Every job's agent runs, as artifacts named \`crew-trajectories-${view.run.issue}-r${view.run.run}-…\`: ${[...runs]
            .map(([id, steps]) => `[${[...steps].join(', ')}](${runPage.replace(/\/\d+$/, `/${id}`)})`)
            .join(' · ')}`);
    return lines.length ? ['### Agent runs', '', ...lines, ''] : [];
}


/***/ }),

/***/ 67164:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   A: () => (/* binding */ earlierJudgments),
/* harmony export */   n: () => (/* binding */ lastJudgment)
/* harmony export */ });
/* harmony import */ var _domain_refs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(92);
/* harmony import */ var _ports__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(16467);
/* harmony import */ var _run_files__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(24742);



/**
 * The judgment the critic last recorded for this run, if any. The view was read by this job, so the
 * tip it saw holds the judgment the view names: no round trip.
 */
async function lastJudgment(state, view) {
    const n = view.run.review?.iteration ?? 0;
    if (!n)
        return null;
    const snap = await state.load(`${(0,_domain_refs__WEBPACK_IMPORTED_MODULE_0__/* .runFolder */ .kQ)(view.run.issue, view.run.run)}/`, _ports__WEBPACK_IMPORTED_MODULE_1__/* .SEEN */ .GL);
    return (0,_run_files__WEBPACK_IMPORTED_MODULE_2__/* .parseJson */ .qF)(snap, _run_files__WEBPACK_IMPORTED_MODULE_2__/* .paths */ .f0.judgment(view.run.issue, view.run.run, n)) ?? null;
}
/** The judgments before the last, oldest first: the earlier rounds the report shows. */
async function earlierJudgments(state, view) {
    const n = view.run.review?.iteration ?? 0;
    if (n < 2)
        return [];
    const snap = await state.load(`${(0,_domain_refs__WEBPACK_IMPORTED_MODULE_0__/* .runFolder */ .kQ)(view.run.issue, view.run.run)}/`, _ports__WEBPACK_IMPORTED_MODULE_1__/* .SEEN */ .GL);
    const out = [];
    for (let i = 1; i < n; i++) {
        const j = (0,_run_files__WEBPACK_IMPORTED_MODULE_2__/* .parseJson */ .qF)(snap, _run_files__WEBPACK_IMPORTED_MODULE_2__/* .paths */ .f0.judgment(view.run.issue, view.run.run, i));
        if (j)
            out.push(j);
    }
    return out;
}


/***/ }),

/***/ 70921:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  decideMerge: () => (/* binding */ decideMerge),
  merge: () => (/* binding */ merge),
  newestRunOfPull: () => (/* binding */ newestRunOfPull),
  recordMerge: () => (/* binding */ recordMerge)
});

// EXTERNAL MODULE: ./src/text/markdown.ts
var markdown = __webpack_require__(86590);
;// CONCATENATED MODULE: ./src/domain/merge-gate.ts
/**
 * The auto-merge gate. crew merges only when every condition holds, and otherwise says
 * exactly why not (or what it is waiting for). Pure: the merge step gathers the facts.
 */

const same = (a, b) => a.toLowerCase() === b.toLowerCase();
/** Approvals whose author's permission decides whether they count: of the current head, not by the requester or a bot. */
function candidates(reviews, headSha, requester) {
    return reviews.filter((r) => !r.bot && !r.login.endsWith('[bot]') && !same(r.login, requester) && r.commit === headSha);
}
/** Whose permission the gate must ask GitHub for, each once. */
function reviewersToCheck(reviews, headSha, requester) {
    const out = [];
    for (const r of candidates(reviews, headSha, requester))
        if (!out.some((l) => same(l, r.login)))
            out.push(r.login);
    return out;
}
/**
 * Which approvals count, as GitHub's required reviews count them: only from people with
 * write access (write, maintain or admin; the permission endpoint reports maintain as
 * write), and only on the current head. Anyone can approve on a public repository, and a
 * permission check that failed counts as no. The requester's own approval and bots'
 * change nothing (the gate says so in its own words), so they are not listed.
 */
function countApprovals(reviews, headSha, requester, permission) {
    const approvedBy = [];
    const uncounted = [];
    for (const r of reviews) {
        if (r.bot || r.login.endsWith('[bot]'))
            continue;
        if (same(r.login, requester)) {
            if (r.commit === headSha)
                approvedBy.push(r.login);
            continue;
        }
        if (r.commit !== headSha) {
            uncounted.push({ login: r.login, why: `@${r.login} approved an older head (${merge_gate_short(r.commit)})` });
            continue;
        }
        const p = permission(r.login) ?? 'failed';
        if (p === 'admin' || p === 'write')
            approvedBy.push(r.login);
        else if (p === 'failed')
            uncounted.push({ login: r.login, why: `@${r.login}: the permission check failed` });
        else
            uncounted.push({ login: r.login, why: `@${r.login} has ${p === 'none' ? 'no' : p} access` });
    }
    return { approvedBy, uncounted };
}
const GREEN = new Set(['success', 'neutral', 'skipped']);
function checkState(c) {
    if (c.status === 'completed')
        return c.conclusion && GREEN.has(c.conclusion) ? 'green' : 'red';
    if (c.status === 'success')
        return 'green';
    if (c.status === 'failure' || c.status === 'error')
        return 'red';
    return 'pending';
}
const merge_gate_short = (sha) => (sha ? sha.slice(0, 7) : '(none)');
/** How a red check ended, in words ("failed", "timed out"). */
function howItEnded(c) {
    const end = c.conclusion ?? c.status;
    const words = {
        failure: 'failed',
        error: 'errored',
        timed_out: 'timed out',
        cancelled: 'was cancelled',
        action_required: 'needs action',
        startup_failure: 'failed to start',
        stale: 'went stale',
    };
    return words[end] ?? `ended ${end}`;
}
const list = (items) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
/**
 * The red checks, each named with its workflow and a link to its run where it is a GitHub Actions job
 * ("the `test` check of `CI` failed on afc2736 ([run](…))"). Check and workflow names come from the
 * repository's files and apps, so they are code; only GitHub's own run pages are linked.
 */
function redChecks(red, head, s) {
    const groups = new Map();
    for (const c of red) {
        const how = howItEnded(c);
        const key = c.run ? `${c.run.id} ${how}` : `check ${c.name}`;
        const g = groups.get(key) ?? { names: [], how, ...(c.run ? { run: c.run } : {}) };
        g.names.push((0,markdown/* codeSpan */.SS)(c.name));
        groups.set(key, g);
    }
    const said = [...groups.values()].map((g) => ({
        what: `the ${list(g.names)} check${g.names.length === 1 ? '' : 's'}${g.run ? ` of ${(0,markdown/* codeSpan */.SS)(g.run.workflow)}` : ''} ${g.how}`,
        link: g.run ? ` (${s.link('run', g.run.url)})` : '',
    }));
    if (said.length === 1)
        return `${said[0].what} on ${merge_gate_short(head)}${said[0].link}`;
    return `checks did not pass on ${merge_gate_short(head)}: ${said.map((x) => `${x.what}${x.link}`).join('; ')}`;
}
/** What a person can do about red checks, and what crew does meanwhile (fix_ci): sentences, as crew writes its name (lower case). */
function afterRed(s, note) {
    const fix = s.command('fix', '…');
    const yours = `Push a fix${fix ? `, or comment ${fix}` : ''}; crew merges once the checks pass`;
    if (note?.kind === 'fixing')
        return `crew is fixing it (\`fix_ci\` attempt ${note.attempt} of ${note.max}) and merges once the checks pass on its fix`;
    if (note?.kind === 'used-up')
        return `crew has used all ${note.max} of its \`fix_ci_attempts\` on this pull request. ${yours}`;
    return yours;
}
/** What stops a merge before checks and reviews matter (so they need not be read), if anything. */
function mergeBlocker(f, s) {
    if (f.pull.merged)
        return 'the pull request is already merged';
    if (f.pull.state !== 'open')
        return 'the pull request is closed';
    if (!f.autoMerge)
        return s.noAutoMerge;
    if (f.acceptedBy)
        return `@${f.acceptedBy} accepted it with ${s.command('accept')} although the critic judged FAIL; crew never merges an accepted pull request`;
    if (f.verdict !== 'PASS')
        return 'the critic has not passed it';
    if (f.forAPerson.length)
        return `a person must look at ${f.forAPerson.join('; ')} first (listed under "Look at before merging"), so crew leaves the merge to them`;
    if (f.judgedSha !== f.pull.headSha)
        return `the head moved to ${merge_gate_short(f.pull.headSha)} after the critic passed ${merge_gate_short(f.judgedSha)}; crew merges only what the critic judged`;
    return undefined;
}
function mergeDecision(f, s) {
    const no = (reason, waiting = false) => ({ merge: false, waiting, reason });
    const blocked = mergeBlocker(f, s);
    if (blocked)
        return no(blocked);
    const red = f.checks.filter((c) => checkState(c) === 'red');
    if (red.length)
        return no(`${redChecks(red, f.pull.headSha, s)}. ${afterRed(s, f.fixCi)}`);
    const pending = f.checks.filter((c) => checkState(c) === 'pending');
    if (pending.length)
        return no(`waiting for checks on ${merge_gate_short(f.pull.headSha)}: ${pending.map((c) => c.name).join(', ')}; crew looks again when they complete`, true);
    let note;
    if (f.checks.length === 0) {
        // Waiting: checks may still be queued. If none ever come, the reason says what to change.
        if (!f.mergeWithoutChecks)
            return no(`the repository reports no checks on ${merge_gate_short(f.pull.headSha)}; crew merges when checks pass, or set \`merge_without_checks: true\` to merge without them (a pull request opened with the workflow's GITHUB_TOKEN starts no CI: see the README)`, true);
        note = 'merged without checks: the repository reports none, and `merge_without_checks` is on';
    }
    if (f.requireApproval) {
        const others = f.approvedBy.filter((l) => l.toLowerCase() !== f.requester.toLowerCase() && !l.endsWith('[bot]'));
        const uncounted = f.uncounted.length ? `; approvals that do not count: ${f.uncounted.map((u) => u.why).join(', ')}` : '';
        if (!others.length)
            return no(`waiting for an approving review of ${merge_gate_short(f.pull.headSha)} from someone other than @${f.requester} (\`require_approval\`)${uncounted}`, true);
    }
    return note ? { merge: true, note } : { merge: true };
}
/** The configured method, or the first the repository allows, in GitHub's order. */
function mergeMethod(configured, allowed) {
    if (configured)
        return configured;
    return ['merge', 'squash', 'rebase'].find((m) => allowed[m]);
}

// EXTERNAL MODULE: ./src/domain/fix-ci.ts
var fix_ci = __webpack_require__(628);
// EXTERNAL MODULE: ./src/domain/refs.ts
var refs = __webpack_require__(92);
// EXTERNAL MODULE: ./src/domain/judgment.ts
var domain_judgment = __webpack_require__(7882);
// EXTERNAL MODULE: ./src/domain/egress.ts
var egress = __webpack_require__(30061);
// EXTERNAL MODULE: ./src/render/report.ts
var report = __webpack_require__(56076);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/steps/plan-comment/sync.ts + 2 modules
var sync = __webpack_require__(28545);
// EXTERNAL MODULE: ./src/state/judgments.ts
var judgments = __webpack_require__(67164);
// EXTERNAL MODULE: ./src/steps/cleanup.ts
var steps_cleanup = __webpack_require__(42179);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
;// CONCATENATED MODULE: ./src/steps/merge.ts












/**
 * The auto-merge gate for one run's pull request: gathers the facts (head, checks,
 * approvals), decides, merges with the head sha it judged, and says what happened.
 * Returns the state to record; GitHub's refusals are explained, never retried.
 * `read.checks` is a reading of the head's checks already made (what fix_ci acted on, so
 * the two agree); `read.fixCi` what fix_ci is doing about red checks, when the caller knows.
 */
async function decideMerge(ctx, view, prNumber, read = {}) {
    const config = await ctx.config();
    const review = view.run.review;
    const [judgment, pull] = await Promise.all([(0,judgments/* lastJudgment */.n)(ctx.state, view), ctx.forge.getPull(prNumber)]);
    const facts = {
        autoMerge: config.auto_merge,
        acceptedBy: review?.acceptedBy ?? null,
        verdict: judgment?.verdict ?? null,
        judgedSha: judgment?.headSha ?? null,
        forAPerson: [
            ...(0,domain_judgment/* forAPerson */.Es)(judgment?.adversarial ?? []).map((f) => `${f.rule}${f.file ? ` in \`${f.file}\`` : ''}`),
            ...(Object.keys((0,egress/* runRefusals */.r_)(view.tasks.values(), judgment)).length ? ["the hosts crew's egress proxy refused"] : []),
        ],
        pull,
        checks: [],
        mergeWithoutChecks: config.merge_without_checks,
        requireApproval: config.require_approval,
        approvedBy: [],
        uncounted: [],
        requester: view.run.requestedBy,
    };
    const at = (0,context/* nowIso */.kF)(ctx);
    // A job that merged and stopped before recording it (#31 §4: the merge and its record are apart): its re-run
    // finds the pull request merged by crew's own login at the head the critic passed, and records crew's merge.
    const mine = pull.merged && pull.mergedBy ? pull.mergedBy : undefined;
    if (mine && !mergeBlocker({ ...facts, pull: { ...pull, merged: false, state: 'open' } }, ctx.surface) && mine.login === (await ctx.forge.botLogin())) {
        ctx.log.info(`auto-merge: #${prNumber} was merged by crew as ${mine.sha.slice(0, 7)} before this job; recording it`);
        return { state: 'merged', reason: '', headSha: pull.headSha, mergeSha: mine.sha, at };
    }
    // Checks and reviews are read only when everything before them already holds.
    if (!mergeBlocker(facts, ctx.surface)) {
        // Independent reads of the same head: asked at once. The repository's merge methods are asked beside them
        // when the gate may merge (the forge keeps the answer for the job, and the deletions after a merge read it too).
        const [checks, approvals] = await Promise.all([
            read.checks ?? ctx.forge.checksOn?.(pull.headSha) ?? [],
            config.require_approval ? approvalsThatCount(ctx, prNumber, pull.headSha, facts.requester) : undefined,
            config.auto_merge && !config.merge_method && !view.run.base.pull ? ctx.forge.mergeMethods?.().catch(() => undefined) : undefined,
        ]);
        facts.checks = checks;
        if (approvals)
            Object.assign(facts, approvals);
        const note = read.fixCi ??
            (config.fix_ci && facts.checks.some((c) => checkState(c) === 'red') ? await usedUp(ctx, view, pull.headSha, config.fix_ci_attempts) : undefined);
        if (note)
            facts.fixCi = note;
    }
    const decision = mergeDecision(facts, ctx.surface);
    const state = (s, reason, mergeSha = null) => {
        if (s !== 'merged')
            ctx.log.info(`auto-merge: #${prNumber} ${s}: ${reason}`);
        return { state: s, reason, headSha: pull.headSha, mergeSha, at };
    };
    // Merging would move a person's branch, which crew never pushes to: its owner merges.
    if (config.auto_merge && view.run.base.pull)
        return state('not-merged', `this pull request goes into the branch of #${view.run.base.pull} (\`${view.run.base.branch}\`), which only its owner changes`);
    if (!decision.merge) {
        return state(decision.waiting ? 'waiting' : 'not-merged', decision.reason);
    }
    // A forge without merging (local mode: the result waits on its branch) never gets here with auto_merge on.
    if (!ctx.forge.mergePull || !ctx.forge.mergeMethods)
        return state('not-merged', 'this forge does not merge: review the result branch and merge it yourself');
    const method = mergeMethod(config.merge_method, config.merge_method ? { merge: true, squash: true, rebase: true } : await ctx.forge.mergeMethods());
    if (!method)
        return state('not-merged', 'the repository allows no merge method');
    const out = await ctx.forge.mergePull(prNumber, pull.headSha, method);
    if (out.merged) {
        ctx.log.checkpoint('pull-merged');
        ctx.log.info(`auto-merge: merged #${prNumber} (${method}) as ${out.sha.slice(0, 7)}`);
        return state('merged', [method === 'merge' ? '' : `${method}`, decision.note ?? ''].filter(Boolean).join('; '), out.sha);
    }
    if (out.status === 409)
        return state('not-merged', `the head moved while crew was merging (GitHub answered 409), so nothing was merged; crew merges only the head the critic judged`);
    if (out.status === 405)
        return state('not-merged', `GitHub refused the ${method} merge (405: ${out.message}). Branch protection (required reviews or checks) or a merge method the repository does not allow usually causes this; crew does not retry it`);
    return state('not-merged', `GitHub refused the merge (${out.status}: ${out.message})`);
}
/** fix_ci out of attempts on this head (counted on the run whose branch the pull request is), for the gate's words. */
async function usedUp(ctx, view, headSha, max) {
    const fixCi = (await (0,sync/* withPullsCiAttempts */.r)(ctx, view)).run.fixCi;
    return (0,fix_ci/* usedUpOn */.Av)(fixCi, headSha, max) ? { kind: 'used-up', max } : undefined;
}
/**
 * The approving reviews, each checked like a command: through the collaborator-permission
 * endpoint, once per reviewer (the forge remembers answers for the job), failing closed.
 */
async function approvalsThatCount(ctx, prNumber, headSha, requester) {
    const reviews = (await ctx.forge.approvals?.(prNumber)) ?? [];
    const known = new Map();
    for (const login of reviewersToCheck(reviews, headSha, requester)) {
        try {
            known.set(login, await ctx.forge.permissionOf(login));
        }
        catch (e) {
            ctx.log.warn(`the permission check for @${login} failed (${e instanceof Error ? e.message : String(e)}), so their approval does not count`);
            known.set(login, 'failed');
        }
    }
    return countApprovals(reviews, headSha, requester, (login) => known.get(login));
}
/**
 * Records the gate's word on the run and in the report comment (its Merge section, edited in place),
 * when it changed. A merge stands: a later word from a gate that lost the race to merge (GitHub
 * refuses a second merge) never replaces it. `cleanup`, after crew merged: the run's branches go in
 * the same write (#31 §4); should GitHub refuse a deletion, the merge is recorded alone, and tidyUp
 * deals with the branches. A job that stops after merging and before this write costs a re-run
 * nothing: decideMerge finds crew's merge, and this records it and cleans up.
 */
async function recordMerge(ctx, view, m, cleanup) {
    const before = view.run.merge;
    if (before && before.state === m.state && before.reason === m.reason && before.headSha === m.headSha)
        return;
    // Whether the attempt of the write that landed recorded the cleanup (no other job had).
    let cleaned = false;
    const write = (c) => ctx.planComment.updateShownFirst(view, `merge ${m.state}${c ? `, branches cleaned up (${c.end.how})` : ''}`, (rec) => {
        if (rec.merge?.state === 'merged' && m.state !== 'merged')
            return undefined;
        cleaned = c !== undefined && !rec.cleanup;
        return { ...rec, merge: m, ...(c && !rec.cleanup ? { cleanup: c.record } : {}) };
    }, c?.deleting.length ? { deleting: c.deleting } : undefined);
    const wrote = await write(cleanup).catch(async (e) => {
        if (!(e instanceof ports/* DeletionsRefused */.QN))
            throw e;
        ctx.log.info(`${e.message}; recording the merge alone`);
        return write();
    });
    if (!wrote)
        return ctx.log.info(`auto-merge: #${view.run.pr?.number ?? '?'} is merged already; crew keeps saying so`);
    if (cleaned && cleanup)
        await (0,steps_cleanup.saidCleanedUpAtMerge)(ctx, view.run, cleanup);
    const reportId = view.run.pr?.reportCommentId;
    if (reportId) {
        const current = await ctx.forge.getComment(reportId);
        await ctx.forge.updateComment(reportId, (0,report/* replaceMergeSection */.qO)(current.body, m));
    }
}
/**
 * The `merge` job: a check suite completed, a CI workflow run ended other than in failure (route
 * takes failures), or a review was submitted on a pull request. For crew's own pull requests (head `crew/<issue>/r<k>/integration`), the gate runs again.
 */
async function merge(ctx) {
    if (ctx.event.kind !== 'pull')
        return ctx.log.info('the merge step runs on check_suite, workflow_run and pull_request_review events');
    const ours = ctx.event.pulls.flatMap((p) => {
        const own = (0,refs/* runOfIntegrationBranch */.$o)(p.headRef);
        return own ? [{ ...p, ...own }] : [];
    });
    if (!ours.length)
        return ctx.log.info(`no pull request of crew's in this ${ctx.event.source} event`);
    // The configuration is read beside the issue's state (a request of its own in a job with no checkout); a
    // failure to read it is met again, and said, where the merge gate asks for it.
    void ctx.config().catch(() => undefined);
    for (const p of ours) {
        const { issue, run: first } = p;
        // Follow-ups update the same pull request as later runs of the issue: the newest one speaks for it, and
        // while it works (not COMPLETED) nothing merges on an older run's pass.
        const run = await newestRunOfPull(ctx, issue, first, p.number);
        // newestRunOfPull just read the issue's runs.
        const view = await (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL).catch(() => undefined);
        if (!view || view.run.phase !== 'COMPLETED' || view.run.pr?.number !== p.number) {
            ctx.log.info(`#${p.number}: run ${run} of issue #${issue} is not a completed run with this pull request; nothing to do`);
            continue;
        }
        if (view.run.merge?.state === 'merged')
            continue;
        const decided = await decideMerge(ctx, view, p.number);
        await recordMerge(ctx, view, decided, decided.state === 'merged' ? await (0,steps_cleanup.cleanupAtMerge)(ctx, view, decided, p.headRef) : undefined);
        ctx.log.checkpoint('merge-evaluated');
        if (decided.state === 'merged')
            await (0,steps_cleanup.tidyUp)(ctx, issue);
    }
}
/** The newest run of the issue (from the one that opened it on) whose record names this pull request. */
async function newestRunOfPull(ctx, issue, first, pull) {
    const snap = await ctx.state.load(`issue-${issue}/`);
    const later = (0,run_files/* runNumbers */.Sm)(snap, issue).filter((k) => k > first);
    for (const k of later.reverse())
        if ((0,run_files/* readRun */.cI)(snap, issue, k)?.pr?.number === pull)
            return k;
    return first;
}


/***/ })

};
