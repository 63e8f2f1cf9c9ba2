import { afterEach, describe, expect, it } from 'vitest';
import { Octokit } from '@octokit/core';
import { startWorld, type World } from './helpers';
import { failure, fakeForTest, octokitFor, takeViolations } from '../fake-github/helpers';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const CI = `name: CI
on:
  workflow_dispatch:
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: echo "lint ok"
  test:
    runs-on: ubuntu-latest
    steps:
      - name: Prepare
        run: echo "preparing"
      - name: Run the tests
        run: |
          echo "FAIL tests/add.test.ts"
          echo "expected 3, got 4"
          exit 3
      - name: Never
        run: echo "not reached"
`;

const WATCHER = `name: watcher
on:
  workflow_run:
    workflows: [CI]
    types: [completed]
jobs:
  note:
    runs-on: ubuntu-latest
    outputs:
      seen: \${{ github.event.workflow.name }} \${{ github.event.workflow_run.conclusion }} \${{ github.event.workflow_run.id }}
    steps:
      - run: echo "seen"
`;

const OTHER = `name: other
on:
  workflow_run:
    workflows: [Deploy]
    types: [completed]
jobs:
  never:
    runs-on: ubuntu-latest
    steps:
      - run: echo "must not run"
`;

const repo = (w: World) => ({ owner: w.gh.owner, repo: w.gh.repoName });

describe('workflow_run and a job’s log', () => {
  it('a completed run sends workflow_run to the workflows that name it; the jobs API lists its jobs and the log answers 302 to another host, which Octokit follows without the token', async () => {
    world = await startWorld({
      files: { 'README.md': 'x\n', '.github/workflows/ci.yml': CI, '.github/workflows/watcher.yml': WATCHER, '.github/workflows/other.yml': OTHER },
    });
    await world.dispatch('ci.yml');
    await world.settle();
    const ci = world.runner.runs.find((r) => r.workflow === '.github/workflows/ci.yml')!;
    expect(world.runner.runs.map((r) => r.workflow).sort()).toEqual(['.github/workflows/ci.yml', '.github/workflows/watcher.yml']);
    const watcher = world.runner.runs.find((r) => r.workflow === '.github/workflows/watcher.yml')!;
    expect(watcher.event).toBe('workflow_run');
    expect(watcher.jobs[0]!.outputs.seen).toBe(`CI failure ${ci.id}`);

    // GitHub's own run record names the workflow.
    const reader = new Octokit({ baseUrl: world.gh.url, auth: world.gh.actionsToken({ actions: 'read' }), request: { retries: 0 } });
    expect((await reader.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}', { ...repo(world), run_id: ci.id })).data).toMatchObject({
      name: 'CI',
      conclusion: 'failure',
    });
    const { data } = await reader.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { ...repo(world), run_id: ci.id });
    // Parallel jobs: which one GitHub (and the runner) starts first is not fixed, so not their order.
    expect(data.jobs.map((j) => [j.name, j.conclusion]).sort()).toEqual([
      ['lint', 'success'],
      ['test', 'failure'],
    ]);
    const test = data.jobs.find((j) => j.name === 'test')!;
    expect(test.steps!.map((s) => [s.number, s.name, s.conclusion])).toEqual([
      [1, 'Prepare', 'success'],
      [2, 'Run the tests', 'failure'],
      [3, 'Never', 'skipped'],
    ]);
    expect(test.html_url).toBe(`${world.gh.url}/${world.gh.owner}/${world.gh.repoName}/actions/runs/${ci.id}/job/${test.id}`);

    const log = await reader.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { ...repo(world), job_id: test.id });
    const lines = String(log.data).trimEnd().split('\n');
    for (const l of lines) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z /);
    const text = lines.map((l) => l.slice(29));
    expect(text).toEqual([
      '##[group]Run Prepare',
      '##[endgroup]',
      'preparing',
      '##[group]Run Run the tests',
      '##[endgroup]',
      'FAIL tests/add.test.ts',
      'expected 3, got 4',
      '##[error]Process completed with exit code 3.',
      'Cleaning up orphan processes',
    ]);
    // The redirect went to the log host, which got no Authorization header.
    expect(world.gh.logDownloads).toEqual([{ jobId: test.id, status: 200, authorization: false }]);
    expect(world.gh.requests.filter((r) => r.route.endsWith('/logs')).map((r) => r.status)).toEqual([302]);
  });

  it('the log link is refused with a token on it, for another job, and once its minute is over; the API needs actions: read', async () => {
    // A minute at this scale is 1.2 s: room for the requests below on a busy machine.
    const gh = await fakeForTest({ timeScale: 0.02 });
    const job = (id: number) => ({
      id,
      runId: 8_000_000_001,
      name: 'test',
      headSha: 'a'.repeat(40),
      headBranch: 'main',
      workflowName: 'CI',
      status: 'completed' as const,
      conclusion: 'failure' as const,
      startedAt: gh.now(),
      completedAt: gh.now(),
      steps: [],
      log: `2026-11-27T10:00:00.0000000Z boom ${id}\n`,
    });
    gh.recordWorkflowJob(job(30_000_000_001));
    gh.recordWorkflowJob(job(30_000_000_002));
    const link = gh.jobLogLink(30_000_000_002);
    expect(new URL(link).origin).not.toBe(new URL(gh.url).origin);
    expect((await fetch(link, { headers: { authorization: 'token ghs_x' } })).status).toBe(400);
    expect((await fetch(link.replace('/job-logs/30000000002', '/job-logs/30000000001'))).status).toBe(403);
    const ok = await fetch(link);
    expect([ok.status, await ok.text()]).toEqual([200, '2026-11-27T10:00:00.0000000Z boom 30000000002\n']);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await fetch(link)).status).toBe(403);
    expect(gh.logDownloads.map((d) => [d.status, d.authorization])).toEqual([
      [400, true],
      [403, false],
      [200, false],
      [403, false],
    ]);

    const noActions = octokitFor(gh, gh.actionsToken({ contents: 'read' }));
    expect(
      (await failure(noActions.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { owner: gh.owner, repo: gh.repoName, job_id: 30_000_000_002 })))
        .status,
    ).toBe(403);
    const reader = octokitFor(gh, gh.actionsToken({ actions: 'read' }));
    expect(
      (await failure(reader.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { owner: gh.owner, repo: gh.repoName, job_id: 5 }))).status,
    ).toBe(404);
    expect(
      (await failure(reader.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { owner: gh.owner, repo: gh.repoName, run_id: 5 }))).status,
    ).toBe(404);
    takeViolations(gh);
  });
});

