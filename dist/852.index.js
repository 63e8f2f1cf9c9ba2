export const id = 852;
export const ids = [852];
export const modules = {

/***/ 99216:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  QG: () => (/* reexport */ BaseRunSchema),
  ct: () => (/* reexport */ accounting/* account */.ct),
  Ww: () => (/* reexport */ types/* describeTest */.Ww),
  $Q: () => (/* reexport */ compare/* failingKeys */.$Q),
  oh: () => (/* reexport */ read/* readReports */.oh),
  ZN: () => (/* reexport */ accounting/* testFindings */.ZN),
  S8: () => (/* reexport */ types/* testKey */.S8)
});

// UNUSED EXPORTS: LIST_LIMIT, MAX_REPORTS_BYTES, MAX_REPORT_BYTES, MAX_REPORT_FILES, RUNNERS, TestRunSchema, changeKind, compare, countsText, describeLost, failToPass, lineInDiff, lostTests, passToPass, summaryLine, testOfKey

// EXTERNAL MODULE: ./src/domain/test-results/types.ts
var types = __webpack_require__(30087);
// EXTERNAL MODULE: ./src/domain/test-results/read.ts + 9 modules
var read = __webpack_require__(59615);
// EXTERNAL MODULE: ./src/domain/test-results/compare.ts
var compare = __webpack_require__(94753);
// EXTERNAL MODULE: ./src/domain/test-results/accounting.ts
var accounting = __webpack_require__(83209);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 4 modules
var schemas = __webpack_require__(41514);
;// CONCATENATED MODULE: ./src/domain/test-results/base-run.ts


const TestResultSchema = schemas/* object */.Ikc({
    runner: schemas/* enum */.k5n(types/* RUNNERS */.Ir),
    file: schemas/* string */.YjP(),
    suite: schemas/* array */.YOg(schemas/* string */.YjP()),
    name: schemas/* string */.YjP(),
    outcome: schemas/* enum */.k5n(['passed', 'failed', 'skipped']),
    line: schemas/* number */.aig().int().optional(),
});
const TestRunSchema = schemas/* discriminatedUnion */.gMt('kind', [
    schemas/* object */.Ikc({ kind: schemas/* literal */.euz('known'), runners: schemas/* array */.YOg(schemas/* enum */.k5n(types/* RUNNERS */.Ir)), tests: schemas/* array */.YOg(TestResultSchema) }),
    schemas/* object */.Ikc({ kind: schemas/* literal */.euz('unknown'), why: schemas/* string */.YjP() }),
    schemas/* object */.Ikc({ kind: schemas/* literal */.euz('unreadable'), why: schemas/* string */.YjP() }),
]);
/**
 * A command criterion run once on the run's base (#32), kept on crew/state
 * (`test-results/base_<criterion>.json`) so that later iterations of the critic, and
 * localisation, compare with it instead of running the base again.
 */
const BaseRunSchema = schemas/* object */.Ikc({
    criterion: schemas/* string */.YjP(),
    command: schemas/* string */.YjP(),
    baseSha: schemas/* string */.YjP(),
    exitCode: schemas/* number */.aig().int().nullable(),
    timedOut: schemas/* boolean */.zMY(),
    /** The last lines of what it printed, redacted. */
    output: schemas/* string */.YjP(),
    tests: TestRunSchema,
    at: schemas/* string */.YjP(),
});
// The schema and the type describe the same thing.
const _same = true;
void _same;

;// CONCATENATED MODULE: ./src/domain/test-results/index.ts
/**
 * Test results as data (#32), the public face of this folder: parse the reports a run left
 * (`readReports`), compare a head with a base by test identity (`compare`, SWE-bench's
 * FAIL_TO_PASS / PASS_TO_PASS in `failToPass`/`passToPass`), and the critic's accounting of a
 * criterion (`account`). Pure: the reports are read by sandbox/test-reports.
 */







/***/ }),

/***/ 59615:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  WA: () => (/* binding */ MAX_REPORT_BYTES),
  m2: () => (/* binding */ MAX_REPORT_FILES),
  oh: () => (/* binding */ readReports)
});

// UNUSED EXPORTS: MAX_REPORTS_BYTES

;// CONCATENATED MODULE: ./src/domain/test-results/parse/common.ts
/** A report crew cannot read whole: the run it came from is undecided, never a pass. */
class Unreadable extends Error {
}
/** A path the runner reported, relative to the checkout when it is inside it (runs of one criterion happen in different folders). */
function relativeTo(root, file) {
    const r = root.replace(/\/+$/, '');
    if (file === r)
        return '.';
    if (file.startsWith(`${r}/`))
        return file.slice(r.length + 1);
    return file.replace(/^\.\//, '');
}
/** Every line of a JSON-lines file, parsed; a line that is not JSON makes the whole file unreadable. */
function jsonLines(text) {
    const lines = text.split('\n');
    if (lines.at(-1) === '')
        lines.pop();
    return lines.map((line, i) => {
        try {
            return JSON.parse(line);
        }
        catch {
            throw new Unreadable(`line ${i + 1} is not JSON`);
        }
    });
}
const isRecord = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);
/**
 * A report one of crew's hooks wrote: a header line naming the runner, the runner's records, and an
 * end line written only after the runner finished. No end line: the run was cut short.
 */
function crewStream(text, runner) {
    const lines = jsonLines(text);
    const header = lines[0];
    if (!isRecord(header) || header.crew !== 'test-report' || header.runner !== runner || header.version !== 1)
        throw new Unreadable(`it does not start with crew's header for ${runner}`);
    const end = lines.at(-1);
    if (lines.length < 2 || !isRecord(end) || end.end !== true)
        throw new Unreadable('it stops before the runner finished (no end line)');
    return { header, records: lines.slice(1, -1), end };
}
/** Each record read by `schema`; the first that does not fit makes the file unreadable ("event 3 is not a libtest event"). */
function recordsAs(records, schema, what, noun = 'event') {
    return records.map((raw, i) => {
        const parsed = schema.safeParse(raw);
        if (!parsed.success)
            throw new Unreadable(`${noun} ${i + 1} is not ${what}`);
        return parsed.data;
    });
}

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 4 modules
var schemas = __webpack_require__(41514);
;// CONCATENATED MODULE: ./src/domain/test-results/parse/leaves.ts
/** Drops the results of tests that hold other tests (a test with subtests, a suite reported as a test): the tests inside count instead. */
function leavesOnly(results) {
    const parents = new Set();
    for (const t of results)
        for (let k = 0; k < t.suite.length; k++)
            parents.add(JSON.stringify([t.file, ...t.suite.slice(0, k + 1)]));
    return results.filter((t) => !parents.has(JSON.stringify([t.file, ...t.suite, t.name])));
}

;// CONCATENATED MODULE: ./src/domain/test-results/parse/node.ts



/** One event of node's test runner as crew's reporter keeps it (node's `test:start`, `test:pass`, `test:fail`). */
const NodeEvent = schemas/* object */.Ikc({
    type: schemas/* enum */.k5n(['test:start', 'test:pass', 'test:fail']),
    name: schemas/* string */.YjP(),
    nesting: schemas/* number */.aig().int().min(0),
    file: schemas/* string */.YjP().nullable(),
    line: schemas/* number */.aig().int().nullable(),
    skip: schemas/* boolean */.zMY(),
    todo: schemas/* boolean */.zMY(),
    kind: schemas/* string */.YjP().nullable(),
});
/**
 * Node's test runner. Its events come in the order the tests are defined (node's documentation of
 * `test:start` and `test:pass`), so the suite path of a result is the names of the tests started
 * around it in the same file. Suites and tests with subtests are left out: only the tests that
 * hold no others count. A file that failed before defining any test is reported under its own name.
 */
function parseNode(text, root) {
    const { records } = crewStream(text, 'node');
    const stacks = new Map();
    const out = [];
    for (const e of recordsAs(records, NodeEvent, "one of node's test events")) {
        const file = e.file ?? '';
        const stack = stacks.get(file) ?? [];
        stacks.set(file, stack);
        if (e.type === 'test:start') {
            stack.length = e.nesting;
            stack.push(e.name);
            continue;
        }
        const rel = file ? relativeTo(root, file) : '(no file)';
        const fileItself = e.nesting === 0 && file !== '' && (e.name === file || e.name === rel || file.endsWith(`/${e.name}`));
        // A file is reported as a test of its own only when it fails outside its tests; a file that ran (even with no tests in it) is no test.
        if (fileItself && e.type !== 'test:fail')
            continue;
        out.push({
            runner: 'node',
            file: rel,
            suite: stack.slice(0, e.nesting),
            name: fileItself ? '' : e.name,
            outcome: e.type === 'test:fail' ? 'failed' : e.skip || e.todo ? 'skipped' : 'passed',
            ...(e.line ? { line: e.line } : {}),
            kind: e.kind,
        });
    }
    return leavesOnly(out.filter((t) => t.kind !== 'suite')).map(({ kind: _, ...t }) => t);
}

;// CONCATENATED MODULE: ./src/domain/test-results/parse/mocha.ts


/** One of mocha's `pass`, `fail` and `pending` events as crew's reporter keeps it: the test's title path and file. */
const MochaEvent = schemas/* object */.Ikc({
    outcome: schemas/* enum */.k5n(['passed', 'failed', 'skipped']),
    file: schemas/* string */.YjP().nullable(),
    titles: schemas/* array */.YOg(schemas/* string */.YjP()).min(1),
    hook: schemas/* boolean */.zMY().optional(),
});
/** Mocha. A failing hook is reported as mocha names it (`"before all" hook for "x"`); the tests it kept from running are missing. */
function parseMocha(text, root) {
    const { records } = crewStream(text, 'mocha');
    return recordsAs(records, MochaEvent, "one of mocha's test events").map((e) => {
        return { runner: 'mocha', file: e.file ? relativeTo(root, e.file) : '(no file)', suite: e.titles.slice(0, -1), name: e.titles.at(-1), outcome: e.outcome };
    });
}

;// CONCATENATED MODULE: ./src/domain/test-results/parse/unittest.ts


/** One outcome unittest's TestResult was told of, as crew's sitecustomize keeps it. */
const UnittestRecord = schemas/* object */.Ikc({
    id: schemas/* string */.YjP(),
    module: schemas/* string */.YjP(),
    cls: schemas/* string */.YjP(),
    method: schemas/* string */.YjP().nullable(),
    file: schemas/* string */.YjP().nullable(),
    line: schemas/* number */.aig().int().nullable(),
    outcome: schemas/* enum */.k5n(['passed', 'failed', 'skipped']),
    subtest: schemas/* boolean */.zMY().optional(),
});
/**
 * Python's unittest. A test is its file, its class and its method. What is not a test method (a
 * failing setUpClass, a module that did not import) is reported by the id unittest gives it.
 */
function parseUnittest(text, root) {
    const { records } = crewStream(text, 'unittest');
    return recordsAs(records, UnittestRecord, 'a unittest outcome', 'record').map((r) => {
        const file = r.file ? relativeTo(root, r.file) : `${r.module.replace(/\./g, '/')}.py`;
        const method = r.method && r.method !== 'runTest' ? r.method : null;
        return {
            runner: 'unittest',
            file,
            suite: method ? [r.cls] : [],
            name: method ?? r.id,
            outcome: r.outcome,
            ...(r.line ? { line: r.line } : {}),
        };
    });
}

;// CONCATENATED MODULE: ./src/domain/test-results/parse/go.ts



/** An event of `go tool test2json` (go's own documentation of `go test -json`). */
const GoEvent = schemas/* object */.Ikc({ Action: schemas/* string */.YjP(), Test: schemas/* string */.YjP().optional(), Package: schemas/* string */.YjP().optional() }).passthrough();
/**
 * go test, through crew's `-exec` hook: one report per test binary, that is per package, named
 * by its folder. Subtests (`TestX/case`) count; a test that has subtests does not. A package that
 * failed outside any test (TestMain, a panic at init) is reported as its folder failing.
 */
function parseGo(text, root) {
    const { header, records } = crewStream(text, 'go');
    if (typeof header.dir !== 'string')
        throw new Unreadable('its header names no package folder');
    const file = relativeTo(root, header.dir);
    const out = [];
    let packageFailed = false;
    for (const e of recordsAs(records, GoEvent, 'a test2json event')) {
        const outcome = e.Action === 'pass' ? 'passed' : e.Action === 'fail' ? 'failed' : e.Action === 'skip' ? 'skipped' : undefined;
        if (!outcome)
            continue;
        if (!e.Test) {
            packageFailed ||= outcome === 'failed';
            continue;
        }
        const path = e.Test.split('/');
        out.push({ runner: 'go', file, suite: path.slice(0, -1), name: path.at(-1), outcome });
    }
    const tests = leavesOnly(out);
    if (packageFailed && !tests.some((t) => t.outcome === 'failed'))
        tests.push({ runner: 'go', file, suite: [], name: '', outcome: 'failed' });
    return tests;
}

;// CONCATENATED MODULE: ./src/domain/test-results/parse/cargo.ts


/** libtest's JSON events (`--format json`): one per suite start and end, one per test start and end. */
const LibtestEvent = schemas/* union */.KCZ([
    schemas/* object */.Ikc({ type: schemas/* literal */.euz('suite'), event: schemas/* string */.YjP() }).passthrough(),
    schemas/* object */.Ikc({ type: schemas/* literal */.euz('test'), event: schemas/* string */.YjP(), name: schemas/* string */.YjP() }).passthrough(),
    schemas/* object */.Ikc({ type: schemas/* literal */.euz('bench') }).passthrough(),
]);
const OUTCOME = { ok: 'passed', failed: 'failed', ignored: 'skipped' };
/**
 * cargo test, through crew's target runner: one report per test binary, named by its target
 * (`mylib` for the library's unit tests, `api` for tests/api.rs) without cargo's hash. A test is
 * its module path and name. Doc tests are run by rustdoc, not by the runner, and are not counted.
 */
function parseCargo(text) {
    const { header, records } = crewStream(text, 'cargo');
    if (typeof header.binary !== 'string')
        throw new Unreadable('its header names no test binary');
    const file = header.binary.replace(/-[0-9a-f]{16}$/, '');
    const out = [];
    let finished = false;
    for (const e of recordsAs(records, LibtestEvent, 'a libtest event')) {
        if (e.type === 'suite')
            finished ||= e.event !== 'started';
        if (e.type !== 'test')
            continue;
        const outcome = OUTCOME[e.event];
        if (!outcome)
            continue;
        const path = e.name.split('::');
        out.push({ runner: 'cargo', file, suite: path.slice(0, -1), name: path.at(-1), outcome });
    }
    if (!finished)
        throw new Unreadable('the test binary stopped before libtest reported the end of its suite');
    return out;
}

// EXTERNAL MODULE: ./node_modules/fast-xml-parser/src/xmlparser/XMLParser.js + 23 modules
var XMLParser = __webpack_require__(41143);
// EXTERNAL MODULE: ./node_modules/fast-xml-parser/src/fxp.js
var fxp = __webpack_require__(75824);
;// CONCATENATED MODULE: ./src/domain/test-results/parse/junit.ts


const parser = new XMLParser/* default */.A({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseAttributeValue: false,
    parseTagValue: false,
    isArray: (name) => name === 'testsuite' || name === 'testcase',
});
const attr = (n, name) => (typeof n[`@${name}`] === 'string' ? n[`@${name}`] : undefined);
/**
 * JUnit XML, as pytest writes it with `junit_family=xunit1` (which keeps each case's file and
 * line; pytest counts lines from 0). A case with a `failure` or `error` failed; with `skipped`
 * (pytest's skips and xfails alike) it was skipped. The suite path is the class path in
 * `classname` after the module the file is; a collection error is the file failing.
 */
function parseJunit(text, runner = 'pytest') {
    const valid = fxp/* XMLValidator */.iI.validate(text);
    if (valid !== true)
        throw new Unreadable(`it is not well-formed XML (${valid.err.msg.replace(/\.$/, '')}, line ${valid.err.line})`);
    const doc = parser.parse(text);
    const top = doc.testsuites ?? (doc.testsuite ? { testsuite: doc.testsuite } : undefined);
    if (!top || typeof top !== 'object')
        throw new Unreadable('it has no testsuites element');
    const out = [];
    const visit = (suite) => {
        for (const c of suite.testcase ?? [])
            out.push(caseOf(c, runner));
        for (const s of suite.testsuite ?? [])
            visit(s);
    };
    visit(top);
    return out;
}
function caseOf(c, runner) {
    const name = attr(c, 'name');
    if (name === undefined)
        throw new Unreadable('a testcase has no name');
    const classname = attr(c, 'classname') ?? '';
    const fileAttr = attr(c, 'file');
    const moduleOf = (f) => f.replace(/\.py$/, '').replace(/\//g, '.');
    const file = fileAttr ?? (classname ? `${classname.replace(/\./g, '/')}` : '(no file)');
    const line = Number(attr(c, 'line'));
    const outcome = 'failure' in c || 'error' in c ? 'failed' : 'skipped' in c ? 'skipped' : 'passed';
    // A module pytest could not collect: no class, named by the module, with an error.
    if (!classname && fileAttr === undefined)
        return { runner, file: `${name.replace(/\./g, '/')}.py`, suite: [], name: '', outcome };
    const module = fileAttr ? moduleOf(fileAttr) : '';
    const suite = module && classname === module ? [] : module && classname.startsWith(`${module}.`) ? classname.slice(module.length + 1).split('.') : [classname];
    return { runner, file, suite, name, outcome, ...(Number.isInteger(line) && fileAttr !== undefined ? { line: line + 1 } : {}) };
}

;// CONCATENATED MODULE: ./src/domain/test-results/parse/jest.ts


/** The JSON jest writes with `--json --outputFile`, which vitest's `json` reporter writes too: the fields crew reads. */
const JestJson = schemas/* object */.Ikc({
    testResults: schemas/* array */.YOg(schemas/* object */.Ikc({
        name: schemas/* string */.YjP(),
        status: schemas/* string */.YjP().optional(),
        assertionResults: schemas/* array */.YOg(schemas/* object */.Ikc({
            ancestorTitles: schemas/* array */.YOg(schemas/* string */.YjP()),
            title: schemas/* string */.YjP(),
            status: schemas/* string */.YjP(),
            location: schemas/* object */.Ikc({ line: schemas/* number */.aig().int() }).nullish(),
        })),
    })),
});
const STATUS = {
    passed: 'passed',
    focused: 'passed',
    failed: 'failed',
    pending: 'skipped',
    skipped: 'skipped',
    todo: 'skipped',
    disabled: 'skipped',
};
/** jest and vitest. A test file that failed to run (it did not import, a hook threw) with no failing test in it is the file failing. */
function parseJestJson(text, root, runner) {
    let json;
    try {
        json = JSON.parse(text);
    }
    catch {
        throw new Unreadable('it is not JSON');
    }
    const parsed = JestJson.safeParse(json);
    if (!parsed.success)
        throw new Unreadable(`it is not ${runner}'s JSON report (${parsed.error.issues[0]?.path.join('.') || 'top'}: ${parsed.error.issues[0]?.message})`);
    const out = [];
    for (const f of parsed.data.testResults) {
        const file = relativeTo(root, f.name);
        for (const a of f.assertionResults) {
            const outcome = STATUS[a.status];
            if (!outcome)
                throw new Unreadable(`a test in ${file} has a status crew does not know (${a.status})`);
            out.push({ runner, file, suite: a.ancestorTitles, name: a.title, outcome, ...(a.location?.line ? { line: a.location.line } : {}) });
        }
        if (f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'))
            out.push({ runner, file, suite: [], name: '', outcome: 'failed' });
    }
    return out;
}

;// CONCATENATED MODULE: ./src/domain/test-results/read.ts








/** The largest report crew reads, and the most it reads from one run: a larger one is unreadable, never skipped. */
const MAX_REPORT_BYTES = 16 * 1024 * 1024;
const MAX_REPORTS_BYTES = 64 * 1024 * 1024;
/** More files than any honest run writes (one per test process): the folder is not what crew's hooks made. */
const MAX_REPORT_FILES = 2000;
/** Which runner wrote a file, from the name crew's hooks give it (`<runner>-<pid>-<ms>.<ext>`). */
const NAME = /^(node|mocha|unittest|go|cargo|pytest|vitest|jest)-[0-9]+-[0-9]+(?:-[0-9]+)?\.(jsonl|xml|json)$/;
const EXT = {
    node: 'jsonl',
    mocha: 'jsonl',
    unittest: 'jsonl',
    go: 'jsonl',
    cargo: 'jsonl',
    pytest: 'xml',
    vitest: 'json',
    jest: 'json',
};
function parseOne(runner, text, root) {
    switch (runner) {
        case 'node':
            return parseNode(text, root);
        case 'mocha':
            return parseMocha(text, root);
        case 'unittest':
            return parseUnittest(text, root);
        case 'go':
            return parseGo(text, root);
        case 'cargo':
            return parseCargo(text);
        case 'pytest':
            return parseJunit(text, 'pytest');
        case 'vitest':
        case 'jest':
            return parseJestJson(text, root, runner);
    }
}
/**
 * The tests one run of a command reported, from every file in its report folder. `root` is the
 * checkout the command ran in (reports name files absolutely; identities are relative). No file:
 * unknown. Any file crew cannot read whole, did not ask for, or too much in all: unreadable.
 */
function readReports(files, root) {
    if (!files.length)
        return {
            kind: 'unknown',
            why: 'no test runner crew knows wrote a report (crew asks node --test, vitest, jest, mocha, pytest, unittest, go test and cargo test for one)',
        };
    if (files.length > MAX_REPORT_FILES)
        return { kind: 'unreadable', why: `the report folder holds ${files.length} files, more than the ${MAX_REPORT_FILES} crew reads` };
    const total = files.reduce((n, f) => n + f.bytes, 0);
    if (total > MAX_REPORTS_BYTES)
        return { kind: 'unreadable', why: `the reports add up to ${total} bytes, over the ${MAX_REPORTS_BYTES} crew reads from one run` };
    const tests = [];
    const runners = new Set();
    for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
        const m = NAME.exec(f.name);
        if (!m || EXT[m[1]] !== m[2])
            return { kind: 'unreadable', why: `the report folder holds ${JSON.stringify(f.name.slice(0, 80))}, which crew did not ask any runner for` };
        if (f.problem || f.text === undefined)
            return { kind: 'unreadable', why: `${f.name}: ${f.problem ?? 'it could not be read'}` };
        if (f.bytes > MAX_REPORT_BYTES)
            return { kind: 'unreadable', why: `${f.name} is ${f.bytes} bytes, over the ${MAX_REPORT_BYTES} crew reads` };
        const runner = m[1];
        try {
            tests.push(...parseOne(runner, f.text, root));
        }
        catch (e) {
            if (e instanceof Unreadable)
                return { kind: 'unreadable', why: `${f.name} (${runner}): ${e.message}` };
            throw e;
        }
        runners.add(runner);
    }
    return { kind: 'known', runners: [...runners].sort(), tests };
}


/***/ }),

