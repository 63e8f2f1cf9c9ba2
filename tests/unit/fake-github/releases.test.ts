import { describe, expect, it } from 'vitest';
import { failure, fakeForTest, octokitFor, repoOf } from './helpers';

describe('git refs and releases, as GitHub answers them', () => {
  it('creates a ref once; moves it only forward unless forced; refuses unknown objects and bad names', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.actionsToken({ contents: 'write' }));
    const first = (await gh.repo.branchSha('main'))!;
    const second = await gh.repo.writeCommit({ branch: 'main', files: { 'b.txt': 'b\n' }, message: 'second' });
    expect((await octokit.rest.git.createRef({ ...repoOf(gh), ref: 'refs/tags/v1', sha: second })).status).toBe(201);
    expect((await failure(octokit.rest.git.createRef({ ...repoOf(gh), ref: 'refs/tags/v1', sha: second }))).message).toContain('Reference already exists');
    expect((await failure(octokit.rest.git.createRef({ ...repoOf(gh), ref: 'v2', sha: second }))).status).toBe(422);
    expect((await failure(octokit.rest.git.createRef({ ...repoOf(gh), ref: 'refs/tags/v2', sha: 'f'.repeat(40) }))).message).toContain('Object does not exist');
    expect((await failure(octokit.rest.git.updateRef({ ...repoOf(gh), ref: 'tags/v1', sha: first }))).message).toContain('Update is not a fast forward');
    expect((await octokit.rest.git.updateRef({ ...repoOf(gh), ref: 'tags/v1', sha: first, force: true })).data.object.sha).toBe(first);
    expect(await gh.repo.resolve('refs/tags/v1')).toBe(first);
    expect((await failure(octokit.rest.git.updateRef({ ...repoOf(gh), ref: 'tags/v9', sha: first, force: true }))).message).toContain(
      'Reference does not exist',
    );
    // A token that may only read contents cannot write refs.
    expect(
      (await failure(octokitFor(gh, gh.actionsToken({ contents: 'read' })).rest.git.createRef({ ...repoOf(gh), ref: 'refs/tags/v3', sha: first }))).status,
    ).toBe(403);
    gh.violations.length = 0;
  });

  it('one release per tag; a release of a tag that does not exist yet creates it at the target', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.actionsToken({ contents: 'write' }));
    const main = (await gh.repo.branchSha('main'))!;
    const { data } = await octokit.rest.repos.createRelease({ ...repoOf(gh), tag_name: 'v0.1.0', name: 'v0.1.0', body: '- first' });
    expect(data).toMatchObject({ tag_name: 'v0.1.0', body: '- first', draft: false, author: { login: 'github-actions[bot]' } });
    expect(await gh.repo.resolve('refs/tags/v0.1.0')).toBe(main);
    expect((await octokit.rest.repos.getReleaseByTag({ ...repoOf(gh), tag: 'v0.1.0' })).data.id).toBe(data.id);
    const again = await failure(octokit.rest.repos.createRelease({ ...repoOf(gh), tag_name: 'v0.1.0' }));
    expect(again.status).toBe(422);
    expect(JSON.stringify(again.data)).toContain('already_exists');
    expect((await failure(octokit.rest.repos.getReleaseByTag({ ...repoOf(gh), tag: 'v9.9.9' }))).status).toBe(404);
    expect(gh.violations).toEqual([]);
  });
});
