import { describe, expect, it } from 'vitest';
import { mergeDecision, mergeMethod, type MergeFacts } from '../../../src/domain/merge-gate';

const HEAD = 'a'.repeat(40);
const facts = (patch: Partial<MergeFacts> = {}): MergeFacts => ({
  autoMerge: true,
  acceptedBy: null,
  verdict: 'PASS',
  judgedSha: HEAD,
  pull: { state: 'open', merged: false, headSha: HEAD },
  checks: [{ name: 'ci', status: 'completed', conclusion: 'success' }],
  mergeWithoutChecks: false,
  requireApproval: false,
  approvedBy: [],
  requester: 'maintainer',
  ...patch,
});

describe('the merge gate', () => {
  it('merges when every condition holds', () => {
    expect(mergeDecision(facts())).toEqual({ merge: true });
    expect(mergeDecision(facts({ checks: [{ name: 'ci', status: 'completed', conclusion: 'neutral' }, { name: 'lint', status: 'success', conclusion: null }] }))).toEqual({ merge: true });
  });
  it.each([
    ['auto_merge off', { autoMerge: false }, /`auto_merge` is off/],
    ['accepted FAIL', { acceptedBy: 'maintainer', verdict: 'FAIL' as const }, /@maintainer accepted it with `\/crew accept`/],
    ['no PASS', { verdict: 'FAIL' as const }, /the critic has not passed it/],
    ['head moved after the critic', { pull: { state: 'open' as const, merged: false, headSha: 'b'.repeat(40) } }, /the head moved to bbbbbbb after the critic passed aaaaaaa/],
    ['red check', { checks: [{ name: 'ci', status: 'completed', conclusion: 'failure' }, { name: 'lint', status: 'error', conclusion: null }] }, /checks failed on aaaaaaa: ci \(failure\), lint \(error\)/],
    ['closed', { pull: { state: 'closed' as const, merged: false, headSha: HEAD } }, /closed/],
  ])('refuses: %s', (_name, patch, reason) => {
    const d = mergeDecision(facts(patch));
    expect(d.merge).toBe(false);
    if (!d.merge) {
      expect(d.reason).toMatch(reason);
      expect(d.waiting).toBe(false);
    }
  });
  it('waits for pending checks, for checks that have not started, and for an approval from someone else', () => {
    const pending = mergeDecision(facts({ checks: [{ name: 'ci', status: 'in_progress', conclusion: null }] }));
    expect(pending).toMatchObject({ merge: false, waiting: true, reason: expect.stringContaining('waiting for checks on aaaaaaa: ci') });
    expect(mergeDecision(facts({ checks: [] }))).toMatchObject({ merge: false, waiting: true, reason: expect.stringContaining('reports no checks') });
    expect(mergeDecision(facts({ requireApproval: true, approvedBy: ['maintainer', 'renovate[bot]'] }))).toMatchObject({ merge: false, waiting: true });
    expect(mergeDecision(facts({ requireApproval: true, approvedBy: ['Maintainer', 'reviewer'] }))).toEqual({ merge: true });
  });
  it('merges without checks only when config says so, and says why', () => {
    expect(mergeDecision(facts({ checks: [], mergeWithoutChecks: true }))).toEqual({ merge: true, note: expect.stringContaining('`merge_without_checks` is on') });
  });
  it('the method: config first, else the first the repository allows', () => {
    expect(mergeMethod('rebase', { merge: true, squash: true, rebase: false })).toBe('rebase');
    expect(mergeMethod(undefined, { merge: false, squash: true, rebase: true })).toBe('squash');
    expect(mergeMethod(undefined, { merge: false, squash: false, rebase: false })).toBeUndefined();
  });
});