/***/ 55378:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  qR: () => (/* binding */ UnsandboxedRunner),
  sO: () => (/* binding */ capOutput),
  $v: () => (/* binding */ homeEnv),
  D_: () => (/* binding */ prepareSandbox),
  KR: () => (/* binding */ prepareUserNamespace)
});

// UNUSED EXPORTS: NamespaceRunner, NoEgressRoute, TOOL_USER, UserNamespaceRunner, toolEnv

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(31421);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(57975);
// EXTERNAL MODULE: ./src/domain/kept-output.ts
var kept_output = __webpack_require__(33306);
// EXTERNAL MODULE: ./src/domain/sandbox-reach.ts
var sandbox_reach = __webpack_require__(72221);
;// CONCATENATED MODULE: ./src/sandbox/egress/route.ts

/**
 * The sandbox's one way out: inside its network namespace (only `lo`, no route, no resolver), a
 * forwarder listens on 127.0.0.1:PROXY_PORT and hands each connection to crew's egress proxy through
 * its Unix socket (proxy.ts). Tools find it through the usual proxy variables; a tool that ignores
 * them gets no network at all, and a DNS lookup of any name fails for want of a resolver.
 */
/** What the sandbox's commands need to find the proxy: the variables most package managers and HTTP clients read. */
function proxyEnv() {
    const url = `http://127.0.0.1:${sandbox_reach/* PROXY_PORT */.zk}`;
    const local = 'localhost,127.0.0.1,::1';
    return {
        HTTP_PROXY: url,
        HTTPS_PROXY: url,
        ALL_PROXY: url,
        http_proxy: url,
        https_proxy: url,
        all_proxy: url,
        NO_PROXY: local,
        no_proxy: local,
        // Node's own fetch and http honour the variables only when asked (Node 22.21+, 24.5+).
        NODE_USE_ENV_PROXY: '1',
        // Maven, Gradle and every other JVM tool read the JVM's proxy properties, not the variables.
        JAVA_TOOL_OPTIONS: `-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=${sandbox_reach/* PROXY_PORT */.zk} -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=${sandbox_reach/* PROXY_PORT */.zk} -Dhttp.nonProxyHosts=localhost|127.0.0.1`,
    };
}
/**
 * The forwarder, run by crew's node (`node -e FORWARDER -- <n> <host port socket probe>… <command…>`) as the
 * sandbox's first process, before the command drops to the tool user: it checks the sockets marked
 * `probe` answer (the egress proxy's), listens on each address inside the namespace (127.0.0.1:PROXY_PORT
 * for the proxy; a service's own address, #51), hands each connection to its socket, then runs the
 * command and exits with its status, which ends the namespace and everything the command left running.
 * Exit 125 means a route could not be set up.
 */
const FORWARDER = `
const net = require('net'), cp = require('child_process'), os = require('os');
const argv = process.argv.slice(1);
const routes = [];
for (let i = 0, n = Number(argv[0]); i < n; i++) routes.push({ host: argv[1 + 4 * i], port: Number(argv[2 + 4 * i]), sock: argv[3 + 4 * i], probe: argv[4 + 4 * i] === '1' });
const cmd = argv.slice(1 + 4 * routes.length);
const fail = (what, e) => { process.stderr.write('crew: ' + (what === 'the proxy socket' || what.endsWith(':${sandbox_reach/* PROXY_PORT */.zk}') ? 'the egress route' : 'the route to ' + what) + ' could not be set up (' + what + ': ' + (e.code || e.message) + ')\\n'); process.exit(125); };
const probed = (r) => new Promise((ok) => {
  if (!r.probe) return ok();
  const p = net.connect(r.sock);
  p.on('error', (e) => fail('the proxy socket', e));
  p.on('connect', () => { p.destroy(); ok(); });
});
const listening = (r) => new Promise((ok) => {
  const server = net.createServer((c) => {
    const u = net.connect(r.sock);
    c.on('error', () => u.destroy());
    u.on('error', () => c.destroy());
    c.pipe(u);
    u.pipe(c);
  });
  const at = r.host.includes(':') ? '[' + r.host + ']:' + r.port : r.host + ':' + r.port;
  server.on('error', (e) => fail(at, e));
  server.listen(r.port, r.host, ok);
});
(async () => {
  for (const r of routes) await probed(r);
  for (const r of routes) await listening(r);
  const child = cp.spawn(cmd[0], cmd.slice(1), { stdio: 'inherit' });
  child.on('error', (e) => { process.stderr.write('crew: could not start the command: ' + e.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (os.constants.signals[signal] || 9) : code));
})();
`;

// EXTERNAL MODULE: ./src/sandbox/private-mounts.ts
var private_mounts = __webpack_require__(17467);
// EXTERNAL MODULE: ./src/sandbox/path-folders.ts
var path_folders = __webpack_require__(29276);
// EXTERNAL MODULE: ./src/sandbox/own-programs.ts
var own_programs = __webpack_require__(30021);
;// CONCATENATED MODULE: ./src/sandbox/home-caches.ts





const execP = (0,external_node_util_.promisify)(external_node_child_process_.execFile);
const exec = (cmd, args) => execP(cmd, args, { env: (0,own_programs/* ownEnv */.q5)() });
/**
 * Copies the caches into a home crew has just made, before it hands the home to the user the commands run as
 * (the copy is handed over with it): no command has run there yet, so no link planted in it can redirect the
 * copy. A folder that is not there, or not a real folder, is passed over; a copy that fails is removed and
 * passed over too (the setup then downloads, as it would without the cache).
 */
async function copyHomeCaches(home, caches) {
    if (!caches?.folders.length)
        return;
    const started = Date.now();
    const copied = [];
    const failed = [];
    for (const folder of caches.folders) {
        const source = (0,external_node_path_.join)(caches.from, folder);
        if (!(await (0,promises_.lstat)(source).catch(() => undefined))?.isDirectory())
            continue;
        const target = (0,external_node_path_.join)(home, folder);
        if (await (0,promises_.lstat)(target).catch(() => undefined))
            continue;
        try {
            await (0,promises_.mkdir)((0,external_node_path_.dirname)(target), { recursive: true });
            // -a keeps links as links; --reflink=auto shares the blocks where the file system can (btrfs, xfs), copying on write.
            await exec('cp', ['-a', '--reflink=auto', '--', source, target]);
            copied.push(folder);
        }
        catch (e) {
            failed.push(`${folder} (${e.message.split('\n')[0]})`);
            await exec('rm', ['-rf', '--', target]).catch(() => undefined);
        }
    }
    caches.said?.(copied, (Date.now() - started) / 1000, failed);
}

// EXTERNAL MODULE: ./src/sandbox/running-commands.ts
var running_commands = __webpack_require__(27551);
;// CONCATENATED MODULE: ./src/sandbox/command-runner.ts












const command_runner_execP = (0,external_node_util_.promisify)(external_node_child_process_.execFile);
/** Every program the sandbox starts as crew itself (unshare, sudo, useradd, chown) is found in the folders ownPath trusts. */
const command_runner_exec = (cmd, args, opts = {}) => command_runner_execP(cmd, args, { env: (0,own_programs/* ownEnv */.q5)(), ...opts, encoding: 'utf8' });
/** The variables that give a command a home of its own and its temporary folder. */
function homeEnv(home) {
    return { HOME: home.dir, TMPDIR: home.tmp };
}
/** The tool user's git config, in its home and in every program home. */
const TOOL_GITCONFIG = '[safe]\n\tdirectory = *\n[user]\n\tname = crew tool\n\temail = crew-tool@localhost\n';
/**
 * A fresh home under `parent`, which is made searchable but not listable (0711): the tool user can
 * reach a home whose name it is told, never find one. `handOver` gives the new folder to the user
 * that will run the programs.
 */
async function freshHome(parent, handOver, remove, fill) {
    await (0,promises_.mkdir)(parent, { recursive: true });
    await (0,promises_.chmod)(parent, 0o711);
    const dir = await (0,promises_.mkdtemp)((0,external_node_path_.join)(parent, 'home-'));
    try {
        await (0,promises_.writeFile)((0,external_node_path_.join)(dir, '.gitconfig'), TOOL_GITCONFIG);
        await (0,promises_.mkdir)((0,external_node_path_.join)(dir, 'tmp'), { mode: 0o700 });
        await fill?.(dir);
        await handOver(dir);
    }
    catch (e) {
        await remove(dir).catch(() => undefined);
        throw e;
    }
    return { dir, tmp: (0,external_node_path_.join)(dir, 'tmp'), dispose: async () => void (await remove(dir).catch(() => undefined)) };
}
/**
 * Starts a wrapped program with pipes, in its own process group, killed with crew's other commands.
 * Through sudo (crew not root, as on GitHub's runners) the group is root's: crew cannot signal it
 * itself, so stopping it asks sudo to.
 */
function startProcess(cmd, args, opts) {
    const child = (0,external_node_child_process_.spawn)(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    if (child.pid)
        running_commands/* runningCommands */.K.add(child.pid);
    if (opts.input !== undefined) {
        // A program whose sandbox failed before it read its environment ends, and says so: its exit is what is reported.
        child.stdin.on('error', () => undefined);
        child.stdin.write(opts.input);
    }
    child.on('close', () => child.pid && running_commands/* runningCommands */.K.delete(child.pid));
    child.on('error', () => child.pid && running_commands/* runningCommands */.K.delete(child.pid));
    const stop = () => {
        // A stdio server ends when its input does; the kill is for one that does not.
        child.stdin.end();
        if (!child.pid || child.exitCode !== null || child.signalCode !== null)
            return;
        if (opts.viaSudo) {
            (0,external_node_child_process_.execFile)('sudo', ['-n', 'kill', '-KILL', '--', `-${child.pid}`], { env: (0,own_programs/* ownEnv */.q5)() }, () => undefined);
            return;
        }
        try {
            process.kill(-child.pid, 'SIGKILL');
        }
        catch {
            child.kill('SIGKILL');
        }
    };
    return { child, stop };
}
/** Why a runner cannot give a command the allowlist: the caller must not ask it to. */
class NoEgressRoute extends Error {
}
const TOOL_USER = 'crew-tool';
/** The environment tools see: an allow-list, so no token, key or INPUT_* value ever reaches them. */
function toolEnv(home) {
    return {
        PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
        HOME: home,
        LANG: 'C.UTF-8',
        TERM: 'dumb',
        NO_COLOR: '1',
        CI: 'true',
        TMPDIR: '/tmp',
    };
}
/** Keeps the head and tail of long output: the command line and the error at the end both matter. */
function capOutput(text, max) {
    const kept = (0,kept_output/* keepEnds */.m)(text, max);
    return { text: kept.text, truncated: kept.cut !== undefined };
}
/** The route a command gets: the runner's, when the command asks for the allowlist (never silently none). */
function egressRoute(egress, opts) {
    if (opts.network !== 'allowlist')
        return undefined;
    if (!egress)
        throw new NoEgressRoute('this sandbox has no route to the egress proxy, so a command cannot have the allowlist');
    return egress;
}
/** The services a command is routed to: none with the machine's own network (`open`), where they are reachable as they are. */
function servicesOf(reach, network) {
    return network === 'open' ? [] : (reach.services ?? []);
}
/**
 * The forwarder in front of the command, run by crew's own node as the namespace's first process; it finds the proxy
 * and the services' bridges where privateMountArgs put them.
 */
function forwarderArgs(route, services) {
    const routes = [
        ...(route ? [['127.0.0.1', String(sandbox_reach/* PROXY_PORT */.zk), private_mounts/* SANDBOX_PROXY_SOCKET */.dW, '1']] : []),
        ...services.map((s, i) => [s.address.host, String(s.address.port), (0,private_mounts/* sandboxServiceSocket */.C9)(i), '0']),
    ];
    return routes.length ? [process.execPath, '-e', FORWARDER, '--', String(routes.length), ...routes.flat()] : [];
}
/** The private mounts of one command or program: its cwd and home kept too; a program does not see the commands' home, a command not the programs'. */
function placesArgs(places, o) {
    const program = o.home !== undefined && o.home !== o.commandsHome;
    const writable = [o.cwd, o.home ?? o.commandsHome, ...(o.see ?? [])].map((w) => (0,private_mounts/* real */.x)(w) ?? w);
    const kept = [...places.keep.map((k) => (0,private_mounts/* real */.x)(k) ?? k), ...writable];
    return (0,private_mounts/* privateMountArgs */.Wm)({
        // With the machine's network (`network.fallback: open`) the resolver's file stays: on Ubuntu /etc/resolv.conf links into /run.
        keep: [...kept, ...(o.network === 'open' ? ['/etc/resolv.conf'] : [])],
        // The folders of the commands' PATH (toolEnv) are read-only (path-folders.ts); those the setup steps put under a
        // covered place (#51: a tool cache in /tmp) stay in sight so, when no one else can write them. What the command
        // must write (its cwd, its home) stays writable.
        readOnly: (0,path_folders/* readOnlyPathFolders */.V4)(kept).filter((r) => !writable.some((w) => (0,private_mounts/* under */.hG)(r, w))),
        hide: [...places.sockets, program ? o.commandsHome : places.programHomes],
        ...(o.route ? { socket: o.route.socket } : {}),
        services: o.services.map((s) => s.socket),
    });
}
/**
 * The command's whole environment: the setup steps' named variables, the tool environment over them, the proxy's
 * variables when the command has the route, and crew's own for it (a server's secrets, the report hooks' routes).
 * Written to the command's stdin as `NAME=value` entries, each ended by a NUL and the list by an empty one, and
 * exported by its own shell (ENV_FROM_STDIN) after `env -i` emptied it: never in an argument, which every user of
 * the machine can read (`ps`, /proc/<pid>/cmdline) for as long as the command runs. /proc/<pid>/environ is its own user's alone.
 */
function envInput(home, route, reach, extra = {}) {
    return `${Object.entries({ ...reach.env, ...toolEnv(home), ...(route ? proxyEnv() : {}), ...extra })
        .map(([k, v]) => `${k}=${v}\0`)
        .join('')}\0`;
}
/** How the command's shell takes its environment from stdin (envInput), before anything else; the rest of stdin is the command's. */
const ENV_FROM_STDIN = `while :; do IFS= read -r -d '' e || { echo "crew: the command's environment did not arrive whole" >&2; exit 125; }; [ -n "$e" ] || break; export -- "$e" || exit 125; done; unset e; `;
/** unshare's flags in both sandboxes: their own IPC, PIDs (with a fresh /proc) and, unless the network is open, network. */
function namespaceArgs(network) {
    return ['--ipc', '--pid', '--fork', '--mount-proc', ...(network === 'open' ? [] : ['--net']), '--'];
}
/** A command (not a program, whose stdin is its protocol) reads nothing after its environment, as when its stdin was /dev/null. */
const NO_INPUT = 'exec </dev/null; ';
/** How both sandboxes end: an empty environment, and bash taking the tool's from stdin (envInput), then running `script` with the folder as $1 and the command as $2. */
function shellArgs(command, opts, script) {
    return ['env', '-i', 'bash', '--noprofile', '--norc', '-c', `${ENV_FROM_STDIN}${script}`, 'crew-command', opts.cwd, command];
}
/** A fresh home beside `home` where commands run as crew's (or the person's) own user: the home is theirs as it is. */
function sameUserHome(home, fill) {
    return freshHome((0,external_node_path_.join)((0,external_node_path_.dirname)(home), 'crew-program-homes'), async () => undefined, (dir) => (0,promises_.rm)(dir, { recursive: true, force: true }), fill);
}
function runProcess(cmd, args, opts) {
    return new Promise((resolve) => {
        const child = (0,external_node_child_process_.spawn)(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], detached: true });
        if (child.pid)
            running_commands/* runningCommands */.K.add(child.pid);
        if (opts.input !== undefined) {
            // A command whose sandbox failed before it read its environment ends, and says so: its exit is what is reported.
            child.stdin.on('error', () => undefined);
            child.stdin.end(opts.input);
        }
        // The whole output streams through: its head and tail are kept, the rest counted (domain/kept-output.ts).
        const kept = new kept_output/* OutputKeeper */.a(opts.maxOutputBytes);
        const keep = (d) => kept.push(d);
        child.stdout.on('data', keep);
        child.stderr.on('data', keep);
        let timedOut = false;
        const timer = setTimeout(() => {
            timedOut = true;
            try {
                process.kill(-child.pid, 'SIGKILL');
            }
            catch {
                child.kill('SIGKILL');
            }
        }, opts.timeoutMs);
        child.on('close', (code, signal) => {
            clearTimeout(timer);
            if (child.pid)
                running_commands/* runningCommands */.K.delete(child.pid);
            const out = kept.result();
            resolve({
                exitCode: code ?? (signal ? 128 + 9 : 1),
                output: out.text,
                timedOut,
                truncated: out.cut !== undefined,
                size: { bytes: out.bytes, lines: out.lines },
            });
        });
        child.on('error', (e) => {
            clearTimeout(timer);
            resolve({ exitCode: 127, output: `could not start the command: ${e.message}`, timedOut: false, truncated: false });
        });
    });
}
/**
 * The sandbox: each command runs as an unprivileged user with no sudo, in new PID,
 * mount and network namespaces. It cannot see crew's process (or read its
 * /proc/<pid>/environ), cannot reach the network, and has no credentials.
 */
class NamespaceRunner {
    home;
    privateDir;
    viaSudo;
    places;
    egress;
    reach;
    sandboxed = true;
    description;
    constructor(home, 
    /** A folder the tool user cannot write, for the sanitised git config (never write as root where it can plant links). */
    privateDir, viaSudo, places, 
    /** The way to crew's egress proxy, when there is one: commands asking for `network: 'allowlist'` get it. */
    egress, reach = {}) {
        this.home = home;
        this.privateDir = privateDir;
        this.viaSudo = viaSudo;
        this.places = places;
        this.egress = egress;
        this.reach = reach;
        this.description = `sandboxed: commands run as user ${TOOL_USER} (no sudo) in their own PID, mount and network namespaces, with no credentials, an allow-listed environment and a private /tmp and /run`;
    }
    async run(command, opts) {
        const { argv, input } = await this.argv(command, opts, `${NO_INPUT}umask 000; cd "$1" && eval "$2"`);
        const [cmd, ...args] = argv;
        // The command enters its folder itself, as the tool user: one of the tool user's own (a run's home, 0700) is closed to crew's user.
        return runProcess(cmd, args, { ...opts, cwd: '/', env: { PATH: (0,own_programs/* ownPath */.O4)() }, input });
    }
    start(command, opts) {
        // The git config is sanitised when the sandbox runs its first command (prepareSandbox's probe), before any server starts.
        const { argv, input } = this.argvSync(command, opts, 'cd "$1" && eval exec "$2"', true);
        const [cmd, ...args] = argv;
        return startProcess(cmd, args, { cwd: '/', env: { PATH: (0,own_programs/* ownPath */.O4)() }, viaSudo: this.viaSudo, input });
    }
    programHome(fill) {
        const privileged = (cmd, args) => (this.viaSudo ? command_runner_exec('sudo', ['-n', cmd, ...args]) : command_runner_exec(cmd, args));
        return freshHome(this.places.programHomes, async (dir) => {
            await privileged('chown', ['-R', `${TOOL_USER}:`, dir]);
            await privileged('chmod', ['700', dir]);
        }, 
        // The tool user's files: only root may remove them.
        (dir) => privileged('rm', ['-rf', '--', dir]), fill);
    }
    async argv(command, opts, script) {
        // The checkout's .git/config is replaced, inside the command's mount namespace, by a copy without
        // credentials or command-running keys, in case a token was persisted there (actions/checkout's default).
        await (0,promises_.writeFile)((0,external_node_path_.join)(this.privateDir, 'git-config'), await sanitizedGitConfig(opts.cwd));
        return this.argvSync(command, opts, script);
    }
    /** `program`: a long-lived program (an MCP server) gets only the variables named for it, not `sandbox_env`. */
    argvSync(command, opts, script, program = false) {
        const safeConfig = (0,external_node_path_.join)(this.privateDir, 'git-config');
        const route = egressRoute(this.egress, opts);
        const services = servicesOf(this.reach, opts.network);
        const inner = [
            'unshare',
            ...namespaceArgs(opts.network),
            'sh',
            '-c',
            `${route || services.length ? 'ip link set lo up || exit 125; ' : ''}if [ -f "$1/.git/config" ]; then mount --bind "$2" "$1/.git/config" || exit 125; fi; shift 2; exec "$@"`,
            'crew-mount',
            opts.cwd,
            safeConfig,
            ...placesArgs(this.places, { cwd: opts.cwd, home: opts.home, commandsHome: this.home, route, services, network: opts.network, see: opts.see }),
            ...forwarderArgs(route, services),
            'setpriv',
            `--reuid=${TOOL_USER}`,
            `--regid=${TOOL_USER}`,
            '--clear-groups',
            '--no-new-privs',
            '--inh-caps=-all',
            '--bounding-set=-all',
            '--',
            ...shellArgs(command, opts, script),
        ];
        return { argv: this.viaSudo ? ['sudo', '-n', ...inner] : inner, input: envInput(opts.home ?? this.home, route, program ? {} : this.reach, opts.env) };
    }
}
/**
 * The sandbox without root: user, PID, mount and network namespaces that any user may
 * create where the kernel allows it (a maintainer's machine, often; GitHub's runners
 * forbid it). No network, crew's process and its environment out of sight, the
 * repository's git folders read-only (so no hook or config can be planted for crew's
 * or the person's own git); but files the user can read and write stay reachable.
 */
