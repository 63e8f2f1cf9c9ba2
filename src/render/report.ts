import { describeCriterion } from '../domain/criteria';
import { acceptedAtBudgetBanner } from './budget-stop';
import { runRefusals, type Refusals } from '../domain/egress';
import { failingEvaluations, type Evaluation, type Judgment, type Quality, type RunStatus } from '../domain/judgment';
import { totalUsage, type MergeState, type RunView } from '../domain/run-state';
import { handPushed } from '../domain/follow-up';
import { describeOutcome, describeSite, describeVerdict } from '../domain/localisation';
// Not the folder's index, which brings the report parsers (fast-xml-parser) into every job that renders (docs/PERFORMANCE.md, "Cold start").
import { countsText, describeLost, type TestAccounting } from '../domain/test-results/accounting';
import { GITHUB, type Surface } from '../domain/surface';
import { inert } from '../text/inert';
import { estimateVsActual, minutesNote } from './cost';
import { cell, codeSpan, details, fence, hiddenMarker } from '../text/markdown';
import { failoverLines, mcpLines } from './plan-comment';
import { runSelectionLines } from './candidates';
import { renderFixCiAttempts } from './fix-ci';

export interface TaskResultText {
  id: string;
  summary: string;
  details: string;
}

/** How the run ended, as the report summary's front matter states it. */
export interface RunOutcome {
  status: RunStatus;
  quality: Quality;
  completeness: number;
  failedTasks: string[];
}

/** Model text on one line of crew's text (a list item, a quote): flattened first, so no fence spans lines. */
const lineFor = (s: Surface, text: string) => s.modelText(text.replace(/\s*\r?\n\s*/g, ' '));
/** The same in the report and the pull request body, which are markdown documents on every surface (report.md in a local run). */
const line = (text: string) => lineFor(GITHUB, text);
/** crew's own words on one line (the merge gate's reasons name the requester and reviewers): mentions stay mentions. */
const own = (text: string) => text.replace(/\s*\r?\n\s*/g, ' ');

export function reportMarker(issue: number, run: number): string {
  return hiddenMarker('report', { issue, run });
}

const mark = (e: Evaluation | undefined) => (!e ? '◻️' : e.met === true ? '✅' : e.met === false ? '❌' : '⚠️');
const verdictWord = (e: Evaluation) => (e.met === true ? 'met' : e.met === false ? 'not met' : `error: ${e.error ?? 'could not be evaluated'}`);

/** The tasks a pull request accepted at a budget's end leaves unfinished: stopped part way, or never started. */
const unfinishedAtBudget = (view: RunView) =>
  [...view.tasks.values()]
    .filter((t) => !t.replacedBy && t.status !== 'success')
    .map((t) => `${t.id} (${t.status === 'blocked' ? 'not started' : 'stopped part way'})`);

/** At the top of an accepted PR: which criteria failed, so nobody mistakes it for a PASS. */
function acceptedBanner(j: Judgment, acceptedBy: string): string[] {
  const failing = failingEvaluations(j);
  return [
    `> [!WARNING]`,
    `> @${acceptedBy} accepted this with \`/crew accept\` although the critic judged it **FAIL** (iteration ${j.iteration}). crew never merges an accepted pull request by itself.`,
    ...failing.map((e) => `> - ${mark(e)} **${e.criterion}** ${line(e.text)}: ${line(verdictWord(e))}`),
    ...j.adversarial.map((f) => `> - ❌ ${f.rule}: ${line(f.evidence)}`),
    '',
  ];
}

/**
 * What a reviewer must look at before merging: every adversarial finding (a lifecycle script npm
 * runs by itself, changed git attributes, a deleted test, …), as a checklist, and the hosts crew's
 * egress proxy refused to model-written code. A lifecycle script and a refused host do not fail the
 * critic (judgment.ts, forAPerson) but keep crew from merging; the others reach a PR only through
 * `/crew accept`.
 */
