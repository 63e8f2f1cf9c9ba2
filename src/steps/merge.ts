import {
  checkState,
  countApprovals,
  mergeBlocker,
  mergeDecision,
  mergeMethod,
  reviewersToCheck,
  type CheckFact,
  type FixCiNote,
  type MergeFacts,
  type ReviewerPermission,
} from '../domain/merge-gate';
import { usedUpOn } from '../domain/fix-ci';
import { runOfIntegrationBranch } from '../domain/refs';
import { forAPerson } from '../domain/judgment';
import { runRefusals } from '../domain/egress';
import type { MergeState, RunView } from '../domain/run-state';
import { replaceMergeSection } from '../render/report';
import { readRun, runNumbers } from '../state/run-files';
import { loadView, nowIso, SEEN, type StepContext } from './context';
import { withPullsCiAttempts } from './plan-comment/sync';
import { lastJudgment } from '../state/judgments';
import { cleanupAtMerge, saidCleanedUpAtMerge, tidyUp, type CleanupAtMerge } from './cleanup';
import { DeletionsRefused } from '../ports';

/**
 * The auto-merge gate for one run's pull request: gathers the facts (head, checks,
 * approvals), decides, merges with the head sha it judged, and says what happened.
 * Returns the state to record; GitHub's refusals are explained, never retried.
 * `read.checks` is a reading of the head's checks already made (what fix_ci acted on, so
 * the two agree); `read.fixCi` what fix_ci is doing about red checks, when the caller knows.
 */
