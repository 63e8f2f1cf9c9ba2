import { isTestFile } from './tamper';
import type { TestOwners } from './test-owners';

/**
 * Localisation (#18 §1): which task makes a command criterion fail, found by running the
 * command again (in the sandbox, with no model) on the base, on each task's branch alone, and
 * where that does not settle it, on the integrated work without one task at a time. Pure rules
 * here; the critic job (steps/localise.ts) does the runs.
 */

/** Where one run happened: the run's base, a task's branch (its work and its dependencies' on the base), or everything but one task. */
export type RunSite = { kind: 'base' } | { kind: 'alone'; task: string } | { kind: 'without'; task: string };

export interface LocalisationRun {
  site: RunSite;
  exitCode: number | null;
  timedOut: boolean;
  /** The last lines of what it printed, redacted. */
  output: string;
  /** fails: a failure crew's changes brought; passes; as-before: fails only the way the base does; not-run: it could not run (why in output). */
  verdict: 'fails' | 'passes' | 'as-before' | 'not-run';
  /** The identities (testKey) of the tests that failed in this run, when its runner reported them (#32). */
  failingTests?: string[];
  /** The tests that fail in this run and not on the base, as people read them: what convicts it. */
  convicting?: string[];
}

/** A run's outcome as localisation compares it: its exit code, what it printed, and the tests that failed when they are known. */
export interface ComparableRun {
  exitCode: number | null;
  output: string;
  failingTests?: string[];
}

export type LocalisationOutcome =
  /** alone: their branches fail alone; code: a branch built on them fails in code they wrote (`shownBy` holds those branches); without: leaving them out passes. */
  | { kind: 'tasks'; tasks: string[]; how: 'alone' | 'code' | 'without'; shownBy?: string[] }
  /** It fails the same way on the base; `owners`: the tasks whose files are the code the failing tests exercise, which go back to fix it (#50). */
  | { kind: 'before'; owners?: TestOwners }
  | { kind: 'undecided'; why: string };

export interface Localisation {
  criterion: string;
  command: string;
  /** The base commit the runs were read against. */
  base?: string;
  runs: LocalisationRun[];
  outcome: LocalisationOutcome;
}

export interface LocalisableTask {
  id: string;
  dependsOn: string[];
  changedFiles: string[];
}

const DOCS = /\.(?:md|mdx|markdown|rst|txt|adoc)$/i;

/** Documentation: a change to these alone rarely makes a command fail. */
export const isDocsOnly = (t: Pick<LocalisableTask, 'changedFiles'>) => t.changedFiles.length > 0 && t.changedFiles.every((f) => DOCS.test(f));

/**
 * The order to try tasks in, so that a spent time budget leaves the likeliest tried: those whose
 * code the failure output names, then those whose tests it names, then the rest, documentation last.
 */
