import { describe, expect, it } from 'vitest';
import { readUserWorkflow } from '../support/scenario/run-scenario';
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
    // Every model request comes from an agent: intake, decomposer, plan review, one per task, the critic and the retrospector.
    expect(r.model.byRole).toEqual({ intake: 1, decomposer: 1, plan_reviewer: 1, worker: 8, critic: 1, retrospector: 1 });
  });

  it('/crew retry t1 after a failed run runs the failed task again; /crew status re-renders the plan comment', async () => {
    let t1: { attempts: number; status: string } | undefined;
    let editsAfterStatus: string[] = [];
    const r = await play('retry-after-failure', {
      hooks: {
        beforeClose: async ({ gh }) => {
          t1 = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/tasks/task_t1.json')) ?? 'null');
          // The requests after the maintainer's last comment, /crew status: what crew edited.
          const status = gh.requests.filter((q) => q.route === 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments' && q.login === 'maintainer').at(-1)!;
          editsAfterStatus = gh.requests
            .filter((q) => q.seq > status.seq && q.principal === 'actions' && q.route === 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}')
            .map((q) => q.path.split('/').pop()!);
        },
      },
    });
    expectFaithful(r);
    const failure = crewComments(r).find((c) => c.body.startsWith('**crew stopped** during the tasks.'))!;
    expect(failure.body).toContain('Comment `/crew retry` to run the failed tasks again');
    expect(failure.body).toContain('crew tried to re-plan them, but the plan reviewer did not pass the replacement');
    expect(failure.body).toContain('Skipping the type checker hides the error');
    expect(t1).toMatchObject({ attempts: 2, status: 'success' });
    expect(r.pulls).toHaveLength(1);
    // /crew status adds no comment: it re-renders the plan comment in place.
    const after = crewComments(r).filter((c) => c.id > r.issue.comments.find((x) => x.body === '/crew status')!.id);
    expect(after).toEqual([]);
    const plan = crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!;
    expect(editsAfterStatus).toEqual([String(plan.id)]);
  });

  it('a dispatch replayed with the same nonce, or with a forged one, starts nothing twice', async () => {
    const workLogs: string[][] = [];
    const r = await play('scenarios/demo.yaml', {
      edit: (s) => {
        // A task needs more time than a work job has left after t1 (55 of the 60 minutes' 54 usable), so t1's job
        // dispatches t2 rather than running it next itself (a chain): there is a dispatch to replay.
        s.config = 'task_timeout_minutes: 55\n';
        // t2 thinks for a while, so the extra dispatches arrive while it runs.
        const entries = (s.model as { entries: Array<{ role: string; task?: string; replies: Array<{ delay_ms?: number }> }> }).entries;
        entries.find((e) => e.role === 'worker' && e.task === 't2')!.replies[0]!.delay_ms = 300_000;
        s.timeline = [
          { comment: '/crew run', author: 'maintainer' },
          { wait: { model: { role: 'worker', task: 't2', requests: 1 }, timeout_ms: 60_000 } },
          { dispatch: 'replay', author: 'maintainer' },
          { dispatch: { tasks: ['t2'], nonce: 'forged0000', run: '1' }, author: 'maintainer' },
          { wait: 'idle' },
        ];
      },
      hooks: {
        beforeClose: async ({ runner }) => {
          for (const run of runner.runs) for (const j of run.jobs) if (j.name === 'crew / work (t2)') workLogs.push(j.log);
        },
      },
    });
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    expect(workLogs).toHaveLength(3);
    expect(workLogs.filter((log) => log.some((l) => l.includes('t2 attempt 1: the worker stopped')))).toHaveLength(1);
    expect(workLogs.filter((log) => log.some((l) => l.includes('the dispatch for t2 is stale')))).toHaveLength(2);
    expect(crewComments(r).filter((c) => c.body.includes('crew stopped'))).toEqual([]);
  });

  it('a workflow that still routes dispatches through route says so on the issue instead of stalling', async () => {
    const shipped = readUserWorkflow();
    // The older shape: route runs for dispatches too, and work takes its matrix from route alone.
    const old = shipped
      .replace(
        "github.event_name == 'issue_comment' && github.event.comment.user.type == 'User' &&",
        "github.event_name == 'workflow_dispatch' || github.event.comment.user.type == 'User' &&",
      )
      .replace('fromJSON(inputs.tasks || needs.route.outputs.tasks)', 'fromJSON(needs.route.outputs.tasks)')
      .replace(
        "!cancelled() && (github.event_name == 'workflow_dispatch' || (needs.route.result == 'success' &&",
        "!cancelled() && ((needs.route.result == 'success' &&",
      );
    expect(old).not.toBe(shipped);
    let phase: string | undefined;
    const r = await play('scenarios/demo.yaml', {
      edit: (s) => {
        s.repo.files['.github/workflows/crew.yml'] = old;
        // No time left in t1's job for t2 (see the replay test above): t2 is dispatched, which this workflow routes wrongly.
        s.config = 'task_timeout_minutes: 55\n';
      },
      hooks: { beforeClose: async ({ gh }) => void (phase = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!).phase) },
    });
    expect(r.github.violations).toEqual([]);
    const failure = crewComments(r).find((c) => c.body.startsWith('**crew stopped** during starting dispatched tasks.'));
    expect(failure?.body).toContain('runs the `route` job for crew\'s own dispatches (tasks `["t2"]`)');
    expect(failure?.body).toContain("Replace `.github/workflows/crew.yml` with the workflow in crew's README");
    expect(r.pulls).toEqual([]);
    // The run is left as it was, so /crew resume can carry on once the workflow is replaced.
    expect(phase).toBe('EXECUTING');
  });
});
