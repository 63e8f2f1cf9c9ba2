import { Octokit } from '@octokit/core';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GitHubForge } from '../../../src/adapters/github/forge';
import { decideRetry, MAX_RATE_LIMIT_RETRIES, type FailedRequest } from '../../../src/adapters/github/request-policy';
import type { Clock, Log, RateLimitWait } from '../../../src/ports';
import { git } from '../../support/git-cli';
import { FakeGitHub } from '../../support/github/fake-github';
import { forgeOn } from '../../support/github/forge-on';
import { fakeGitHubForTest } from '../../support/github/for-test';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const fail = (f: Partial<FailedRequest>): FailedRequest => ({ method: 'GET', status: 500, headers: {}, message: 'x', ...f });

describe('the GitHub retry policy', () => {
  it('waits out a rate limit: retry-after first, then the reset time, then 60 s', () => {
    const primary = {
      status: 403,
      message: 'API rate limit exceeded for installation.',
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 42) },
    };
    expect(decideRetry(fail({ ...primary, headers: { ...primary.headers, 'retry-after': '7' } }), 0, NOW)).toEqual({
      retry: true,
      waitSeconds: 7,
      kind: 'primary',
    });
    expect(decideRetry(fail(primary), 0, NOW)).toEqual({ retry: true, waitSeconds: 43, kind: 'primary' });
    expect(decideRetry(fail({ ...primary, status: 429 }), 0, NOW)).toEqual({ retry: true, waitSeconds: 43, kind: 'primary' });
    const secondary = { status: 403, message: 'You have exceeded a secondary rate limit.', headers: { 'x-ratelimit-remaining': '4000' } };
    expect(decideRetry(fail({ ...secondary, headers: { ...secondary.headers, 'retry-after': '30' } }), 0, NOW)).toEqual({
      retry: true,
      waitSeconds: 30,
      kind: 'secondary',
    });
    expect(decideRetry(fail(secondary), 0, NOW)).toEqual({ retry: true, waitSeconds: 60, kind: 'secondary' });
    // Older wording, and a 403 that only carries retry-after, are waited out too.
    expect(decideRetry(fail({ status: 403, message: 'You have triggered an abuse detection mechanism.' }), 0, NOW)).toEqual({
      retry: true,
      waitSeconds: 60,
      kind: 'secondary',
    });
    expect(decideRetry(fail({ status: 403, message: 'Forbidden', headers: { 'retry-after': '9' } }), 0, NOW)).toEqual({
      retry: true,
      waitSeconds: 9,
      kind: 'secondary',
    });
    // A bare 429 is a rate limit too; POSTs are safe to repeat because GitHub did nothing.
    expect(decideRetry(fail({ status: 429, method: 'POST' }), 0, NOW)).toEqual({ retry: true, waitSeconds: 60, kind: 'secondary' });
  });

  it('tries a bounded number of times, and will not sit out a reset that is most of an hour away', () => {
    const limited = fail({ status: 429, headers: { 'retry-after': '1' } });
    for (let retry = 0; retry < MAX_RATE_LIMIT_RETRIES; retry++) expect(decideRetry(limited, retry, NOW).retry).toBe(true);
    expect(decideRetry(limited, MAX_RATE_LIMIT_RETRIES, NOW)).toMatchObject({ retry: false, why: expect.stringContaining('still rate-limited') });
    const farReset = fail({ status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 3000) } });
    expect(decideRetry(farReset, 0, NOW)).toMatchObject({ retry: false, why: expect.stringContaining('resets in 51 minutes') });
  });

  it('never repeats an answer: 400, 401, 403 without a limit, 404, 405, 409, 410, 422, 451', () => {
    for (const status of [400, 401, 403, 404, 405, 409, 410, 422, 451]) expect(decideRetry(fail({ status, method: 'GET' }), 0, NOW).retry).toBe(false);
  });

  it('repeats a 5xx or a lost connection only for requests that are safe to repeat, with backoff', () => {
    expect([0, 1, 2].map((r) => decideRetry(fail({ status: 502 }), r, NOW))).toEqual(
      [1, 2, 4].map((waitSeconds) => ({ retry: true, waitSeconds, kind: 'server-error' })),
    );
    expect(decideRetry(fail({ status: 502 }), 3, NOW).retry).toBe(false);
    expect(decideRetry(fail({ status: 503, method: 'PATCH', headers: { 'retry-after': '5' } }), 0, NOW)).toEqual({
      retry: true,
      waitSeconds: 5,
      kind: 'server-error',
    });
    expect(decideRetry(fail({ status: 500, method: 'POST' }), 0, NOW)).toMatchObject({ retry: false, why: expect.stringContaining('may have landed') });
    expect(decideRetry(fail({ status: 500, method: 'POST', idempotent: true }), 0, NOW).retry).toBe(true);
  });
});

