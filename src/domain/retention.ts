import { z } from 'zod';
import type { PastRun } from './estimate';
import { TIERS } from './plan';
import { STATE_BRANCH } from './refs';
import { isTerminal, type RunRecord, type TaskRecord } from './run-state';
import { count, nullableText, text, type Stored } from './stored-shape';

/**
 * What crew keeps after a run, and for how long (pure): when a run has ended for good, which of its
 * branches may go, who made a branch's commits, which runs' folders leave crew/state (and the digest
 * that stays of each), and which `crew/` branches belong to no open run. steps/cleanup.ts acts on it.
 */

/** The identity on every commit crew makes (adapters/git/git-client.ts commits with it, as author and committer). */
export const CREW_GIT_IDENTITY = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' } as const;

/** The keys of `.github/crew.yml`'s `cleanup` section, as this module reads them. */
export interface Retention {
  /** Whether crew deletes the branches of runs that ended for good. */
  deleteBranches: boolean;
  /** Days a failed or aborted run keeps its branches and its folder, for `/crew resume`, `/crew retry` or a person. */
  unfinishedDays: number;
  /** Finished runs per issue whose folders stay on crew/state (the newest). */
  keepRuns: number;
  /** Days a finished run's folder stays on crew/state after it ended. */
  keepDays: number;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * How long a task claimed by a job may still have that job working on it: a self-hosted runner's
 * job may run 5 days, and a queued job waits up to 48 hours before GitHub cancels it (docs: "Usage
 * limits for self-hosted runners"; GitHub-hosted jobs stop after 6 hours). Past this, nothing holds it.
 */
export const JOB_OUTLIVES_MS = 7 * DAY_MS;

/**
 * How a run ended for good. `merged-by-crew`: crew merged its pull request. `merged`: a person did
 * (GitHub's "Automatically delete head branches" setting then decides about the pull request's
 * branch, as for any pull request). `closed`: its pull request was closed without merging.
 * `aborted`, `failed`: it ended without a pull request.
 */
export type EndedHow = 'merged-by-crew' | 'merged' | 'closed' | 'aborted' | 'failed';

export interface RunEnd {
  how: EndedHow;
  at: string;
}

/**
 * When and how a run ended. A run with a pull request (follow-ups carry their first run's) follows
 * it: it has ended once crew merged it (whichever run of the pull request merged: `samePull` holds the
 * others) or the pull request was seen closed; until then it is open, whatever its phase (a run can
 * fail after opening its pull request). A run without one ended when it was aborted or failed. Every
 * other run is open.
 */
export function runEnd(rec: RunRecord, samePull: readonly RunRecord[] = []): RunEnd | undefined {
  if (rec.pr) {
    const all = [rec, ...samePull];
    const merged = all.find((r) => r.merge?.state === 'merged')?.merge;
    if (merged) return { how: 'merged-by-crew', at: merged.at };
    const closed = all.find((r) => r.prClosed)?.prClosed;
    if (closed) return { how: closed.merged ? 'merged' : 'closed', at: closed.at };
    return undefined;
  }
  if (rec.phase === 'ABORTED') return { how: 'aborted', at: rec.updatedAt };
  if (rec.phase === 'FAILED') return { how: 'failed', at: rec.updatedAt };
  return undefined;
}

const ageMs = (at: string, now: Date) => now.getTime() - Date.parse(at);

/** A task a job may still be working on: marked running, claimed less than JOB_OUTLIVES_MS ago (or with no time known). */
export function mayStillRun(t: TaskRecord, now: Date): boolean {
  if (t.status !== 'running' && t.status !== 'retrying') return false;
  const at = t.claim?.at ?? t.startedAt;
  return !at || !(ageMs(at, now) >= JOB_OUTLIVES_MS);
}

export type Due = { due: true; end: RunEnd } | { due: false; why: string };

/**
 * Whether a run's branches may go now, and its folder leave crew/state once the policy lets it.
 * Never while a job may still work on it: every run sharing its pull request must have ended its
 * phase (a follow-up may still be integrating onto the branch), and no task may still be held by a
 * job. A failed or aborted run also waits `unfinishedDays`, for a resume, a retry or a person.
 */
export function cleanupDue(rec: RunRecord, tasks: Iterable<TaskRecord>, now: Date, retention: Retention, samePull: readonly RunRecord[] = []): Due {
  const end = runEnd(rec, samePull);
  if (!end) return { due: false, why: rec.pr ? `its pull request #${rec.pr.number} is open` : `it is ${rec.phase.toLowerCase()}` };
  const busy = [rec, ...samePull].find((r) => !isTerminal(r.phase));
  if (busy) return { due: false, why: `run ${busy.run} of its pull request is still ${busy.phase.toLowerCase()}` };
  const held = [...tasks].filter((t) => mayStillRun(t, now)).map((t) => t.id);
  if (held.length) return { due: false, why: `${held.join(', ')} may still be worked on by a job` };
  if ((end.how === 'aborted' || end.how === 'failed') && ageMs(end.at, now) < retention.unfinishedDays * DAY_MS)
    return { due: false, why: `it ${end.how} less than ${retention.unfinishedDays} days ago (cleanup.unfinished_days)` };
  return { due: true, end };
}

/** A branch's place among a run's (`crew/N/rk/<leaf>`): what it holds. */
export type BranchKind = 'task' | 'integration' | 'memory';

// A task's parallel attempt (`t1-a2`, #50) is a task branch: it goes with the run's.
const RUN_BRANCH = /^crew\/([1-9][0-9]*)\/r([1-9][0-9]*)\/(t[1-9][0-9]*(?:-a[2-9])?|integration|memory-[1-9][0-9]*)$/;

/** The run a branch of crew's belongs to on GitHub, and what it is; undefined for any other name. */
export function branchOwner(branch: string): { issue: number; run: number; kind: BranchKind } | undefined {
  const m = RUN_BRANCH.exec(branch);
  if (!m) return undefined;
  const kind: BranchKind = m[3] === 'integration' ? 'integration' : m[3]!.startsWith('memory-') ? 'memory' : 'task';
  return { issue: Number(m[1]), run: Number(m[2]), kind };
}

/**
 * Whether a branch of a run that ended goes. Task branches always do. The integration branch is the
 * pull request's head: it goes after crew merged it, after a close, and with a run that never had a
 * pull request; after a person's merge GitHub's own setting decides, as for any pull request. A
 * `/crew remember` branch is the head of a pull request of its own, which a person decides about.
 */
export function branchGoes(kind: BranchKind, end: RunEnd): boolean {
  if (kind === 'task') return true;
  if (kind === 'integration') return end.how !== 'merged';
  return false;
}

/** One commit a branch adds over the branch it goes into, with who made it (as git records them). */
export interface BranchCommit {
  sha: string;
  author: { name: string; email: string };
  committer: { name: string; email: string };
}

const isCrew = (who: { email: string }) => who.email.toLowerCase() === CREW_GIT_IDENTITY.email;

/**
 * The commits on a branch that someone other than crew made (as author or committer), and who:
 * a branch with any is a person's work too, and crew never deletes it. Commits already on the
 * branch the run goes into are not listed to begin with (BranchCommit), so nothing is lost there.
 */
export function othersCommits(commits: readonly BranchCommit[]): { shas: string[]; people: string[] } {
  const theirs = commits.filter((c) => !isCrew(c.author) || !isCrew(c.committer));
  const people = new Set<string>();
  for (const c of theirs) for (const who of [c.author, c.committer]) if (!isCrew(who)) people.add(who.name || who.email);
  return { shas: theirs.map((c) => c.sha), people: [...people] };
}

/**
 * `issue-<N>/run-<k>/digest.json`: what stays of a run whose folder left crew/state. The figures the
 * estimate reads (state/past-runs.ts), kept however old; the run's number, so no later run takes it;
 * and where its report is on GitHub.
 */
export const RunDigestSchema = z.looseObject({
  schema: z.literal(1),
  issue: z.int().positive(),
  run: z.int().positive(),
  title: text,
  phase: text,
  createdAt: text,
  endedAt: text,
  ended: z.enum(['merged-by-crew', 'merged', 'closed', 'aborted', 'failed']),
  prunedAt: text,
  pr: z.looseObject({ number: z.int().positive(), url: text }).nullable(),
  /** The report comment: on the pull request, or on the issue for a run without one. */
  reportCommentId: z.number().nullable(),
  figures: z.looseObject({
    tasks: z.array(z.looseObject({ tier: z.enum(TIERS), costUsd: z.number(), minutes: z.number().nullable() })),
    afterPlan: z.looseObject({ costUsd: z.number(), minutes: z.number().nullable() }).nullable(),
  }),
  /** The run's model cost and its tasks' count, for people reading the branch. */
  costUsd: z.number(),
  taskCount: count,
  retro: nullableText.default(null),
  /** Who asked for the run, and whether a failed CI run did (`fix_ci`): the rate per person counts pruned runs too (domain/spend.ts). */
  requestedBy: nullableText.default(null),
  automatic: z.boolean().default(false),
});
export type RunDigest = Stored<typeof RunDigestSchema>;

export function runDigest(rec: RunRecord, end: RunEnd, figures: PastRun, totalCostUsd: number, taskCount: number, prunedAt: string): RunDigest {
  return {
    schema: 1,
    issue: rec.issue,
    run: rec.run,
    title: rec.title,
    phase: rec.phase,
    createdAt: rec.createdAt,
    endedAt: end.at,
    ended: end.how,
    prunedAt,
    pr: rec.pr ? { number: rec.pr.number, url: rec.pr.url } : null,
    reportCommentId: rec.pr?.reportCommentId ?? rec.issueReportCommentId ?? null,
    figures,
    costUsd: totalCostUsd,
    taskCount,
    retro: rec.retro?.url ?? null,
    requestedBy: rec.requestedBy,
    automatic: rec.trigger.how === 'ci',
  };
}

/** A run as the pruning sees it: where it is, whether and when it ended for good, and whether crew is done with its branches. */
export interface KeptRun {
  issue: number;
  run: number;
  /** Set once cleanupDue holds: the run ended, and nothing can still work on it. */
  end: RunEnd | undefined;
  /** crew has dealt with its branches (or is told not to delete any). */
  branchesSettled: boolean;
}

/**
 * The runs whose folders leave crew/state now. Open runs always stay, and so does a run whose branches
 * crew has not dealt with yet. Of the finished ones, an issue keeps its newest `keepRuns`, and only while
 * they ended less than `keepDays` ago: both bounds hold, so the branch is bounded by how many runs end
 * in `keepDays`, however many issues there are.
 */
export function runsToPrune(runs: readonly KeptRun[], now: Date, retention: Retention): Array<{ issue: number; run: number }> {
  const byIssue = new Map<number, KeptRun[]>();
  for (const r of runs) if (r.end && r.branchesSettled) byIssue.set(r.issue, [...(byIssue.get(r.issue) ?? []), r]);
  const out: Array<{ issue: number; run: number }> = [];
  for (const finished of byIssue.values()) {
    finished.sort((a, b) => b.run - a.run);
    finished.forEach((r, i) => {
      if (i >= retention.keepRuns || ageMs(r.end!.at, now) >= retention.keepDays * DAY_MS) out.push({ issue: r.issue, run: r.run });
    });
  }
  return out.sort((a, b) => a.issue - b.issue || a.run - b.run);
}

/** A `crew/` branch on GitHub and the commit it points at. */
export interface BranchTip {
  branch: string;
  sha: string;
}

/** Why a `crew/` branch belongs to no open run. */
export type StrayReason = { kind: 'not-crews' } | { kind: 'no-run'; issue: number; run: number } | { kind: 'done'; issue: number; run: number; end: RunEnd };

export interface StrayBranch extends BranchTip {
  why: StrayReason;
}

/**
 * The `crew/` branches that belong to no open run: a name crew does not give its branches; a run
 * crew/state no longer holds (its folder was pruned, or never was there); or a run crew has finished
 * cleaning up (the branch was kept for a person's commits, GitHub refused to delete it, or it came back).
 * A branch of a run that is open, or has ended and is waiting for its cleanup, is not one.
 * `runs` maps `N/k` to the run's record, or to `pruned` when only its digest is left.
 */
export function strayBranches(branches: readonly BranchTip[], runs: ReadonlyMap<string, RunRecord | 'pruned'>): StrayBranch[] {
  const out: StrayBranch[] = [];
  for (const b of branches) {
    if (b.branch === STATE_BRANCH || !b.branch.startsWith('crew/')) continue;
    const owner = branchOwner(b.branch);
    if (!owner) {
      out.push({ ...b, why: { kind: 'not-crews' } });
      continue;
    }
    const rec = runs.get(`${owner.issue}/${owner.run}`);
    if (rec === undefined || rec === 'pruned') {
      out.push({ ...b, why: { kind: 'no-run', issue: owner.issue, run: owner.run } });
      continue;
    }
    if (!rec.cleanup) continue;
    const samePull = rec.pr
      ? [...runs.values()].filter((r): r is RunRecord => r !== 'pruned' && r !== rec && r.issue === rec.issue && r.pr?.number === rec.pr!.number)
      : [];
    const end = runEnd(rec, samePull);
    if (end) out.push({ ...b, why: { kind: 'done', issue: owner.issue, run: owner.run, end } });
  }
  return out.sort((a, b) => a.branch.localeCompare(b.branch));
}