describe('a person re-runs a workflow run; one workflow’s runs wait for a runner', () => {
  const FLAKY = `name: CI
on:
  workflow_dispatch:
jobs:
  flaky:
    runs-on: ubuntu-latest
    steps:
      - name: Fails on the first attempt
        run: test "$GITHUB_RUN_ATTEMPT" -gt 1 && test "\${{ github.run_attempt }}" = "$GITHUB_RUN_ATTEMPT"
`;

  it('"Re-run all jobs": the same run id, the next run_attempt, new jobs and check runs; the jobs API lists the newest attempt’s (latest) or all; workflow_run is sent again', async () => {
    world = await startWorld({ files: { 'README.md': 'x\n', '.github/workflows/ci.yml': FLAKY, '.github/workflows/watcher.yml': WATCHER } });
    world.gh.addUser('maintainer', { permission: 'write' });
    await world.dispatch('ci.yml');
    await world.settle();
    const first = world.runner.runs.find((r) => r.workflow === '.github/workflows/ci.yml')!;
    expect([first.attempt, first.jobs.map((j) => j.result)]).toEqual([1, ['failure']]);
    const again = world.runner.rerun(first.id, 'maintainer');
    // GitHub re-runs only a completed run.
    expect(() => world!.runner.rerun(first.id, 'maintainer')).toThrow(/still in_progress; only a completed run can be re-run/);
    await world.settle();
    expect([again.id, again.attempt, again.actor, again.jobs.map((j) => j.result)]).toEqual([first.id, 2, 'maintainer', ['success']]);
    // Each attempt that completed sent workflow_run: the watcher ran twice, seeing the run's conclusion each time.
    expect(world.runner.runs.filter((r) => r.workflow === '.github/workflows/watcher.yml').map((r) => r.jobs[0]!.outputs.seen)).toEqual([
      `CI failure ${first.id}`,
      `CI success ${first.id}`,
    ]);

    const reader = new Octokit({ baseUrl: world.gh.url, auth: world.gh.actionsToken({ actions: 'read', checks: 'read' }), request: { retries: 0 } });
    expect((await reader.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}', { ...repo(world), run_id: first.id })).data).toMatchObject({
      run_attempt: 2,
      conclusion: 'success',
    });
    const latest = (await reader.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { ...repo(world), run_id: first.id })).data.jobs;
    const all = (await reader.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { ...repo(world), run_id: first.id, filter: 'all' })).data.jobs;
    expect(latest.map((j) => [j.name, j.run_attempt, j.conclusion])).toEqual([['flaky', 2, 'success']]);
    expect(all.map((j) => [j.name, j.run_attempt, j.conclusion])).toEqual([
      ['flaky', 1, 'failure'],
      ['flaky', 2, 'success'],
    ]);
    // Each attempt's job is its own check run on the head; the newer one passed.
    const { data: checks } = await reader.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...repo(world), ref: first.headSha, filter: 'all' });
    expect(
      checks.check_runs
        .filter((c) => c.name === 'flaky')
        .map((c) => [c.id, c.conclusion])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [all[0]!.id, 'failure'],
      [all[1]!.id, 'success'],
    ]);
  });

  it('hold(workflow) queues only that workflow’s runs; the others start; release() starts the held ones', async () => {
    world = await startWorld({ files: { 'README.md': 'x\n', '.github/workflows/ci.yml': FLAKY, '.github/workflows/watcher.yml': WATCHER } });
    world.runner.hold('.github/workflows/ci.yml');
    await world.dispatch('ci.yml');
    await world.settle();
    expect(world.runner.runs).toEqual([]);
    await world.runner.release();
    await world.settle();
    // The CI run started on release; its workflow_run started the watcher, which was never held.
    expect(world.runner.runs.map((r) => r.workflow)).toEqual(['.github/workflows/ci.yml', '.github/workflows/watcher.yml']);
  });
});
