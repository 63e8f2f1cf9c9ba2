import { describeCriterion } from '../domain/criteria';
import { totalUsage, type RunView } from '../domain/run-state';
import { cell, details, hiddenMarker } from '../text/markdown';

export interface TaskResultText {
  id: string;
  summary: string;
  details: string;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function reportMarker(issue: number, run: number): string {
  return hiddenMarker('report', { issue, run });
}

/** The PR body: the summary, what each task did, and the closing keyword. */
export function renderPullBody(view: RunView, results: Map<string, TaskResultText>): string {
  const plan = view.plan!;
  const lines = [
    plan.summary,
    '',
    '### What changed',
    ...plan.tasks.map((t) => `- **${t.id} ${t.title}** — ${results.get(t.id)?.summary.split('\n')[0] ?? '(no summary)'}`),
    '',
    '### Done criteria',
    ...plan.criteria.map((c) => `- ${describeCriterion(c)}`),
    '',
    `Closes #${view.run.issue}`,
    '',
    `<sub>Opened by crew (run ${view.run.run}, requested by @${view.run.requestedBy}). The full report is in the first comment.</sub>`,
    hiddenMarker('pr', { issue: view.run.issue, run: view.run.run }),
  ];
  return lines.join('\n');
}

/** The full report: one folded section per task, with its changed files and usage. */
export function renderReport(view: RunView, results: Map<string, TaskResultText>, links: { stateFile(path: string): string }): string {
  const plan = view.plan!;
  const total = totalUsage(view);
  const out = [
    reportMarker(view.run.issue, view.run.run),
    `## crew report · issue #${view.run.issue} · run ${view.run.run}`,
    '',
    plan.summary,
    '',
    '| Task | Status | Turns | Files changed | Tokens in / out |',
    '|---|---|---|---|---|',
  ];
  for (const t of plan.tasks) {
    const rec = view.tasks.get(t.id);
    out.push(`| **${t.id}** ${cell(t.title)} | ${rec?.status ?? 'pending'} | ${rec?.turns ?? 0} | ${rec?.changedFiles.length ?? 0} | ${(rec?.usage.inputTokens ?? 0).toLocaleString('en-US')} / ${(rec?.usage.outputTokens ?? 0).toLocaleString('en-US')} |`);
  }
  out.push('');
  for (const t of plan.tasks) {
    const rec = view.tasks.get(t.id);
    const r = results.get(t.id);
    const body = [
      r?.summary ?? '(no summary)',
      r?.details ? `\n${r.details}` : '',
      rec?.changedFiles.length ? `\n**Files:** ${rec.changedFiles.map((f) => `\`${f}\``).join(', ')}` : '',
    ].join('\n');
    out.push(details(`${t.id} · ${escapeHtml(t.title)} — ${rec?.status ?? 'pending'}`, body.trim()));
    out.push('');
  }
  out.push(`**Total usage:** ${total.inputTokens.toLocaleString('en-US')} input · ${total.cacheReadTokens.toLocaleString('en-US')} from cache · ${total.outputTokens.toLocaleString('en-US')} output tokens · about $${total.costUsd.toFixed(2)}`);
  out.push('');
  out.push(`<sub>The run's files, including every task's result, are on the [crew/state branch](${links.stateFile(`issue-${view.run.issue}/run-${view.run.run}`)}).</sub>`);
  return out.join('\n');
}
