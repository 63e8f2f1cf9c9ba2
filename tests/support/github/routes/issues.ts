import { HttpError, notFound, validationFailed, type Route, type RouteRequest } from '../http-types';
import { atLeast, type FakeComment, type FakeIssue, type FakeReaction, type Principal } from '../model';
import type { FakeGitHub } from '../fake-github';
import { webhookExample } from '../reference';
import { paginate } from './paginate';

const REACTIONS = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'];

export function findIssue(gh: FakeGitHub, n: string | number): FakeIssue {
  const issue = gh.issues.get(Number(n));
  if (!issue) throw notFound();
  return issue;
}

function findComment(gh: FakeGitHub, id: string): FakeComment {
  const c = gh.comments.get(Number(id));
  if (!c) throw notFound();
  return c;
}

export function serializeIssue(gh: FakeGitHub, issue: FakeIssue) {
  const count = [...gh.comments.values()].filter((c) => c.issue === issue.number).length;
  const labels = issue.labels.map((name) => gh.labelRecord(name));
  const pull = issue.isPull ? gh.pulls.get(issue.number) : undefined;
  return gh.serialize.issue(issue, labels, count, gh.authorAssociation(issue.user), pull ? { merged_at: pull.merged_at } : undefined);
}

/**
 * The issue-comment endpoints accept a token with either the issues or the pull-requests
 * permission, but which one counts depends on the thread: a plain issue needs `issues`,
 * a pull request needs `pull-requests` (GitHub answers `x-accepted-github-permissions:
 * issues=write; pull_requests=write` and then checks the resource).
 */
function requireThreadScope(gh: FakeGitHub, principal: Principal, issue: FakeIssue, access: 'read' | 'write') {
  if (principal.kind === 'user') return;
  if (!gh.allows(principal, issue.isPull ? 'pull-requests' : 'issues', access)) throw new HttpError(403, 'Resource not accessible by integration');
}

function serializeComment(gh: FakeGitHub, c: FakeComment) {
  return gh.serialize.comment(c, gh.authorAssociation(c.user));
}

/** Builds an event payload from GitHub's own webhook example, then puts our objects in. */
export function eventPayload(gh: FakeGitHub, name: string, sender: string, fields: Record<string, unknown>): Record<string, unknown> {
  const base = webhookExample(name) as Record<string, unknown>;
  delete base.installation;
  delete base.organization;
  return {
    ...base,
    ...fields,
    repository: gh.serialize.repository(gh.settings, gh.defaultBranch, gh.createdAt),
    sender: gh.serialize.user(sender),
  };
}

export function createIssue(
  gh: FakeGitHub,
  principal: Principal,
  input: { title: string; body?: string | null; labels?: string[]; isPull?: boolean },
): FakeIssue {
  const now = gh.now();
  const issue: FakeIssue = {
    id: gh.nextId('issueId'),
    number: gh.nextNumber(),
    title: input.title,
    body: input.body ?? null,
    user: principal.login,
    state: 'open',
    state_reason: null,
    labels: (input.labels ?? []).map((l) => gh.labelRecord(l).name),
    assignees: [],
    locked: false,
    created_at: now,
    updated_at: now,
    closed_at: null,
    isPull: input.isPull ?? false,
    reactions: [],
  };
  gh.issues.set(issue.number, issue);
  if (!issue.isPull) gh.emit(principal, 'issues', eventPayload(gh, 'issues.opened', principal.login, { action: 'opened', issue: serializeIssue(gh, issue) }));
  return issue;
}

function react(gh: FakeGitHub, req: RouteRequest, list: FakeReaction[]) {
  const content = String(req.body.content ?? '');
  if (!REACTIONS.includes(content)) throw validationFailed('Reaction', 'content', 'invalid');
  const existing = list.find((r) => r.user === req.principal.login && r.content === content);
  if (existing) return { status: 200, body: gh.serialize.reaction(existing) };
  const r: FakeReaction = { id: gh.nextId('reaction'), content, user: req.principal.login, created_at: gh.now() };
  list.push(r);
  return { status: 201, body: gh.serialize.reaction(r) };
}

