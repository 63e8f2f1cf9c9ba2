import { describe, expect, it } from 'vitest';
import { numberId } from '../../../src/adapters/github/forge';
import { failure, fakeForTest, octokitFor, repoOf, takeViolations } from './helpers';

describe('issues', () => {
  it('creates an issue and reads it back', async () => {
    const gh = await fakeForTest();
    gh.addUser('alice', { permission: 'write' });
    const octokit = octokitFor(gh, gh.userToken('alice'));
    const created = await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'Add a widget', body: 'Please.', labels: ['crew'] });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      number: 1,
      title: 'Add a widget',
      body: 'Please.',
      state: 'open',
      comments: 0,
      user: { login: 'alice', type: 'User' },
    });
    expect(created.data.labels.map((l) => (typeof l === 'string' ? l : l.name))).toEqual(['crew']);
    expect(created.data.pull_request).toBeUndefined();

    const second = await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'Another' });
    expect(second.data.number).toBe(2);
    expect(second.data.id).not.toBe(created.data.id);

    const got = await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1 });
    expect(got.data).toMatchObject({ number: 1, title: 'Add a widget', html_url: `${gh.url}/acme/widgets/issues/1` });
    expect(got.data.url).toBe(`${gh.url}/repos/acme/widgets/issues/1`);
  });

  it('answers 404 for an issue that does not exist and 422 for a missing title', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 7 }))).status).toBe(404);
    const noTitle = await failure(octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: '' }));
    expect(noTitle.status).toBe(422);
    expect(noTitle.data.errors).toEqual([expect.objectContaining({ resource: 'Issue', field: 'title', code: 'missing_field' })]);
  });

  it('answers 404 for another repository', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    expect(
      (await failure(octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { owner: 'acme', repo: 'gadgets', issue_number: 1 }))).status,
    ).toBe(404);
  });

  it('updates title, body and state, and reopens with state_reason reopened', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'Old', body: 'old body' });
    const closed = await octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
      ...repoOf(gh),
      issue_number: 1,
      title: 'New',
      body: 'new body',
      state: 'closed',
      state_reason: 'not_planned',
    });
    expect(closed.data).toMatchObject({ title: 'New', body: 'new body', state: 'closed', state_reason: 'not_planned' });
    expect(closed.data.closed_at).toEqual(expect.any(String));
    const reopened = await octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1, state: 'open' });
    expect(reopened.data).toMatchObject({ state: 'open', state_reason: 'reopened', closed_at: null, title: 'New' });
  });

  it('replaces labels on update', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T', labels: ['a', 'b'] });
    const updated = await octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1, labels: ['c'] });
    expect(updated.data.labels.map((l) => (typeof l === 'string' ? l : l.name))).toEqual(['c']);
  });
});

