import type { FileDiff } from './diff';
import { hollowness, hooksAssert, testCasesIn, testStyle } from './hollow-tests';

/**
 * The critic's adversarial checks on the integrated diff (4QV+ critical thinking): a
 * change must not pass by deleting, skipping or weakening tests. Each finding names
 * the file and line, so the FAIL carries its evidence. Heuristic by design: a finding
 * a maintainer disagrees with is answered with `/crew accept`, which says so in the PR.
 */

export interface TamperFinding {
  rule:
    | 'deleted-test'
    | 'skipped-test'
    | 'weakened-assertions'
    | 'loosened-matcher'
    | 'test-command-changed'
    | 'runner-config-weakened'
    | 'git-attributes-changed'
    | 'lifecycle-script-changed'
    | 'hollow-test'
    | 'diff-unreadable'
    | 'test-report-tampering';
  file: string;
  line?: number;
  evidence: string;
}

/** What the checks know beyond the diff, gathered by the critic from the commits. */
export interface TamperContext {
  /** Each changed package.json, whole, before and after (undefined: not there). */
  packageJson?: Record<string, { before?: string; after?: string }>;
  /** Files the head's runner configuration loads before the tests (setupFiles, globalSetup, …). */
  setupFiles?: string[];
  /** Each added or changed test file, whole, as the change left it: its test cases are judged whole. */
  testFiles?: Record<string, string>;
  /** The same files as the base had them (changed files only). */
  testFilesBefore?: Record<string, string>;
}

const TEST_PATH = [
  /(^|\/)(tests?|__tests__|specs?)\//i,
  /\.(test|spec)\.[cm]?[jt]sx?$/i,
  /(^|\/)test_[^/]+\.py$/i,
  /_test\.(py|go|rb|exs?)$/i,
  /_spec\.rb$/i,
  /Tests?\.(java|kt|cs|swift)$/,
];

