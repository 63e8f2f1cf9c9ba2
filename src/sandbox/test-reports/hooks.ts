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
export const NODE_REPORTER = String.raw`'use strict';
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
export const NODE_PRELOAD = String.raw`'use strict';
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
export const MOCHA_REPORTER = String.raw`'use strict';
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
export const PYTHON_SITECUSTOMIZE = String.raw`# crew: test results as data (pytest's JUnit XML; unittest's outcomes).
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
const BINARY_WRAPPER = String.raw`const { spawn } = require('node:child_process');
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
export const GO_EXEC = String.raw`'use strict';
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
export const CARGO_RUNNER = String.raw`'use strict';
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
