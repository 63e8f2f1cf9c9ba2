import { describe, expect, it } from 'vitest';
import { newTaskRecord, type RunView } from '../../../src/domain/run-state';
import type { Plan } from '../../../src/domain/plan';
import { plan, view } from './run-fixtures';
import { renderPlanComment } from '../../../src/render/plan-comment';
import { renderJudgment, renderPullBody, renderReport, renderReportSummary } from '../../../src/render/report';
import { runOutcome, type Judgment } from '../../../src/domain/judgment';
import { FRESH_REVIEW } from '../../../src/domain/run-state';
import { helpComment } from '../../../src/render/messages';
import { GITHUB, terminalSurface } from '../../../src/domain/surface';

const links = {
  comment: (issue: number, id: number) => `https://github.test/acme/w/issues/${issue}#issuecomment-${id}`,
  branch: (b: string) => `https://github.test/acme/w/tree/${b}`,
  run: 'https://github.test/acme/w/actions/runs/1',
  stateFile: (p: string) => `https://github.test/acme/w/blob/crew/state/${p}`,
};

describe('the plan comment', () => {
  it('renders the status, table, DAG, criteria, usage and commands (snapshot)', () => {
    expect(renderPlanComment(view(['success', 'running', 'failure']), links, GITHUB)).toMatchSnapshot();
  });

  it('is a pure function of the state: same state, same text', () => {
    expect(renderPlanComment(view(['running', 'pending', 'running']), links, GITHUB)).toBe(
      renderPlanComment(view(['running', 'pending', 'running']), links, GITHUB),
    );
  });

  it('carries the run marker and the state version', () => {
    const body = renderPlanComment(view(['pending', 'pending', 'pending']), links, GITHUB);
    expect(body.startsWith('<!-- crew:plan issue=12 run=2 --><!-- crew:version v=7 -->')).toBe(true);
  });

  it('keeps model-written titles from breaking the table or the Mermaid graph', () => {
    const body = renderPlanComment(view(['success', 'running', 'failure']), links, GITHUB);
    expect(body).toContain('t1["t1 · Implement slugify core"]:::success');
    expect(body).toContain('| **t2** Test \\| slugify |');
  });

  it('says what the run waits for, with a link to the comment that asked', () => {
    const asking = renderPlanComment(
      view(['pending', 'pending', 'pending'], { phase: 'ESCALATING', waiting: { kind: 'answer', commentId: 5, questions: ['How fast?'] } }),
      links,
      GITHUB,
    );
    expect(asking).toContain("**Waiting for your answer** to [crew's questions](https://github.test/acme/w/issues/12#issuecomment-5)");
    expect(asking).toContain('`/crew answer <text>`');
    const approving = renderPlanComment(
      view(['pending', 'pending', 'pending'], { phase: 'AWAITING_APPROVAL', waiting: { kind: 'approval', commentId: 6, planVersion: 2, reason: 'requested' } }),
      links,
      GITHUB,
    );
    expect(approving).toContain('**Plan v2 waits for approval.**');
    expect(approving).toContain('`/crew approve` · `/crew revise <feedback>`');
  });

  it('says loudly when commands could not be sandboxed', () => {
    const v = view(['running', 'pending', 'pending']);
    v.tasks.get('t1')!.sandboxWarning = 'run_command was refused: no sandbox (crew is not root and has no passwordless sudo)';
    expect(renderPlanComment(v, links, GITHUB)).toContain(
      '> [!WARNING]\n> Sandbox: run_command was refused: no sandbox (crew is not root and has no passwordless sudo).',
    );
  });

  it('shows the planning state and failures', () => {
    const planning = renderPlanComment({ ...view([]), plan: null, tasks: new Map(), run: { ...view([]).run, phase: 'PLANNING' } }, links, GITHUB);
    expect(planning).toContain('🧭 Planning');
    expect(planning).toContain('Reading the issue');
    const failed = renderPlanComment(
      view(['failure', 'blocked', 'success'], { phase: 'FAILED', failure: { step: 'the tasks', message: '1 task(s) did not succeed' } }),
      links,
      GITHUB,
    );
    expect(failed).toContain('❌ Failed');
    expect(failed).toContain('**What went wrong** (the tasks): 1 task(s) did not succeed');
    expect(failed).toContain('`/crew run`');
    expect(failed).not.toContain('/crew resume');
    // crew itself failed while finishing: the comment says where, and offers /crew resume first.
    const crashed = renderPlanComment(
      view(['success', 'success', 'success'], {
        phase: 'FAILED',
        failure: { step: 'opening the pull request', message: 'GitHub refused', resumeFrom: 'REVIEWING' },
      }),
      links,
      GITHUB,
    );
    expect(crashed).toContain(
      '**What went wrong** (opening the pull request): GitHub refused · crew stopped in REVIEWING; comment `/crew resume` to carry on from there.',
    );
    expect(crashed).toContain('**Commands now:** `/crew resume` · `/crew retry [task]`');
  });

  it('says when a job went on with the fallback provider: from where, to where, why, and which jobs', () => {
    const note = { at: '2026-11-25T12:03:09Z', from: 'the Anthropic API', to: 'Amazon Bedrock (us-east-1)', reason: 'overloaded (529 overloaded_error)' };
    const body = renderPlanComment(
      view(['success', 'running', 'pending'], {
        failovers: [
          { ...note, job: 'the route job' },
          { ...note, at: '2026-11-25T12:05:00Z', job: 'the worker of t1' },
          { ...note, at: '2026-11-25T12:06:00Z', job: 'the worker of t1' },
          { ...note, from: 'Amazon Bedrock (us-east-1)', to: 'the Anthropic API', reason: 'rate-limited (429 ThrottlingException)', job: 'the critic job' },
        ],
      }),
      links,
      GITHUB,
    );
    expect(body).toContain(
      '> [!WARNING]\n> **Model failover:** The Anthropic API was overloaded (529 overloaded_error) past its retries (first at 12:03 UTC), so the route job and the worker of t1 went on with Amazon Bedrock (us-east-1) (`fallback_provider`).',
    );
    expect(body).toContain(
      '> [!WARNING]\n> **Model failover:** Amazon Bedrock (us-east-1) was rate-limited (429 ThrottlingException) past its retries (first at 12:03 UTC), so the critic job went on with the Anthropic API (`fallback_provider`).',
    );
    expect(renderPlanComment(view(['success', 'running', 'pending']), links, GITHUB)).not.toContain('failover');
  });

  it('adds planning and task usage together', () => {
    expect(renderPlanComment(view(['success', 'success', 'success']), links, GITHUB)).toContain(
      '**Usage:** 2,500 input (1,200 from cache) · 250 output tokens · about $0.0090',
    );
  });
});