describe('issue comments', () => {
  it('creates, gets and edits a comment, with an id above 2^31', async () => {
    const gh = await fakeForTest();
    gh.addUser('alice', { permission: 'write' });
    const octokit = octokitFor(gh, gh.userToken('alice'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const c = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'first!' });
    expect(c.status).toBe(201);
    expect(c.data.id).toBeGreaterThan(2 ** 31);
    expect(Number.isSafeInteger(c.data.id)).toBe(true);
    expect(c.headers.location).toBe(`${gh.url}/repos/acme/widgets/issues/comments/${c.data.id}`);
    expect(c.data).toMatchObject({
      body: 'first!',
      user: { login: 'alice' },
      issue_url: `${gh.url}/repos/acme/widgets/issues/1`,
      author_association: 'COLLABORATOR',
    });
    expect(c.data.html_url).toBe(`${gh.url}/acme/widgets/issues/1#issuecomment-${c.data.id}`);

    const got = await octokit.request('GET /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: c.data.id });
    expect(got.data.id).toBe(c.data.id);
    expect(got.data.body).toBe('first!');

    const edited = await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: c.data.id, body: 'edited' });
    expect(edited.data.body).toBe('edited');
    expect((await octokit.request('GET /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: c.data.id })).data.body).toBe(
      'edited',
    );
    expect((await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1 })).data.comments).toBe(1);

    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: 12345 }))).status).toBe(404);
    expect(
      (await failure(octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 99, body: 'x' }))).status,
    ).toBe(404);
  });

  it('paginates 150 comments with Link headers, in order', async () => {
    const gh = await fakeForTest();
    // Two authors, so neither crosses the secondary limit of 80 creations a minute.
    gh.addUser('alice', { permission: 'write' });
    gh.addUser('bob', { permission: 'write' });
    const alice = octokitFor(gh, gh.userToken('alice'));
    const bob = octokitFor(gh, gh.userToken('bob'));
    await alice.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'busy' });
    for (let i = 0; i < 150; i++) {
      await (i % 2 ? bob : alice).request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...repoOf(gh),
        issue_number: 1,
        body: `comment ${i}`,
      });
    }

    const all = await alice.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, per_page: 100 });
    expect(all.map((c) => c.body)).toEqual(Array.from({ length: 150 }, (_, i) => `comment ${i}`));
    const ids = all.map((c) => c.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);

    const pages: number[] = [];
    for await (const page of alice.paginate.iterator('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...repoOf(gh),
      issue_number: 1,
      per_page: 100,
    }))
      pages.push(page.data.length);
    expect(pages).toEqual([100, 50]);

    const first = await alice.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, per_page: 100 });
    const link = first.headers.link ?? '';
    expect(link).toMatch(/[?&]page=2[^>]*>; rel="next"/);
    expect(link).toMatch(/[?&]page=2[^>]*>; rel="last"/);
    expect(link).not.toContain('rel="prev"');
    const last = await alice.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, per_page: 100, page: 2 });
    expect(last.data).toHaveLength(50);
    expect(last.headers.link).toMatch(/rel="prev"/);
    expect(last.headers.link).toMatch(/rel="first"/);
    expect(last.headers.link).not.toContain('rel="next"');

    // The default page size is 30.
    const byDefault = await alice.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1 });
    expect(byDefault.data).toHaveLength(30);
    expect(byDefault.headers.link).toMatch(/[?&]page=5[^>]*>; rel="last"/);
    // GitHub caps per_page at 100.
    expect(
      (await alice.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, per_page: 500 })).data,
    ).toHaveLength(100);
    // A page past the end is empty.
    expect(
      (await alice.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, per_page: 100, page: 3 })).data,
    ).toEqual([]);
    expect((await alice.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1 })).data.comments).toBe(150);
  });

  it('lists only comments updated at or after `since`', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const made = [];
    for (const body of ['old', 'middle', 'new'])
      made.push(
        numberId((await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body })).data.id),
      );
    // Age the comments: old at 10:00, middle at 11:00, new stays now.
    gh.comments.get(made[0]!)!.created_at = gh.comments.get(made[0]!)!.updated_at = '2026-02-01T10:00:00Z';
    gh.comments.get(made[1]!)!.created_at = gh.comments.get(made[1]!)!.updated_at = '2026-02-01T11:00:00Z';

    const since = async (s: string) =>
      (await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, since: s })).data.map((c) => c.body);
    expect(await since('2026-02-01T10:30:00Z')).toEqual(['middle', 'new']);
    expect(await since('2026-02-01T11:00:00Z')).toEqual(['middle', 'new']);
    expect(await since('2026-02-01T09:00:00Z')).toEqual(['old', 'middle', 'new']);
    // Other spellings of the same instant: milliseconds and an offset.
    expect(await since('2026-02-01T11:00:00.500Z')).toEqual(['new']);
    expect(await since('2026-02-01T12:30:00+02:00')).toEqual(['middle', 'new']);
    // An edit counts as an update.
    await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: made[0]!, body: 'old, edited' });
    expect(await since('2026-02-01T10:30:00Z')).toEqual(['old, edited', 'middle', 'new']);
  });

  it('accepts a body of 65,536 characters and refuses one longer', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const ok = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'x'.repeat(65_536) });
    expect(ok.data.body).toHaveLength(65_536);
    const tooLong = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'x'.repeat(65_537) }),
    );
    expect(tooLong.status).toBe(422);
    expect(tooLong.message).toContain('Validation Failed');
    expect(JSON.stringify(tooLong.data.errors)).toContain('Body is too long (maximum is 65536 characters)');
    const editTooLong = await failure(
      octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: ok.data.id, body: 'y'.repeat(65_537) }),
    );
    expect(editTooLong.status).toBe(422);
    expect([...gh.comments.values()]).toHaveLength(1);
  });

  it('refuses an empty comment', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const empty = await failure(octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: '' }));
    expect(empty.status).toBe(422);
    expect(gh.comments.size).toBe(0);
  });

  it('lets a reader edit their own comment but not someone else’s', async () => {
    const gh = await fakeForTest();
    gh.addUser('reader', { permission: 'read' });
    const owner = octokitFor(gh, gh.userToken('acme'));
    const reader = octokitFor(gh, gh.userToken('reader'));
    await owner.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const mine = await reader.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'mine' });
    const theirs = await owner.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'theirs' });
    expect(
      (await reader.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: mine.data.id, body: 'mine, edited' })).data
        .body,
    ).toBe('mine, edited');
    expect(
      (
        await failure(
          reader.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: theirs.data.id, body: 'hijacked' }),
        )
      ).status,
    ).toBe(403);
    expect(gh.comments.get(numberId(theirs.data.id))!.body).toBe('theirs');
  });
});

