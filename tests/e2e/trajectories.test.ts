import { DefaultArtifactClient } from '@actions/artifact';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeArtifactService } from '../support/artifacts/fake-artifact-service';
import type { JobRun, WorkflowRun } from '../support/runner/workflow-runner';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play } from './helpers';

const CANARY = 'sk-ant-trajectory-canary-0123456789abcdef';

interface Line {
  agent: string;
  task: string | null;
  num_turns: number;
  usage: Record<string, number>;
  turns: Array<{
    content: Array<{ type: string; name?: string; input?: unknown; text?: string }>;
    tool_results: Array<{ exit_code?: number; content?: string }>;
  }>;
}

/** Downloads an artifact as a job would, through @actions/artifact and the fake's Twirp and blob endpoints. */
async function download(service: FakeArtifactService, gh: { serverUrl: string }, workflowRunId: number, id: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'crew-artifact-'));
  const saved = { ...process.env };
  Object.assign(process.env, service.jobEnv(workflowRunId, 'test-download'), { GITHUB_SERVER_URL: gh.serverUrl });
  try {
    await new DefaultArtifactClient().downloadArtifact(id, { path: dir });
    return await readFile(join(dir, 'trajectories.jsonl'), 'utf8');
  } finally {
    for (const k of ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL', 'GITHUB_RETENTION_DAYS', 'GITHUB_SERVER_URL']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await rm(dir, { recursive: true, force: true });
  }
}

/** A job summary's "Agent runs" table: each row's cells, and the total row. */
function summaryTable(summary: string): { rows: string[][]; total: number[] } | undefined {
  const at = summary.indexOf('### Agent runs');
  if (at < 0) return undefined;
  const lines = summary
    .slice(at)
    .split('\n')
    .filter((l) => l.startsWith('| '));
  const cells = lines.slice(1).map((l) => l.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, '').trim()));
  const total = cells.find((c) => c[0] === '**Total**')!;
  // Turns, input, output, cache read, cache write, cost.
  return { rows: cells.filter((c) => c[0] !== '**Total**'), total: total.slice(1, 7).map((c) => Number(c.replace(/[$,]/g, ''))) };
}

const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
  JSON.parse(execFileSync('cat', [join(PROJECT_ROOT, 'schema', 'trajectory.schema.json')]).toString()),
);