class UserNamespaceRunner {
    home;
    readOnly;
    places;
    egress;
    reach;
    sandboxed = true;
    description = "sandboxed with user namespaces: commands run in their own network namespace with a private /tmp and /run, cannot see crew's process or its environment, and cannot change the repository's .git (or crew's .crew state beside it); they can still read and write the files your own user can (for example ~/.ssh)";
    constructor(home, readOnly, places, egress, reach = {}) {
        this.home = home;
        this.readOnly = readOnly;
        this.places = places;
        this.egress = egress;
        this.reach = reach;
    }
    run(command, opts) {
        const { argv, input } = this.argv(command, opts, `${NO_INPUT}cd "$1" && eval "$2"`);
        return runProcess('unshare', argv, { ...opts, env: { PATH: (0,own_programs/* ownPath */.O4)() }, input });
    }
    start(command, opts) {
        const { argv, input } = this.argv(command, opts, 'cd "$1" && eval exec "$2"', true);
        return startProcess('unshare', argv, { cwd: opts.cwd, env: { PATH: (0,own_programs/* ownPath */.O4)() }, input });
    }
    programHome(fill) {
        // Commands here run as the person's own user, so the home is theirs as it is.
        return freshHome(this.places.programHomes, async () => undefined, (dir) => (0,promises_.rm)(dir, { recursive: true, force: true }), fill);
    }
    argv(command, opts, script, program = false) {
        const route = egressRoute(this.egress, opts);
        const services = servicesOf(this.reach, opts.network);
        const argv = [
            '--user',
            '--map-root-user',
            ...namespaceArgs(opts.network),
            'sh',
            '-c',
            `${route || services.length ? 'ip link set lo up || exit 125; ' : ''}n=$1; shift; while [ "$n" -gt 0 ]; do mount --bind "$1" "$1" && { mount -o "remount,bind,ro,$2" "$1" 2>/dev/null || mount -o remount,bind,ro "$1"; } || exit 125; shift 2; n=$((n-1)); done; exec "$@"`,
            'crew-ro',
            String(this.readOnly.length),
            ...(0,private_mounts/* readOnlyPairs */.OI)(this.readOnly),
            ...placesArgs(this.places, { cwd: opts.cwd, home: opts.home, commandsHome: this.home, route, services, network: opts.network, see: opts.see }),
            ...forwarderArgs(route, services),
            ...shellArgs(command, opts, script),
        ];
        return { argv, input: envInput(opts.home ?? this.home, route, program ? {} : this.reach, opts.env) };
    }
}
/** The user-namespace sandbox, if this machine allows it: it must start, and really have no network. */
async function prepareUserNamespace(workspace, tempDir, egress, reach = {}) {
    const gitDirs = new Set();
    for (const flag of ['--git-common-dir', '--absolute-git-dir']) {
        const out = await command_runner_exec((0,own_programs/* ownGit */.Jc)(), ['-C', workspace, 'rev-parse', flag], {}).catch(() => undefined);
        if (out?.stdout.trim())
            gitDirs.add((0,external_node_path_.resolve)(workspace, out.stdout.trim()));
    }
    // Local mode keeps its state beside the repository's git folder (`.crew/`: runs, allowed setup commands): read-only too.
    for (const d of [...gitDirs]) {
        const state = (0,external_node_path_.join)((0,external_node_path_.dirname)(d), '.crew');
        if (d.endsWith('/.git') && (await (0,promises_.stat)(state).catch(() => undefined))?.isDirectory())
            gitDirs.add(state);
    }
    const home = (0,external_node_path_.join)(tempDir, 'crew-tool-home');
    if (await (0,promises_.mkdir)(home, { recursive: true }))
        await copyHomeCaches(home, reach.caches);
    const places = {
        keep: [workspace, tempDir, ...gitDirs],
        sockets: [...(egress ? [egress.socket] : []), ...(reach.services ?? []).map((s) => s.socket), ...(0,private_mounts/* namedSockets */.WU)()],
        programHomes: (0,external_node_path_.join)(tempDir, 'crew-program-homes'),
    };
    const runner = new UserNamespaceRunner(home, [...gitDirs], places, undefined, reach);
    // It must start, and the repository's git folders (if any) must really be read-only inside.
    const check = [...gitDirs].map((d) => `test ! -w '${d.replace(/'/g, "'\\''")}' && `).join('');
    // The probe's mount table also tells which PATH folders could not be made read-only (lockedNote), said once.
    const probe = await runner.run(`${check}echo ok && { grep -F ' - tmpfs ${private_mounts/* LOCKED_MOUNT */.xs} ' /proc/self/mountinfo || true; }`, {
        cwd: workspace,
        timeoutMs: 20_000,
        maxOutputBytes: 20_000,
    });
    const [said, ...mounts] = probe.output.trim().split('\n');
    if (probe.exitCode !== 0 || said !== 'ok')
        return { reason: `user namespaces are not available here (${said?.slice(0, 160) || `exit ${probe.exitCode}`})` };
    const prepared = await withEgress(runner, egress, (route) => new UserNamespaceRunner(home, [...gitDirs], places, route, reach), workspace);
    const notes = (0,private_mounts/* lockedNote */.hB)(mounts.join('\n'));
    return 'runner' in prepared && notes.length ? { ...prepared, notes } : prepared;
}
/**
 * The same sandbox with the route to the egress proxy, if a command in it really reaches the proxy
 * (`ip` brings up the namespace's loopback, crew's node runs there, the socket answers); otherwise the
 * sandbox without it, and why.
 */
async function withEgress(plain, egress, make, workspace) {
    if (!egress)
        return { runner: plain };
    const routed = make(egress);
    const probe = await routed.run('echo ok', { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 2000, network: 'allowlist' });
    if (probe.exitCode === 0 && probe.output.trim() === 'ok')
        return { runner: routed };
    const said = probe.output
        .trim()
        .split('\n')
        .find((l) => l.startsWith('crew:')) ?? probe.output.trim().split('\n')[0];
    return { runner: plain, egressProblem: `the sandbox could not reach crew's egress proxy (${said?.slice(0, 200) || `exit ${probe.exitCode}`})` };
}
/**
 * Without a sandbox: the environment is still scrubbed and the path jail still holds
 * for file tools, but a command runs as crew's own user and could read anything that
 * user can, including the parent process's environment. Only used when config allows it.
 */
class UnsandboxedRunner {
    home;
    reach;
    sandboxed = false;
    description = 'NOT sandboxed: commands run as crew’s own user with a scrubbed environment; they can read files that user can read and reach the network';
    constructor(home, 
    /** The setup steps' named variables; their services are on this machine's own loopback already. */
    reach = {}) {
        this.home = home;
        this.reach = reach;
    }
    run(command, opts) {
        return runProcess('bash', ['--noprofile', '--norc', '-c', command], { ...opts, env: { ...this.reach.env, ...toolEnv(this.home), ...opts.env } });
    }
    start(command, opts) {
        return startProcess('bash', ['--noprofile', '--norc', '-c', `exec ${command}`], {
            cwd: opts.cwd,
            env: { ...toolEnv(opts.home ?? this.home), ...opts.env },
        });
    }
    programHome(fill) {
        return sameUserHome(this.home, fill);
    }
}
/** Keys of a checkout's git config that are safe to show a tool: no credentials, nothing that runs a program. */
const SAFE_GIT_KEYS = /^(core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol)|remote\.[^.]+\.(url|fetch)|branch\.[^.]+\.(remote|merge)|extensions\.[a-z]+)$/i;
async function sanitizedGitConfig(workspace) {
    let listed = '';
    try {
        listed = (await command_runner_exec((0,own_programs/* ownGit */.Jc)(), ['config', '--file', (0,external_node_path_.join)(workspace, '.git', 'config'), '--list'], {})).stdout;
    }
    catch {
        return '';
    }
    const lines = ["# crew: a sanitised view of this checkout's .git/config"];
    for (const line of listed.split('\n')) {
        const i = line.indexOf('=');
        if (i < 0)
            continue;
        const key = line.slice(0, i);
        let value = line.slice(i + 1);
        if (!SAFE_GIT_KEYS.test(key))
            continue;
        if (/\.url$/i.test(key))
            value = value.replace(/\/\/[^/@]*@/, '//');
        const dot = key.indexOf('.');
        const last = key.lastIndexOf('.');
        const section = key.slice(0, dot);
        const sub = dot === last ? '' : ` "${key.slice(dot + 1, last)}"`;
        lines.push(`[${section}${sub}]`, `\t${key.slice(last + 1)} = ${JSON.stringify(value)}`);
    }
    return `${lines.join('\n')}\n`;
}
async function can(cmd, args) {
    try {
        await command_runner_exec(cmd, args, { timeout: 20_000 });
        return true;
    }
    catch {
        return false;
    }
}
/** Lets the tool user reach and write the workspace, but not .git (crew's own git must not run a hook it planted). */
async function openWorkspace(workspace, privileged) {
    for (let dir = (0,external_node_path_.dirname)(workspace);; dir = (0,external_node_path_.dirname)(dir)) {
        if (((await (0,promises_.stat)(dir)).mode & 0o001) === 0)
            await privileged('chmod', ['o+x', dir]);
        if (dir === (0,external_node_path_.dirname)(dir))
            break;
    }
    // `! -type l`: chmod follows symbolic links, and a checkout may hold one pointing anywhere (run as root, that
    // would hand the tool user write access to whatever it points at).
    await privileged('find', [workspace, '-path', (0,external_node_path_.join)(workspace, '.git'), '-prune', '-o', '!', '-type', 'l', '-exec', 'chmod', 'a+rwX', '{}', '+']);
}
/**
 * Prepares the sandbox at job start: creates the tool user (as root, or through
 * passwordless sudo as on GitHub's runners), gives it a home and the workspace, and
 * checks a command really runs inside. Returns undefined with the reason when it cannot.
 */
async function prepareSandbox(workspace, tempDir, egress, reach = {}) {
    const root = process.getuid?.() === 0;
    const sudo = root ? [] : (await can('sudo', ['-n', 'true'])) ? ['sudo', '-n'] : undefined;
    if (!sudo)
        return { reason: 'crew is not root and has no passwordless sudo, so it cannot create the tool user or its namespaces' };
    const run = (cmd, args) => (sudo.length ? command_runner_exec('sudo', ['-n', cmd, ...args]) : command_runner_exec(cmd, args));
    try {
        // Another job on the same machine may create the user at the same moment: only a user that still does not exist is an error.
        if (!(await can('id', [TOOL_USER])))
            await run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', TOOL_USER]).catch(async (e) => {
                if (!(await can('id', [TOOL_USER])))
                    throw e;
            });
        const home = (0,external_node_path_.join)(tempDir, 'crew-tool-home');
        // A second sandbox in the same job (a chained task) finds the home already handed to the tool user, where crew's
        // own user may no longer write: it is kept as it is.
        const toolUid = Number((await command_runner_exec('id', ['-u', TOOL_USER])).stdout);
        if ((await (0,promises_.stat)(home).catch(() => undefined))?.uid !== toolUid) {
            await (0,promises_.mkdir)(home, { recursive: true });
            await (0,promises_.writeFile)((0,external_node_path_.join)(home, '.gitconfig'), TOOL_GITCONFIG);
            await copyHomeCaches(home, reach.caches);
            await run('chown', ['-R', `${TOOL_USER}:`, home]);
            await (0,promises_.chmod)(home, 0o700).catch(() => undefined);
        }
        await openWorkspace(workspace, run);
        const privateDir = (0,external_node_path_.join)(tempDir, 'crew-sandbox');
        await (0,promises_.mkdir)(privateDir, { recursive: true, mode: 0o755 });
        const places = {
            keep: [workspace, tempDir],
            sockets: [...(egress ? [egress.socket] : []), ...(reach.services ?? []).map((s) => s.socket), ...(0,private_mounts/* namedSockets */.WU)()],
            programHomes: (0,external_node_path_.join)(privateDir, 'homes'),
        };
        const runner = new NamespaceRunner(home, privateDir, sudo.length > 0, places, undefined, reach);
        const probe = await runner.run('id -un', { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 1000 });
        if (probe.exitCode !== 0 || probe.output.trim() !== TOOL_USER)
            return { reason: `the sandbox did not start (${probe.output.trim().slice(0, 200) || `exit ${probe.exitCode}`})` };
        return await withEgress(runner, egress, (route) => new NamespaceRunner(home, privateDir, sudo.length > 0, places, route, reach), workspace);
    }
    catch (e) {
        return { reason: `setting up the sandbox failed: ${e.message.split('\n')[0]}` };
    }
}


/***/ }),

/***/ 59976:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Z8: () => (/* binding */ makeSocketPlace),
/* harmony export */   eA: () => (/* binding */ makeEgressSocketPlace),
/* harmony export */   og: () => (/* binding */ removedAtExit)
/* harmony export */ });
/* unused harmony export SOCKET_PATH_MAX */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(48161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_os__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);




/**
 * Where crew's egress proxy puts its Unix socket: the one place that decides it (the sandbox's route
 * gets the path from the proxy, never builds it).
 *
 * A socket's address holds at most 107 bytes of path on Linux (`sun_path` is 108 with its NUL,
 * unix(7)); 103 on macOS. Node before 23 cuts a longer path short without a word and binds whatever
 * the cut leaves (maybe outside the private folder); Node 23 and later, as GitHub's `node24` runs
 * actions, refuse it with EINVAL (nodejs/node#52347). A runner's temporary folder can be any depth, so
 * the socket never goes there: it goes in a fresh folder (`mkdtemp`: random name, `0700`, crew's user's)
 * in the machine's temporary folder, or in /tmp when that one is too deep.
 */
const SOCKET_PATH_MAX = process.platform === 'darwin' ? 103 : 107;
const FOLDER = 'crew-egress-';
const SOCKET = 'proxy.sock';
/** What mkdtemp adds to the prefix. */
const RANDOM = 6;
/** Makes the socket's private folder; the socket is `socket` in it. Throws, naming the folders tried, when none is short enough. */
function makeEgressSocketPlace() {
    return makeSocketPlace(FOLDER, SOCKET);
}
/** The same for another of crew's sockets (a service's bridge, #51): a fresh private folder `<prefix>XXXXXX`, and `name` in it. */
async function makeSocketPlace(prefix, name) {
    const fits = (base) => Buffer.byteLength((0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(base, prefix)) + RANDOM + 1 + name.length <= SOCKET_PATH_MAX;
    const bases = [...new Set([(0,node_os__WEBPACK_IMPORTED_MODULE_2__.tmpdir)(), '/tmp'])];
    const base = bases.find(fits);
    if (!base)
        throw new Error(`no folder short enough for crew's socket ${name} (tried ${bases.join(', ')}; a socket path holds ${SOCKET_PATH_MAX} bytes)`);
    const dir = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.mkdtemp)((0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(base, prefix));
    return { dir, socket: (0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(dir, name) };
}
/** Socket folders still in use: removed when the process exits (local mode runs many jobs in one process; a self-hosted runner keeps /tmp). */
const live = new Set();
process.once('exit', () => {
    for (const dir of live)
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.rmSync)(dir, { recursive: true, force: true });
});
/** Removes `dir` when the process exits, unless the returned function is called first (its owner removed it). */
function removedAtExit(dir) {
    live.add(dir);
    return () => void live.delete(dir);
}


/***/ }),

/***/ 38852:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  critic: () => (/* binding */ critic),
  testReports: () => (/* binding */ testReports)
});

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 4 modules
var schemas = __webpack_require__(41514);
// EXTERNAL MODULE: ./src/domain/file-window.ts + 1 modules
var file_window = __webpack_require__(36447);
;// CONCATENATED MODULE: ./src/domain/citations.ts
/**
 * The critic's evidence, held to the tree it judged. Evidence may cite a file (`src/a.ts`, in
 * backticks), a line or a range (`src/a.ts:5`, `src/a.ts:5-9`), and quote code in backticks
 * after such a citation. crew checks each citation against the committed tree: a file that is
 * not there, a line past its end, or a quote the cited lines do not contain makes the
 * evaluation not met. Pure: the caller reads the files.
 */

