import { describe, expect, it } from 'vitest';
import { GITHUB } from '../../../src/domain/surface';
import {
  countApprovals,
  mergeDecision,
  mergeMethod,
  reviewersToCheck,
  type ApprovingReview,
  type MergeFacts,
  type ReviewerPermission,
} from '../../../src/domain/merge-gate';

const HEAD = 'a'.repeat(40);
const facts = (patch: Partial<MergeFacts> = {}): MergeFacts => ({
  autoMerge: true,
  acceptedBy: null,
  verdict: 'PASS',
  judgedSha: HEAD,
  forAPerson: [],
  pull: { state: 'open', merged: false, headSha: HEAD },
  checks: [{ name: 'ci', status: 'completed', conclusion: 'success' }],
  mergeWithoutChecks: false,
  requireApproval: false,
  approvedBy: [],
  uncounted: [],
  requester: 'maintainer',
  ...patch,
});

describe('the merge gate', () => {
  it('merges when every condition holds', () => {
    expect(mergeDecision(facts(), GITHUB)).toEqual({ merge: true });
    expect(
      mergeDecision(
        facts({
          checks: [
            { name: 'ci', status: 'completed', conclusion: 'neutral' },
            { name: 'lint', status: 'success', conclusion: null },
          ],
        }),
        GITHUB,
      ),
    ).toEqual({ merge: true });
  });
  it.each([
    ['auto_merge off', { autoMerge: false }, /`auto_merge` is off/],
    ['accepted FAIL', { acceptedBy: 'maintainer', verdict: 'FAIL' as const }, /@maintainer accepted it with `\/crew accept`/],
    ['no PASS', { verdict: 'FAIL' as const }, /the critic has not passed it/],
    [
      'a finding for a person',
      { forAPerson: ['lifecycle-script-changed in `package.json`'] },
      /a person must look at lifecycle-script-changed in `package.json` first \(listed under "Look at before merging"\), so crew leaves the merge to them/,
    ],
    [
      'head moved after the critic',
      { pull: { state: 'open' as const, merged: false, headSha: 'b'.repeat(40) } },
      /the head moved to bbbbbbb after the critic passed aaaaaaa/,
    ],
    [
      'red check',
      {
        checks: [
          { name: 'ci', status: 'completed', conclusion: 'failure' },
          { name: 'lint', status: 'error', conclusion: null },
        ],
      },
      /checks failed on aaaaaaa: ci \(failure\), lint \(error\)/,
    ],
    ['closed', { pull: { state: 'closed' as const, merged: false, headSha: HEAD } }, /closed/],
  ])('refuses: %s', (_name, patch, reason) => {
    const d = mergeDecision(facts(patch), GITHUB);
    expect(d.merge).toBe(false);
    if (!d.merge) {
      expect(d.reason).toMatch(reason);
      expect(d.waiting).toBe(false);
    }
  });
  it('waits for pending checks, for checks that have not started, and for an approval from someone else', () => {
    const pending = mergeDecision(facts({ checks: [{ name: 'ci', status: 'in_progress', conclusion: null }] }), GITHUB);
    expect(pending).toMatchObject({ merge: false, waiting: true, reason: expect.stringContaining('waiting for checks on aaaaaaa: ci') });
    expect(mergeDecision(facts({ checks: [] }), GITHUB)).toMatchObject({ merge: false, waiting: true, reason: expect.stringContaining('reports no checks') });
    expect(mergeDecision(facts({ requireApproval: true, approvedBy: ['maintainer', 'renovate[bot]'] }), GITHUB)).toMatchObject({ merge: false, waiting: true });
    expect(mergeDecision(facts({ requireApproval: true, approvedBy: ['Maintainer', 'reviewer'] }), GITHUB)).toEqual({ merge: true });
  });
  it('counts an approval only from write, maintain or admin on the current head, and lists the others with the reason', () => {
    const OLD = 'c'.repeat(40);
    const reviews: ApprovingReview[] = [
      { login: 'maintainer', commit: HEAD, bot: false },
      { login: 'reader', commit: HEAD, bot: false },
      { login: 'stranger', commit: HEAD, bot: false },
      { login: 'flaky', commit: HEAD, bot: false },
      { login: 'late', commit: OLD, bot: false },
      { login: 'renovate[bot]', commit: HEAD, bot: true },
      { login: 'keeper', commit: HEAD, bot: false },
      { login: 'owner', commit: HEAD, bot: false },
    ];
    // Neither the requester, a bot, nor an approval of an older head needs a permission check.
    expect(reviewersToCheck(reviews, HEAD, 'Maintainer')).toEqual(['reader', 'stranger', 'flaky', 'keeper', 'owner']);
    const permissions: Record<string, ReviewerPermission> = { reader: 'read', stranger: 'none', flaky: 'failed', keeper: 'write', owner: 'admin' };
    const counted = countApprovals(reviews, HEAD, 'maintainer', (l) => permissions[l]);
    expect(counted.approvedBy).toEqual(['maintainer', 'keeper', 'owner']);
    expect(counted.uncounted.map((u) => u.why)).toEqual([
      '@reader has read access',
      '@stranger has no access',
      '@flaky: the permission check failed',
      '@late approved an older head (ccccccc)',
    ]);
    // A permission nobody asked for counts as a failed check, never as a yes.
    expect(countApprovals([{ login: 'ghost', commit: HEAD, bot: false }], HEAD, 'maintainer', () => undefined).uncounted).toEqual([
      { login: 'ghost', why: '@ghost: the permission check failed' },
    ]);
    const waiting = mergeDecision(facts({ requireApproval: true, approvedBy: ['maintainer'], uncounted: counted.uncounted.slice(0, 1) }), GITHUB);
    expect(waiting).toEqual({
      merge: false,
      waiting: true,
      reason:
        'waiting for an approving review of aaaaaaa from someone other than @maintainer (`require_approval`); approvals that do not count: @reader has read access',
    });
    expect(mergeDecision(facts({ requireApproval: true, ...counted }), GITHUB)).toEqual({ merge: true });
  });
  it('merges without checks only when config says so, and says why', () => {
    expect(mergeDecision(facts({ checks: [], mergeWithoutChecks: true }), GITHUB)).toEqual({
      merge: true,
      note: expect.stringContaining('`merge_without_checks` is on'),
    });
  });
  it('the method: config first, else the first the repository allows', () => {
    expect(mergeMethod('rebase', { merge: true, squash: true, rebase: false })).toBe('rebase');
    expect(mergeMethod(undefined, { merge: false, squash: true, rebase: true })).toBe('squash');
    expect(mergeMethod(undefined, { merge: false, squash: false, rebase: false })).toBeUndefined();
  });
});