describe('trajectories: every agent run in the job log, the step summary and an artifact', () => {
  it('a two-task run: a group per turn, a table that adds up to the run, artifacts that parse, no secret, inert text, links to each job', async () => {
    const lines: Array<{ job: string; run: number; artifact: string; line: Line }> = [];
    const jobs: Array<{ run: WorkflowRun; job: JobRun }> = [];
    const jobIds = new Map<string, number>();
    let artifactBytes = '';
    let runUsage: Record<string, number> = {};
    const kept: Array<{ name: string; createdAt: string; expiresAt: string | null }> = [];
    const r = await play('trajectories', {
      // The default keep (full), with the artifacts' retention set: it reaches the artifact service.
      edit: (s) => {
        s.config = 'transcripts:\n  retention_days: 7\n';
      },
      hooks: {
        beforeClose: async ({ gh, runner, artifacts }) => {
          kept.push(...artifacts.artifacts);
          for (const run of runner.runs) for (const job of run.jobs) jobs.push({ run, job });
          for (const j of gh.workflowJobs.values()) jobIds.set(`${j.runId} ${j.name}`, j.id);
          for (const run of runner.runs)
            for (const a of artifacts.ofRun(run.id)) {
              const text = await download(artifacts, gh, run.id, a.id);
              artifactBytes += text;
              for (const l of text.split('\n').filter(Boolean)) {
                const json = JSON.parse(l) as Line;
                expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
                lines.push({ job: a.name, run: run.id, artifact: a.name, line: json });
              }
            }
          const state = JSON.parse((await gh.repo.readFile('crew/state', 'issue-1/run-1/run.json'))!) as { usage: Record<string, number> };
          const tasks = await Promise.all(
            ['t1', 't2'].map(
              async (t) => JSON.parse((await gh.repo.readFile('crew/state', `issue-1/run-1/tasks/task_${t}.json`))!) as { usage: Record<string, number> },
            ),
          );
          runUsage = [state.usage, ...tasks.map((t) => t.usage)].reduce(
            (a, u) => Object.fromEntries(Object.keys(u).map((k) => [k, (a[k] ?? 0) + u[k]!])),
            {} as Record<string, number>,
          );
        },
      },
    });
    expectFaithful(r);
    expect(r.artifacts.violations).toEqual([]);
    // Each artifact expires after transcripts.retention_days, as the library asked the service.
    expect(kept.length).toBeGreaterThanOrEqual(4);
    for (const a of kept) expect((Date.parse(a.expiresAt!) - Date.parse(a.createdAt)) / 86_400_000, a.name).toBeCloseTo(7, 1);

    // Each work job's log: one collapsible group per worker turn, with the tool calls in short form.
    for (const task of ['t1', 't2']) {
      const { job } = jobs.find((j) => j.job.name.endsWith(`work (${task})`))!;
      const groups = job.log.filter((l) => l.startsWith(`##[group]worker ${task} attempt 1 · turn `));
      expect(groups, task).toHaveLength(3);
      expect(job.log.filter((l) => l === '##[endgroup]').length).toBeGreaterThanOrEqual(3);
    }
    const t1Log = jobs.find((j) => j.job.name.endsWith('work (t1)'))!.job.log;
    expect(t1Log).toContain('→ read_file package.json');
    expect(t1Log.some((l) => /^→ run_command env; echo the-key-is/.test(l))).toBe(true);
    expect(t1Log.some((l) => /^ {2}← exit 0 · /.test(l))).toBe(true);
    expect(jobs.find((j) => j.job.name.endsWith('work (t2)'))!.job.log.some((l) => /^ {2}← exit 2 · /.test(l))).toBe(true);
    // A workflow command in model text stays text: no annotation came from it.
    expect(r.jobs.flatMap((j) => j.annotations).join('\n')).not.toContain('forged annotation');

    // The step summaries' tables: their totals add up to the run's usage, and to what the model API counted.
    const tables = jobs.map(({ job }) => summaryTable(job.summary)).filter((t) => t !== undefined);
    expect(tables.length).toBeGreaterThanOrEqual(4); // route, two work jobs, critic
    const sum = tables.reduce((a, t) => a.map((x, i) => x + t.total[i]!), [0, 0, 0, 0, 0, 0]);
    expect(sum.slice(1, 5)).toEqual([r.model.tokens.input, r.model.tokens.output, r.model.tokens.cacheRead, r.model.tokens.cacheWrite]);
    expect(sum.slice(1, 5)).toEqual([runUsage.inputTokens, runUsage.outputTokens, runUsage.cacheReadTokens, runUsage.cacheWriteTokens]);
    expect(sum[5]).toBeCloseTo(runUsage.costUsd!, 3);
    expect(sum[0]).toBe(r.model.requests);

    // The artifacts: one record per agent run, each worker's with every tool call the script made.
    const agents = lines.map((l) => `${l.line.agent}${l.line.task ? ` ${l.line.task}` : ''}`).sort();
    expect(agents).toEqual(expect.arrayContaining(['intake', 'plan_reviewer', 'planner', 'worker t1', 'worker t2']));
    expect(agents.filter((a) => a.startsWith('worker'))).toHaveLength(2);
    expect(lines.reduce((n, l) => n + l.line.num_turns, 0)).toBe(r.model.requests);
    const calls = (task: string) =>
      lines.find((l) => l.line.task === task)!.line.turns.flatMap((t) => t.content.filter((b) => b.type === 'tool_use').map((b) => [b.name, b.input]));
    expect(calls('t1')).toEqual([
      ['read_file', { path: 'package.json' }],
      ['run_command', { command: `env; echo the-key-is *** ${'$'}ANTHROPIC_API_KEY; node --version` }],
      ['write_file', { path: 'NOTES.md', content: '# Notes\n' }],
      ['report_result', expect.objectContaining({ status: 'success', summary: 'Added the file.' })],
    ]);
    expect(calls('t2').map((c) => c[0])).toEqual(['run_command', 'write_file', 'report_result']);
    const t2 = lines.find((l) => l.line.task === 't2')!.line;
    expect(t2.turns[0]!.tool_results[0]).toMatchObject({ exit_code: 2 });

    // No secret anywhere: not in the records, the logs or the summaries.
    expect(artifactBytes).toContain('the-key-is');
    expect(artifactBytes).not.toContain(CANARY);
    // The job's runtime token for the artifact service is crew's, never the tools': `env` in the sandbox does not show it.
    expect(artifactBytes).toContain('PATH=');
    expect(artifactBytes).not.toMatch(/ACTIONS_RUNTIME_TOKEN|ACTIONS_RESULTS_URL/);
    for (const { job } of jobs) {
      expect(job.rawLog.join('\n')).not.toContain(CANARY);
      expect(job.summary).not.toContain(CANARY);
    }
    // Model text is inert where the summary renders it.
    const t1Summary = jobs.find((j) => j.job.name.endsWith('work (t1)'))!.job.summary;
    expect(t1Summary).toContain('<code>@octocat</code>');
    expect(t1Summary).not.toMatch(/<img|!\[x\]|fixes #1/);

    // The plan comment links each task to its own job's log and its trajectory.
    const plan = crewComments(r)[0]!.body;
    for (const task of ['t1', 't2']) {
      const { run, job } = jobs.find((j) => j.job.name.endsWith(`work (${task})`))!;
      const row = plan.split('\n').find((l) => l.startsWith(`| **${task}**`))!;
      expect(row, task).toMatch(new RegExp(`\\[log\\]\\(http://[^)]*/actions/runs/${run.id}/job/${jobIds.get(`${run.id} ${job.name}`)}\\)`));
      expect(row, task).toMatch(new RegExp(`\\[trajectory\\]\\([^)]*/actions/runs/${run.id}/artifacts/\\d+\\)`));
    }
    // The report links every agent run: each task's job log and trajectory, and each workflow run whose jobs kept theirs.
    const report = r.pulls[0]!.comments.find((c) => c.body.includes('<!-- crew:report'))!.body;
    const section = report.slice(report.indexOf('### Agent runs'));
    expect(section).toMatch(/- \*\*t1\*\* \(attempt 1\): \[job log\]\([^)]+\/job\/\d+\) · \[trajectory\]\([^)]+\/artifacts\/\d+\)/);
    expect(section).toMatch(/- \*\*t2\*\* \(attempt 1\): \[job log\]/);
    for (const run of new Set(jobs.filter((j) => j.job.result === 'success').map((j) => j.run.id))) expect(section).toContain(`/actions/runs/${run})`);
  }, 240_000);

  it('transcripts: none uploads nothing and keeps only the step summary numbers', async () => {
    const jobs: JobRun[] = [];
    const r = await play('trajectories', {
      edit: (s) => {
        s.config = 'transcripts: none\n';
      },
      hooks: {
        beforeClose: async ({ runner }) => {
          for (const run of runner.runs) jobs.push(...run.jobs);
        },
      },
    });
    expectFaithful(r);
    expect(r.artifacts.uploaded).toEqual([]);
    for (const job of jobs) expect(job.log.filter((l) => l.startsWith('##[group]worker'))).toEqual([]);
    const tables = jobs.map((j) => summaryTable(j.summary)).filter((t) => t !== undefined);
    const sum = tables.reduce((a, t) => a.map((x, i) => x + t.total[i]!), [0, 0, 0, 0, 0, 0]);
    expect(sum.slice(1, 3)).toEqual([r.model.tokens.input, r.model.tokens.output]);
    expect(jobs.map((j) => j.summary).join('\n')).toContain('No trajectories were kept (`transcripts: none`)');
    expect(jobs.map((j) => j.summary).join('\n')).not.toContain('octocat');
  }, 240_000);
});