describe('the PR body and the report', () => {
  const results = new Map(plan.tasks.map((t) => [t.id, { id: t.id, summary: `did ${t.id}\nsecond line`, details: t.id === 't2' ? 'extra notes' : '' }]));
  it('closes the issue and summarises each task (snapshot)', () => {
    const body = renderPullBody(view(['success', 'success', 'success']), results, null, null);
    expect(body).toContain('Closes #12');
    expect(body).toMatchSnapshot();
  });

  it('says in the report where the run went on when a provider hit its limits', () => {
    const failovers = [
      {
        at: '2026-11-25T12:03:09Z',
        from: 'Vertex AI (acme, global)',
        to: 'the Anthropic API',
        reason: 'rate-limited (429 RESOURCE_EXHAUSTED)',
        job: 'the worker of t2',
      },
    ];
    const report = renderReport(view(['success', 'success', 'success'], { failovers }), results, links, null, null);
    expect(report).toContain(
      '> **Model failover:** Vertex AI (acme, global) was rate-limited (429 RESOURCE_EXHAUSTED) past its retries (first at 12:03 UTC), so the worker of t2 went on with the Anthropic API (`fallback_provider`).',
    );
  });

  it('folds each task’s result (snapshot)', () => {
    const report = renderReport(view(['success', 'success', 'success']), results, links, null, null);
    expect(report).toContain('<details><summary>t2 · Test | slugify — success</summary>');
    expect(report).toContain('extra notes');
    expect(report).toMatchSnapshot();
  });
});

