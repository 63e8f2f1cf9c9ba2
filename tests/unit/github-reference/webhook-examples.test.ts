import { describe, expect, it } from 'vitest';
import { webhookEvents } from '../../support/github/reference/endpoints';
import { webhookExample } from '../../support/github/reference/index';

interface IssueCommentPayload {
  action: string;
  comment: { body: string; user: { type: string; login: string } };
  issue: { number: number };
  repository: { full_name: string };
  sender: { login: string };
}

describe('webhookExample', () => {
  it.each(webhookEvents)('has an example for %s', (name) => {
    const example = webhookExample(name) as { action?: string; repository?: unknown; sender?: unknown };
    const action = name.split('.')[1];
    if (action) expect(example.action).toBe(action);
    expect(example.repository).toBeTypeOf('object');
    expect(example.sender).toBeTypeOf('object');
  });

  it('has the issue_comment fields crew relies on', () => {
    const payload = webhookExample('issue_comment.created') as IssueCommentPayload;
    expect(payload.action).toBe('created');
    expect(payload.comment.body).toBeTypeOf('string');
    expect(payload.comment.user.type).toBe('User');
    expect(payload.issue.number).toBeTypeOf('number');
    expect(payload.repository.full_name).toMatch(/^[^/]+\/[^/]+$/);
    expect(payload.sender.login).toBeTypeOf('string');
  });

  it('returns an independent deep clone each time', () => {
    const first = webhookExample('issue_comment.created') as IssueCommentPayload;
    const original = first.comment.body;
    first.comment.body = '/crew changed';
    first.comment.user.type = 'Bot';
    const second = webhookExample('issue_comment.created') as IssueCommentPayload;
    expect(second.comment.body).toBe(original);
    expect(second.comment.user.type).toBe('User');
    expect(second).not.toBe(first);
  });

  it('names the available examples for an unknown event', () => {
    expect(() => webhookExample('delete')).toThrow(/No webhook example "delete" \(have: issue_comment\.created/);
  });
});
