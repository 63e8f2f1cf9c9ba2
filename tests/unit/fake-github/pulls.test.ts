import { describe, expect, it } from 'vitest';
import { git } from '../../support/git-cli';
import type { FakeGitHub } from '../../support/github/fake-github';
import { bareSha, failure, fakeForTest, octokitFor, recordEvents, repoOf, seedBranch } from './helpers';

/** A fake with a `feature` branch one commit ahead of main, and the owner's Octokit. */
async function withFeature(options: Parameters<typeof fakeForTest>[0] = {}) {
  const gh = await fakeForTest(options);
  const featureSha = await seedBranch(
    gh,
    'feature',
    { 'feature.txt': 'one\ntwo\n', 'src/app.ts': 'export const answer = 43;\n' },
    { message: 'Add the feature' },
  );
  return { gh, featureSha, octokit: octokitFor(gh, gh.userToken('acme')) };
}

const openFeature = (gh: FakeGitHub, token: string, extra: { body?: string; head?: string; base?: string; title?: string } = {}) =>
  octokitFor(gh, token).request('POST /repos/{owner}/{repo}/pulls', { ...repoOf(gh), head: 'feature', base: 'main', title: 'Feature', ...extra });

describe('opening pull requests', () => {
  it('creates one (201) that reads back with its branches, counts and mergeability', async () => {
    const { gh, featureSha, octokit } = await withFeature();
    const mainSha = await bareSha(gh, 'main');
    const created = await octokit.request('POST /repos/{owner}/{repo}/pulls', {
      ...repoOf(gh),
      head: 'acme:feature',
      base: 'main',
      title: 'Feature',
      body: 'Closes #1',
    });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`${gh.url}/repos/acme/widgets/pulls/${created.data.number}`);
    expect(created.data).toMatchObject({
      number: 1,
      state: 'open',
      title: 'Feature',
      body: 'Closes #1',
      draft: false,
      merged: false,
      head: { ref: 'feature', sha: featureSha, label: 'acme:feature' },
      base: { ref: 'main', sha: mainSha },
      user: { login: 'acme' },
      commits: 1,
      changed_files: 2,
      additions: 3,
      deletions: 1,
    });

    const got = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1 });
    expect(got.data).toMatchObject({ number: 1, mergeable: true, mergeable_state: 'clean', merged_by: null });
    // A pull request is also an issue.
    const asIssue = await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1 });
    expect(asIssue.data.pull_request?.url).toBe(`${gh.url}/repos/acme/widgets/pulls/1`);
    expect(asIssue.data.html_url).toBe(`${gh.url}/acme/widgets/pull/1`);
    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 2 }))).status).toBe(404);
  });

  it('refuses a second pull request for the same head and base', async () => {
    const { gh } = await withFeature();
    const token = gh.userToken('acme');
    await openFeature(gh, token);
    const dup = await failure(openFeature(gh, token));
    expect(dup.status).toBe(422);
    expect(JSON.stringify(dup.data.errors)).toContain('A pull request already exists for acme:feature.');
    expect(gh.pulls.size).toBe(1);
  });

  it('refuses a head that does not exist, and a head with nothing new', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'feature', { 'f.txt': 'f\n' });
    const token = gh.userToken('acme');
    const missing = await failure(openFeature(gh, token, { head: 'no-such-branch' }));
    expect(missing.status).toBe(422);
    expect(missing.data.errors).toEqual([expect.objectContaining({ resource: 'PullRequest', field: 'head', code: 'invalid' })]);
    expect((await failure(openFeature(gh, token, { base: 'no-such-base' }))).status).toBe(422);

    // A branch that points at main's commit has no commits between.
    const mainSha = (await bareSha(gh, 'main'))!;
    await git(['update-ref', 'refs/heads/same', mainSha], { cwd: gh.repoDir });
    const empty = await failure(openFeature(gh, token, { head: 'same' }));
    expect(empty.status).toBe(422);
    expect(JSON.stringify(empty.data.errors)).toContain('No commits between main and same');
    expect(gh.pulls.size).toBe(0);
    expect(gh.issues.size).toBe(0);
  });

  it('refuses a workflow token when Actions may not create pull requests', async () => {
    const { gh } = await withFeature({ settings: { actions_can_create_pull_requests: false } });
    const refused = await failure(openFeature(gh, gh.actionsToken({ 'pull-requests': 'write', contents: 'write' })));
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('GitHub Actions is not permitted to create or approve pull requests.');
    expect(gh.pulls.size).toBe(0);
    // A person, or an App, still may.
    expect((await openFeature(gh, gh.appToken('crew-app', { 'pull-requests': 'write' }))).status).toBe(201);
  });

  it('lists by head, base and state', async () => {
    const { gh, octokit } = await withFeature();
    await seedBranch(gh, 'other', { 'o.txt': 'o\n' });
    const token = gh.userToken('acme');
    await openFeature(gh, token);
    await openFeature(gh, token, { head: 'other' });
    const list = async (q: { head?: string; base?: string; state?: 'open' | 'closed' | 'all' }) =>
      (await octokit.request('GET /repos/{owner}/{repo}/pulls', { ...repoOf(gh), ...q })).data.map((p) => p.number);
    expect(await list({})).toEqual([2, 1]);
    expect(await list({ head: 'acme:feature' })).toEqual([1]);
    expect(await list({ head: 'acme:other', base: 'main' })).toEqual([2]);
    expect(await list({ head: 'acme:nothing' })).toEqual([]);
    expect(await list({ base: 'develop' })).toEqual([]);
    await octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1, state: 'closed' });
    expect(await list({})).toEqual([2]);
    expect(await list({ state: 'closed' })).toEqual([1]);
    expect(await list({ state: 'all', head: 'acme:feature' })).toEqual([1]);
  });

  it('updates the body and title, and closes and reopens', async () => {
    const { gh, octokit } = await withFeature();
    await openFeature(gh, gh.userToken('acme'), { body: 'draft text' });
    const updated = await octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
      ...repoOf(gh),
      pull_number: 1,
      body: 'final text',
      title: 'Feature, done',
    });
    expect(updated.data).toMatchObject({ body: 'final text', title: 'Feature, done' });
    expect((await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1 })).data.body).toBe('final text');
    expect((await octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1, state: 'closed' })).data.state).toBe(
      'closed',
    );
    expect((await octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1, state: 'open' })).data.state).toBe(
      'open',
    );
  });
});