function lookBeforeMerging(j: Judgment | null, refused: Refusals): string[] {
  const egress = refusedLines(refused);
  if (!j?.adversarial.length && !egress.length) return [];
  return [
    '### ⚠️ Look at before merging',
    ...(j?.adversarial.length
      ? [
          "crew's adversarial checks found these in the change; each needs a person's review:",
          ...j.adversarial.map((f) => `- [ ] **${f.rule}**${f.file ? ` in \`${f.file}\`` : ''}: ${f.evidence}`),
        ]
      : []),
    ...egress,
    '',
  ];
}

/** How many refused hosts are named one by one; the rest are summed on one line. */
const LISTED_HOSTS = 20;

/**
 * The refused hosts, like Copilot's firewall warning: each with its count. A host name is the model's
 * choice (any CONNECT target), so each sits in a code span, and the list is bounded.
 */
export function refusedLines(refused: Refusals): string[] {
  const hosts = Object.entries(refused).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  if (!hosts.length) return [];
  const total = hosts.reduce((n, [, k]) => n + k, 0);
  const shown = hosts.slice(0, LISTED_HOSTS);
  const rest = hosts.slice(LISTED_HOSTS);
  return [
    `- [ ] **egress-refused**: model-written code (setup on a task's tree, or the agents' commands) asked for ${hosts.length} host${hosts.length === 1 ? '' : 's'} outside the allowlist, and crew's proxy refused ${total === 1 ? 'the request' : `all ${total} requests`}. If the repository needs one, add it to \`network.allow\` in \`.github/crew.yml\`; otherwise find out what asked for it.`,
    // `named (via allowed)` and `host (why)`: a request to an allowed host that named another site, or none (egress/proxy.ts).
    ...(hosts.some(([h]) => /\S \(/.test(h))
      ? [
          '  A request to an allowed host that named another site in its `Host` header or TLS server name (`… (via …)`), or named none, was refused whatever `network.allow` says: that is how code reaches another site on a CDN the allowed host shares.',
        ]
      : []),
    ...shown.map(([host, n]) => `  - ${codeSpan(host)}: ${n} request${n === 1 ? '' : 's'}`),
    ...(rest.length ? [`  - and ${rest.length} more host${rest.length === 1 ? '' : 's'} (${rest.reduce((n, [, k]) => n + k, 0)} requests)`] : []),
  ];
}

/** The report's own place for refused hosts (the pull request body has them under "Look at before merging"). */
function refusedSection(refused: Refusals): string[] {
  const lines = refusedLines(refused);
  return lines.length ? ['### ⚠️ Look at before merging', ...lines, ''] : [];
}

function mcpSection(view: RunView, inert: (text: string) => string): string[] {
  const lines = mcpLines(view, inert);
  return lines.length ? ['### MCP servers', 'The run went on without what these servers would have given:', ...lines, ''] : [];
}

const SOURCE = { comment: 'a comment', review: 'a review' } as const;

/** A follow-up's short section: which follow-up, what it added, and what the critic judged (crew's own words, no model text). */
function followUpLines(view: RunView): string[] {
  const f = view.run.followUp;
  if (!f) return [];
  const added = f.added.length ? `new criteria ${f.added.join(', ')}` : 'no new criteria';
  const threads = f.threads.length ? `; ${f.threads.length} review thread${f.threads.length === 1 ? '' : 's'} addressed` : '';
  return [
    `### Follow-up ${f.k}`,
    '',
    `Run ${view.run.run} continues run ${f.fromRun} on this pull request, ${f.source === 'ci' ? `started by a failed check (\`fix_ci\`) for @${view.run.requestedBy}` : `asked by @${view.run.requestedBy} in ${SOURCE[f.source]}`}: ${added}${threads}. The critic judged every criterion again, the earlier ones and the new ones. New commits went on top of the branch; nothing was force-pushed.`,
    ...(handPushed(f, view.run.base.sha)
      ? [
          '',
          `The branch had commits crew did not make (head ${view.run.base.sha.slice(0, 7)} when the follow-up started, crew's last was ${f.crewHead!.slice(0, 7)}): they were kept, and the earlier pass no longer counts for merging.`,
        ]
      : []),
    '',
  ];
}

/** The PR body: the summary, what each task did, the criteria with the critic's marks, and the closing keyword. */
export function renderPullBody(view: RunView, results: Map<string, TaskResultText>, judgment: Judgment | null, acceptedBy: string | null): string {
  const plan = view.plan!;
  const byId = new Map(judgment?.evaluations.map((e) => [e.criterion, e]));
  const lines = [
    ...(judgment && acceptedBy ? acceptedBanner(judgment, acceptedBy) : []),
    ...(acceptedBy && view.run.review?.acceptedAtBudget ? acceptedAtBudgetBanner(acceptedBy, unfinishedAtBudget(view)) : []),
    inert(plan.summary),
    '',
    '### What changed',
    ...plan.tasks
      .filter((t) => !view.tasks.get(t.id)?.replacedBy)
      .map((t) => `- **${t.id} ${line(t.title)}** — ${line(results.get(t.id)?.summary.split('\n')[0] ?? '(no summary)')}`),
    '',
    `### Done criteria${judgment ? ` (critic: ${judgment.verdict})` : ''}`,
    ...plan.criteria.map((c) => `- ${judgment ? `${mark(byId.get(c.id))} ` : ''}${line(describeCriterion(c))}`),
    '',
    ...lookBeforeMerging(judgment, runRefusals(view.tasks.values(), judgment)),
    ...followUpLines(view),
    // Into a person's pull request: merging adds these commits to their branch, and closes nothing.
    view.run.base.pull
      ? `Stacked on #${view.run.base.pull}: this pull request goes into its branch \`${view.run.base.branch}\`, which crew does not push to.`
      : `Closes #${view.run.issue}`,
    '',
    `<sub>Opened by crew (run ${view.run.run}, requested by @${view.run.requestedBy}). The full report is in the first comment.</sub>`,
    hiddenMarker('pr', { issue: view.run.issue, run: view.run.run }),
  ];
  return lines.join('\n');
}

/** The critic's judgment: one row per criterion, the evidence folded under it; worded and marked up for the surface it is shown on. */
export function renderJudgment(j: Judgment, s: Surface): string {
  const inert = s.modelText;
  const out = [
    s.heading(`Critic: ${j.verdict === 'PASS' ? '✅ PASS' : '❌ FAIL'} (iteration ${j.iteration}, ${j.headSha.slice(0, 7)})`),
    '',
    inert(j.overallReason),
    '',
    '| Criterion | Verdict | Confidence |',
    '|---|---|---|',
    ...j.evaluations.map(
      (e) =>
        `| ${mark(e)} ${s.bold(e.criterion)} ${inert(cell(e.text))} | ${inert(cell(verdictWord(e)))} | ${e.met === null ? '–' : e.confidence.toFixed(2)} |`,
    ),
    '',
  ];
  for (const e of j.evaluations) {
    if (!e.evidence.length) continue;
    const checked = e.verified?.length
      ? `\n\ncrew found the cited code in the tree: ${inert(e.verified.map((v) => `\`${v.replace(/`/g, "'")}\``).join(', '))}`
      : '';
    out.push(
      s.details(
        `Evidence for ${e.criterion}${e.verified?.length && e.met ? ' (citations verified)' : ''}`,
        `${inert(fence(e.evidence.join('\n\n')))}${checked}`,
      ),
      '',
    );
  }
  out.push(...renderTests(j.tests ?? [], s));
  out.push(...renderLocalisation(j, s));
  if (j.adversarial.length) out.push(s.bold('Adversarial checks found:'), ...j.adversarial.map((f) => `- ${f.rule}: ${lineFor(s, f.evidence)}`), '');
  else out.push('Adversarial checks (criteria unchanged; no deleted, skipped, weakened or hollow tests): nothing found.', '');
  if (j.suggestedNextAction) out.push(`${s.bold('Suggested next step:')} ${inert(j.suggestedNextAction)}`, '');
  return out.join('\n');
}

/**
 * Each command criterion's tests, base against head (#32): one line of counts per criterion, the lost
 * tests by name with their file and line, renames, flaky tests, and the fixed tests folded. Test names
 * are the repository's (or a model's) words: inert, in code spans.
 */
export function renderTests(tests: TestAccounting[], s: Surface): string[] {
  if (!tests.length) return [];
  const inert = s.modelText;
  const name = (t: string) => inert(codeSpan(t));
  const out = [`${s.bold('Tests, base against head')} (crew ran each command on the run's base and here, and compared the tests by name):`];
  for (const a of tests) {
    out.push(`- ${name(a.command)}: ${lineFor(s, countsText(a))}`);
    const renamed = new Set(a.renamed.map((r) => r.from));
    for (const l of a.lost.filter((x) => !renamed.has(x.test)))
      out.push(
        `  - ❌ lost: ${name(l.test)}${l.line ? ` (${name(`${l.file}:${l.line}`)}${l.lineOn === 'base' ? ' on the base' : ''})` : ''}: ${lineFor(s, describeLost(l).slice(l.test.length + 1))}`,
      );
    if (a.more?.lost) out.push(`  - and ${a.more.lost} more lost`);
    for (const r of a.renamed) out.push(`  - renamed (the critic named its replacement): ${name(r.from)} → ${name(r.to)}`);
    for (const f of a.flaky) out.push(`  - ⚠️ flaky: ${name(f)} failed here, passed when run again, and passed on the base`);
  }
  const fixed = tests.filter((a) => a.fixed.length);
  if (fixed.length)
    out.push(
      '',
      s.details(
        `Fixed: tests that failed or did not exist on the base and pass here (${fixed.reduce((n, a) => n + (a.counts?.fixed ?? 0), 0)})`,
        fixed
          .map((a) => [`${name(a.command)}:`, ...a.fixed.map((f) => `- ${name(f)}`), ...(a.more?.fixed ? [`- and ${a.more.fixed} more`] : [])].join('\n'))
          .join('\n\n'),
      ),
    );
  out.push('');
  return out;
}

