import { describe, expect, it } from 'vitest';
import { crewComments, expectFaithful, play } from './helpers';

describe('orchestration: triggers, commands and the cost of a run', () => {
  it('two triggers at the same moment: exactly one run; the other gets a short comment pointing to it', async () => {
    const r = await play('double-trigger');
    expectFaithful(r);
    const busy = crewComments(r).filter((c) => c.body.startsWith('crew is already working on this issue (run 1'));
    expect(busy).toHaveLength(1);
    expect(crewComments(r).filter((c) => c.body.includes('<!-- crew:plan'))).toHaveLength(1);
    expect(r.model.byRole.intake).toBe(1);
    expect(r.pulls).toHaveLength(1);
    expect(r.branches.filter((b) => b.name.startsWith('crew/1/r2'))).toEqual([]);
  });

  it('an eight-task run without failures stays within 3 REST requests per task plus 15, and spends no model tokens on orchestration', async () => {
    const r = await play('eight-tasks');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toHaveLength(8);
    expect(r.github.crew.total).toBeLessThanOrEqual(3 * 8 + 15);
    // Every model request comes from an agent: intake, decomposer, plan review, and one per task.
    expect(r.model.byRole).toEqual({ intake: 1, decomposer: 1, plan_reviewer: 1, worker: 8 });
  });

  it('/crew retry after a failed run runs the failed task again; /crew status refreshes the plan comment', async () => {
    let t1: { attempts: number; status: string } | undefined;
    const r = await play('retry-after-failure', {
      hooks: { beforeClose: async ({ gh }) => void (t1 = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/tasks/task_t1.json')) ?? 'null')) },
    });
    expectFaithful(r);
    const failure = crewComments(r).find((c) => c.body.startsWith('**crew stopped** during the tasks.'))!;
    expect(failure.body).toContain('Comment `/crew retry` to run the failed tasks again');
    expect(failure.body).toContain('crew tried to re-plan them, but the plan reviewer did not pass the replacement');
    expect(failure.body).toContain('Skipping the type checker hides the error');
    expect(t1).toMatchObject({ attempts: 2, status: 'success' });
    expect(r.pulls).toHaveLength(1);
    // /crew status adds no comment: it edits the plan comment.
    const after = crewComments(r).filter((c) => c.id > r.issue.comments.find((x) => x.body === '/crew status')!.id);
    expect(after).toEqual([]);
  });
});
