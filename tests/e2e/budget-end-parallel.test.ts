import { describe, expect, it } from 'vitest';
import { expectFaithful, play } from './helpers';

/**
 * When one task stops the run at `budgets.run` (#52), the other running workers stop at their next
 * turn, their work kept and pushed, instead of spending the rest of their attempts past the budget.
 */
describe('other workers stop at the run’s budget stop (#52), through dist/', () => {
  it('task t2, still working when t1 stops the run, ends its attempt at its next turn, held with its work on its branch', async () => {
    let seen:
      | { run: Record<string, unknown>; t2: Record<string, unknown>; t2Branch: string | undefined; t2Notes: string | undefined; turns: Record<string, number> }
      | undefined;
    const r = await play('parallel-budget-stop', {
      hooks: {
        beforeClose: async ({ gh, anthropic }) => {
          const read = async (path: string) => JSON.parse((await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-1/${path}`)) ?? 'null');
          seen = {
            run: await read('run.json'),
            t2: await read('tasks/task_t2.json'),
            t2Branch: await gh.repo.branchSha('crew/1/r1/t2'),
            t2Notes: await gh.repo.readFile('refs/heads/crew/1/r1/t2', 'notes/B.md'),
            turns: { t1: 0, t2: 0 },
          };
          for (const q of anthropic.requests) if (q.role === 'worker' && q.task) seen.turns[q.task] = (seen.turns[q.task] ?? 0) + 1;
        },
      },
    });
    expectFaithful(r);
    expect(seen!.run).toMatchObject({ phase: 'ESCALATING', waiting: { kind: 'budget', limit: 'run' } });
    // t1 met the budget in its first turn and reported in its last; t2 stopped at a turn after that (its second, unless
    // the machine was slow to record t1's stop), never reaching the eighth, its report.
    expect(seen!.turns.t1).toBe(2);
    expect(seen!.turns.t2).toBeGreaterThanOrEqual(2);
    expect(seen!.turns.t2).toBeLessThan(8);
    expect(seen!.t2).toMatchObject({
      status: 'pending',
      attempts: 1,
      headSha: seen!.t2Branch,
      error: 'the run stopped at a budget; the worker stopped at the end of a turn',
    });
    expect(seen!.t2Notes).toBe(`# B\n\nLine ${seen!.turns.t2}.\n`);
    expect(r.pulls).toEqual([]);
  }, 600_000);
});