/** Where each failed command's failure comes from: crew's own runs on the base and the task branches, a table per criterion. */
export function renderLocalisation(j: Pick<Judgment, 'localisation'>, s: Surface): string[] {
  const inert = s.modelText;
  const out: string[] = [];
  for (const l of j.localisation ?? []) {
    out.push(
      `${s.bold(`Where ${l.criterion} fails`)} (crew re-ran ${inert(codeSpan(l.command))} in the sandbox; no model involved): ${lineFor(s, describeOutcome(l))}.`,
      '',
    );
    out.push('| Task | What ran | Exit code | Verdict |', '|---|---|---|---|');
    for (const r of l.runs) {
      const task = r.site.kind === 'base' ? '–' : r.site.task;
      const exit = r.timedOut ? 'timed out' : (r.exitCode ?? '–');
      out.push(`| ${task} | ${inert(cell(`${l.command} on ${describeSite(r.site, l.base ?? '')}`))} | ${exit} | ${inert(cell(describeVerdict(r)))} |`);
    }
    if (!l.runs.length) out.push('| – | nothing: there was no time left | – | – |');
    out.push('');
  }
  return out;
}

function earlierRounds(judgments: Judgment[]): string[] {
  const rounds = judgments.filter((j) => j.localisation?.length);
  if (!rounds.length) return [];
  const body = rounds
    .map((j) => [`**Iteration ${j.iteration}: ${j.verdict}** (${j.headSha.slice(0, 7)})`, '', ...renderLocalisation(j, GITHUB)].join('\n'))
    .join('\n');
  return [details(`Earlier rounds: where the failures came from (${rounds.length})`, body), ''];
}