describe('GitHubForge through faults of the fake GitHub', () => {
  let gh: FakeGitHub;
  let dir: string;
  let forge: GitHubForge;
  let issue: number;
  const waits: RateLimitWait[] = [];
  const slept: number[] = [];
  const warnings: string[] = [];
  const log: Log = { info: () => undefined, warn: (m) => warnings.push(m), checkpoint: () => undefined };
  const clock: Clock = { now: () => new Date(), sleep: async (ms) => void slept.push(ms) };
  const COMMENTS = 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments';
  const LIST = 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments';
  const calls = (route: string) => gh.requests.filter((r) => r.route === route).map((r) => r.status);

  beforeEach(async () => {
    waits.length = slept.length = warnings.length = 0;
    ({ gh, dir } = await fakeGitHubForTest({ prefix: 'forge-faults-', apiUrl: true }));
    gh.addUser('maintainer', { permission: 'write' });
    const people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    issue = (await people.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'T' })).data.number;
    const token = gh.actionsToken({ contents: 'write', issues: 'write', 'pull-requests': 'write', actions: 'write' });
    forge = forgeOn(gh, token, log, { rateLimitWaits: () => waits, clock }, { clock, onRateLimit: (w) => waits.push(w) });
  });

  it('waits out primary and secondary rate limits, 403 and 429, and records each wait', async () => {
    gh.addFaults(
      { route: COMMENTS, status: 403, kind: 'secondary-rate-limit', retryAfterSeconds: 7 },
      { route: COMMENTS, status: 429, kind: 'primary-rate-limit', resetInSeconds: 42 },
      { route: COMMENTS, status: 429, kind: 'secondary-rate-limit' },
    );
    await forge.postComment(issue, 'hello');
    expect(calls(COMMENTS)).toEqual([403, 429, 429, 201]);
    expect(gh.comments.size).toBe(1);
    // The reset is a whole epoch second 42 s ahead, plus the second GitHub asks clients to add.
    expect(waits.map((w) => w.kind)).toEqual(['secondary', 'primary', 'secondary']);
    expect(waits.map((w) => w.seconds)).toEqual([7, expect.any(Number), 60]);
    expect(waits[1]!.seconds).toBeGreaterThanOrEqual(43);
    expect(waits[1]!.seconds).toBeLessThanOrEqual(44);
    expect(slept).toEqual(waits.map((w) => w.seconds * 1000));
    expect(forge.rateLimitWaits()).toBe(waits);
    expect(warnings.filter((w) => w.includes('rate limit'))).toHaveLength(3);
  });

  it('gives up on a rate limit after a bounded number of waits', async () => {
    gh.addFaults({ route: COMMENTS, status: 429, kind: 'secondary-rate-limit', retryAfterSeconds: 1, times: 10 });
    await expect(forge.postComment(issue, 'hello')).rejects.toMatchObject({ status: 429 });
    expect(calls(COMMENTS)).toHaveLength(MAX_RATE_LIMIT_RETRIES + 1);
    expect(gh.comments.size).toBe(0);
  });

  it('does not repeat 404 or 422', async () => {
    await expect(forge.getComment(12345)).rejects.toMatchObject({ status: 404 });
    expect(calls('GET /repos/{owner}/{repo}/issues/comments/{comment_id}')).toEqual([404]);
    gh.addFaults({ route: 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', status: 422 });
    const c = await forge.postComment(issue, 'a');
    await expect(forge.updateComment(c.id, 'b')).rejects.toMatchObject({ status: 422 });
    expect(calls('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}')).toEqual([422]);
    expect(slept).toEqual([]);
  });

  it('posts a comment once when the answer is lost after it landed (a dropped connection, a 502)', async () => {
    gh.addFaults({ route: COMMENTS, status: 0, kind: 'drop', afterEffect: true });
    const first = await forge.postComment(issue, 'first');
    gh.addFaults({ route: COMMENTS, status: 502, kind: 'server-error', afterEffect: true });
    const second = await forge.postComment(issue, 'second');
    const bodies = [...gh.comments.values()].map((c) => c.body.replace(/\n\n<!-- crew:post key=[0-9a-f]+ -->$/, ''));
    expect(bodies).toEqual(['first', 'second']);
    expect([first.id, second.id]).toEqual([...gh.comments.keys()]);
    // One POST each; the look-up asks only for recently updated comments.
    expect(calls(COMMENTS)).toEqual([-1, 502]);
    expect(gh.requests.filter((r) => r.route === LIST)).toHaveLength(2);
  });

  it('posts again when the failed try did not land, and still only once', async () => {
    gh.addFaults({ route: COMMENTS, status: 0, kind: 'drop' }, { route: COMMENTS, status: 503, kind: 'server-error' });
    await forge.postComment(issue, 'hello');
    expect(calls(COMMENTS)).toEqual([-1, 503, 201]);
    expect(gh.comments.size).toBe(1);
  });

  it('repeats idempotent writes through a 5xx: labels, reactions, edits, and a PR whose answer was lost', async () => {
    gh.addFaults(
      { route: 'POST /repos/{owner}/{repo}/issues/{issue_number}/labels', status: 502, kind: 'server-error', afterEffect: true },
      { route: 'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', status: 0, kind: 'drop', afterEffect: true },
      { route: 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', status: 500, kind: 'server-error' },
      { route: 'POST /repos/{owner}/{repo}/pulls', status: 502, kind: 'server-error', afterEffect: true },
    );
    await forge.addLabel(issue, 'crew: waiting');
    expect(gh.issues.get(issue)!.labels).toEqual(['crew: waiting']);
    const c = await forge.postComment(issue, 'x');
    await forge.react(c.id, 'eyes');
    expect(gh.comments.get(c.id)!.reactions).toHaveLength(1);
    await forge.updateComment(c.id, 'y');
    expect(gh.comments.get(c.id)!.body).toBe('y');
    const work = join(dir, 'work');
    await git(['clone', '--quiet', gh.repoDir, work]);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '--allow-empty', '-m', 'x'], { cwd: work });
    await git(['push', '--quiet', 'origin', 'HEAD:refs/heads/crew/1/r1/integration'], { cwd: work });
    const pr = await forge.createPull({ title: 'T', body: 'Closes #1', head: 'crew/1/r1/integration', base: 'main' });
    expect(gh.pulls.size).toBe(1);
    expect(pr.number).toBe([...gh.pulls.keys()][0]);
    expect(calls('POST /repos/{owner}/{repo}/pulls')).toEqual([502, 422]);
  });
});