// A path: segments of word characters, dots and dashes, the last with a letter-led extension.
const PATH = String.raw `(?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]*`;
const LINED = new RegExp(String.raw `(?<![\w/.:@-])(${PATH}):(\d+)(?:-(\d+))?(?![\w])`, 'g');
const CITATION_ONLY = new RegExp(String.raw `^${PATH}(?::\d+(?:-\d+)?)?$`);
const BACKTICKED_PATH = new RegExp(String.raw `\`(${PATH})\``, 'g');
/** A quote right after the citation: only spaces or a colon or dash between them. */
const QUOTE = /^\s*[:—–-]?\s*`([^`\n]+)`/;
/**
 * Extensions of files people cite. A name with a slash is a path whatever its extension; without
 * one, `JSON.parse`, `res.status` or `api.example.com` are code and hosts, not files.
 */
const FILE_EXTENSIONS = new Set('js jsx mjs cjs ts tsx mts cts py pyi go rb rs java kt kts swift c h cc cpp hpp cs php scala sh bash zsh ps1 sql md mdx rst txt json jsonc yml yaml toml ini cfg conf xml html htm css scss sass less vue svelte graphql proto lock env gradle'.split(' '));
const looksLikeFile = (path) => path.includes('/') || FILE_EXTENSIONS.has(path.slice(path.lastIndexOf('.') + 1).toLowerCase());
/** The citations in one piece of evidence, in order. URLs, code like `JSON.parse` and host names are not citations. */
function citationsIn(evidence) {
    const text = evidence.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, (url) => ' '.repeat(url.length));
    const out = [];
    for (const m of text.matchAll(LINED)) {
        if (!looksLikeFile(m[1]))
            continue;
        const from = Number(m[2]);
        const to = m[3] === undefined ? from : Number(m[3]);
        const quote = QUOTE.exec(text.slice(m.index + m[0].length).replace(/^`/, ''))?.[1]?.trim();
        // A backticked citation after it is a citation of its own, not a quote of this one.
        out.push({ raw: m[0], path: normalise(m[1]), from, to, ...(quote && !CITATION_ONLY.test(quote) ? { quote } : {}) });
    }
    for (const m of text.matchAll(BACKTICKED_PATH)) {
        const path = normalise(m[1]);
        if (looksLikeFile(path) && !out.some((c) => c.path === path))
            out.push({ raw: m[0], path });
    }
    return out;
}
const normalise = (path) => path.replace(/^\.\//, '');
/** Why a citation does not hold in a file (undefined: the file is not in the tree), or null when it does. */
function citationProblem(c, text) {
    if (text === undefined)
        return `${c.raw} cites ${c.path}, which is not in the tree crew judged`;
    if (c.from === undefined)
        return null;
    // Numbered as read_file numbers them (domain/file-window.ts), so a line the critic saw is the line checked.
    const lines = (0,file_window/* linesOf */.Dx)(text);
    const to = c.to ?? c.from;
    if (c.from < 1 || to < c.from)
        return `${c.raw} is not a line range`;
    if (to > lines.length)
        return `${c.raw} cites line ${to}, but ${c.path} has ${lines.length} line${lines.length === 1 ? '' : 's'}`;
    if (c.quote !== undefined) {
        // Spacing aside: a quote may space code differently from the file.
        const squash = (s) => s.replace(/\s+/g, '');
        const cited = lines.slice(c.from - 1, to);
        // An elided quote (`a(…) + b`) holds when its pieces appear in order.
        // A quote copied from read_file with its line number in front (`1500\tcode`) quotes the code.
        const numberedAs = /^(\d+)(?:\t|\s*→|:\s)\s*/.exec(c.quote);
        const quote = numberedAs && Number(numberedAs[1]) >= c.from && Number(numberedAs[1]) <= to ? c.quote.slice(numberedAs[0].length) : c.quote;
        const pieces = quote
            .split(/\.\.\.|…/)
            .map(squash)
            .filter(Boolean);
        const hay = squash(cited.join('\n'));
        let at = 0;
        const holds = pieces.every((p) => {
            const found = hay.indexOf(p, at);
            if (found < 0)
                return false;
            at = found + p.length;
            return true;
        });
        if (!holds) {
            return `${c.raw} does not contain \`${c.quote}\` (${c.from === to ? `line ${c.from} is` : `lines ${c.from}-${to} are`} \`${cited.join(' ').replace(/\s+/g, ' ').trim().slice(0, 120)}\`)`;
        }
    }
    return null;
}

// EXTERNAL MODULE: ./src/agents/command-tools.ts + 1 modules
var command_tools = __webpack_require__(34627);
// EXTERNAL MODULE: ./src/agents/path-jail.ts
var path_jail = __webpack_require__(22576);
// EXTERNAL MODULE: ./src/agents/submission.ts
var submission = __webpack_require__(22180);
// EXTERNAL MODULE: ./src/agents/tool-loop.ts + 3 modules
var tool_loop = __webpack_require__(34068);
// EXTERNAL MODULE: ./src/agents/read-only-tools.ts
var read_only_tools = __webpack_require__(13297);
;// CONCATENATED MODULE: ./src/agents/critic.ts







const JudgmentSchema = schemas/* object */.Ikc({
    evaluations: schemas/* array */.YOg(schemas/* object */.Ikc({
        criterion: schemas/* string */.YjP().describe('The criterion id, e.g. c2.'),
        met: schemas/* boolean */.zMY(),
        evidence: schemas/* array */.YOg(schemas/* string */.YjP()).describe('What shows it: file:line excerpts, command output. A PASS without evidence counts as FAIL.'),
        confidence: schemas/* number */.aig().min(0).max(1),
        tasks: schemas/* array */.YOg(schemas/* string */.YjP()).default([]).describe('When not met: the task ids whose work falls short.'),
    }))
        .default([]),
    overall_reason: schemas/* string */.YjP().trim().min(1),
    suggested_next_action: schemas/* string */.YjP().default(''),
    renames: schemas/* array */.YOg(schemas/* object */.Ikc({
        criterion: schemas/* string */.YjP().describe('The command criterion whose run lost the test, e.g. c1.'),
        lost: schemas/* string */.YjP().describe('The lost test exactly as crew listed it.'),
        replacement: schemas/* string */.YjP().describe('The new passing test that replaces it, exactly as crew listed it among the new tests.'),
    }))
        .default([])
        .describe('Lost tests that were renamed, not lost: each with the new test that replaces it. Leave a lost test out unless the diff shows the same test under the new name.'),
});
function firstMessage(i) {
    const lines = [
        `Judgment ${i.iteration} of at most ${i.limit} for this run.`,
        ...(i.previous ? ['', '## Why the previous judgment failed (the tasks were sent back with these reasons)', i.previous] : []),
        '',
        '## What was asked',
        i.plan.summary,
        '',
        '## Criteria for you to judge',
        ...(i.judge.length
            ? i.judge.map((c) => `- ${c.id}: ${c.text}`)
            : ['(none: every criterion is a command crew ran; only name the tasks behind any that failed)']),
        '',
        '## Command criteria crew ran on this branch',
        ...(i.commandResults.length
            ? i.commandResults.map((e) => `- ${e.criterion}: ${e.text} → ${e.met === true ? 'met' : e.met === false ? 'NOT met' : `error (${e.error})`}\n  ${e.evidence.join('\n  ').slice(0, 1500)}`)
            : ['(none)']),
        '',
        '## What crew found in the diff and the test runs',
        ...(i.adversarial.length ? i.adversarial.map((f) => `- ${f.rule}: ${f.evidence}`) : ['(nothing)']),
        ...lostSection(i.lostTests ?? []),
        '',
        '## The tasks and what their workers reported (their word, not evidence)',
        ...i.taskSummaries.map((t) => `- ${t.id} ${t.title}: ${t.summary.split('\n')[0]} (files: ${t.files.join(', ') || 'none'})`),
        '',
        '## Files changed against the base',
        i.diffStat || '(no changes)',
    ];
    if (i.guidance.trim())
        lines.push('', "## This repository's guidance for judging", i.guidance.trim());
    lines.push('', 'Judge every criterion listed for you on the code as it is in this checkout. Read the files and run checks yourself; a worker saying it did something is not evidence. Then call submit_judgment once, with one evaluation per criterion, and for any criterion not met (yours or a command that failed) the task ids whose work falls short.', 'Cite code as `path:line` or `path:first-last`, with the code you mean quoted in backticks right after it (for example: src/a.ts:12 `return a + b;`). crew checks every citation against the committed tree: a file, line or quote that is not there makes the criterion not met.');
    return lines.join('\n');
}
/** The lost tests, and the new tests a rename may name: a lost test stays a failure unless the model names its replacement. */
function lostSection(lost) {
    const withLost = lost.filter((l) => l.lost.length);
    if (!withLost.length)
        return [];
    return [
        '',
        '## Tests that passed on the base and do not pass on this branch',
        'crew ran each command on the base and on this branch and compared the tests by name. Each lost test below fails the judgment. If the diff shows one was only renamed (the same test under a new name), list it in `renames` with the new test that replaces it, both exactly as written here; otherwise leave it.',
        ...withLost.flatMap((l) => [
            `- ${l.criterion} (\`${l.command}\`), lost:`,
            ...l.lost.map((t) => `  - ${t}`),
            `  new tests that pass here and did not exist on the base: ${l.newPassing.length ? '' : '(none)'}`,
            ...l.newPassing.map((t) => `  - ${t}`),
        ]),
    ];
}
/** The renames a judgment names, held to crew's lists: the problems, for the model to correct. */
function renameProblems(renames, lost) {
    const problems = [];
    const usedLost = new Set();
    const usedNew = new Set();
    for (const [n, r] of renames.entries()) {
        const l = lost.find((x) => x.criterion === r.criterion);
        const at = `renames.${n}`;
        if (!l)
            problems.push(`${at}: ${r.criterion} lost no tests`);
        else if (!l.lost.includes(r.lost.trim()))
            problems.push(`${at}.lost: "${r.lost}" is not among the tests ${r.criterion} lost`);
        else if (!l.newPassing.includes(r.replacement.trim()))
            problems.push(`${at}.replacement: "${r.replacement}" is not among the new passing tests of ${r.criterion}`);
        else if (usedLost.has(`${r.criterion}\0${r.lost.trim()}`) || usedNew.has(`${r.criterion}\0${r.replacement.trim()}`))
            problems.push(`${at}: each lost test and each new test can be named in one rename only`);
        usedLost.add(`${r.criterion}\0${r.lost.trim()}`);
        usedNew.add(`${r.criterion}\0${r.replacement.trim()}`);
    }
    return problems;
}
/** Every citation in a met criterion's evidence, checked against the judged commit. */
async function checkEvidence(evidence, readTree, readBase) {
    const verified = [];
    const problems = [];
    // A path git cannot read (outside the repository, say) is a file the tree does not hold.
    const read = (f, path) => f(path).catch(() => undefined);
    for (const c of evidence.flatMap((e) => citationsIn(e))) {
        const text = await read(readTree, c.path);
        // Naming a file the change deleted (no line cited) is a statement about the change, not a citation of code.
        if (text === undefined && c.from === undefined && readBase && (await read(readBase, c.path)) !== undefined)
            continue;
        const problem = citationProblem(c, text);
        if (problem)
            problems.push(problem);
        else
            verified.push(c.quote ? `${c.raw} ${c.quote}` : c.raw.replace(/`/g, ''));
    }
    return { verified: [...new Set(verified)], problems: [...new Set(problems)] };
}
/** The critic: judges the semantic criteria on the integrated branch with read-only tools. */
async function runCritic(model, input, log, trajectory) {
    const jail = new path_jail/* PathJail */.S(input.repoDir, []);
    const ids = new Set(input.judge.map((c) => c.id));
    const failedCommands = new Set(input.commandResults.filter((e) => e.met !== true).map((e) => e.criterion));
    let out;
    let askedAgain = false;
    const tools = [
        ...(0,read_only_tools/* readOnlyTools */.qJ)(jail, input.commands.maxOutputBytes),
        (0,command_tools/* runCommandTool */.Lx)(jail, input.commands),
        (0,submission/* answerTool */.h2)({
            name: 'submit_judgment',
            description: "Submit your judgment of every criterion listed for you, once, at the end. crew checks each citation in a met criterion's evidence against the judged commit (the file exists, the line is within it, a quoted text in backticks is on the cited lines); citations that do not hold come back once, with the reasons, to be corrected.",
            schema: JudgmentSchema,
        }, async (judged) => {
            const unknown = judged.evaluations.filter((e) => !ids.has(e.criterion) && !failedCommands.has(e.criterion)).map((e) => e.criterion);
            const missing = [...ids].filter((id) => !judged.evaluations.some((e) => e.criterion === id));
            const problems = [
                ...(unknown.length ? [`evaluations: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not among the criteria listed for you`] : []),
                ...(missing.length ? [`evaluations: judge ${missing.join(', ')} too`] : []),
                ...renameProblems(judged.renames, input.lostTests ?? []),
            ];
            if (problems.length)
                throw new submission/* NotAccepted */.D2(problems, 'submit_judgment');
            const checked = new Map();
            if (input.readTree)
                for (const e of judged.evaluations)
                    if (e.met)
                        checked.set(e.criterion, await checkEvidence(e.evidence, input.readTree, input.readBase));
            const wrong = [...checked].filter(([, c]) => c.problems.length);
            // Asked once more with the reasons; the second answer stands (its bad citations make it not met).
            if (wrong.length && !askedAgain) {
                askedAgain = true;
                throw new Error(`Not accepted: your evidence cites code the judged commit does not hold:\n${wrong.map(([id, c]) => c.problems.map((p) => `- ${id}: ${p}`).join('\n')).join('\n')}\nRead the files again and call submit_judgment again. Cite what is there, or judge the criterion not met.`);
            }
            out = {
                evaluations: judged.evaluations.map((e) => ({
                    criterion: e.criterion,
                    met: e.met,
                    evidence: e.evidence,
                    confidence: e.confidence,
                    tasks: e.tasks,
                    ...(checked.has(e.criterion) ? { citations: checked.get(e.criterion) } : {}),
                })),
                overallReason: judged.overall_reason,
                suggestedNextAction: judged.suggested_next_action,
                renames: judged.renames.map((r) => ({ criterion: r.criterion, lost: r.lost.trim(), replacement: r.replacement.trim() })),
            };
            return 'Judgment recorded.';
        }),
    ];
    const refusal = 'The critic does not change files: it judges the work, it never does it (4QV+: no self-completion).';
    const outcome = await (0,tool_loop/* runToolLoop */.ko)({
        model,
        modelId: input.modelId,
        system: input.system,
        log,
        ...(trajectory ? { trajectory } : {}),
        tools,
        refused: { write_file: refusal, edit_file: refusal },
        firstMessage: firstMessage(input),
        maxTurns: input.maxTurns,
        nudge: 'When you have judged every criterion, call submit_judgment.',
    });
    return {
        ...(out ?? {
            evaluations: [],
            overallReason: `the critic did not submit a judgment (${outcome.stop} after ${outcome.turns} turns)`,
            suggestedNextAction: '',
        }),
        usage: outcome.usage,
        turns: outcome.turns,
        submitted: out !== undefined,
    };
}

// EXTERNAL MODULE: ./src/agents/run-budget.ts
var run_budget = __webpack_require__(2909);
// EXTERNAL MODULE: ./src/domain/command-policy.ts
var command_policy = __webpack_require__(97112);
// EXTERNAL MODULE: ./src/domain/diff.ts
var domain_diff = __webpack_require__(25641);
// EXTERNAL MODULE: ./src/domain/judgment.ts
var judgment = __webpack_require__(7882);
// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/render/report.ts
var report = __webpack_require__(56076);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/domain/surface.ts
var surface = __webpack_require__(45759);
// EXTERNAL MODULE: ./src/state/transitions.ts
var transitions = __webpack_require__(82649);
// EXTERNAL MODULE: ./src/steps/caps.ts
var caps = __webpack_require__(75498);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/steps/finish.ts + 1 modules
var finish = __webpack_require__(76347);
// EXTERNAL MODULE: ./src/steps/budget-stop.ts
var budget_stop = __webpack_require__(8811);
// EXTERNAL MODULE: ./src/domain/labels.ts
var labels = __webpack_require__(85745);
// EXTERNAL MODULE: ./src/state/judgments.ts
var judgments = __webpack_require__(67164);
// EXTERNAL MODULE: ./src/toolbox/sandbox-setup.ts + 4 modules
var sandbox_setup = __webpack_require__(85478);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./src/sandbox/own-temp.ts
var own_temp = __webpack_require__(79226);
// EXTERNAL MODULE: ./src/domain/test-results/index.ts + 1 modules
var test_results = __webpack_require__(99216);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: ./src/domain/test-results/read.ts + 9 modules
var read = __webpack_require__(59615);
;// CONCATENATED MODULE: ./src/sandbox/test-reports/hooks.ts
/**
 * The programs crew puts beside a command criterion so that the test runner it reaches writes a
 * machine-readable report into the run's report folder (CREW_TEST_REPORT_DIR), each in a file of
 * its own named `<runner>-<pid>-<ms>.<ext>`. They run inside the sandbox, as the tool user, and
 * are written where that user can read them but not change them. Each leaves what people see as
 * it was (or close to it: go test's output is verbose) and never changes a test's outcome.
 * They are plain JavaScript and Python with no backquote and no template placeholder of their own,
 * so they can sit here in String.raw (the two binary wrappers take their shared start as one).
 */
/**
 * node's test runner: named by NODE_OPTIONS (`--test-reporter=<this> --test-reporter-destination=stdout`).
 * It passes every event to node's spec reporter for people, unless the command chose reporters of its own
 * on its command line, and keeps each test's start and end in its file. Node documents that
 * `test:start` and `test:pass`/`test:fail` come in the order the tests are defined.
 */
const NODE_REPORTER = String.raw `'use strict';
// crew: node's test runner reporter (crew's test results as data).
const fs = require('node:fs');
const path = require('node:path');
const reporters = require('node:test/reporters');
const KEPT = new Set(['test:start', 'test:pass', 'test:fail']);
module.exports = async function* crewReporter(source) {
  const own = process.execArgv.some((a) => a.startsWith('--test-reporter'));
  const fd = fs.openSync(path.join(process.env.CREW_TEST_REPORT_DIR, 'node-' + process.pid + '-' + Date.now() + '.jsonl'), 'wx');
  const put = (o) => fs.writeSync(fd, JSON.stringify(o) + '\n');
  put({ crew: 'test-report', runner: 'node', version: 1 });
  const human = own ? null : new reporters.spec();
  for await (const event of source) {
    if (KEPT.has(event.type)) {
      const d = event.data || {};
      put({ type: event.type, name: String(d.name), nesting: d.nesting || 0, file: d.file || null, line: d.line || null, skip: d.skip !== undefined && d.skip !== false, todo: d.todo !== undefined && d.todo !== false, kind: (d.details && d.details.type) || null });
    }
    if (human) {
      human.write(event);
      for (let chunk = human.read(); chunk !== null; chunk = human.read()) yield chunk;
    }
  }
  if (human) {
    human.end();
    for await (const chunk of human) yield chunk;
  }
  put({ end: true });
  fs.closeSync(fd);
};
`;
/**
 * vitest, jest and mocha have no environment variable for a reporter, so this preload (NODE_OPTIONS
 * `--require`) adds their own report options to the command line when one of their programs starts:
 * vitest `--reporter=default --reporter=json --outputFile.json=…`, jest `--json --outputFile=…
 * --testLocationInResults`, mocha crew's reporter (spec for people). Any other program is left alone.
 */
const NODE_PRELOAD = String.raw `'use strict';
// crew: adds a machine-readable report to vitest, jest and mocha (crew's test results as data).
(function () {
  const fs = require('node:fs');
  const path = require('node:path');
  const dir = process.env.CREW_TEST_REPORT_DIR;
  if (!dir || !process.argv[1]) return;
  let main;
  try {
    main = fs.realpathSync(process.argv[1]);
  } catch (e) {
    return;
  }
  const parts = main.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return;
  const pkg = parts[at + 1];
  const bin = parts.slice(at + 2).join('/');
  const file = (runner, ext) => path.join(dir, runner + '-' + process.pid + '-' + Date.now() + '.' + ext);
  if (pkg === 'vitest' && bin === 'vitest.mjs') process.argv.push('--reporter=default', '--reporter=json', '--outputFile.json=' + file('vitest', 'json'));
  else if ((pkg === 'jest' || pkg === 'jest-cli') && bin === 'bin/jest.js') process.argv.push('--json', '--outputFile=' + file('jest', 'json'), '--testLocationInResults');
  else if (pkg === 'mocha' && ['bin/mocha.js', 'bin/mocha', 'bin/_mocha', 'lib/cli/cli.js'].includes(bin)) process.argv.push('--reporter', path.join(__dirname, 'crew-mocha-reporter.cjs'));
})();
`;
/** mocha's spec reporter for people, and each test's outcome and title path for crew. */
const MOCHA_REPORTER = String.raw `'use strict';
// crew: mocha reporter (crew's test results as data).
const fs = require('node:fs');
const path = require('node:path');
module.exports = function CrewReporter(runner, options) {
  const Mocha = require(require.resolve('mocha', { paths: [path.dirname(fs.realpathSync(process.argv[1])), process.cwd()] }));
  new Mocha.reporters.Spec(runner, options);
  const fd = fs.openSync(path.join(process.env.CREW_TEST_REPORT_DIR, 'mocha-' + process.pid + '-' + Date.now() + '.jsonl'), 'wx');
  const put = (o) => fs.writeSync(fd, JSON.stringify(o) + '\n');
  put({ crew: 'test-report', runner: 'mocha', version: 1 });
  const record = (outcome) => (test) => put({ outcome: outcome, file: test.file || null, titles: test.titlePath(), hook: test.type === 'hook' });
  runner.on('pass', record('passed'));
  runner.on('fail', record('failed'));
  runner.on('pending', record('skipped'));
  runner.once('end', () => {
    put({ end: true });
    fs.closeSync(fd);
  });
};
`;
/**
 * Python, on PYTHONPATH: under pytest, pytest writes its JUnit XML (`--junitxml`, `junit_family=xunit1`
 * for file and line) through PYTEST_ADDOPTS, one file per process. Under unittest, which writes no
 * report, unittest's TestResult records each outcome. A project's own sitecustomize still runs after it.
 */
const PYTHON_SITECUSTOMIZE = String.raw `# crew: test results as data (pytest's JUnit XML; unittest's outcomes).
import os as _crew_os


def _crew_install():
    import sys
    import time

    report_dir = _crew_os.environ.get("CREW_TEST_REPORT_DIR")
    if not report_dir:
        return
    here = _crew_os.path.dirname(_crew_os.path.abspath(__file__))
    stamp = "%d-%d" % (_crew_os.getpid(), int(time.time() * 1000))
    _crew_os.environ["PYTEST_ADDOPTS"] = (
        _crew_os.environ.get("PYTEST_ADDOPTS", "")
        + " --junitxml=" + _crew_os.path.join(report_dir, "pytest-" + stamp + ".xml")
        + " -o junit_family=xunit1"
    ).strip()

    import inspect
    import json
    import unittest.result as result

    state = {"file": None, "runs": 0, "subtests": set()}

    def put(record):
        if state["file"] is None:
            state["runs"] += 1
            name = "unittest-" + stamp + "-" + str(state["runs"]) + ".jsonl"
            state["file"] = open(_crew_os.path.join(report_dir, name), "x")
            state["file"].write(json.dumps({"crew": "test-report", "runner": "unittest", "version": 1}) + "\n")
        state["file"].write(json.dumps(record) + "\n")

    def describe(test):
        cls = type(test)
        method = getattr(test, "_testMethodName", None)
        where, line = None, None
        try:
            where = inspect.getsourcefile(cls)
        except (TypeError, OSError):
            where = getattr(sys.modules.get(cls.__module__), "__file__", None)
        if method:
            try:
                line = inspect.getsourcelines(getattr(cls, method))[1]
            except (TypeError, OSError, AttributeError):
                line = None
        return {"id": test.id(), "module": cls.__module__, "cls": cls.__qualname__, "method": method, "file": where, "line": line}

    def wrap(name, outcome):
        original = getattr(result.TestResult, name)

        def recorded(self, test, *args):
            original(self, test, *args)
            if name == "addSubTest":
                # One failed subtest fails its test; unittest then reports no success for it.
                if args[1] is None or id(test) in state["subtests"]:
                    return
                state["subtests"].add(id(test))
            record = describe(test)
            record["outcome"] = outcome
            put(record)

        setattr(result.TestResult, name, recorded)

    for name, outcome in (
        ("addSuccess", "passed"),
        ("addFailure", "failed"),
        ("addError", "failed"),
        ("addSkip", "skipped"),
        ("addExpectedFailure", "skipped"),
        ("addUnexpectedSuccess", "failed"),
        ("addSubTest", "failed"),
    ):
        wrap(name, outcome)

    stop = result.TestResult.stopTestRun

    def stopped(self):
        stop(self)
        put({"end": True})
        state["file"].close()
        state["file"] = None

    result.TestResult.stopTestRun = stopped

    import importlib.machinery
    import importlib.util

    rest = [p for p in sys.path if _crew_os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


_crew_install()
del _crew_install
`;
/**
 * How go's -exec program and cargo's runner both begin: the test binary and its arguments, passing a
 * child's exit on, and a stream of JSON lines copied to crew's file (`fd`) with each event shown to
 * people by `show` (a line that is not JSON is shown as it is).
 */
const BINARY_WRAPPER = String.raw `const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const bin = process.argv[2];
const args = process.argv.slice(3);
const dir = process.env.CREW_TEST_REPORT_DIR;
const passOn = (child) => child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code === null ? 1 : code)));
const eachEvent = (stream, fd, show) => {
  let rest = '';
  stream.on('data', (chunk) => {
    fs.writeSync(fd, chunk);
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      try {
        show(JSON.parse(line));
      } catch (e) {
        process.stdout.write(line + '\n');
      }
    }
  });
};`;
/**
 * go test's `-exec` program (GOFLAGS `-count=1 -exec=…`: every package runs, none is replayed from
 * the test cache). A test binary (`<pkg>.test`) runs verbosely through `go tool test2json`, go's own
 * converter; the JSON goes to crew's file and the tests' output to people. Anything else (go run)
 * runs as it is.
 */
const GO_EXEC = String.raw `'use strict';
// crew: go test -exec program (crew's test results as data).
${BINARY_WRAPPER}
if (!dir || !bin.endsWith('.test') || args.some((a) => /^-?-test\.(list|bench|fuzz)=/.test(a))) {
  passOn(spawn(bin, args, { stdio: 'inherit' }));
} else {
  const fd = fs.openSync(path.join(dir, 'go-' + process.pid + '-' + Date.now() + '.jsonl'), 'wx');
  fs.writeSync(fd, JSON.stringify({ crew: 'test-report', runner: 'go', version: 1, dir: process.cwd() }) + '\n');
  const test = spawn(bin, ['-test.v=true'].concat(args.filter((a) => !/^-?-test\.v(=|$)/.test(a))), { stdio: ['inherit', 'pipe', 'inherit'] });
  const convert = spawn('go', ['tool', 'test2json', '-t'], { stdio: ['pipe', 'pipe', 'inherit'] });
  test.stdout.pipe(convert.stdin);
  eachEvent(convert.stdout, fd, (e) => {
    if (e.Action === 'output') process.stdout.write(e.Output);
  });
  let code = 1;
  test.on('exit', (c, signal) => (code = signal ? 137 : c === null ? 1 : c));
  convert.on('close', () => {
    fs.writeSync(fd, JSON.stringify({ end: true, exit: code }) + '\n');
    fs.closeSync(fd);
    process.exit(code);
  });
}
`;
/**
 * cargo's target runner (CARGO_TARGET_<triple>_RUNNER). A test binary (`target/<profile>/deps/<name>-<hash>`)
 * runs with libtest's JSON output, an unstable format that RUSTC_BOOTSTRAP=1 allows for that binary only
 * (stable libtest has no other); the JSON goes to crew's file and one line per test to people. Anything
 * else (cargo run, benches, a listing) runs as it is.
 */
const CARGO_RUNNER = String.raw `'use strict';
// crew: cargo target runner (crew's test results as data).
${BINARY_WRAPPER}
const isTest = path.basename(path.dirname(bin)) === 'deps' && /-[0-9a-f]{16}$/.test(path.basename(bin));
const other = args.some((a) => a === '--list' || a === '--bench' || a === '-Z' || a.startsWith('--format'));
if (!dir || !isTest || other) {
  passOn(spawn(bin, args, { stdio: 'inherit' }));
} else {
  const fd = fs.openSync(path.join(dir, 'cargo-' + process.pid + '-' + Date.now() + '.jsonl'), 'wx');
  fs.writeSync(fd, JSON.stringify({ crew: 'test-report', runner: 'cargo', version: 1, binary: path.basename(bin) }) + '\n');
  const env = Object.assign({}, process.env, { RUSTC_BOOTSTRAP: '1' });
  const test = spawn(bin, args.concat(['-Z', 'unstable-options', '--format', 'json']), { stdio: ['inherit', 'pipe', 'inherit'], env: env });
  eachEvent(test.stdout, fd, (e) => {
    if (e.type === 'test' && e.event !== 'started') process.stdout.write('test ' + e.name + ' ... ' + e.event + '\n' + (e.stdout || ''));
    else if (e.type === 'suite' && e.event !== 'started') process.stdout.write('\ntest result: ' + e.event + '. ' + e.passed + ' passed; ' + e.failed + ' failed; ' + e.ignored + ' ignored\n\n');
  });
  test.on('close', (c, signal) => {
    const code = signal ? 137 : c === null ? 1 : c;
    fs.writeSync(fd, JSON.stringify({ end: true, exit: code }) + '\n');
    fs.closeSync(fd);
    process.exit(code);
  });
}
`;

;// CONCATENATED MODULE: ./src/sandbox/test-reports/reports.ts





/** The cargo targets crew names a runner for (the machines GitHub's runners and people's are). */
const CARGO_TARGETS = ['X86_64_UNKNOWN_LINUX_GNU', 'AARCH64_UNKNOWN_LINUX_GNU', 'X86_64_APPLE_DARWIN', 'AARCH64_APPLE_DARWIN'];
/** Node's test runner takes `--test-reporter` from NODE_OPTIONS, with node:test/reporters' spec to pass events on to, from node 20. */
const NODE_REPORTER_SINCE = 20;
/**
 * Where test reports come from (#32). Once per job: the hooks, in a folder outside the checkout
 * that the tool user can read but not change. For every run of a command criterion: a fresh,
 * empty report folder outside the checkout that the tool user can write into but not list, and
 * the variables that lead each runner there (environment routes, so `npm test`, `make test` and
 * the like are covered as well as the runner itself). A change to the tree cannot choose the
 * folder; what it holds after the run is read, then the folder is removed.
 */
class TestReports {
    hooks;
    root;
    nodeReporter;
    constructor(hooks, root, 
    /** Whether node's own runner gets crew's reporter (the node the sandbox finds is recent enough). */
    nodeReporter) {
        this.hooks = hooks;
        this.root = root;
        this.nodeReporter = nodeReporter;
    }
    /** Writes the hooks under `tempDir`. The node on the sandbox's PATH is asked its version, inside the sandbox. */
    static async prepare(tempDir, runner, cwd) {
        await (0,promises_.mkdir)(tempDir, { recursive: true });
        const hooks = await (0,promises_.mkdtemp)((0,external_node_path_.join)(tempDir, 'crew-test-hooks-'));
        const python = (0,external_node_path_.join)(hooks, 'python');
        await (0,promises_.mkdir)(python);
        const node = process.execPath;
        const shim = (script) => `#!/bin/sh\nexec '${node.replace(/'/g, `'\\''`)}' '${(0,external_node_path_.join)(hooks, script).replace(/'/g, `'\\''`)}' "$@"\n`;
        const files = [
            ['crew-node-reporter.cjs', NODE_REPORTER, 0o644],
            ['crew-node-preload.cjs', NODE_PRELOAD, 0o644],
            ['crew-mocha-reporter.cjs', MOCHA_REPORTER, 0o644],
            ['python/sitecustomize.py', PYTHON_SITECUSTOMIZE, 0o644],
            ['crew-go-exec.cjs', GO_EXEC, 0o644],
            ['crew-go-exec', shim('crew-go-exec.cjs'), 0o755],
            ['crew-cargo-runner.cjs', CARGO_RUNNER, 0o644],
            ['crew-cargo-runner', shim('crew-cargo-runner.cjs'), 0o755],
        ];
        for (const [name, text, mode] of files) {
            await (0,promises_.writeFile)((0,external_node_path_.join)(hooks, name), text, { mode });
            await (0,promises_.chmod)((0,external_node_path_.join)(hooks, name), mode);
        }
        await (0,promises_.chmod)(python, 0o755);
        await (0,promises_.chmod)(hooks, 0o755);
        const reportsRoot = await (0,promises_.mkdtemp)((0,external_node_path_.join)(tempDir, 'crew-test-reports-'));
        await (0,promises_.chmod)(reportsRoot, 0o711);
        const probe = await runner.run('node -p "process.versions.node"', { cwd, timeoutMs: 20_000, maxOutputBytes: 200 }).catch(() => undefined);
        const major = Number(/^(\d+)\./.exec(probe?.output.trim() ?? '')?.[1]);
        return new TestReports(hooks, reportsRoot, probe?.exitCode === 0 && major >= NODE_REPORTER_SINCE);
    }
    /** A fresh report folder and the environment that points every runner at it. `node: false` leaves node's own runner without crew's reporter. */
    async open(opts = {}) {
        const dir = await (0,promises_.mkdtemp)((0,external_node_path_.join)(this.root, 'run-'));
        // Write and enter, no listing: one runner's report is not another process's to find.
        await (0,promises_.chmod)(dir, 0o733);
        const nodeOptions = [`--require=${(0,external_node_path_.join)(this.hooks, 'crew-node-preload.cjs')}`];
        if (this.nodeReporter && opts.node !== false)
            nodeOptions.push(`--test-reporter=${(0,external_node_path_.join)(this.hooks, 'crew-node-reporter.cjs')}`, '--test-reporter-destination=stdout');
        const env = {
            CREW_TEST_REPORT_DIR: dir,
            PYTHONPATH: (0,external_node_path_.join)(this.hooks, 'python'),
            GOFLAGS: `-count=1 -exec=${(0,external_node_path_.join)(this.hooks, 'crew-go-exec')}`,
            // A path with a space would split NODE_OPTIONS and GOFLAGS: then those routes are left out.
            ...(/\s/.test(this.hooks) ? {} : { NODE_OPTIONS: nodeOptions.join(' ') }),
        };
        if (/\s/.test(this.hooks))
            delete env.GOFLAGS;
        for (const t of CARGO_TARGETS)
            env[`CARGO_TARGET_${t}_RUNNER`] = (0,external_node_path_.join)(this.hooks, 'crew-cargo-runner');
        return { dir, env };
    }
    /** The folders a run must see (the hooks, and the report folders under their root): kept in sight under a sandbox's private /tmp (#46). */
    places() {
        return [this.hooks, this.root];
    }
    /** Removes the hooks and the report folders: the job's runs of command criteria are over. */
    async dispose() {
        for (const d of [this.hooks, this.root])
            await (0,promises_.rm)(d, { recursive: true, force: true }).catch(() => undefined);
    }
    /** What the run left in its folder (regular files only, never followed through a link), then the folder is gone. */
    async collect(run) {
        const out = [];
        try {
            const entries = await (0,promises_.readdir)(run.dir);
            for (const name of entries.slice(0, read/* MAX_REPORT_FILES */.m2 + 1)) {
                const path = (0,external_node_path_.join)(run.dir, name);
                const st = await (0,promises_.lstat)(path);
                if (!st.isFile()) {
                    out.push({ name, bytes: 0, problem: 'it is not a regular file' });
                    continue;
                }
                if (st.size > read/* MAX_REPORT_BYTES */.WA) {
                    out.push({ name, bytes: st.size, problem: `it is ${st.size} bytes, over the ${read/* MAX_REPORT_BYTES */.WA} crew reads` });
                    continue;
                }
                const fh = await (0,promises_.open)(path, external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NOFOLLOW);
                try {
                    // One byte more than lstat saw, up to the limit: a file still growing shows as larger.
                    const buf = Buffer.alloc(Math.min(read/* MAX_REPORT_BYTES */.WA, st.size) + 1);
                    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
                    out.push(bytesRead > st.size
                        ? { name, bytes: bytesRead, problem: 'it was still being written when crew read it' }
                        : { name, bytes: bytesRead, text: buf.subarray(0, bytesRead).toString('utf8') });
                }
                finally {
                    await fh.close();
                }
            }
        }
        finally {
            await (0,promises_.rm)(run.dir, { recursive: true, force: true }).catch(() => undefined);
        }
        return out;
    }
}