/** The full report: the critic's judgment, then one folded section per task, with its changed files and usage. */
export interface ReportOptions {
  /** Things that went wrong on the way that the reader should know (e.g. a label crew could not add). */
  notes?: string[];
  /** The run ended without a pull request (failed or aborted): why, in crew's own words (never model text), shown at the top instead of a Merge section. */
  ended?: string;
  /** The critic's earlier rounds: where they found a failed command's cause is shown below the last judgment. */
  earlier?: Judgment[];
}

export function renderReport(
  view: RunView,
  results: Map<string, TaskResultText>,
  links: { stateFile(path: string): string; run?: string },
  judgment: Judgment | null,
  acceptedBy: string | null,
  opts: ReportOptions = {},
): string {
  const plan = view.plan!;
  const total = totalUsage(view);
  const out = [
    reportMarker(view.run.issue, view.run.run),
    `## crew report · issue #${view.run.issue} · run ${view.run.run}`,
    '',
    // crew's own words (task ids, the login of the person who aborted): a mention of that person stays a mention.
    ...(opts.ended ? ['> [!CAUTION]', `> ${own(opts.ended)}`, ''] : []),
    ...(judgment && acceptedBy ? acceptedBanner(judgment, acceptedBy) : []),
    ...(acceptedBy && view.run.review?.acceptedAtBudget ? acceptedAtBudgetBanner(acceptedBy, unfinishedAtBudget(view)) : []),
    ...followUpLines(view),
    inert(plan.summary),
    '',
    ...(judgment ? [renderJudgment(judgment, GITHUB)] : []),
    ...earlierRounds(opts.earlier ?? []),
    ...refusedSection(runRefusals(view.tasks.values(), judgment)),
    ...mcpSection(view, inert),
    '### Tasks',
    '',
    '| Task | Status | Turns | Files changed | Tokens in / out |',
    '|---|---|---|---|---|',
  ];
  for (const t of plan.tasks) {
    const rec = view.tasks.get(t.id);
    out.push(
      `| **${t.id}** ${inert(cell(t.title))} | ${rec?.replacedBy ? `replaced by ${rec.replacedBy.join(', ')}` : (rec?.status ?? 'pending')} | ${rec?.turns ?? 0} | ${rec?.changedFiles.length ?? 0} | ${(rec?.usage.inputTokens ?? 0).toLocaleString('en-US')} / ${(rec?.usage.outputTokens ?? 0).toLocaleString('en-US')} |`,
    );
  }
  out.push('');
  // A task's parallel attempts (#50): each candidate's result and failing tests, the one kept and why (or that none was).
  const attempts = runSelectionLines(view, GITHUB);
  if (attempts.length) out.push(...attempts.slice(1), '');
  for (const t of plan.tasks) {
    const rec = view.tasks.get(t.id);
    const r = results.get(t.id);
    // Each piece of model text is made inert on its own, so a fence one leaves open cannot reach the next.
    const body = [
      inert(r?.summary ?? '(no summary)'),
      r?.details ? `\n${inert(r.details)}` : '',
      rec?.changedFiles.length ? `\n**Files:** ${rec.changedFiles.map((f) => inert(codeSpan(f))).join(', ')}` : '',
    ].join('\n');
    out.push(details(`${t.id} · ${inert(t.title.replace(/\s+/g, ' '), 'html')} — ${rec?.status ?? 'pending'}`, body.trim()));
    out.push('');
  }
  out.push(...agentRunLinks(view, links.run));
  if (opts.notes?.length) out.push('**Problems on the way:**', ...opts.notes.map((n) => `- ⚠️ ${line(n)}`), '');
  // Where a provider hit its limits and the run went on elsewhere: part of how the result came about.
  const failovers = failoverLines(view.run.failovers ?? []);
  if (failovers.length) out.push(...failovers.map((l) => `> ${l}`), '');
  // CI failures on the pull request and what crew did about them (fix_ci).
  const ciFixes = renderFixCiAttempts(view.run.fixCi);
  if (ciFixes.length) out.push(...ciFixes, '');
  if (!opts.ended) out.push(renderMergeSection(view.run.merge), '');
  out.push(
    `**Total usage:** ${total.inputTokens.toLocaleString('en-US')} input · ${total.cacheReadTokens.toLocaleString('en-US')} from cache · ${total.outputTokens.toLocaleString('en-US')} output tokens · about $${total.costUsd.toFixed(2)}${minutesNote(view)}`,
  );
  const estimate = estimateVsActual(view);
  if (estimate) out.push('', estimate);
  out.push('');
  out.push(
    `<sub>The run's files, including every task's result and the critic's judgments, are on the [crew/state branch](${links.stateFile(`issue-${view.run.issue}/run-${view.run.run}`)}).</sub>`,
  );
  return out.join('\n');
}

