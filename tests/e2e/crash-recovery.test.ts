import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { RunRecord } from '../../src/domain/run-state';
import type { Script } from '../support/anthropic/script';
import { crewComments, expectFaithful, play } from './helpers';

const stateFile = async (gh: { repo: { readFile(ref: string, path: string): Promise<string | undefined> } }, path: string) => gh.repo.readFile('refs/heads/crew/state', path);

describe('crew failing outside the tasks carries on from where it stopped', () => {
  it('a 403 on opening the PR, then a GitHub fault while finishing: /crew resume and /crew retry each carry on, without judging again; the huge report is folded', async () => {
    const longLog = Array.from({ length: 2500 }, (_, i) => `check ${i}: ${'ok '.repeat(10)}`).join('\n');
    const got = { run: undefined as RunRecord | undefined, report: '', log: '', judgment2: undefined as string | undefined, summaries: [] as string[] };
    const r = await play('crash-resume', {
      edit: (s) => {
        const worker = (s.model as Script).entries.find((e) => e.role === 'worker')!;
        const input = (worker.replies[1]!.content as Array<{ input: { details: string } }>)[0]!.input;
        input.details += `\n## Full check log\n\n\`\`\`\n${longLog}\n\`\`\`\n`;
      },
      hooks: {
        onJobDone: (_run, job) => void (job.summary && got.summaries.push(job.summary)),
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
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.body).toContain('Closes #1');
    // The report comment is folded under GitHub's limit, keeps its Merge section, links the full report.md.
    const report = r.pulls[0]!.comments.find((c) => c.body.includes('<!-- crew:report'))!;
    expect(report.body.length).toBeLessThanOrEqual(65_536);
    expect(report.body).toContain('(shortened)</summary>');
    expect(report.body).toMatch(/\[the full text\]\(http:\/\/127\.0\.0\.1:\d+\/acme\/widgets\/blob\/crew\/state\/issue-1\/run-1\/report\.md\)/);
    expect(report.body).toContain('<!-- crew:merge -->\n### Merge\n\nNot merged by crew:');
    expect(report.body).not.toContain('check 2499:');
    expect(got.report).toContain('check 2499:');
    // The label crew could not add is in the report, not only in the log.
    expect(report.body).toContain('⚠️ crew could not add the label `crew` (from `pr_labels`) to this pull request');
    // The job summary carries the report.
    expect(got.summaries.some((s) => s.includes('## crew report · issue #1 · run 1') && s.includes('### Merge'))).toBe(true);
    // execution_log.yaml in the seed's schema, the phases next to the task.
    const log = YAML.parse(got.log);
    expect(log).toMatchObject({ cmd_id: 'issue-1/run-1', status: 'success' });
    expect(log.finished).toEqual(expect.any(String));
    expect(log.tasks.map((t: { role: string; status: string }) => `${t.role}:${t.status}`)).toEqual(['decomposer:success', 'worker_coder:success', 'critic:success', 'aggregator:success', 'retrospector:success']);
    expect(log.tasks[1]).toMatchObject({ id: 2, task: 't1', model: 'haiku', retries: 0, error: null, metadata_issues: [] });
    expect(log.tasks[1].duration_sec).toEqual(expect.any(Number));
  }, 180_000);
});
