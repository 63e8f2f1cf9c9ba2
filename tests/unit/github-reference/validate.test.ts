import { describe, expect, it } from 'vitest';
import { validateRequest, validateResponse } from '../../support/github/reference/index';

const GET_COMMENT = 'GET /repos/{owner}/{repo}/issues/comments/{comment_id}';
const CREATE_COMMENT = 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments';
const REACT_TO_COMMENT = 'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions';

function simpleUser(login: string, type = 'User'): Record<string, unknown> {
  const api = `https://api.github.com/users/${login}`;
  return {
    login,
    id: 583231,
    node_id: 'MDQ6VXNlcjU4MzIzMQ==',
    avatar_url: 'https://avatars.githubusercontent.com/u/583231?v=4',
    gravatar_id: '',
    url: api,
    html_url: `https://github.com/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type,
    user_view_type: 'public',
    site_admin: false,
  };
}

function issueComment(): Record<string, unknown> {
  return {
    id: 1146825,
    node_id: 'IC_kwDOABCD5c4AEYAJ',
    url: 'https://api.github.com/repos/octo-org/crew-demo/issues/comments/1146825',
    html_url: 'https://github.com/octo-org/crew-demo/issues/12#issuecomment-1146825',
    issue_url: 'https://api.github.com/repos/octo-org/crew-demo/issues/12',
    body: '/crew implement this',
    user: simpleUser('octocat'),
    created_at: '2026-01-05T10:00:00Z',
    updated_at: '2026-01-05T10:00:00Z',
    author_association: 'OWNER',
    performed_via_github_app: null,
    reactions: {
      url: 'https://api.github.com/repos/octo-org/crew-demo/issues/comments/1146825/reactions',
      total_count: 0,
      '+1': 0,
      '-1': 0,
      laugh: 0,
      hooray: 0,
      confused: 0,
      heart: 0,
      rocket: 0,
      eyes: 0,
    },
  };
}

describe('validateResponse', () => {
  it('accepts a realistic issue comment', () => {
    expect(validateResponse(GET_COMMENT, 200, issueComment())).toEqual([]);
  });

  it('names the pointer of a missing required field', () => {
    const comment = issueComment();
    delete comment.html_url;
    expect(validateResponse(GET_COMMENT, 200, comment)).toEqual(['body/html_url: required property is missing (required)']);
  });

  it('names the pointer, keyword and value of a wrongly typed field', () => {
    const comment = { ...issueComment(), id: '1146825' };
    expect(validateResponse(GET_COMMENT, 200, comment)).toEqual(['body/id: must be integer (type); got "1146825"']);
  });

  it('rejects null where the description does not allow it', () => {
    const comment = { ...issueComment(), body: null, user: { ...simpleUser('octocat'), login: null } };
    expect(validateResponse(GET_COMMENT, 200, comment)).toEqual([
      'body/body: must be string (type); got null',
      'body/user/login: must be string (type); got null',
    ]);
  });

  it('accepts null in nullable fields', () => {
    const comment = { ...issueComment(), user: null };
    expect(validateResponse(GET_COMMENT, 200, comment)).toEqual([]);
    const withNullName = { ...issueComment(), user: { ...simpleUser('octocat'), name: null, email: null } };
    expect(validateResponse(GET_COMMENT, 200, withNullName)).toEqual([]);
  });

  it('lists the allowed values of a bad enum', () => {
    const [error] = validateResponse(GET_COMMENT, 200, { ...issueComment(), author_association: 'BOSS' });
    expect(error).toContain('body/author_association: must be equal to one of the allowed values');
    expect(error).toContain('"OWNER"');
    expect(error).toContain('(enum); got "BOSS"');
  });

  it('checks formats', () => {
    expect(validateResponse(GET_COMMENT, 200, { ...issueComment(), created_at: 'yesterday' })).toEqual([
      'body/created_at: must match format "date-time" (format); got "yesterday"',
    ]);
  });

  it('truncates long offending values', () => {
    const [error] = validateResponse(GET_COMMENT, 200, { ...issueComment(), reactions: 'x'.repeat(500) });
    expect(error).toMatch(/^body\/reactions: must be object \(type\); got "x+\.\.\.$/);
    expect(error!.length).toBeLessThan(150);
  });

  it('flags an undocumented status', () => {
    expect(validateResponse(GET_COMMENT, 500, { message: 'oops' })).toEqual([`status 500 is not documented for ${GET_COMMENT} (documented: 200, 404)`]);
  });

  it('validates documented error bodies', () => {
    const notFound = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' };
    expect(validateResponse(GET_COMMENT, 404, notFound)).toEqual([]);
    expect(validateResponse(GET_COMMENT, 404, { message: 404 })).toEqual(['body/message: must be string (type); got 404']);
  });

  it('treats content-less statuses as "no body"', () => {
    const dispatch = 'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches';
    expect(validateResponse(dispatch, 204, undefined)).toEqual([]);
    expect(validateResponse(dispatch, 204, '')).toEqual([]);
    expect(validateResponse(dispatch, 204, { ok: true })).toEqual(['body: status 204 has no content, but a body was sent; got {"ok":true}']);
  });

  it('requires a body where one is documented', () => {
    expect(validateResponse(GET_COMMENT, 200, undefined)).toEqual(['body: status 200 requires a JSON body, but none was sent']);
  });

  it('validates list responses item by item', () => {
    const list = 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments';
    expect(validateResponse(list, 200, [issueComment(), issueComment()])).toEqual([]);
    expect(validateResponse(list, 200, [issueComment(), { ...issueComment(), url: 42 }])).toEqual(['body/1/url: must be string (type); got 42']);
  });

  it('throws for an operation outside the reference', () => {
    expect(() => validateResponse('GET /gists', 200, [])).toThrow(/Unknown GitHub operation "GET \/gists"/);
  });
});

describe('validateRequest', () => {
  const commentParams = { owner: 'octo-org', repo: 'crew-demo', issue_number: '12' };

  it('accepts a valid comment', () => {
    expect(validateRequest(CREATE_COMMENT, { query: {}, params: commentParams, body: { body: 'On it.' } })).toEqual([]);
  });

  it('rejects a comment without body', () => {
    expect(validateRequest(CREATE_COMMENT, { query: {}, params: commentParams, body: {} })).toEqual(['body/body: required property is missing (required)']);
    expect(validateRequest(CREATE_COMMENT, { query: {}, params: commentParams, body: undefined })).toEqual([
      `body: ${CREATE_COMMENT} requires a JSON request body, but none was sent`,
    ]);
  });

  it('rejects a reaction outside the enum', () => {
    const params = { owner: 'o', repo: 'r', comment_id: '1146825' };
    expect(validateRequest(REACT_TO_COMMENT, { query: {}, params, body: { content: 'eyes' } })).toEqual([]);
    const [error, ...rest] = validateRequest(REACT_TO_COMMENT, { query: {}, params, body: { content: 'smile' } });
    expect(rest).toEqual([]);
    expect(error).toBe(
      'body/content: must be equal to one of the allowed values: "+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes" (enum); got "smile"',
    );
  });

  it('checks path parameter types', () => {
    expect(validateRequest(CREATE_COMMENT, { query: {}, params: { ...commentParams, issue_number: 'twelve' }, body: { body: 'x' } })).toEqual([
      'path/issue_number: must be integer (type); got "twelve"',
    ]);
  });

  it('coerces and checks query parameters, and flags undocumented ones', () => {
    const listPulls = 'GET /repos/{owner}/{repo}/pulls';
    const params = { owner: 'o', repo: 'r' };
    expect(validateRequest(listPulls, { query: { state: 'open', head: 'o:crew/12', per_page: '100' }, params, body: undefined })).toEqual([]);
    expect(validateRequest(listPulls, { query: { state: 'merged', per_page: 'many', perpage: '5' }, params, body: undefined })).toEqual([
      'query/perpage: is not a documented query parameter (additionalProperties); got "5"',
      'query/state: must be equal to one of the allowed values: "open", "closed", "all" (enum); got "merged"',
      'query/per_page: must be integer (type); got "many"',
    ]);
  });

  it('requires the documented required body fields', () => {
    const createPull = 'POST /repos/{owner}/{repo}/pulls';
    const params = { owner: 'o', repo: 'r' };
    expect(validateRequest(createPull, { query: {}, params, body: { title: 'Fix #12', head: 'crew/12', base: 'main' } })).toEqual([]);
    expect(validateRequest(createPull, { query: {}, params, body: { title: 'Fix #12', head: 'crew/12' } })).toEqual([
      'body/base: required property is missing (required)',
    ]);
    const dispatch = 'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches';
    expect(validateRequest(dispatch, { query: {}, params: { owner: 'o', repo: 'r', workflow_id: 'crew.yml' }, body: { inputs: {} } })).toEqual([
      'body/ref: required property is missing (required)',
    ]);
  });

  it('flags a body sent to an operation that takes none', () => {
    const getIssue = 'GET /repos/{owner}/{repo}/issues/{issue_number}';
    expect(validateRequest(getIssue, { query: {}, params: commentParams, body: {} })).toEqual([]);
    expect(validateRequest(getIssue, { query: {}, params: commentParams, body: { a: 1 } })).toEqual([`body: ${getIssue} takes no request body; got {"a":1}`]);
  });

  it('accepts nullable request fields as null', () => {
    const updateIssue = 'PATCH /repos/{owner}/{repo}/issues/{issue_number}';
    expect(validateRequest(updateIssue, { query: {}, params: commentParams, body: { milestone: null, state: 'closed' } })).toEqual([]);
    expect(validateRequest(updateIssue, { query: {}, params: commentParams, body: { state: 'done' } })[0]).toContain(
      'body/state: must be equal to one of the allowed values: "open", "closed"',
    );
  });
});
