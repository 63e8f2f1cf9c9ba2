import { describe, expect, it } from 'vitest';
import { GITHUB, terminalSurface } from '../../../src/domain/surface';
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
      /^checks did not pass on aaaaaaa: the `ci` check failed; the `lint` check errored\. Push a fix, or comment `\/crew fix …`; crew merges once the checks pass$/,
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
  it('red checks in present terms: which check of which workflow failed on which head, a link to its run, and what a person can do; fix_ci fixing it or out of attempts (#39)', () => {
    const run = (id: number, workflow = 'CI') => ({
      id,
      workflow,
      path: '.github/workflows/ci.yml',
      url: `https://github.com/acme/widgets/actions/runs/${id}`,
      status: 'completed',
      conclusion: 'failure',
      headSha: HEAD,
      headBranch: 'crew/1/r1/integration',
      headRepo: 'acme/widgets',
    });
    const reason = (patch: Partial<MergeFacts>) => {
      const d = mergeDecision(facts(patch), GITHUB);
      if (d.merge) throw new Error('merged');
      expect(d.waiting).toBe(false);
      return d.reason;
    };
    const test = { name: 'test', status: 'completed', conclusion: 'failure', run: run(7) };
    expect(reason({ checks: [test, { name: 'lint', status: 'completed', conclusion: 'success', run: run(7) }] })).toBe(
      'the `test` check of `CI` failed on aaaaaaa ([run](https://github.com/acme/widgets/actions/runs/7)). Push a fix, or comment `/crew fix …`; crew merges once the checks pass',
    );
    // Two failed jobs of one run are one sentence; another run's, a timed-out job and an app's check each their own.
    expect(
      reason({
        checks: [
          test,
          { name: 'types', status: 'completed', conclusion: 'failure', run: run(7) },
          { name: 'e2e', status: 'completed', conclusion: 'timed_out', run: run(8, 'E2E') },
          { name: 'ci/app', status: 'completed', conclusion: 'cancelled' },
        ],
      }),
    ).toBe(
      'checks did not pass on aaaaaaa: the `test` and `types` checks of `CI` failed ([run](https://github.com/acme/widgets/actions/runs/7)); the `e2e` check of `E2E` timed out ([run](https://github.com/acme/widgets/actions/runs/8)); the `ci/app` check was cancelled. Push a fix, or comment `/crew fix …`; crew merges once the checks pass',
    );
    expect(reason({ checks: [test], fixCi: { kind: 'fixing', attempt: 1, max: 2 } })).toMatch(
      /failed on aaaaaaa \(\[run\]\([^)]+\)\)\. crew is fixing it \(`fix_ci` attempt 1 of 2\) and merges once the checks pass on its fix$/,
    );
    expect(reason({ checks: [test], fixCi: { kind: 'used-up', max: 2 } })).toMatch(
      /\. crew has used all 2 of its `fix_ci_attempts` on this pull request\. Push a fix, or comment `\/crew fix …`; crew merges once the checks pass$/,
    );
    // Names come from the repository's files: shown as code, they format nothing.
    expect(reason({ checks: [{ ...test, name: '**bold** @someone' }] })).toMatch(/^the `\*\*bold\*\* @someone` check of `CI` failed/);
    // At the terminal, where `/crew fix` cannot be given, that part is left out.
    const local = mergeDecision(facts({ checks: [test] }), terminalSurface(3));
    expect(local.merge === false && local.reason).toBe(
      'the `test` check of `CI` failed on aaaaaaa (run (https://github.com/acme/widgets/actions/runs/7)). Push a fix; crew merges once the checks pass',
    );
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
