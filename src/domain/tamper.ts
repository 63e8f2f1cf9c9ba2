import type { FileDiff } from './diff';

/**
 * The critic's adversarial checks on the integrated diff (4QV+ critical thinking): a
 * change must not pass by deleting, skipping or weakening tests. Each finding names
 * the file and line, so the FAIL carries its evidence. Heuristic by design: a finding
 * a maintainer disagrees with is answered with `/crew accept`, which says so in the PR.
 */

export interface TamperFinding {
  rule: 'deleted-test' | 'skipped-test' | 'weakened-assertions';
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

const quote = (s: string) => `\`${s.trim().slice(0, 160)}\``;

export function findTampering(files: FileDiff[]): TamperFinding[] {
  const out: TamperFinding[] = [];
  for (const f of files) {
    if (!isTestFile(f.path) || f.binary) continue;
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
    }
  }
  return out;
}
