import { failedCiRuns, runningCiRuns, type CiRunFact } from '../domain/ci-status';
import { runOfIntegrationBranch } from '../domain/refs';
import type { CheckFact, FixCiNote } from '../domain/merge-gate';
import { isTerminal, type RunRecord } from '../domain/run-state';
import type { CiRun, PullEvent } from '../event';
import { SEEN, type StateSnapshot } from '../ports';
import { readRun, runNumbers } from '../state/run-files';
import { sanitize } from '../text/sanitize';
import { loadView, type StepContext } from './context';
import { fixCiFailure, type FixCiOutcome } from './fix-ci';
import { decideMerge, recordMerge } from './merge';

/**
 * CI on the head of crew's pull request, wherever crew learns of it: GitHub's `workflow_run` event
 * for a failed CI run (the route job), or crew's own look at the head when a run of the issue ends
 * (a failure that came while the run was still working is not lost: GitHub sends the event once).
 * Either way fix_ci decides first (domain/fix-ci.ts, steps/fix-ci.ts), and then the merge gate says
 * in the report's Merge section and the plan comment why the pull request is not merged (which check
 * of which workflow failed on which head, with a link, and what a person can do), from the same
 * reading of the head's checks where crew made one.
 */

/**
 * The route job's part: a CI workflow run on a `crew/…/integration` branch completed in failure (the
 * workflow's `if:` let through only those, from a workflow other than crew's; checked again here, since
 * a copied workflow may have lost a condition). fix_ci acts when it is on; the merge gate speaks either way.
 */
export async function routeCiRun(ctx: StepContext, ev: PullEvent, ci: CiRun): Promise<void> {
  const skip = (why: string) => ctx.log.info(`CI: ${why}; nothing to do`);
  if (ci.conclusion !== 'failure') return skip(`the ${ci.workflow} run ${ci.runId} ended ${ci.conclusion ?? 'without a conclusion'}, not in failure`);
  const repo = `${ctx.forge.repo.owner}/${ctx.forge.repo.name}`.toLowerCase();
  // A fork can name its branch crew/1/r1/integration: only a head in this repository is crew's.
  if (!ci.headRepo || ci.headRepo.toLowerCase() !== repo)
    return skip(`the ${ci.workflow} run ${ci.runId} is on ${ci.headRepo ?? 'an unknown repository'}, not ${repo}`);
  const target = ci.headBranch ? runOfIntegrationBranch(ci.headBranch) : undefined;
  if (!target || !ci.headBranch)
    return skip(`the ${ci.workflow} run ${ci.runId} is on ${ci.headBranch ?? 'no branch'}, not one of crew's pull request branches`);

  // The run's record names its pull request; the event's list of pull requests may be empty, so it is only checked against.
  const owner = readRun(await ctx.state.load(`issue-${target.issue}/`), target.issue, target.run);
  if (!owner) return skip(`run ${target.run} of issue #${target.issue} is not on crew/state`);
  if (!owner.pr) {
    // CI on the integration branch can fail before the critic opens the pull request: the run's end looks at it.
    if (!isTerminal(owner.phase)) return skip(`run ${target.run} of issue #${target.issue} has no pull request yet; crew looks at its CI when the run ends`);
    return skip(`run ${target.run} of issue #${target.issue} has no pull request`);
  }
  const number = owner.pr.number;
  const listed = ev.pulls.find((p) => p.headRef === ci.headBranch);
  if (listed && listed.number !== number) ctx.log.warn(`CI: GitHub lists pull request #${listed.number} for ${ci.headBranch}; the run's is #${number}`);
  const pull = await ctx.forge.getPull(number);
  if (pull.state !== 'open' || pull.fromFork || pull.headRef !== ci.headBranch)
    return skip(`pull request #${number} is not crew's open pull request from ${ci.headBranch}`);

  const config = await ctx.config();
  let note: FixCiNote | undefined;
  if (config.fix_ci) {
    const out = await fixCiFailure(
      ctx,
      { target, pull: { number, headRef: ci.headBranch, headSha: pull.headSha }, ci, max: config.fix_ci_attempts },
      { beforeStart: (n) => gateAfterCi(ctx, target.issue, number, { fixCi: n }) },
    );
    note = noteOf(out);
  } else {
    // Off means off for fixing: no comment about it. The merge gate still says why the pull request is not merged.
    ctx.log.info(`fix_ci: fix_ci is off in .github/crew.yml (CI failed on ${ci.headBranch}); crew does not fix it`);
  }
  await gateAfterCi(ctx, target.issue, number, note ? { fixCi: note } : {});
}

