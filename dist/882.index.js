export const id = 882;
export const ids = [882];
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


/***/ })

};
