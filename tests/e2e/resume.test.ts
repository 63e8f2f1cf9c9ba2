import { beforeAll, describe, expect, it } from 'vitest';
import { outcomeOf, type Outcome } from '../support/scenario/outcome';
import type { Scenario } from '../support/scenario/schema';
import { soakCases } from '../support/soak';
import { expectFaithful, play } from './helpers';

/** A kill point, then the maintainer's `/crew resume` if the run did not finish on its own. */
export function interrupted(kill: Scenario['kill'][number]) {
  return (s: Scenario) => {
    s.kill.push(kill);
    s.timeline.push({ comment: '/crew resume', author: 'maintainer', unless_crew_said: '✅ Done' }, { wait: 'idle' });
  };
}

export async function outcome(edit?: (s: Scenario) => void): Promise<{ outcome: Outcome; killed: string[]; result: Awaited<ReturnType<typeof play>> }> {
  let out: Outcome | undefined;
  const result = await play('scenarios/demo.yaml', { edit, hooks: { beforeClose: async ({ gh, result: r }) => void (out = await outcomeOf(gh, r)) } });
  expectFaithful(result);
  return { outcome: out!, killed: result.jobs.filter((j) => j.killedAt).map((j) => `${j.name}@${j.killedAt}`), result };
}

describe('kill anywhere, resume, and end where an uninterrupted run ends', () => {
  let baseline: Outcome;
  beforeAll(async () => {
    baseline = (await outcome()).outcome;
    expect(baseline.pulls).toHaveLength(1);
  }, 360_000);

  // `npm test` kills at three of these, in both of GitHub's ways (the critic's after it opened the PR and
  // before the write that records the PASS with it: it judges again and finds that PR); `npm run soak` at all five
  // (tests/support/soak.ts), then at every checkpoint of every job (scripts/soak.ts).
  it.each(
    soakCases([
      // In the full workflow: the baseline is the short one's, so this also shows both forms end alike.
      { job: 'route', checkpoint: 'plan-recorded', mode: 'cancel' as const, sample: true, workflow: 'full' as const },
      { job: 'work', checkpoint: 'task-pushed', matrix: { task: 't1' }, mode: 'cancel' as const },
      { job: 'work', checkpoint: 'state-write', matrix: { task: 't3' }, mode: 'lost' as const, sample: true },
      { job: 'work', checkpoint: 'task-recorded', matrix: { task: 't1' }, mode: 'cancel' as const },
      { job: 'critic', checkpoint: 'pr-opened', mode: 'cancel' as const, sample: true },
    ]),
  )(
    '$job killed at $checkpoint ($mode)',
    async ({ sample: _, workflow, ...kill }) => {
      const run = await outcome((s) => {
        interrupted({ times: 1, ...kill })(s);
        if (workflow) s.workflow = workflow;
      });
      expect(run.result.workflow).toBe(workflow ?? 'short');
      expect(run.killed).toHaveLength(1);
      // The two forms differ in the workflow file every branch carries, and in nothing else.
      const sameBut = (o: Outcome) =>
        workflow
          ? {
              ...o,
              branches: Object.fromEntries(Object.entries(o.branches).map(([b, files]) => [b, { ...files, '.github/workflows/crew.yml': 'either form' }])),
            }
          : o;
      expect(sameBut(run.outcome)).toEqual(sameBut(baseline));
      // No duplicates: one PR, one plan comment, one report.
      expect(run.result.pulls).toHaveLength(1);
      expect(run.result.branches.map((b) => b.name).sort()).toEqual([
        'crew/1/r1/integration',
        'crew/1/r1/t1',
        'crew/1/r1/t2',
        'crew/1/r1/t3',
        'crew/state',
        'main',
      ]);
    },
    360_000,
  );
});