export function tryOrder(tasks: LocalisableTask[], failureOutput: string): string[] {
  const rank = (t: LocalisableTask) => {
    const named = t.changedFiles.filter((f) => failureOutput.includes(f));
    if (named.some((f) => !isTestFile(f))) return 0;
    if (named.length) return 1;
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
export function failureSignature(output: string): Set<string> {
  const marker = /(✖|✗|×|\bFAIL\b|\bfail(?:ed|ing|ure)?\b|not ok|Error\b|error:|panic:|Traceback|assert)/i;
  return new Set(
    output
      .split('\n')
      .filter((l) => marker.test(l))
      .map(normalise)
      .filter((l) => l && !/^(?:ℹ|#)?\s*(?:fail|failed|failures?|tests?|pass(?:ed)?)\s*\d*$/i.test(l)),
  );
}

function normalise(line: string): string {
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
export function compareWithBase(base: ComparableRun, now: ComparableRun): 'same' | 'different' | 'unknown' {
  // By test identity when both runs reported their tests (#32): the same tests failing is the same failure, however it was printed.
  if (base.failingTests?.length && now.failingTests?.length) {
    const before = new Set(base.failingTests);
    return now.failingTests.every((k) => before.has(k)) ? 'same' : 'different';
  }
  const before = failureSignature(base.output);
  const after = failureSignature(now.output);
  if (!before.size || !after.size) return 'unknown';
  return [...after].every((l) => before.has(l)) ? 'same' : 'different';
}

/** A run's verdict: its exit code, read against the base where the base already fails. */
export function verdictOfRun(run: ComparableRun & { timedOut: boolean }, failingBase: ComparableRun | undefined): LocalisationRun['verdict'] {
  if (run.timedOut || run.exitCode === null || (run.exitCode !== 0 && run.exitCode !== 1)) return 'not-run';
  if (run.exitCode === 0) return 'passes';
  // A task's branch failing where the base fails too convicts it only of a failure the base does not have.
  return failingBase && compareWithBase(failingBase, run) !== 'different' ? 'as-before' : 'fails';
}

/** Every task a task builds on, directly or through others. */
export function ancestors(tasks: LocalisableTask[], id: string): Set<string> {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const out = new Set<string>();
  const visit = (x: string) => {
    for (const d of byId.get(x)?.dependsOn ?? []) if (!out.has(d)) (out.add(d), visit(d));
  };
  visit(id);
  return out;
}

/** The tasks whose work a run "without" this task must leave out too: it and every task built on it (their branches hold its work). */
export function leftOutWith(tasks: LocalisableTask[], id: string): Set<string> {
  return new Set([id, ...tasks.filter((t) => ancestors(tasks, t.id).has(id)).map((t) => t.id)]);
}

/**
 * The verdict from the runs. The base fails the same way: nobody's fault. A task whose branch
 * fails alone is the cause, unless a task it builds on fails alone too (its branch carries that
 * work). Else a task without which the integrated work passes. Else undecided.
 */
export function decide(tasks: LocalisableTask[], runs: LocalisationRun[], integrated: ComparableRun): LocalisationOutcome {
  const base = runs.find((r) => r.site.kind === 'base');
  if (base?.verdict === 'fails' && compareWithBase(base, integrated) === 'same') return { kind: 'before' };
  const aloneFails = new Set(runs.filter((r) => r.site.kind === 'alone' && r.verdict === 'fails').map((r) => (r.site as { task: string }).task));
  const failing = [...aloneFails].filter((id) => ![...ancestors(tasks, id)].some((a) => aloneFails.has(a)));
  const blamed = failing.map((id) => ({ id, on: throwsIn(tasks, id, runs.find((r) => r.site.kind === 'alone' && r.site.task === id)!.output) }));
  const shownBy = blamed.filter((b) => b.on[0] !== b.id).map((b) => b.id);
  if (blamed.length) {
    const convicted = order(
      tasks,
      blamed.flatMap((x) => x.on),
    );
    // Every failing branch failed in code a task it builds on wrote: say so, and through which branches.
    if (shownBy.length === blamed.length) return { kind: 'tasks', tasks: convicted, how: 'code', shownBy: order(tasks, shownBy) };
    return { kind: 'tasks', tasks: convicted, how: 'alone' };
  }
  const freed = runs.filter((r) => r.site.kind === 'without' && r.verdict === 'passes').map((r) => (r.site as { task: string }).task);
  if (freed.length) return { kind: 'tasks', tasks: order(tasks, freed), how: 'without' };
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
function throwsIn(tasks: LocalisableTask[], id: string, output: string): string[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const namedCode = (t: string) => (byId.get(t)?.changedFiles ?? []).some((f) => !isTestFile(f) && output.includes(f));
  if (namedCode(id)) return [id];
  const upstream = [...ancestors(tasks, id)].filter(namedCode);
  return upstream.length ? upstream : [id];
}

const order = (tasks: LocalisableTask[], ids: string[]) => tasks.map((t) => t.id).filter((id) => ids.includes(id));

/** Whether the runs so far settle it, so the slower "without" runs are not needed. */
export function settledByAloneRuns(tasks: LocalisableTask[], runs: LocalisationRun[], integrated: ComparableRun): boolean {
  const o = decide(tasks, runs, integrated);
  return o.kind === 'before' || (o.kind === 'tasks' && o.how === 'alone');
}

/** How a run site reads in the table and in a task's advice. */
export function describeSite(site: RunSite, baseSha: string): string {
  if (site.kind === 'base') return `the base (${baseSha.slice(0, 7)}), before crew's changes`;
  if (site.kind === 'alone') return `${site.task}'s branch alone on the base`;
  return `the integrated work without ${site.task}`;
}

export function describeVerdict(r: LocalisationRun): string {
  if (r.verdict === 'not-run') return `could not run: ${r.output.split('\n')[0]?.slice(0, 120) || (r.timedOut ? 'timed out' : 'no exit code')}`;
  if (r.verdict === 'as-before') return r.failingTests ? 'fails, as on the base (the same tests)' : 'fails, as on the base';
  if (r.site.kind === 'base') return r.verdict === 'fails' ? 'fails' : 'passes';
  if (r.verdict === 'fails' && r.convicting?.length)
    return `fails: ${r.convicting.slice(0, 3).join('; ')}${r.convicting.length > 3 ? ` and ${r.convicting.length - 3} more` : ''}`;
  return r.verdict;
}

/** The tasks an outcome sends back: those convicted, or the owners of a failure already on the base. */
export function blamedBy(o: LocalisationOutcome): string[] {
  return o.kind === 'tasks' ? o.tasks : o.kind === 'before' ? (o.owners?.tasks ?? []) : [];
}

/** One line for the overall reason and the plan comment. */
export function describeOutcome(l: Localisation): string {
  const o = l.outcome;
  if (o.kind === 'before' && o.owners?.tasks.length)
    return `${l.criterion} fails before crew's changes: \`${l.command}\` fails the same way on the base branch, and ${o.owners.tests.join(', ')} ${o.owners.tests.length === 1 ? 'exercises' : 'exercise'} code in ${o.owners.tasks.join(', ')}'s files (${o.owners.code.join(', ')}): ${o.owners.tasks.length === 1 ? 'that task is' : 'those tasks are'} to fix it`;
  if (o.kind === 'before') return `${l.criterion} fails before crew's changes: \`${l.command}\` fails the same way on the base branch`;
  if (o.kind === 'tasks' && o.how === 'alone')
    return `${l.criterion} fails because of ${o.tasks.join(', ')}: \`${l.command}\` fails on ${o.tasks.length === 1 ? 'its branch' : 'their branches'} alone`;
  if (o.kind === 'tasks' && o.how === 'code')
    return `${l.criterion} fails because of ${o.tasks.join(', ')}: \`${l.command}\` fails on the branch of ${(o.shownBy ?? []).join(', ')}, which builds on it, in code ${o.tasks.join(', ')} wrote`;
  if (o.kind === 'tasks')
    return `${l.criterion} fails because of ${o.tasks.join(', ')}: without ${o.tasks.length === 1 ? 'it' : 'one of them'}, \`${l.command}\` passes`;
  return `${l.criterion}: crew could not tell which task makes \`${l.command}\` fail (${o.why})`;
}
