import { describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../../support/github/fake-github';
import { bareSha, failure, fakeForTest, octokitFor, repoOf } from './helpers';

async function withHead(gh: FakeGitHub) {
  return (await bareSha(gh, 'main'))!;
}

describe('check runs', () => {
  it('creates check runs and lists the latest of each name for a sha or a branch', async () => {
    const gh = await fakeForTest();
    const sha = await withHead(gh);
    const ci = octokitFor(gh, gh.appToken('ci', { checks: 'write' }));
    const queued = await ci.request('POST /repos/{owner}/{repo}/check-runs', { ...repoOf(gh), name: 'test', head_sha: sha });
    expect(queued.status).toBe(201);
    expect(queued.data).toMatchObject({ name: 'test', head_sha: sha, status: 'queued', conclusion: null, completed_at: null });
    const done = await ci.request('POST /repos/{owner}/{repo}/check-runs', { ...repoOf(gh), name: 'test', head_sha: sha, conclusion: 'failure' });
    expect(done.data).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(done.data.completed_at).toEqual(expect.any(String));
    await ci.request('POST /repos/{owner}/{repo}/check-runs', { ...repoOf(gh), name: 'lint', head_sha: sha, status: 'in_progress' });

    const reader = octokitFor(gh, gh.actionsToken({ checks: 'read' }));
    const latest = await reader.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...repoOf(gh), ref: sha });
    expect(latest.data.total_count).toBe(2);
    expect(latest.data.check_runs.map((c) => [c.name, c.id, c.status])).toEqual([
      ['test', done.data.id, 'completed'],
      ['lint', expect.any(Number), 'in_progress'],
    ]);
    const all = await reader.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...repoOf(gh), ref: 'main', filter: 'all' });
    expect(all.data.total_count).toBe(3);
    expect(
      (await reader.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...repoOf(gh), ref: sha, check_name: 'lint' })).data.check_runs.map(
        (c) => c.name,
      ),
    ).toEqual(['lint']);
    expect(
      (await reader.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...repoOf(gh), ref: sha, status: 'completed' })).data.check_runs.map(
        (c) => c.name,
      ),
    ).toEqual(['test']);
    // Another commit has none.
    const other = 'f'.repeat(40);
    expect((await reader.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...repoOf(gh), ref: other })).data).toMatchObject({
      total_count: 0,
      check_runs: [],
    });
  });

  it('fires check_suite completed with the branch the head is on, and the pull requests whose head it is (none on a branch without one)', async () => {
    const gh = await fakeForTest();
    const sha = await withHead(gh);
    const events: Array<{ head_branch: unknown; pull_requests: unknown[] }> = [];
    gh.onEvent((e) => {
      if (e.name === 'check_suite') events.push((e.payload as { check_suite: { head_branch: unknown; pull_requests: unknown[] } }).check_suite);
    });
    const ci = octokitFor(gh, gh.appToken('ci', { checks: 'write' }));
    await ci.request('POST /repos/{owner}/{repo}/check-runs', { ...repoOf(gh), name: 'test', head_sha: sha, conclusion: 'success' });
    // GitHub names the branch whatever the pull requests; a suite with none lists none.
    expect(events).toEqual([expect.objectContaining({ head_branch: 'main', pull_requests: [] })]);
  });

  it('refuses a person’s token: only Apps create check runs', async () => {
    const gh = await fakeForTest();
    const sha = await withHead(gh);
    const refused = await failure(
      octokitFor(gh, gh.userToken('acme')).request('POST /repos/{owner}/{repo}/check-runs', { ...repoOf(gh), name: 'test', head_sha: sha }),
    );
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('You must authenticate via a GitHub App.');
    expect(
      (
        await octokitFor(gh, gh.actionsToken({ checks: 'write' })).request('POST /repos/{owner}/{repo}/check-runs', {
          ...repoOf(gh),
          name: 'test',
          head_sha: sha,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await failure(
          octokitFor(gh, gh.actionsToken({ checks: 'read' })).request('POST /repos/{owner}/{repo}/check-runs', { ...repoOf(gh), name: 'test', head_sha: sha }),
        )
      ).status,
    ).toBe(403);
  });

  it('answers 422 for a ref that names no commit', async () => {
    const gh = await fakeForTest();
    const bad = await failure(
      octokitFor(gh, gh.userToken('acme')).request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...repoOf(gh), ref: 'no-such-branch' }),
    );
    expect(bad.status).toBe(422);
    expect(bad.message).toContain('No commit found for SHA: no-such-branch');
  });
});

describe('combined status', () => {
  it('keeps the latest status per context and combines them as GitHub does', async () => {
    const gh = await fakeForTest();
    const sha = await withHead(gh);
    const octokit = octokitFor(gh, gh.actionsToken({ statuses: 'write' }));
    const combined = async () => (await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}/status', { ...repoOf(gh), ref: 'main' })).data;
    const post = (context: string, state: 'error' | 'failure' | 'pending' | 'success') =>
      octokit.request('POST /repos/{owner}/{repo}/statuses/{sha}', { ...repoOf(gh), sha, context, state, description: `${context} ${state}` });

    expect(await combined()).toMatchObject({ state: 'pending', total_count: 0, statuses: [], sha });

    expect((await post('ci/test', 'pending')).status).toBe(201);
    expect((await combined()).state).toBe('pending');
    await post('ci/test', 'success');
    expect(await combined()).toMatchObject({ state: 'success', total_count: 1, statuses: [{ context: 'ci/test', state: 'success' }] });

    await post('ci/lint', 'pending');
    expect((await combined()).state).toBe('pending');
    // A failure wins over a pending context.
    await post('ci/build', 'failure');
    expect((await combined()).state).toBe('failure');
    await post('ci/build', 'success');
    expect((await combined()).state).toBe('pending');
    await post('ci/lint', 'error');
    expect((await combined()).state).toBe('failure');
    await post('ci/lint', 'success');
    const last = await combined();
    expect(last.state).toBe('success');
    expect(last.total_count).toBe(3);
    expect(last.statuses.map((s) => `${s.context}=${s.state}`).sort()).toEqual(['ci/build=success', 'ci/lint=success', 'ci/test=success']);
  });

  it('refuses a status for a commit that does not exist', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.actionsToken({ statuses: 'write' }));
    const bad = await failure(octokit.request('POST /repos/{owner}/{repo}/statuses/{sha}', { ...repoOf(gh), sha: 'a'.repeat(40), state: 'success' }));
    expect(bad.status).toBe(422);
    expect(bad.message).toContain('No commit found for SHA');
    expect(gh.statuses).toEqual([]);
  });
});
