import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readEvent, UnsupportedEvent } from '../../../src/event';
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
  it('workflow_run (for CI that runs on GitHub Actions): its pull requests', () => {
    const ev = readEvent(
      'workflow_run',
      file('wr', {
        action: 'completed',
        workflow_run: { pull_requests: [{ number: 7, head: { ref: 'crew/3/r1/integration', sha: 'a' } }] },
        repository: { default_branch: 'main' },
      }),
    );
    expect(ev).toEqual({ kind: 'pull', source: 'workflow_run', defaultBranch: 'main', pulls: [{ number: 7, headRef: 'crew/3/r1/integration' }] });
  });
  it('other events are refused with the list crew runs on', () => {
    expect(() => readEvent('push', file('push', {}))).toThrow(UnsupportedEvent);
    expect(() => readEvent('push', file('push', {}))).toThrow(/issue_comment, workflow_dispatch, check_suite, pull_request_review and workflow_run/);
  });
});
