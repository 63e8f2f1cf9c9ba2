import { describe, expect, it } from 'vitest';
import { checkPlan, criticalPath, findCycle, MAX_TASKS, topologicalOrder, waves } from '../../../src/domain/plan';

const task = (id: string, deps: string[] = [], extra: Record<string, unknown> = {}) => ({
  id,
  title: `Task ${id}`,
  description: `Do ${id}.`,
  persona: 'coder',
  model: 'sonnet',
  depends_on: deps,
  files: [],
  ...extra,
});
const proposal = (tasks: unknown[]) => ({ summary: 'S', tasks });

describe('checkPlan', () => {
  it('maps the model’s ids to t1, t2, … in order, dependencies included', () => {
    const r = checkPlan(proposal([task('impl'), task('tests', ['impl']), task('docs')]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan.tasks.map((t) => [t.id, t.dependsOn])).toEqual([
      ['t1', []],
      ['t2', ['t1']],
      ['t3', []],
    ]);
    expect(r.plan.tasks[0]).toMatchObject({ persona: 'coder', tier: 'sonnet', title: 'Task impl', criteria: [] });
  });

  it('names the field for schema errors', () => {
    const r = checkPlan(proposal([task('a', [], { persona: 'wizard' })]));
    expect(r).toEqual({ ok: false, errors: [expect.stringMatching(/^tasks\.0\.persona: /)] });
    expect(checkPlan({ summary: '', tasks: [task('a')] })).toEqual({ ok: false, errors: [expect.stringMatching(/^summary: /)] });
    expect(checkPlan('not a plan')).toMatchObject({ ok: false });
  });

  it('rejects duplicate ids, unknown and self dependencies', () => {
    expect(checkPlan(proposal([task('a'), task('a')]))).toEqual({ ok: false, errors: ["tasks.1.id: 'a' is used by more than one task"] });
    expect(checkPlan(proposal([task('a', ['zzz'])]))).toEqual({ ok: false, errors: ["tasks.0.depends_on: 'zzz' is not the id of any task"] });
    expect(checkPlan(proposal([task('a', ['a'])]))).toEqual({ ok: false, errors: ["tasks.0.depends_on: task 'a' depends on itself"] });
  });

  it('names the cycle in the model’s own ids', () => {
    const r = checkPlan(proposal([task('x', ['z']), task('y', ['x']), task('z', ['y']), task('w')]));
    expect(r).toEqual({ ok: false, errors: ['depends_on: the tasks form a cycle: x → z → y → x'] });
  });

  it('bounds the number of tasks', () => {
    expect(checkPlan(proposal([]))).toMatchObject({ ok: false });
    expect(checkPlan(proposal(Array.from({ length: MAX_TASKS }, (_, i) => task(`k${i}`))))).toMatchObject({ ok: true });
    expect(checkPlan(proposal(Array.from({ length: MAX_TASKS + 1 }, (_, i) => task(`k${i}`))))).toMatchObject({ ok: false });
  });
});

describe('waves, critical path and merge order', () => {
  const plan = {
    tasks: [
      { id: 't1', dependsOn: [] },
      { id: 't2', dependsOn: ['t1'] },
      { id: 't3', dependsOn: [] },
      { id: 't4', dependsOn: ['t2', 't3'] },
      { id: 't5', dependsOn: ['t3'] },
    ],
  } as never;

  it('groups tasks into the seed’s waves', () => {
    expect(waves(plan)).toEqual([['t1', 't3'], ['t2', 't5'], ['t4']]);
    expect(topologicalOrder(plan)).toEqual(['t1', 't3', 't2', 't5', 't4']);
  });

  it('finds the longest chain, by count or by duration', () => {
    expect(criticalPath(plan)).toEqual({ length: 3, path: ['t1', 't2', 't4'] });
    const d: Record<string, number> = { t1: 1, t2: 1, t3: 5, t4: 1, t5: 10 };
    expect(criticalPath(plan, (id) => d[id]!)).toEqual({ length: 15, path: ['t3', 't5'] });
  });

  it('findCycle returns undefined for a DAG', () => {
    expect(findCycle((plan as { tasks: never[] }).tasks)).toBeUndefined();
  });
});
