import { createHash } from 'node:crypto';
import type { Criterion } from './criteria';
import type { Refusals } from './egress';
import type { Plan } from './plan';
import type { RunView } from './run-state';
import type { FileDiff } from './diff';
import { changesHowTestsRun, findTampering, isTestFile, type TamperContext, type TamperFinding } from './tamper';
import { isDocsOnly, type Localisation } from './localisation';
import { describeTest, testOfKey } from './test-results/types';
import type { TestAccounting } from './test-results';
import type { Quality } from './result';
import { GITHUB, type Surface } from './surface';

/**
 * The critic's judgment (endless8's JudgmentResult, with 4QV+'s adversarial checks):
 * one evaluation per done criterion with its evidence and confidence, an overall
 * reason and a suggested next action. Pure rules; the critic job gathers the facts.
 */

export interface Evaluation {
  criterion: string;
  text: string;
  kind: Criterion['kind'];
  /** null: the criterion could not be evaluated (a command error), which is not "not met". */
  met: boolean | null;
  evidence: string[];
  confidence: number;
  error?: string;
  /** The tasks whose work falls short, when not met. */
  tasks: string[];
  /** The citations in the evidence crew found in the committed tree (`src/a.ts:5`). */
  verified?: string[];
}

export interface AdversarialFinding {
  rule: TamperFinding['rule'] | 'criteria-changed' | 'diff-too-large' | 'lost-test' | 'test-report-missing';
  evidence: string;
  file?: string;
  line?: number;
}

export interface Judgment {
  iteration: number;
  headSha: string;
  verdict: 'PASS' | 'FAIL';
  evaluations: Evaluation[];
  adversarial: AdversarialFinding[];
  overallReason: string;
  suggestedNextAction: string;
  at: string;
  /** Failed command criteria re-run on the base and the task branches to find their cause (#18 §1). */
  localisation?: Localisation[];
  /** Each command criterion's tests, base against head, by identity (#32). */
  tests?: TestAccounting[];
  /** Requests crew's egress proxy refused in the critic's jobs of this run so far (this one's and earlier rounds'), by host. */
  refused?: Refusals;
}

/** Below this, a "met" from the model is not trusted: it counts as not met. */
export const MIN_CONFIDENCE = 0.5;

/** endless8's command convention: 0 met, 1 not met, anything else (or a timeout) an error. */
export function commandEvaluation(
  c: Criterion,
  r: { exitCode: number | null; timedOut: boolean; output: string },
  /** What crew knows that points at the repository's setup steps (toolbox/sandbox-reach.ts), said after a failure's output. */
  hint?: (output: string) => string | null,
): Evaluation {
  const tail = r.output.trimEnd().split('\n').slice(-15).join('\n').slice(-2000);
  const pointer = r.exitCode !== 0 || r.timedOut ? hint?.(r.output) : null;
  const evidence = [
    `\`${c.command}\` ${r.timedOut ? 'timed out' : `exited with ${r.exitCode ?? 'a signal'}`}`,
    ...(tail ? [tail] : []),
    ...(pointer ? [pointer] : []),
  ];
  const base = { criterion: c.id, text: c.text, kind: c.kind, evidence, confidence: 1, tasks: [] };
  if (r.exitCode === 0 && !r.timedOut) return { ...base, met: true };
  if (r.exitCode === 1 && !r.timedOut) return { ...base, met: false };
  const why = r.timedOut ? 'the command timed out' : `the command exited with ${r.exitCode ?? 'a signal'}, which means it could not check the criterion`;
  return { ...base, met: null, error: why };
}

/** A command criterion that could not run at all (no sandbox, setup failed). */
export function commandNotRun(c: Criterion, why: string): Evaluation {
  return { criterion: c.id, text: c.text, kind: c.kind, met: null, evidence: [], confidence: 0, error: why, tasks: [] };
}

export interface ModelEvaluation {
  criterion: string;
  met: boolean;
  evidence: string[];
  confidence: number;
  tasks?: string[];
  /** Citations crew checked against the committed tree: those that held, and why others did not. */
  citations?: { verified: string[]; problems: string[] };
}

/**
 * The model's word on a semantic criterion, held to the rules: a PASS without evidence
 * is a FAIL, a PASS it is not confident of is a FAIL, and a criterion it skipped is not met.
 */
