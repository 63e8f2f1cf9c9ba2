import { describe, expect, it } from 'vitest';
import { cloneWith, commitFiles, failure, fakeForTest, gitIn, octokitFor, repoOf } from './helpers';

describe("the repository's settings, as crew doctor reads them", () => {
  it('serves Actions permissions and the default workflow permissions to an admin; refuses a writer and any GITHUB_TOKEN', async () => {
    const gh = await fakeForTest({ settings: { actions_enabled: false, default_workflow_permissions: 'write', actions_can_create_pull_requests: false } });
    gh.addUser('wendy', { permission: 'write' });
    const admin = octokitFor(gh, gh.userToken('acme'));
    expect((await admin.request('GET /repos/{owner}/{repo}/actions/permissions', repoOf(gh))).data).toEqual({ enabled: false });
    expect((await admin.request('GET /repos/{owner}/{repo}/actions/permissions/workflow', repoOf(gh))).data).toEqual({
      default_workflow_permissions: 'write',
      can_approve_pull_request_reviews: false,
    });
    // A workflow's `permissions:` cannot grant administration: even a token with every other scope is refused.
    const job = octokitFor(gh, gh.actionsToken({ contents: 'write', actions: 'write', 'pull-requests': 'write', issues: 'write' }));
    expect((await failure(job.request('GET /repos/{owner}/{repo}/actions/permissions', repoOf(gh)))).status).toBe(403);
    expect((await failure(job.request('GET /repos/{owner}/{repo}/actions/permissions/workflow', repoOf(gh)))).status).toBe(403);
    const writer = octokitFor(gh, gh.userToken('wendy'));
    expect((await failure(writer.request('GET /repos/{owner}/{repo}/actions/permissions', repoOf(gh)))).status).toBe(403);
  });

  it('lists the rules a branch name would meet, whether or not it exists, to any reader (GITHUB_TOKEN too)', async () => {
    const gh = await fakeForTest({ settings: { ruleset_branch_prefixes: ['crew/'], ruleset_deletion_prefixes: ['crew/state'] } });
    const job = octokitFor(gh, gh.actionsToken({ contents: 'read' }));
    const task = (await job.request('GET /repos/{owner}/{repo}/rules/branches/{branch}', { ...repoOf(gh), branch: 'crew/1/r1/t1' })).data;
    expect(task).toEqual([{ type: 'required_signatures', ruleset_source_type: 'Repository', ruleset_source: 'acme/widgets', ruleset_id: 4218531 }]);
    const state = (await job.request('GET /repos/{owner}/{repo}/rules/branches/{branch}', { ...repoOf(gh), branch: 'crew/state' })).data.map((r) => r.type);
    expect(state).toEqual(['required_signatures', 'deletion']);
    expect((await job.request('GET /repos/{owner}/{repo}/rules/branches/{branch}', { ...repoOf(gh), branch: 'main' })).data).toEqual([]);
  });

  it("a classic protection rule: GET …/protection for an admin (404 'Branch not protected' otherwise); pushes refused with GH006", async () => {
    const gh = await fakeForTest({ settings: { protected_branches: ['crew/state'] } });
    const admin = octokitFor(gh, gh.userToken('acme'));
    expect((await failure(admin.request('GET /repos/{owner}/{repo}/branches/{branch}/protection', { ...repoOf(gh), branch: 'crew/state' }))).message).toContain(
      'Branch not found',
    );
    expect((await failure(admin.request('GET /repos/{owner}/{repo}/branches/{branch}/protection', { ...repoOf(gh), branch: 'main' }))).message).toContain(
      'Branch not protected',
    );

    const dir = await cloneWith(gh, gh.userToken('acme'));
    await commitFiles(dir, { 'state.txt': 'x\n' }, 'state');
    const refused = await gitIn(dir, ['push', 'origin', 'HEAD:refs/heads/crew/state'], gh.userToken('acme'));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('GH006: Protected branch update failed for refs/heads/crew/state');
    expect(await gh.repo.branchSha('crew/state')).toBeUndefined();

    // Once the branch exists (made before the rule, here by the fake itself), its protection shows.
    await gh.repo.setRef('refs/heads/crew/state', (await gh.repo.branchSha('main'))!);
    expect(
      (await admin.request('GET /repos/{owner}/{repo}/branches/{branch}/protection', { ...repoOf(gh), branch: 'crew/state' })).data
        .required_pull_request_reviews,
    ).toMatchObject({
      required_approving_review_count: 1,
    });
    expect((await admin.request('GET /repos/{owner}/{repo}/branches/{branch}', { ...repoOf(gh), branch: 'crew/state' })).data.protected).toBe(true);
    const job = octokitFor(gh, gh.actionsToken({ contents: 'write' }));
    expect((await failure(job.request('GET /repos/{owner}/{repo}/branches/{branch}/protection', { ...repoOf(gh), branch: 'crew/state' }))).status).toBe(403);
  });

  it('says whether a secret exists, never its value: to writers and tokens with secrets: read; 404 when it does not', async () => {
    const gh = await fakeForTest({ settings: { secrets: ['ANTHROPIC_API_KEY'] } });
    gh.addUser('rita', { permission: 'read' });
    const admin = octokitFor(gh, gh.userToken('acme'));
    const got = (await admin.request('GET /repos/{owner}/{repo}/actions/secrets/{secret_name}', { ...repoOf(gh), secret_name: 'anthropic_api_key' })).data;
    expect(got).toEqual({ name: 'ANTHROPIC_API_KEY', created_at: gh.createdAt, updated_at: gh.createdAt });
    expect(
      (await failure(admin.request('GET /repos/{owner}/{repo}/actions/secrets/{secret_name}', { ...repoOf(gh), secret_name: 'CREW_GITHUB_TOKEN' }))).status,
    ).toBe(404);
    expect(
      (
        await failure(
          octokitFor(gh, gh.userToken('rita')).request('GET /repos/{owner}/{repo}/actions/secrets/{secret_name}', {
            ...repoOf(gh),
            secret_name: 'ANTHROPIC_API_KEY',
          }),
        )
      ).status,
    ).toBe(403);
    const job = octokitFor(gh, gh.actionsToken({ contents: 'write', actions: 'write' }));
    expect(
      (await failure(job.request('GET /repos/{owner}/{repo}/actions/secrets/{secret_name}', { ...repoOf(gh), secret_name: 'ANTHROPIC_API_KEY' }))).status,
    ).toBe(403);
  });
});
