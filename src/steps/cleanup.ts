import type { Config } from '../config/schema';
import {
  branchGoes,
  branchOwner,
  cleanupDue,
  othersCommits,
  runsToPrune,
  strayBranches,
  type BranchTip,
  type KeptRun,
  type Retention,
  type RunEnd,
  type StrayBranch,
} from '../domain/retention';
import { runBranchFolder, runOfIntegrationBranch } from '../domain/refs';
import type { BranchCleanup, MergeState, RunRecord, RunView } from '../domain/run-state';
import { DeletionsRefused, type StateSnapshot, type StateTx, type WriteOptions } from '../ports';
import { cleanupComment } from '../render/cleanup';
import { pruneRunFolder } from '../state/run-digests';
import { paths, readRun, readView, runNumbers, writeRun } from '../state/run-files';
import { nowIso, SEEN, updateRun, type StepContext } from './context';

/**
 * crew cleans up after its runs in jobs it runs anyway: at the end of a run (finish, or a run that
 * failed or was aborted), after the merge job merged, and in the `cleanup` job when crew's pull
 * request closes. Each of those calls tidyUp, which deletes the branches of runs that have ended for
 * good (domain/retention.ts decides which, and when), then prunes old runs' folders from crew/state.
 * Nothing here changes a run's outcome: a failure is logged, and a later job tries again.
 */

/** Runs whose branches one job deals with, at most: a sweep must fit in the shortest job (merge: 10 minutes). */
const RUNS_PER_JOB = 10;

/** The files the sweep reads of every run: its record, plan and tasks (may a job still work on it?), or the digest of a pruned one. */
const SWEPT = /^issue-\d+\/run-\d+\/(run\.json|plan\.json|tasks\/task_t\d+\.json|digest\.json)$/;

export function retentionOf(config: Config): Retention {
  const c = config.cleanup;
  return { deleteBranches: c.delete_branches, unfinishedDays: c.unfinished_days, keepRuns: c.keep_runs, keepDays: c.keep_days };
}

/**
 * The `cleanup` job: crew's pull request was closed, merged by a person or not merged. GitHub is
 * asked whether it is closed now (a re-run of an old job must not act on a pull request reopened
 * since); every run with that pull request records it; then the sweep deletes what may go.
 */
export async function cleanup(ctx: StepContext): Promise<void> {
  const ev = ctx.event;
  if (ev.kind !== 'pull' || ev.source !== 'pull_request_target' || ev.action !== 'closed')
    return ctx.log.info('the cleanup step runs when a pull request of crew closes (pull_request_target, closed)');
  const ours = ev.pulls.flatMap((p) => {
    const own = runOfIntegrationBranch(p.headRef);
    return own ? [{ ...p, issue: own.issue }] : [];
  });
  if (!ours.length) return ctx.log.info(`no pull request of crew's in this ${ev.source} event`);
  for (const p of ours) {
    const { issue } = p;
    const pull = await ctx.forge.getPull(p.number);
    if (pull.state !== 'closed') {
      ctx.log.info(`#${p.number} is open again; nothing to clean up`);
      continue;
    }
    const snap = await ctx.state.load(paths.issue(issue));
    const at = nowIso(ctx);
    const sender = ev.sender ?? '';
    for (const k of runNumbers(snap, issue)) {
      const rec = readRun(snap, issue, k);
      if (rec?.pr?.number !== p.number || rec.prClosed || rec.merge?.state === 'merged') continue;
      await updateRun(ctx, issue, k, `pull request #${p.number} ${pull.merged ? 'merged' : 'closed'}`, (r, tx) => {
        if (!r.prClosed && r.merge?.state !== 'merged') writeRun(tx, { ...r, prClosed: { merged: pull.merged, at, by: sender } }, at);
      });
    }
    await tidyUp(ctx, issue);
  }
}

/**
 * Deletes the branches of runs that have ended for good and prunes finished runs' folders from
 * crew/state, as `.github/crew.yml`'s `cleanup` keys say. `issue`, when given, is dealt with first.
 * GitHub only (ctx.crewBranches); never throws.
 */
