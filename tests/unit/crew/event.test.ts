import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { publicRepository, readEvent, UnsupportedEvent } from '../../../src/event';
import { webhookExample } from '../../support/github/reference';

const dir = mkdtempSync(join(tmpdir(), 'crew-event-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, payload: unknown) => {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(payload));
  return path;
};

describe('events for the merge gate, from GitHub’s webhook examples', () => {
  it('check_suite: the pull requests the suite ran for', () => {
    const ev = readEvent('check_suite', file('cs', webhookExample('check_suite.completed')));
    expect(ev).toMatchObject({ kind: 'pull', source: 'check_suite', pulls: [{ number: 2, headRef: 'changes' }] });
  });
  it('pull_request_review: the reviewed pull request', () => {
    const example = webhookExample('pull_request_review.submitted') as { pull_request: { number: number; head: { ref: string } } };
    const ev = readEvent('pull_request_review', file('prr', example));
    expect(ev).toMatchObject({
      kind: 'pull',
      source: 'pull_request_review',
      pulls: [{ number: example.pull_request.number, headRef: example.pull_request.head.ref }],
    });
  });
  it('workflow_run (for CI that runs on GitHub Actions): its pull requests, and the run fix_ci reads', () => {
    const example = webhookExample('workflow_run.completed') as { workflow_run: Record<string, unknown>; repository: Record<string, unknown> };
    const ev = readEvent(
      'workflow_run',
      file('wr', {
        ...example,
        workflow_run: {
          ...example.workflow_run,
          conclusion: 'failure',
          head_branch: 'crew/3/r1/integration',
          pull_requests: [{ number: 7, head: { ref: 'crew/3/r1/integration', sha: 'a' } }],
        },
        repository: { ...example.repository, default_branch: 'main' },
      }),
    );
    expect(ev).toEqual({
      kind: 'pull',
      source: 'workflow_run',
      defaultBranch: 'main',
      pulls: [{ number: 7, headRef: 'crew/3/r1/integration' }],
      ci: {
        runId: 1589141559,
        workflow: 'Manually triggered workflow',
        path: '.github/workflows/syntax.yml',
        conclusion: 'failure',
        headBranch: 'crew/3/r1/integration',
        headSha: '5779607b49aab1200488439f02372c57b4f75444',
        headRepo: 'octo-org/octo-repo',
        // (the example's repository is another one than its run's)
        repo: 'Codertocat/Hello-World',
        url: 'https://github.com/octo-org/octo-repo/actions/runs/1589141559',
      },
    });
  });
  it('pull_request_target (closed): the pull request, only when its head is in this repository, and who closed it', () => {
    type Closed = {
      pull_request: { number: number; head: { ref: string; repo: { full_name: string } | null } };
      repository: { full_name: string };
      sender: { login: string };
    };
    const example = webhookExample('pull_request.closed') as Closed;
    const ours = structuredClone(example);
    ours.pull_request.head.ref = 'crew/3/r1/integration';
    ours.pull_request.head.repo = { full_name: ours.repository.full_name };
    expect(readEvent('pull_request_target', file('prt', ours))).toMatchObject({
      kind: 'pull',
      source: 'pull_request_target',
      action: 'closed',
      sender: example.sender.login,
      pulls: [{ number: example.pull_request.number, headRef: 'crew/3/r1/integration' }],
    });
    // A fork's branch can be named like crew's; a deleted fork has no head repository.
    const fork = structuredClone(ours);
    fork.pull_request.head.repo = { full_name: 'mallory/widgets' };
    expect(readEvent('pull_request_target', file('prt-fork', fork))).toMatchObject({ pulls: [] });
    const gone = structuredClone(ours);
    gone.pull_request.head.repo = null;
    expect(readEvent('pull_request_target', file('prt-gone', gone))).toMatchObject({ pulls: [] });
  });
  it('other events are refused with the list crew runs on', () => {
    expect(() => readEvent('push', file('push', {}))).toThrow(UnsupportedEvent);
    expect(() => readEvent('push', file('push', {}))).toThrow(
      /issue_comment, issues, workflow_dispatch, check_suite, pull_request_review, pull_request_review_comment, workflow_run and pull_request_target/,
    );
  });
});

describe('reviews and review comments, for route: their words as a comment on the pull request', () => {
  type Example = {
    action: string;
    pull_request: { number: number; title: string; body: string | null; head: { ref: string } };
    review: { id: number; body: string | null; user: { login: string; type: string }; submitted_at: string };
    comment: { id: number; body: string; user: { login: string; type: string }; created_at: string };
  };
  it('pull_request_review: the review’s body, author and id; the pull request as the issue', () => {
    const example = webhookExample('pull_request_review.submitted') as Example;
    example.review.body = '/crew run keep the old API';
    const ev = readEvent('pull_request_review', file('prr-crew', example));
    const pr = example.pull_request;
    expect(ev).toMatchObject({ kind: 'pull', source: 'pull_request_review', pulls: [{ number: pr.number, headRef: pr.head.ref }] });
    expect(ev.kind === 'pull' && ev.comment).toEqual({
      kind: 'comment',
      defaultBranch: (example as unknown as { repository: { default_branch: string } }).repository.default_branch,
      action: 'created',
      via: 'review',
      // The webhook's state, in its own lower case: `changes_requested` is what iterate_on_review acts on.
      reviewState: 'commented',
      issue: { number: pr.number, title: pr.title, body: pr.body ?? '', isPull: true, labels: [] },
      comment: {
        id: example.review.id,
        body: '/crew run keep the old API',
        createdAt: example.review.submitted_at,
        author: { login: example.review.user.login, type: 'User' },
      },
    });
  });
  it('a review that requests changes carries its state', () => {
    const example = webhookExample('pull_request_review.submitted') as Example & { review: { state: string } };
    example.review.state = 'changes_requested';
    const ev = readEvent('pull_request_review', file('prr-changes', example));
    expect(ev.kind === 'pull' && ev.comment?.reviewState).toBe('changes_requested');
  });
  it('a review with no body (GitHub sends null) is an empty comment', () => {
    const example = webhookExample('pull_request_review.submitted') as Example;
    expect(example.review.body).toBeNull();
    const ev = readEvent('pull_request_review', file('prr-null', example));
    expect(ev.kind === 'pull' && ev.comment?.comment.body).toBe('');
  });
  it('pull_request_review_comment: the line comment’s body, author and id', () => {
    const example = webhookExample('pull_request_review_comment.created') as Example;
    const ev = readEvent('pull_request_review_comment', file('prrc', example));
    expect(ev).toMatchObject({
      kind: 'pull',
      source: 'pull_request_review_comment',
      pulls: [{ number: example.pull_request.number, headRef: example.pull_request.head.ref }],
      comment: {
        action: 'created',
        via: 'review_comment',
        issue: { number: example.pull_request.number, isPull: true },
        comment: { id: example.comment.id, body: example.comment.body, createdAt: example.comment.created_at, author: { login: example.comment.user.login } },
      },
    });
  });
  it('a review comment payload without its comment names the field', () => {
    const { comment: _, ...rest } = webhookExample('pull_request_review_comment.created') as Example;
    expect(() => readEvent('pull_request_review_comment', file('prrc-bad', rest))).toThrow(
      /the pull_request_review_comment payload is missing fields crew needs: comment/,
    );
  });
});

describe('issues events (trigger_label, trigger_assignee), from GitHub’s webhook examples', () => {
  type Example = { issue: { number: number; title: string; updated_at: string }; sender: { login: string; type: string } };
  it('labeled: the label, the issue and who added it', () => {
    const example = webhookExample('issues.labeled') as Example & { label: { name: string } };
    expect(readEvent('issues', file('labeled', example))).toMatchObject({
      kind: 'issue',
      action: 'labeled',
      label: example.label.name,
      issue: { number: example.issue.number, title: example.issue.title, updatedAt: example.issue.updated_at },
      sender: { login: example.sender.login, type: example.sender.type },
    });
  });
  it('assigned: the assignee and who assigned', () => {
    const example = webhookExample('issues.assigned') as Example & { assignee: { login: string } };
    const ev = readEvent('issues', file('assigned', example));
    expect(ev).toMatchObject({ kind: 'issue', action: 'assigned', assignee: example.assignee.login, sender: { login: example.sender.login } });
    expect(ev).not.toHaveProperty('label');
  });
  it('a payload without its sender is refused, naming the field', () => {
    const { sender: _, ...rest } = webhookExample('issues.labeled') as Record<string, unknown>;
    expect(() => readEvent('issues', file('nosender', rest))).toThrow(/the issues payload is missing fields crew needs: sender/);
  });
});

describe('whether the repository is public', () => {
  it("reads the payload's repository.private, as GitHub's webhook example has it; a payload that does not say counts as public", () => {
    const example = webhookExample('issue_comment.created') as { repository: Record<string, unknown> };
    expect(publicRepository(file('pub', { ...example, repository: { ...example.repository, private: false } }))).toBe(true);
    expect(publicRepository(file('priv', { ...example, repository: { ...example.repository, private: true } }))).toBe(false);
    expect(publicRepository(file('none', { action: 'created' }))).toBe(true);
    expect(publicRepository(join(dir, 'missing.json'))).toBe(true);
  });
});
