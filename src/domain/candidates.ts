import { failingFindings, type AdversarialFinding } from './judgment';
import type { CandidateStanding, Selection } from './candidate-record';
import { describeTest } from './test-results/types';
import type { TestAccounting, TestChange } from './test-results';

/**
 * Parallel attempts of one task (#50): N workers do the same task from the same base, each on
 * its own branch, and crew keeps the one the evidence favours. This file is the pure half: what
 * is known about each candidate (its worker's outcome, the command criteria run on its branch,
 * its tests by identity against the base, the tamper and hollow-test findings on its diff),
 * which candidates qualify, which one is chosen and why, in words a person can check.
 *
 * Qualifying is strict, as the critic is: the worker reported success, every command criterion
 * was met, no test that passed on the base stopped passing, and no adversarial finding that
 * fails the critic. Among those that qualify, the order is: fewest failing tests, most tests
 * fixed (FAIL_TO_PASS), the smallest change, then the lowest attempt number (deterministic).
 */

export { MAX_PARALLEL_ATTEMPTS } from './attempts';

/** What crew learnt about one candidate, gathered by the critic from its branch alone. */
export interface CandidateEvidence {
  /** 1 for the task's own branch, 2… for `<task>-a<n>`. */
  n: number;
  branch: string;
  headSha: string | null;
  /** The worker's outcome for this attempt. */
  worker: 'success' | 'partial' | 'failure' | 'timeout';
  /** Each command criterion run on the candidate's branch: met, not met, or undecided (null). */
  commands: Array<{ criterion: string; command: string; met: boolean | null }>;
  /** Each command criterion's tests, base against this branch (accounting with its changes). */
  tests: Array<TestAccounting & { changes: TestChange[] }>;
  /** The tamper and hollow-test checks on the candidate's diff against the base. */
  findings: AdversarialFinding[];
  /** Lines the candidate adds and removes. */
  changedLines: number;
  /** Why nothing could be gathered (its branch is missing): it never qualifies. */
  absent?: string;
}

/** At most this many failing tests are named per candidate (the count is whole). */
const NAMED = 10;

function failingTests(c: CandidateEvidence): string[] {
  const out: string[] = [];
  for (const t of c.tests)
    for (const ch of t.changes)
      if (ch.after === 'failed')
        out.push(`${describeTest(ch.test)} (${ch.before === 'passed' ? 'passed on the base' : ch.before === 'missing' ? 'new' : 'failing on the base too'})`);
  return out;
}

function lostTests(c: CandidateEvidence): string[] {
  return c.tests.flatMap((t) =>
    t.lost.filter((l) => l.now !== 'failed').map((l) => `${l.test} passed on the base and is ${l.now === 'skipped' ? 'skipped' : 'missing'} here`),
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How one candidate stands: qualified or not, and why not. */
export function standing(c: CandidateEvidence): CandidateStanding {
  const fell: string[] = [];
  if (c.absent) fell.push(c.absent);
  else if (c.worker !== 'success') fell.push(`its worker ended in ${c.worker}`);
  for (const cmd of c.commands)
    if (cmd.met === false) fell.push(`\`${cmd.command.replace(/`/g, "'")}\` failed`);
    else if (cmd.met === null) fell.push(`\`${cmd.command.replace(/`/g, "'")}\` could not be run`);
  const failing = failingTests(c);
  const lostByFailing = c.tests.flatMap((t) => t.lost.filter((l) => l.now === 'failed'));
  if (lostByFailing.length) fell.push(`${plural(lostByFailing.length, 'test')} that passed on the base now fail`);
  for (const l of lostTests(c)) fell.push(l);
  for (const f of failingFindings(c.findings)) fell.push(`${f.rule}: ${f.evidence}`);
  const shown = failing.slice(0, NAMED);
  if (failing.length > NAMED) shown.push(`and ${failing.length - NAMED} more`);
  return {
    n: c.n,
    branch: c.branch,
    headSha: c.headSha,
    qualified: fell.length === 0,
    fixed: c.tests.reduce((s, t) => s + (t.counts?.fixed ?? 0), 0),
    failing: shown,
    failingCount: failing.length,
    fell,
    changedLines: c.changedLines,
  };
}

/** Which of a task's candidates to keep, and the reason in words. */
export function selectCandidate(task: string, evidence: CandidateEvidence[]): Selection {
  if (evidence.length === 0) throw new Error(`task ${task} has no candidates to choose from`);
  const candidates = [...evidence].sort((a, b) => a.n - b.n).map(standing);
  // Ranked by the whole count: a standing names at most NAMED tests, so its list's length cannot tell 11 from 50.
  const failingCount = (s: CandidateStanding) => s.failingCount!;
  const qualified = candidates.filter((s) => s.qualified);
  const others = (except: number | null) =>
    candidates
      .filter((s) => s.n !== except && !s.qualified)
      .map((s) => `attempt ${s.n}: ${s.fell.join('; ')}`)
      .join('; ');
  if (qualified.length === 0)
    return { task, chosen: null, candidates, reason: `none of the ${plural(candidates.length, 'attempt')} qualified (${others(null)})` };
  const ranked = [...qualified].sort((a, b) => failingCount(a) - failingCount(b) || b.fixed - a.fixed || a.changedLines - b.changedLines || a.n - b.n);
  const best = ranked[0]!;
  const rest = ranked.slice(1);
  let why: string;
  if (rest.length === 0) why = `the only attempt that met every command criterion with no test lost and no tampering found`;
  else {
    const next = rest[0]!;
    why =
      failingCount(best) !== failingCount(next)
        ? `of the ${qualified.length} that qualified, it leaves the fewest tests failing (${failingCount(best)})`
        : best.fixed !== next.fixed
          ? `of the ${qualified.length} that qualified, it fixes the most tests (${best.fixed})`
          : best.changedLines !== next.changedLines
            ? `of the ${qualified.length} that qualified with the same tests, it is the smallest change (${plural(best.changedLines, 'line')})`
            : `the ${qualified.length} that qualified are equal on the evidence; the first is kept`;
  }
  const fallen = others(best.n);
  return { task, chosen: best.n, candidates, reason: `attempt ${best.n}: ${why}${fallen ? ` (${fallen})` : ''}` };
}
