import { describe, expect, it } from 'vitest';
import type { Criterion } from '../../../src/domain/criteria';
import type { StepContext } from '../../../src/steps/context';
import { localise } from '../../../src/steps/localise';
import { view } from './run-fixtures';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';

describe('localise (the critic step)', () => {
  it('a git error while localising leaves the criterion undecided with the reason, runs nothing, and puts the workspace back at the judged head', async () => {
    const checkouts: string[] = [];
    const warnings: string[] = [];
    let ran = 0;
    const ctx = withPlanCommentSync({
      remote: {
        fetch: async () => {
          throw new Error('fatal: unable to access the remote\nmore');
        },
        tracking: (b: string) => `refs/remotes/origin/${b}`,
      },
      repo: {
        dir: '/nowhere',
        checkoutDetached: async (sha: string) => void checkouts.push(`detached ${sha}`),
        checkoutNew: async (branch: string, start: string) => void checkouts.push(`${branch} at ${start}`),
      },
      branches: { integration: (issue: number, run: number) => `crew/${issue}/r${run}/integration`, task: () => 'x' },
      clock: { now: () => new Date() },
      log: { info: () => undefined, warn: (m: string) => void warnings.push(m), checkpoint: () => undefined },
    } as unknown as StepContext);
    const v = view(['success', 'success', 'success']);
    for (const t of v.tasks.values()) t.changedFiles = [`src/${t.id}.js`];
    const criterion: Criterion = { id: 'c1', text: 'tests pass', kind: 'command', command: 'npm test' };
    const runner = { sandboxed: true, run: async () => (ran++, { exitCode: 1, timedOut: false, output: '' }) };
    const [l] = await localise(ctx, v, [{ criterion, exitCode: 1, output: 'FAIL' }], {
      runner: runner as never,
      headSha: 'head1',
      budgetSeconds: 60,
      commandTimeoutMs: 1000,
    });
    expect(l!.outcome).toEqual({ kind: 'undecided', why: 'localisation stopped: fatal: unable to access the remote' });
    expect(ran).toBe(0);
    expect(checkouts).toEqual([`crew/${v.run.issue}/r${v.run.run}/integration at head1`]);
    expect(warnings[0]).toContain("the critic model's attribution is used");
  });
});