/**
 * When a run of the issue ends, whatever ended it (the critic's PASS, its tasks failing, `/crew
 * abort`), crew looks once at the CI of the pull request it worked on, and of any pull request whose
 * CI failed while it worked (`fixCi.lookAfter`): a failed run of a workflow fix_ci is named for, with
 * no attempt covering that head, gets its follow-up now, as if its `workflow_run` event had come now
 * (an aborted CI follow-up's own head is covered by its attempt, so it does not start again); a run
 * still going is left to its own event. Then the merge gate reads the same checks. A failure here is
 * said on the pull request and never undoes the run's ending.
 */
export async function lookAtCiWhenRunEnds(ctx: StepContext, issue: number, run: number): Promise<void> {
  // Where there is no workflow (local mode) there is no CI to look at.
  if (!ctx.ciWorkflows) return;
  let said: number | undefined;
  try {
    // Neither fixes CI nor merges: nothing to look at, and nothing read (the usual configuration costs no round trip).
    const config = await ctx.config();
    if (!config.fix_ci && !config.auto_merge) return;
    // Called as the run ends, right after its last write in this job.
    const snap = await ctx.state.load(`issue-${issue}/`, SEEN);
    const ending = readRun(snap, issue, run);
    if (!ending || !isTerminal(ending.phase)) return;
    const pulls = new Set<number>();
    if (ending.pr) pulls.add(ending.pr.number);
    for (const k of runNumbers(snap, issue)) {
      const rec = readRun(snap, issue, k);
      if (rec?.pr && rec.fixCi.lookAfter === run) pulls.add(rec.pr.number);
    }
    said = ending.pr?.number;
    for (const n of pulls) {
      said = n;
      await lookAtPull(ctx, snap, issue, n);
    }
  } catch (e) {
    // A follow-up this look started failed while planning: that is the follow-up's own failure (main.ts reports it).
    if (ctx.working && (ctx.working.issue !== issue || ctx.working.run !== run)) throw e;
    const why = e instanceof Error ? e.message : String(e);
    ctx.log.warn(`crew could not look at CI after run ${run} of issue #${issue} ended: ${why}`);
    await ctx.forge
      .postComment(
        said ?? issue,
        `crew could not look at this pull request's CI after run ${ctx.surface.runNumber(issue, run)} of #${issue} ended: ${sanitize(why, 500)}. If CI failed on its head, re-run the failed jobs: crew acts on the failure when it arrives.`,
      )
      .catch((post: unknown) => ctx.log.warn(`the comment saying so could not be posted either (${post instanceof Error ? post.message : String(post)})`));
  }
}