export async function tidyUp(ctx: StepContext, issue?: number): Promise<void> {
  if (!ctx.crewBranches) return;
  try {
    const retention = retentionOf(await ctx.config());
    const now = ctx.clock.now();
    // What this job last saw will do (it has just written, or read, the state): a run that ended a moment
    // ago is a later job's to tidy, and every write below is a compare-and-swap that reads again (#31 §4).
    let swept = sweptRuns(await ctx.state.loadRuns((p) => SWEPT.test(p), SEEN), retention, now, ctx.log);
    // crew's branches are listed only when a run that ended has branches crew has not dealt with yet:
    // without one, neither the deletions nor the pruning (branchesSettled) asks which branches exist.
    // Only those runs' folders are listed: no other run's branches count for either.
    const unsettled = retention.deleteBranches
      ? swept.filter((r) => r.end && r.view.run.cleanup === null).map((r) => runBranchFolder(r.view.run.issue, r.view.run.run))
      : [];
    const branches = unsettled.length ? branchesByRun(await ctx.crewBranches.list(unsettled)) : new Map<string, BranchTip[]>();
    // What the deletions recorded counts for the pruning: read again only when there were some.
    if (retention.deleteBranches && (await deleteEndedRunsBranches(ctx, swept, branches, issue)))
      swept = sweptRuns(await ctx.state.loadRuns((p) => SWEPT.test(p), SEEN), retention, now, ctx.log);
    await pruneFinishedRuns(ctx, swept, branches, retention, now);
  } catch (e) {
    ctx.log.warn(`crew could not clean up after ended runs this time (${e instanceof Error ? e.message : String(e)}); a later job tries again`);
  }
}

/** crew's branches on GitHub by the run they belong to (`N/k`); other names are left out. */
function branchesByRun(tips: readonly BranchTip[]): Map<string, BranchTip[]> {
  const byRun = new Map<string, BranchTip[]>();
  for (const tip of tips) {
    const owner = branchOwner(tip.branch);
    if (owner) byRun.set(`${owner.issue}/${owner.run}`, [...(byRun.get(`${owner.issue}/${owner.run}`) ?? []), tip]);
  }
  return byRun;
}

const keyOf = (rec: Pick<RunRecord, 'issue' | 'run'>) => `${rec.issue}/${rec.run}`;

interface Swept {
  view: RunView;
  end: RunEnd | undefined;
}

/** Every run on crew/state with its view, and whether its cleanup is due now; pruned runs and damaged ones are left out. */
function sweptRuns(snap: Pick<StateSnapshot, 'read' | 'list'>, retention: Retention, now: Date, log: StepContext['log']): Swept[] {
  const views: RunView[] = [];
  for (const { issue, run } of runFolders(snap)) {
    try {
      const view = readView(snap, issue, run);
      if (view) views.push(view);
    } catch (e) {
      log.warn(`cleanup leaves run ${run} of issue #${issue} alone: ${(e as Error).message}`);
    }
  }
  return views.map((view) => {
    const samePull = view.run.pr
      ? views.filter((v) => v !== view && v.run.issue === view.run.issue && v.run.pr?.number === view.run.pr!.number).map((v) => v.run)
      : [];
    const due = cleanupDue(view.run, view.tasks.values(), now, retention, samePull);
    return { view, end: due.due ? due.end : undefined };
  });
}

function runFolders(snap: Pick<StateSnapshot, 'list'>): Array<{ issue: number; run: number }> {
  const seen = new Map<string, { issue: number; run: number }>();
  for (const p of snap.list('issue-')) {
    const m = /^issue-(\d+)\/run-(\d+)\//.exec(p);
    if (m) seen.set(`${m[1]}/${m[2]}`, { issue: Number(m[1]), run: Number(m[2]) });
  }
  return [...seen.values()];
}

/**
 * Deals with the branches of the runs whose cleanup is due and that have branches left (the most
 * RUNS_PER_JOB, the issue this job is about first, then those that ended longest ago); returns how many.
 */