// EXTERNAL MODULE: ./src/steps/test-runs.ts
var test_runs = __webpack_require__(14266);
// EXTERNAL MODULE: ./src/toolbox/command-options.ts
var command_options = __webpack_require__(33625);
// EXTERNAL MODULE: ./src/toolbox/test-runs.ts
var toolbox_test_runs = __webpack_require__(78574);
// EXTERNAL MODULE: ./src/domain/egress.ts
var domain_egress = __webpack_require__(30061);
// EXTERNAL MODULE: ./src/domain/localisation.ts
var domain_localisation = __webpack_require__(34406);
// EXTERNAL MODULE: ./src/text/redact.ts
var redact = __webpack_require__(53326);
// EXTERNAL MODULE: ./src/domain/tamper.ts + 1 modules
var tamper = __webpack_require__(30668);
// EXTERNAL MODULE: ./src/domain/test-results/types.ts
var types = __webpack_require__(30087);
;// CONCATENATED MODULE: ./src/domain/test-owners.ts


/** How many imports deep the code under test is followed: far enough through an index that re-exports, not the whole repository. */
const IMPORT_DEPTH = 3;
const JS_SOURCE = /\.[cm]?[jt]sx?$/i;
const JS_IMPORT = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bvi\.mock\s*\(\s*['"]([^'"]+)['"]/g,
];
const JS_EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];
/** The module names a file imports, as written (relative or not). JavaScript/TypeScript and Python; other languages: none. */
function importsOf(path, text) {
    const out = new Set();
    if (JS_SOURCE.test(path)) {
        for (const re of JS_IMPORT)
            for (const m of text.matchAll(re))
                out.add(m[1]);
    }
    else if (/\.py$/i.test(path)) {
        for (const m of text.matchAll(/^\s*from\s+(\.*[\w.]*)\s+import\s+([\w\s,()*]+)/gm)) {
            out.add(m[1]);
            // `from . import mean` and `from pkg import module`: the names may be modules themselves.
            for (const name of m[2].replace(/[()]/g, '').split(',')) {
                const n = name
                    .trim()
                    .split(/\s+as\s+/)[0]
                    .trim();
                if (/^\w+$/.test(n))
                    out.add(m[1].endsWith('.') ? `${m[1]}${n}` : `${m[1]}.${n}`);
            }
        }
        for (const m of text.matchAll(/^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)/gm))
            for (const n of m[1].split(','))
                out.add(n.trim());
    }
    return [...out];
}
const dirOf = (p) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
function join(dir, rel) {
    const parts = dir ? dir.split('/') : [];
    for (const seg of rel.split('/')) {
        if (seg === '' || seg === '.')
            continue;
        if (seg === '..') {
            if (!parts.length)
                return undefined;
            parts.pop();
        }
        else
            parts.push(seg);
    }
    return parts.join('/');
}
/** The repository file an import names, or undefined (a package, a missing file, a language not read here). */
function resolveImport(from, spec, files) {
    if (JS_SOURCE.test(from)) {
        if (!spec.startsWith('.'))
            return undefined;
        const target = join(dirOf(from), spec);
        if (target === undefined)
            return undefined;
        // TypeScript's ESM style writes `./mean.js` for `./mean.ts`.
        const stem = target.replace(/\.[cm]?js$/, '');
        const candidates = [target, ...JS_EXTENSIONS.map((e) => stem + e), ...JS_EXTENSIONS.map((e) => `${target}/index${e}`)];
        return candidates.find((c) => files.has(c));
    }
    if (/\.py$/i.test(from)) {
        const dots = /^\.*/.exec(spec)[0].length;
        const rest = spec.slice(dots).split('.').filter(Boolean).join('/');
        let bases;
        if (dots) {
            let dir = dirOf(from);
            for (let i = 1; i < dots && dir !== undefined; i++)
                dir = dir ? dirOf(dir) : undefined;
            if (dir === undefined)
                return undefined;
            bases = [dir];
        }
        else
            bases = ['', 'src', dirOf(from)];
        for (const b of bases) {
            const p = [b, rest].filter(Boolean).join('/');
            if (!p)
                continue;
            const hit = [`${p}.py`, `${p}/__init__.py`].find((c) => files.has(c));
            if (hit)
                return hit;
        }
    }
    return undefined;
}
/** The files the given ones import, and what those import, up to `depth` steps (the given files included). */
function reachable(from, read, files, depth = IMPORT_DEPTH) {
    const seen = new Set(from);
    let frontier = [...from];
    for (let d = 0; d < depth && frontier.length; d++) {
        const next = [];
        for (const f of frontier) {
            const text = read(f);
            if (text === undefined)
                continue;
            for (const spec of importsOf(f, text)) {
                const hit = resolveImport(f, spec, files);
                if (hit && !seen.has(hit))
                    (seen.add(hit), next.push(hit));
            }
        }
        frontier = next;
    }
    return [...seen];
}
/**
 * The code the given tests exercise: what they reach through imports, test files left out (a
 * helper under test/ is not the code). A Go test exercises its package: the other Go files of its folder.
 */
function codeUnderTest(tests, read, files, depth = IMPORT_DEPTH) {
    const out = new Set(reachable(tests, read, files, depth));
    for (const t of tests)
        if (t.endsWith('_test.go'))
            for (const f of files)
                if (dirOf(f) === dirOf(t) && f.endsWith('.go'))
                    out.add(f);
    return [...out].filter((f) => !(0,tamper/* isTestFile */.hl)(f)).sort();
}
const mentions = (text, path) => new RegExp(`(^|[^\\w./-])${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/-]|\\.\\w)`).test(text);
/**
 * The tasks that own tests failing before crew's changes: those whose files (named in the plan
 * or changed) hold code the tests exercise. When some of them also name a failing test (the task
 * meant to fix it), only those: a task that merely touched an index the test imports through is
 * not the one the issue gave the test to. A task that only added tests never owns one.
 */
function ownersOf(tasks, tests, code) {
    const inCode = new Set(code);
    const held = tasks.map((t) => ({ t, hits: [...new Set([...t.files, ...t.changedFiles])].filter((f) => inCode.has(f)).sort() })).filter((x) => x.hits.length);
    const naming = held.filter((x) => tests.some((f) => mentions(x.t.text, f) || x.t.files.includes(f)));
    const chosen = naming.length ? naming : held;
    return { tasks: chosen.map((x) => x.t.id), tests: [...tests].sort(), code: [...new Set(chosen.flatMap((x) => x.hits))].sort() };
}
/** The failing test files from test identities (testKey strings), or, when the runner reported none, the repository's test files its output names. */
function failingTestFiles(keys, output, files) {
    if (keys?.length) {
        const named = new Set(keys.map((k) => (0,types/* testOfKey */.Lq)(k).file));
        // A Go test's identity names its package's folder: the folder's test files.
        return [...files].filter((f) => named.has(f) || ((0,tamper/* isTestFile */.hl)(f) && named.has(dirOf(f)))).sort();
    }
    return [...files].filter((f) => (0,tamper/* isTestFile */.hl)(f) && mentions(output, f)).sort();
}

;// CONCATENATED MODULE: ./src/steps/localise.ts







/** The identities of the tests a run failed, when its runner reported them; and those among them the base did not fail, as people read them. */
function failing(tests) {
    return tests?.kind === 'known' ? { failingTests: [...(0,test_results/* failingKeys */.$Q)(tests.tests)] } : {};
}
function convicting(tests, base) {
    if (tests?.kind !== 'known' || base?.kind !== 'known')
        return {};
    const before = (0,test_results/* failingKeys */.$Q)(base.tests);
    const seen = new Set();
    const out = tests.tests.filter((t) => t.outcome === 'failed' && !before.has((0,test_results/* testKey */.S8)(t)) && !seen.has((0,test_results/* testKey */.S8)(t)) && seen.add((0,test_results/* testKey */.S8)(t)));
    return out.length ? { convicting: out.map(test_results/* describeTest */.Ww) } : {};
}
const tail = (text) => text.trimEnd().split('\n').slice(-15).join('\n').slice(-1500);
const integratedOf = (f) => ({ exitCode: f.exitCode, output: f.output, ...failing(f.tests) });
/**
 * Runs each failed command criterion again, in the sandbox, on the base, on each task's branch
 * alone, and (where that does not settle it) on the integrated work without one task at a time,
 * within `localisation_seconds`. No model is asked. The workspace is back at `headSha` after.
 */
async function localise(ctx, view, failed, opts) {
    if (!failed.length || opts.budgetSeconds <= 0)
        return [];
    const { issue, run, base } = view.run;
    const plan = (0,run_files/* planOf */.XC)(view);
    const tasks = plan.tasks
        .filter((t) => !view.tasks.get(t.id)?.replacedBy)
        .map((t) => ({ id: t.id, dependsOn: t.dependsOn, changedFiles: view.tasks.get(t.id)?.changedFiles ?? [] }));
    const branchOf = (id) => view.tasks.get(id)?.branch ?? ctx.branches.task(issue, run, id);
    const deadline = ctx.clock.now().getTime() + opts.budgetSeconds * 1000;
    const left = () => deadline - ctx.clock.now().getTime();
    const runs = new Map(failed.map((f) => [f.criterion.id, []]));
    const open = new Set(failed.map((f) => f.criterion.id));
    let missing = [];
    const runAll = async (site, checkout, only = () => true) => {
        const targets = failed.filter((f) => open.has(f.criterion.id) && only(f));
        if (!targets.length || left() <= 0)
            return;
        const refused = await checkout();
        for (const f of targets) {
            const list = runs.get(f.criterion.id);
            if (refused || left() <= 0) {
                list.push({ site, exitCode: null, timedOut: false, output: refused ?? 'the time for localisation ran out', verdict: 'not-run' });
                continue;
            }
            ctx.log.info(`critic: localising ${f.criterion.id} on ${site.kind === 'base' ? 'the base' : `${site.kind} ${site.task}`}`);
            const r = await (0,toolbox_test_runs/* runWithReports */.X)(opts.runner, opts.reports, f.criterion.command, {
                cwd: ctx.repo.dir,
                timeoutMs: Math.max(1000, Math.min(opts.commandTimeoutMs, left())),
            });
            const known = failing(r.tests);
            const baseRun = list.find((x) => x.site.kind === 'base' && x.verdict === 'fails');
            const verdict = (0,domain_localisation/* verdictOfRun */.gV)({ exitCode: r.exitCode, timedOut: r.timedOut, output: r.output, ...known }, site.kind === 'base' ? undefined : baseRun);
            list.push({
                site,
                exitCode: r.exitCode,
                timedOut: r.timedOut,
                output: r.output,
                verdict,
                ...known,
                ...(verdict === 'fails' ? convicting(r.tests, f.base?.tests) : {}),
            });
        }
    };
    // The base's run the critic already has (once per run and criterion): not run again.
    for (const f of failed)
        if (f.base) {
            const known = failing(f.base.tests);
            const verdict = (0,domain_localisation/* verdictOfRun */.gV)({ exitCode: f.base.exitCode, timedOut: f.base.timedOut, output: f.base.output, ...known }, undefined);
            runs
                .get(f.criterion.id)
                .push({ site: { kind: 'base' }, exitCode: f.base.exitCode, timedOut: f.base.timedOut, output: f.base.output, verdict, ...known });
        }
    const detach = (sha) => async () => (await ctx.repo.checkoutDetached(sha), null);
    // Localisation only advises: a git or sandbox error here leaves what is not settled undecided (the
    // critic model's attribution is used), says why in the table, and never fails the judgment.
    let stopped;
    try {
        ({ missing } = await ctx.remote.fetch(tasks.filter((t) => t.changedFiles.length).map((t) => branchOf(t.id))));
        await runAll({ kind: 'base' }, detach(base.sha), (f) => !f.base);
        for (const f of failed)
            if ((0,domain_localisation/* decide */.LD)(tasks, runs.get(f.criterion.id), integratedOf(f)).kind === 'before')
                open.delete(f.criterion.id);
        const order = (0,domain_localisation/* tryOrder */.i3)(tasks, failed.map((f) => f.output).join('\n'));
        for (const id of order) {
            const branch = branchOf(id);
            await runAll({ kind: 'alone', task: id }, async () => missing.includes(branch) ? `its branch ${branch} is missing` : (await ctx.repo.checkoutDetached(ctx.remote.tracking(branch)), null));
        }
        for (const f of failed) {
            const list = runs.get(f.criterion.id);
            const failingBase = list.find((r) => r.site.kind === 'base' && r.verdict === 'fails');
            // Settled, or the base fails too and the output cannot tell the failures apart: leaving tasks out cannot either.
            if ((0,domain_localisation/* settledByAloneRuns */.qk)(tasks, list, integratedOf(f)) || (failingBase && (0,domain_localisation/* compareWithBase */.te)(failingBase, integratedOf(f)) === 'unknown'))
                open.delete(f.criterion.id);
        }
        // Only a combination fails: leave one task out at a time (with the tasks built on it, whose branches hold its work).
        if (order.length > 1)
            for (const id of order) {
                const keep = order.filter((t) => !(0,domain_localisation/* leftOutWith */.Sm)(tasks, id).has(t));
                await runAll({ kind: 'without', task: id }, async () => {
                    await ctx.repo.checkoutDetached(base.sha);
                    for (const t of keep) {
                        if (missing.includes(branchOf(t)))
                            return `the branch of ${t} is missing`;
                        const merged = await ctx.repo.merge(ctx.remote.tracking(branchOf(t)), `crew: localise without ${id}`);
                        if (!merged.ok)
                            return `the other tasks do not merge without it (${merged.conflicts.join(', ') || 'merge failed'})`;
                    }
                    return null;
                });
            }
    }
    catch (e) {
        stopped = e instanceof Error ? e.message.split('\n')[0] : String(e);
        ctx.log.warn(`critic: localisation stopped (${stopped}); the critic model's attribution is used for what it had not settled`);
    }
    finally {
        await ctx.repo.checkoutNew((0,context/* integrationBranchOf */.c1)(ctx, view.run), opts.headSha);
    }
    const out = [];
    for (const f of failed) {
        const list = runs.get(f.criterion.id);
        const outcome = (0,domain_localisation/* decide */.LD)(tasks, list, integratedOf(f));
        if (stopped && outcome.kind === 'undecided')
            outcome.why = `localisation stopped: ${(0,redact/* redact */.E$)(stopped)}`;
        if (outcome.kind === 'before') {
            const owners = await ownersOfBefore(ctx, view, f, opts.headSha);
            if (owners?.tasks.length)
                outcome.owners = owners;
        }
        out.push({
            criterion: f.criterion.id,
            command: f.criterion.command,
            base: base.sha,
            runs: list.map((r) => ({ ...r, output: tail(r.output) })),
            outcome,
        });
    }
    return out;
}
/**
 * A failure that was there before crew's changes (#50): the tasks whose files are the code the
 * failing tests exercise, read from the integrated branch's files. Undefined when git cannot
 * tell (the failure then goes to a person, as any failure no task owns).
 */
async function ownersOfBefore(ctx, view, f, headSha) {
    try {
        const files = new Set(await ctx.repo.listFiles());
        const tests = failingTestFiles(failing(f.tests).failingTests, f.output, files);
        if (!tests.length)
            return undefined;
        const texts = new Map();
        for (let depth = 0, frontier = tests; depth <= IMPORT_DEPTH && frontier.length; depth++) {
            for (const p of frontier)
                texts.set(p, await ctx.repo.readFileAt(headSha, p));
            frontier = reachable(tests, (p) => texts.get(p), files).filter((p) => !texts.has(p));
        }
        const code = codeUnderTest(tests, (p) => texts.get(p), files);
        const plan = (0,run_files/* planOf */.XC)(view);
        return ownersOf(plan.tasks
            .filter((t) => !view.tasks.get(t.id)?.replacedBy)
            .map((t) => ({
            id: t.id,
            files: t.files,
            changedFiles: view.tasks.get(t.id)?.changedFiles ?? [],
            text: [t.title, t.description, ...t.criteria].join('\n'),
        })), tests, code);
    }
    catch (e) {
        ctx.log.warn(`critic: crew could not read which code the failing tests of ${f.criterion.id} exercise (${e.message})`);
        return undefined;
    }
}

// EXTERNAL MODULE: ./src/steps/tamper-context.ts
var tamper_context = __webpack_require__(76140);
// EXTERNAL MODULE: ./src/steps/flaky-rerun.ts
var flaky_rerun = __webpack_require__(19489);
// EXTERNAL MODULE: ./src/steps/agent-instructions.ts + 1 modules
var agent_instructions = __webpack_require__(88098);
;// CONCATENATED MODULE: ./src/steps/critic.ts






























const CRITIC_MAX_TURNS = 40;
/**
 * The `critic` job: judges the integrated branch against every done criterion, with
 * evidence, and gates completion on it. PASS opens the pull request; FAIL sends the
 * failing criteria back to the tasks behind them, at most `max_iterations` times, and
 * then asks a person.
 */
