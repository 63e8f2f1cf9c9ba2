import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { ScenarioHooks, ScenarioResult } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play } from './helpers';

const taskRecord = async (gh: { repo: { readFile(ref: string, path: string): Promise<string | undefined> } }, id: string) =>
  JSON.parse((await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-1/tasks/task_${id}.json`)) ?? 'null');

async function playWith(name: string, collect: NonNullable<ScenarioHooks['beforeClose']>): Promise<ScenarioResult> {
  const r = await play(name, { hooks: { beforeClose: collect } });
  expectFaithful(r);
  return r;
}

const decisionComment = (r: ScenarioResult) => crewComments(r).find((c) => c.body.startsWith('**crew needs a decision**'));

describe('the leader’s escalation table, one scenario per row (through dist/)', () => {
  it('the same task failed 3 times → planner: the task is re-decomposed and its replacement runs', async () => {
    let t1: any;
    const r = await playWith('escalate-three-failures', async ({ gh }) => void (t1 = await taskRecord(gh, 't1')));
    expect(t1).toMatchObject({ attempts: 3, status: 'failure', replacedBy: ['t2'] });
    expect(r.model.byRole).toMatchObject({ worker: 4, decomposer: 1 });
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
    expect(decisionComment(r)).toBeUndefined();
  });

  it('impediment: scope → user: a decision comment with a nonce and the choices; /crew accept takes the work as it is', async () => {
    let t1: any;
    const r = await playWith('escalate-scope', async ({ gh }) => void (t1 = await taskRecord(gh, 't1')));
    const asked = decisionComment(r)!;
    expect(asked.body).toContain('Task t1 needs to go beyond its agreed scope to finish. The worker asks: also update the CLI docs');
    expect(asked.body).toMatch(/<!-- crew:decision issue=1 run=1 task=t1 nonce=[0-9a-f]{12} -->/);
    for (const choice of ['`/crew retry t1`', '`/crew accept`', '`/crew abort`', '`/crew answer <text>`']) expect(asked.body).toContain(choice);
    expect(t1).toMatchObject({ status: 'partial', accepted: true });
    expect(r.issue.labels).toEqual([]);
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
  });

  it('impediment: ambiguity → user: a plain reply answers it, and the task runs again with the answer', async () => {
    let second = '';
    const r = await playWith(
      'escalate-ambiguity',
      async ({ anthropic }) => void (second = JSON.stringify(anthropic.requests.filter((q) => q.role === 'worker')[1]?.body.messages[0])),
    );
    expect(decisionComment(r)!.body).toContain('Task t1 cannot go on without a clarification. The worker asks: which format should NOTES.md use?');
    expect(second).toContain('Attempt: 2');
    expect(second).toContain('@maintainer answered: Use a bulleted list with one line per release.');
    expect(r.pulls).toHaveLength(1);
  });

  it('impediment: technical → advisor: retried at once with a stronger model and the failure notes', async () => {
    let models: string[] = [];
    let second = '';
    const r = await playWith('escalate-technical', async ({ anthropic }) => {
      const worker = anthropic.requests.filter((q) => q.role === 'worker');
      models = worker.map((q) => String(q.body.model));
      second = JSON.stringify(worker[1]?.body.messages[0]);
    });
    expect(models).toEqual(['claude-haiku-5-5', 'claude-sonnet-5-5']);
    expect(second).toContain('A technical problem stopped the last attempt');
    expect(decisionComment(r)).toBeUndefined();
    expect(crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!.body).toContain('| haiku → sonnet |');
    expect(r.pulls).toHaveLength(1);
  });

  it('impediment: dependency → planner: dependencies re-evaluated, the task replaced', async () => {
    let t1: any;
    let replan = '';
    const r = await playWith('escalate-dependency', async ({ gh, anthropic }) => {
      t1 = await taskRecord(gh, 't1');
      replan = JSON.stringify(anthropic.requests.find((q) => q.role === 'decomposer')?.body.messages[0]);
    });
    expect(t1).toMatchObject({ replacedBy: ['t2'] });
    expect(replan).toContain('is blocked by something another task should provide. The worker asks: needs the release template first');
    expect(r.pulls).toHaveLength(1);
  });

  it('conflicting requirements → user: asked which wins; /crew retry t1 runs it again', async () => {
    const r = await playWith('escalate-conflict', async () => undefined);
    expect(decisionComment(r)!.body).toContain('Task t1 found requirements that conflict: keep it short vs. list every release. Which one takes priority?');
    expect(r.pulls).toHaveLength(1);
  });

  it('3 tasks in a row failed → user + planner: /crew revise re-plans the failed tasks with the guidance', async () => {
    let replan = '';
    const r = await playWith(
      'escalate-plan-review',
      async ({ anthropic }) => void (replan = JSON.stringify(anthropic.requests.filter((q) => q.role === 'decomposer')[1]?.body.messages[0])),
    );
    expect(decisionComment(r)!.body).toContain('3 tasks in a row have failed');
    expect(decisionComment(r)!.body).toContain('`/crew revise <what to change>`');
    expect(replan).toContain('A maintainer (@maintainer) says: Put all three notes in one file, NOTES.md.');
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
  });

  it('escalation limits come from crew.yml: at the advisor’s limit (1) the failure stands, the planner’s (0) allows no re-plan, and the failure comment names each limit and its key', async () => {
    let t1: any;
    let models: string[] = [];
    const r = await playWith('escalation-limit', async ({ gh, anthropic }) => {
      t1 = await taskRecord(gh, 't1');
      models = anthropic.requests.filter((q) => q.role === 'worker').map((q) => String(q.body.model));
    });
    // One advisor retry on a stronger tier, then no more: the default limit (5) would have gone on.
    expect(models).toEqual(['claude-haiku-5-5', 'claude-sonnet-5-5']);
    expect(r.model.byRole.decomposer ?? 0).toBe(0);
    expect(t1).toMatchObject({ status: 'failure', attempts: 2, tierOverride: 'sonnet' });
    const stop = crewComments(r).find((c) => c.body.startsWith('**crew stopped** during the tasks.'))!;
    expect(stop.body).toContain(
      '- t1 (failure: the coder task changed no files; crew stopped escalating it: the escalation limit per run is reached for the advisor (`escalation_limits.advisor: 1`); raise it in .github/crew.yml to let crew escalate further (matching: impediment: technical))',
    );
    expect(stop.body).toContain(
      'crew did not re-plan them: the escalation limit per run is reached for the planner (`escalation_limits.planner: 0`); raise it in .github/crew.yml to let crew escalate further.',
    );
    expect(decisionComment(r)).toBeUndefined();
    expect(crewComments(r).find((c) => c.body.includes('<!-- crew:report'))!.body).toContain('The run failed: 1 task did not succeed (t1)');
    expect(r.pulls).toEqual([]);
  });

  it('the loop detector stops identical failures; half the plan failed twice, so crew goes on to the report (status failure, blocked tasks, a full retrospective)', async () => {
    const got = { summary: '', report: '', log: '', models: [] as string[], retro: '' };
    const r = await playWith('loop-detector', async ({ gh, anthropic }) => {
      const read = async (p: string) => (await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-1/${p}`)) ?? '';
      got.summary = await read('report_summary.md');
      got.report = await read('report.md');
      got.log = await read('execution_log.yaml');
      got.models = anthropic.requests.filter((q) => q.role === 'worker').map((q) => `${q.task}:${String(q.body.model)}`);
      got.retro = JSON.stringify(anthropic.requests.find((q) => q.role === 'retrospector')?.body.messages[0]);
    });
    // t1: the advisor twice (stronger each time), then the loop detector; its replacement t3 trips it at once.
    expect(got.models).toEqual(['t1:claude-haiku-5-5', 't1:claude-sonnet-5-5', 't1:claude-opus-5-5', 't3:claude-haiku-5-5']);
    expect(r.model.byRole.decomposer).toBe(2); // the plan, and the one re-plan of the failed half
    const stop = crewComments(r).find((c) => c.body.startsWith('**crew stopped** during the tasks.'))!;
    expect(stop.body).toContain(
      '- t3 (failure: the worker reported failure: The release tooling is missing from the repository.; crew stopped escalating it: the same failure happened 4 times',
    );
    expect(stop.body).toContain('- t4 (blocked: a task it depends on did not succeed)');
    // The second time, crew goes on to the report: on the issue, in report.md and report_summary.md, then a full retrospective.
    const report = crewComments(r).find((c) => c.body.includes('<!-- crew:report'))!;
    expect(report.body).toContain('> [!CAUTION]\n> The run failed: 2 tasks did not succeed (t3, t4), so crew opened no pull request.');
    expect(got.report).toContain('## crew report · issue #1 · run 1');
    expect(got.summary).toMatch(/^---\n[\s\S]*status: failure\n[\s\S]*failed_tasks: \[t3, t4\]\n[\s\S]*task_count: 2\n/);
    expect(got.retro).toContain('Mode: full');
    expect(crewComments(r).some((c) => c.body.includes('<!-- crew:retro issue=1 run=1 -->\n## crew retrospective · run 1 (full)'))).toBe(true);
    // execution_log.yaml: the seed's fields, the phases, and `blocked` for the tasks whose dependency failed.
    const log = YAML.parse(got.log);
    expect(log).toMatchObject({ cmd_id: 'issue-1/run-1', status: 'failure', finished: expect.any(String) });
    expect(log.tasks.map((t: { role: string; task: string | null; status: string }) => `${t.role}:${t.task ?? '-'}:${t.status}`)).toEqual([
      'decomposer:-:success',
      'worker_writer:t1:failure',
      'worker_writer:t2:failure',
      'worker_writer:t3:failure',
      'worker_writer:t4:blocked',
      'aggregator:-:success',
      'retrospector:-:success',
    ]);
    expect(log.tasks[1]).toMatchObject({ task: 't1', model: 'opus', retries: 2, replaced_by: ['t3', 't4'] });
    expect(r.pulls).toEqual([]);
  });
});