async function deleteEndedRunsBranches(ctx: StepContext, swept: readonly Swept[], branches: ReadonlyMap<string, BranchTip[]>, first?: number): Promise<number> {
  const due = swept.filter((r) => r.end && !r.view.run.cleanup && branches.has(keyOf(r.view.run)));
  if (!due.length) return 0;
  due.sort((a, b) => Number(b.view.run.issue === first) - Number(a.view.run.issue === first) || a.end!.at.localeCompare(b.end!.at));
  const now = due.slice(0, RUNS_PER_JOB);
  for (const r of now) {
    // One run that cannot be dealt with now must not hold up the others behind it.
    await cleanUpRun(ctx, r.view.run, r.end!, branches.get(keyOf(r.view.run))!).catch((e: unknown) =>
      ctx.log.warn(
        `crew could not clean up after run ${r.view.run.run} of #${r.view.run.issue} (${e instanceof Error ? e.message : String(e)}); a later job tries again`,
      ),
    );
  }
  if (due.length > now.length) ctx.log.info(`${due.length - now.length} more ended runs' branches are left for crew's next jobs`);
  return now.length;
}

/**
 * One run's branches: each that goes (retention.branchGoes) and holds only crew's commits beyond the
 * branch the run goes into is deleted, leased to the commit listed; the rest stay. What happened is
 * recorded on the run once, and said on the issue once when a branch stayed or GitHub refused.
 */
async function cleanUpRun(ctx: StepContext, rec: RunRecord, end: RunEnd, tips: readonly BranchTip[]): Promise<void> {
  const { issue, run } = rec;
  const { kept, candidates } = await sortBranches(ctx, rec, end, tips);
  let from = 0;
  const write = (record: BranchCleanup, options?: WriteOptions) =>
    updateRun(
      ctx,
      issue,
      run,
      `branches cleaned up (${end.how})`,
      (r, tx) => {
        if (r.cleanup) return false;
        from = r.version;
        writeRun(tx, { ...r, cleanup: record }, record.at);
        return true;
      },
      options,
    );
  // The deletions and their record in one push (#31 §4). Anything GitHub refuses in it takes the way
  // below, which deletes branch by branch and tells each outcome apart.
  const together = async (): Promise<{ record: BranchCleanup; mine: boolean } | undefined> => {
    if (!candidates.length || !ctx.state.deletesBranches) return undefined;
    const record: BranchCleanup = { at: nowIso(ctx), deleted: candidates.map((c) => c.branch).sort(), kept, refused: null };
    ctx.log.checkpoint('branches-cleaned');
    try {
      return { record, mine: await write(record, { deleting: candidates }) };
    } catch (e) {
      if (!(e instanceof DeletionsRefused)) throw e;
      ctx.log.info(`${e.message}; deleting them one by one`);
      return undefined;
    }
  };
  const oneByOne = async (): Promise<{ record: BranchCleanup; mine: boolean }> => {
    const deleted: string[] = [];
    const refusedBranches: string[] = [];
    let reason = '';
    for (const d of await ctx.crewBranches!.delete(candidates)) {
      if (d.outcome === 'deleted' || d.outcome === 'gone') deleted.push(d.branch);
      else if (d.outcome === 'moved') kept.push({ branch: d.branch, people: [], shas: [d.sha] });
      else {
        refusedBranches.push(d.branch);
        reason = d.reason;
      }
    }
    const refused = refusedBranches.length ? { branches: refusedBranches, reason } : null;
    const record: BranchCleanup = { at: nowIso(ctx), deleted: deleted.sort(), kept, refused };
    ctx.log.checkpoint('branches-cleaned');
    return { record, mine: await write(record) };
  };
  const { record, mine } = (await together()) ?? (await oneByOne());
  await sayCleanedUp(ctx, rec, end, record, mine);
  // The plan comment does not show what became of the branches.
  if (mine) ctx.planComment.wroteUnshown(issue, run, from);
}

/**
 * Which of an ended run's branches go (retention.branchGoes, and only crew's commits beyond the branch
 * the run went into) and which stay, with whose commits. GitHub compares each at once.
 */