export async function decideMerge(
  ctx: StepContext,
  view: RunView,
  prNumber: number,
  read: { checks?: CheckFact[]; fixCi?: FixCiNote } = {},
): Promise<MergeState> {
  const config = await ctx.config();
  const review = view.run.review;
  const [judgment, pull] = await Promise.all([lastJudgment(ctx.state, view), ctx.forge.getPull(prNumber)]);
  const facts: MergeFacts = {
    autoMerge: config.auto_merge,
    acceptedBy: review?.acceptedBy ?? null,
    verdict: judgment?.verdict ?? null,
    judgedSha: judgment?.headSha ?? null,
    forAPerson: [
      ...forAPerson(judgment?.adversarial ?? []).map((f) => `${f.rule}${f.file ? ` in \`${f.file}\`` : ''}`),
      ...(Object.keys(runRefusals(view.tasks.values(), judgment)).length ? ["the hosts crew's egress proxy refused"] : []),
    ],
    pull,
    checks: [],
    mergeWithoutChecks: config.merge_without_checks,
    requireApproval: config.require_approval,
    approvedBy: [],
    uncounted: [],
    requester: view.run.requestedBy,
  };
  const at = nowIso(ctx);
  // A job that merged and stopped before recording it (#31 §4: the merge and its record are apart): its re-run
  // finds the pull request merged by crew's own login at the head the critic passed, and records crew's merge.
  const mine = pull.merged && pull.mergedBy ? pull.mergedBy : undefined;
  if (mine && !mergeBlocker({ ...facts, pull: { ...pull, merged: false, state: 'open' } }, ctx.surface) && mine.login === (await ctx.forge.botLogin())) {
    ctx.log.info(`auto-merge: #${prNumber} was merged by crew as ${mine.sha.slice(0, 7)} before this job; recording it`);
    return { state: 'merged', reason: '', headSha: pull.headSha, mergeSha: mine.sha, at };
  }
  // Checks and reviews are read only when everything before them already holds.
  if (!mergeBlocker(facts, ctx.surface)) {
    // Independent reads of the same head: asked at once. The repository's merge methods are asked beside them
    // when the gate may merge (the forge keeps the answer for the job, and the deletions after a merge read it too).
    const [checks, approvals] = await Promise.all([
      read.checks ?? ctx.forge.checksOn?.(pull.headSha) ?? [],
      config.require_approval ? approvalsThatCount(ctx, prNumber, pull.headSha, facts.requester) : undefined,
      config.auto_merge && !config.merge_method && !view.run.base.pull ? ctx.forge.mergeMethods?.().catch(() => undefined) : undefined,
    ]);
    facts.checks = checks;
    if (approvals) Object.assign(facts, approvals);
    const note =
      read.fixCi ??
      (config.fix_ci && facts.checks.some((c) => checkState(c) === 'red') ? await usedUp(ctx, view, pull.headSha, config.fix_ci_attempts) : undefined);
    if (note) facts.fixCi = note;
  }
  const decision = mergeDecision(facts, ctx.surface);
  const state = (s: MergeState['state'], reason: string, mergeSha: string | null = null): MergeState => {
    if (s !== 'merged') ctx.log.info(`auto-merge: #${prNumber} ${s}: ${reason}`);
    return { state: s, reason, headSha: pull.headSha, mergeSha, at };
  };
  // Merging would move a person's branch, which crew never pushes to: its owner merges.
  if (config.auto_merge && view.run.base.pull)
    return state('not-merged', `this pull request goes into the branch of #${view.run.base.pull} (\`${view.run.base.branch}\`), which only its owner changes`);
  if (!decision.merge) {
    return state(decision.waiting ? 'waiting' : 'not-merged', decision.reason);
  }
  // A forge without merging (local mode: the result waits on its branch) never gets here with auto_merge on.
  if (!ctx.forge.mergePull || !ctx.forge.mergeMethods) return state('not-merged', 'this forge does not merge: review the result branch and merge it yourself');
  const method = mergeMethod(config.merge_method, config.merge_method ? { merge: true, squash: true, rebase: true } : await ctx.forge.mergeMethods());
  if (!method) return state('not-merged', 'the repository allows no merge method');
  const out = await ctx.forge.mergePull(prNumber, pull.headSha, method);
  if (out.merged) {
    ctx.log.checkpoint('pull-merged');
    ctx.log.info(`auto-merge: merged #${prNumber} (${method}) as ${out.sha.slice(0, 7)}`);
    return state('merged', [method === 'merge' ? '' : `${method}`, decision.note ?? ''].filter(Boolean).join('; '), out.sha);
  }
  if (out.status === 409)
    return state(
      'not-merged',
      `the head moved while crew was merging (GitHub answered 409), so nothing was merged; crew merges only the head the critic judged`,
    );
  if (out.status === 405)
    return state(
      'not-merged',
      `GitHub refused the ${method} merge (405: ${out.message}). Branch protection (required reviews or checks) or a merge method the repository does not allow usually causes this; crew does not retry it`,
    );
  return state('not-merged', `GitHub refused the merge (${out.status}: ${out.message})`);
}

/** fix_ci out of attempts on this head (counted on the run whose branch the pull request is), for the gate's words. */
async function usedUp(ctx: StepContext, view: RunView, headSha: string, max: number): Promise<FixCiNote | undefined> {
  const fixCi = (await withPullsCiAttempts(ctx, view)).run.fixCi;
  return usedUpOn(fixCi, headSha, max) ? { kind: 'used-up', max } : undefined;
}

/**
 * The approving reviews, each checked like a command: through the collaborator-permission
 * endpoint, once per reviewer (the forge remembers answers for the job), failing closed.
 */
async function approvalsThatCount(
  ctx: StepContext,
  prNumber: number,
  headSha: string,
  requester: string,
): Promise<Pick<MergeFacts, 'approvedBy' | 'uncounted'>> {
  const reviews = (await ctx.forge.approvals?.(prNumber)) ?? [];
  const known = new Map<string, ReviewerPermission>();
  for (const login of reviewersToCheck(reviews, headSha, requester)) {
    try {
      known.set(login, await ctx.forge.permissionOf(login));
    } catch (e) {
      ctx.log.warn(`the permission check for @${login} failed (${e instanceof Error ? e.message : String(e)}), so their approval does not count`);
      known.set(login, 'failed');
    }
  }
  return countApprovals(reviews, headSha, requester, (login) => known.get(login));
}

/**
 * Records the gate's word on the run and in the report comment (its Merge section, edited in place),
 * when it changed. A merge stands: a later word from a gate that lost the race to merge (GitHub
 * refuses a second merge) never replaces it. `cleanup`, after crew merged: the run's branches go in
 * the same write (#31 §4); should GitHub refuse a deletion, the merge is recorded alone, and tidyUp
 * deals with the branches. A job that stops after merging and before this write costs a re-run
 * nothing: decideMerge finds crew's merge, and this records it and cleans up.
 */
export async function recordMerge(ctx: StepContext, view: RunView, m: MergeState, cleanup?: CleanupAtMerge): Promise<void> {
  const before = view.run.merge;
  if (before && before.state === m.state && before.reason === m.reason && before.headSha === m.headSha) return;
  // Whether the attempt of the write that landed recorded the cleanup (no other job had).
  let cleaned = false;
  const write = (c?: CleanupAtMerge) =>
    ctx.planComment.updateShownFirst(
      view,
      `merge ${m.state}${c ? `, branches cleaned up (${c.end.how})` : ''}`,
      (rec) => {
        if (rec.merge?.state === 'merged' && m.state !== 'merged') return undefined;
        cleaned = c !== undefined && !rec.cleanup;
        return { ...rec, merge: m, ...(c && !rec.cleanup ? { cleanup: c.record } : {}) };
      },
      c?.deleting.length ? { deleting: c.deleting } : undefined,
    );
  const wrote = await write(cleanup).catch(async (e: unknown) => {
    if (!(e instanceof DeletionsRefused)) throw e;
    ctx.log.info(`${e.message}; recording the merge alone`);
    return write();
  });
  if (!wrote) return ctx.log.info(`auto-merge: #${view.run.pr?.number ?? '?'} is merged already; crew keeps saying so`);
  if (cleaned && cleanup) await saidCleanedUpAtMerge(ctx, view.run, cleanup);
  const reportId = view.run.pr?.reportCommentId;
  if (reportId) {
    const current = await ctx.forge.getComment(reportId);
    await ctx.forge.updateComment(reportId, replaceMergeSection(current.body, m));
  }
}

/**
 * The `merge` job: a check suite completed, a CI workflow run ended other than in failure (route
 * takes failures), or a review was submitted on a pull request. For crew's own pull requests (head `crew/<issue>/r<k>/integration`), the gate runs again.
 */
export async function merge(ctx: StepContext): Promise<void> {
  if (ctx.event.kind !== 'pull') return ctx.log.info('the merge step runs on check_suite, workflow_run and pull_request_review events');
  const ours = ctx.event.pulls.flatMap((p) => {
    const own = runOfIntegrationBranch(p.headRef);
    return own ? [{ ...p, ...own }] : [];
  });
  if (!ours.length) return ctx.log.info(`no pull request of crew's in this ${ctx.event.source} event`);
  // The configuration is read beside the issue's state (a request of its own in a job with no checkout); a
  // failure to read it is met again, and said, where the merge gate asks for it.
  void ctx.config().catch(() => undefined);
  for (const p of ours) {
    const { issue, run: first } = p;
    // Follow-ups update the same pull request as later runs of the issue: the newest one speaks for it, and
    // while it works (not COMPLETED) nothing merges on an older run's pass.
    const run = await newestRunOfPull(ctx, issue, first, p.number);
    // newestRunOfPull just read the issue's runs.
    const view = await loadView(ctx, issue, run, SEEN).catch(() => undefined);
    if (!view || view.run.phase !== 'COMPLETED' || view.run.pr?.number !== p.number) {
      ctx.log.info(`#${p.number}: run ${run} of issue #${issue} is not a completed run with this pull request; nothing to do`);
      continue;
    }
    if (view.run.merge?.state === 'merged') continue;
    const decided = await decideMerge(ctx, view, p.number);
    await recordMerge(ctx, view, decided, decided.state === 'merged' ? await cleanupAtMerge(ctx, view, decided, p.headRef) : undefined);
    ctx.log.checkpoint('merge-evaluated');
    if (decided.state === 'merged') await tidyUp(ctx, issue);
  }
}

/** The newest run of the issue (from the one that opened it on) whose record names this pull request. */
export async function newestRunOfPull(ctx: StepContext, issue: number, first: number, pull: number): Promise<number> {
  const snap = await ctx.state.load(`issue-${issue}/`);
  const later = runNumbers(snap, issue).filter((k) => k > first);
  for (const k of later.reverse()) if (readRun(snap, issue, k)?.pr?.number === pull) return k;
  return first;
}