async function critic(ctx) {
    const { issue, run } = ctx.settings;
    const view = await (0,context/* loadView */.QJ)(ctx, issue, run);
    if (view.run.phase !== 'REVIEWING' || view.run.finalizer !== ctx.runId)
        return ctx.log.info(`run ${run} is ${view.run.phase}; nothing for the critic to do`);
    const review = view.run.review ?? run_state/* FRESH_REVIEW */.e0;
    if (review.acceptedBy) {
        ctx.log.info(`@${review.acceptedBy} accepted the work as it is; opening the pull request`);
        return (0,finish/* finish */.O9)(ctx, view, await (0,judgments/* lastJudgment */.n)(ctx.state, view));
    }
    // The same head judged PASS already (a re-run of this job): go straight to finishing.
    if (review.verdict === 'PASS' && review.headSha) {
        const j = await (0,judgments/* lastJudgment */.n)(ctx.state, view);
        if (j?.headSha === review.headSha)
            return (0,finish/* finish */.O9)(ctx, view, j);
    }
    const startedAt = (0,context/* nowIso */.kF)(ctx);
    const judged = await judge(ctx, view);
    // `budgets.run` reached before the verdict: the work stays integrated, and crew asks as at a worker's budget end (#52).
    // The base's test runs made so far are kept: judging again after `/crew continue` does not run them again.
    if ('stopped' in judged) {
        await (0,budget_stop/* stopStepAtBudget */.j8)(ctx, issue, run, 'review', judged.stopped, { files: (tx) => keepBaseRuns(tx, issue, run, judged.freshBases) });
        return;
    }
    const { freshBases = [], ...judgment } = judged;
    // Stopped half way (local Ctrl-C kills the commands it ran): a judgment of killed commands is no judgment.
    if (ctx.cancellation?.aborted)
        return ctx.log.info('interrupted while judging; the critic judges again when the run is resumed');
    const { default_model: tier } = await ctx.config();
    const judgedAt = (0,context/* nowIso */.kF)(ctx);
    const record = {
        what: `critic ${judgment.verdict} (iteration ${judgment.iteration})`,
        files: (tx) => {
            tx.write(run_files/* paths */.f0.judgment(issue, run, judgment.iteration), `${JSON.stringify(judgment, null, 2)}\n`);
            keepBaseRuns(tx, issue, run, freshBases);
        },
        run: (rec) => {
            const logged = (0,run_state/* logPhase */.MH)(rec, 'critic', {
                model: tier,
                started: startedAt,
                finished: judgedAt,
                status: judgment.verdict === 'PASS' ? 'success' : 'failure',
                retries: judgment.iteration - 1,
                error: judgment.verdict === 'PASS' ? null : judgment.overallReason.slice(0, 500),
            });
            const met = Object.fromEntries(judgment.evaluations.map((e) => [e.criterion, e.met]));
            return {
                ...logged,
                review: { ...(rec.review ?? run_state/* FRESH_REVIEW */.e0), iteration: judgment.iteration, verdict: judgment.verdict, headSha: judgment.headSha, met },
            };
        },
    };
    ctx.log.info(`critic: ${judgment.verdict} at iteration ${judgment.iteration}: ${judgment.overallReason}`);
    // A PASS is recorded with the pull request it opens, in one write (finish.ts), or alone when none opens.
    if (judgment.verdict === 'PASS') {
        const seen = await (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL);
        return (0,finish/* finish */.O9)(ctx, { ...seen, run: record.run(seen.run) }, judgment, record);
    }
    await (0,finish/* recordJudgment */.a4)(ctx, issue, run, record);
    // The judgment's own write just landed: its tip is the state.
    return afterFail(ctx, await (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL), judgment);
}
/** The base's runs are kept for the run: a later iteration (or judging again after a budget stop) reads them instead of running the base again. */
function keepBaseRuns(tx, issue, run, freshBases) {
    for (const b of freshBases)
        if (tx.read(run_files/* paths */.f0.baseTests(issue, run, b.criterion)) === undefined)
            tx.write(run_files/* paths */.f0.baseTests(issue, run, b.criterion), `${JSON.stringify(b, null, 2)}\n`);
}
async function judge(ctx, view) {
    const { base } = view.run;
    const config = await ctx.config();
    const plan = (0,run_files/* planOf */.XC)(view);
    const branch = (0,context/* integrationBranchOf */.c1)(ctx, view.run);
    await ctx.remote.fetchCommit(base.sha);
    const { missing } = await ctx.remote.fetch([branch]);
    if (missing.length)
        throw new Error(`the integration branch ${branch} is missing`);
    await ctx.repo.checkoutNew(branch, ctx.remote.tracking(branch));
    const headSha = await ctx.repo.head();
    const iteration = (view.run.review?.iteration ?? 0) + 1;
    const previous = await (0,judgments/* lastJudgment */.n)(ctx.state, view);
    // 1. The adversarial checks: criteria unchanged since the reviewed plan, no test deleted, skipped or weakened.
    const { diff, files, adversarial } = await adversarialOf(ctx, view, plan, headSha);
    // 2. Command criteria run for real, in the sandbox, after the trusted setup.
    const commands = plan.criteria.filter((c) => c.kind === 'command');
    const semantic = plan.criteria.filter((c) => c.kind === 'semantic');
    // The integrated branch is the workers' code: setup runs on it only inside the sandbox (toolbox/sandbox-setup.ts).
    const tools = await (0,sandbox_setup/* prepareTools */.$K)(ctx, config, { trusted: headSha === (0,run_state/* reviewedSha */.cK)(view.run) });
    // The proxy and the service bridges stay up while the critic model's commands may use them; closed with the judgment.
    try {
        const runs = await runCommandCriteria(ctx, config, commands, previous, tools);
        const { runner, reports, commandResults, printed, timeoutMs, refused } = runs;
        // 2a. Each command's tests, base against head, by identity (#32): the base runs once per run and criterion.
        const { bases, freshBases, accounts } = await testsByIdentity(ctx, view, config, commands, { diff, files }, runs, headSha);
        const testFindingsNow = () => [...accounts.values()].flatMap((a) => (0,test_results/* testFindings */.ZN)(a));
        adversarial.push(...testFindingsNow());
        // 2b. A command that fails: which task makes it fail, found by running it again on the base and the task branches.
        const failedCommands = commands.filter((c) => commandResults.find((e) => e.criterion === c.id)?.met === false);
        const localisation = runner && failedCommands.length && headSha !== base.sha
            ? await localise(ctx, view, failedCommands.map((c) => ({ criterion: c, ...printed.get(c.id), base: bases.get(c.id) })), { runner, reports, headSha, budgetSeconds: config.localisation_seconds, commandTimeoutMs: timeoutMs })
            : [];
        await reports?.dispose();
        if (ctx.cancellation?.aborted)
            return {
                iteration,
                headSha,
                verdict: 'FAIL',
                evaluations: [],
                adversarial,
                overallReason: 'interrupted',
                suggestedNextAction: '',
                at: (0,context/* nowIso */.kF)(ctx),
                ...refused(),
            };
        const decided = new Map(localisation.filter((l) => l.outcome.kind !== 'undecided').map((l) => [l.criterion, l]));
        // 3. Semantic criteria go to the critic model; so do failing commands localisation left undecided, to name the tasks behind them.
        const needsModel = semantic.length > 0 || commandResults.some((e) => e.met !== true && !decided.has(e.criterion)) || adversarial.length > 0;
        const taskIds = new Set(plan.tasks.filter((t) => !view.tasks.get(t.id)?.replacedBy).map((t) => t.id));
        const modelOut = needsModel
            ? await criticModel(ctx, view, { config, plan, semantic, adversarial, taskIds, iteration, previous, headSha, accounts }, runs).catch((e) => {
                if (e instanceof run_budget/* RunBudgetSpent */.J)
                    return e;
                throw e;
            })
            : undefined;
        if (modelOut instanceof run_budget/* RunBudgetSpent */.J)
            return { stopped: modelOut, freshBases };
        // The renames the critic model showed (each a listed lost test and a listed new one): those tests are not lost.
        if (modelOut?.renames?.length) {
            for (const r of modelOut.renames)
                accounts.get(r.criterion)?.renamed.push({ from: r.lost, to: r.replacement });
            for (const a of accounts.values())
                if (a.counts && a.renamed.length)
                    a.counts.lost = Math.max(0, a.counts.lost - a.renamed.length);
            const kept = adversarial.filter((f) => f.rule !== 'lost-test' && f.rule !== 'test-report-missing');
            adversarial.splice(0, adversarial.length, ...kept, ...testFindingsNow());
        }
        return judgmentOf(ctx, { plan, commandResults, decided, modelOut, taskIds, adversarial, localisation, accounts, freshBases, refused, iteration, headSha });
    }
    finally {
        await tools.dispose();
    }
}
/** The adversarial checks: the criteria as reviewed, and the tests neither deleted, skipped nor weakened (domain/tamper.ts). */
async function adversarialOf(ctx, view, plan, headSha) {
    const { base } = view.run;
    const diff = await ctx.repo.unifiedDiff(base.sha, headSha, domain_diff/* DIFF_LIMIT_BYTES */.q);
    if (diff.truncated)
        ctx.log.warn(`the diff is ${diff.bytes} bytes, over the ${domain_diff/* DIFF_LIMIT_BYTES */.q} the test-tampering checks read: the critic fails closed`);
    const files = (0,domain_diff/* parseUnifiedDiff */.r)(diff.text);
    const adversarial = (0,judgment/* adversarialChecks */.mG)(plan.criteria, view.run.criteriaDigest, { files, ...(diff.truncated ? { cut: { bytes: diff.bytes, limit: domain_diff/* DIFF_LIMIT_BYTES */.q } } : {}) }, await (0,tamper_context/* tamperContext */.Z)(ctx, base.sha, headSha, files), ctx.surface);
    return { diff, files, adversarial };
}
/** The command criteria, each run for real after the setup, with the report hooks that read their tests. */
async function runCommandCriteria(ctx, config, commands, previous, tools) {
    const { runner, warning, setupFailure, egress, hint, reach } = tools;
    // Every round's refusals are kept: the pull request lists what any critic job's setup or commands tried.
    const refused = () => {
        const all = (0,domain_egress/* addRefusals */.R4)(previous?.refused, egress?.refused());
        return Object.keys(all).length ? { refused: all } : {};
    };
    if (config.setup.length)
        await ctx.repo.excludeUntracked();
    const commandResults = [];
    const printed = new Map();
    const timeoutMs = config.command_timeout_seconds * 1000;
    const reports = runner && commands.length ? await testReports(ctx, runner) : undefined;
    for (const c of commands) {
        const allowed = (0,command_policy/* checkCommand */.e)(c.command ?? '', config.commands);
        if (setupFailure)
            commandResults.push((0,judgment/* commandNotRun */.cj)(c, setupFailure));
        else if (!runner)
            commandResults.push((0,judgment/* commandNotRun */.cj)(c, warning ?? 'no sandbox to run it in'));
        else if (!allowed.ok)
            commandResults.push((0,judgment/* commandNotRun */.cj)(c, `the command policy refuses it: ${allowed.reason}`));
        else {
            ctx.log.info(`critic: running ${c.id}: ${c.command}`);
            const r = await (0,toolbox_test_runs/* runWithReports */.X)(runner, reports, c.command, { cwd: ctx.repo.dir, timeoutMs });
            printed.set(c.id, r);
            commandResults.push((0,judgment/* commandEvaluation */._c)(c, r, hint));
        }
    }
    return { runner, warning, egress, reach, reports, commandResults, printed, timeoutMs, refused };
}
/** Each command's tests, base against head, by identity; an unreadable report leaves its criterion undecided. */
async function testsByIdentity(ctx, view, config, commands, { diff, files }, { runner, reports, egress, commandResults, printed, timeoutMs }, headSha) {
    const ran = commands.filter((c) => printed.has(c.id));
    const baseSetup = {
        commands: config.setup,
        network: runner && egress ? (0,sandbox_setup/* setupNetwork */.kJ)(runner, egress) : undefined,
        where: `on the base's own checkout, ${runner?.sandboxed ? 'inside the sandbox' : 'WITHOUT a sandbox (allow_unsandboxed)'}`,
    };
    const { runs: bases, fresh: freshBases } = runner
        ? await (0,test_runs/* baseRuns */.S)(ctx, view, ran, { runner, reports, headSha, timeoutMs, head: printed, setup: baseSetup })
        : { runs: new Map(), fresh: [] };
    const accounts = new Map();
    const baseTree = diff.truncated ? undefined : await (0,flaky_rerun/* baseTreeOf */.f)(ctx, files);
    for (const c of ran) {
        const b = bases.get(c.id);
        if (!b)
            continue;
        const a = await (0,flaky_rerun/* accountWithRerun */.q)(ctx, { id: c.id, command: c.command }, b.tests, printed.get(c.id).tests, {
            runner,
            reports,
            timeoutMs,
            diff: files,
            ...(baseTree ? { baseTree } : {}),
        });
        accounts.set(c.id, a);
        // An unreadable report leaves the criterion undecided, whatever the exit code: a person looks.
        if (a.state === 'unreadable') {
            const i = commandResults.findIndex((e) => e.criterion === c.id);
            commandResults[i] = {
                ...commandResults[i],
                met: null,
                confidence: 0,
                error: `${a.why}; so crew does not count the criterion as met: a person looks`,
            };
        }
    }
    return { bases, freshBases, accounts };
}
/** The critic model: the semantic criteria, and the failing commands localisation left undecided; its usage is recorded at once. */
async function criticModel(ctx, view, j, { runner, warning, egress, reach, commandResults }) {
    const { issue, run, base } = view.run;
    const { config, plan, semantic, adversarial, taskIds, iteration, previous, headSha, accounts } = j;
    let modelOut;
    const model = await (0,context/* runModel */.L4)(ctx, view, 'critic');
    try {
        modelOut = await runCritic(model, {
            repoDir: ctx.repo.dir,
            modelId: config.models[config.default_model],
            system: await (0,agent_instructions/* promptWithInstructions */.U)(ctx, 'critic', (0,run_state/* reviewedSha */.cK)(view.run), plan.tasks.flatMap((t) => t.files)),
            plan,
            judge: semantic,
            commandResults,
            adversarial,
            taskSummaries: plan.tasks
                .filter((t) => taskIds.has(t.id))
                .map((t) => ({ id: t.id, title: t.title, summary: view.tasks.get(t.id)?.summary ?? '', files: view.tasks.get(t.id)?.changedFiles ?? [] })),
            diffStat: await ctx.repo.diffStat(base.sha, headSha),
            guidance: config.prompts.judgment,
            commands: (0,command_options/* agentCommands */.w)({ runner, warning, egress, reach }, config),
            maxTurns: CRITIC_MAX_TURNS,
            iteration,
            limit: config.max_iterations + (view.run.review?.allowance ?? 0),
            previous: previous ? (0,judgment/* rerunAdvice */.bB)(previous).slice(0, 4000) : undefined,
            readTree: (path) => ctx.repo.readFileAt(headSha, path),
            readBase: (path) => ctx.repo.readFileAt(base.sha, path),
            lostTests: [...accounts.values()]
                .filter((a) => a.lost.length)
                .map((a) => ({ criterion: a.criterion, command: a.command, lost: a.lost.map((l) => l.test), newPassing: a.newPassing })),
        }, ctx.log, (0,context/* agentRun */.Vv)(ctx, { agent: 'critic', model: config.models[config.default_model], iteration }));
    }
    catch (e) {
        // The run's budget is reached: no verdict; the run waits and asks (critic() catches it, budget-stop.ts).
        if (e instanceof run_budget/* RunBudgetSpent */.J)
            throw e;
        // The model being unreachable is not the work's fault: it becomes an error a person can retry.
        ctx.log.warn(`critic: the model failed: ${e.message}`);
        modelOut = {
            evaluations: [],
            overallReason: `the critic's model call failed: ${e.message}`,
            suggestedNextAction: `${(0,surface/* sentence */.em)(ctx.surface.give('retry'))} to judge again.`,
            usage: run_state/* ZERO_USAGE */.fI,
            turns: 0,
            submitted: false,
        };
    }
    await (0,context/* updateView */.vl)(ctx, issue, run, `critic usage`, (v, tx) => {
        (0,run_files/* writeRun */.bp)(tx, { ...v.run, usage: (0,run_state/* addUsage */.vk)(v.run.usage, modelOut.usage) }, (0,context/* nowIso */.kF)(ctx));
    });
    return modelOut;
}
/** Every criterion's evaluation, the verdict and its reason: the judgment as recorded. */
function judgmentOf(ctx, j) {
    const { plan, commandResults, decided, modelOut, taskIds, adversarial, localisation, accounts, freshBases, refused, iteration, headSha } = j;
    const given = new Map((modelOut?.evaluations ?? []).map((e) => [e.criterion, e]));
    const evaluations = plan.criteria.map((c) => {
        if (c.kind === 'command') {
            const e = commandResults.find((r) => r.criterion === c.id);
            if (e.met === true)
                return e;
            const found = decided.get(c.id);
            if (found)
                return { ...e, evidence: [...e.evidence, (0,domain_localisation/* describeOutcome */.SS)(found)], tasks: (0,domain_localisation/* blamedBy */.Z_)(found.outcome) };
            return { ...e, tasks: (given.get(c.id)?.tasks ?? []).filter((t) => taskIds.has(t)) };
        }
        if (modelOut && !modelOut.submitted)
            return {
                criterion: c.id,
                text: c.text,
                kind: c.kind,
                met: null,
                evidence: [],
                confidence: 0,
                error: modelOut.overallReason,
                tasks: [],
            };
        return (0,judgment/* semanticEvaluation */.Fx)(c, given.get(c.id), taskIds);
    });
    const verdict = (0,judgment/* verdictOf */.Vj)(evaluations, adversarial);
    const failing = (0,judgment/* failingEvaluations */.Wx)({ evaluations });
    const overallReason = verdict === 'PASS'
        ? (modelOut?.overallReason ?? `every criterion is a command and every one exited 0`)
        : [
            failing.length ? `${failing.length} of ${evaluations.length} criteria not met (${failing.map((e) => e.criterion).join(', ')})` : '',
            adversarial.length
                ? `${adversarial.length} adversarial finding${adversarial.length === 1 ? '' : 's'} (${[...new Set(adversarial.map((f) => f.rule))].join(', ')})`
                : '',
            ...localisation.map(domain_localisation/* describeOutcome */.SS),
            modelOut?.overallReason ? `the critic says: ${modelOut.overallReason.trim().replace(/[.;]+$/, '')}` : '',
        ]
            .filter(Boolean)
            .join('; ');
    return {
        iteration,
        headSha,
        verdict,
        evaluations,
        adversarial,
        overallReason,
        suggestedNextAction: modelOut?.suggestedNextAction ?? '',
        at: (0,context/* nowIso */.kF)(ctx),
        ...(localisation.length ? { localisation } : {}),
        ...(accounts.size ? { tests: [...accounts.values()].map(({ changes: _, ...a }) => a) } : {}),
        ...(freshBases.length ? { freshBases } : {}),
        ...refused(),
    };
}
/** The report hooks for this job's command criteria; without them, every criterion's tests are unknown (and why is logged). */
async function testReports(ctx, runner) {
    try {
        return await TestReports.prepare((0,external_node_path_.join)((0,own_temp/* jobTempDir */.z3)(), 'crew-test-reports'), runner, ctx.repo.dir);
    }
    catch (e) {
        ctx.log.warn(`critic: crew could not set up its test report hooks (${e.message}); the tests of every command are unknown`);
        return undefined;
    }
}
/** A FAIL: send the failing criteria back to their tasks, or, past the limit (or when it could not judge), ask a person. */
async function afterFail(ctx, view, j) {
    const { issue, run } = view.run;
    const config = await ctx.config();
    const review = view.run.review ?? run_state/* FRESH_REVIEW */.e0;
    const failing = (0,judgment/* failingEvaluations */.Wx)(j);
    // An evaluation that errored is not the work's fault: running the tasks again would not fix it.
    const onlyErrors = failing.length > 0 && failing.every((e) => e.met === null) && (0,judgment/* failingFindings */.v9)(j.adversarial).length === 0;
    // Running the tasks again would not make the change small enough to read: a person decides.
    const tooLarge = j.adversarial.find((f) => f.rule === 'diff-too-large');
    const limit = config.max_iterations + review.allowance;
    if (tooLarge)
        return escalateVerdict(ctx, view, j, 'the change is too large for the test-tampering checks to read whole');
    if (j.iteration >= limit || onlyErrors)
        return escalateVerdict(ctx, view, j, onlyErrors
            ? 'the critic could not evaluate every criterion'
            : `the critic judged FAIL ${j.iteration} time${j.iteration === 1 ? '' : 's'}, the limit (max_iterations: ${config.max_iterations}${review.allowance ? ` + ${review.allowance}` : ''})`);
    const targets = (0,judgment/* tasksToRerun */.qz)(j, view);
    // Every failure was there before crew's changes: running a task again cannot be the fix, so a person decides.
    if (!targets.length)
        return escalateVerdict(ctx, view, j, (j.localisation ?? [])
            .filter((l) => l.outcome.kind === 'before')
            .map(domain_localisation/* describeOutcome */.SS)
            .join('; ') || 'no task can be sent back for what failed');
    // What localisation found is shown where the maintainer looks, before the tasks go back.
    if (j.localisation?.length) {
        await (0,caps/* spend */.Rf)(ctx, issue, run, { comments: 1 });
        await ctx.forge.postComment(issue, [
            `${ctx.surface.bold("crew's critic")} judged run ${ctx.surface.runNumber(issue, run)} FAIL (iteration ${j.iteration} of ${limit}) and sends ${targets.join(', ')} back.`,
            '',
            (0,report/* renderJudgment */.Zm)(j, ctx.surface),
        ].join('\n'));
    }
    const now = (0,context/* nowIso */.kF)(ctx);
    const claim = (0,context/* taskClaim */.s1)(ctx, 'dispatch', now);
    const claimed = await (0,context/* updateView */.vl)(ctx, issue, run, `critic sends back ${targets.join(', ')}`, (v, tx) => {
        if (v.run.phase !== 'REVIEWING')
            return [];
        for (const id of targets) {
            const t = (0,run_files/* taskOf */.Xb)(v, id);
            (0,run_files/* writeTask */.bN)(tx, issue, run, {
                ...t,
                status: 'pending',
                claim: null,
                error: null,
                finishedAt: null,
                accepted: false,
                advice: [...t.advice, (0,judgment/* rerunAdvice */.bB)(j, id)],
            });
        }
        (0,run_files/* writeRun */.bp)(tx, { ...v.run, phase: 'EXECUTING', finalizer: null, review: { ...(v.run.review ?? run_state/* FRESH_REVIEW */.e0), rerun: targets } }, now);
        return (0,transitions/* claimReadyTasks */.M)(tx, issue, run, config.max_parallel, claim);
    });
    ctx.log.info(`critic: FAIL; running ${targets.join(', ')} again with the critic's reasons (iteration ${j.iteration} of ${limit})`);
    if (claimed.length)
        await (0,context/* dispatchTasks */.Xy)(ctx, issue, run, claimed, claim);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
async function escalateVerdict(ctx, view, j, why) {
    const { issue, run } = view.run;
    const s = ctx.surface;
    const body = [
        `${s.bold('crew needs a decision')} on run ${s.runNumber(issue, run)}: ${why}.`,
        '',
        (0,report/* renderJudgment */.Zm)(j, s),
        s.bold('Reply with one of:'),
        `- ${s.command('retry')}: one more round: the tasks behind the failing criteria run again with the critic's reasons, then the critic judges again.`,
        `- ${s.command('accept')}: open the pull request as it is, with the failing criteria stated at its top. crew will not merge it by itself.`,
        `- ${s.command('abort')}: stop here; the branches stay.`,
    ].join('\n');
    await (0,caps/* spend */.Rf)(ctx, issue, run, { comments: 1 });
    const posted = await ctx.forge.postComment(issue, body);
    await (0,context/* updateView */.vl)(ctx, issue, run, `critic FAIL goes to a person`, (v, tx) => {
        (0,run_files/* writeRun */.bp)(tx, { ...v.run, phase: 'ESCALATING', finalizer: null, waiting: { kind: 'verdict', commentId: posted.id, iteration: j.iteration } }, (0,context/* nowIso */.kF)(ctx));
        (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
    });
    await ctx.forge.addLabel(issue, labels/* WAITING_LABEL */.J);
    ctx.log.checkpoint('verdict-escalated');
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}


/***/ }),

