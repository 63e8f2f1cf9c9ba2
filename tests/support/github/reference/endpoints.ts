export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ReferenceEndpoint {
  method: HttpMethod;
  /** OpenAPI path template, exactly as spelled in GitHub's description. */
  path: string;
  /**
   * Path parameters that GitHub also accepts with literal `/` in them (for
   * example `git/ref/heads/main` or `contents/docs/README.md`). Octokit sends
   * them percent-encoded (`heads%2Fmain`); both spellings must route here.
   */
  slashParams?: readonly string[];
}

/**
 * The GitHub REST operations the fake GitHub serves: those crew calls, plus
 * GET compare/{basehead}, which crew does not call: it is served for the
 * benchmark's baselines (their model of claude-code-action's final step).
 */
export const endpoints: readonly ReferenceEndpoint[] = [
  { method: 'GET', path: '/repos/{owner}/{repo}' },
  { method: 'GET', path: '/repos/{owner}/{repo}/issues/{issue_number}' },
  { method: 'PATCH', path: '/repos/{owner}/{repo}/issues/{issue_number}' },
  { method: 'POST', path: '/repos/{owner}/{repo}/issues' },
  { method: 'GET', path: '/repos/{owner}/{repo}/issues/{issue_number}/comments' },
  { method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/comments' },
  { method: 'GET', path: '/repos/{owner}/{repo}/issues/comments/{comment_id}' },
  { method: 'PATCH', path: '/repos/{owner}/{repo}/issues/comments/{comment_id}' },
  { method: 'POST', path: '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions' },
  { method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/reactions' },
  { method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/labels' },
  { method: 'DELETE', path: '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}' },
  { method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/assignees' },
  { method: 'GET', path: '/repos/{owner}/{repo}/collaborators/{username}/permission' },
  { method: 'GET', path: '/users/{username}' },
  { method: 'GET', path: '/user' },
  { method: 'GET', path: '/repos/{owner}/{repo}/git/ref/{ref}', slashParams: ['ref'] },
  { method: 'GET', path: '/repos/{owner}/{repo}/git/matching-refs/{ref}', slashParams: ['ref'] },
  { method: 'POST', path: '/repos/{owner}/{repo}/git/refs' },
  { method: 'PATCH', path: '/repos/{owner}/{repo}/git/refs/{ref}', slashParams: ['ref'] },
  // Not called by crew (it deletes its branches with a leased git push): scenarios delete a branch through it, as a person does.
  { method: 'DELETE', path: '/repos/{owner}/{repo}/git/refs/{ref}', slashParams: ['ref'] },
  { method: 'POST', path: '/repos/{owner}/{repo}/releases' },
  { method: 'GET', path: '/repos/{owner}/{repo}/releases/tags/{tag}' },
  { method: 'GET', path: '/repos/{owner}/{repo}/branches/{branch}', slashParams: ['branch'] },
  { method: 'GET', path: '/repos/{owner}/{repo}/contents/{path}', slashParams: ['path'] },
  { method: 'POST', path: '/repos/{owner}/{repo}/pulls' },
  { method: 'GET', path: '/repos/{owner}/{repo}/pulls' },
  { method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}' },
  { method: 'PATCH', path: '/repos/{owner}/{repo}/pulls/{pull_number}' },
  { method: 'PUT', path: '/repos/{owner}/{repo}/pulls/{pull_number}/merge' },
  { method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews' },
  { method: 'POST', path: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews' },
  // Not called by crew: scenarios post line comments through it, as a reviewer does.
  { method: 'POST', path: '/repos/{owner}/{repo}/pulls/{pull_number}/comments' },
  // A follow-up run reads the review comments, and replies in each thread it addressed.
  { method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}/comments' },
  { method: 'POST', path: '/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies' },
  { method: 'GET', path: '/repos/{owner}/{repo}/commits/{ref}/check-runs', slashParams: ['ref'] },
  { method: 'POST', path: '/repos/{owner}/{repo}/check-runs' },
  { method: 'GET', path: '/repos/{owner}/{repo}/commits/{ref}/status', slashParams: ['ref'] },
  { method: 'POST', path: '/repos/{owner}/{repo}/statuses/{sha}' },
  { method: 'POST', path: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches' },
  { method: 'GET', path: '/repos/{owner}/{repo}/actions/runs' },
  { method: 'GET', path: '/repos/{owner}/{repo}/actions/runs/{run_id}' },
  { method: 'GET', path: '/repos/{owner}/{repo}/actions/runs/{run_id}/jobs' },
  { method: 'GET', path: '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs' },
  { method: 'GET', path: '/rate_limit' },
  { method: 'POST', path: '/repos/{owner}/{repo}/labels' },
  { method: 'GET', path: '/repos/{owner}/{repo}/labels/{name}' },
  // crew doctor: the repository's Actions settings (admin only), the rules a branch name would meet, a branch's
  // classic protection (admin only), and whether a secret exists (never its value).
  { method: 'GET', path: '/repos/{owner}/{repo}/actions/permissions' },
  { method: 'GET', path: '/repos/{owner}/{repo}/actions/permissions/workflow' },
  { method: 'GET', path: '/repos/{owner}/{repo}/rules/branches/{branch}', slashParams: ['branch'] },
  { method: 'GET', path: '/repos/{owner}/{repo}/branches/{branch}/protection', slashParams: ['branch'] },
  { method: 'GET', path: '/repos/{owner}/{repo}/actions/secrets/{secret_name}' },
  // BASE...HEAD; GitHub also takes either branch with a literal `/` (main...claude/issue-1).
  { method: 'GET', path: '/repos/{owner}/{repo}/compare/{basehead}', slashParams: ['basehead'] },
];

/** Webhook events (`event.action`, or just `event`) whose examples we keep. */
export const webhookEvents: readonly string[] = [
  'issue_comment.created',
  'issue_comment.edited',
  'issues.opened',
  'issues.labeled',
  'issues.assigned',
  'workflow_dispatch',
  'check_suite.completed',
  'workflow_run.completed',
  'pull_request.closed',
  'pull_request_review.submitted',
  'pull_request_review_comment.created',
  'push',
];

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