describe('mergeability', () => {
  it('reports a conflicting pull request as not mergeable, and follows its branch', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'clash', { 'README.md': '# widgets, by the branch\n' });
    // main moves on and edits the same line.
    const mainDir = await seedBranch(gh, 'main-next', { 'README.md': '# widgets, by main\n' });
    await git(['update-ref', 'refs/heads/main', mainDir], { cwd: gh.repoDir });
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/pulls', { ...repoOf(gh), head: 'clash', base: 'main', title: 'Clash' });
    const got = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1 });
    expect(got.data).toMatchObject({ mergeable: false, mergeable_state: 'dirty' });

    const merge = await failure(octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1 }));
    expect(merge.status).toBe(405);
    expect(merge.message).toContain('Pull Request is not mergeable');
    expect(await bareSha(gh, 'main')).toBe(mainDir);

    // The branch resolves the conflict by taking main's line: the PR follows its branch.
    const fixed = await seedBranch(gh, 'clash', { 'README.md': '# widgets, by main\n', 'extra.txt': 'e\n' }, { from: 'main' });
    await git(['update-ref', 'refs/heads/clash', fixed], { cwd: gh.repoDir });
    const after = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1 });
    expect(after.data).toMatchObject({ mergeable: true, head: { sha: fixed } });
  });

  it('still answers for an open pull request whose head branch was deleted', async () => {
    const { gh, octokit } = await withFeature();
    await openFeature(gh, gh.userToken('acme'));
    await gh.repo.deleteRef('refs/heads/feature');
    const got = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1 });
    expect(got.data).toMatchObject({ state: 'open', mergeable: false, commits: 0 });
    expect((await failure(octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1 }))).status).toBe(405);
  });
});