async function lookAtPull(ctx: StepContext, snap: StateSnapshot, issue: number, number: number): Promise<void> {
  const skip = (why: string) => ctx.log.info(`CI on #${number}: ${why}; nothing to do`);
  const newest = newestOfPull(snap, issue, number);
  if (newest && !isTerminal(newest.phase)) return skip(`run ${newest.run} is working on it; crew looks when that run ends`);
  const config = await ctx.config();
  // Without fix_ci only the merge gate may have something new to say, and it reads what it needs itself.
  if (!config.fix_ci) return config.auto_merge ? gateAfterCi(ctx, issue, number, {}) : skip('fix_ci and auto_merge are off');
  const pull = await ctx.forge.getPull(number);
  if (pull.state !== 'open' || pull.fromFork) return skip(`the pull request is ${pull.merged ? 'merged' : pull.state}`);
  const target = runOfIntegrationBranch(pull.headRef);
  if (!target || target.issue !== issue) return skip(`${pull.headRef} is not one of issue #${issue}'s pull request branches`);
  const read = await ctx.ciWorkflows!();
  if ('unreadable' in read) ctx.log.warn(`CI on #${number}: crew cannot tell which workflows fix_ci is named for (${read.unreadable}), so it looks at none`);
  const workflows = 'names' in read ? read.names : [];
  const repo = `${ctx.forge.repo.owner}/${ctx.forge.repo.name}`;
  // One reading of the head's checks: fix_ci acts on it, and the merge gate decides on it.
  const checks = (await ctx.forge.checksOn?.(pull.headSha)) ?? [];
  const head = { workflows, headSha: pull.headSha, headBranch: pull.headRef, repo };
  for (const r of runningCiRuns(checks, head))
    ctx.log.info(`CI on #${number}: ${r.workflow} run ${r.id} is still ${r.status}; its own workflow_run event decides`);
  let note: FixCiNote | undefined;
  for (const r of failedCiRuns(checks, head)) {
    const out = await fixCiFailure(
      ctx,
      { target, pull: { number, headRef: pull.headRef, headSha: pull.headSha }, ci: ciRunOf(r, repo), max: config.fix_ci_attempts },
      { dispatch: true, beforeStart: (n) => gateAfterCi(ctx, issue, number, { checks, fixCi: n }) },
    );
    note = noteOf(out) ?? note;
  }
  await gateAfterCi(ctx, issue, number, { checks, ...(note ? { fixCi: note } : {}) });
}

/**
 * The merge gate once CI has spoken: for the newest run of the issue with this pull request, when it
 * is completed and not merged, the gate decides again and its word replaces the Merge section of the
 * report and the plan comment's line (edited in place; nothing when nothing changed). A run still
 * working says its own word when it finishes.
 */
async function gateAfterCi(ctx: StepContext, issue: number, number: number, read: { checks?: CheckFact[]; fixCi?: FixCiNote }): Promise<void> {
  const newest = newestOfPull(await ctx.state.load(`issue-${issue}/`, SEEN), issue, number);
  if (!newest) return ctx.log.info(`auto-merge: no run of issue #${issue} has pull request #${number}`);
  if (newest.phase !== 'COMPLETED')
    return ctx.log.info(`auto-merge: run ${newest.run} of issue #${issue} is ${newest.phase.toLowerCase()}; it speaks for #${number} when it ends`);
  if (newest.merge?.state === 'merged') return;
  const view = await loadView(ctx, issue, newest.run, SEEN);
  await recordMerge(ctx, view, await decideMerge(ctx, view, number, read));
}

/** The newest run of the issue whose record names this pull request (follow-ups update the one pull request). */
function newestOfPull(snap: Pick<StateSnapshot, 'read' | 'list'>, issue: number, number: number): RunRecord | undefined {
  for (const k of [...runNumbers(snap, issue)].reverse()) {
    const rec = readRun(snap, issue, k);
    if (rec?.pr?.number === number) return rec;
  }
  return undefined;
}

/** What the merge gate says of fix_ci after its answer: a follow-up fixing it, or no attempts left. */
function noteOf(out: FixCiOutcome): FixCiNote | undefined {
  if (out.kind === 'started') return { kind: 'fixing', attempt: out.attempt, max: out.max };
  if (out.kind === 'used-up') return { kind: 'used-up', max: out.max };
  return undefined;
}

/** A failed run crew found on the head, as its `workflow_run` event would have carried it. */
function ciRunOf(r: CiRunFact, repo: string): CiRun {
  return {
    runId: r.id,
    workflow: r.workflow,
    path: r.path,
    conclusion: r.conclusion,
    headBranch: r.headBranch,
    headSha: r.headSha,
    headRepo: r.headRepo,
    repo,
    url: r.url,
  };
}