describe('reactions', () => {
  it('answers 201 for a new reaction and 200 when the same user repeats it', async () => {
    const gh = await fakeForTest();
    gh.addUser('alice', { permission: 'read' });
    const owner = octokitFor(gh, gh.userToken('acme'));
    const alice = octokitFor(gh, gh.userToken('alice'));
    await owner.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const c = await owner.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'hi' });

    const first = await owner.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
      ...repoOf(gh),
      comment_id: c.data.id,
      content: 'eyes',
    });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ content: 'eyes', user: { login: 'acme' } });
    const again = await owner.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
      ...repoOf(gh),
      comment_id: c.data.id,
      content: 'eyes',
    });
    expect(again.status).toBe(200);
    expect(again.data.id).toBe(first.data.id);
    const other = await owner.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
      ...repoOf(gh),
      comment_id: c.data.id,
      content: 'rocket',
    });
    expect(other.status).toBe(201);
    const byAlice = await alice.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
      ...repoOf(gh),
      comment_id: c.data.id,
      content: 'eyes',
    });
    expect(byAlice.status).toBe(201);
    expect(byAlice.data.id).not.toBe(first.data.id);

    const rollup = (await owner.request('GET /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: c.data.id })).data.reactions;
    expect(rollup).toMatchObject({ total_count: 3, eyes: 2, rocket: 1, '+1': 0 });

    const onIssue = await alice.request('POST /repos/{owner}/{repo}/issues/{issue_number}/reactions', { ...repoOf(gh), issue_number: 1, content: '+1' });
    expect(onIssue.status).toBe(201);
    expect((await alice.request('POST /repos/{owner}/{repo}/issues/{issue_number}/reactions', { ...repoOf(gh), issue_number: 1, content: '+1' })).status).toBe(
      200,
    );
    expect((await owner.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1 })).data.reactions).toMatchObject({
      total_count: 1,
      '+1': 1,
    });
  });

  it('answers 422 for content GitHub does not know, and flags the request', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const c = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'hi' });
    const bad = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
        ...repoOf(gh),
        comment_id: c.data.id,
        content: 'thumbsup' as 'eyes',
      }),
    );
    expect(bad.status).toBe(422);
    expect(bad.data.errors).toEqual([expect.objectContaining({ resource: 'Reaction', field: 'content', code: 'invalid' })]);
    expect(takeViolations(gh)).toEqual([
      expect.stringMatching(
        /^request POST \/repos\/\{owner\}\/\{repo\}\/issues\/comments\/\{comment_id\}\/reactions: body\/content: must be equal to one of the allowed values.*got "thumbsup"$/,
      ),
    ]);
    expect(gh.comments.get(numberId(c.data.id))!.reactions).toEqual([]);
  });
});

describe('labels', () => {
  it('adds labels once each, case-insensitively, and removes them', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const added = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
      ...repoOf(gh),
      issue_number: 1,
      labels: ['crew:working', 'bug'],
    });
    expect(added.data.map((l) => l.name)).toEqual(['crew:working', 'bug']);
    const again = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
      ...repoOf(gh),
      issue_number: 1,
      labels: ['BUG', 'later'],
    });
    expect(again.data.map((l) => l.name)).toEqual(['crew:working', 'bug', 'later']);

    const removed = await octokit.request('DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', {
      ...repoOf(gh),
      issue_number: 1,
      name: 'crew:working',
    });
    expect(removed.data.map((l) => l.name)).toEqual(['bug', 'later']);
    const issue = await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1 });
    expect(issue.data.labels.map((l) => (typeof l === 'string' ? l : l.name))).toEqual(['bug', 'later']);

    const missing = await failure(
      octokit.request('DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', { ...repoOf(gh), issue_number: 1, name: 'crew:working' }),
    );
    expect(missing.status).toBe(404);
    expect(missing.message).toContain('Label does not exist');
  });

  it('creates a label and refuses a duplicate', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    const made = await octokit.request('POST /repos/{owner}/{repo}/labels', { ...repoOf(gh), name: 'crew', color: '#00ff00', description: 'crew at work' });
    expect(made.status).toBe(201);
    expect(made.data).toMatchObject({ name: 'crew', color: '00ff00', description: 'crew at work' });
    expect((await octokit.request('GET /repos/{owner}/{repo}/labels/{name}', { ...repoOf(gh), name: 'CREW' })).data.name).toBe('crew');
    const dup = await failure(octokit.request('POST /repos/{owner}/{repo}/labels', { ...repoOf(gh), name: 'Crew' }));
    expect(dup.status).toBe(422);
    expect(dup.data.errors).toEqual([expect.objectContaining({ code: 'already_exists' })]);
    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/labels/{name}', { ...repoOf(gh), name: 'nope' }))).status).toBe(404);
  });
});