const MERGE_START = '<!-- crew:merge -->';
const MERGE_END = '<!-- /crew:merge -->';

/** The report's merge section: merged, waiting (and for what), or why not. Replaced in place as the gate re-runs. */
export function renderMergeSection(m: MergeState | null): string {
  const text =
    m === null
      ? 'crew has not looked at merging yet.'
      : m.state === 'merged'
        ? `✅ Merged by crew as ${m.mergeSha?.slice(0, 7) ?? ''}${m.reason ? ` (${own(m.reason)})` : ''}.`
        : m.state === 'waiting'
          ? `⏳ Not merged yet: ${own(m.reason)}.`
          : `Not merged by crew: ${own(m.reason)}.`;
  return `${MERGE_START}\n### Merge\n\n${text}\n${MERGE_END}`;
}

export function replaceMergeSection(report: string, m: MergeState | null): string {
  const start = report.indexOf(MERGE_START);
  const end = report.indexOf(MERGE_END);
  if (start < 0 || end < start) return `${report}\n\n${renderMergeSection(m)}`;
  return report.slice(0, start) + renderMergeSection(m) + report.slice(end + MERGE_END.length);
}

const yamlString = (s: string) => JSON.stringify(s);

/**
 * report_summary.md (claude-crew): at most 50 lines, front matter first, for a reader
 * who will not open the full report (and for the retrospective's mode decision).
 */
