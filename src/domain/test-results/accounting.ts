import type { FileDiff } from '../diff';
import { compare, type Before, type TestChange } from './compare';
import { describeTest, testKey, type Runner, type TestRun, type TestId } from './types';

/** A test that passed on the base and does not pass on the head, as the critic names it. */
export interface LostTest {
  /** `file › suite › name`. */
  test: string;
  file: string;
  now: Exclude<Before, 'passed'>;
  /** Where the diff shows it: a line the change added or removed that names it (or its class or suite). */
  line?: number;
  lineOn?: 'head' | 'base';
}

export interface TestCounts {
  /** Tests that pass on the head. */
  passed: number;
  /** Of those, tests that failed or did not exist on the base (FAIL_TO_PASS). */
  fixed: number;
  lost: number;
  /** Tests failing on the head, and how many of them failed on the base too. */
  failing: number;
  failingAsBefore: number;
  skippedAsBefore: number;
  skippedNew: number;
  /** Tests that failed on the head after passing on the base, and passed when run again. */
  flaky: number;
}

/**
 * What the critic knows about one command criterion's tests, base against head (#32).
 * compared: both runs reported their tests. unknown: a run reported none, so lost and fixed
 * cannot be counted (judged by the exit code, as before). unreadable: a report could not be
 * read, or the base's tests could not be while the head's could (#46); the criterion is
 * undecided. missing: the base's run wrote a report of a runner the head's did not, which is a finding.
 */
export interface TestAccounting {
  criterion: string;
  command: string;
  state: 'compared' | 'unknown' | 'unreadable' | 'missing';
  why?: string;
  counts?: TestCounts;
  lost: LostTest[];
  fixed: string[];
  flaky: string[];
  /** Lost tests the critic model showed to be renamed, each with the new test that replaces it. */
  renamed: Array<{ from: string; to: string }>;
  /** Runners whose report the base's run wrote and the head's did not. */
  missingReports: Runner[];
  /** Tests the head reports that the base did not, passing: the only tests a rename may name. */
  newPassing: string[];
  /** How many were left out of the lists above (they are counted in `counts`). */
  more?: { lost: number; fixed: number; newPassing: number };
}

/** The most tests any list names (the counts are whole): a judgment stays readable and small. */
export const LIST_LIMIT = 50;

/** A line of the diff that names the test (or else its innermost suite): where the change shows it. */
export function lineInDiff(files: FileDiff[], t: TestId): { line: number; on: 'head' | 'base' } | undefined {
  const f = files.find((x) => x.path === t.file);
  if (!f) return undefined;
  const names = [t.name, ...[...t.suite].reverse()].filter((n) => n.length >= 3);
  for (const name of names) {
    const added = f.added.find((l) => l.text.includes(name));
    if (added) return { line: added.line, on: 'head' };
    const removed = f.removed.find((l) => l.text.includes(name));
    if (removed) return { line: removed.line, on: 'base' };
  }
  return undefined;
}

/**
 * The head compared with the base for one criterion. `flaky`: identities of lost-by-failing tests that passed
 * when the head was run again. `baseTree`: what the critic knows of the base's tree (whether it holds a test
 * file; the files the change added), to tell a base with no test at all from one whose tests went unread.
 */
