import { Octokit } from '@octokit/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { numberId, type GitHubForgeOptions } from '../../../src/adapters/github/forge';
import { tokenKind } from '../../../src/main';
import type { Log } from '../../../src/ports';
import { FakeGitHub } from '../../support/github/fake-github';
import { forgeOn } from '../../support/github/forge-on';
import { fakeGitHubForTest } from '../../support/github/for-test';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

describe("crew's own login, by the kind of token it was given", () => {
  let gh: FakeGitHub;
  let issue: number;
  let people: Octokit;

  const forge = (token: string, opts: Partial<GitHubForgeOptions> = {}) => forgeOn(gh, token, log, { tokenKind: tokenKind(token), ...opts });
  const calls = (route: string) => gh.requests.filter((r) => r.route === route).length;

  beforeEach(async () => {
    ({ gh } = await fakeGitHubForTest({ prefix: 'bot-login-', apiUrl: true }));
    gh.addUser('maintainer', { permission: 'write' });
    people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    issue = (await people.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'T' })).data.number;
  });

  it('tells user tokens from installation tokens by prefix, and no further', () => {
    for (const t of ['ghp_abc', 'github_pat_abc', 'gho_abc', 'ghu_abc']) expect(tokenKind(t)).toBe('personal');
    // The workflow's GITHUB_TOKEN and a GitHub App's installation token look alike.
    expect(tokenKind('ghs_abc')).toBe('installation');
  });

  it('a personal token: GET /user names the account, asked once', async () => {
    const f = forge(gh.userToken('maintainer'));
    expect(await f.botLogin()).toBe('maintainer');
    expect(await f.botLogin()).toBe('maintainer');
    expect(calls('GET /user')).toBe(1);
  });

  it("a GitHub App token: the app's bot, not github-actions[bot], and its own comment is found by it", async () => {
    const token = gh.appToken('crew-app', { issues: 'write' });
    const posted = await forge(token).postComment(issue, '<!-- crew:plan issue=1 run=1 --> plan');
    // A later job that has written nothing yet asks GraphQL's viewer (GET /user answers an installation 403).
    const later = forge(token);
    const login = await later.botLogin();
    expect(login).toBe('crew-app[bot]');
    expect(calls('POST /graphql')).toBe(1);
    expect(calls('GET /user')).toBe(0);
    expect(await later.findComment(issue, '<!-- crew:plan issue=1 run=1 -->', login)).toEqual(posted);
  });

  it('learns the login from the author GitHub gives its 👀 reaction, with no request of its own', async () => {
    const { data: comment } = await people.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner: gh.owner,
      repo: gh.repoName,
      issue_number: issue,
      body: '/crew run',
    });
    const f = forge(gh.appToken('crew-app', { issues: 'write' }));
    await f.react(numberId(comment.id), 'eyes');
    expect(await f.botLogin()).toBe('crew-app[bot]');
    expect(calls('POST /graphql') + calls('GET /user')).toBe(0);
  });

  it("the workflow's GITHUB_TOKEN: github-actions[bot], never GET /user", async () => {
    expect(await forge(gh.actionsToken({ issues: 'write' })).botLogin()).toBe('github-actions[bot]');
    expect(calls('GET /user')).toBe(0);
  });

  it('bot_login in config wins over everything else, and costs no request', async () => {
    const token = gh.appToken('crew-app', { issues: 'write' });
    const { data: comment } = await people.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner: gh.owner,
      repo: gh.repoName,
      issue_number: issue,
      body: '/crew run',
    });
    const f = forge(token, { configuredLogin: async () => 'our-crew[bot]' });
    expect(await f.botLogin()).toBe('our-crew[bot]');
    await f.react(numberId(comment.id), 'eyes');
    expect(await f.botLogin()).toBe('our-crew[bot]');
    expect(await forge(gh.userToken('maintainer'), { configuredLogin: async () => 'our-crew[bot]' }).botLogin()).toBe('our-crew[bot]');
    expect(calls('POST /graphql') + calls('GET /user')).toBe(0);
  });
});
