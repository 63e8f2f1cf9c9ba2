import { describe, expect, it } from 'vitest';
import { numberId } from '../../../src/adapters/github/forge';
import { fakeForTest, octokitFor, recordEvents, repoOf, seedBranch, takeViolations } from './helpers';

describe('events', () => {
  it('emits issue_comment created for a comment made with a person’s token', async () => {
    const gh = await fakeForTest();
    gh.addUser('alice', { permission: 'read' });
    await octokitFor(gh, gh.userToken('acme')).request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const events = recordEvents(gh);
    const c = await octokitFor(gh, gh.userToken('alice')).request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...repoOf(gh),
      issue_number: 1,
      body: '/crew go',
    });

    expect(events.map((e) => e.name)).toEqual(['issue_comment']);
    const e = events[0]!;
    expect(e.actor).toBe('alice');
    expect(e.payload).toMatchObject({
      action: 'created',
      comment: { id: c.data.id, body: '/crew go', user: { login: 'alice', type: 'User' } },
      issue: { number: 1, title: 'T', comments: 1 },
      repository: { full_name: 'acme/widgets', private: true, default_branch: 'main' },
      sender: { login: 'alice', type: 'User' },
    });
    // The example's installation and organization are not ours to send.
    expect(e.payload).not.toHaveProperty('installation');
    expect(e.payload).not.toHaveProperty('organization');
  });

  it('emits nothing for a comment made with a workflow’s GITHUB_TOKEN', async () => {
    const gh = await fakeForTest();
    await octokitFor(gh, gh.userToken('acme')).request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const events = recordEvents(gh);
    const token = gh.actionsToken({ issues: 'write' });
    const c = await octokitFor(gh, token).request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...repoOf(gh),
      issue_number: 1,
      body: 'bot says hi',
    });
    await octokitFor(gh, token).request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
      ...repoOf(gh),
      comment_id: c.data.id,
      body: 'bot says bye',
    });
    await octokitFor(gh, token).request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { ...repoOf(gh), issue_number: 1, labels: ['crew'] });
    expect(events).toEqual([]);
    expect(gh.comments.get(numberId(c.data.id))!.body).toBe('bot says bye');
  });

  it('emits for a comment made with a GitHub App’s token, as a Bot', async () => {
    const gh = await fakeForTest();
    await octokitFor(gh, gh.userToken('acme')).request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const events = recordEvents(gh);
    await octokitFor(gh, gh.appToken('crew-app', { issues: 'write' })).request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...repoOf(gh),
      issue_number: 1,
      body: 'app here',
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.actor).toBe('crew-app[bot]');
    expect(events[0]!.payload).toMatchObject({ action: 'created', comment: { user: { login: 'crew-app[bot]', type: 'Bot' } }, sender: { type: 'Bot' } });
  });

  it('emits issue_comment edited with the previous body', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const c = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'before' });
    const events = recordEvents(gh);
    await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: c.data.id, body: 'after' });
    expect(events).toHaveLength(1);
    expect(events[0]!.name).toBe('issue_comment');
    expect(events[0]!.payload).toMatchObject({
      action: 'edited',
      changes: { body: { from: 'before' } },
      comment: { id: c.data.id, body: 'after' },
      issue: { number: 1 },
    });
  });

  it('emits issues opened, edited (naming only what changed) and labeled', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    const events = recordEvents(gh);
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'First title', body: 'first body' });
    await octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1, title: 'Second title' });
    await octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1, body: 'second body' });
    await octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1, state: 'closed' });
    await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { ...repoOf(gh), issue_number: 1, labels: ['crew'] });

    expect(events.map((e) => `${e.name}.${String(e.payload.action)}`)).toEqual(['issues.opened', 'issues.edited', 'issues.edited', 'issues.labeled']);
    expect(events[0]!.payload).toMatchObject({ issue: { number: 1, title: 'First title', body: 'first body' }, sender: { login: 'acme' } });
    expect(events[1]!.payload.changes).toEqual({ title: { from: 'First title' } });
    expect(events[2]!.payload.changes).toEqual({ body: { from: 'first body' } });
    expect(events[3]!.payload).toMatchObject({ label: { name: 'crew' }, issue: { labels: [{ name: 'crew' }] } });
  });

  it('lets triage users label and assign (as GitHub’s role table says), and emits issues.assigned for each new assignee it keeps', async () => {
    const gh = await fakeForTest();
    gh.addUser('triager', { permission: 'triage' });
    gh.addUser('reader', { permission: 'read' });
    gh.addUser('outsider', { permission: 'none' });
    await octokitFor(gh, gh.userToken('acme')).request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const triager = octokitFor(gh, gh.userToken('triager'));
    const events = recordEvents(gh);
    await triager.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { ...repoOf(gh), issue_number: 1, labels: ['crew'] });
    const { data } = await triager.request('POST /repos/{owner}/{repo}/issues/{issue_number}/assignees', {
      ...repoOf(gh),
      issue_number: 1,
      assignees: ['reader', 'outsider'],
    });
    // Someone with no access cannot be assigned: GitHub ignores the login without an error.
    expect(data.assignees?.map((a) => a.login)).toEqual(['reader']);
    expect(events.map((e) => `${e.name}.${String(e.payload.action)}`)).toEqual(['issues.labeled', 'issues.assigned']);
    expect(events[1]!.payload).toMatchObject({ assignee: { login: 'reader' }, sender: { login: 'triager' }, issue: { assignees: [{ login: 'reader' }] } });
    const reader = octokitFor(gh, gh.userToken('reader'));
    await expect(
      reader.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { ...repoOf(gh), issue_number: 1, labels: ['bug'] }),
    ).rejects.toMatchObject({ status: 403 });
    expect(takeViolations(gh)).toEqual([]);
  });

  it('emits no issues events for a pull request', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'feature', { 'f.txt': 'f\n' });
    const octokit = octokitFor(gh, gh.userToken('acme'));
    const events = recordEvents(gh);
    const pr = await octokit.request('POST /repos/{owner}/{repo}/pulls', { ...repoOf(gh), head: 'feature', base: 'main', title: 'PR' });
    await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { ...repoOf(gh), issue_number: pr.data.number, labels: ['crew'] });
    await octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: pr.data.number, title: 'PR, renamed' });
    expect(events.filter((e) => e.name === 'issues')).toEqual([]);
  });

  it('emits pull_request_review submitted for a review', async () => {
    const gh = await fakeForTest();
    gh.addUser('reviewer', { permission: 'write' });
    await seedBranch(gh, 'feature', { 'f.txt': 'f\n' });
    const pr = await octokitFor(gh, gh.userToken('acme')).request('POST /repos/{owner}/{repo}/pulls', {
      ...repoOf(gh),
      head: 'feature',
      base: 'main',
      title: 'PR',
    });
    const events = recordEvents(gh);
    await octokitFor(gh, gh.userToken('reviewer')).request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
      ...repoOf(gh),
      pull_number: pr.data.number,
      event: 'APPROVE',
      body: 'lgtm',
    });
    expect(events).toHaveLength(1);
    expect(events[0]!).toMatchObject({
      name: 'pull_request_review',
      actor: 'reviewer',
      payload: { action: 'submitted', review: { state: 'approved', body: 'lgtm' }, pull_request: { number: pr.data.number } },
    });
  });

  it('stops telling a listener once it unsubscribes', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    const seen: string[] = [];
    const stop = gh.onEvent((e) => seen.push(e.name));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'one' });
    stop();
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'two' });
    expect(seen).toEqual(['issues']);
  });
});
