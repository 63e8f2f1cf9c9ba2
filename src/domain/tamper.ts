import type { FileDiff } from './diff';

/**
 * The critic's adversarial checks on the integrated diff (4QV+ critical thinking): a
 * change must not pass by deleting, skipping or weakening tests. Each finding names
 * the file and line, so the FAIL carries its evidence. Heuristic by design: a finding
 * a maintainer disagrees with is answered with `/crew accept`, which says so in the PR.
 */

export interface TamperFinding {
  rule: 'deleted-test' | 'skipped-test' | 'weakened-assertions' | 'loosened-matcher' | 'test-command-changed' | 'runner-config-weakened';
  file: string;
  line?: number;
  evidence: string;
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
const WEAK = /\.(?:toBeTruthy|toBeDefined|toBeUndefined|toBeFalsy)\(\s*\)|expect\.anything\(\)|\bassert\s+True\b|\bassert\(\s*true\s*\)|assertTrue\(\s*true\s*\)/;

/** Matchers that pin a value exactly, and looser ones that accept more (a swap from the first to the second weakens a test). */
const EXACT = /\.(?:toStrictEqual|toEqual|toBe|toHaveLength|toBeNull|toHaveBeenCalledWith|toHaveBeenCalledTimes)\(|\.toThrow\(\s*[^)\s]|\bassert(?:Equal|Equals|StrictEqual|DeepStrictEqual|DeepEqual|Is|IsNone|Count|ListEqual|DictEqual)\b|\bassert\.(?:equal|strictEqual|deepStrictEqual|deepEqual)\(|\bassert\s+\S.*==/;
const LOOSE = /\.(?:toMatchObject|toContain|toContainEqual|toMatch|toBeGreaterThan|toBeGreaterThanOrEqual|toBeLessThan|toBeLessThanOrEqual|toBeCloseTo|toHaveBeenCalled)\(|\.toThrow\(\s*\)|\bexpect\.(?:objectContaining|arrayContaining|stringContaining|stringMatching|any)\(|\bassert(?:In|IsNotNone|Greater|GreaterEqual|Less|LessEqual|AlmostEqual|Regex|IsInstance)\b|\bassert\.(?:ok|match|notEqual)\(/;

/** Test-runner configuration: a change there decides which tests run at all. */
const RUNNER_CONFIG = /(^|\/)(?:(?:vitest|vite|jest|playwright|karma|cypress|ava)\.config\.[cm]?[jt]s|jest\.config\.json|\.mocharc\.\w+|pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|phpunit\.xml(?:\.dist)?|package\.json)$/;
/** Settings that leave tests out, or let a run with no tests pass. */
const NARROWING = /\b(?:exclude|testPathIgnorePatterns|modulePathIgnorePatterns|testIgnore|ignorePatterns|passWithNoTests|onlyChanged)\b|--ignore(?:-glob)?\b|--deselect\b|(?:^|\s)-k\s/;
/** The test script in package.json: `npm test` is what command criteria usually run. */
const TEST_SCRIPT = /^\s*"test"\s*:\s*"((?:[^"\\]|\\.)*)"/;

const quote = (s: string) => `\`${s.trim().slice(0, 160)}\``;

/** Changes to how the tests are run, rather than to the tests: the test script, or the runner's exclusions. */
function runnerFindings(f: FileDiff): TamperFinding[] {
  const out: TamperFinding[] = [];
  if (/(^|\/)package\.json$/.test(f.path)) {
    const before = f.removed.map((l) => TEST_SCRIPT.exec(l.text)?.[1]).find((v) => v !== undefined);
    const after = f.added.map((l) => ({ l, v: TEST_SCRIPT.exec(l.text)?.[1] })).find((x) => x.v !== undefined);
    if (before !== undefined && before !== after?.v) {
      out.push({ rule: 'test-command-changed', file: f.path, ...(after ? { line: after.l.line } : {}), evidence: after ? `${f.path}:${after.l.line} changes the test script from ${quote(before)} to ${quote(after.v!)}` : `${f.path} removes the test script ${quote(before)}` });
    }
  }
  if (RUNNER_CONFIG.test(f.path)) {
    for (const l of f.added) {
      if (NARROWING.test(l.text) && !TEST_SCRIPT.test(l.text)) out.push({ rule: 'runner-config-weakened', file: f.path, line: l.line, evidence: `${f.path}:${l.line} changes which tests run: ${quote(l.text)}` });
    }
  }
  return out;
}

export function findTampering(files: FileDiff[]): TamperFinding[] {
  const out: TamperFinding[] = [];
  for (const f of files) {
    if (f.binary) continue;
    out.push(...runnerFindings(f));
    if (!isTestFile(f.path)) continue;
    if (f.status === 'deleted') {
      out.push({ rule: 'deleted-test', file: f.path, evidence: `the test file ${f.path} was deleted (${f.removed.length} lines)` });
      continue;
    }
    for (const l of f.added) {
      if (SKIP.some((re) => re.test(l.text))) out.push({ rule: 'skipped-test', file: f.path, line: l.line, evidence: `${f.path}:${l.line} skips or narrows tests: ${quote(l.text)}` });
    }
    const removedAsserts = f.removed.filter((l) => ASSERTION.test(l.text));
    const addedAsserts = f.added.filter((l) => ASSERTION.test(l.text));
    const strongAdded = addedAsserts.filter((l) => !WEAK.test(l.text));
    const strongRemoved = removedAsserts.filter((l) => !WEAK.test(l.text));
    if (strongRemoved.length > strongAdded.length) {
      const lost = strongRemoved.length - strongAdded.length;
      const sample = strongRemoved.slice(0, 3).map((l) => `${f.path}:${l.line} ${quote(l.text)}`).join('; ');
      const weakened = addedAsserts.length > strongAdded.length ? `, ${addedAsserts.length - strongAdded.length} replaced by a weaker check` : '';
      out.push({ rule: 'weakened-assertions', file: f.path, line: strongRemoved[0]!.line, evidence: `${lost} assertion(s) fewer in ${f.path}${weakened}; removed: ${sample}` });
    } else {
      // As many assertions as before, but exact matchers swapped for ones that accept more.
      const exactLost = f.removed.filter((l) => EXACT.test(l.text)).length - f.added.filter((l) => EXACT.test(l.text)).length;
      const looseGained = f.added.filter((l) => LOOSE.test(l.text)).length - f.removed.filter((l) => LOOSE.test(l.text)).length;
      if (exactLost > 0 && looseGained > 0) {
        const was = f.removed.find((l) => EXACT.test(l.text))!;
        const now = f.added.find((l) => LOOSE.test(l.text))!;
        out.push({ rule: 'loosened-matcher', file: f.path, line: now.line, evidence: `${f.path}:${now.line} checks less than before: ${quote(was.text)} became ${quote(now.text)}` });
      }
    }
  }
  return out;
}