async function sortBranches(
  ctx: StepContext,
  rec: RunRecord,
  end: RunEnd,
  tips: readonly BranchTip[],
): Promise<{ kept: BranchCleanup['kept']; candidates: BranchTip[] }> {
  const going = tips.filter((t) => branchGoes(branchOwner(t.branch)!.kind, end));
  const compared = await Promise.all(
    going.map(
      async (tip) =>
        // The branch the run went into; if it is gone (a person's branch, merged and deleted), the default branch.
        (await ctx.crewBranches!.commitsBeyond(rec.base.branch, tip.sha)) ??
        (await ctx.crewBranches!.commitsBeyond(await ctx.forge.defaultBranch(), tip.sha)) ?? { commits: [], complete: false },
    ),
  );
  const kept: BranchCleanup['kept'] = [];
  const candidates: BranchTip[] = [];
  going.forEach((tip, i) => {
    const { commits, complete } = compared[i]!;
    const others = othersCommits(commits);
    if (others.shas.length || !complete) kept.push({ branch: tip.branch, people: others.people, shas: others.shas.slice(0, 5) });
    else candidates.push(tip);
  });
  return { kept, candidates };
}

/** The job's log line about a run's cleanup, and the issue's comment when a branch stayed or GitHub refused (once: `mine`). */
async function sayCleanedUp(ctx: StepContext, rec: RunRecord, end: RunEnd, record: BranchCleanup, mine: boolean): Promise<void> {
  const { issue, run } = rec;
  ctx.log.info(
    `run ${run} of #${issue} (${end.how}): deleted ${record.deleted.length ? record.deleted.join(', ') : 'nothing'}${record.kept.length ? `; kept ${record.kept.map((k) => k.branch).join(', ')}` : ''}${record.refused ? `; GitHub refused ${record.refused.branches.join(', ')}: ${record.refused.reason}` : ''}`,
  );
  const said = cleanupComment(issue, run, record, ctx.surface);
  if (mine && said) await ctx.forge.postComment(issue, said);
}

/** A merged run's cleanup, for the write that records the merge to carry (cleanupAtMerge). */
export interface CleanupAtMerge {
  record: BranchCleanup;
  /** The branches the write's push deletes, each leased to the commit listed. */
  deleting: BranchTip[];
  end: RunEnd;
}

/**
 * The cleanup of the run crew has just merged, for the write that records the merge to carry, its
 * deletions in the same push (#31 §4): one write instead of two, and no listing of its own. The
 * branches are those the job's first read of the issue listed (before the merge): GitHub's
 * "Automatically delete head branches" takes the pull request's own with the merge, so that one is
 * left to GitHub; every other deletion is leased to the commit listed, and a lease that fails (a
 * branch someone pushed to or deleted since) refuses the whole push (DeletionsRefused), after which
 * the merge is recorded alone and tidyUp deals with the branches its own way. Undefined when the run
 * has nothing to clean up now, or crew cannot tell without asking.
 */
export async function cleanupAtMerge(ctx: StepContext, view: RunView, merged: MergeState, headRef: string): Promise<CleanupAtMerge | undefined> {
  if (!ctx.crewBranches || !ctx.state.deletesBranches) return undefined;
  try {
    const retention = retentionOf(await ctx.config());
    if (!retention.deleteBranches) return undefined;
    const { issue, run } = view.run;
    const rec: RunRecord = { ...view.run, merge: merged };
    const snap = await ctx.state.load(paths.issue(issue), SEEN);
    const samePull = runNumbers(snap, issue)
      .filter((k) => k !== run)
      .map((k) => readRun(snap, issue, k))
      .filter((r): r is RunRecord => r?.pr?.number === rec.pr?.number);
    const due = cleanupDue(rec, view.tasks.values(), ctx.clock.now(), retention, samePull);
    if (!due.due || rec.cleanup) return undefined;
    const listed = ctx.crewBranches.listed([runBranchFolder(issue, run)]);
    if (!listed) return undefined;
    const headGoes = (await ctx.forge.deletesHeadOnMerge?.()) ?? false;
    const tips = listed.filter((t) => branchOwner(t.branch) && !(headGoes && t.branch === headRef));
    const { kept, candidates } = await sortBranches(ctx, rec, due.end, tips);
    ctx.log.checkpoint('branches-cleaned');
    return { record: { at: nowIso(ctx), deleted: candidates.map((c) => c.branch).sort(), kept, refused: null }, deleting: candidates, end: due.end };
  } catch (e) {
    ctx.log.warn(
      `crew could not look at the branches of the run it merged (${e instanceof Error ? e.message : String(e)}); tidying up after the merge deals with them`,
    );
    return undefined;
  }
}