describe("the critic's judgment in the PR, the report, the summary and the plan comment", () => {
  const results = new Map(plan.tasks.map((t) => [t.id, { id: t.id, summary: `did ${t.id}`, details: '' }]));
  const judgment: Judgment = {
    iteration: 2,
    headSha: 'b'.repeat(40),
    verdict: 'FAIL',
    evaluations: [
      {
        criterion: 'c1',
        text: 'The tests pass',
        kind: 'command',
        met: false,
        evidence: ['`npm test` exited with 1', 'not ok 3 - slugify drops accents'],
        confidence: 1,
        tasks: ['t2'],
      },
      { criterion: 'c2', text: 'README lists slugify', kind: 'semantic', met: true, evidence: ['README.md:12 `slugify(text)`'], confidence: 0.9, tasks: [] },
    ],
    adversarial: [{ rule: 'skipped-test', evidence: 'test/slug.test.js:4 skips or narrows tests: `it.skip(...)`', file: 'test/slug.test.js', line: 4 }],
    overallReason: 'The tests fail and one is skipped.',
    suggestedNextAction: 'Fix accent handling and unskip the test.',
    at: '2026-11-21T00:05:00Z',
  };

  it('an accepted FAIL says so at the top of the PR and the report, with each failing criterion', () => {
    const v = view(['success', 'success', 'success']);
    const body = renderPullBody(v, results, judgment, 'lead');
    expect(body.split('\n')[0]).toBe('> [!WARNING]');
    expect(body).toContain('@lead accepted this with `/crew accept` although the critic judged it **FAIL** (iteration 2)');
    expect(body).toContain('> - ❌ **c1** The tests pass: not met');
    expect(body).toContain('> - ❌ skipped-test: test/slug.test.js:4');
    expect(body).toContain('- ✅ README lists slugify');
    // What a reviewer must look at, as a checklist above the closing keyword.
    expect(body).toContain(
      "### ⚠️ Look at before merging\ncrew's adversarial checks found these in the change; each needs a person's review:\n- [ ] **skipped-test** in `test/slug.test.js`: test/slug.test.js:4 skips or narrows tests: `it.skip(...)`\n\nCloses #",
    );
    const report = renderReport(v, results, links, judgment, 'lead');
    expect(report).toContain('### Critic: ❌ FAIL (iteration 2, bbbbbbb)');
    expect(report).toContain('<details><summary>Evidence for c1</summary>');
    expect(report).toContain('not ok 3 - slugify drops accents');
  });

  it('is shown at a terminal as plain text, worded for it, and on GitHub as the report shows it', () => {
    const withModelText: Judgment = { ...judgment, overallReason: 'Ask @octocat; <b>tests</b> fail. Fixes #3' };
    const md = renderJudgment(withModelText, GITHUB);
    expect(renderReport(view(['success', 'success', 'success']), results, links, withModelText, null)).toContain(md);
    expect(md).toContain('Ask <code>@octocat</code>; &lt;b>tests&lt;/b> fail. Fixes issue #3');
    const text = renderJudgment(withModelText, terminalSurface(12));
    expect(text.split('\n')[0]).toBe('Critic: ❌ FAIL (iteration 2, bbbbbbb)');
    expect(text).toContain('| ❌ c1 The tests pass | not met | 1.00 |');
    expect(text).toContain('▸ Evidence for c1\n\n```\n`npm test` exited with 1');
    expect(text).toContain('Adversarial checks found:\n- skipped-test: test/slug.test.js:4');
    expect(text).toContain('Suggested next step: Fix accent handling and unskip the test.');
    // Model text reads as the model wrote it: nothing at a terminal mentions, fetches or closes anything.
    expect(text).toContain('Ask @octocat; <b>tests</b> fail. Fixes #3');
    expect(text).not.toMatch(/\*\*|<details|<summary|<sub>|^#/m);
  });

  it('a PASS shows no banner and marks every criterion met', () => {
    const pass: Judgment = { ...judgment, verdict: 'PASS', adversarial: [], evaluations: judgment.evaluations.map((e) => ({ ...e, met: true })) };
    const body = renderPullBody(view(['success', 'success', 'success']), results, pass, null);
    expect(body).not.toContain('[!WARNING]');
    expect(body).not.toContain('Look at before merging');
    expect(body).toContain('### Done criteria (critic: PASS)');
    expect(body).toContain('- ✅ The tests pass (`npm test`)');
    expect(renderReport(view(['success', 'success', 'success']), results, links, pass, null)).toContain('nothing found');
  });

  it('report_summary.md has the front matter and stays within 50 lines however many tasks there are', () => {
    const v = view(['success', 'failure', 'success']);
    const summary = renderReportSummary(v, runOutcome(v, judgment, false), judgment, { generatedBy: 'crew v0.1.0', date: '2026-11-21' });
    expect(summary.split('\n').slice(0, 10)).toEqual([
      '---',
      'generated_by: "crew v0.1.0"',
      'date: "2026-11-21"',
      'run_id: "issue-12/run-2"',
      'status: failure',
      'quality: RED',
      'completeness: 50',
      'failed_tasks: [t2]',
      'task_count: 3',
      '---',
    ]);
    const many: Plan = { ...plan, tasks: Array.from({ length: 60 }, (_, i) => ({ ...plan.tasks[0]!, id: `t${i + 1}`, title: `Task ${i + 1}` })) };
    const big: RunView = { ...v, plan: many, tasks: new Map(many.tasks.map((t) => [t.id, newTaskRecord(t.id, 'b')])) };
    const long = renderReportSummary(big, runOutcome(big, judgment, false), judgment, { generatedBy: 'crew v0.1.0', date: '2026-11-21' });
    expect(long.split('\n').length).toBeLessThanOrEqual(50);
    expect(long).toContain('more lines in report.md');
  });

  it('the plan comment ticks the criteria the critic found met and asks for a decision on a standing FAIL', () => {
    const v = view(['success', 'success', 'success'], {
      phase: 'ESCALATING',
      review: { ...FRESH_REVIEW, iteration: 3, verdict: 'FAIL', met: { c1: false, c2: true } },
      waiting: { kind: 'verdict', commentId: 3_000_000_009, iteration: 3 },
    });
    const text = renderPlanComment(v, links, GITHUB);
    expect(text).toContain('**Done criteria** · critic: ❌ FAIL (iteration 3)');
    expect(text).toContain('- [ ] The tests pass (`npm test`) ❌');
    expect(text).toContain('- [x] README lists slugify');
    expect(text).toContain("**Waiting for your decision** on the critic's FAIL");
  });
});

describe('help', () => {
  it('lists every command this version answers', () => {
    const body = helpComment('zap');
    expect(body).toContain('crew does not know the command `/crew zap`.');
    for (const usage of ['/crew run [--attempts N]', '/crew approve', '/crew retro', '/crew remember <n>']) expect(body).toContain(`| \`${usage}\` |`);
    expect(body).not.toContain('Not available in this version yet');
  });
});
