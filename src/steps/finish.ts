import { PullRequestsNotAllowed } from '../adapters/github/forge';
import { runOutcome, type Judgment } from '../domain/judgment';
import { runFolder } from '../domain/refs';
import type { RunView } from '../domain/run-state';
import { renderPullBody, renderReport, renderReportSummary, reportMarker, type TaskResultText } from '../render/report';
import { paths, readRun, refreshExecutionLog, writeRun } from '../state/run-files';
import { capBody } from '../text/markdown';
import { CREW_VERSION } from '../version';
import { addPosted } from '../domain/caps';
import { ensureRoom } from './caps';
import { decideMerge } from './merge';
import { retrospect } from './retrospect';
import { CrewError, loadView, nowIso, planLinks, syncPlanComment, type StepContext } from './context';

/** The worker's own text from a result file: the body between the title and the completion marker. */
function resultText(view: RunView, read: (path: string) => string | undefined): Map<string, TaskResultText> {
  const out = new Map<string, TaskResultText>();
  for (const t of view.plan!.tasks) {
    const rec = view.tasks.get(t.id);
    const file = read(paths.result(view.run.issue, view.run.run, t.id)) ?? '';
    const body = file.replace(/^---[\s\S]*?\n---\n/, '').replace(/^\s*# Result of \S+\s*/, '').replace(/<!-- COMPLETE -->\s*$/, '').trim();
    const summary = rec?.summary ?? '';
    out.set(t.id, { id: t.id, summary, details: body.startsWith(summary) ? body.slice(summary.length).trim() : body });
  }
  return out;
}

/**
 * After the critic's PASS (or a person's `/crew accept`): the pull request, created or
 * updated idempotently by its head branch, its labels, the report as its first comment,
 * report.md and report_summary.md on the state branch, the job summary, the plan comment.
 */
export async function finish(ctx: StepContext, view: RunView, judgment: Judgment | null): Promise<void> {
  const { issue, run } = view.run;
  const prefix = `${runFolder(issue, run)}/`;
  const config = await ctx.config();
  const acceptedBy = view.run.review?.acceptedBy ?? null;
  const snap = await ctx.state.load(prefix);
  const results = resultText(view, (p) => snap.read(p));
  const links = planLinks(ctx);
  const folder = links.stateFile(runFolder(issue, run));
  const body = capBody(renderPullBody(view, results, judgment, acceptedBy), folder);
  const branch = ctx.branches.integration(issue, run);
  let pr = await ctx.forge.findOpenPull(branch, view.run.base.branch);
  const existed = pr !== undefined;
  // The pull request, its report comment and the retrospective, counted when the PR is recorded below.
  const creates = { pull_requests: 1, comments: config.retrospect.enabled ? 2 : 1 };
  if (!existed && view.run.pr === null) await ensureRoom(ctx, view.run, creates);
  try {
    if (pr) await ctx.forge.updatePull(pr.number, { body });
    else pr = await ctx.forge.createPull({ title: view.run.title, body, head: branch, base: view.run.base.branch });
  } catch (e) {
    if (e instanceof PullRequestsNotAllowed) {
      const head = view.run.review?.headSha?.slice(0, 7) ?? '';
      throw new CrewError('opening the pull request', `${e.message} The integrated work is on branch \`${branch}\`${head ? ` (${head})` : ''}.`, "Change the setting, then re-run this workflow run's failed job from the Actions tab.");
    }
    throw e;
  }
  ctx.log.checkpoint('pr-opened');
  for (const label of config.pr_labels) {
    try {
      await ctx.forge.addLabel(pr.number, label);
    } catch (e) {
      ctx.log.warn(`could not add the label '${label}' to #${pr.number}: ${(e as Error).message}`);
    }
  }
  await ctx.state.update(prefix, `issue #${issue} run ${run}: PR #${pr.number}`, (tx) => {
    const rec = readRun(tx, issue, run)!;
    if (rec.pr?.number !== pr!.number) writeRun(tx, { ...rec, pr: { number: pr!.number, url: pr!.url, reportCommentId: null }, posted: rec.pr ? rec.posted : addPosted(rec.posted, creates) }, nowIso(ctx));
  });

  // The merge gate runs before the report, so the report says whether crew merged and why (not).
  const loaded = await loadView(ctx, issue, run);
  const mergeState = await decideMerge(ctx, loaded, pr.number);
  const current: RunView = { ...loaded, run: { ...loaded.run, merge: mergeState } };
  const report = renderReport(current, results, links, judgment, acceptedBy);
  // A PR crew just created has no comments to search.
  let reportId = current.run.pr?.reportCommentId ?? (existed ? (await ctx.forge.findComment(pr.number, reportMarker(issue, run), await ctx.forge.botLogin()))?.id : undefined);
  if (reportId) await ctx.forge.updateComment(reportId, capBody(report, folder));
  else reportId = (await ctx.forge.postComment(pr.number, capBody(report, folder))).id;
  ctx.log.checkpoint('report-posted');

  const now = nowIso(ctx);
  const outcome = runOutcome(current, judgment, acceptedBy !== null);
  const summary = renderReportSummary(current, outcome, judgment, { generatedBy: `crew v${CREW_VERSION}`, date: now.slice(0, 10) });
  await ctx.state.update(prefix, `issue #${issue} run ${run}: completed`, (tx) => {
    const rec = readRun(tx, issue, run)!;
    tx.write(paths.report(issue, run), `${report}\n`);
    tx.write(paths.reportSummary(issue, run), `${summary}\n`);
    writeRun(tx, { ...rec, phase: 'COMPLETED', merge: mergeState, pr: { number: pr!.number, url: pr!.url, reportCommentId: reportId! } }, now);
    refreshExecutionLog(tx, issue, run);
  });
  await ctx.summary(report);
  await syncPlanComment(ctx, issue, run);
  // The run is complete; a retrospective that cannot be written must not undo that.
  try {
    await retrospect(ctx, issue, run, false);
  } catch (e) {
    ctx.log.warn(`the retrospective failed: ${(e as Error).message}`);
    await ctx.forge.postComment(pr.number, `crew could not post the retrospective of run ${run}: ${(e as Error).message}. The run itself is complete. Comment \`/crew retro\` on #${issue} to try again.`).catch(() => undefined);
  }
}
