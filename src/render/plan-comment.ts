import { describeCriterion } from '../domain/criteria';
import { budgetWaitLine } from './budget-stop';
import { commandsNow } from '../domain/commands';
import { criticalPath, waves, type Plan, type PlanTask } from '../domain/plan';
import { isRead, type ImageRecord } from '../domain/images';
import { runFolder } from '../domain/refs';
import { totalUsage, type FailoverNote, type Phase, type RateLimitNote, type RunView, type TaskStatus } from '../domain/run-state';
import { GITHUB, type Surface } from '../domain/surface';
import { estimateText, minutesNote, money } from './cost';
import { renderFixCiAttempts } from './fix-ci';
import { spendWarningLine } from './spend';
import { cell, codeSpan, hiddenMarker, markerPrefix, progressBar } from '../text/markdown';
import { attemptsCutLines, runSelectionLines } from './candidates';

export interface PlanLinks {
  branch(branch: string): string;
  comment(issue: number, id: number): string;
  run: string;
  stateFile(path: string): string;
}

const PHASE_TEXT: Record<Phase, string> = {
  PLANNING: '🧭 Planning',
  AWAITING_APPROVAL: '⏸️ Waiting for approval',
  EXECUTING: '🛠️ Working',
  INTEGRATING: '🔀 Integrating',
  REVIEWING: '🔍 Reviewing',
  COMPLETED: '✅ Done',
  ESCALATING: '🙋 Waiting for your answer',
  INTERRUPTED: '⏹️ Interrupted',
  FAILED: '❌ Failed',
  ABORTED: '🛑 Aborted',
};

const STATUS_TEXT: Record<TaskStatus, string> = {
  pending: '⚪ pending',
  running: '🔵 running',
  retrying: '🔁 retrying',
  success: '✅ success',
  partial: '🟡 partial',
  failure: '❌ failure',
  timeout: '⏱️ timeout',
  blocked: '⛔ blocked',
};

const STATUS_STYLE: Record<TaskStatus, string> = {
  pending: 'fill:#f6f8fa,stroke:#8c959f',
  running: 'fill:#ddf4ff,stroke:#0969da',
  retrying: 'fill:#fff8c5,stroke:#9a6700',
  success: 'fill:#dafbe1,stroke:#1a7f37',
  partial: 'fill:#fff8c5,stroke:#9a6700',
  failure: 'fill:#ffebe9,stroke:#cf222e',
  timeout: 'fill:#ffebe9,stroke:#cf222e',
  blocked: 'fill:#eaeef2,stroke:#57606a',
};

/** "GitHub rate-limited crew for 42 s at 12:01 UTC; it waited and carried on." */
export function rateLimitLine(n: RateLimitNote): string {
  const at = /T(\d\d:\d\d)/.exec(n.at)?.[1] ?? n.at;
  return `GitHub rate-limited crew for ${n.seconds} s at ${at} UTC; it waited and carried on.`;
}

/**
 * The visible word on a failover, one line per primary → fallback and limit: "Model failover: the
 * Anthropic API was overloaded (529 overloaded_error) past its retries (first at 12:03 UTC), so the
 * worker of t1 and the critic job went on with Amazon Bedrock (us-east-1) (`fallback_provider`)."
 */
export function failoverLines(notes: readonly FailoverNote[], s: Surface = GITHUB): string[] {
  const groups = new Map<string, { first: FailoverNote; jobs: string[] }>();
  for (const n of notes) {
    const key = `${n.from}\u0000${n.to}\u0000${n.reason}`;
    const g = groups.get(key);
    if (g) {
      if (!g.jobs.includes(n.job)) g.jobs.push(n.job);
    } else groups.set(key, { first: n, jobs: [n.job] });
  }
  return [...groups.values()].map(({ first, jobs }) => {
    const at = /T(\d\d:\d\d)/.exec(first.at)?.[1] ?? first.at;
    const who = jobs.length === 1 ? jobs[0]! : `${jobs.slice(0, -1).join(', ')} and ${jobs.at(-1)!}`;
    const from = first.from.charAt(0).toUpperCase() + first.from.slice(1);
    return `${s.bold('Model failover:')} ${from} was ${first.reason} past its retries (first at ${at} UTC), so ${who} went on with ${first.to} (\`fallback_provider\`).`;
  });
}

export function planMarker(issue: number, run: number): string {
  return hiddenMarker('plan', { issue, run });
}