/***/ 19489:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   f: () => (/* binding */ baseTreeOf),
/* harmony export */   q: () => (/* binding */ accountWithRerun)
/* harmony export */ });
/* harmony import */ var _domain_test_results__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(99216);
/* harmony import */ var _domain_tamper__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(30668);
/* harmony import */ var _toolbox_test_runs__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(78574);



/**
 * A command criterion's tests, base against head (#32). A test that passed on the base and fails
 * here is run once more before it convicts anyone: one that passes again is flaky, not lost. The
 * critic judges the integrated head this way, and each of a task's parallel attempts (#50) too.
 */
async function accountWithRerun(ctx, c, base, head, o) {
    const opts = { diff: o.diff, ...(o.baseTree ? { baseTree: o.baseTree } : {}) };
    const a = (0,_domain_test_results__WEBPACK_IMPORTED_MODULE_0__/* .account */ .ct)(c, base, head, opts);
    const failedNow = a.changes.filter((x) => x.kind === 'lost' && x.after === 'failed');
    // Without a runner (no sandbox started) there is nothing to run again with.
    if (!failedNow.length || !o.runner)
        return a;
    ctx.log.info(`critic: ${failedNow.length} test(s) of ${c.id} passed on the base and fail here; running ${c.command} once more to tell a flaky test from a broken one`);
    const again = await (0,_toolbox_test_runs__WEBPACK_IMPORTED_MODULE_2__/* .runWithReports */ .X)(o.runner, o.reports, c.command, { cwd: ctx.repo.dir, timeoutMs: o.timeoutMs });
    const passedAgain = new Set(again.tests.kind === 'known' ? again.tests.tests.filter((t) => t.outcome === 'passed').map(_domain_test_results__WEBPACK_IMPORTED_MODULE_0__/* .testKey */ .S8) : []);
    const flaky = new Set(failedNow.map((x) => (0,_domain_test_results__WEBPACK_IMPORTED_MODULE_0__/* .testKey */ .S8)(x.test)).filter((k) => passedAgain.has(k)));
    return flaky.size ? (0,_domain_test_results__WEBPACK_IMPORTED_MODULE_0__/* .account */ .ct)(c, base, head, { ...opts, flaky }) : a;
}
/** The files the change added, and whether the base's tree holds a test file (the head's files less those, and those it deleted). */
async function baseTreeOf(ctx, files) {
    const added = new Set(files.filter((f) => f.status === 'added').map((f) => f.path));
    const hasTestFile = files.some((f) => f.status === 'deleted' && (0,_domain_tamper__WEBPACK_IMPORTED_MODULE_1__/* .isTestFile */ .hl)(f.path)) || (await ctx.repo.listFiles()).some((p) => !added.has(p) && (0,_domain_tamper__WEBPACK_IMPORTED_MODULE_1__/* .isTestFile */ .hl)(p));
    return { hasTestFile, added };
}


/***/ }),

/***/ 76140:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Z: () => (/* binding */ tamperContext)
/* harmony export */ });
/* harmony import */ var _domain_tamper__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(30668);

/** What the tampering checks need beyond the diff: each changed package.json whole, and the setup files the head's runner configuration loads. */
async function tamperContext(ctx, baseSha, headSha, files) {
    const packageJson = {};
    for (const f of files.filter((x) => /(^|\/)package\.json$/.test(x.path))) {
        packageJson[f.path] = { before: await ctx.repo.readFileAt(baseSha, f.path), after: await ctx.repo.readFileAt(headSha, f.path) };
    }
    const setupFiles = [];
    for (const path of (await ctx.repo.listFiles()).filter(_domain_tamper__WEBPACK_IMPORTED_MODULE_0__/* .isRunnerConfigFile */ .v8)) {
        const text = await ctx.repo.readFileAt(headSha, path);
        if (text !== undefined)
            setupFiles.push(...(0,_domain_tamper__WEBPACK_IMPORTED_MODULE_0__/* .setupFilesNamedIn */ .Rk)(path, text));
    }
    const testFiles = {};
    const testFilesBefore = {};
    for (const f of files.filter((x) => x.status !== 'deleted' && !x.binary && (0,_domain_tamper__WEBPACK_IMPORTED_MODULE_0__/* .isTestFile */ .hl)(x.path))) {
        const text = await ctx.repo.readFileAt(headSha, f.path);
        if (text !== undefined)
            testFiles[f.path] = text;
        const before = f.status === 'modified' ? await ctx.repo.readFileAt(baseSha, f.path) : undefined;
        if (before !== undefined)
            testFilesBefore[f.path] = before;
    }
    return { packageJson, setupFiles, testFiles, testFilesBefore };
}


/***/ }),

/***/ 14266:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   S: () => (/* binding */ baseRuns)
/* harmony export */ });
/* harmony import */ var _domain_test_results__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(99216);
/* harmony import */ var _sandbox_command_runner__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(55378);
/* harmony import */ var _toolbox_test_runs__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(78574);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(24742);
/* harmony import */ var _domain_refs__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(92);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(33732);
/* harmony import */ var _toolbox_sandbox_setup__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(85478);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_7___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_7__);








const tail = (text) => text.trimEnd().split('\n').slice(-15).join('\n').slice(-1500);
/**
 * Each command criterion as it ran on the run's base (#32): read from crew/state when an earlier
 * iteration ran it there, else run now. `fresh` lists the records made now, for the caller to keep on
 * crew/state with its judgment.
 *
 * The base runs out of the head's reach (#46): the head's tests and setup ran before, as the tool user,
 * in the job's checkout, home and temporary folder, and a file they leave there (`~/.npmrc` with
 * `node-options`, Python's `usercustomize.py`, the head's `node_modules`) changes how any later run goes.
 * So the base gets a checkout of its own at the base commit, inside a home and temporary folder made for
 * it (CommandRunner.programHome), and its own setup there (sandboxed, with the network setup on a
 * model-written tree has: a follow-up's base is a model's). Where that cannot be made, or its setup fails,
 * the base's tests are unknown, and said why; such a record is not kept, so a later iteration tries again.
 */
async function baseRuns(ctx, view, criteria, opts) {
    const { issue, run, base } = view.run;
    // Results this job's view already held (or a compare-and-swap write of new ones settles).
    const snap = await ctx.state.load(`${(0,_domain_refs__WEBPACK_IMPORTED_MODULE_4__/* .runFolder */ .kQ)(issue, run)}/`, _context__WEBPACK_IMPORTED_MODULE_5__/* .SEEN */ .GL);
    const runs = new Map();
    const todo = [];
    for (const c of criteria) {
        const kept = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .readChecked */ .Yi)(snap, _state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .paths */ .f0.baseTests(issue, run, c.id), _domain_test_results__WEBPACK_IMPORTED_MODULE_0__/* .BaseRunSchema */ .QG);
        if (kept && kept.command === c.command && kept.baseSha === base.sha)
            runs.set(c.id, kept);
        else
            todo.push(c);
    }
    const fresh = [];
    const record = (c, r) => ({
        criterion: c.id,
        command: c.command,
        baseSha: base.sha,
        exitCode: r.exitCode,
        timedOut: r.timedOut,
        output: tail(r.output),
        tests: r.tests,
        at: (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx),
    });
    // Nothing changed yet: the head is the base, and its runs are the base's.
    if (opts.headSha === base.sha && opts.head) {
        for (const c of todo) {
            const h = opts.head.get(c.id);
            if (h)
                fresh.push(record(c, h));
        }
    }
    else if (todo.length) {
        const notRun = (why) => {
            ctx.log.warn(`critic: the base's tests could not run: ${why}`);
            for (const c of todo)
                runs.set(c.id, record(c, { exitCode: null, timedOut: false, output: why, tests: { kind: 'unknown', why: `crew could not run them: ${why}` } }));
        };
        const place = await baseCheckout(ctx, opts.runner, base.sha).catch((e) => e);
        if (place instanceof Error)
            notRun(`crew could not give the base a checkout, home and temporary folder of its own (${place.message.split('\n')[0]})`);
        else
            try {
                const at = { cwd: place.cwd, env: (0,_sandbox_command_runner__WEBPACK_IMPORTED_MODULE_1__/* .homeEnv */ .$v)(place.home) };
                const failed = await (0,_toolbox_sandbox_setup__WEBPACK_IMPORTED_MODULE_6__/* .runSetup */ .xn)(ctx, opts.setup.commands, opts.timeoutMs, opts.runner, opts.setup.where, opts.setup.network, at);
                if (failed)
                    notRun(`its setup failed: ${failed}`);
                else
                    for (const c of todo) {
                        ctx.log.info(`critic: running ${c.id} on the base (${base.sha.slice(0, 7)}), in a checkout and home of its own, once for this run: ${c.command}`);
                        fresh.push(record(c, await (0,_toolbox_test_runs__WEBPACK_IMPORTED_MODULE_2__/* .runWithReports */ .X)(opts.runner, opts.reports, c.command, { ...at, timeoutMs: opts.timeoutMs })));
                    }
            }
            finally {
                await place.home.dispose();
            }
    }
    for (const r of fresh)
        runs.set(r.criterion, r);
    return { runs, fresh };
}
/** A home made now (with its own TMPDIR), and a checkout of the base commit inside it: where the base's tests run. */
async function baseCheckout(ctx, runner, sha) {
    if (!runner.programHome)
        throw new Error('this sandbox cannot make a home of its own');
    const home = await runner.programHome((dir) => ctx.repo.checkoutCopy(sha, (0,node_path__WEBPACK_IMPORTED_MODULE_7__.join)(dir, BASE_CHECKOUT)));
    return { home, cwd: (0,node_path__WEBPACK_IMPORTED_MODULE_7__.join)(home.dir, BASE_CHECKOUT) };
}
/** The base's checkout's folder in its home. */
const BASE_CHECKOUT = 'base';


/***/ }),

/***/ 85478:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  $K: () => (/* binding */ prepareTools),
  xn: () => (/* binding */ runSetup),
  kJ: () => (/* binding */ setupNetwork)
});

// UNUSED EXPORTS: CONFIG_OPT_IN, commandRunner

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./src/config/schema.ts
var schema = __webpack_require__(90131);
// EXTERNAL MODULE: ./src/domain/egress.ts
var domain_egress = __webpack_require__(30061);
// EXTERNAL MODULE: ./src/domain/toolchain-setup.ts
var toolchain_setup = __webpack_require__(47323);
// EXTERNAL MODULE: ./src/sandbox/command-runner.ts + 2 modules
var command_runner = __webpack_require__(55378);
// EXTERNAL MODULE: ./src/sandbox/own-temp.ts
var own_temp = __webpack_require__(79226);
// EXTERNAL MODULE: ./src/toolbox/command-options.ts
var command_options = __webpack_require__(33625);
;// CONCATENATED MODULE: ./src/toolbox/egress.ts

const DEFAULT_NETWORK = { allow: [], defaults: true, tools: 'none', fallback: 'offline', services: [] };
/** Starts the job's egress proxy; its socket is the route a sandbox is prepared with. Undefined (and why) when it cannot start. */
async function startJobProxy(network, log) {
    // Loaded here, by the jobs that run model-written code: the proxy brings proxy-chain (docs/PERFORMANCE.md, "Cold start").
    const { startEgressProxy } = await Promise.all(/* import() */[__webpack_require__.e(830), __webpack_require__.e(472), __webpack_require__.e(880)]).then(__webpack_require__.bind(__webpack_require__, 5880));
    try {
        return await startEgressProxy({
            allow: (0,domain_egress/* egressAllowlist */.xV)(network),
            ...(process.env.CREW_EGRESS_RESOLVER ? { resolver: process.env.CREW_EGRESS_RESOLVER } : {}),
            onRefused: (host, port, how, named) => log.warn(refusalLine(host, port, how, named)),
        });
    }
    catch (e) {
        return { problem: `crew's egress proxy did not start (${e.message.split('\n')[0]})` };
    }
}
/** The job log's line for one refused request. */
function refusalLine(host, port, how, named) {
    const what = how === 'CONNECT' ? 'CONNECT' : 'an HTTP request';
    if (named === undefined)
        return `egress: refused ${what} to ${host}:${port} (not on the allowlist)`;
    if (named.startsWith('('))
        return `egress: refused ${what} to ${host}:${port} ${named}`;
    return `egress: refused ${what} to ${host}:${port}: ${how === 'CONNECT' ? 'the TLS inside it' : 'its Host header'} names ${named} (a request reaches only the host it is sent to)`;
}
function routeOf(proxy) {
    return proxy && 'socket' in proxy ? { socket: proxy.socket } : undefined;
}
/** The job's egress, once the sandbox is known: the allowlist where the sandbox reaches the proxy, else the fallback. */
function jobEgress(network, runner, proxy, sandboxProblem) {
    const live = proxy && 'socket' in proxy ? proxy : undefined;
    const refused = () => live?.refused() ?? {};
    const close = async () => live?.close();
    if (!runner.sandboxed) {
        void live?.close();
        return { mode: 'open', tools: 'open', refused, close, statement: "egress: open (no sandbox): model-written code has the runner's network, unfiltered." };
    }
    if (runner.egress && live) {
        const tools = network.tools === 'allowlist' ? 'allowlist' : 'none';
        const extra = live.allow.filter((h) => !domain_egress/* DEFAULT_HOSTS */.yX.includes(h));
        const hosts = `${live.allow.length} allowed host${live.allow.length === 1 ? '' : 's'} (${network.defaults ? 'the package registries and GitHub' : 'no defaults'}${extra.length ? `, and ${extra.join(', ')} from network.allow` : ''})`;
        return {
            mode: 'allowlist',
            tools,
            refused,
            close,
            statement: `egress: allowlist. Setup on a model-written tree reaches only the ${hosts} through crew's proxy; every other host, and DNS, fails. The agents' commands have ${tools === 'allowlist' ? 'the same allowlist (network.tools)' : 'no network (network.tools: none)'}.`,
        };
    }
    void live?.close();
    const problem = sandboxProblem ?? (proxy && 'problem' in proxy ? proxy.problem : 'no route to the egress proxy');
    if (network.fallback === 'open')
        return {
            mode: 'open',
            tools: 'none',
            problem,
            refused,
            close,
            statement: `egress: OPEN. crew's egress allowlist could not be set up (${problem}), and network.fallback is open: setup on a model-written tree has the runner's network, unfiltered. The agents' commands have no network.`,
        };
    return {
        mode: 'offline',
        tools: 'none',
        problem,
        refused,
        close,
        statement: `egress: offline. crew's egress allowlist could not be set up (${problem}), so setup on a model-written tree runs without network (network.fallback: offline), and so do the agents' commands.`,
    };
}
/** A job where no model-written setup runs and the agents' commands have no network: no proxy, nothing to reach. */
function unneeded() {
    return {
        mode: 'offline',
        tools: 'none',
        refused: () => ({}),
        close: async () => undefined,
        statement: "egress: none needed. No setup runs on a model-written tree in this job, and the agents' commands have no network (network.tools: none).",
    };
}
/** A runner whose commands get `network` unless they ask otherwise: what the agents' commands run through. */
class NetworkedRunner {
    inner;
    network;
    sandboxed;
    description;
    egress;
    constructor(inner, network) {
        this.inner = inner;
        this.network = network;
        this.sandboxed = inner.sandboxed;
        this.description = inner.description;
        if (inner.egress)
            this.egress = inner.egress;
    }
    run(command, opts) {
        return this.inner.run(command, { ...opts, network: opts.network ?? this.network });
    }
    start(command, opts) {
        if (!this.inner.start)
            throw new Error('this runner cannot start a long-lived program');
        return this.inner.start(command, { ...opts, network: opts.network ?? this.network });
    }
    programHome(fill) {
        if (!this.inner.programHome)
            throw new Error('this runner cannot make a home of its own');
        return this.inner.programHome(fill);
    }
}
/** The end of a failed setup's message: what the proxy refused meanwhile, or that there was no network, and how to allow it. */
function setupNetworkAdvice(egress, refusedDuringSetup, optIn) {
    if (egress.mode === 'allowlist') {
        if (!Object.keys(refusedDuringSetup).length)
            return '';
        return `. crew's egress proxy refused ${(0,domain_egress/* describeRefusals */.lY)(refusedDuringSetup)} meanwhile: if the repository needs ${Object.keys(refusedDuringSetup).length === 1 ? 'that host' : 'those hosts'}, add ${Object.keys(refusedDuringSetup).length === 1 ? 'it' : 'them'} to network.allow in ${optIn}`;
    }
    if (egress.mode === 'offline')
        return `. It ran without network, because crew's egress allowlist could not be set up here (${egress.problem}). Run crew where it is root or has passwordless sudo (the tool user's namespaces need \`unshare\`, \`setpriv\` and \`ip\`), or set network.fallback: open in ${optIn} to give model-written setup the runner's network, unfiltered`;
    return '';
}

// EXTERNAL MODULE: ./src/domain/doctor.ts
var doctor = __webpack_require__(84441);
// EXTERNAL MODULE: ./src/domain/sandbox-reach.ts
var sandbox_reach = __webpack_require__(72221);
;// CONCATENATED MODULE: ./src/domain/reach-note.ts


/** At most this many names in a note: it stays one short line. */
const SHOWN = 3;
const list = (names) => names.slice(0, SHOWN).join(', ') + (names.length > SHOWN ? ` and ${names.length - SHOWN} more` : '');
/** A word on a line that says something is missing: where a name of a variable in the output counts. */
const MISSING = /not set|unset|undefined|missing|required|KeyError|must be set|is empty|not defined|no such|environment|getenv|env\b/i;
/** The shell's own variables: a line that names one is about something else. */
const SHELL_OWN = new Set(['USER', 'LOGNAME', 'SHELL', 'PWD', 'OLDPWD', 'SHLVL', 'HOSTNAME', 'MAIL']);
/** Upper-case names a failed command's output mentions on a line that says something is missing. */
function namedVariables(output) {
    const names = new Set();
    for (const line of output.split('\n')) {
        if (!MISSING.test(line))
            continue;
        for (const m of line.matchAll(/(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_])|(?<![A-Za-z0-9_$])[A-Z]{4,}(?![A-Za-z0-9_])/g))
            if (m[0].length <= 64 && !SHELL_OWN.has(m[0]))
                names.add(m[0]);
    }
    return [...names];
}
function modelReach(facts) {
    return {
        told: (sandboxed) => {
            const given = [
                ...(facts.passed.length ? [`the variables ${facts.passed.join(', ')} (sandbox_env)`] : []),
                ...(sandboxed && facts.services.length ? [`the services at ${facts.services.join(', ')} on the runner's loopback (network.services)`] : []),
            ];
            const rest = sandboxed
                ? "no other variable of the runner's environment and no other port on its loopback reach them"
                : "no other variable of the runner's environment reaches them";
            const off = sandboxed && facts.off ? ` The services at ${facts.off.services.join(', ')} (network.services) are unavailable in this job: ${facts.off.why}.` : '';
            return `${given.length ? `From the repository's setup steps, commands get ${given.join(' and ')}; ${rest}` : `Commands get no variable of the runner's environment${sandboxed ? ' and no service on its loopback' : ''}`} (only a maintainer can change that, in ${doctor/* CONFIG_FILE */.g2}).${off}`;
        },
        note: (output, sandboxed) => {
            const said = [];
            if (sandboxed) {
                const addresses = (0,sandbox_reach/* unreachedLoopback */.lg)(output).map(sandbox_reach/* serviceKey */.jq);
                const unnamed = addresses.filter((a) => !facts.services.includes(a) && !facts.off?.services.includes(a));
                const off = addresses.filter((a) => facts.off?.services.includes(a));
                if (off.length)
                    said.push(`${list(off)} is named in network.services but unavailable in this job: ${facts.off.why}`);
                if (unnamed.length)
                    said.push(`${list(unnamed)} on the runner is not reachable from the sandbox (not in network.services; a maintainer can add it in ${doctor/* CONFIG_FILE */.g2})`);
                // A named service's bridge saw the runner refuse it; the command may only have seen its connection closed.
                const dead = facts.refused().filter((a) => output.includes(a));
                if (dead.length)
                    said.push(`nothing listened at ${list(dead)} on the runner: the repository's setup steps did not start that service`);
            }
            const named = namedVariables(output);
            const missing = named.filter((n) => facts.missing.includes(n));
            if (missing.length)
                said.push(`${list(missing)} is named in sandbox_env but no setup step set it`);
            const held = named.filter((n) => !facts.passed.includes(n) && !facts.missing.includes(n) && (0,sandbox_reach/* sandboxEnvNameProblem */.XY)(n) === null && facts.runnerHas(n));
            if (held.length)
                said.push(`${list(held)} is set on the runner but not passed to the sandbox (a maintainer can add it to sandbox_env in ${doctor/* CONFIG_FILE */.g2})`);
            return said.length ? `crew: ${said.join('; ')}.` : null;
        },
    };
}

// EXTERNAL MODULE: ./src/domain/setup-caches.ts
var setup_caches = __webpack_require__(59613);
// EXTERNAL MODULE: ./src/sandbox/path-folders.ts
var path_folders = __webpack_require__(29276);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(77030);
// EXTERNAL MODULE: ./src/sandbox/egress/socket-place.ts
var socket_place = __webpack_require__(59976);
;// CONCATENATED MODULE: ./src/sandbox/services.ts




