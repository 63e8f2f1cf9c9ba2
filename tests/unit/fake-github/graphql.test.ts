import { describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../../support/github/fake-github';
import { fakeForTest, octokitFor, repoOf, seedBranch, takeViolations } from './helpers';

/** A pull request from `feature` with two line comments (one answered in its thread), and the owner's Octokit. */
async function withThreads() {
  const gh = await fakeForTest();
  await seedBranch(gh, 'feature', { 'src/app.ts': 'export const answer = 43;\nexport const question = 1;\n' }, { message: 'Feature' });
  const octokit = octokitFor(gh, gh.userToken('acme'));
  gh.addUser('reviewer', { permission: 'write' });
  const reviewer = octokitFor(gh, gh.userToken('reviewer'));
  const pr = (await octokit.request('POST /repos/{owner}/{repo}/pulls', { ...repoOf(gh), head: 'feature', base: 'main', title: 'Feature' })).data;
  const line = async (n: number, body: string) =>
    (
      await reviewer.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', {
        ...repoOf(gh),
        pull_number: pr.number,
        body,
        commit_id: pr.head.sha,
        path: 'src/app.ts',
        line: n,
        side: 'RIGHT',
      })
    ).data;
  const first = await line(1, 'Rename this');
  const second = await line(2, 'And this');
  await octokit.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies', {
    ...repoOf(gh),
    pull_number: pr.number,
    comment_id: first.id,
    body: 'Will do',
  });
  gh.reviewComments.find((c) => c.id === second.id)!.resolved = true;
  return { gh, octokit, pr, first, second };
}

