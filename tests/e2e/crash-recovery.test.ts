import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { RunRecord } from '../../src/domain/run-state';
import type { Script } from '../support/anthropic/script';
import { crewComments, expectFaithful, play } from './helpers';

const stateFile = async (gh: { repo: { readFile(ref: string, path: string): Promise<string | undefined> } }, path: string) =>
  gh.repo.readFile('refs/heads/crew/state', path);

describe('crew failing outside the tasks carries on from where it stopped', () => {
  it('a 403 on opening the PR, then a GitHub fault while finishing: /crew resume and /crew retry each carry on, without judging again; an oversized report is bounded', async () => {
    const longLog = Array.from({ length: 2500 }, (_, i) => `check ${i}: ${'ok '.repeat(10)}`).join('\n');
    const got = {
      run: undefined as RunRecord | undefined,
      report: '',
      log: '',
      judgment2: undefined as string | undefined,
      summaries: [] as string[],
      judgments: [] as string[],
    };
    const r = await play('crash-resume', {
      edit: (s) => {
        const worker = (s.model as Script).entries.find((e) => e.role === 'worker')!;
        const report = worker.replies[1]!.content[0]!;
        if (report.type !== 'tool_use') throw new Error('the scenario changed: expected report_result');
        report.input.details += `\n## Full check log\n\n\`\`\`\n${longLog}\n\`\`\`\n`;
      },
      hooks: {
        onJobDone: (_run, job) => {
          if (job.summary) got.summaries.push(job.summary);
          got.judgments.push(...job.log.filter((l) => l.includes('critic: PASS at iteration')));
        },
        beforeClose: async ({ gh }) => {
          got.run = JSON.parse((await stateFile(gh, 'issue-1/run-1/run.json'))!) as RunRecord;
          got.report = (await stateFile(gh, 'issue-1/run-1/report.md')) ?? '';
          got.log = (await stateFile(gh, 'issue-1/run-1/execution_log.yaml')) ?? '';
          got.judgment2 = await stateFile(gh, 'issue-1/run-1/judgments/judgment_2.json');
        },
      },
    });
    expectFaithful(r);
    const stops = crewComments(r).filter((c) => c.body.startsWith('**crew stopped**'));
    expect(stops).toHaveLength(2);
    // 1. The 403: the setting to change, the branch kept, and the command that works.
    expect(stops[0]!.body).toContain('**crew stopped** during opening the pull request.');
    expect(stops[0]!.body).toContain('Allow GitHub Actions to create and approve pull requests');
    expect(stops[0]!.body).toContain('The integrated work is on branch `crew/1/r1/integration`');
    expect(stops[0]!.body).toContain('comment `/crew resume`');
    // 2. An unexpected error while finishing: the generic advice names /crew resume too.
    expect(stops[1]!.body).toContain('**crew stopped** during the critic step.');
    expect(stops[1]!.body).toContain('comment `/crew resume` to carry on from where the run stopped');
    // The run completed: one PR, judged once (the PASS on the same head stood through both resumes).
    expect(got.run).toMatchObject({ phase: 'COMPLETED', failure: null, review: { iteration: 1, verdict: 'PASS' } });
    expect(got.judgment2).toBeUndefined();
    // The PASS whose pull request could not be opened was recorded on its own: the two later jobs did not judge at all.
    expect(got.judgments).toHaveLength(1);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.body).toContain('Closes #1');
    // The worker's oversized report is bounded when crew takes it (a note says where it was cut), so the
    // report comment stays under GitHub's limit with its Merge section; folding a report that is still
    // too long (many tasks) is tested in tests/unit/crew/fold.test.ts and fit-bodies.test.ts.
    const report = r.pulls[0]!.comments.find((c) => c.body.includes('<!-- crew:report'))!;
    expect(report.body.length).toBeLessThanOrEqual(65_536);
    expect(report.body).toContain('<!-- crew:merge -->\n### Merge\n\nNot merged by crew:');
    expect(got.report).toContain('check 0:');
    expect(got.report).not.toContain('check 2499:');
    expect(got.report).toMatch(/\[cut: the details had [\d,]+ characters; the first 40,000 are kept\]/);
    // The label crew could not add is in the report, not only in the log.
    expect(report.body).toContain('⚠️ crew could not add the label `crew` (from `pr_labels`) to this pull request');
    // The job summary carries the report.
    expect(got.summaries.some((s) => s.includes('## crew report · issue #1 · run 1') && s.includes('### Merge'))).toBe(true);
    // execution_log.yaml in the seed's schema, the phases next to the task.
    const log = YAML.parse(got.log);
    expect(log).toMatchObject({ cmd_id: 'issue-1/run-1', status: 'success' });
    expect(log.finished).toEqual(expect.any(String));
    expect(log.tasks.map((t: { role: string; status: string }) => `${t.role}:${t.status}`)).toEqual([
      'decomposer:success',
      'worker_coder:success',
      'critic:success',
      'aggregator:success',
      'retrospector:success',
    ]);
    expect(log.tasks[1]).toMatchObject({
      id: 2,
      task: 't1',
      model: 'haiku',
      retries: 0,
      error: null,
      metadata_issues: ['details cut to 40,000 characters (the worker wrote 106,708)'],
    });
    expect(log.tasks[1].duration_sec).toEqual(expect.any(Number));
  }, 360_000);

  it('a question recorded but never posted is asked on the next reply or /crew resume; replies before it, edited or from a reader do not count; a second question waits its turn; an aborted run gets its report', async () => {
    let summary = '';
    let retroPrompt = '';
    let t1: { accepted: boolean } | undefined;
    const r = await play('unasked-questions', {
      hooks: {
        beforeClose: async ({ gh, anthropic }) => {
          summary = (await stateFile(gh, 'issue-1/run-1/report_summary.md')) ?? '';
          t1 = JSON.parse((await stateFile(gh, 'issue-1/run-1/tasks/task_t1.json'))!) as { accepted: boolean };
          retroPrompt = JSON.stringify(anthropic.requests.find((q) => q.role === 'retrospector')?.body.messages[0]);
        },
      },
    });
    expectFaithful(r);
    expect(r.jobs.filter((j) => j.killedAt).map((j) => `${j.name}@${j.killedAt}`)).toEqual(['crew / route@plan-recorded', 'crew / work (t1)@task-recorded']);
    const all = r.issue.comments;
    const after = (id: number) => all.filter((c) => c.id > id);
    const by = (text: string) => all.filter((c) => c.body.includes(text));
    // The approval request was never posted: the first /crew approve does not count, and crew posts the request.
    const approves = all.filter((c) => c.body === '/crew approve');
    expect(after(approves[0]!.id)[0]!.body).toContain('**Plan v1 is ready**');
    expect(by('crew had not posted its request to approve plan v1 yet when that reply came, so the reply does not count.')).toHaveLength(1);
    expect(by('**Plan v1 is ready**')).toHaveLength(1);
    expect(by('**Plan v1 is ready**')[0]!.id).toBeLessThan(approves[1]!.id);
    // t1's question was recorded but not posted; t2's waited behind it. A reader's reply is refused.
    expect(by('@reader, crew only takes commands from people with write access')).toHaveLength(1);
    const asked = crewComments(r).filter((c) => c.body.startsWith('**crew needs a decision**'));
    expect(asked.map((c) => /about (t\d)/.exec(c.body)?.[1])).toEqual(['t1', 't2']);
    // /crew resume posted t1's question; the /crew accept written before it does not count.
    const early = all.find((c) => c.body === '/crew accept' && c.author === 'maintainer')!;
    expect(early.id).toBeLessThan(asked[0]!.id);
    expect(after(asked[0]!.id).some((c) => c.body.startsWith('That reply was written before crew asked for a decision'))).toBe(true);
    expect(by('That reply was edited after it was posted, so crew did not take it.')).toHaveLength(1);
    expect(t1).toMatchObject({ accepted: true });
    // Aborted while t2's question was open: the run's report is on the issue, status failure, with a full retrospective.
    const report = crewComments(r).find((c) => c.body.includes('<!-- crew:report'))!;
    expect(report.body).toContain('> [!CAUTION]\n> @maintainer aborted the run, so crew opened no pull request.');
    expect(report.body).not.toContain('### Merge');
    expect(summary).toMatch(/^---\n[\s\S]*status: failure\n[\s\S]*failed_tasks: \[t1, t2\]\n/);
    expect(retroPrompt).toContain('Mode: full');
    expect(crewComments(r).some((c) => c.body.includes('<!-- crew:retro'))).toBe(true);
    expect(r.pulls).toEqual([]);
    expect(r.issue.labels).toEqual([]);
  }, 360_000);
});
