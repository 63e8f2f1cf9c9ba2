import { describe, expect, it } from 'vitest';
import { failure, fakeForTest, octokitFor, repoOf } from './helpers';

const COMMENTS = 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments';

describe('primary rate limit', () => {
  it('sends rate-limit headers that count down with each request', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    const a = await octokit.request('GET /repos/{owner}/{repo}', repoOf(gh));
    const b = await octokit.request('GET /repos/{owner}/{repo}', repoOf(gh));
    expect(a.headers['x-ratelimit-limit']).toBe('5000');
    expect(a.headers['x-ratelimit-resource']).toBe('core');
    expect(Number(a.headers['x-ratelimit-remaining'])).toBe(4999);
    expect(Number(b.headers['x-ratelimit-remaining'])).toBe(4998);
    expect(Number(b.headers['x-ratelimit-used'])).toBe(2);
    expect(Number(b.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    // Errors count too.
    const miss = await failure(octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 99 }));
    expect(miss.headers['x-ratelimit-remaining']).toBe('4997');
  });

  it('reports use at GET /rate_limit, which itself costs nothing', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    for (let i = 0; i < 3; i++) await octokit.request('GET /repos/{owner}/{repo}', repoOf(gh));
    const first = await octokit.request('GET /rate_limit');
    const second = await octokit.request('GET /rate_limit');
    expect(first.data.resources.core).toMatchObject({ limit: 5000, used: 3, remaining: 4997 });
    expect(first.data.rate).toEqual(first.data.resources.core);
    expect(second.data.resources.core.used).toBe(3);
  });

  it('gives workflow tokens 1,000 an hour, shared by every run in the repository', async () => {
    const gh = await fakeForTest();
    const run1 = octokitFor(gh, gh.actionsToken({}, 1));
    const run2 = octokitFor(gh, gh.actionsToken({}, 2));
    const a = await run1.request('GET /repos/{owner}/{repo}', repoOf(gh));
    const b = await run2.request('GET /repos/{owner}/{repo}', repoOf(gh));
    expect(a.headers['x-ratelimit-limit']).toBe('1000');
    expect(a.headers['x-ratelimit-remaining']).toBe('999');
    expect(b.headers['x-ratelimit-remaining']).toBe('998');
    // People have their own budgets.
    const person = await octokitFor(gh, gh.userToken('acme')).request('GET /repos/{owner}/{repo}', repoOf(gh));
    expect(person.headers['x-ratelimit-remaining']).toBe('4999');
  });

  it('refuses requests once the budget is spent', async () => {
    const gh = await fakeForTest();
    const token = gh.actionsToken({ issues: 'write' });
    const octokit = octokitFor(gh, token);
    const principal = gh.tokens.get(token)!;
    for (let i = 0; i < 999; i++) gh.rateWindow(principal, true);
    const last = await octokit.request('GET /repos/{owner}/{repo}', repoOf(gh));
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await failure(octokit.request('GET /repos/{owner}/{repo}', repoOf(gh)));
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('API rate limit exceeded for installation.');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    expect((await octokit.request('GET /rate_limit')).data.resources.core.remaining).toBe(0);
  });
});

describe('secondary rate limit', () => {
  it('refuses the 81st content-creating request in a minute with retry-after', async () => {
    const gh = await fakeForTest({ timeScale: 1 });
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    for (let i = 0; i < 79; i++)
      await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: `c${i}` });
    const refused = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'one too many' }),
    );
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('secondary rate limit');
    expect(refused.headers['retry-after']).toBe('60');
    expect(gh.comments.size).toBe(79);
    // Reads are not content creation.
    expect((await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...repoOf(gh), issue_number: 1 })).status).toBe(200);
  });

  it('refuses the 501st content-creating request in an hour, even at 80 a minute or fewer, until the hour has passed', async () => {
    const gh = await fakeForTest({ timeScale: 1 });
    let now = Date.parse('2026-11-25T10:00:00Z');
    gh.limitClock = () => now;
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    for (let i = 1; i < 500; i++) {
      if (i % 80 === 0) now += 61_000;
      await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: `c${i}` });
    }
    now += 61_000;
    const refused = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'the 501st' }),
    );
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('secondary rate limit');
    expect(gh.comments.size).toBe(499);
    now += 60 * 60_000;
    expect(
      (await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'an hour later' })).status,
    ).toBe(201);
  });
});