/** Starts one bridge per address; closes what it opened and throws when one cannot start. */
async function startServiceBridges(addresses) {
    const opened = [];
    const refused = new Set();
    const close = async () => {
        await Promise.all(opened.map(async (o) => {
            for (const s of o.sockets)
                s.destroy();
            await new Promise((done) => o.server.close(() => done()));
            await (0,promises_.rm)(o.dir, { recursive: true, force: true });
            o.kept();
        }));
    };
    const routes = [];
    try {
        for (const address of addresses) {
            const place = await (0,socket_place/* makeSocketPlace */.Z8)('crew-service-', 'bridge.sock');
            const sockets = new Set();
            const server = (0,external_node_net_.createServer)((inside) => {
                const outside = (0,external_node_net_.connect)({ host: address.host, port: address.port });
                for (const s of [inside, outside]) {
                    sockets.add(s);
                    s.on('close', () => sockets.delete(s));
                }
                outside.on('error', (e) => {
                    if (e.code === 'ECONNREFUSED')
                        refused.add((0,sandbox_reach/* serviceKey */.jq)(address));
                    inside.destroy();
                });
                inside.on('error', () => outside.destroy());
                inside.pipe(outside);
                outside.pipe(inside);
            });
            // The job's tools close the bridges (toolbox/sandbox-setup.ts, dispose); a process that ends first removes their folders on its way out.
            opened.push({ server, dir: place.dir, sockets, kept: (0,socket_place/* removedAtExit */.og)(place.dir) });
            await new Promise((ok, fail) => {
                server.once('error', fail);
                server.listen(place.socket, () => ok());
            });
            // The bridge keeps no job alive on its own: the step's end is crew's to decide (end-after-step.ts).
            server.unref();
            routes.push({ address, socket: place.socket });
        }
    }
    catch (e) {
        await close();
        throw e;
    }
    return { routes, refused: () => [...refused], close };
}

// EXTERNAL MODULE: ./src/text/redact.ts
var redact = __webpack_require__(53326);
;// CONCATENATED MODULE: ./src/toolbox/sandbox-reach.ts







/** Whether `environment` holds `name` with a value crew may hand over (none holding a secret it knows): the model is told the name only. */
const holds = (environment) => (name) => {
    const value = environment[name];
    return value !== undefined && value !== '' && (0,redact/* redact */.E$)(value) === value;
};
const NO_REACH = {
    reach: {},
    hint: () => null,
    model: modelReach({ passed: [], missing: [], services: [], refused: () => [], runnerHas: holds(process.env) }),
    withoutServices: () => NO_REACH,
    close: async () => undefined,
};
/**
 * The variables and bridges, said in the job's log. A variable whose value holds a secret crew knows (its
 * token, its key, a `crew_env` value, a cloud credential: whatever redact() hides) is left out, and so
 * is one no step set; a bridge that cannot start leaves its service unreachable, said too.
 */
async function prepareReach(config, log, environment = process.env) {
    // What the setup steps put on PATH reaches crew's own commands and the sandbox's alike.
    for (const warning of (0,path_folders/* pathFolderWarnings */.DM)(environment.PATH, environment.GITHUB_WORKSPACE))
        log.warn(warning);
    const names = config.sandbox_env ?? [];
    const wanted = (config.network.services ?? []).map(sandbox_reach/* parseServiceAddress */.ZM).filter((a) => !('problem' in a));
    if (!names.length && !wanted.length)
        return NO_REACH;
    const env = {};
    const missing = [];
    for (const name of names) {
        const value = environment[name];
        if (value === undefined)
            missing.push(name);
        else if ((0,redact/* redact */.E$)(value) !== value)
            log.warn(`sandbox_env: ${name} is left out: its value holds a secret crew knows (a token, a key or a crew_env value)`);
        else
            env[name] = value;
    }
    if (missing.length)
        log.warn(`sandbox_env names ${missing.join(', ')}, which no setup step set (export it through $GITHUB_ENV in ${toolchain_setup/* SETUP_ACTION_PATH */.BC})`);
    let bridges;
    if (wanted.length) {
        try {
            bridges = await startServiceBridges(wanted);
        }
        catch (e) {
            log.warn(`network.services: crew could not forward ${wanted.map(sandbox_reach/* serviceKey */.jq).join(', ')} into the sandbox (${e.message.split('\n')[0]})`);
        }
    }
    const services = wanted.map(sandbox_reach/* serviceKey */.jq);
    if (Object.keys(env).length || bridges)
        log.info(`The sandboxed commands get ${[
            ...(Object.keys(env).length ? [`the setup steps' ${Object.keys(env).join(', ')} (sandbox_env)`] : []),
            ...(bridges ? [`the services at ${services.join(', ')} on the runner's loopback (network.services)`] : []),
        ].join(' and ')}.`);
    const off = wanted.length && !bridges ? 'crew could not forward them into the sandbox' : undefined;
    const build = (offWhy, routes) => ({
        reach: { env, ...(routes ? { services: routes } : {}) },
        hint: (output) => (0,sandbox_reach/* reachHint */.Nk)(output, { missingVars: missing, services, refusedServices: bridges?.refused() ?? [], ...(offWhy ? { servicesOff: offWhy } : {}) }),
        model: modelReach({
            passed: Object.keys(env),
            missing,
            services: routes ? services : [],
            refused: () => bridges?.refused() ?? [],
            runnerHas: holds(environment),
            ...(offWhy ? { off: { services, why: offWhy } } : {}),
        }),
        withoutServices: (why) => build(why, undefined),
        close: async () => bridges?.close(),
    });
    return build(off, bridges?.routes);
}
/**
 * A sandbox started with the services' bridges; when it cannot start with them but can without (it has no `ip`
 * to bring up its own loopback: a container without iproute2), the job keeps its sandbox without the services
 * and says so, rather than losing the sandbox.
 */
async function startWithReach(prepare, given, log) {
    const prepared = await prepare(given.reach);
    const services = given.reach.services ?? [];
    if ('runner' in prepared || !services.length)
        return { prepared, given };
    const { services: _, ...rest } = given.reach;
    const plain = await prepare(rest);
    if (!('runner' in plain))
        return { prepared, given };
    const why = /\bip: (command )?not found/.test(prepared.reason)
        ? 'the sandbox has no `ip` program (iproute2), which brings up its own loopback for them'
        : `the sandbox could not start with them (${prepared.reason})`;
    log.warn(`network.services: ${why}, so the services at ${services.map((s) => (0,sandbox_reach/* serviceKey */.jq)(s.address)).join(', ')} are unavailable to the sandboxed commands in this job; the sandbox itself is kept. Install iproute2 in the repository's setup steps (${toolchain_setup/* SETUP_ACTION_PATH */.BC}) or on the runner.`);
    return { prepared: plain, given: { ...given.withoutServices(why), reach: rest } };
}
/**
 * The same reach, with the dependency caches the setup steps restored in the runner's home (domain/setup-caches.ts's
 * HOME_CACHES) copied into the sandbox's home when it is made (sandbox/home-caches.ts): for setup on a model-written
 * tree, which then installs from the copy and never writes the runner's own folders, saved at the job's end.
 */
function withHomeCaches(given, log, home = process.env.HOME, 
/** Only in an Actions job, where the setup steps restored them: locally the home is the person's, its caches theirs and maybe large. */
inJob = process.env.GITHUB_ACTIONS === 'true') {
    if (!home || !inJob)
        return given;
    const said = (copied, seconds, failed) => {
        if (failed.length)
            log.warn(`crew could not copy the runner's ${failed.map((f) => `~/${f}`).join(', ')} into the sandbox's home: setup on the model-written tree downloads what it would have found there.`);
        if (copied.length)
            log.info(`The sandbox's home starts with a copy of the runner's ${copied.map((f) => `~/${f}`).join(', ')} (restored by the setup steps; ${seconds.toFixed(1)} s): setup on the model-written tree installs from it, and nothing it writes there is saved to the cache.`);
    };
    return { ...given, reach: { ...given.reach, caches: { from: home, folders: setup_caches/* HOME_CACHES */.cB, said } } };
}

;// CONCATENATED MODULE: ./src/toolbox/sandbox-setup.ts









/** What the work and critic jobs share before an agent starts: the trusted setup, then the sandbox. */
/** How to let commands run without a sandbox, unless the context says otherwise (local mode: a flag). */
const CONFIG_OPT_IN = 'set allow_unsandboxed: true in .github/crew.yml';
/**
 * The sandbox for run_command, or the reason there is none, said loudly. The first that
 * starts wins: the tool user (root or passwordless sudo), then user namespaces (where the
 * kernel lets any user create them). The job's egress proxy starts first, so the sandbox is
 * prepared with its route and checked to reach it.
 */
async function commandRunner(ctx, config, sandboxes = [command_runner/* prepareSandbox */.D_, command_runner/* prepareUserNamespace */.KR], 
/** Whether anything in this job may use the allowlist; a job where nothing does starts no proxy and probes no route. */
needsRoute = true, jobReach) {
    const temp = (0,own_temp/* jobTempDir */.z3)();
    const reasons = [];
    const proxy = needsRoute || config.network.tools === 'allowlist' ? await startJobProxy(config.network, ctx.log) : undefined;
    const given = jobReach ?? (await prepareReach(config, ctx.log));
    const { reach } = given;
    const hint = hintOf(given);
    // The reach is this function's to close only when it made it; prepareTools closes its own.
    const closeReach = jobReach ? async () => undefined : () => given.close();
    for (const prepare of sandboxes) {
        // Without `ip` in the sandbox, the job keeps its sandbox without the services (sandbox-reach.ts).
        const started = await startWithReach((r) => prepare(ctx.repo.dir, temp, routeOf(proxy), r), given, ctx.log).catch(async (e) => {
            // A sandbox that threw: what this function started closes here, as the tools' dispose would have.
            await disposer(ctx.log, async () => (proxy && 'socket' in proxy ? proxy.close() : undefined), closeReach)();
            throw e;
        });
        const prepared = started.prepared;
        if ('runner' in prepared) {
            const egress = proxy ? jobEgress(config.network, prepared.runner, proxy, prepared.egressProblem) : unneeded();
            ctx.log.info(`run_command is ${prepared.runner.description}. ${egress.statement}`);
            for (const note of prepared.notes ?? [])
                ctx.log.warn(note);
            if (egress.problem)
                ctx.log.warn(`crew's egress allowlist could not be set up: ${egress.problem}`);
            const runner = egress.tools === 'allowlist' ? new NetworkedRunner(prepared.runner, 'allowlist') : prepared.runner;
            const warning = egress.mode === 'open' ? `model-written setup had the runner's network, unfiltered (network.fallback: open; ${egress.problem})` : null;
            return {
                runner,
                warning,
                egress,
                ...hintOf(started.given),
                reach: started.given.model,
                dispose: disposer(ctx.log, () => egress.close(), closeReach),
            };
        }
        reasons.push(prepared.reason);
    }
    if (proxy && 'socket' in proxy)
        await proxy.close();
    const reason = reasons.join(', and ');
    if (config.allow_unsandboxed) {
        const runner = new command_runner/* UnsandboxedRunner */.qR((0,external_node_path_.join)(temp, 'crew-tool-home'), { env: reach.env ?? {} });
        const egress = jobEgress(config.network, runner, undefined, undefined);
        ctx.log.warn(`No sandbox: ${reason}. allow_unsandboxed is on, so ${runner.description}. ${egress.statement}`);
        return {
            runner,
            warning: `commands ran without a sandbox (${reason})`,
            egress,
            ...hint,
            reach: given.model,
            dispose: disposer(ctx.log, () => egress.close(), closeReach),
        };
    }
    const optIn = ctx.unsandboxedOptIn ?? CONFIG_OPT_IN;
    ctx.log.warn(`No sandbox: ${reason}. run_command is refused; ${optIn} to run commands without one.`);
    return { warning: `run_command was refused: no sandbox (${reason})`, reason, ...hint, dispose: disposer(ctx.log, closeReach) };
}
/**
 * Where the job's agents will work: setup (config `setup:`), then the sandbox for their commands.
 *
 * Setup runs whatever the tree tells it to (`npm ci` runs package.json lifecycle scripts, `pip install`
 * runs the build backend). On the run's base commit that is the repository's own reviewed code, so it
 * runs as crew's user, with network, before the sandbox opens the tree to the tool user. On any tree a
 * model has written (a dependent task's start, a resumed task, the critic's integrated branch) it is
 * model code: it runs inside the sandbox like `run_command`, out of sight of crew's processes,
 * environment and credentials, reaching only the hosts the egress allowlist lets through (or, where
 * that cannot be set up, no network unless `network.fallback: open`); with no sandbox it is refused
 * unless `allow_unsandboxed`.
 */
async function prepareTools(ctx, config, 
/**
 * `mcp`: a stdio MCP server starts in this job's sandbox, and reaches the network only through the allowlist.
 * `ownHome`: the sandbox's commands from here on (setup on a model-written tree, and the caller's, through
 * `home`, which the tools' dispose removes) get a home and temporary folder of their own, out of reach of commands
 * that ran before with the tool user's shared home (#46).
 */
tree, sandboxes) {
    const timeoutMs = config.command_timeout_seconds * 1000;
    const jobReach = await prepareReach(config, ctx.log);
    /** What has started so far: the runner's tools (their proxy), the home; the reach's bridges always. */
    const opened = {};
    /** One dispose for what prepareTools started: the runner's (its proxy), the reach's bridges, the home. */
    const handed = (tools, home) => ({
        ...tools,
        dispose: disposer(ctx.log, tools.dispose, () => jobReach.close(), home && 'dispose' in home ? () => home.dispose() : undefined),
    });
    try {
        if (tree.trusted || !config.setup.length) {
            const setupFailure = await runSetup(ctx, config.setup, timeoutMs, new command_runner/* UnsandboxedRunner */.qR(process.env.HOME ?? '/tmp', { env: jobReach.reach.env ?? {} }), 'on the base commit, outside the sandbox', undefined, undefined, jobReach.hint);
            if (setupFailure)
                return handed({ warning: null, setupFailure, ...hintOf(jobReach) });
            const tools = (opened.tools = await commandRunner(ctx, config, sandboxes, tree.mcp ?? false, jobReach));
            const home = (opened.home = tree.ownHome && tools.runner ? await ownHome(tools.runner) : undefined);
            if (home && 'failure' in home)
                return handed({ ...tools, setupFailure: home.failure });
            return handed({ ...tools, setupFailure: null, ...(home ? { home } : {}) }, home);
        }
        // The sandbox's home starts with a copy of the caches the setup steps restored (sandbox-reach.ts).
        const prepared = (opened.tools = await commandRunner(ctx, config, sandboxes, true, withHomeCaches(jobReach, ctx.log)));
        if (!prepared.runner || !prepared.egress) {
            const setupFailure = `the setup commands were refused: this tree holds model-written code, and ${prepared.warning ?? 'there is no sandbox'}; ${ctx.unsandboxedOptIn ?? CONFIG_OPT_IN} to run them without one`;
            ctx.log.warn(setupFailure);
            return handed({ ...prepared, setupFailure });
        }
        const egress = prepared.egress;
        const home = (opened.home = tree.ownHome ? await ownHome(prepared.runner) : undefined);
        if (home && 'failure' in home)
            return handed({ ...prepared, setupFailure: home.failure });
        const network = setupNetwork(prepared.runner, egress);
        const where = !prepared.runner.sandboxed
            ? 'on a model-written tree, WITHOUT a sandbox (allow_unsandboxed)'
            : {
                allowlist: 'on a model-written tree, inside the sandbox, through the egress allowlist',
                offline: 'on a model-written tree, inside the sandbox, without network',
                open: "on a model-written tree, inside the sandbox, with the runner's network (network.fallback: open)",
            }[egress.mode];
        const before = egress.refused();
        const failed = await runSetup(ctx, config.setup, timeoutMs, prepared.runner, where, network, home && { cwd: ctx.repo.dir, env: (0,command_runner/* homeEnv */.$v)(home) }, prepared.hint ?? jobReach.hint);
        const setupFailure = failed && `${failed}${setupNetworkAdvice(egress, (0,domain_egress/* refusalsSince */._9)(egress.refused(), before), schema/* CONFIG_PATH */.tF)}`;
        return handed({ ...prepared, setupFailure, ...(home ? { home } : {}) }, home);
    }
    catch (e) {
        // A step that threw (a command that could not be started, a folder that could not be written): what had
        // started closes here, as the tools' dispose would have (local mode and eval run many jobs in one process).
        await handed(opened.tools ?? {}, opened.home).dispose();
        throw e;
    }
}
/** Runs each close once, in order; one that fails is said in the log (a dispose runs in a `finally`, where a throw would hide the job's own error). */
function disposer(log, ...closes) {
    let done;
    const all = async () => {
        for (const close of closes)
            try {
                await close?.();
            }
            catch (e) {
                log.warn(`crew could not close part of the job's tools (the egress proxy, a service bridge or the commands' home): ${e.message.split('\n')[0]}`);
            }
    };
    return () => (done ??= all());
}
/** The hint, where the job has anything the setup steps hand over (sandbox-reach.ts). */
function hintOf(reach) {
    return reach.hint === NO_REACH.hint ? {} : { hint: reach.hint };
}
/** A home made now, with its own temporary folder (CommandRunner.programHome), or why there is none. */
async function ownHome(runner) {
    try {
        if (!runner.programHome)
            throw new Error('this sandbox cannot make one');
        return await runner.programHome();
    }
    catch (e) {
        return { failure: `crew could not give the commands a home of their own (${e.message.split('\n')[0]})` };
    }
}
/** The network setup on a model-written tree has in the sandbox: what the job's egress gives it (none without a sandbox to ask). */
function setupNetwork(runner, egress) {
    if (!runner.sandboxed)
        return undefined;
    return egress.mode === 'allowlist' ? 'allowlist' : egress.mode === 'open' ? 'open' : 'none';
}
/** Exit code 127 is the shell's "command not found": a tool the runner lacks, which the repository's setup steps can install. */
const NOT_FOUND_HINT = `. A command was not found: install the tools and start the services crew's jobs need in your repository's setup steps, ${toolchain_setup/* SETUP_ACTION_PATH */.BC} (docs/workflow.md)`;
/** Runs the setup commands in order, in the checkout (or in `at`, with its variables); the first that fails says why. */
async function runSetup(ctx, commands, timeoutMs, runner, where, network, at, hint = NO_REACH.hint) {
    for (const command of commands) {
        ctx.log.info(`setup (${where}): ${command}`);
        const started = Date.now();
        const r = await runner.run(command, {
            cwd: at?.cwd ?? ctx.repo.dir,
            timeoutMs,
            maxOutputBytes: command_options/* MAX_OUTPUT_BYTES */.$,
            ...(network ? { network } : {}),
            ...(at ? { env: at.env } : {}),
        });
        // How long each command took: what a dependency cache the setup steps restore saves shows here (#51).
        ctx.log.info(`setup: \`${command}\` ${r.exitCode === 0 ? 'done' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        if (r.exitCode !== 0) {
            const pointer = hint(r.output);
            return `the setup command \`${command}\` ${r.timedOut ? 'timed out' : `exited with ${r.exitCode}`}: ${r.output.trim().split('\n').slice(-5).join(' / ')}${r.exitCode === 127 ? NOT_FOUND_HINT : ''}${pointer ? ` ${pointer}` : ''}`;
        }
    }
    return null;
}


/***/ }),

/***/ 78574:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   X: () => (/* binding */ runWithReports)
/* harmony export */ });
/* unused harmony export testCommand */
/* harmony import */ var _domain_test_results__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(99216);
/* harmony import */ var _text_redact__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(53326);
/* harmony import */ var _command_options__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(33625);



/** What node prints when a command line's own `--test-reporter` (with no destination) meets the one crew puts in NODE_OPTIONS. */
const NODE_REPORTER_CLASH = "must match the number of specified '--test-reporter-destination'";
/**
 * The command line as it runs with the hooks' variables in its environment. A command that sets
 * PYTHONPATH itself (`PYTHONPATH=src python -m …`) keeps the hooks' folder after its own, or Python
 * would never load them. crew's tool environment sets NO_COLOR for the agents' output; a suite that
 * tests its colours reads it, and CI does not set it, so tests run without it.
 */
function testCommand(command) {
    const kept = command.replace(/^(\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*?)PYTHONPATH=(\S*)/, (_m, pre, val) => `${pre}PYTHONPATH=${val}\${PYTHONPATH:+:"$PYTHONPATH"}`);
    return `unset NO_COLOR; ${kept}`;
}
/**
 * Runs a command with crew's report hooks (sandbox/test-reports) and reads what the runners
 * reported: the one way the critic (head, base, localisation, candidates, re-runs) and eval's
 * scoring run tests. A command that gives node's runner a reporter of its own without a destination
 * cannot take crew's as well (node refuses the pair): it runs again without it, and node's tests are
 * unknown. Where it runs is the caller's: `cwd` and `env` (a home and temporary folder of its own for
 * a base or a scored tree, #46).
 */
async function runWithReports(runner, reports, command, 
/** `env`: variables for this run besides the hooks' (a home of its own, #46). */
opts) {
    const line = testCommand(command);
    const base = { cwd: opts.cwd, timeoutMs: opts.timeoutMs, maxOutputBytes: _command_options__WEBPACK_IMPORTED_MODULE_2__/* .MAX_OUTPUT_BYTES */ .$ };
    if (!reports) {
        const r = await runner.run(line, { ...base, ...(opts.env ? { env: opts.env } : {}) });
        return {
            exitCode: r.exitCode,
            timedOut: r.timedOut,
            output: (0,_text_redact__WEBPACK_IMPORTED_MODULE_1__/* .redact */ .E$)(r.output),
            tests: { kind: 'unknown', why: 'crew could not set up its report hooks in this job' },
        };
    }
    // The hooks and report folders may lie outside the sandbox's own places (eval keeps them in its temp folder).
    const see = reports.places();
    let folder = await reports.open();
    let r = await runner.run(line, { ...base, env: { ...opts.env, ...folder.env }, see });
    let files = await reports.collect(folder);
    let clash = false;
    if (r.exitCode !== 0 && r.output.includes(NODE_REPORTER_CLASH) && !files.some((f) => f.name.startsWith('node-'))) {
        clash = true;
        folder = await reports.open({ node: false });
        r = await runner.run(line, { ...base, env: { ...opts.env, ...folder.env }, see });
        files = await reports.collect(folder);
    }
    let tests = (0,_domain_test_results__WEBPACK_IMPORTED_MODULE_0__/* .readReports */ .oh)(files, opts.cwd);
    if (clash && tests.kind === 'unknown')
        tests = {
            kind: 'unknown',
            why: "the command gives node's test runner a --test-reporter of its own with no destination, which node does not let crew add to",
        };
    return { exitCode: r.exitCode, timedOut: r.timedOut, output: (0,_text_redact__WEBPACK_IMPORTED_MODULE_1__/* .redact */ .E$)(r.output), tests };
}


/***/ })

};