describe('merging', () => {
  it('merges with the right sha: the base branch moves to a merge commit', async () => {
    const { gh, featureSha, octokit } = await withFeature();
    const before = (await bareSha(gh, 'main'))!;
    await openFeature(gh, gh.userToken('acme'));
    const merged = await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1, sha: featureSha });
    expect(merged.status).toBe(200);
    expect(merged.data).toMatchObject({ merged: true, message: 'Pull Request successfully merged' });
    const after = (await bareSha(gh, 'main'))!;
    expect(after).toBe(merged.data.sha);
    const info = await gh.repo.commitInfo(after);
    expect(info.parents).toEqual([before, featureSha]);
    expect(info.message).toBe('Merge pull request #1 from acme/feature\n\nFeature');
    expect(await gh.repo.readFile(after, 'feature.txt')).toBe('one\ntwo\n');

    const pr = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1 });
    expect(pr.data).toMatchObject({
      state: 'closed',
      merged: true,
      merge_commit_sha: after,
      merged_by: { login: 'acme' },
      mergeable: null,
      head: { sha: featureSha },
      commits: 1,
      changed_files: 2,
    });
    expect(pr.data.merged_at).toEqual(expect.any(String));
    // Merging twice is refused.
    expect((await failure(octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1 }))).status).toBe(405);
    // The branch stays, as delete_branch_on_merge is off.
    expect(await bareSha(gh, 'feature')).toBe(featureSha);
  });

  it('closes the issues the body links with closing keywords, when merging into the default branch', async () => {
    const { gh, octokit } = await withFeature();
    for (const title of ['one', 'two', 'three']) await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title });
    await openFeature(gh, gh.userToken('acme'), { body: 'Closes #1, and fixes #2.\nSee #3.' });
    await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 4 });
    const state = async (n: number) => (await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: n })).data;
    expect(await state(1)).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect((await state(2)).state).toBe('closed');
    expect((await state(3)).state).toBe('open');
  });

  it('closes by every documented form: a colon, OWNER/REPOSITORY#N and the issue URL, in any case; not a broken one', async () => {
    const { gh, octokit } = await withFeature();
    for (const title of ['one', 'two', 'three', 'four', 'five']) await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title });
    const { owner, repo } = repoOf(gh);
    await openFeature(gh, gh.userToken('acme'), {
      body: `RESOLVES: #1\nfixed ${owner}/${repo}#2\ncloses https://github.com/${owner}/${repo}/issues/3\nfixes issue #4\nfixes other/repo#5`,
    });
    await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 6 });
    const state = async (n: number) =>
      (await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: n })).data.state;
    expect([await state(1), await state(2), await state(3), await state(4), await state(5)]).toEqual(['closed', 'closed', 'closed', 'open', 'open']);
  });

  // GitHub Docs, "Linking a pull request to an issue": a closing keyword in a commit message closes
  // the issue once the commit reaches the default branch, as a merge brings it there.
  it('closes the issues the messages of the commits a merge brings onto the default branch link, by merge, squash and rebase', async () => {
    for (const [method, closed] of [
      ['merge', ['closed', 'closed', 'closed', 'open']],
      ['rebase', ['closed', 'closed', 'open', 'open']],
      ['squash', ['closed', 'closed', 'closed', 'open']],
    ] as const) {
      const gh = await fakeForTest();
      await seedBranch(gh, 'feature', { 'a.txt': 'a\n' }, { message: 'Add a\n\nThis fixes #1.' });
      await seedBranch(gh, 'feature', { 'b.txt': 'b\n' }, { from: 'feature', message: 'Add b\n\nResolves: #2' });
      const octokit = octokitFor(gh, gh.userToken('acme'));
      for (const title of ['one', 'two', 'three', 'four']) await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title });
      // The title reaches the merge commit (merge) and the squash commit (squash); the body never reaches a commit here.
      await openFeature(gh, gh.userToken('acme'), { title: 'Feature, closes #3', body: 'See #4.' });
      await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 5, merge_method: method });
      const state = async (n: number) =>
        (await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: n })).data.state;
      expect([await state(1), await state(2), await state(3), await state(4)], method).toEqual(closed);
    }
  });

  it('does not close issues that commit messages on another base branch link', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'develop', { 'd.txt': 'd\n' });
    await seedBranch(gh, 'feature', { 'f.txt': 'f\n' }, { from: 'develop', message: 'Fix it\n\ncloses #1' });
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'one' });
    await octokit.request('POST /repos/{owner}/{repo}/pulls', { ...repoOf(gh), head: 'feature', base: 'develop', title: 'F', body: '' });
    await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 2 });
    expect((await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1 })).data.state).toBe('open');
  });

  it('does not close linked issues when merging into another branch', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'develop', { 'd.txt': 'd\n' });
    await seedBranch(gh, 'feature', { 'f.txt': 'f\n' }, { from: 'develop' });
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'one' });
    await octokit.request('POST /repos/{owner}/{repo}/pulls', { ...repoOf(gh), head: 'feature', base: 'develop', title: 'F', body: 'Closes #1' });
    await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 2 });
    expect((await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1 })).data.state).toBe('open');
  });

  it('refuses a stale sha with 409 and leaves the base alone', async () => {
    const { gh, featureSha, octokit } = await withFeature();
    await openFeature(gh, gh.userToken('acme'));
    const moved = await seedBranch(gh, 'feature', { 'more.txt': 'more\n' }, { from: 'feature' });
    expect(moved).not.toBe(featureSha);
    const before = await bareSha(gh, 'main');
    const stale = await failure(octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1, sha: featureSha }));
    expect(stale.status).toBe(409);
    expect(stale.message).toContain('Head branch was modified');
    expect(await bareSha(gh, 'main')).toBe(before);
    expect((await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1, sha: moved })).status).toBe(200);
  });

  it('refuses a merge method the repository disallows (405)', async () => {
    const { gh, octokit } = await withFeature({ settings: { allow_merge_commit: false, allow_rebase_merge: false } });
    await openFeature(gh, gh.userToken('acme'));
    const refused = await failure(
      octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1, merge_method: 'merge' }),
    );
    expect(refused.status).toBe(405);
    expect(refused.message).toContain('Merge commits are not allowed on this repository.');
    expect(
      (await failure(octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1, merge_method: 'rebase' }))).status,
    ).toBe(405);
    expect(gh.pulls.get(1)!.merged_at).toBeNull();
    expect(
      (await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1, merge_method: 'squash' })).status,
    ).toBe(200);
  });

  it('squashes into a single-parent commit titled after the pull request', async () => {
    const { gh, featureSha, octokit } = await withFeature();
    const second = await seedBranch(gh, 'feature', { 'second.txt': '2\n' }, { from: 'feature', message: 'Second step' });
    const before = (await bareSha(gh, 'main'))!;
    await openFeature(gh, gh.userToken('acme'));
    expect((await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1 })).data.commits).toBe(2);
    const merged = await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {
      ...repoOf(gh),
      pull_number: 1,
      merge_method: 'squash',
      sha: second,
    });
    const info = await gh.repo.commitInfo(merged.data.sha);
    expect(info.parents).toEqual([before]);
    expect(info.message).toBe('Feature (#1)\n\n* Add the feature\n\n* Second step');
    expect(info.tree).toBe((await gh.repo.commitInfo(second)).tree);
    expect(await gh.repo.isAncestor(featureSha, merged.data.sha)).toBe(false);
  });

  it('rebases the commits onto the base, one by one', async () => {
    const { gh, octokit } = await withFeature();
    await seedBranch(gh, 'feature', { 'second.txt': '2\n' }, { from: 'feature', message: 'Second step' });
    const mainNext = await seedBranch(gh, 'main-next', { 'main.txt': 'm\n' });
    await git(['update-ref', 'refs/heads/main', mainNext], { cwd: gh.repoDir });
    await openFeature(gh, gh.userToken('acme'));
    const merged = await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {
      ...repoOf(gh),
      pull_number: 1,
      merge_method: 'rebase',
      commit_title: 'ignored',
    });
    const tip = await gh.repo.commitInfo(merged.data.sha);
    expect(tip.message).toBe('Second step');
    const first = await gh.repo.commitInfo(tip.parents[0]!);
    expect(first.message).toBe('Add the feature');
    expect(first.parents).toEqual([mainNext]);
    expect(await gh.repo.readFile(merged.data.sha, 'main.txt')).toBe('m\n');
    // Replayed commits keep their author; the merger becomes the committer.
    expect((await git(['show', '-s', '--format=%an|%cn|%ce', merged.data.sha], { cwd: gh.repoDir })).trim()).toMatch(
      /^Fixture\|acme\|\d+\+acme@users\.noreply\.github\.com$/,
    );
  });

  it('deletes the head branch on merge when the repository says so', async () => {
    const { gh, octokit } = await withFeature({ settings: { delete_branch_on_merge: true } });
    await openFeature(gh, gh.userToken('acme'));
    await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1 });
    expect(await bareSha(gh, 'feature')).toBeUndefined();
    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...repoOf(gh), ref: 'heads/feature' }))).status).toBe(404);
    // The merged pull request still knows its head.
    expect((await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1 })).data.head.ref).toBe('feature');
  });

  it('refuses to merge a closed pull request', async () => {
    const { gh, octokit } = await withFeature();
    await openFeature(gh, gh.userToken('acme'));
    await octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: 1, state: 'closed' });
    expect((await failure(octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...repoOf(gh), pull_number: 1 }))).status).toBe(405);
  });
});

