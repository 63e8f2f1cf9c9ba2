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

  it('a parallel attempt still working when the run stops at its budget ends at its next turn, its work its candidate; the task is judged on what exists, and `/crew continue` ends in a pull request', async () => {
    type Candidate = { n: number; worker: string; headSha: string; summary: string };
    let atStop:
      | { run: Record<string, unknown>; t1: Record<string, unknown>; t2: Record<string, unknown>; a2Tip: string | undefined; a2Note: string | undefined }
      | undefined;
    const turns = { a1: 0, a2: 0 };
    const r = await play('parallel-budget-stop-legs', {
      hooks: {
        onStep: async (_step, index, gh) => {
          if (index !== 2) return;
          // The run waits at the budget, before `/crew continue`.
          const read = async (path: string) => JSON.parse((await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-1/${path}`)) ?? 'null');
          atStop = {
            run: await read('run.json'),
            t1: await read('tasks/task_t1.json'),
            t2: await read('tasks/task_t2.json'),
            a2Tip: await gh.repo.branchSha('crew/1/r1/t1-a2'),
            a2Note: await gh.repo.readFile('refs/heads/crew/1/r1/t1-a2', 'notes/A.md'),
          };
        },
        beforeClose: async ({ anthropic }) => {
          for (const q of anthropic.requests) {
            if (q.role !== 'worker' || q.task !== 't1') continue;
            const which = /Parallel attempt: (\d) of 2/.exec(JSON.stringify(q.body))?.[1];
            if (which === '1') turns.a1++;
            if (which === '2') turns.a2++;
          }
        },
      },
    });
    expectFaithful(r);
    const s = atStop!;
    expect(s.run).toMatchObject({ phase: 'ESCALATING', waiting: { kind: 'budget', limit: 'run' } });
    expect(s.t2).toMatchObject({ status: 'pending', attempts: 1 });
    // The second attempt stopped at a turn after the stop (its second at the earliest), never reaching its report (its ninth).
    expect(turns.a1).toBe(2);
    expect(turns.a2).toBeGreaterThanOrEqual(2);
    expect(turns.a2).toBeLessThan(8);
    // Its work so far was pushed to its own branch and recorded as its candidate, which says the budget, not an abort.
    expect(s.a2Note).toBe(`# A\n\nLine ${turns.a2}.\n`);
    const cands = s.t1.candidates as Candidate[];
    expect(cands.map((c) => [c.n, c.worker])).toEqual([
      [1, 'success'],
      [2, 'partial'],
    ]);
    expect(cands[1]!.headSha).toBe(s.a2Tip);
    expect(cands[1]!.summary).toBe('the run stopped at a budget; the worker stopped at the end of a turn');
    expect(JSON.stringify(s.t1)).not.toContain('aborted');
    // Judged on what exists while the run waited: the first attempt kept, the task done.
    expect(s.t1).toMatchObject({ status: 'success', selection: { chosen: 1 } });
    // `/crew continue $5`: t2 goes on from its branch, and the run ends in a pull request with both notes.
    expect(r.pulls).toHaveLength(1);
    expect([...r.pulls[0]!.files].sort()).toEqual(['notes/A.md', 'notes/B.md']);
  }, 600_000);
});