/** The state version a rendered plan comment shows (its hidden version marker), if it has one. */
export function shownVersion(body: string): number | undefined {
  const m = new RegExp(`${markerPrefix('version')} v=(\\d+) -->`).exec(body);
  return m ? Number(m[1]) : undefined;
}

/**
 * Which run a plan comment shows (its plan marker), if it says. A follow-up takes over the comment
 * of the run it continues, and versions count per run, so a version means something only beside its run.
 */
export function shownRun(body: string): number | undefined {
  const m = new RegExp(`${markerPrefix('plan')} issue=\\d+ run=(\\d+) -->`).exec(body);
  return m ? Number(m[1]) : undefined;
}

/** Mermaid labels cannot hold quotes, brackets or markup; keep them plain. */
function mermaidLabel(text: string): string {
  return text
    .replace(/["<>[\]{}()|`#;]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60);
}

/** The plan's tasks and dependencies as a mermaid graph, each task coloured by its status. */
export function mermaidSource(view: RunView): string[] {
  const tasks = view.plan?.tasks ?? [];
  const lines = ['graph LR'];
  for (const t of tasks) lines.push(`  ${t.id}["${t.id} · ${mermaidLabel(t.title)}"]:::${view.tasks.get(t.id)?.status ?? 'pending'}`);
  for (const t of tasks) for (const d of t.dependsOn) lines.push(`  ${d} --> ${t.id}`);
  const used = new Set(tasks.map((t) => view.tasks.get(t.id)?.status ?? 'pending'));
  for (const s of used) lines.push(`  classDef ${s} ${STATUS_STYLE[s]}`);
  return lines;
}

/** The one plan comment per run, edited in place. A pure function of the run's state, worded and marked up for the surface. */
export function renderPlanComment(view: RunView, links: PlanLinks, s: Surface): string {
  const { run, plan } = view;
  const out: string[] = [`${planMarker(run.issue, run.run)}${s.marker('version', { v: run.version })}`];
  headLines(out, view, links, s);
  if (!plan) {
    out.push(run.phase === 'FAILED' ? 'crew could not make a plan for this issue.' : 'Reading the issue and the repository to make a plan…');
  } else {
    planLines(out, view, plan, s);
    taskLines(out, view, plan, links, s);
    criteriaLines(out, view, plan, s);
  }
  noticeLines(out, view, links, s);
  waitingLines(out, view, links, s);
  outcomeLines(out, view, links, s);
  footerLines(out, view, links, s);
  return out.join('\n');
}

/** The heading, and which pull request a follow-up continues. */
function headLines(out: string[], view: RunView, links: PlanLinks, s: Surface): void {
  const { run } = view;
  out.push(s.heading(`crew · run ${s.runNumber(run.issue, run.run)} · ${PHASE_TEXT[run.phase]}`));
  out.push('');
  if (run.followUp)
    out.push(
      `Follow-up ${run.followUp.k} on pull request #${run.followUp.pull} (continues run ${run.followUp.fromRun}, which this comment showed before: ${s.link(
        'its report',
        links.stateFile(`${runFolder(run.issue, run.followUp.fromRun)}/report.md`),
      )}): new commits go on \`${run.followUp.branch}\`, and the critic judges every criterion again.`,
      '',
    );
}

/** The plan's progress, its summary, and the questions it was planned without. */
function planLines(out: string[], view: RunView, plan: Plan, s: Surface): void {
  const inert = s.modelText;
  const done = [...view.tasks.values()].filter((t) => t.status === 'success').length;
  out.push(`\`${progressBar(done, plan.tasks.length)}\` tasks done`);
  out.push('');
  out.push(`> ${inert(plan.summary.replace(/\n+/g, ' '))}`);
  out.push('');
  if (plan.openQuestions?.length) {
    out.push(
      s.warning(`${s.bold('Planned without answers.')} crew asked as often as it may, and these questions are still open, so the plan rests on assumptions:`, [
        ...plan.openQuestions.map((q, i) => `${i + 1}. ${inert(cell(q))}`),
        `If an assumption is wrong, ${s.give('abort')}, add the answer to the issue, and ${s.give('run')} again.`,
      ]),
    );
    out.push('');
  }
  // The latest attempt's own job log and trajectory (docs/trajectories.md): a column once any task has them.
}

/** The tasks' table, their parallel attempts, the diagram and the critical path. */
function taskLines(out: string[], view: RunView, plan: Plan, links: PlanLinks, s: Surface): void {
  const inert = s.modelText;
  const seen = plan.tasks.some((t) => view.tasks.get(t.id)?.links);
  out.push(`| Task | Persona | Model | Depends on | Status | Branch | Attempts |${seen ? ' Latest attempt |' : ''}`);
  out.push(`|---|---|---|---|---|---|---|${seen ? '---|' : ''}`);
  for (const t of plan.tasks) {
    const rec = view.tasks.get(t.id);
    const branch = rec?.branch && rec.status !== 'pending' ? s.link(rec.branch, links.branch(rec.branch), true) : '–';
    const status = rec?.replacedBy
      ? `↪ replaced by ${rec.replacedBy.join(', ')}`
      : rec?.accepted
        ? `${STATUS_TEXT[rec.status]} (accepted as is)`
        : STATUS_TEXT[rec?.status ?? 'pending'];
    const tier = rec?.tierOverride ? `${t.tier} → ${rec.tierOverride}` : t.tier;
    const latest = [rec?.links?.log ? s.link('log', rec.links.log) : null, rec?.links?.trajectory ? s.link('trajectory', rec.links.trajectory) : null]
      .filter(Boolean)
      .join(' · ');
    out.push(
      `| ${s.bold(t.id)} ${inert(cell(t.title))} | ${t.persona} | ${tier} | ${t.dependsOn.join(', ') || '–'} | ${status} | ${branch} | ${rec?.attempts ?? 0} |${seen ? ` ${latest || '–'} |` : ''}`,
    );
  }
  // Fewer parallel attempts than asked for (#50), then each task's candidates, their results, the one kept and why.
  const cut = attemptsCutLines(view);
  if (cut.length) out.push('', ...cut.map((l) => `- ${l}`));
  const attempts = runSelectionLines(view, s, links.branch);
  out.push(...attempts);
  out.push('');
  const diagram = s.diagram(mermaidSource(view));
  if (diagram) out.push(diagram);
  const cp = criticalPath(plan);
  out.push(
    s.small(
      `${waves(plan).length} wave${waves(plan).length === 1 ? '' : 's'} · critical path ${cp.path.join(' → ')} (${cp.length} step${cp.length === 1 ? '' : 's'})`,
    ),
  );
  out.push('');
}

/** The done criteria as the critic last judged them. */
function criteriaLines(out: string[], view: RunView, plan: Plan, s: Surface): void {
  const { run } = view;
  const inert = s.modelText;
  const review = run.review;
  out.push(
    review?.iteration
      ? `${s.bold('Done criteria')} · critic: ${review.verdict === 'PASS' ? '✅ PASS' : '❌ FAIL'} (iteration ${review.iteration}${review.acceptedBy ? `, accepted by @${review.acceptedBy}` : ''})`
      : s.bold('Done criteria'),
  );
  for (const c of plan.criteria) {
    const met = review?.met[c.id];
    out.push(
      s.checkbox(
        met === true,
        `${inert(describeCriterion(c).replace(/\n+/g, ' '))}${met === false ? ' ❌' : met === null ? ' ⚠️ could not be evaluated' : ''}`,
      ),
    );
  }
  if (run.phase === 'EXECUTING' && review?.rerun.length) {
    out.push('');
    out.push(`The critic sent ${review.rerun.join(', ')} back with its reasons; it judges again once they finish.`);
  }
}

/** What limits the run: budgets, images, MCP servers, the sandbox, rate limits, failovers, spend, CI fixes, an interruption. */
function noticeLines(out: string[], view: RunView, links: PlanLinks, s: Surface): void {
  const { run, plan } = view;
  const inert = s.modelText;
  const limits = limitLines(view, s, links);
  if (limits.length) out.push('', ...limits);
  const notLoaded = [
    ...(run.imagesNotLoaded ?? []).map((line) => ({ by: 'the planner', line })),
    ...[...view.tasks].flatMap(([id, t]) => (t.imagesNotLoaded ?? []).map((line) => ({ by: id, line }))),
  ];
  const images = imageLines(run.images ?? [], plan?.tasks ?? [], s, notLoaded);
  if (images.length) out.push('', ...images);
  const mcp = mcpLines(view, inert);
  if (mcp.length) out.push('', s.warning(`${s.bold('MCP servers')}: the run goes on without them.`, mcp));
  const warnings = [...new Set([...view.tasks.values()].map((t) => t.sandboxWarning).filter((w): w is string => !!w))];
  for (const w of warnings) {
    out.push('');
    out.push(s.warning(`Sandbox: ${w}.`));
  }
  for (const n of run.rateLimited ?? []) {
    out.push('');
    out.push(rateLimitLine(n));
  }
  for (const line of failoverLines(run.failovers ?? [], s)) {
    out.push('');
    out.push(s.warning(line));
  }
  if (run.spendWarning) out.push('', s.warning(spendWarningLine(run.spendWarning)));
  const ciFixes = renderFixCiAttempts(run.fixCi, s);
  if (ciFixes.length) out.push('', ...ciFixes);
  if (run.phase === 'INTERRUPTED') {
    out.push('');
    out.push(`${s.bold('Interrupted')} — ${s.command('resume')} to continue. The workflow run was cancelled; work done so far is saved on the task branches.`);
  }
}

/** What the run waits for, and which commands answer it. */
function waitingLines(out: string[], view: RunView, links: PlanLinks, s: Surface): void {
  const { run } = view;
  const inert = s.modelText;
  if (run.waiting?.kind === 'verdict') {
    out.push('');
    out.push(
      `${s.bold('Waiting for your decision')} on the critic's FAIL (${s.commentLink('what it found', links.comment(run.issue, run.waiting.commentId))}): ${s.command('retry')}, ${s.command('accept')} or ${s.command('abort')}.`,
    );
  } else if (run.waiting?.kind === 'conflict') {
    out.push('');
    out.push(
      `${s.bold('Waiting for your decision')} on a merge conflict: ${run.waiting.task} in ${run.waiting.files.map((f) => inert(codeSpan(f))).join(', ')} (${s.commentLink('the hunks', links.comment(run.issue, run.waiting.commentId))}): ${s.command('retry')} or ${s.command('abort')}.`,
    );
  } else if (run.waiting?.kind === 'decision') {
    out.push('');
    out.push(
      `${s.bold('Waiting for your decision')} on ${run.waiting.task} (${s.commentLink('what crew asked', links.comment(run.issue, run.waiting.commentId))}): retry, accept as is, abort, or answer.`,
    );
  } else if (run.waiting?.kind === 'answer') {
    out.push('');
    out.push(
      `${s.bold('Waiting for your answer')} to ${s.commentLink("crew's questions", links.comment(run.issue, run.waiting.commentId))}. ${s.answerWhere}; nothing runs until then.`,
    );
  } else if (run.waiting?.kind === 'budget') {
    out.push('');
    out.push(budgetWaitLine(run.waiting, s, links.comment(run.issue, run.waiting.commentId)));
  } else if (run.waiting?.kind === 'approval') {
    out.push('');
    out.push(
      run.waiting.reason === 'review-failed'
        ? `${s.bold('The plan reviewer did not pass this plan')} (${s.commentLink('findings', links.comment(run.issue, run.waiting.commentId))}). ${s.command('approve')} runs it anyway; ${s.command('revise', '<feedback>')} plans again.`
        : `${s.bold(`Plan v${run.waiting.planVersion} waits for approval.`)} ${s.command('approve')} starts it; ${s.command('revise', '<feedback>')} plans again.`,
    );
  }
}

/** What the run produced: its pull request, its retrospective, or what went wrong. */
function outcomeLines(out: string[], view: RunView, links: PlanLinks, s: Surface): void {
  const { run } = view;
  const inert = s.modelText;
  if (run.pr) {
    out.push('');
    const merge = run.merge
      ? { merged: ' · ✅ merged by crew', waiting: ` · ⏳ not merged yet: ${run.merge.reason}`, 'not-merged': ` · not merged by crew: ${run.merge.reason}` }[
          run.merge.state
        ]
      : '';
    out.push(`${s.bold(`${s.resultName}:`)} ${run.pr.url}${merge}`);
  }
  if (run.retro) {
    out.push('');
    out.push(
      `${s.bold('Retrospective')} (${run.retro.mode}): ${s.retrospectiveAt(run.retro.url, links.stateFile(`${runFolder(run.issue, run.run)}/retrospective.md`))}`,
    );
  }
  if (run.retroAtBudget && !run.retro) {
    out.push('');
    out.push(
      `${s.bold('Retrospective')}: skipped at the run's budget (${s.commentLink('the note', run.retroAtBudget.url)})${s.name === 'github' ? `; ${s.command('continue', '[$N]')} writes it` : ''}.`,
    );
  }
  if (run.failure) {
    out.push('');
    out.push(
      `${s.bold('What went wrong')} (${run.failure.step}): ${inert(run.failure.message)}${run.phase === 'FAILED' && run.failure.resumeFrom ? ` · crew stopped in ${run.failure.resumeFrom}; ${s.give('resume')} to carry on from there.` : ''}`,
    );
  }
}

/** The usage, the estimate, the commands available now and who asked. */
function footerLines(out: string[], view: RunView, links: PlanLinks, s: Surface): void {
  const { run } = view;
  const u = totalUsage(view);
  out.push('');
  out.push(
    `${s.bold('Usage:')} ${u.inputTokens.toLocaleString('en-US')} input (${u.cacheReadTokens.toLocaleString('en-US')} from cache) · ${u.outputTokens.toLocaleString('en-US')} output tokens · about ${money(u.costUsd)}${minutesNote(view)}`,
  );
  if (run.estimate) out.push('', `${s.bold('Estimate:')} ${estimateText(run.estimate)}`);
  out.push('');
  out.push(s.commandsNow(run, commandsNow(run)));
  out.push('');
  out.push(
    s.small(`Requested by @${run.requestedBy} · ${s.link(s.runLogLabel, links.run)} · ${s.link('run files', links.stateFile(runFolder(run.issue, run.run)))}`),
  );
}

/**
 * The request's images (#36): each one read, with its hash and the tasks shown it, each one
 * refused, with why, and each one a later job could not load again (so its model did not see it). Sources are code spans: a refused URL must not become an image every reader fetches.
 */
export function imageLines(
  images: readonly ImageRecord[],
  tasks: readonly PlanTask[],
  s: Surface,
  notLoaded: ReadonlyArray<{ by: string; line: string }> = [],
): string[] {
  if (!images.length) return [];
  const read = images.filter(isRead);
  const refused = images.filter((r): r is Extract<ImageRecord, { refused: string }> => !isRead(r));
  const out = [s.bold(`Images`) + ` · ${read.length} read, ${refused.length} refused`];
  for (const r of read) {
    const shownTo = tasks.filter((t) => t.images?.includes(r.id)).map((t) => t.id);
    out.push(
      `- ${r.id}: ${codeSpan(r.source)} · ${r.mediaType.replace('image/', '').toUpperCase()} ${r.width}×${r.height} px · sha256 \`${r.sha256.slice(0, 16)}\`${shownTo.length ? ` · shown to ${shownTo.join(', ')}` : ''}`,
    );
  }
  for (const r of refused) out.push(`- refused: ${codeSpan(r.source)}: ${s.modelText(cell(r.refused))}`);
  // Read at planning, gone when a later job fetched it again: that model did not see it.
  for (const n of notLoaded) out.push(`- not shown to ${n.by}: ${s.modelText(cell(n.line))}`);
  return out;
}

/** The repository's MCP servers that failed a task's job (#36): what the run went on without. Their words are a server's, so inert. */
export function mcpLines(view: RunView, inert: (text: string) => string): string[] {
  const lines: string[] = [];
  for (const [id, t] of view.tasks) for (const n of t.mcpNotes ?? []) lines.push(`- ${id}: ${inert(n.replace(/\n+/g, ' '))}`);
  return lines;
}

/**
 * Tasks whose latest attempt reached a limit (#49): which one, and that the work is kept on the task's
 * branch, so nobody has to guess whether a budget ending lost anything.
 */
function limitLines(view: RunView, s: Surface, links: { branch(name: string): string }): string[] {
  const what = {
    max_turns: 'reached its turn limit (`worker_max_turns`)',
    budget: 'spent its budget (`budgets`)',
    loop: 'was stopped going round in circles (the same call with the same result five times)',
  } as const;
  return [...view.tasks.values()].flatMap((t) => {
    const l = t.limitReached;
    if (!l) return [];
    const files = l.files === 1 ? '1 file changed' : `${l.files} files changed`;
    const then = l.reported ? ', and it reported in its last turn' : '';
    const next = t.status === 'retrying' || t.status === 'running' || t.status === 'pending' ? ' The next attempt starts from it.' : '';
    return [
      `⏳ ${s.bold(t.id)}, attempt ${l.attempt}, ${what[l.limit]} after ${l.turns} turns${then}. Its work is kept: committed on ${s.link(t.branch, links.branch(t.branch), true)} (${files}).${next}`,
    ];
  });
}