export function isTestFile(path: string): boolean {
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
const WEAK =
  /\.(?:toBeTruthy|toBeDefined|toBeUndefined|toBeFalsy)\(\s*\)|expect\.anything\(\)|\bassert\s+True\b|\bassert\(\s*true\s*\)|assertTrue\(\s*true\s*\)/;

/** Matchers that pin a value exactly, and looser ones that accept more (a swap from the first to the second weakens a test). */
const EXACT =
  /\.(?:toStrictEqual|toEqual|toBe|toHaveLength|toBeNull|toHaveBeenCalledWith|toHaveBeenCalledTimes)\(|\.toThrow\(\s*[^)\s]|\bassert(?:Equal|Equals|StrictEqual|DeepStrictEqual|DeepEqual|Is|IsNone|Count|ListEqual|DictEqual)\b|\bassert\.(?:equal|strictEqual|deepStrictEqual|deepEqual)\(|\bassert\s+\S.*==/;
const LOOSE =
  /\.(?:toMatchObject|toContain|toContainEqual|toMatch|toBeGreaterThan|toBeGreaterThanOrEqual|toBeLessThan|toBeLessThanOrEqual|toBeCloseTo|toHaveBeenCalled)\(|\.toThrow\(\s*\)|\bexpect\.(?:objectContaining|arrayContaining|stringContaining|stringMatching|any)\(|\bassert(?:In|IsNotNone|Greater|GreaterEqual|Less|LessEqual|AlmostEqual|Regex|IsInstance)\b|\bassert\.(?:ok|match|notEqual)\(/;

/** Test-runner configuration: a change there decides which tests run at all. */
const RUNNER_CONFIG =
  /(^|\/)(?:(?:vitest|vite|jest|playwright|karma|cypress|ava)\.config\.[cm]?[jt]s|jest\.config\.json|\.mocharc\.\w+|pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|phpunit\.xml(?:\.dist)?|package\.json)$/;
/** Code the runner loads around every test, by convention: pytest's conftest.py and the usual setup file names. */
const RUNNER_CODE =
  /(^|\/)(?:conftest\.py|(?:vitest|jest|test|tests)\.setup\.[cm]?[jt]sx?|setup-?tests?\.[cm]?[jt]sx?|global-?(?:setup|teardown)\.[cm]?[jt]sx?)$/i;
/** Settings that leave tests out, or let a run with no tests pass. */
const NARROWING =
  /\b(?:exclude|testPathIgnorePatterns|modulePathIgnorePatterns|testIgnore|ignorePatterns|passWithNoTests|onlyChanged)\b|--ignore(?:-glob)?\b|--deselect\b|(?:^|\s)-k\s/;
/** Settings that name code the runner loads before the tests: it can decide what every test sees. */
const SETUP_KEYS = /\b(?:setupFiles|setupFilesAfterEnv|globalSetup|globalTeardown)\b/;
/** In runner code: hooks that drop tests or rewrite their outcome, and replacements of the test functions themselves. */
const RUNNER_HOOKS =
  /\b(?:collect_ignore(?:_glob)?|pytest_collection_modifyitems|pytest_ignore_collect|pytest_deselected|pytest_runtest_(?:setup|call|makereport)|pytest_runtest_protocol|pytest_sessionfinish|exitstatus)\b|\b(?:globalThis|global|window)\s*\.\s*(?:expect|it|test|describe|assert)\s*=|^\s*(?:expect|it|test|describe|assert)\s*=[^=]|\b(?:process\.exit|os\._exit|sys\.exit)\s*\(/;
/** The test script in package.json: `npm test` is what command criteria usually run. */
const TEST_SCRIPT = /^\s*"test"\s*:\s*"((?:[^"\\]|\\.)*)"/;
/**
 * npm's lifecycle scripts (docs.npmjs.com, "Scripts" › "Life Cycle Scripts" and "Life Cycle
 * Operation Order"): npm runs them by itself on install, ci, pack, publish, test, … on every
 * machine that installs or tests the package, people's and CI's alike.
 */
export const LIFECYCLE_SCRIPTS = [
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
] as const;
const LIFECYCLE_LINE = new RegExp(`^\\s*"(${LIFECYCLE_SCRIPTS.join('|')})"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`);

const quote = (s: string) => `\`${s.trim().slice(0, 160)}\``;

/** The `scripts` of a package.json, or undefined when it is not JSON with a scripts object. */
function scriptsOf(text: string | undefined): Record<string, string> | undefined {
  if (text === undefined) return {};
  try {
    const scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
    if (scripts === undefined) return {};
    if (!scripts || typeof scripts !== 'object' || Array.isArray(scripts)) return undefined;
    return Object.fromEntries(Object.entries(scripts).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  } catch {
    return undefined;
  }
}

/**
 * Lifecycle scripts a package.json adds or changes. Read from the whole file before and after when
 * the critic has it (a dependency named `install` is not a script); else from the diff's lines.
 */
function lifecycleFindings(f: FileDiff, whole: { before?: string; after?: string } | undefined): TamperFinding[] {
  const lineOf = (name: string) => f.added.find((l) => LIFECYCLE_LINE.exec(l.text)?.[1] === name)?.line;
  const finding = (name: string, was: string | undefined, now: string): TamperFinding => {
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
    return LIFECYCLE_SCRIPTS.filter((n) => after[n] !== undefined && after[n] !== before[n]).map((n) => finding(n, before[n], after[n]!));
  }
  const was = new Map(
    f.removed
      .map((l) => LIFECYCLE_LINE.exec(l.text))
      .filter((m) => m !== null)
      .map((m) => [m[1]!, m[2]!]),
  );
  const out: TamperFinding[] = [];
  for (const l of f.added) {
    const m = LIFECYCLE_LINE.exec(l.text);
    if (m && was.get(m[1]!) !== m[2]) out.push(finding(m[1]!, was.get(m[1]!), m[2]!));
  }
  return out;
}

/** Any change to a `.gitattributes`: it decides how git shows, converts and merges files, so it can hide a change from review. */
function attributesFinding(f: FileDiff): TamperFinding {
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
function runnerFindings(f: FileDiff, context: TamperContext): TamperFinding[] {
  const out: TamperFinding[] = [];
  if (/(^|\/)package\.json$/.test(f.path)) {
    const before = f.removed.map((l) => TEST_SCRIPT.exec(l.text)?.[1]).find((v) => v !== undefined);
    const after = f.added.map((l) => ({ l, v: TEST_SCRIPT.exec(l.text)?.[1] })).find((x) => x.v !== undefined);
    if (before !== undefined && before !== after?.v) {
      out.push({
        rule: 'test-command-changed',
        file: f.path,
        ...(after ? { line: after.l.line } : {}),
        evidence: after
          ? `${f.path}:${after.l.line} changes the test script from ${quote(before)} to ${quote(after.v!)}`
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
const isRunnerFile = (path: string, context: TamperContext) => RUNNER_CONFIG.test(path) || isRunnerCode(path, context) || isAttributesFile(path);
/** conftest.py, a conventionally named setup file, or one the configuration names (which may leave out the extension). */
const isRunnerCode = (path: string, context: TamperContext) =>
  RUNNER_CODE.test(path) || !!context.setupFiles?.some((s) => s === path || s === path.replace(/\.[^./]+$/, ''));
const isAttributesFile = (path: string) => /(^|\/)\.gitattributes$/.test(path);

export function findTampering(files: FileDiff[], context: TamperContext = {}): TamperFinding[] {
  const out: TamperFinding[] = [];
  for (const f of files) {
    if (isAttributesFile(f.path)) out.push(attributesFinding(f));
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
    if (!isTestFile(f.path)) continue;
    if (f.status === 'deleted') {
      out.push({ rule: 'deleted-test', file: f.path, evidence: `the test file ${f.path} was deleted (${f.removed.length} lines)` });
      continue;
    }
    const whole = context.testFiles?.[f.path];
    if (whole !== undefined) out.push(...hollowTests(f, whole, context.testFilesBefore?.[f.path]));
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
        line: strongRemoved[0]!.line,
        evidence: `${lost} assertion(s) fewer in ${f.path}${weakened}; removed: ${sample}`,
      });
    } else {
      // As many assertions as before, but exact matchers swapped for ones that accept more.
      const exactLost = f.removed.filter((l) => EXACT.test(l.text)).length - f.added.filter((l) => EXACT.test(l.text)).length;
      const looseGained = f.added.filter((l) => LOOSE.test(l.text)).length - f.removed.filter((l) => LOOSE.test(l.text)).length;
      if (exactLost > 0 && looseGained > 0) {
        const was = f.removed.find((l) => EXACT.test(l.text))!;
        const now = f.added.find((l) => LOOSE.test(l.text))!;
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
function hollowTests(f: FileDiff, whole: string, before: string | undefined): TamperFinding[] {
  const style = testStyle(f.path);
  if (!style) return [];
  const hooks = hooksAssert(f.path, whole);
  const touched = new Set(f.added.map((l) => l.line));
  const earlier = new Map((before === undefined ? [] : testCasesIn(f.path, before)).map((c) => [c.name, hollowness(style, c.body, c.param)]));
  return testCasesIn(f.path, whole)
    .filter((c) => f.status === 'added' || [...touched].some((n) => n >= c.startLine && n <= c.endLine))
    .flatMap((c): TamperFinding[] => {
      const kind = hollowness(style, c.body, c.param);
      if (!kind || (kind === 'no-assertion' && hooks) || (earlier.has(c.name) && earlier.get(c.name) === kind)) return [];
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
function reportFindings(f: FileDiff): TamperFinding[] {
  const out: TamperFinding[] = [];
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
export function changesHowTestsRun(path: string): boolean {
  return (
    isRunnerConfigFile(path) ||
    RUNNER_CODE.test(path) ||
    /(^|\/)(?:Makefile|GNUmakefile|noxfile\.py|Cargo\.toml|go\.mod|\.cargo\/config(?:\.toml)?)$/.test(path)
  );
}

/** Runner configuration files worth reading whole at the head, to learn which setup files it loads. */
export function isRunnerConfigFile(path: string): boolean {
  return RUNNER_CONFIG.test(path) && !/(^|\/)node_modules\//.test(path);
}

/**
 * The setup files a runner configuration names (vitest and jest `setupFiles`, `setupFilesAfterEnv`,
 * `globalSetup`, `globalTeardown`), as repository paths. A heuristic read of the text: a string or a
 * list of strings after the key, relative to the configuration's folder (`<rootDir>` too).
 */
export function setupFilesNamedIn(configPath: string, text: string): string[] {
  const folder = configPath.includes('/') ? configPath.slice(0, configPath.lastIndexOf('/') + 1) : '';
  const out = new Set<string>();
  const key = /["']?\b(?:setupFiles|setupFilesAfterEnv|globalSetup|globalTeardown)\b["']?\s*:\s*(\[[^\]]*\]|"[^"]*"|'[^']*'|`[^`]*`)/g;
  for (const m of text.matchAll(key)) {
    for (const s of m[1]!.matchAll(/["'`]([^"'`]+)["'`]/g)) {
      const raw = s[1]!.replace(/^<rootDir>\//, '');
      // An absolute path is outside the repository; a bare name without an extension is a package (`jest-extended/all`).
      const looksLikeFile = raw.startsWith('.') || /\.(?:[cm]?[jt]sx?|py)$/.test(raw);
      if (raw.startsWith('/') || !looksLikeFile) continue;
      const parts: string[] = [];
      for (const seg of `${folder}${raw}`.split('/')) {
        if (seg === '' || seg === '.') continue;
        if (seg === '..') parts.pop();
        else parts.push(seg);
      }
      if (parts.length) out.add(parts.join('/'));
    }
  }
  return [...out];
}
