import { describe, expect, it } from 'vitest';
import { endpoints, operationKey } from '../../support/github/reference/endpoints';
import { matchOperation } from '../../support/github/reference/index';

// One concrete request path per endpoint, with the parameters it must yield.
const samples: Array<[method: string, pathname: string, template: string, params: Record<string, string>]> = [
  ['GET', '/repos/o/r', '/repos/{owner}/{repo}', { owner: 'o', repo: 'r' }],
  ['GET', '/repos/o/r/issues/12', '/repos/{owner}/{repo}/issues/{issue_number}', { owner: 'o', repo: 'r', issue_number: '12' }],
  ['PATCH', '/repos/o/r/issues/12', '/repos/{owner}/{repo}/issues/{issue_number}', { owner: 'o', repo: 'r', issue_number: '12' }],
  ['POST', '/repos/o/r/issues', '/repos/{owner}/{repo}/issues', { owner: 'o', repo: 'r' }],
  ['GET', '/repos/o/r/issues/12/comments', '/repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: '12' }],
  ['POST', '/repos/o/r/issues/12/comments', '/repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: '12' }],
  ['GET', '/repos/o/r/issues/comments/99', '/repos/{owner}/{repo}/issues/comments/{comment_id}', { owner: 'o', repo: 'r', comment_id: '99' }],
  ['PATCH', '/repos/o/r/issues/comments/99', '/repos/{owner}/{repo}/issues/comments/{comment_id}', { owner: 'o', repo: 'r', comment_id: '99' }],
  [
    'POST',
    '/repos/o/r/issues/comments/99/reactions',
    '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
    { owner: 'o', repo: 'r', comment_id: '99' },
  ],
  ['POST', '/repos/o/r/issues/12/reactions', '/repos/{owner}/{repo}/issues/{issue_number}/reactions', { owner: 'o', repo: 'r', issue_number: '12' }],
  ['POST', '/repos/o/r/issues/12/labels', '/repos/{owner}/{repo}/issues/{issue_number}/labels', { owner: 'o', repo: 'r', issue_number: '12' }],
  [
    'DELETE',
    '/repos/o/r/issues/12/labels/crew%3Aworking',
    '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}',
    { owner: 'o', repo: 'r', issue_number: '12', name: 'crew:working' },
  ],
  ['POST', '/repos/o/r/issues/12/assignees', '/repos/{owner}/{repo}/issues/{issue_number}/assignees', { owner: 'o', repo: 'r', issue_number: '12' }],
  [
    'GET',
    '/repos/o/r/collaborators/octocat/permission',
    '/repos/{owner}/{repo}/collaborators/{username}/permission',
    { owner: 'o', repo: 'r', username: 'octocat' },
  ],
  ['GET', '/users/octocat', '/users/{username}', { username: 'octocat' }],
  ['GET', '/user', '/user', {}],
  ['GET', '/repos/o/r/git/ref/heads%2Fmain', '/repos/{owner}/{repo}/git/ref/{ref}', { owner: 'o', repo: 'r', ref: 'heads/main' }],
  ['GET', '/repos/o/r/git/matching-refs/heads%2Fcrew%2F', '/repos/{owner}/{repo}/git/matching-refs/{ref}', { owner: 'o', repo: 'r', ref: 'heads/crew/' }],
  ['GET', '/repos/o/r/branches/main', '/repos/{owner}/{repo}/branches/{branch}', { owner: 'o', repo: 'r', branch: 'main' }],
  ['GET', '/repos/o/r/branches/crew%2Fstate/protection', '/repos/{owner}/{repo}/branches/{branch}/protection', { owner: 'o', repo: 'r', branch: 'crew/state' }],
  ['GET', '/repos/o/r/rules/branches/crew%2F1%2Fr1%2Ft1', '/repos/{owner}/{repo}/rules/branches/{branch}', { owner: 'o', repo: 'r', branch: 'crew/1/r1/t1' }],
  ['GET', '/repos/o/r/actions/permissions', '/repos/{owner}/{repo}/actions/permissions', { owner: 'o', repo: 'r' }],
  ['GET', '/repos/o/r/actions/permissions/workflow', '/repos/{owner}/{repo}/actions/permissions/workflow', { owner: 'o', repo: 'r' }],
  [
    'GET',
    '/repos/o/r/actions/secrets/ANTHROPIC_API_KEY',
    '/repos/{owner}/{repo}/actions/secrets/{secret_name}',
    { owner: 'o', repo: 'r', secret_name: 'ANTHROPIC_API_KEY' },
  ],
  ['GET', '/repos/o/r/contents/README.md', '/repos/{owner}/{repo}/contents/{path}', { owner: 'o', repo: 'r', path: 'README.md' }],
  ['POST', '/repos/o/r/pulls', '/repos/{owner}/{repo}/pulls', { owner: 'o', repo: 'r' }],
  ['GET', '/repos/o/r/pulls', '/repos/{owner}/{repo}/pulls', { owner: 'o', repo: 'r' }],
  ['GET', '/repos/o/r/pulls/7', '/repos/{owner}/{repo}/pulls/{pull_number}', { owner: 'o', repo: 'r', pull_number: '7' }],
  ['PATCH', '/repos/o/r/pulls/7', '/repos/{owner}/{repo}/pulls/{pull_number}', { owner: 'o', repo: 'r', pull_number: '7' }],
  ['PUT', '/repos/o/r/pulls/7/merge', '/repos/{owner}/{repo}/pulls/{pull_number}/merge', { owner: 'o', repo: 'r', pull_number: '7' }],
  ['GET', '/repos/o/r/pulls/7/reviews', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', { owner: 'o', repo: 'r', pull_number: '7' }],
  ['POST', '/repos/o/r/pulls/7/reviews', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', { owner: 'o', repo: 'r', pull_number: '7' }],
  ['POST', '/repos/o/r/pulls/7/comments', '/repos/{owner}/{repo}/pulls/{pull_number}/comments', { owner: 'o', repo: 'r', pull_number: '7' }],
  ['GET', '/repos/o/r/pulls/7/comments', '/repos/{owner}/{repo}/pulls/{pull_number}/comments', { owner: 'o', repo: 'r', pull_number: '7' }],
  [
    'POST',
    '/repos/o/r/pulls/7/comments/55/replies',
    '/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies',
    { owner: 'o', repo: 'r', pull_number: '7', comment_id: '55' },
  ],
  ['GET', '/repos/o/r/commits/abc123/check-runs', '/repos/{owner}/{repo}/commits/{ref}/check-runs', { owner: 'o', repo: 'r', ref: 'abc123' }],
  ['POST', '/repos/o/r/check-runs', '/repos/{owner}/{repo}/check-runs', { owner: 'o', repo: 'r' }],
  ['GET', '/repos/o/r/commits/abc123/status', '/repos/{owner}/{repo}/commits/{ref}/status', { owner: 'o', repo: 'r', ref: 'abc123' }],
  ['POST', '/repos/o/r/statuses/abc123', '/repos/{owner}/{repo}/statuses/{sha}', { owner: 'o', repo: 'r', sha: 'abc123' }],
  [
    'POST',
    '/repos/o/r/actions/workflows/crew.yml/dispatches',
    '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
    { owner: 'o', repo: 'r', workflow_id: 'crew.yml' },
  ],
  ['GET', '/repos/o/r/actions/runs', '/repos/{owner}/{repo}/actions/runs', { owner: 'o', repo: 'r' }],
  ['GET', '/repos/o/r/actions/runs/8000000001', '/repos/{owner}/{repo}/actions/runs/{run_id}', { owner: 'o', repo: 'r', run_id: '8000000001' }],
  ['GET', '/repos/o/r/actions/runs/8000000001/jobs', '/repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { owner: 'o', repo: 'r', run_id: '8000000001' }],
  ['GET', '/repos/o/r/actions/jobs/30000000001/logs', '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { owner: 'o', repo: 'r', job_id: '30000000001' }],
  ['GET', '/rate_limit', '/rate_limit', {}],
  ['POST', '/repos/o/r/git/refs', '/repos/{owner}/{repo}/git/refs', { owner: 'o', repo: 'r' }],
  ['PATCH', '/repos/o/r/git/refs/tags/v1', '/repos/{owner}/{repo}/git/refs/{ref}', { owner: 'o', repo: 'r', ref: 'tags/v1' }],
  ['DELETE', '/repos/o/r/git/refs/heads%2Fcrew%2F1%2Fr1%2Ft1', '/repos/{owner}/{repo}/git/refs/{ref}', { owner: 'o', repo: 'r', ref: 'heads/crew/1/r1/t1' }],
  ['POST', '/repos/o/r/releases', '/repos/{owner}/{repo}/releases', { owner: 'o', repo: 'r' }],
  ['GET', '/repos/o/r/releases/tags/v1.2.3', '/repos/{owner}/{repo}/releases/tags/{tag}', { owner: 'o', repo: 'r', tag: 'v1.2.3' }],
  ['POST', '/repos/o/r/labels', '/repos/{owner}/{repo}/labels', { owner: 'o', repo: 'r' }],
  ['GET', '/repos/o/r/labels/good%20first%20issue', '/repos/{owner}/{repo}/labels/{name}', { owner: 'o', repo: 'r', name: 'good first issue' }],
  ['GET', '/repos/o/r/compare/main...feature', '/repos/{owner}/{repo}/compare/{basehead}', { owner: 'o', repo: 'r', basehead: 'main...feature' }],
];

describe('matchOperation', () => {
  it('has a sample for every endpoint', () => {
    const sampled = new Set(samples.map(([method, , template]) => operationKey(method, template)));
    expect(endpoints.map((endpoint) => operationKey(endpoint.method, endpoint.path)).filter((key) => !sampled.has(key))).toEqual([]);
  });

  it.each(samples)('%s %s', (method, pathname, template, params) => {
    const match = matchOperation(method, pathname);
    expect(match).toMatchObject({ key: `${method} ${template}`, method, template, params });
    expect(match?.operationId).toMatch(/^[a-z-]+\/[a-z-]+$/);
  });

  it('accepts a lower-case method', () => {
    expect(matchOperation('get', '/repos/o/r')?.key).toBe('GET /repos/{owner}/{repo}');
  });

  it('decodes an Octokit-encoded ref and accepts the literal-slash spelling', () => {
    expect(matchOperation('GET', '/repos/o/r/git/ref/heads%2Ffeature%2Fx')?.params.ref).toBe('heads/feature/x');
    expect(matchOperation('GET', '/repos/o/r/git/ref/heads/feature/x')?.params.ref).toBe('heads/feature/x');
    expect(matchOperation('GET', '/repos/o/r/git/matching-refs/heads/crew')?.params.ref).toBe('heads/crew');
    expect(matchOperation('GET', '/repos/o/r/commits/heads/main/status')?.params.ref).toBe('heads/main');
    expect(matchOperation('GET', '/repos/o/r/commits/heads%2Fmain/check-runs')?.params.ref).toBe('heads/main');
  });

  it('lets paths and branch names contain slashes', () => {
    expect(matchOperation('GET', '/repos/o/r/contents/docs/guide/README.md')?.params.path).toBe('docs/guide/README.md');
    expect(matchOperation('GET', '/repos/o/r/branches/crew/issue-12')?.params.branch).toBe('crew/issue-12');
    expect(matchOperation('GET', '/repos/o/r/branches/crew%2Fissue-12')?.params.branch).toBe('crew/issue-12');
    expect(matchOperation('GET', '/repos/o/r/compare/main...claude/issue-1')?.params.basehead).toBe('main...claude/issue-1');
    expect(matchOperation('GET', '/repos/o/r/compare/main...claude%2Fissue-1')?.params.basehead).toBe('main...claude/issue-1');
    expect(matchOperation('GET', '/repos/o/r/compare/acme%3Amain...feature')?.params.basehead).toBe('acme:main...feature');
  });

  it('leaves routes that GitHub gives to a more specific endpoint unmatched', () => {
    // …/protection is its own endpoint (crew doctor reads it), never the branch `main/protection`; its sub-resources are not served.
    expect(matchOperation('GET', '/repos/o/r/branches/main/protection')?.key).toBe('GET /repos/{owner}/{repo}/branches/{branch}/protection');
    expect(matchOperation('GET', '/repos/o/r/branches/crew/state/protection')?.params.branch).toBe('crew/state');
    expect(matchOperation('GET', '/repos/o/r/branches/main/protection/required_status_checks')).toBeUndefined();
    // The public key is its own endpoint, not a secret named `public-key`.
    expect(matchOperation('GET', '/repos/o/r/actions/secrets/public-key')).toBeUndefined();
  });

  it('keeps single-segment parameters to one segment', () => {
    expect(matchOperation('GET', '/repos/o/r/labels/a/b')).toBeUndefined();
    expect(matchOperation('GET', '/repos/o/r/labels/a%2Fb')?.params.name).toBe('a/b');
    expect(matchOperation('POST', '/repos/o/r/statuses/abc/def')).toBeUndefined();
  });

  it('only matches integer parameters with digits', () => {
    expect(matchOperation('GET', '/repos/o/r/issues/comments')).toBeUndefined();
    expect(matchOperation('GET', '/repos/o/r/pulls/seven')).toBeUndefined();
  });

  it.each([
    ['GET', '/repos/o'],
    ['GET', '/repos/o/r/'],
    ['GET', '/repos/o/r/hooks'],
    ['DELETE', '/repos/o/r'],
    ['POST', '/repos/o/r/issues/12'],
    ['GET', '/repos/o/r/git/ref/'],
    ['GET', '/orgs/o'],
    ['GET', '/repos/o/r/labels/%E0%A4%A'],
    ['GET', ''],
  ])('returns undefined for %s %s', (method, pathname) => {
    expect(matchOperation(method, pathname)).toBeUndefined();
  });
});
