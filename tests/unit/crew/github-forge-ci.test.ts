import { describe, expect, it } from 'vitest';
import type { Log } from '../../../src/ports';
import { forgeOn } from '../../support/github/forge-on';
import { fakeGitHubForTest } from '../../support/github/for-test';
import type { FakeGitHub } from '../../support/github/fake-github';

const warnings: string[] = [];
const log: Log = { info: () => undefined, warn: (m: string) => void warnings.push(m), checkpoint: () => undefined };

const RUN = 8_000_000_077;

function jobs(gh: FakeGitHub) {
  const base = {
    runId: RUN,
    headSha: 'a'.repeat(40),
    headBranch: 'crew/3/r1/integration',
    workflowName: 'CI',
    status: 'completed' as const,
    startedAt: gh.now(),
    completedAt: gh.now(),
  };
  gh.recordWorkflowRun({
    id: RUN,
    name: 'CI',
    path: '.github/workflows/ci.yml',
    status: 'completed',
    conclusion: 'failure',
    headBranch: 'crew/3/r1/integration',
  });
  gh.recordWorkflowJob({
    ...base,
    id: 30_000_000_011,
    name: 'lint',
    conclusion: 'success',
    steps: [{ name: 'Run lint', conclusion: 'success', number: 1 }],
    log: 'ok\n',
  });
  gh.recordWorkflowJob({
    ...base,
    id: 30_000_000_012,
    name: 'test',
    conclusion: 'failure',
    steps: [
      { name: 'Set up job', conclusion: 'success', number: 1 },
      { name: 'Run npm test', conclusion: 'failure', number: 2 },
    ],
    log: '2026-11-27T10:00:00.0000000Z FAIL tests/a.test.ts\n2026-11-27T10:00:01.0000000Z ##[error]Process completed with exit code 1.\n',
  });
  gh.recordWorkflowJob({ ...base, id: 30_000_000_013, name: 'e2e', conclusion: 'failure', steps: [], log: 'x\n' });
}

describe('GitHubForge.failedJobs and jobLog', () => {
  it('lists a run’s failed jobs with the failed step, and reads a log through the 302 without sending the token to the log host', async () => {
    const { gh } = await fakeGitHubForTest({ prefix: 'forge-ci-', apiUrl: true, files: { 'README.md': 'hi\n' } });
    jobs(gh);
    const forge = forgeOn(gh, gh.actionsToken({ actions: 'read' }), log);
    const failed = await forge.failedJobs(RUN, 5);
    expect(failed.map((j) => [j.id, j.name, j.step])).toEqual([
      [30_000_000_012, 'test', 'Run npm test'],
      [30_000_000_013, 'e2e', null],
    ]);
    expect(failed[0]!.url).toBe(`${gh.url}/${gh.owner}/${gh.repoName}/actions/runs/${RUN}/job/30000000012`);
    expect(gh.logDownloads).toEqual([]);
    expect(await forge.jobLog(30_000_000_012)).toBe(
      '2026-11-27T10:00:00.0000000Z FAIL tests/a.test.ts\n2026-11-27T10:00:01.0000000Z ##[error]Process completed with exit code 1.\n',
    );
    expect(gh.logDownloads).toEqual([{ jobId: 30_000_000_012, status: 200, authorization: false }]);
    expect(await forge.failedJobs(RUN, 1)).toHaveLength(1);
  });

  it('a log GitHub will not give is null, with a warning; a token without actions: read fails loudly', async () => {
    const { gh } = await fakeGitHubForTest({ prefix: 'forge-ci-', apiUrl: true, files: { 'README.md': 'hi\n' } });
    jobs(gh);
    gh.addFaults({ route: 'GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', status: 410, message: 'Gone' });
    warnings.length = 0;
    const forge = forgeOn(gh, gh.actionsToken({ actions: 'read' }), log);
    expect(await forge.jobLog(30_000_000_012)).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/^could not read the log of job 30000000012: /)]);
    await expect(forgeOn(gh, gh.actionsToken({ contents: 'read' }), log).failedJobs(RUN, 1)).rejects.toMatchObject({ status: 403 });
    gh.violations.splice(0);
  });
});