/** POSTs a query as a client would (GitHub's GraphQL endpoint answers 200 with `errors` for a bad query). */
async function post(gh: FakeGitHub, token: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${gh.url}/graphql`, { method: 'POST', headers: { authorization: `bearer ${token}` }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: Array<{ message: string; type?: string; path?: unknown[] }> } };
}

/** crew's review-threads query before #31, word for word: it selects `databaseId`, an `Int`. */
const OLD_REVIEW_THREADS_QUERY = `query($owner: String!, $name: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes { isResolved comments(first: 1) { nodes { databaseId } } }
      }
    }
  }
}`;

describe('the fake GitHub’s GraphQL endpoint: GitHub’s schema, executed over the fake’s state', () => {
  it('answers crew’s old databaseId query with GitHub’s field errors once ids are past 2^31; fullDatabaseId carries them as strings', async () => {
    const { gh, octokit, pr, first, second } = await withThreads();
    expect(first.id).toBeGreaterThan(2 ** 31);
    // A valid query, so no violation: GitHub answers it, with a field error for each id an Int cannot hold.
    await expect(octokit.graphql(OLD_REVIEW_THREADS_QUERY, { owner: gh.owner, name: gh.repoName, number: pr.number })).rejects.toThrow(
      `Request failed due to following response errors:\n - Int cannot represent non 32-bit signed integer value: ${first.id}\n - Int cannot represent non 32-bit signed integer value: ${second.id}`,
    );
    const raw = await post(gh, gh.userToken('acme'), OLD_REVIEW_THREADS_QUERY, { owner: gh.owner, name: gh.repoName, number: pr.number });
    expect(raw.status).toBe(200);
    expect(raw.body.data.repository.pullRequest.reviewThreads.nodes[0].comments.nodes[0]).toEqual({ databaseId: null });
    expect(raw.body.errors![0]!.path).toEqual(['repository', 'pullRequest', 'reviewThreads', 'nodes', 0, 'comments', 'nodes', 0, 'databaseId']);

    const answer = await octokit.graphql<{ repository: { pullRequest: { reviewThreads: { nodes: unknown[] } } } }>(
      `query($owner: String!, $name: String!, $number: Int!) {
        repository(owner: $owner, name: $name) { pullRequest(number: $number) { reviewThreads(first: 10) { nodes {
          isResolved path line comments(first: 10) { totalCount nodes { fullDatabaseId body author { login } replyTo { fullDatabaseId } } }
        } } } }
      }`,
      { owner: gh.owner, name: gh.repoName, number: pr.number },
    );
    expect(answer.repository.pullRequest.reviewThreads.nodes).toEqual([
      {
        isResolved: false,
        path: 'src/app.ts',
        line: 1,
        comments: {
          totalCount: 2,
          nodes: [
            { fullDatabaseId: String(first.id), body: 'Rename this', author: { login: 'reviewer' }, replyTo: null },
            { fullDatabaseId: expect.stringMatching(/^\d+$/), body: 'Will do', author: { login: 'acme' }, replyTo: { fullDatabaseId: String(first.id) } },
          ],
        },
      },
      {
        isResolved: true,
        path: 'src/app.ts',
        line: 2,
        comments: { totalCount: 1, nodes: [{ fullDatabaseId: String(second.id), body: 'And this', author: { login: 'reviewer' }, replyTo: null }] },
      },
    ]);
  });

  it('hands out ids in GitHub’s present ranges: past 2^31 for issues, pull requests, comments, reviews, review comments, check runs and jobs; numbers stay small', async () => {
    const { gh, octokit, pr, first } = await withThreads();
    const issue = (await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'Bug' })).data;
    const comment = (
      await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: issue.number, body: 'hi' })
    ).data;
    const review = (
      await octokitFor(gh, gh.userToken('reviewer')).request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
        ...repoOf(gh),
        pull_number: pr.number,
        event: 'COMMENT',
        body: 'ok',
      })
    ).data;
    const job = gh.recordJobCheckRun({ runId: 1, headSha: pr.head.sha, name: 'test', conclusion: 'success' });
    for (const id of [issue.id, pr.id, comment.id, review.id, first.id, job]) expect(id).toBeGreaterThan(2 ** 31);
    expect([pr.number, issue.number]).toEqual([1, 2]);
  });

  it('serves any valid shape: aliases, fragments, pages by cursor both ways, node() from a REST node_id, the issue and its comments', async () => {
    const { gh, octokit, pr, first } = await withThreads();
    const issue = (await octokit.request('POST /repos/{owner}/{repo}/issues', { ...repoOf(gh), title: 'Bug', body: 'It breaks.' })).data;
    for (const body of ['one', 'two', 'three'])
      await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repoOf(gh), issue_number: issue.number, body });
    const q = `query($n: Int!, $after: String) {
      viewer { login }
      repo: repository(owner: "acme", name: "widgets") {
        nameWithOwner
        bug: issue(number: $n) { ...Issued comments(first: 2, after: $after) { pageInfo { hasNextPage endCursor } nodes { body fullDatabaseId } } }
        tail: issue(number: $n) { comments(last: 1) { pageInfo { hasPreviousPage } nodes { body } } }
      }
    }
    fragment Issued on Issue { number title state author { __typename login } }`;
    const page1 = await octokit.graphql<any>(q, { n: issue.number });
    expect(page1.viewer).toEqual({ login: 'acme' });
    expect(page1.repo.nameWithOwner).toBe('acme/widgets');
    expect(page1.repo.bug).toMatchObject({ number: issue.number, title: 'Bug', state: 'OPEN', author: { __typename: 'User', login: 'acme' } });
    expect(page1.repo.bug.comments.nodes.map((c: { body: string }) => c.body)).toEqual(['one', 'two']);
    expect(page1.repo.bug.comments.pageInfo.hasNextPage).toBe(true);
    expect(page1.repo.tail.comments).toEqual({ pageInfo: { hasPreviousPage: true }, nodes: [{ body: 'three' }] });
    const page2 = await octokit.graphql<any>(q, { n: issue.number, after: page1.repo.bug.comments.pageInfo.endCursor });
    expect(page2.repo.bug.comments.nodes.map((c: { body: string }) => c.body)).toEqual(['three']);
    expect(page2.repo.bug.comments.pageInfo.hasNextPage).toBe(false);
    // The REST node_id of a review comment leads to the same comment, through the Node interface.
    const viaNode = await octokit.graphql<any>(
      `query($id: ID!) { node(id: $id) { __typename ... on PullRequestReviewComment { body pullRequest { number } } } }`,
      {
        id: first.node_id,
      },
    );
    expect(viaNode.node).toEqual({ __typename: 'PullRequestReviewComment', body: 'Rename this', pullRequest: { number: pr.number } });
  });

  it('a query GitHub’s schema refuses is a violation, answered as GitHub answers it: 200 with errors and no data', async () => {
    const gh = await fakeForTest();
    const token = gh.userToken('acme');
    const cases: Array<[string, string, Record<string, unknown>?]> = [
      ['an unknown field', 'query { viewer { login shoeSize } }'],
      ['a parse error', 'query { viewer { login }'],
      ['a variable of the wrong type', 'query($n: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $n) { title } } }', { n: 'one' }],
      ['an Int variable past 32 bits', 'query($n: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $n) { title } } }', { n: 2 ** 31 }],
      ['a connection without first or last', 'query { repository(owner: "acme", name: "widgets") { issues { totalCount } } }'],
      ['first past 100', 'query { repository(owner: "acme", name: "widgets") { issues(first: 101) { totalCount } } }'],
      [
        'more than 500,000 nodes',
        'query { repository(owner: "acme", name: "widgets") { pullRequests(first: 100) { nodes { reviewThreads(first: 100) { nodes { comments(first: 100) { totalCount } } } } } } }',
      ],
    ];
    for (const [what, query, variables] of cases) {
      const r = await post(gh, token, query, variables);
      expect([what, r.status, r.body.data, r.body.errors?.length ? 'errors' : 'none']).toEqual([what, 200, undefined, 'errors']);
      const v = takeViolations(gh);
      expect(v, what).toHaveLength(1);
      expect(v[0], what).toMatch(/^GraphQL /);
    }
    const [unknownField] = (await post(gh, token, cases[0]![1])).body.errors!;
    expect(unknownField!.message).toBe('Cannot query field "shoeSize" on type "User".');
    const [limit] = (await post(gh, token, cases[5]![1])).body.errors!;
    expect(limit!.message).toBe('Requesting 101 records on the `issues` connection exceeds the `first` limit of 100 records.');
    takeViolations(gh);
  });

  it('a field the schema has but the fake does not model is a violation, never a quiet null', async () => {
    const gh = await fakeForTest();
    const r = await post(gh, gh.userToken('acme'), 'query { viewer { login bio } }');
    expect(r.body.errors![0]!.message).toBe('the fake GitHub does not model User.bio');
    expect(takeViolations(gh)).toEqual([
      'GraphQL fields GitHub serves but the fake does not model (add them to tests/support/github/graphql/resolvers.ts): User.bio',
    ]);
  });

  it('a workflow token without pull-requests gets FORBIDDEN on the pull request; an unknown number NOT_FOUND; neither is a violation', async () => {
    const { gh, pr } = await withThreads();
    const q = 'query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) { title } } }';
    const forbidden = await post(gh, gh.actionsToken({ contents: 'read' }), q, { n: pr.number });
    expect(forbidden.body).toEqual({
      data: { repository: { pullRequest: null } },
      errors: [
        { type: 'FORBIDDEN', path: ['repository', 'pullRequest'], locations: [{ line: 1, column: 64 }], message: 'Resource not accessible by integration' },
      ],
    });
    const allowed = await post(gh, gh.actionsToken({ 'pull-requests': 'read' }), q, { n: pr.number });
    expect(allowed.body).toEqual({ data: { repository: { pullRequest: { title: 'Feature' } } } });
    const missing = await post(gh, gh.userToken('acme'), q, { n: 99 });
    expect(missing.body.errors![0]).toMatchObject({ type: 'NOT_FOUND', message: 'Could not resolve to a PullRequest with the number of 99.' });
  });
});
