import { runOutcome, type Judgment } from '../domain/judgment';
import { runFolder } from '../domain/refs';
import { logPhase, type RunRecord, type RunView } from '../domain/run-state';
import { renderPullBody, renderReport, renderReportSummary, reportMarker, type TaskResultText } from '../render/report';
import { paths, planOf, refreshExecutionLog, writeRun } from '../state/run-files';
import { capBody } from '../text/markdown';
import { sanitize } from '../text/sanitize';
import { CREW_VERSION } from '../version';
import { PullRequestsNotAllowed, type StateTx } from '../ports';
import { addPosted } from '../domain/caps';
import { ensureRoom } from './caps';
import { decideMerge } from './merge';
import { afterRunEnded } from './run-end';
import { retrospect } from './retrospect';
import { CrewError, integrationBranchOf, loadView, nowIso, planLinks, SEEN, syncPlanComment, updateRun, type StepContext } from './context';
import { withPullsCiAttempts } from './plan-comment/sync';
import { replyInThreads } from './follow-up';
import { earlierJudgments, lastJudgment } from '../state/judgments';
import { sentence } from '../domain/surface';

/** The worker's own text from a result file: the body between the title and the completion marker. */
function resultText(view: RunView, read: (path: string) => string | undefined): Map<string, TaskResultText> {
  const out = new Map<string, TaskResultText>();
  for (const t of planOf(view).tasks) {
    const rec = view.tasks.get(t.id);
    const file = read(paths.result(view.run.issue, view.run.run, t.id)) ?? '';
    const body = file
      .replace(/^---[\s\S]*?\n---\n/, '')
      .replace(/^\s*# Result of \S+\s*/, '')
      .replace(/<!-- COMPLETE -->\s*$/, '')
      .trim();
    const summary = rec?.summary ?? '';
    out.set(t.id, { id: t.id, summary, details: body.startsWith(summary) ? body.slice(summary.length).trim() : body });
  }
  return out;
}

/** report.md and report_summary.md on the state branch, with the run record's own changes, in one write. */
async function recordReport(
  ctx: StepContext,
  view: RunView,
  report: string,
  judgment: Judgment | null,
  startedAt: string,
  mutate: (rec: RunRecord) => RunRecord,
): Promise<void> {
  const { issue, run } = view.run;
  const now = nowIso(ctx);
  const outcome = runOutcome(view, judgment, view.run.review?.acceptedBy != null);
  const summary = renderReportSummary(view, outcome, judgment, { generatedBy: `crew v${CREW_VERSION}`, date: now.slice(0, 10) });
  await updateRun(ctx, issue, run, `report (${outcome.status})`, (rec, tx) => {
    tx.write(paths.report(issue, run), `${report}\n`);
    tx.write(paths.reportSummary(issue, run), `${summary}\n`);
    writeRun(tx, logPhase(mutate(rec), 'aggregator', { model: null, started: startedAt, finished: now, status: 'success', retries: 0, error: null }), now);
    refreshExecutionLog(tx, issue, run);
  });
}

/** The retrospective after a run ends; one that cannot be written must not undo the ending. */
async function retrospectAfter(ctx: StepContext, issue: number, run: number, target: number): Promise<void> {
  try {
    await retrospect(ctx, issue, run, false);
  } catch (e) {
    ctx.log.warn(`the retrospective failed: ${(e as Error).message}`);
    const again = ctx.surface.give('retro');
    await ctx.forge
      .postComment(
        target,
        `crew could not post the retrospective of run ${ctx.surface.runNumber(issue, run)}: ${sanitize((e as Error).message, 500)}. The run itself is not affected.${again ? ` ${sentence(again)} on #${issue} to try again.` : ''}`,
      )
      .catch((post) =>
        ctx.log.warn(`the comment saying so could not be posted either (${(post as Error).message}); comment \`/crew retro\` on #${issue} to try again`),
      );
  }
}

/**
 * A judgment the critic has not recorded yet: its files, and the run record with it. A PASS is
 * recorded by finish, in the write that records the pull request.
 */
export interface UnrecordedJudgment {
  what: string;
  files: (tx: StateTx) => void;
  run: (rec: RunRecord) => RunRecord;
}

/** A judgment in a write of its own: a FAIL, or a PASS no pull request follows (a re-run must not judge again). */
export async function recordJudgment(ctx: StepContext, issue: number, run: number, j: UnrecordedJudgment): Promise<void> {
  await updateRun(ctx, issue, run, j.what, (rec, tx) => {
    j.files(tx);
    writeRun(tx, j.run(rec), nowIso(ctx));
    refreshExecutionLog(tx, issue, run);
  });
  ctx.log.checkpoint('judged');
}

/**
 * After the critic's PASS (or a person's `/crew accept`): the pull request, created or
 * updated idempotently by its head branch, its labels, the report as its first comment,
 * report.md and report_summary.md on the state branch, the job summary, the plan comment.
 * `judged` is the critic's PASS when it is not on crew/state yet (`view` shows it already).
 */
export async function finish(ctx: StepContext, view: RunView, judgment: Judgment | null, judged?: UnrecordedJudgment): Promise<void> {
  const { issue, run } = view.run;
  const startedAt = nowIso(ctx);
  const prefix = `${runFolder(issue, run)}/`;
  const config = await ctx.config();
  const acceptedBy = view.run.review?.acceptedBy ?? null;
  // The results the view names; the pull request is found on GitHub, and recorded by a compare-and-swap.
  const snap = await ctx.state.load(prefix, SEEN);
  const results = resultText(view, (p) => snap.read(p));
  const links = planLinks(ctx);
  const reportLink = links.stateFile(paths.report(issue, run));
  const body = capBody(renderPullBody(view, results, judgment, acceptedBy), reportLink);
  const branch = integrationBranchOf(ctx, view.run);
  // The pull request, its report comment and the retrospective, counted when the PR is recorded below.
  const creates = { pull_requests: 1, comments: config.retrospect.enabled ? 2 : 1 };
  let opened: Awaited<ReturnType<typeof openPull>>;
  try {
    opened = await openPull(ctx, view, body, branch, creates);
  } catch (e) {
    // No pull request this time (a 403, a closed one, caps, GitHub failing): the PASS is kept, so `/crew resume` does not judge again.
    if (judged)
      await recordJudgment(ctx, issue, run, judged).catch((w) =>
        ctx.log.warn(`the critic's PASS could not be recorded either (${(w as Error).message}); the critic judges again when the run is resumed`),
      );
    throw e;
  }
  const { pr, existed } = opened;
  ctx.log.checkpoint('pr-opened');
  const notes: string[] = [];
  for (const label of config.pr_labels) {
    try {
      await ctx.forge.addLabel(pr.number, label);
    } catch (e) {
      ctx.log.warn(`could not add the label '${label}' to #${pr.number}: ${(e as Error).message}`);
      notes.push(`crew could not add the label \`${label}\` (from \`pr_labels\`) to this pull request: ${sanitize((e as Error).message, 300)}`);
    }
  }
  // The critic's PASS rides in this write: a crash before it costs a second judgment (the critic's model call)
  // on the re-run, which finds this pull request again by its head branch rather than opening another.
  await updateRun(ctx, issue, run, judged ? `${judged.what}; PR #${pr.number}` : `PR #${pr.number}`, (rec, tx) => {
    if (rec.pr?.number === pr.number && !judged) return;
    judged?.files(tx);
    const next = judged ? judged.run(rec) : rec;
    writeRun(
      tx,
      rec.pr?.number === pr.number
        ? next
        : { ...next, pr: { number: pr.number, url: pr.url, reportCommentId: null }, posted: rec.pr ? next.posted : addPosted(next.posted, creates) },
      nowIso(ctx),
    );
    if (judged) refreshExecutionLog(tx, issue, run);
  });
  if (judged) ctx.log.checkpoint('judged');

  // The merge gate runs before the report, so the report says whether crew merged and why (not).
  const loaded = await loadView(ctx, issue, run, SEEN);
  const mergeState = await decideMerge(ctx, loaded, pr.number);
  const current: RunView = { ...loaded, run: { ...loaded.run, merge: mergeState } };
  const report = renderReport(await withPullsCiAttempts(ctx, current), results, links, judgment, acceptedBy, {
    notes,
    earlier: await earlierJudgments(ctx.state, current),
  });
  // A PR crew just created has no comments to search.
  let reportId =
    current.run.pr?.reportCommentId ??
    (existed ? (await ctx.forge.findComment(pr.number, reportMarker(issue, run), await ctx.forge.botLogin()))?.id : undefined);
  if (reportId) await ctx.forge.updateComment(reportId, capBody(report, reportLink));
  else reportId = (await ctx.forge.postComment(pr.number, capBody(report, reportLink))).id;
  ctx.log.checkpoint('report-posted');

  await recordReport(ctx, current, report, judgment, startedAt, (rec) => ({
    ...rec,
    phase: 'COMPLETED',
    merge: mergeState,
    pr: { number: pr.number, url: pr.url, reportCommentId: reportId! },
  }));
  // A report left on the issue by an earlier ending of this run (it failed, then was retried) points on to the PR's.
  if (current.run.issueReportCommentId)
    await ctx.forge.updateComment(
      current.run.issueReportCommentId,
      `${reportMarker(issue, run)}\nRun ${run} failed earlier and was carried on; it completed, and its report is now on ${pr.url}.`,
    );
  await ctx.summary(report);
  // A follow-up answers in each review thread it addressed, naming the commit the critic passed.
  if (current.run.followUp && judgment?.verdict === 'PASS') await replyInThreads(ctx, current, judgment.headSha);
  await syncPlanComment(ctx, issue, run);
  await retrospectAfter(ctx, issue, run, pr.number);
  // The CI look, then cleanup (merged now: its branches can go).
  await afterRunEnded(ctx, issue, run);
}

/** The run's pull request, found by its head branch and updated, or created. */
async function openPull(
  ctx: StepContext,
  view: RunView,
  body: string,
  branch: string,
  creates: { pull_requests: number; comments: number },
): Promise<{ pr: { number: number; url: string }; existed: boolean }> {
  const found = await ctx.forge.findOpenPull(branch, view.run.base.branch);
  if (!found && view.run.followUp)
    throw new CrewError(
      'updating the pull request',
      `pull request #${view.run.followUp.pull} is no longer open, so follow-up ${view.run.followUp.k} cannot update it. Its work is on \`${branch}\`${view.run.review?.headSha ? ` (${view.run.review.headSha.slice(0, 7)})` : ''}.`,
      `Reopen the pull request, then ${ctx.surface.give('resume')}; or ${ctx.surface.give('run')} for a new one.`,
    );
  if (!found && view.run.pr === null) await ensureRoom(ctx, view.run, creates);
  try {
    if (found) {
      await ctx.forge.updatePull(found.number, { body });
      return { pr: found, existed: true };
    }
    return { pr: await ctx.forge.createPull({ title: view.run.title, body, head: branch, base: view.run.base.branch }), existed: false };
  } catch (e) {
    if (e instanceof PullRequestsNotAllowed) {
      const head = view.run.review?.headSha?.slice(0, 7) ?? '';
      throw new CrewError(
        'opening the pull request',
        `${e.message} The integrated work is on branch \`${branch}\`${head ? ` (${head})` : ''}.`,
        `Change the setting (or pass a GitHub App or personal token as \`github_token\`), then ${ctx.surface.give('resume')}: crew opens the pull request from the branch it kept, without judging again.`,
      );
    }
    throw e;
  }
}

/**
 * A run that ended without a pull request (its tasks failed, or it was aborted) still gets
 * its report: report.md and report_summary.md (status failure), the report as a comment on
 * the issue (the PR, if an earlier round opened one), the job summary, and the
 * retrospective, which is full for such a run. Then what follows every run's end (run-end.ts):
 * the look at CI on its pull requests (a failed follow-up leaves its pull request as it was), then cleanup.
 */
export async function reportEndedRun(ctx: StepContext, issue: number, run: number, why: string): Promise<void> {
  const startedAt = nowIso(ctx);
  const view = await loadView(ctx, issue, run);
  if (!view.plan) return ctx.log.info(`run ${run} ended before it had a plan; there is nothing to report`);
  const snap = await ctx.state.load(`${runFolder(issue, run)}/`);
  const judgment = await lastJudgment(ctx.state, view);
  const links = planLinks(ctx);
  const report = renderReport(
    view,
    resultText(view, (p) => snap.read(p)),
    links,
    judgment,
    null,
    { ended: why },
  );
  const body = capBody(report, links.stateFile(paths.report(issue, run)));
  const target = view.run.pr?.number ?? issue;
  let id = view.run.issueReportCommentId ?? undefined;
  if (id) await ctx.forge.updateComment(id, body);
  else id = (await ctx.forge.postComment(target, body)).id;
  await recordReport(ctx, view, report, judgment, startedAt, (rec) => ({ ...rec, issueReportCommentId: id! }));
  await ctx.summary(report);
  await syncPlanComment(ctx, issue, run);
  await retrospectAfter(ctx, issue, run, target);
  // CI on its pull requests, then cleanup: this run keeps its branches for `cleanup.unfinished_days`; older ended runs may go now.
  await afterRunEnded(ctx, issue, run);
}