describe('reviews', () => {
  it('takes an approval from anyone who can read the repository, as GitHub does: a reader on a private one, anyone on a public one', async () => {
    const { gh } = await withFeature();
    gh.addUser('author', { permission: 'write' });
    gh.addUser('reader', { permission: 'read' });
    gh.addUser('stranger', { permission: 'none' });
    await openFeature(gh, gh.userToken('author'));
    const review = (login: string) =>
      octokitFor(gh, gh.userToken(login)).request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
        ...repoOf(gh),
        pull_number: 1,
        event: 'APPROVE',
      });
    expect((await review('reader')).data).toMatchObject({ state: 'APPROVED', user: { login: 'reader' } });
    // A private repository is invisible to someone without access.
    expect((await failure(review('stranger'))).status).toBe(404);
    gh.settings.private = false;
    expect((await review('stranger')).data).toMatchObject({ state: 'APPROVED', user: { login: 'stranger' } });
  });

  it('lets another user approve, and refuses the author’s own approval', async () => {
    const { gh } = await withFeature();
    gh.addUser('author', { permission: 'write' });
    gh.addUser('reviewer', { permission: 'write' });
    await openFeature(gh, gh.userToken('author'));
    const approve = await octokitFor(gh, gh.userToken('reviewer')).request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
      ...repoOf(gh),
      pull_number: 1,
      event: 'APPROVE',
      body: 'Ship it',
    });
    expect(approve.status).toBe(200);
    expect(approve.data).toMatchObject({ state: 'APPROVED', body: 'Ship it', user: { login: 'reviewer' }, commit_id: await bareSha(gh, 'feature') });

    const author = octokitFor(gh, gh.userToken('author'));
    const own = await failure(author.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { ...repoOf(gh), pull_number: 1, event: 'APPROVE' }));
    expect(own.status).toBe(422);
    expect(JSON.stringify(own.data.errors)).toContain('Can not approve your own pull request');
    const ownChanges = await failure(
      author.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { ...repoOf(gh), pull_number: 1, event: 'REQUEST_CHANGES', body: 'hmm' }),
    );
    expect(JSON.stringify(ownChanges.data.errors)).toContain('Can not request changes on your own pull request');
    // Commenting on your own pull request is fine.
    expect(
      (await author.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { ...repoOf(gh), pull_number: 1, event: 'COMMENT', body: 'note' })).data
        .state,
    ).toBe('COMMENTED');

    const reviews = await author.request('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { ...repoOf(gh), pull_number: 1 });
    expect(reviews.data.map((r) => [r.user?.login, r.state])).toEqual([
      ['reviewer', 'APPROVED'],
      ['author', 'COMMENTED'],
    ]);
  });

  it('refuses a workflow token’s approval when Actions may not approve pull requests', async () => {
    const { gh } = await withFeature({ settings: { actions_can_create_pull_requests: false } });
    await openFeature(gh, gh.userToken('acme'));
    const refused = await failure(
      octokitFor(gh, gh.actionsToken({ 'pull-requests': 'write' })).request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
        ...repoOf(gh),
        pull_number: 1,
        event: 'APPROVE',
      }),
    );
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('GitHub Actions is not permitted to create or approve pull requests.');
  });
});

