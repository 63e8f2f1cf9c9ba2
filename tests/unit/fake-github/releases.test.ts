import { describe, expect, it } from 'vitest';
import { cloneWith, failure, fakeForTest, gitIn, octokitFor, recordEvents, repoOf } from './helpers';

describe('git refs and releases, as GitHub answers them', () => {
  it('creates a ref once; moves it only forward unless forced; refuses unknown objects and bad names', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.actionsToken({ contents: 'write' }));
    const first = (await gh.repo.branchSha('main'))!;
    const second = await gh.repo.writeCommit({ branch: 'main', files: { 'b.txt': 'b\n' }, message: 'second' });
    expect((await octokit.request('POST /repos/{owner}/{repo}/git/refs', { ...repoOf(gh), ref: 'refs/tags/v1', sha: second })).status).toBe(201);
    expect((await failure(octokit.request('POST /repos/{owner}/{repo}/git/refs', { ...repoOf(gh), ref: 'refs/tags/v1', sha: second }))).message).toContain(
      'Reference already exists',
    );
    expect((await failure(octokit.request('POST /repos/{owner}/{repo}/git/refs', { ...repoOf(gh), ref: 'v2', sha: second }))).status).toBe(422);
    expect(
      (await failure(octokit.request('POST /repos/{owner}/{repo}/git/refs', { ...repoOf(gh), ref: 'refs/tags/v2', sha: 'f'.repeat(40) }))).message,
    ).toContain('Object does not exist');
    expect((await failure(octokit.request('PATCH /repos/{owner}/{repo}/git/refs/{ref}', { ...repoOf(gh), ref: 'tags/v1', sha: first }))).message).toContain(
      'Update is not a fast forward',
    );
    expect(
      (await octokit.request('PATCH /repos/{owner}/{repo}/git/refs/{ref}', { ...repoOf(gh), ref: 'tags/v1', sha: first, force: true })).data.object.sha,
    ).toBe(first);
    expect(await gh.repo.resolve('refs/tags/v1')).toBe(first);
    expect(
      (await failure(octokit.request('PATCH /repos/{owner}/{repo}/git/refs/{ref}', { ...repoOf(gh), ref: 'tags/v9', sha: first, force: true }))).message,
    ).toContain('Reference does not exist');
    // A token that may only read contents cannot write refs.
    expect(
      (
        await failure(
          octokitFor(gh, gh.actionsToken({ contents: 'read' })).request('POST /repos/{owner}/{repo}/git/refs', {
            ...repoOf(gh),
            ref: 'refs/tags/v3',
            sha: first,
          }),
        )
      ).status,
    ).toBe(403);
    gh.violations.length = 0;
  });

  it('one release per tag; a release of a tag that does not exist yet creates it at the target', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.actionsToken({ contents: 'write' }));
    const main = (await gh.repo.branchSha('main'))!;
    const { data } = await octokit.request('POST /repos/{owner}/{repo}/releases', { ...repoOf(gh), tag_name: 'v0.1.0', name: 'v0.1.0', body: '- first' });
    expect(data).toMatchObject({ tag_name: 'v0.1.0', body: '- first', draft: false, author: { login: 'github-actions[bot]' } });
    expect(await gh.repo.resolve('refs/tags/v0.1.0')).toBe(main);
    expect((await octokit.request('GET /repos/{owner}/{repo}/releases/tags/{tag}', { ...repoOf(gh), tag: 'v0.1.0' })).data.id).toBe(data.id);
    const again = await failure(octokit.request('POST /repos/{owner}/{repo}/releases', { ...repoOf(gh), tag_name: 'v0.1.0' }));
    expect(again.status).toBe(422);
    expect(JSON.stringify(again.data)).toContain('already_exists');
    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/releases/tags/{tag}', { ...repoOf(gh), tag: 'v9.9.9' }))).status).toBe(404);
    expect(gh.violations).toEqual([]);
  });
});

describe('deleting a branch, as GitHub answers it', () => {
  it('REST: 204, then 422 "Reference does not exist"; a deletion ruleset answers 422 "Cannot delete this branch"; a read-only token 403', async () => {
    const gh = await fakeForTest({ settings: { ruleset_deletion_prefixes: ['keep/'] } });
    gh.addUser('alice', { permission: 'write' });
    const events = recordEvents(gh);
    const main = (await gh.repo.branchSha('main'))!;
    await gh.repo.setRef('refs/heads/crew/1/r1/t1', main);
    await gh.repo.setRef('refs/heads/keep/this', main);
    const alice = octokitFor(gh, gh.userToken('alice'));
    expect((await alice.request('DELETE /repos/{owner}/{repo}/git/refs/{ref}', { ...repoOf(gh), ref: 'heads/crew/1/r1/t1' })).status).toBe(204);
    expect(await gh.repo.branchSha('crew/1/r1/t1')).toBeUndefined();
    // A person's deletion fires `push` with `deleted`, as one over git does.
    expect(events.map((e) => [e.name, e.payload.ref, e.payload.deleted])).toEqual([['push', 'refs/heads/crew/1/r1/t1', true]]);
    expect(await failure(alice.request('DELETE /repos/{owner}/{repo}/git/refs/{ref}', { ...repoOf(gh), ref: 'heads/crew/1/r1/t1' }))).toMatchObject({
      status: 422,
      message: expect.stringContaining('Reference does not exist'),
    });
    expect(await failure(alice.request('DELETE /repos/{owner}/{repo}/git/refs/{ref}', { ...repoOf(gh), ref: 'heads/keep/this' }))).toMatchObject({
      status: 422,
      message: expect.stringContaining('Cannot delete this branch'),
    });
    expect(await gh.repo.branchSha('keep/this')).toBe(main);
    expect(
      (
        await failure(
          octokitFor(gh, gh.actionsToken({ contents: 'read' })).request('DELETE /repos/{owner}/{repo}/git/refs/{ref}', {
            ...repoOf(gh),
            ref: 'heads/keep/this',
          }),
        )
      ).status,
    ).toBe(403);
    gh.violations.length = 0;
  });

  it('git: a push that deletes a branch a deletion ruleset covers is refused with GH013; a signed-commits ruleset refuses new commits, never a deletion', async () => {
    const gh = await fakeForTest({ settings: { ruleset_deletion_prefixes: ['keep/'], ruleset_branch_prefixes: ['crew/'] } });
    const main = (await gh.repo.branchSha('main'))!;
    await gh.repo.setRef('refs/heads/crew/1/r1/t1', main);
    await gh.repo.setRef('refs/heads/keep/this', main);
    const token = gh.actionsToken({ contents: 'write' });
    const dir = await cloneWith(gh, token);
    const refused = await gitIn(dir, ['push', 'origin', ':refs/heads/keep/this'], token);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('GH013: Repository rule violations found for refs/heads/keep/this.');
    expect(refused.stderr).toContain('- Cannot delete this branch');
    expect(await gh.repo.branchSha('keep/this')).toBe(main);
    const deleted = await gitIn(dir, ['push', 'origin', ':refs/heads/crew/1/r1/t1'], token);
    expect(deleted.stderr).toContain('[deleted]');
    expect(deleted.code).toBe(0);
    expect(await gh.repo.branchSha('crew/1/r1/t1')).toBeUndefined();
    expect(gh.violations).toEqual([]);
  });
});