export function account(
  criterion: { id: string; command: string },
  base: TestRun,
  head: TestRun,
  opts: { diff?: FileDiff[]; flaky?: ReadonlySet<string>; baseTree?: { hasTestFile: boolean; added: ReadonlySet<string> } } = {},
): TestAccounting & { changes: TestChange[] } {
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
  if (head.kind === 'unreadable') return { ...empty, state: 'unreadable', why: `the head's report is unreadable: ${head.why}` };
  if (base.kind === 'unreadable') return { ...empty, state: 'unreadable', why: `the base's report is unreadable: ${base.why}` };
  // A base whose tests cannot be read while the head's can hides every test the head lost: never "nothing lost" (#46).
  // Only a base with no test file, where the head reports tests of files the change added alone, had none to lose.
  const baseHadNone = opts.baseTree && !opts.baseTree.hasTestFile && head.kind === 'known' && head.tests.every((t) => opts.baseTree!.added.has(t.file));
  if (base.kind === 'unknown' && head.kind === 'known' && !baseHadNone)
    return {
      ...empty,
      state: 'unreadable',
      why: `the base's tests could not be read (${base.why}), though the head's were: crew cannot tell whether a test that passed on the base is lost`,
    };
  if (base.kind === 'unknown') return { ...empty, state: 'unknown', why: `on the base, ${base.why}` };
  if (head.kind === 'unknown') return { ...empty, state: 'missing', missingReports: base.runners, why: `on the head, ${head.why}` };
  const missingReports = base.runners.filter((r) => !head.runners.includes(r));
  // A runner whose whole report is missing is one finding, not one per test it ran.
  const changes = compare(
    base.tests.filter((t) => !missingReports.includes(t.runner)),
    head.tests,
  );
  const flakyKeys = opts.flaky ?? new Set<string>();
  const isFlaky = (c: TestChange) => c.kind === 'lost' && c.after === 'failed' && flakyKeys.has(testKey(c.test));
  const lost = changes.filter((c) => c.kind === 'lost' && !isFlaky(c));
  const fixed = changes.filter((c) => c.kind === 'fail-to-pass');
  const newPassing = changes.filter((c) => c.kind === 'fail-to-pass' && c.before === 'missing');
  const flaky = changes.filter(isFlaky);
  const count = (k: TestChange['kind']) => changes.filter((c) => c.kind === k).length;
  const counts: TestCounts = {
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
      return { test: describeTest(c.test), file: c.test.file, now: c.after as LostTest['now'], ...(at ? { line: at.line, lineOn: at.on } : {}) };
    }),
    fixed: fixed.slice(0, LIST_LIMIT).map((c) => describeTest(c.test)),
    flaky: flaky.slice(0, LIST_LIMIT).map((c) => describeTest(c.test)),
    newPassing: newPassing.slice(0, LIST_LIMIT).map((c) => describeTest(c.test)),
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
export function countsText(a: TestAccounting): string {
  if (a.state === 'unknown') return `test identities unknown (${a.why})`;
  if (a.state === 'unreadable') return `undecided: ${a.why}`;
  const c = a.counts;
  if (!c) return a.why ?? '';
  const parts = [`${c.passed} passed`, `${c.fixed} fixed`, `${c.lost} lost`];
  if (a.renamed.length) parts.push(`${a.renamed.length} renamed`);
  if (c.failing) parts.push(`${c.failing} failing${c.failingAsBefore ? ` (${c.failingAsBefore} as on the base)` : ''}`);
  if (c.skippedAsBefore || !c.skippedNew) parts.push(`${c.skippedAsBefore} skipped as on the base`);
  if (c.skippedNew) parts.push(`${c.skippedNew} newly skipped`);
  if (c.flaky) parts.push(`${c.flaky} flaky`);
  return `${parts.join(', ')}${a.state === 'missing' ? `; ${a.why}` : ''}`;
}

/** One line per criterion, for logs and the model: "`npm test`: 124 passed, 3 fixed, 0 lost, 2 skipped as on the base". */
export function summaryLine(a: TestAccounting): string {
  return `\`${a.command.replace(/`/g, "'")}\`: ${countsText(a)}`;
}

/** A lost test in words: "test/a.test.js › sum › adds passed on the base and is missing on the head (it did not run)". */
export function describeLost(l: LostTest): string {
  const now = l.now === 'missing' ? 'missing on the head (it did not run)' : l.now === 'skipped' ? 'skipped on the head' : 'failing on the head';
  return `${l.test} passed on the base and is ${now}`;
}

/** What the critic's adversarial findings hold for a criterion's tests: each lost test, and each runner whose report went missing. */
export function testFindings(a: TestAccounting): Array<{ rule: 'lost-test' | 'test-report-missing'; evidence: string; file?: string; line?: number }> {
  const renamed = new Set(a.renamed.map((r) => r.from));
  const cmd = `\`${a.command.replace(/`/g, "'")}\``;
  const out: Array<{ rule: 'lost-test' | 'test-report-missing'; evidence: string; file?: string; line?: number }> = a.lost
    .filter((l) => !renamed.has(l.test))
    .map((l) => ({
      rule: 'lost-test',
      evidence: `${cmd}: ${describeLost(l)}${l.line && l.lineOn === 'base' ? ` (the change removed line ${l.line} of the base's ${l.file}, which names it)` : ''}`,
      file: l.file,
      ...(l.line && l.lineOn === 'head' ? { line: l.line } : {}),
    }));
  if (a.more?.lost) out.push({ rule: 'lost-test', evidence: `${cmd}: ${a.more.lost} more tests that passed on the base do not pass on the head` });
  for (const r of a.missingReports)
    out.push({
      rule: 'test-report-missing',
      evidence: `${cmd} wrote no ${r} report on the head, though it did on the base: the change keeps the runner, or its report, from running, so crew cannot see which tests ran`,
    });
  return out;
}
