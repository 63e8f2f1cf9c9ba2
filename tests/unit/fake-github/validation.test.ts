import { describe, expect, it } from 'vitest';
import { failure, fakeForTest, octokitFor, repoOf, takeViolations } from './helpers';

describe('OpenAPI checks', () => {
  it('records a request body of the wrong type', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const bad = await failure(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/reactions', { ...repoOf(gh), issue_number: 1, content: 42 as unknown as '+1' }),
    );
    expect(bad.status).toBe(422);
    const violations = takeViolations(gh);
    // Both the type and the enum are wrong.
    expect(violations).toEqual([
      'request POST /repos/{owner}/{repo}/issues/{issue_number}/reactions: body/content: must be string (type); got 42',
      expect.stringMatching(
        /^request POST \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/reactions: body\/content: must be equal to one of the allowed values.*got 42$/,
      ),
    ]);
  });

  it('records a missing required body field and an unknown one', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    await failure(octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, text: 'hi' } as never));
    expect(takeViolations(gh)).toEqual(expect.arrayContaining([expect.stringContaining('body/body: required property is missing')]));
  });

  it('records an undocumented query parameter, the kind of typo GitHub ignores', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    const r = await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, 'per-page': 100 } as never);
    expect(r.status).toBe(200);
    expect(takeViolations(gh)).toEqual([expect.stringMatching(/query\/per-page: is not a documented query parameter/)]);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const gh = await fakeForTest();
    const token = gh.userToken('acme');
    const res = await fetch(`${gh.url}/repos/acme/widgets/issues`, {
      method: 'POST',
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: '{"title": ',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('Problems parsing JSON');
    expect(gh.issues.size).toBe(0);
  });

  it('records a request to a route it does not serve', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/releases', repoOf(gh)))).status).toBe(404);
    // A non-numeric issue number matches no route either.
    expect((await failure(octokit.request('GET /repos/acme/widgets/issues/abc'))).status).toBe(404);
    expect(takeViolations(gh)).toEqual([
      'request to a route the fake does not serve: GET /repos/acme/widgets/releases',
      'request to a route the fake does not serve: GET /repos/acme/widgets/issues/abc',
    ]);
  });

  it('records a response that strays from the schema', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'T' });
    // Break the serializer the way a careless edit might.
    const original = gh.serialize.comment.bind(gh.serialize);
    gh.serialize.comment = (c, assoc) => {
      const { node_id: _dropped, ...rest } = original(c, assoc);
      return { ...rest, id: String(c.id) } as unknown as ReturnType<typeof original>;
    };
    await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: 1, body: 'hi' });
    const v = takeViolations(gh);
    expect(v).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^response POST \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/comments 201: body\/node_id: required property is missing/,
        ),
        expect.stringMatching(/^response POST .*comments 201: body\/id: must be integer/),
      ]),
    );
  });

  it('checks an error the description does not list against GitHub’s error shape', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.actionsToken({ contents: 'read' }));
    // PATCH …/issues/comments/{id} documents only 200 and 422, yet GitHub can answer 403 or 404.
    const r = await failure(octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repoOf(gh), comment_id: 1, body: 'x' }));
    expect(r.status).toBe(403);
    expect(r.data).toMatchObject({ message: 'Resource not accessible by integration', documentation_url: expect.any(String) });
    expect(gh.violations).toEqual([]);
  });
});