export function renderReportSummary(view: RunView, outcome: RunOutcome, judgment: Judgment | null, meta: { generatedBy: string; date: string }): string {
  const plan = view.plan!;
  const head = [
    '---',
    `generated_by: ${yamlString(meta.generatedBy)}`,
    `date: ${yamlString(meta.date)}`,
    `run_id: ${yamlString(`issue-${view.run.issue}/run-${view.run.run}`)}`,
    `status: ${outcome.status}`,
    `quality: ${outcome.quality}`,
    `completeness: ${outcome.completeness}`,
    `failed_tasks: [${outcome.failedTasks.join(', ')}]`,
    `task_count: ${plan.tasks.filter((t) => !view.tasks.get(t.id)?.replacedBy).length}`,
    '---',
    `# Summary: issue #${view.run.issue}, run ${view.run.run}`,
    '',
    plan.summary.split('\n')[0]!.slice(0, 300),
    '',
  ];
  const criteria = judgment
    ? [
        `## Critic: ${judgment.verdict} (iteration ${judgment.iteration})`,
        ...judgment.evaluations.map((e) => `- ${mark(e)} ${e.criterion}: ${e.text.slice(0, 120)}`),
      ]
    : [];
  const tasks = ['## Tasks', ...plan.tasks.map((t) => `- ${t.id} ${t.title.slice(0, 80)}: ${view.tasks.get(t.id)?.status ?? 'pending'}`)];
  const room = 50 - head.length - 2;
  const body = [...criteria, '', ...tasks];
  const lines = body.length > room ? [...body.slice(0, room - 1), `- … ${body.length - room + 1} more lines in report.md`] : body;
  return [...head, ...lines].join('\n').trimEnd();
}

/**
 * Where every agent run of the run can be read (docs/trajectories.md): each task's latest attempt
 * (its job's log and its trajectory), and each workflow run whose jobs recorded agent runs, where
 * their artifacts are listed. `runPage` is a workflow run's page (this job's), from which the others' follow.
 */
function agentRunLinks(view: RunView, runPage: string | undefined): string[] {
  const lines: string[] = [];
  for (const t of view.plan?.tasks ?? []) {
    const l = view.tasks.get(t.id)?.links;
    const parts = [l?.log ? `[job log](${l.log})` : null, l?.trajectory ? `[trajectory](${l.trajectory})` : null].filter(Boolean);
    if (parts.length) lines.push(`- **${t.id}** (attempt ${view.tasks.get(t.id)!.attempts}): ${parts.join(' · ')}`);
  }
  const runs = new Map<string, Set<string>>();
  for (const j of view.jobs ?? []) {
    const id = /^(\d+)-/.exec(j.id)?.[1];
    if (id) runs.set(id, (runs.get(id) ?? new Set()).add(j.task ? `${j.step} ${j.task}` : j.step));
  }
  if (runPage && /\/\d+$/.test(runPage) && runs.size)
    lines.push(
      `- Every job's agent runs, as artifacts named \`crew-trajectories-${view.run.issue}-r${view.run.run}-…\`: ${[...runs]
        .map(([id, steps]) => `[${[...steps].join(', ')}](${runPage.replace(/\/\d+$/, `/${id}`)})`)
        .join(' · ')}`,
    );
  return lines.length ? ['### Agent runs', '', ...lines, ''] : [];
}
