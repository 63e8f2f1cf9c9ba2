import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, evaluateIf, evaluateValue, type ExprContext, type StatusFunctions } from '../../support/runner/expressions';
import { parseWorkflow } from '../../support/runner/workflow-file';

// Expressions that appear in the workflow crew ships, evaluated against the event payloads it reacts to.

const succeeded: StatusFunctions = { success: () => true, failure: () => false, cancelled: () => false };
const failed: StatusFunctions = { success: () => false, failure: () => true, cancelled: () => false };

/** The route job's `if:` as shipped, so this test cannot drift from the workflow people copy. */
const TRIGGER = String(parseWorkflow(readFileSync(join(__dirname, '../../../.github/workflows/crew.yml'), 'utf8'), 'crew.yml').jobs.route!.if);

function commentEvent(body: string, userType: string, labels: string[] = []): ExprContext {
  return {
    github: {
      event_name: 'issue_comment',
      event: {
        comment: { body, user: { login: 'someone', type: userType } },
        issue: { number: 12, labels: labels.map((name) => ({ name, color: 'ededed' })) },
      },
    },
  };
}

describe("the route job's trigger condition, as shipped", () => {
  it('is the one this test means (a comment from a User, starting with /crew or on an issue waiting for an answer)', () => {
    expect(TRIGGER).toContain("github.event.comment.user.type == 'User'");
  });

  it('skips workflow_dispatch: crew dispatches name their tasks, and the work job starts them itself', () => {
    const ctx: ExprContext = { github: { event_name: 'workflow_dispatch', event: { inputs: { issue: '12' } } } };
    expect(evaluateIf(TRIGGER, ctx, succeeded)).toBe(false);
  });

  it('runs on a /crew comment from a user, whatever its case', () => {
    expect(evaluateIf(TRIGGER, commentEvent('/crew implement this', 'User'), succeeded)).toBe(true);
    expect(evaluateIf(TRIGGER, commentEvent('/CREW go', 'User'), succeeded)).toBe(true);
  });

  it('runs on any reply from a user while the issue is labelled crew: waiting', () => {
    expect(evaluateIf(TRIGGER, commentEvent('Under one second.', 'User', ['crew: waiting']), succeeded)).toBe(true);
    expect(evaluateIf(TRIGGER, commentEvent('Under one second.', 'User', ['bug']), succeeded)).toBe(false);
  });

  it('ignores other comments, and comments from bots, organizations or mannequins', () => {
    expect(evaluateIf(TRIGGER, commentEvent('looks good', 'User'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, commentEvent('please /crew', 'User'), succeeded)).toBe(false);
    for (const type of ['Bot', 'bot', 'Organization', 'Mannequin']) {
      expect(evaluateIf(TRIGGER, commentEvent('/crew go', type), succeeded), type).toBe(false);
      expect(evaluateIf(TRIGGER, commentEvent('an answer', type, ['crew: waiting']), succeeded), type).toBe(false);
    }
  });

  it('ignores unrelated events whose payload lacks a comment', () => {
    expect(evaluateIf(TRIGGER, { github: { event_name: 'push', event: {} } }, succeeded)).toBe(false);
  });

  const issuesEvent = (action: string, fields: Record<string, unknown>, senderType = 'User'): ExprContext => ({
    github: { event_name: 'issues', event: { action, issue: { number: 12, labels: [] }, sender: { login: 'maintainer', type: senderType }, ...fields } },
  });

  it('runs on a label from a person that starts with crew (the trigger_label rule), except crew: waiting', () => {
    expect(evaluateIf(TRIGGER, issuesEvent('labeled', { label: { name: 'crew' } }), succeeded)).toBe(true);
    expect(evaluateIf(TRIGGER, issuesEvent('labeled', { label: { name: 'Crew: run' } }), succeeded)).toBe(true);
    expect(evaluateIf(TRIGGER, issuesEvent('labeled', { label: { name: 'crew: waiting' } }), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, issuesEvent('labeled', { label: { name: 'bug' } }), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, issuesEvent('labeled', { label: { name: 'crew' } }, 'Bot'), succeeded)).toBe(false);
  });

  it('runs on an assignment from a person to a login that contains crew (the trigger_assignee rule)', () => {
    expect(evaluateIf(TRIGGER, issuesEvent('assigned', { assignee: { login: 'acme-crew' } }), succeeded)).toBe(true);
    expect(evaluateIf(TRIGGER, issuesEvent('assigned', { assignee: { login: 'alice' } }), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, issuesEvent('assigned', { assignee: { login: 'acme-crew' } }, 'Bot'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, issuesEvent('opened', {}), succeeded)).toBe(false);
  });

  const reviewEvent = (body: string | null, userType = 'User', action = 'submitted', state = 'commented', head = 'feature'): ExprContext => ({
    github: {
      event_name: 'pull_request_review',
      event: {
        action,
        review: { body, state, user: { login: 'maintainer', type: userType } },
        pull_request: { number: 3, head: { ref: head } },
      },
    },
  });
  const reviewCommentEvent = (body: string, userType = 'User', action = 'created'): ExprContext => ({
    github: {
      event_name: 'pull_request_review_comment',
      event: {
        action,
        comment: { body, path: 'src/a.ts', user: { login: 'maintainer', type: userType } },
        pull_request: { number: 3, head: { ref: 'feature' } },
      },
    },
  });

  it('runs on a review that requests changes on a crew/ branch (iterate_on_review is read by route), and on no other review without /crew', () => {
    const crewHead = 'crew/4/r1/integration';
    expect(evaluateIf(TRIGGER, reviewEvent('Please rename it.', 'User', 'submitted', 'changes_requested', crewHead), succeeded)).toBe(true);
    expect(evaluateIf(TRIGGER, reviewEvent(null, 'User', 'submitted', 'changes_requested', crewHead), succeeded)).toBe(true);
    expect(evaluateIf(TRIGGER, reviewEvent('Please rename it.', 'User', 'submitted', 'changes_requested'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewEvent('Looks good.', 'User', 'submitted', 'commented', crewHead), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewEvent('LGTM', 'User', 'submitted', 'approved', crewHead), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewEvent('Please rename it.', 'Bot', 'submitted', 'changes_requested', crewHead), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewEvent('Please rename it.', 'User', 'dismissed', 'changes_requested', crewHead), succeeded)).toBe(false);
  });

  it('runs on a submitted review and a created review comment from a person that start with /crew', () => {
    expect(evaluateIf(TRIGGER, reviewEvent('/crew run keep the old API'), succeeded)).toBe(true);
    expect(evaluateIf(TRIGGER, reviewCommentEvent('/crew run'), succeeded)).toBe(true);
  });

  it('ignores ordinary review traffic: other text, no body, bots, edits and dismissals', () => {
    expect(evaluateIf(TRIGGER, reviewEvent('Looks good, one nit.'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewEvent(null), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewEvent('please /crew run'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewEvent('/crew run', 'Bot'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewEvent('/crew run', 'User', 'edited'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewEvent('/crew run', 'User', 'dismissed'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewCommentEvent('nit: rename this'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewCommentEvent('/crew run', 'Bot'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewCommentEvent('/crew run', 'User', 'edited'), succeeded)).toBe(false);
    expect(evaluateIf(TRIGGER, reviewCommentEvent('/crew run', 'User', 'deleted'), succeeded)).toBe(false);
  });

  it('works the same wrapped in ${{ }}', () => {
    expect(evaluateIf(`\${{ ${TRIGGER} }}`, commentEvent('/crew go', 'User'), succeeded)).toBe(true);
    expect(evaluateIf(`\${{ ${TRIGGER} }}`, commentEvent('/crew go', 'Bot'), succeeded)).toBe(false);
  });
});

describe("always() && needs.route.outputs.run != ''", () => {
  const cond = "always() && needs.route.outputs.run != ''";
  const needs = (run: string | undefined): ExprContext => ({
    needs: { route: { result: 'success', outputs: run === undefined ? {} : { run } } },
  });

  it('runs when route produced a value, even after a failure', () => {
    expect(evaluateIf(cond, needs('true'), succeeded)).toBe(true);
    expect(evaluateIf(cond, needs('true'), failed)).toBe(true);
  });

  it('skips when the output is empty or absent', () => {
    expect(evaluateIf(cond, needs(''), succeeded)).toBe(false);
    expect(evaluateIf(cond, needs(undefined), succeeded)).toBe(false);
    expect(evaluateIf(cond, {}, succeeded)).toBe(false);
  });
});

describe('fromJSON(needs.route.outputs.tasks)', () => {
  const tasks = [
    { id: 'plan', agent: 'planner' },
    { id: 'build', agent: 'coder' },
  ];
  const ctx: ExprContext = { needs: { route: { outputs: { run: 'true', tasks: JSON.stringify(tasks) } } } };

  it('yields the array as the matrix dimension', () => {
    expect(evaluate('fromJSON(needs.route.outputs.tasks)', ctx)).toEqual(tasks);
    expect(evaluateValue({ task: '${{ fromJSON(needs.route.outputs.tasks) }}' }, ctx)).toEqual({ task: tasks });
  });

  it('matrix values are then usable in with: and env:', () => {
    const matrixCtx: ExprContext = { ...ctx, matrix: { task: tasks[1] ?? null } };
    expect(evaluateValue({ agent: '${{ matrix.task.agent }}', TASK_JSON: '${{ toJSON(matrix.task) }}' }, matrixCtx)).toEqual({
      agent: 'coder',
      TASK_JSON: '{\n  "id": "build",\n  "agent": "coder"\n}',
    });
  });
});

describe("contains(github.event.issue.labels.*.name, 'crew: waiting')", () => {
  const cond = "contains(github.event.issue.labels.*.name, 'crew: waiting')";

  it('matches the label case-insensitively', () => {
    expect(evaluate(cond, commentEvent('/crew', 'User', ['bug', 'crew: waiting']))).toBe(true);
    expect(evaluate(cond, commentEvent('/crew', 'User', ['Crew: Waiting']))).toBe(true);
  });

  it('requires the whole label, not a substring', () => {
    expect(evaluate(cond, commentEvent('/crew', 'User', ['crew: waiting-for-review']))).toBe(false);
    expect(evaluate(cond, commentEvent('/crew', 'User', ['crew']))).toBe(false);
  });

  it('is false without labels or without an issue', () => {
    expect(evaluate(cond, commentEvent('/crew', 'User', []))).toBe(false);
    expect(evaluate(cond, { github: { event_name: 'workflow_dispatch', event: {} } })).toBe(false);
  });
});

describe('the shipped workflow: which jobs run for a comment and for a dispatch', () => {
  const wf = parseWorkflow(readFileSync(join(__dirname, '../../../.github/workflows/crew.yml'), 'utf8'), 'crew.yml');
  const jobIf = (job: string) => wf.jobs[job]!.if!;
  const skippedRoute = { route: { result: 'skipped', outputs: {} } };
  const dispatch = (needs: ExprContext['needs']): ExprContext => ({
    github: { event_name: 'workflow_dispatch', event: { inputs: { issue: '4', run: '2', tasks: '["t3","t5"]', nonce: 'abc' } } },
    inputs: { issue: '4', run: '2', tasks: '["t3","t5"]', nonce: 'abc' },
    needs,
  });
  const comment = (needs: ExprContext['needs']): ExprContext => ({ ...commentEvent('/crew run', 'User'), inputs: {}, needs });
  const skippedStatus: StatusFunctions = { success: () => false, failure: () => false, cancelled: () => false };

  it('a dispatch skips route and starts its own tasks in work, then advance', () => {
    expect(evaluateIf(jobIf('route'), dispatch({}), succeeded)).toBe(false);
    expect(evaluateIf(jobIf('work'), dispatch(skippedRoute), skippedStatus)).toBe(true);
    expect(evaluateValue(wf.jobs.work!.strategy!.matrix, dispatch(skippedRoute))).toEqual({ task: ['t3', 't5'] });
    const withInputs = evaluateValue(wf.jobs.work!.steps.at(-1)!.with, { ...dispatch(skippedRoute), matrix: { task: 't3' } }) as Record<string, string>;
    expect(withInputs).toMatchObject({ issue: '4', run: '2', task: 't3' });
  });

  it('advance runs only where work did not succeed: a lost or cancelled leg, or a dispatch with no tasks that finishes the run', () => {
    const work = (result: string) => ({ ...skippedRoute, work: { result, outputs: {} } });
    expect(evaluateIf(jobIf('advance'), dispatch(work('success')), succeeded)).toBe(false);
    expect(evaluateIf(jobIf('advance'), dispatch(work('failure')), failed)).toBe(true);
    expect(evaluateIf(jobIf('advance'), dispatch(work('cancelled')), { success: () => false, failure: () => false, cancelled: () => true })).toBe(true);
    const finish: ExprContext = { ...dispatch(work('skipped')), inputs: { issue: '4', run: '2', tasks: '[]', nonce: 'abc' } };
    expect(evaluateIf(jobIf('work'), finish, skippedStatus)).toBe(false);
    expect(evaluateIf(jobIf('advance'), finish, skippedStatus)).toBe(true);
    const routed = (result: string) => ({ route: { result: 'success', outputs: { issue: '4', run: '2', tasks: '["t1"]' } }, work: { result, outputs: {} } });
    expect(evaluateIf(jobIf('advance'), comment(routed('success')), succeeded)).toBe(false);
    expect(evaluateIf(jobIf('advance'), comment(routed('failure')), failed)).toBe(true);
    // A command that started no work (resume, accept, retry of an integration) still gets its advance job.
    expect(
      evaluateIf(
        jobIf('advance'),
        comment({ route: { result: 'success', outputs: { issue: '4', run: '2', tasks: '[]' } }, work: { result: 'skipped', outputs: {} } }),
        succeeded,
      ),
    ).toBe(true);
  });

  it('a comment runs route; work only for the tasks route chose', () => {
    expect(evaluateIf(jobIf('route'), comment({}), succeeded)).toBe(true);
    const routed = { route: { result: 'success', outputs: { issue: '4', run: '2', tasks: '["t1"]' } } };
    expect(evaluateIf(jobIf('work'), comment(routed), succeeded)).toBe(true);
    expect(evaluateValue(wf.jobs.work!.strategy!.matrix, comment(routed))).toEqual({ task: ['t1'] });
    expect(evaluateValue(wf.jobs.work!.steps.at(-1)!.with, { ...comment(routed), matrix: { task: 't1' } })).toMatchObject({ issue: '4', run: '2' });
    expect(evaluateIf(jobIf('work'), comment({ route: { result: 'success', outputs: { issue: '', run: '', tasks: '[]' } } }), succeeded)).toBe(false);
    // A route job that failed starts no work, whatever it wrote before failing.
    expect(evaluateIf(jobIf('work'), comment({ route: { result: 'failure', outputs: { tasks: '["t1"]' } } }), failed)).toBe(false);
  });

  it('a cancelled run starts no work', () => {
    const cancelled: StatusFunctions = { success: () => false, failure: () => false, cancelled: () => true };
    expect(evaluateIf(jobIf('work'), dispatch(skippedRoute), cancelled)).toBe(false);
  });

  it('the merge job runs for a check suite on crew’s pull request, never for one on crew/state or a task branch (#15 §7)', () => {
    const suite = (headBranch: string | null, pulls: number[]): ExprContext => ({
      github: {
        event_name: 'check_suite',
        event: { action: 'completed', check_suite: { head_branch: headBranch, pull_requests: pulls.map((number) => ({ number })) } },
      },
      inputs: {},
      needs: {},
    });
    expect(evaluateIf(jobIf('merge'), suite('crew/4/r2/integration', [9]), succeeded)).toBe(true);
    expect(evaluateIf(jobIf('merge'), suite('crew/state', []), succeeded)).toBe(false);
    expect(evaluateIf(jobIf('merge'), suite('crew/4/r2/t1', []), succeeded)).toBe(false);
    expect(evaluateIf(jobIf('merge'), suite('feature', [3]), succeeded)).toBe(false);
    expect(evaluateIf(jobIf('merge'), suite(null, []), succeeded)).toBe(false);
    const review = (head: string): ExprContext => ({
      github: { event_name: 'pull_request_review', event: { pull_request: { head: { ref: head } } } },
      inputs: {},
      needs: {},
    });
    expect(evaluateIf(jobIf('merge'), review('crew/4/r2/integration'), succeeded)).toBe(true);
    expect(evaluateIf(jobIf('merge'), review('feature'), succeeded)).toBe(false);
  });

  it('the cleanup job runs when crew’s own pull request closes, and no other job does; never for a person’s, a fork’s or a /crew remember one (#37)', () => {
    const closed = (head: string, repo: string | null, action = 'closed'): ExprContext => ({
      github: {
        event_name: 'pull_request_target',
        repository: 'acme/widgets',
        event: { action, pull_request: { merged: false, head: { ref: head, repo: repo === null ? null : { full_name: repo } } } },
      },
      inputs: {},
      needs: { route: { result: 'skipped', outputs: {} }, work: { result: 'skipped', outputs: {} }, advance: { result: 'skipped', outputs: {} } },
    });
    expect(evaluateIf(jobIf('cleanup'), closed('crew/4/r2/integration', 'acme/widgets'), succeeded)).toBe(true);
    expect(evaluateIf(jobIf('cleanup'), closed('crew/4/r2/integration', 'acme/widgets', 'opened'), succeeded)).toBe(false);
    expect(evaluateIf(jobIf('cleanup'), closed('feature', 'acme/widgets'), succeeded)).toBe(false);
    expect(evaluateIf(jobIf('cleanup'), closed('crew/4/r2/memory-1', 'acme/widgets'), succeeded)).toBe(false);
    expect(evaluateIf(jobIf('cleanup'), closed('crew/4/r2/integration', 'mallory/widgets'), succeeded)).toBe(false);
    expect(evaluateIf(jobIf('cleanup'), closed('crew/4/r2/integration', null), succeeded)).toBe(false);
    const skipped: StatusFunctions = { success: () => false, failure: () => false, cancelled: () => false };
    for (const job of ['route', 'work', 'advance', 'critic', 'merge'])
      expect(evaluateIf(jobIf(job), closed('crew/4/r2/integration', 'acme/widgets'), job === 'route' || job === 'merge' ? succeeded : skipped), job).toBe(
        false,
      );
    // Any other job would see the same event: only the cleanup job's `if:` admits it.
    expect(evaluateIf(jobIf('cleanup'), comment({}), succeeded)).toBe(false);
  });

  it('a completed CI run (workflow_run): a failure on crew’s pull request branch in this repository starts route (fix_ci and the merge gate), any other ending the merge gate; nothing else starts a job (#19 §2, #39)', () => {
    const ci = (over: Record<string, unknown> = {}, workflow = 'crew'): ExprContext => ({
      github: {
        event_name: 'workflow_run',
        repository: 'acme/widgets',
        workflow,
        event: {
          action: 'completed',
          workflow: { name: 'CI', path: '.github/workflows/ci.yml' },
          workflow_run: {
            name: 'CI',
            conclusion: 'failure',
            head_branch: 'crew/4/r2/integration',
            head_repository: { full_name: 'acme/widgets' },
            pull_requests: [{ number: 9 }],
            ...over,
          },
        },
      },
      inputs: {},
      needs: {},
    });
    const jobs = (c: ExprContext) => ['route', 'merge'].filter((j) => evaluateIf(jobIf(j), c, succeeded));
    expect(jobs(ci())).toEqual(['route']);
    expect(jobs(ci({ conclusion: 'success' }))).toEqual(['merge']);
    // GitHub may list no pull request for the run: route finds crew's pull request itself; the merge gate needs one listed.
    expect(jobs(ci({ pull_requests: [] }))).toEqual(['route']);
    expect(jobs(ci({ conclusion: 'success', pull_requests: [] }))).toEqual([]);
    // Every other ending reaches the merge gate, which says why it does not merge (a cancelled or timed-out check is red).
    for (const conclusion of ['cancelled', 'skipped', 'neutral', 'timed_out', 'action_required', 'startup_failure', null])
      expect(jobs(ci({ conclusion })), String(conclusion)).toEqual(['merge']);
    expect(jobs(ci({ conclusion: 'cancelled', pull_requests: [] }))).toEqual([]);
    // Task branches, the state branch and a person's branch are ordinary CI traffic.
    expect(jobs(ci({ head_branch: 'crew/4/r2/t1', pull_requests: [] }))).toEqual([]);
    expect(jobs(ci({ head_branch: 'crew/4/r2/t1', conclusion: 'success', pull_requests: [] }))).toEqual([]);
    expect(jobs(ci({ head_branch: 'feature', conclusion: 'success' }))).toEqual([]);
    expect(jobs(ci({ head_branch: 'crew/state', pull_requests: [] }))).toEqual([]);
    expect(jobs(ci({ head_branch: 'feature' }))).toEqual([]);
    expect(jobs(ci({ head_branch: null, pull_requests: [] }))).toEqual([]);
    // A fork can name its branch like crew's: its head repository is not this one.
    expect(jobs(ci({ head_repository: { full_name: 'mallory/widgets' }, pull_requests: [] }))).toEqual([]);
    expect(jobs(ci({ head_repository: null }))).toEqual([]);
    // crew's own workflow failing on its pull request never starts fix_ci.
    expect(jobs(ci({ name: 'crew' }))).toEqual([]);
    expect(jobs(ci({ name: 'CI' }, 'CI'))).toEqual([]);
  });
});