describe('fault injection', () => {
  it('serves a 500 once, then the real answer', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    gh.addFaults({ route: COMMENTS, status: 500, kind: 'server-error' });
    const failed = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'hello' }),
    );
    expect(failed.status).toBe(500);
    expect(gh.comments.size).toBe(0);
    const ok = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'hello' });
    expect(ok.status).toBe(201);
    expect(gh.comments.size).toBe(1);
    expect(gh.requests.filter((r) => r.route === COMMENTS).map((r) => r.status)).toEqual([500, 201]);
  });

  it('matches faults by route, honours times, and `*` matches anything', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    gh.addFaults({ route: COMMENTS, status: 502, times: 2 });
    // Another route is untouched.
    expect((await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' })).status).toBe(201);
    expect(
      (await failure(octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'a' }))).status,
    ).toBe(502);
    expect(
      (await failure(octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'a' }))).status,
    ).toBe(502);
    expect((await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'a' })).status).toBe(
      201,
    );
    gh.addFaults({ route: '*', status: 503, message: 'No server is currently available to service your request.' });
    const any = await failure(octokit.request('GET /repos/{owner}/{repo}', repoOf(gh)));
    expect(any.status).toBe(503);
    expect(any.message).toContain('No server is currently available');
    expect((await octokit.request('GET /repos/{owner}/{repo}', repoOf(gh))).status).toBe(200);
  });

  it('with afterEffect, makes the write and then answers with the error', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    gh.addFaults({ route: COMMENTS, status: 502, kind: 'server-error', afterEffect: true });
    const failed = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'did it land?' }),
    );
    expect(failed.status).toBe(502);
    const list = await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1 });
    expect(list.data.map((c) => c.body)).toEqual(['did it land?']);
  });

  it('drops the connection, before or after the write', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    gh.addFaults({ route: COMMENTS, status: 0, kind: 'drop' });
    const dropped = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'lost' }),
    );
    expect(dropped.status).toBe(500);
    expect(dropped.message).toMatch(/fetch failed|socket|closed/i);
    expect(gh.comments.size).toBe(0);

    gh.addFaults({ route: COMMENTS, status: 0, kind: 'drop', afterEffect: true });
    await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'landed, answer lost' }),
    );
    expect([...gh.comments.values()].map((c) => c.body)).toEqual(['landed, answer lost']);
    expect(gh.requests.filter((r) => r.route === COMMENTS).map((r) => r.status)).toEqual([-1, -1]);
  });

  it('serves a secondary rate limit with retry-after', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    gh.addFaults({ route: COMMENTS, status: 403, kind: 'secondary-rate-limit', retryAfterSeconds: 7 });
    const limited = await failure(octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'x' }));
    expect(limited.status).toBe(403);
    expect(limited.headers['retry-after']).toBe('7');
    expect(limited.message).toContain('You have exceeded a secondary rate limit');
    expect(Number(limited.headers['x-ratelimit-remaining'])).toBeGreaterThan(0);
    expect(gh.comments.size).toBe(0);
  });

  it('serves a primary rate limit with x-ratelimit-remaining 0', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.actionsToken({ issues: 'write' }));
    gh.addFaults({ route: 'GET /repos/{owner}/{repo}', status: 429, kind: 'primary-rate-limit' });
    const limited = await failure(octokit.request('GET /repos/{owner}/{repo}', repoOf(gh)));
    expect(limited.status).toBe(429);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-limit']).toBe('1000');
    expect(limited.message).toContain('API rate limit exceeded');
    expect((await octokit.request('GET /repos/{owner}/{repo}', repoOf(gh))).headers['x-ratelimit-remaining']).not.toBe('0');
  });
});

describe('a held request (a test’s way to let other jobs act at a chosen point)', () => {
  it('waits unanswered until its condition holds, matching its route and body; then it is served as usual; other requests pass', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    const { data: issue } = await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'x' });
    let open = false;
    gh.holdRequest({ route: COMMENTS, body: /crew:report/, until: () => open, timeoutMs: 60_000, what: 'the report' });
    // A comment whose body does not match is not held.
    await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: issue.number, body: 'plain' });
    let done = false;
    const held = octokit
      .request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...repoOf(gh),
        issue_number: issue.number,
        body: '<!-- crew:report issue=1 run=1 -->',
      })
      .then((r) => {
        done = true;
        return r;
      });
    await new Promise((r) => setTimeout(r, 200));
    expect(done).toBe(false);
    expect(gh.pendingHolds).toEqual(['the report']);
    open = true;
    expect((await held).status).toBe(201);
    expect(gh.pendingHolds).toEqual([]);
    // Held once: the next matching request is served at once.
    await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...repoOf(gh),
      issue_number: issue.number,
      body: '<!-- crew:report issue=1 run=2 -->',
    });
    expect(gh.violations).toEqual([]);
  });

  it('a condition that never holds in time is a violation (the request is then served), and a hold nothing took stays pending', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    gh.holdRequest({ route: 'GET /repos/{owner}/{repo}', until: () => false, timeoutMs: 100, what: 'never' });
    gh.holdRequest({ route: COMMENTS, until: () => true, timeoutMs: 100, what: 'untaken' });
    expect((await octokit.request('GET /repos/{owner}/{repo}', repoOf(gh))).status).toBe(200);
    expect(gh.violations).toEqual([
      expect.stringMatching(/^held GET \/repos\/\{owner\}\/\{repo\} \(never\) for 100 ms and its condition never held; served it anyway$/),
    ]);
    gh.violations.length = 0;
    expect(gh.pendingHolds).toEqual(['untaken']);
  });
});