export function semanticEvaluation(c: Criterion, given: ModelEvaluation | undefined, taskIds: ReadonlySet<string>): Evaluation {
  const base = { criterion: c.id, text: c.text, kind: c.kind };
  if (!given) return { ...base, met: false, evidence: ['the critic gave no judgment for this criterion'], confidence: 0, tasks: [] };
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
const FOR_A_PERSON: ReadonlySet<string> = new Set(['lifecycle-script-changed']);

export const forAPerson = (adversarial: AdversarialFinding[]) => adversarial.filter((f) => FOR_A_PERSON.has(f.rule));
/** The findings that fail the critic. */
export const failingFindings = (adversarial: AdversarialFinding[]) => adversarial.filter((f) => !FOR_A_PERSON.has(f.rule));

/** PASS only when every criterion is met with evidence and no adversarial check found cheating. */
export function verdictOf(evaluations: Evaluation[], adversarial: AdversarialFinding[]): 'PASS' | 'FAIL' {
  return evaluations.length > 0 && evaluations.every((e) => e.met === true) && failingFindings(adversarial).length === 0 ? 'PASS' : 'FAIL';
}

export function failingEvaluations(j: Pick<Judgment, 'evaluations'>): Evaluation[] {
  return j.evaluations.filter((e) => e.met !== true);
}

/** A digest of the done criteria, recorded with the reviewed plan and checked by the critic. */
export function criteriaDigest(criteria: Criterion[]): string {
  const canonical = criteria.map((c) => ({ id: c.id, text: c.text, kind: c.kind, command: c.command ?? null }));
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 16);
}

/** The diff the checks read, and whether it is all of it. */
export interface DiffRead {
  files: FileDiff[];
  /** Set when the diff was larger than the checks read: its size and the limit, in bytes. */
  cut?: { bytes: number; limit: number };
}

