import { describe, expect, it } from 'vitest';
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
    const r = await playWith('escalate-ambiguity', async ({ anthropic }) => void (second = JSON.stringify(anthropic.requests.filter((q) => q.role === 'worker')[1]?.body.messages[0])));
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
    const r = await playWith('escalate-plan-review', async ({ anthropic }) => void (replan = JSON.stringify(anthropic.requests.filter((q) => q.role === 'decomposer')[1]?.body.messages[0])));
    expect(decisionComment(r)!.body).toContain('3 tasks in a row have failed');
    expect(decisionComment(r)!.body).toContain('`/crew revise <what to change>`');
    expect(replan).toContain('A maintainer (@maintainer) says: Put all three notes in one file, NOTES.md.');
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
  });
});
