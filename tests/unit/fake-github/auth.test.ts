import { describe, expect, it } from 'vitest';
import { failure, fakeForTest, octokitFor, repoOf, seedBranch } from './helpers';

describe('collaborator permissions', () => {
  it('maps roles the way GitHub does: maintain reads as write, triage as read', async () => {
    const gh = await fakeForTest();
    for (const p of ['maintain', 'write', 'triage', 'read', 'none'] as const) gh.addUser(`u-${p}`, { permission: p });
    const octokit = octokitFor(gh, gh.userToken('acme'));
    const level = async (username: string) =>
      (await octokit.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', { ...repoOf(gh), username })).data;

    expect(await level('acme')).toMatchObject({
      permission: 'admin',
      role_name: 'admin',
      user: { login: 'acme', permissions: { admin: true, maintain: true, push: true, triage: true, pull: true } },
    });
    expect(await level('u-maintain')).toMatchObject({
      permission: 'write',
      role_name: 'maintain',
      user: { permissions: { admin: false, maintain: true, push: true, triage: true, pull: true } },
    });
    expect(await level('u-write')).toMatchObject({
      permission: 'write',
      role_name: 'write',
      user: { permissions: { admin: false, maintain: false, push: true, triage: true, pull: true } },
    });
    expect(await level('u-triage')).toMatchObject({
      permission: 'read',
      role_name: 'triage',
      user: { permissions: { admin: false, maintain: false, push: false, triage: true, pull: true } },
    });
    expect(await level('u-read')).toMatchObject({
      permission: 'read',
      role_name: 'read',
      user: { permissions: { admin: false, maintain: false, push: false, triage: false, pull: true } },
    });
    expect((await level('u-none')).permission).toBe('none');

    const unknown = await failure(octokit.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', { ...repoOf(gh), username: 'ghost' }));
    expect(unknown.status).toBe(404);
  });

  it('reports the caller’s own permissions on the repository', async () => {
    const gh = await fakeForTest();
    gh.addUser('writer', { permission: 'write' });
    const repo = (await octokitFor(gh, gh.userToken('writer')).request('GET /repos/{owner}/{repo}', repoOf(gh))).data;
    expect(repo).toMatchObject({ full_name: 'acme/widgets', private: true, default_branch: 'main', permissions: { admin: false, push: true, pull: true } });
    // A workflow token can always read repository metadata.
    expect((await octokitFor(gh, gh.actionsToken({})).request('GET /repos/{owner}/{repo}', repoOf(gh))).data.full_name).toBe('acme/widgets');
  });
});

describe('GET /user', () => {
  it('answers for a person’s token and refuses a workflow or app token', async () => {
    const gh = await fakeForTest();
    gh.addUser('alice', { permission: 'write', name: 'Alice A.' });
    const me = await octokitFor(gh, gh.userToken('alice')).request('GET /user');
    expect(me.status).toBe(200);
    expect(me.data).toMatchObject({ login: 'alice', type: 'User', name: 'Alice A.' });

    for (const token of [gh.actionsToken({ contents: 'write', issues: 'write' }), gh.appToken('crew-app', { issues: 'write' })]) {
      const refused = await failure(octokitFor(gh, token).request('GET /user'));
      expect(refused.status).toBe(403);
      expect(refused.message).toContain('Resource not accessible by integration');
    }
  });

  it('answers 401 without a token and for a token GitHub does not know', async () => {
    const gh = await fakeForTest();
    const anonymous = await failure(octokitFor(gh).request('GET /user'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.message).toContain('Requires authentication');

    const token = gh.userToken('acme');
    gh.revokeToken(token);
    const revoked = await failure(octokitFor(gh, token).request('GET /user'));
    expect(revoked.status).toBe(401);
    expect(revoked.message).toContain('Bad credentials');
    // A revoked token is refused on repository routes too, not hidden behind a 404.
    expect((await failure(octokitFor(gh, token).request('GET /repos/{owner}/{repo}', repoOf(gh)))).status).toBe(401);
  });
});

describe('token scopes and roles', () => {
  it('hides a private repository from a request without a token (404), and refuses anonymous writes on a public one (401)', async () => {
    const gh = await fakeForTest();
    await octokitFor(gh, gh.userToken('acme')).request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const anon = octokitFor(gh);
    expect((await failure(anon.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1 }))).status).toBe(404);
    expect(
      (await failure(anon.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'hi' }))).status,
    ).toBe(404);

    gh.settings.private = false;
    const write = await failure(anon.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'hi' }));
    expect(write.status).toBe(401);
    expect(write.message).toContain('Requires authentication');
    expect(gh.comments.size).toBe(0);
    expect(gh.requests.filter((r) => r.principal === 'anonymous').map((r) => r.status)).toEqual([404, 404, 401]);
  });

  it('hides a private repository from a person with no role on it', async () => {
    const gh = await fakeForTest();
    gh.addUser('stranger', { permission: 'none' });
    const stranger = octokitFor(gh, gh.userToken('stranger'));
    expect((await failure(stranger.request('GET /repos/{owner}/{repo}', repoOf(gh)))).status).toBe(404);
    gh.settings.private = false;
    expect((await stranger.request('GET /repos/{owner}/{repo}', repoOf(gh))).status).toBe(200);
  });

  it('needs issues: write for a workflow token to comment on an issue, but any reader may comment', async () => {
    const gh = await fakeForTest();
    gh.addUser('reader', { permission: 'read' });
    await octokitFor(gh, gh.userToken('acme')).request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });

    const readOnly = octokitFor(gh, gh.actionsToken({ issues: 'read', contents: 'write' }));
    const refused = await failure(
      readOnly.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'from the workflow' }),
    );
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('Resource not accessible by integration');
    // issues: read still reads.
    expect((await readOnly.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1 })).data).toEqual([]);
    // pull-requests: write does not cover a plain issue.
    const prOnly = octokitFor(gh, gh.actionsToken({ 'pull-requests': 'write' }));
    expect(
      (await failure(prOnly.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'x' }))).status,
    ).toBe(403);
    expect(gh.comments.size).toBe(0);

    const writer = octokitFor(gh, gh.actionsToken({ issues: 'write' }));
    expect(
      (await writer.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'from the workflow' })).data
        .user?.login,
    ).toBe('github-actions[bot]');

    const reader = octokitFor(gh, gh.userToken('reader'));
    const byReader = await reader.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...repoOf(gh),
      issue_number: 1,
      body: 'a reader speaks',
    });
    expect(byReader.status).toBe(201);
    // …but a reader cannot label.
    expect(
      (await failure(reader.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { ...repoOf(gh), issue_number: 1, labels: ['x'] }))).status,
    ).toBe(403);
  });

  it('needs pull-requests: write, not issues: write, for a workflow token to comment on a pull request', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'feature', { 'feature.txt': 'f\n' });
    const pr = await octokitFor(gh, gh.userToken('acme')).request('POST /repos/{owner}/{repo}/pulls', {
      ...repoOf(gh),
      head: 'feature',
      base: 'main',
      title: 'Feature',
    });
    const issuesOnly = octokitFor(gh, gh.actionsToken({ issues: 'write' }));
    expect(
      (
        await failure(
          issuesOnly.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: pr.data.number, body: 'x' }),
        )
      ).status,
    ).toBe(403);
    const prWrite = octokitFor(gh, gh.actionsToken({ 'pull-requests': 'write' }));
    expect(
      (await prWrite.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: pr.data.number, body: 'x' })).status,
    ).toBe(201);
  });

  it('needs actions: write to dispatch a workflow', async () => {
    const gh = await fakeForTest();
    const dispatch = (token: string) =>
      octokitFor(gh, token).request('POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
        ...repoOf(gh),
        workflow_id: 'crew.yml',
        ref: 'main',
        inputs: { issue: '1' },
      });
    const refused = await failure(dispatch(gh.actionsToken({ actions: 'read', contents: 'write', issues: 'write' })));
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('Resource not accessible by integration');
    expect((await dispatch(gh.actionsToken({ actions: 'write' }))).status).toBe(204);
  });

  it('needs pull-requests: write to open a pull request', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'feature', { 'feature.txt': 'f\n' });
    const open = (token: string) =>
      octokitFor(gh, token).request('POST /repos/{owner}/{repo}/pulls', { ...repoOf(gh), head: 'feature', base: 'main', title: 'Feature' });
    expect((await failure(open(gh.actionsToken({ contents: 'write', issues: 'write', 'pull-requests': 'read' })))).status).toBe(403);
    expect(gh.pulls.size).toBe(0);
    expect((await open(gh.actionsToken({ 'pull-requests': 'write' }))).status).toBe(201);
  });

  it('needs contents: read for refs and a role of write or better for a person to merge', async () => {
    const gh = await fakeForTest();
    const noContents = octokitFor(gh, gh.actionsToken({ issues: 'write' }));
    expect((await failure(noContents.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...repoOf(gh), ref: 'heads/main' }))).status).toBe(403);
    const withContents = octokitFor(gh, gh.actionsToken({ contents: 'read' }));
    expect((await withContents.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...repoOf(gh), ref: 'heads/main' })).data.ref).toBe('refs/heads/main');

    gh.addUser('triager', { permission: 'triage' });
    await seedBranch(gh, 'feature', { 'feature.txt': 'f\n' });
    const pr = await octokitFor(gh, gh.userToken('acme')).request('POST /repos/{owner}/{repo}/pulls', {
      ...repoOf(gh),
      head: 'feature',
      base: 'main',
      title: 'Feature',
    });
    const triager = octokitFor(gh, gh.userToken('triager'));
    expect((await failure(triager.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: pr.data.number }))).status).toBe(
      403,
    );
    expect(gh.pulls.get(pr.data.number)!.merged_at).toBeNull();
  });

  it('records who made each request', async () => {
    const gh = await fakeForTest();
    await octokitFor(gh, gh.userToken('acme')).request('GET /repos/{owner}/{repo}', repoOf(gh));
    await octokitFor(gh, gh.actionsToken({})).request('GET /repos/{owner}/{repo}', repoOf(gh));
    await failure(octokitFor(gh).request('GET /repos/{owner}/{repo}', repoOf(gh)));
    expect(gh.requests.map((r) => [r.route, r.principal, r.login, r.status, r.write])).toEqual([
      ['GET /repos/{owner}/{repo}', 'user', 'acme', 200, false],
      ['GET /repos/{owner}/{repo}', 'actions', 'github-actions[bot]', 200, false],
      ['GET /repos/{owner}/{repo}', 'anonymous', null, 404, false],
    ]);
    expect(gh.requestCounts('actions')).toEqual({ total: 1, writes: 0, byRoute: { 'GET /repos/{owner}/{repo}': 1 } });
  });
});