const megabytes = (n: number) => `${(n / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/**
 * The critic's adversarial checks (4QV+): the done criteria are the ones the plan review
 * passed (same digest), and the diff does not delete, skip or weaken tests or change how
 * they run. Every finding fails the verdict with its evidence. A diff too large to read
 * whole fails closed: what the checks did not read, they cannot vouch for.
 */
export function adversarialChecks(
  criteria: Criterion[],
  reviewedDigest: string | null,
  diff: DiffRead | FileDiff[],
  context: TamperContext = {},
  /** Where the finding is read, for the command it names. */
  surface: Surface = GITHUB,
): AdversarialFinding[] {
  const read = Array.isArray(diff) ? { files: diff } : diff;
  const out: AdversarialFinding[] = [];
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
  for (const f of findTampering(read.files, context)) out.push({ rule: f.rule, evidence: f.evidence, file: f.file, ...(f.line ? { line: f.line } : {}) });
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
export function tasksToRerun(j: Pick<Judgment, 'evaluations' | 'adversarial' | 'localisation'>, view: RunView, opts: { blameBefore?: boolean } = {}): string[] {
  const plan = view.plan as Plan;
  const live = plan.tasks.filter((t) => !view.tasks.get(t.id)?.replacedBy).map((t) => t.id);
  const changed = (id: string) => view.tasks.get(id)?.changedFiles ?? [];
  // A stack names the test that called the code as well as the code that threw: the code is the cause.
  const named = (text: string) => {
    const hits = live.filter((id) => changed(id).some((file) => text.includes(file)));
    const inCode = hits.filter((id) => changed(id).some((file) => !isTestFile(file) && text.includes(file)));
    return inCode.length ? inCode : hits;
  };
  const localised = new Map((j.localisation ?? []).map((l) => [l.criterion, l.outcome]));
  const owners = (e: Evaluation) => {
    const found = localised.get(e.criterion);
    return found?.kind === 'before' ? (found.owners?.tasks ?? []).filter((t) => live.includes(t)) : [];
  };
  // A failure already on the base that no task owns: nobody's to fix (a person's retry aside).
  const before = (e: Evaluation) => !opts.blameBefore && localised.get(e.criterion)?.kind === 'before' && !owners(e).length;
  const failing = failingEvaluations(j).filter((e) => !before(e));
  const picked = new Set<string>();
  for (const e of failing) {
    const found = localised.get(e.criterion);
    if (found?.kind === 'tasks' || owners(e).length) {
      for (const t of found?.kind === 'tasks' ? found.tasks : owners(e)) if (live.includes(t)) picked.add(t);
      continue;
    }
    // What the command printed is evidence; the critic's attribution of a command's failure is its guess.
    const fromOutput = e.kind === 'command' ? named(e.evidence.join('\n')) : [];
    for (const t of fromOutput.length ? fromOutput : e.tasks.filter((t) => live.includes(t))) picked.add(t);
  }
  for (const f of failingFindings(j.adversarial)) {
    const owners = f.file ? live.filter((id) => changed(id).includes(f.file!)) : [];
    // A test lost without its file changing (a config that leaves it out, a hook that deselects it): the tasks that changed how tests run.
    const how = owners.length || (f.rule !== 'lost-test' && f.rule !== 'test-report-missing') ? [] : live.filter((id) => changed(id).some(changesHowTestsRun));
    for (const t of [...owners, ...how]) picked.add(t);
  }
  // Only failures that were there before crew's changes: no task is to blame.
  if (failing.length === 0 && failingFindings(j.adversarial).length === 0) return [];
  if (picked.size === 0) for (const e of failing) for (const id of named(e.evidence.join('\n'))) picked.add(id);
  if (picked.size === 0) {
    const dependedOn = new Set(plan.tasks.filter((t) => live.includes(t.id)).flatMap((t) => t.dependsOn));
    const leaves = live.filter((id) => !dependedOn.has(id));
    const commandsOnly = failing.length > 0 && failing.every((e) => e.kind === 'command') && failingFindings(j.adversarial).length === 0;
    const scoped = commandsOnly ? leaves.filter((id) => !isDocsOnly({ changedFiles: changed(id) })) : leaves;
    for (const id of scoped.length ? scoped : leaves) picked.add(id);
  }
  return live.filter((id) => picked.has(id));
}

/** What the next attempt at a task is told (or, with no task, the next critic): the critic's reasons, criterion by criterion. */
export function rerunAdvice(j: Judgment, taskId?: string): string {
  const blamed = (e: Evaluation) => {
    const found = j.localisation?.find((l) => l.criterion === e.criterion)?.outcome;
    return found?.kind === 'tasks' ? found.tasks : found?.kind === 'before' && found.owners ? found.owners.tasks : e.tasks;
  };
  const mine = failingEvaluations(j).filter((e) => taskId === undefined || blamed(e).length === 0 || blamed(e).includes(taskId));
  // The run that convicts this task: what its own branch printed, which is the failure to fix.
  const convicting = (criterion: string) => {
    const l = j.localisation?.find((x) => x.criterion === criterion);
    if (taskId && l?.outcome.kind === 'before' && l.outcome.owners?.tasks.includes(taskId)) {
      const o = l.outcome.owners;
      const base = l.runs.find((x) => x.site.kind === 'base');
      const names = (base?.failingTests ?? []).slice(0, 10).map((k) => describeTest(testOfKey(k)));
      return `\n  This failure was there before crew's changes: \`${l.command}\` fails the same way on the base${names.length ? ` (failing: ${names.join('; ')})` : ''}. The failing ${o.tests.length === 1 ? 'test file is' : 'test files are'} ${o.tests.join(', ')}, and ${o.tests.length === 1 ? 'it exercises' : 'they exercise'} code in this task's files (${o.code.join(', ')}): the issue asks for it to pass, so fix that code (not the test). What it printed:\n${(base?.output ?? '').slice(-1200)}`;
    }
    if (!taskId || l?.outcome.kind !== 'tasks' || !l.outcome.tasks.includes(taskId)) return '';
    const how = l.outcome.how;
    if (how === 'code') {
      const shown = l.runs.find((x) => x.site.kind === 'alone' && l.outcome.kind === 'tasks' && l.outcome.shownBy?.includes(x.site.task));
      return `\n  crew re-ran \`${l.command}\` on the branches of the tasks that build on this one: it fails in code this task wrote. What it printed:\n${(shown?.output ?? '').slice(-1200)}`;
    }
    const r = l.runs.find((x) => x.site.kind === how && x.site.task === taskId);
    if (!r) return '';
    if (how === 'without')
      return `\n  crew re-ran \`${l.command}\` on the integrated work without this task, and it passes: the failure above comes from this task's work.`;
    return `\n  crew re-ran \`${l.command}\` on this task's branch alone, and it fails (exit ${r.exitCode}). What it printed there:\n${r.output.slice(-1200)}`;
  };
  const lines = [
    `The critic judged the integrated work FAIL (iteration ${j.iteration}): ${j.overallReason}`,
    ...mine.map(
      (e) =>
        `- ${e.criterion} "${e.text}": ${e.met === null ? `error: ${e.error}` : 'not met'}. ${e.evidence.slice(0, 2).join(' / ').slice(0, 600)}${convicting(e.criterion)}`,
    ),
    ...j.adversarial.map((f) => `- ${f.rule}: ${f.evidence}`),
    j.suggestedNextAction ? `Suggested next step: ${j.suggestedNextAction}` : '',
  ];
  return lines.filter(Boolean).join('\n');
}

export type RunStatus = 'success' | 'partial' | 'failure';
export type { Quality };

/** The run's outcome for the report summary and the retrospective. */
export function runOutcome(
  view: RunView,
  j: Judgment | null,
  accepted: boolean,
): { status: RunStatus; quality: Quality; completeness: number; failedTasks: string[] } {
  const failedTasks = [...view.tasks.values()].filter((t) => !t.replacedBy && t.status !== 'success').map((t) => t.id);
  const evaluations = j?.evaluations ?? [];
  const met = evaluations.filter((e) => e.met === true).length;
  const completeness = evaluations.length ? Math.round((met / evaluations.length) * 100) : 0;
  if (j?.verdict === 'PASS' && failedTasks.length === 0) return { status: 'success', quality: 'GREEN', completeness, failedTasks };
  if (accepted || j?.verdict === 'PASS') return { status: 'partial', quality: completeness >= 80 ? 'YELLOW' : 'RED', completeness, failedTasks };
  return { status: 'failure', quality: 'RED', completeness, failedTasks };
}