describe('pull requests from forks, and line comments', () => {
  it('serves a fork’s pull request: head.repo is the fork (fork: true, its owner), the head sha is refs/pull/N/head, no branch here', async () => {
    const { gh, octokit } = await withFeature();
    gh.addUser('contributor', { permission: 'read' });
    const pull = await gh.openForkPull({ owner: 'contributor', branch: 'patch-1', base: 'main', title: 'Fix', body: 'A fix.', files: { 'fix.txt': 'x\n' } });
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...repoOf(gh), pull_number: pull.number });
    expect(data.head).toMatchObject({
      ref: 'patch-1',
      label: 'contributor:patch-1',
      sha: pull.fork!.sha,
      repo: { full_name: 'contributor/widgets', fork: true },
    });
    expect(data.head.repo?.owner.login).toBe('contributor');
    expect(data.base.repo.full_name).toBe('acme/widgets');
    expect(data.base.repo.fork).toBe(false);
    expect(data.changed_files).toBe(1);
    expect(await gh.repo.branchSha('patch-1')).toBeUndefined();
    expect(await git(['rev-parse', `refs/pull/${pull.number}/head`], { cwd: gh.repoDir })).toBe(`${pull.fork!.sha}\n`);
    // Listed under the fork owner's label, as GitHub's `head` filter spells it.
    expect((await octokit.request('GET /repos/{owner}/{repo}/pulls', { ...repoOf(gh), head: 'contributor:patch-1' })).data.map((p) => p.number)).toEqual([
      pull.number,
    ]);
    expect((await octokit.request('GET /repos/{owner}/{repo}/pulls', { ...repoOf(gh), head: 'acme:patch-1' })).data).toEqual([]);
  });

  it('a line comment (201) is a review comment and a review of its own: both events, the review with no body', async () => {
    const { gh } = await withFeature();
    gh.addUser('reviewer', { permission: 'read' });
    const opened = await openFeature(gh, gh.userToken('acme'));
    const events = recordEvents(gh);
    const reviewer = octokitFor(gh, gh.userToken('reviewer'));
    const { status, data } = await reviewer.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', {
      ...repoOf(gh),
      pull_number: opened.data.number,
      body: '/crew run',
      commit_id: opened.data.head.sha,
      path: 'src/app.ts',
      line: 1,
      side: 'RIGHT',
    });
    expect(status).toBe(201);
    expect(data).toMatchObject({ body: '/crew run', path: 'src/app.ts', line: 1, user: { login: 'reviewer' } });
    expect(events.map((e) => [e.name, e.payload.action])).toEqual([
      ['pull_request_review_comment', 'created'],
      ['pull_request_review', 'submitted'],
    ]);
    expect(events[0]!.payload).toMatchObject({ comment: { id: data.id, body: '/crew run' }, pull_request: { number: opened.data.number } });
    expect(events[1]!.payload).toMatchObject({ review: { id: data.pull_request_review_id, body: null, state: 'commented' } });
    // A line the file does not have is refused.
    const err = await failure(
      reviewer.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', {
        ...repoOf(gh),
        pull_number: opened.data.number,
        body: 'x',
        commit_id: opened.data.head.sha,
        path: 'src/app.ts',
        line: 40,
      }),
    );
    expect(err.status).toBe(422);
  });

  it('a review with line comments: each comment belongs to the review and sends its event, then the review; a bad line refuses the whole review', async () => {
    const { gh } = await withFeature();
    gh.addUser('reviewer', { permission: 'write' });
    const opened = await openFeature(gh, gh.userToken('acme'));
    const events = recordEvents(gh);
    const reviewer = octokitFor(gh, gh.userToken('reviewer'));
    const { data: review } = await reviewer.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
      ...repoOf(gh),
      pull_number: opened.data.number,
      event: 'REQUEST_CHANGES',
      body: 'Two things.',
      comments: [
        { path: 'src/app.ts', line: 1, side: 'RIGHT', body: 'Name it.' },
        { path: 'feature.txt', line: 2, side: 'RIGHT', body: 'Drop this line.' },
      ],
    });
    expect(review).toMatchObject({ state: 'CHANGES_REQUESTED', body: 'Two things.' });
    const comments = (await reviewer.request('GET /repos/{owner}/{repo}/pulls/{pull_number}/comments', { ...repoOf(gh), pull_number: opened.data.number }))
      .data;
    expect(comments.map((c) => [c.pull_request_review_id, c.path, c.line, c.body, c.in_reply_to_id])).toEqual([
      [review.id, 'src/app.ts', 1, 'Name it.', undefined],
      [review.id, 'feature.txt', 2, 'Drop this line.', undefined],
    ]);
    expect(
      events.map((e) => [e.name, e.payload.action, (e.payload.comment as { id?: number } | undefined)?.id ?? (e.payload.review as { id: number }).id]),
    ).toEqual([
      ['pull_request_review_comment', 'created', comments[0]!.id],
      ['pull_request_review_comment', 'created', comments[1]!.id],
      ['pull_request_review', 'submitted', review.id],
    ]);
    const bad = await failure(
      reviewer.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
        ...repoOf(gh),
        pull_number: opened.data.number,
        event: 'COMMENT',
        comments: [
          { path: 'src/app.ts', line: 1, body: 'fine' },
          { path: 'src/app.ts', line: 40, body: 'no such line' },
        ],
      }),
    );
    expect([bad.status, bad.data.errors]).toEqual([422, ['Line could not be resolved']]);
    expect([gh.reviews.length, gh.reviewComments.length]).toEqual([1, 2]);
  });
});
