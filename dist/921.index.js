export const id = 921;
export const ids = [921];
export const modules = {

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