function addLabels(gh: FakeGitHub, principal: Principal, issue: FakeIssue, names: string[]) {
  for (const name of names) {
    const label = gh.labelRecord(name);
    if (issue.labels.some((l) => l.toLowerCase() === label.name.toLowerCase())) continue;
    issue.labels.push(label.name);
    issue.updated_at = gh.now();
    emitIssues(gh, principal, issue, 'labeled', { label: gh.serialize.label(label) });
  }
}

/** Labelling or assigning a pull request is a pull_request event on GitHub, not an issues event. */
function emitIssues(gh: FakeGitHub, principal: Principal, issue: FakeIssue, action: 'labeled' | 'assigned', fields: Record<string, unknown>) {
  if (issue.isPull) return;
  gh.emit(principal, 'issues', eventPayload(gh, `issues.${action}`, principal.login, { action, issue: serializeIssue(gh, issue), ...fields }));
}

export const issueRoutes: Record<string, Route> = {
  'POST /repos/{owner}/{repo}/issues': {
    scope: 'issues',
    access: 'write',
    userAccess: 'read',
    creates: true,
    handle({ gh, principal, body }) {
      if (typeof body.title !== 'string' || !body.title) throw validationFailed('Issue', 'title', 'missing_field');
      const issue = createIssue(gh, principal, { title: body.title, body: body.body, labels: body.labels });
      return { status: 201, body: serializeIssue(gh, issue) };
    },
  },
  'GET /repos/{owner}/{repo}/issues/{issue_number}': {
    scope: 'issues',
    access: 'read',
    handle: ({ gh, params }) => ({ status: 200, body: serializeIssue(gh, findIssue(gh, params.issue_number!)) }),
  },
  'PATCH /repos/{owner}/{repo}/issues/{issue_number}': {
    scope: 'issues',
    access: 'write',
    handle({ gh, principal, params, body }) {
      const issue = findIssue(gh, params.issue_number!);
      const from = { title: issue.title, body: issue.body };
      if (typeof body.title === 'string') issue.title = body.title;
      if (body.body !== undefined) issue.body = body.body;
      if (body.state === 'closed' && issue.state === 'open') {
        issue.state = 'closed';
        issue.closed_at = gh.now();
        issue.state_reason = body.state_reason ?? 'completed';
      } else if (body.state === 'open' && issue.state === 'closed') {
        issue.state = 'open';
        issue.closed_at = null;
        issue.state_reason = 'reopened';
      }
      if (Array.isArray(body.labels)) {
        issue.labels = [];
        addLabels(gh, principal, issue, body.labels.map(String));
      }
      issue.updated_at = gh.now();
      if (!issue.isPull && (from.title !== issue.title || from.body !== issue.body)) {
        // `changes` names only what changed, as GitHub's issues.edited payload does.
        const changes: Record<string, { from: string }> = {};
        if (from.title !== issue.title) changes.title = { from: from.title };
        if (from.body !== issue.body) changes.body = { from: from.body ?? '' };
        // The reference data has no issues.edited example; its issue and repository match issues.opened.
        gh.emit(principal, 'issues', eventPayload(gh, 'issues.opened', principal.login, { action: 'edited', issue: serializeIssue(gh, issue), changes }));
      }
      return { status: 200, body: serializeIssue(gh, issue) };
    },
  },
  'GET /repos/{owner}/{repo}/issues/{issue_number}/comments': {
    scope: ['issues', 'pull-requests'],
    access: 'read',
    handle({ gh, principal, params, url }) {
      const issue = findIssue(gh, params.issue_number!);
      requireThreadScope(gh, principal, issue, 'read');
      // Compare instants, not strings: `since` may carry milliseconds or an offset.
      const sinceParam = url.searchParams.get('since');
      const since = sinceParam ? Date.parse(sinceParam) : Number.NaN;
      if (sinceParam && Number.isNaN(since)) throw validationFailed('IssueComment', 'since', 'invalid');
      const list = [...gh.comments.values()].filter((c) => c.issue === issue.number && (!sinceParam || Date.parse(c.updated_at) >= since));
      return paginate(list, url, (c) => serializeComment(gh, c));
    },
  },
  'POST /repos/{owner}/{repo}/issues/{issue_number}/comments': {
    scope: ['issues', 'pull-requests'],
    access: 'write',
    userAccess: 'read',
    creates: true,
    handle({ gh, principal, params, body }) {
      const issue = findIssue(gh, params.issue_number!);
      requireThreadScope(gh, principal, issue, 'write');
      if (typeof body.body !== 'string' || body.body === '') throw validationFailed('IssueComment', 'body', 'missing_field');
      if (body.body.length > 65_536) throw validationFailed('IssueComment', 'body', 'custom', 'Body is too long (maximum is 65536 characters)');
      if (issue.locked && !gh.allows(principal, 'issues', 'write')) throw new HttpError(403, 'Issue is locked');
      const now = gh.now();
      const c: FakeComment = {
        id: gh.nextId('comment'),
        issue: issue.number,
        body: body.body,
        user: principal.login,
        created_at: now,
        updated_at: now,
        reactions: [],
      };
      gh.comments.set(c.id, c);
      gh.emit(
        principal,
        'issue_comment',
        eventPayload(gh, 'issue_comment.created', principal.login, { action: 'created', issue: serializeIssue(gh, issue), comment: serializeComment(gh, c) }),
      );
      return { status: 201, body: serializeComment(gh, c), headers: { location: `${gh.serialize.repoApi}/issues/comments/${c.id}` } };
    },
  },
  'GET /repos/{owner}/{repo}/issues/comments/{comment_id}': {
    scope: ['issues', 'pull-requests'],
    access: 'read',
    handle({ gh, principal, params }) {
      const c = findComment(gh, params.comment_id!);
      requireThreadScope(gh, principal, findIssue(gh, c.issue), 'read');
      return { status: 200, body: serializeComment(gh, c) };
    },
  },
  'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}': {
    scope: ['issues', 'pull-requests'],
    access: 'write',
    userAccess: 'read',
    handle({ gh, principal, params, body }) {
      const c = findComment(gh, params.comment_id!);
      requireThreadScope(gh, principal, findIssue(gh, c.issue), 'write');
      // Anyone may edit their own comment; editing someone else's needs write access.
      if (principal.kind === 'user' && c.user !== principal.login && !gh.allows(principal, 'issues', 'write'))
        throw new HttpError(403, 'Resource not accessible by integration');
      if (typeof body.body !== 'string' || body.body === '') throw validationFailed('IssueComment', 'body', 'missing_field');
      if (body.body.length > 65_536) throw validationFailed('IssueComment', 'body', 'custom', 'Body is too long (maximum is 65536 characters)');
      const from = c.body;
      c.body = body.body;
      c.updated_at = gh.now();
      const issue = findIssue(gh, c.issue);
      gh.emit(
        principal,
        'issue_comment',
        eventPayload(gh, 'issue_comment.edited', principal.login, {
          action: 'edited',
          issue: serializeIssue(gh, issue),
          comment: serializeComment(gh, c),
          changes: { body: { from } },
        }),
      );
      return { status: 200, body: serializeComment(gh, c) };
    },
  },
  'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions': {
    scope: ['issues', 'pull-requests'],
    access: 'write',
    userAccess: 'read',
    creates: true,
    handle(req) {
      const c = findComment(req.gh, req.params.comment_id!);
      requireThreadScope(req.gh, req.principal, findIssue(req.gh, c.issue), 'write');
      return react(req.gh, req, c.reactions);
    },
  },
  'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions': {
    scope: ['issues', 'pull-requests'],
    access: 'write',
    userAccess: 'read',
    creates: true,
    handle(req) {
      const issue = findIssue(req.gh, req.params.issue_number!);
      requireThreadScope(req.gh, req.principal, issue, 'write');
      return react(req.gh, req, issue.reactions);
    },
  },
  // People with triage access apply and remove labels and assign people, as GitHub's role table
  // says (https://docs.github.com/en/organizations/managing-user-access-to-your-organizations-repositories/managing-repository-roles/repository-roles-for-an-organization#permissions-for-each-role):
  // a label or an assignment is no sign of write access.
  'POST /repos/{owner}/{repo}/issues/{issue_number}/labels': {
    scope: 'issues',
    access: 'write',
    userAccess: 'triage',
    handle({ gh, principal, params, body }) {
      const issue = findIssue(gh, params.issue_number!);
      const names: unknown = Array.isArray(body) ? body : body.labels;
      if (!Array.isArray(names)) throw validationFailed('Label', 'labels', 'missing_field');
      addLabels(gh, principal, issue, names.map(String));
      return { status: 200, body: issue.labels.map((n) => gh.serialize.label(gh.labelRecord(n))) };
    },
  },
  'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}': {
    scope: 'issues',
    access: 'write',
    userAccess: 'triage',
    handle({ gh, params }) {
      const issue = findIssue(gh, params.issue_number!);
      const i = issue.labels.findIndex((l) => l.toLowerCase() === params.name!.toLowerCase());
      if (i < 0) throw new HttpError(404, 'Label does not exist');
      issue.labels.splice(i, 1);
      issue.updated_at = gh.now();
      return { status: 200, body: issue.labels.map((n) => gh.serialize.label(gh.labelRecord(n))) };
    },
  },
  /**
   * Adds up to 10 assignees and keeps those already there. A login that cannot be assigned
   * (no access to the repository) is silently ignored, as the REST reference says
   * (https://docs.github.com/en/rest/issues/assignees#add-assignees-to-an-issue). Each new
   * assignee fires `issues` `assigned`.
   */
  'POST /repos/{owner}/{repo}/issues/{issue_number}/assignees': {
    scope: 'issues',
    access: 'write',
    userAccess: 'triage',
    creates: true,
    handle({ gh, principal, params, body }) {
      const issue = findIssue(gh, params.issue_number!);
      const logins: unknown = body.assignees;
      if (!Array.isArray(logins) || logins.some((l) => typeof l !== 'string')) throw validationFailed('Issue', 'assignees', 'invalid');
      if (issue.assignees.length + logins.length > 10) throw validationFailed('Issue', 'assignees', 'invalid');
      for (const login of logins as string[]) {
        if (issue.assignees.some((a) => a.toLowerCase() === login.toLowerCase())) continue;
        if (!atLeast(gh.permissionOf(login), 'read')) continue;
        issue.assignees.push(login);
        issue.updated_at = gh.now();
        emitIssues(gh, principal, issue, 'assigned', { assignee: gh.serialize.user(login) });
      }
      return { status: 201, body: serializeIssue(gh, issue) };
    },
  },
  'GET /repos/{owner}/{repo}/labels/{name}': {
    scope: 'issues',
    access: 'read',
    handle({ gh, params }) {
      const l = gh.labels.get(params.name!.toLowerCase());
      if (!l) throw notFound();
      return { status: 200, body: gh.serialize.label(l) };
    },
  },
  'POST /repos/{owner}/{repo}/labels': {
    scope: 'issues',
    access: 'write',
    handle({ gh, body }) {
      if (typeof body.name !== 'string' || !body.name) throw validationFailed('Label', 'name', 'missing_field');
      if (gh.labels.has(body.name.toLowerCase())) throw validationFailed('Label', 'name', 'already_exists');
      const l = gh.labelRecord(body.name);
      if (typeof body.color === 'string') l.color = body.color.replace(/^#/, '');
      if (typeof body.description === 'string') l.description = body.description;
      return { status: 201, body: gh.serialize.label(l) };
    },
  },
};
