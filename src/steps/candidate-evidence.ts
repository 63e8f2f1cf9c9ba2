import type { Config } from '../config/schema';
import type { Selection } from '../domain/candidate-record';
import { selectCandidate, type CandidateEvidence } from '../domain/candidates';
import { checkCommand } from '../domain/command-policy';
import type { Criterion } from '../domain/criteria';
import { DIFF_LIMIT_BYTES, parseUnifiedDiff } from '../domain/diff';
import type { AdversarialFinding } from '../domain/judgment';
import { findTampering } from '../domain/tamper';
import type { BaseRun } from '../domain/test-results';
import { accountWithRerun, baseTreeOf } from './flaky-rerun';
import type { CommandRunner } from '../sandbox/command-runner';
import type { TestReports } from '../sandbox/test-reports/reports';
import type { StepContext } from './context';
import { tamperContext } from './tamper-context';
import { runWithReports } from '../toolbox/test-runs';

/** A task's attempt to be judged: its number, its branch (fetched), and how its worker ended. */
export interface CandidateToJudge {
  n: number;
  branch: string;
  worker: CandidateEvidence['worker'];
  /** Why its worker never began (a budget reached first): it is not run, and never qualifies. */
  notBegun?: string | undefined;
}

export interface EvidenceOptions {
  baseSha: string;
  /** The run's command criteria, and each one's run on the base (steps/test-runs.ts baseRuns). */
  criteria: Criterion[];
  bases: Map<string, BaseRun>;
  runner: CommandRunner;
  reports: TestReports | undefined;
  timeoutMs: number;
  policy: Config['commands'];
}

type Ctx = Pick<StepContext, 'repo' | 'remote' | 'log'>;

/**
 * One candidate's evidence, gathered as the critic gathers it for the integrated head (#50): its
 * branch checked out alone on the base, the tamper and hollow-test checks on its diff, and every
 * command criterion run in the sandbox with crew's report hooks, its tests counted by identity
 * against the base's run. The checkout is left at the candidate; the caller puts it back.
 */
async function candidateEvidence(ctx: Ctx, c: CandidateToJudge, o: EvidenceOptions): Promise<CandidateEvidence> {
  await ctx.repo.checkoutDetached(ctx.remote.tracking(c.branch));
  const headSha = await ctx.repo.head();
  const diff = await ctx.repo.unifiedDiff(o.baseSha, headSha, DIFF_LIMIT_BYTES);
  const files = parseUnifiedDiff(diff.text);
  const findings: AdversarialFinding[] = findTampering(files, await tamperContext(ctx, o.baseSha, headSha, files)).map((f) => ({
    rule: f.rule,
    evidence: f.evidence,
    file: f.file,
    ...(f.line ? { line: f.line } : {}),
  }));
  // What the checks did not read, they cannot vouch for: as the critic, a cut diff fails closed.
  if (diff.truncated) findings.push({ rule: 'diff-too-large', evidence: `its diff is ${diff.bytes} bytes, over the ${DIFF_LIMIT_BYTES} the checks read` });
  const commands: CandidateEvidence['commands'] = [];
  const tests: CandidateEvidence['tests'] = [];
  // As the critic: a base with no test file at all, where this attempt added the first, had none to lose (not unreadable).
  const baseTree = diff.truncated ? undefined : await baseTreeOf(ctx, files);
  for (const cr of o.criteria.filter((x) => x.kind === 'command' && x.command)) {
    const command = cr.command!;
    const allowed = checkCommand(command, o.policy);
    if (!allowed.ok) {
      commands.push({ criterion: cr.id, command, met: null });
      continue;
    }
    ctx.log.info(`critic: running ${cr.id} on attempt ${c.n} (${c.branch}): ${command}`);
    const r = await runWithReports(o.runner, o.reports, command, { cwd: ctx.repo.dir, timeoutMs: o.timeoutMs });
    const base = o.bases.get(cr.id);
    const a = base
      ? await accountWithRerun(ctx, { id: cr.id, command }, base.tests, r.tests, {
          runner: o.runner,
          reports: o.reports,
          timeoutMs: o.timeoutMs,
          diff: files,
          ...(baseTree ? { baseTree } : {}),
        })
      : undefined;
    if (a) tests.push(a);
    // endless8's convention (judgment.ts commandEvaluation): 0 met, 1 not met, anything else undecided; so is an unreadable report.
    const met = r.timedOut || (r.exitCode !== 0 && r.exitCode !== 1) || a?.state === 'unreadable' ? null : r.exitCode === 0;
    commands.push({ criterion: cr.id, command, met });
  }
  const changedLines = files.reduce((s, f) => s + f.added.length + f.removed.length, 0);
  return { n: c.n, branch: c.branch, headSha, worker: c.worker, commands, tests, findings, changedLines };
}

/**
 * A task's candidates judged one after another and the one the evidence favours chosen
 * (domain/candidates.ts). A branch that is missing never qualifies. The checkout ends at the last
 * candidate judged; the caller puts it back where it needs it.
 */
export async function selectByEvidence(ctx: Ctx, task: string, candidates: CandidateToJudge[], o: EvidenceOptions): Promise<Selection> {
  const { missing } = await ctx.remote.fetch(candidates.map((c) => c.branch));
  const evidence: CandidateEvidence[] = [];
  for (const { notBegun, ...c } of candidates) {
    if (notBegun || missing.includes(c.branch)) {
      evidence.push({ ...c, headSha: null, commands: [], tests: [], findings: [], changedLines: 0, absent: notBegun ?? `its branch ${c.branch} is missing` });
      continue;
    }
    evidence.push(await candidateEvidence(ctx, c, o));
  }
  return selectCandidate(task, evidence);
}