/** Says what the merge's write did with the run's branches (cleanupAtMerge), as a cleanup of its own would. */
export function saidCleanedUpAtMerge(ctx: StepContext, rec: RunRecord, cleanup: CleanupAtMerge): Promise<void> {
  return sayCleanedUp(ctx, rec, cleanup.end, cleanup.record, true);
}

/** One write that replaces the folders the policy lets go by their digests (re-checked inside the write). */
async function pruneFinishedRuns(
  ctx: StepContext,
  swept: readonly Swept[],
  branches: ReadonlyMap<string, BranchTip[]>,
  retention: Retention,
  now: Date,
): Promise<void> {
  // crew is done with a run's branches once it recorded what it did with them, or when none are left.
  const settled = (rec: RunRecord) => !retention.deleteBranches || rec.cleanup !== null || !branches.has(keyOf(rec));
  const chosen = runsToPrune(
    swept.map<KeptRun>((r) => ({ issue: r.view.run.issue, run: r.view.run.run, end: r.end, branchesSettled: settled(r.view.run) })),
    now,
    retention,
  );
  if (!chosen.length) return;
  const at = nowIso(ctx);
  const pruned = await ctx.state.update('', `prune ${chosen.length} finished run${chosen.length === 1 ? '' : 's'} (their digests stay)`, (tx) => {
    const done: string[] = [];
    for (const { issue, run } of chosen) {
      const again = stillPrunable(tx, issue, run, retention, now, settled);
      if (!again) continue;
      pruneRunFolder(tx, again.view, again.end, at);
      done.push(`#${issue} run ${run}`);
    }
    return done;
  });
  if (pruned.value.length) ctx.log.info(`pruned from crew/state: ${pruned.value.join(', ')}`);
}

/** The run as this write reads it, if it is still one the policy lets go (another job may have moved it on). */
function stillPrunable(
  tx: StateTx,
  issue: number,
  run: number,
  retention: Retention,
  now: Date,
  settled: (r: RunRecord) => boolean,
): { view: RunView; end: RunEnd } | undefined {
  try {
    const view = readView(tx, issue, run);
    if (!view || !settled(view.run)) return undefined;
    const samePull = view.run.pr
      ? runNumbers(tx, issue)
          .filter((k) => k !== run)
          .map((k) => readRun(tx, issue, k))
          .filter((r): r is RunRecord => r?.pr?.number === view.run.pr!.number)
      : [];
    const due = cleanupDue(view.run, view.tasks.values(), now, retention, samePull);
    return due.due ? { view, end: due.end } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `crew/` branches that belong to no open run (domain/retention.ts, strayBranches): what `/crew
 * status` lists, and what `crew doctor` will. Undefined where crew has no view of GitHub's branches
 * (local mode). A damaged run record counts as an open run: its branches are not called stray.
 */
export async function findStrayBranches(ctx: StepContext): Promise<StrayBranch[] | undefined> {
  if (!ctx.crewBranches) return undefined;
  const snap = await ctx.state.loadRuns((p) => /^issue-\d+\/run-\d+\/(run|digest)\.json$/.test(p));
  const runs = new Map<string, RunRecord | 'pruned'>();
  for (const { issue, run } of runFolders(snap)) {
    try {
      const rec = readRun(snap, issue, run);
      runs.set(`${issue}/${run}`, rec ?? 'pruned');
    } catch {
      continue;
    }
  }
  const damaged = new Set(
    runFolders(snap)
      .map(({ issue, run }) => `${issue}/${run}`)
      .filter((key) => !runs.has(key)),
  );
  return strayBranches(await ctx.crewBranches.list(), runs).filter((b) => {
    const owner = branchOwner(b.branch);
    return !owner || !damaged.has(`${owner.issue}/${owner.run}`);
  });
}
