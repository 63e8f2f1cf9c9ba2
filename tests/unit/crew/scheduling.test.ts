import { describe, expect, it } from 'vitest';
import { chainAhead, type Plan, type PlanTask } from '../../../src/domain/plan';
import {
  attemptsToRun,
  blockedTasks,
  candidatesComplete,
  keepsCandidates,
  newTaskRecord,
  readyTasks,
  runningCount,
  type RunView,
  type TaskStatus,
} from '../../../src/domain/run-state';
import type { StateTx } from '../../../src/ports';
import { readView, writePlan, writeRun, writeTask } from '../../../src/state/run-files';
import { claimReadyTasks } from '../../../src/state/transitions';
import { view as fixtureView } from './run-fixtures';
import { renderPlanComment } from '../../../src/render/plan-comment';
import { GITHUB } from '../../../src/domain/surface';
import { attemptsUsed } from '../../../src/domain/attempts';

const LINKS = {
  comment: (issue: number, id: number) => `https://github.test/acme/w/issues/${issue}#issuecomment-${id}`,
  branch: (b: string) => `https://github.test/acme/w/tree/${b}`,
  run: 'https://github.test/acme/w/actions/runs/1',
  stateFile: (p: string) => `https://github.test/acme/w/blob/crew/state/${p}`,
};

const task = (id: string, ...dependsOn: string[]): PlanTask => ({
  id,
  title: id,
  description: 'd',
  persona: 'coder',
  tier: 'haiku',
  dependsOn,
  files: [],
  criteria: [],
});

/** A run whose plan is `tasks`, each with the status given (pending when not named). */
function runOf(tasks: PlanTask[], statuses: Record<string, TaskStatus> = {}): RunView {
  const base = fixtureView([]);
  const plan: Plan = { ...base.plan!, tasks };
  return {
    run: base.run,
    plan,
    tasks: new Map(tasks.map((t) => [t.id, { ...newTaskRecord(t.id, `crew/12/r2/${t.id}`), status: statuses[t.id] ?? 'pending' }])),
  };
}

/** The run's files in memory, written the way a state update writes them. */
function memoryTx(v: RunView): StateTx & { files: Map<string, string> } {
  const files = new Map<string, string>();
  const tx = {
    files,
    read: (p: string) => files.get(p),
    write: (p: string, c: string) => void files.set(p, c),
    remove: (p: string) => void files.delete(p),
    list: (prefix: string) => [...files.keys()].filter((k) => k.startsWith(prefix)).sort(),
  };
  writeRun(tx, v.run, '2026-11-21T00:00:00Z');
  writePlan(tx, v.run.issue, v.run.run, v.plan!, 'plan', () => 'task');
  for (const t of v.tasks.values()) writeTask(tx, v.run.issue, v.run.run, t);
  return tx;
}

const claim = { runId: '42', nonce: 'n1', at: '2026-11-21T00:00:00Z' };

describe('readyTasks: what may start now', () => {
  it('a task is ready only when every task it depends on has succeeded (or was accepted), not when they merely ended', () => {
    const tasks = [task('a'), task('b'), task('c', 'a', 'b')];
    expect(readyTasks(runOf(tasks))).toEqual(['a', 'b']);
    expect(readyTasks(runOf(tasks, { a: 'success', b: 'running' }))).toEqual([]);
    for (const ended of ['failure', 'partial', 'timeout', 'blocked'] as const) expect(readyTasks(runOf(tasks, { a: 'success', b: ended }))).toEqual([]);
    expect(readyTasks(runOf(tasks, { a: 'success', b: 'success' }))).toEqual(['c']);
    const accepted = runOf(tasks, { a: 'success', b: 'partial' });
    accepted.tasks.set('b', { ...accepted.tasks.get('b')!, accepted: true });
    expect(readyTasks(accepted)).toEqual(['c']);
  });

  it('does not wait for the rest of a wave: a dependent is ready while an unrelated task of its dependency’s wave still runs', () => {
    const tasks = [task('long'), task('short'), task('after-short', 'short')];
    expect(readyTasks(runOf(tasks, { long: 'running', short: 'success' }))).toEqual(['after-short']);
  });

  it('puts the heads of the longest chains of dependents first, and keeps plan order between equals', () => {
    // x → y → z is the longest chain, though x is listed last; p and q head nothing.
    const tasks = [task('p'), task('q'), task('m'), task('n', 'm'), task('x'), task('y', 'x'), task('z', 'y')];
    expect(Object.fromEntries(chainAhead({ tasks }))).toEqual({ p: 1, q: 1, m: 2, n: 1, x: 3, y: 2, z: 1 });
    expect(readyTasks(runOf(tasks))).toEqual(['x', 'm', 'p', 'q']);
  });
});

describe('blockedTasks: what can never run', () => {
  it('is every pending task with a dependency that failed for good; a dependency still open blocks nothing yet', () => {
    const tasks = [task('a'), task('b', 'a'), task('c')];
    expect(blockedTasks(runOf(tasks, { a: 'failure' }))).toEqual(['b']);
    expect(blockedTasks(runOf(tasks, { a: 'retrying' }))).toEqual([]);
    const replanning = runOf(tasks, { a: 'failure' });
    replanning.tasks.set('a', { ...replanning.tasks.get('a')!, pendingReplan: true });
    expect(blockedTasks(replanning)).toEqual([]);
  });
});

describe('claimReadyTasks inside a state update', () => {
  it('claims ready tasks up to max_parallel running at once, longest chain first, and marks them running with the claim', () => {
    // State files hold crew's own task ids (t1, t2, …): t3 → t4 is the longest chain; t5 runs already.
    const tasks = [task('t1'), task('t2'), task('t3'), task('t4', 't3'), task('t5')];
    const v = runOf(tasks, { t5: 'running' });
    const tx = memoryTx(v);
    expect(claimReadyTasks(tx, 12, 2, 3, claim, '2026-11-21T00:01:00Z')).toEqual(['t3', 't1']);
    const after = readView(tx, 12, 2)!;
    expect(after.tasks.get('t3')).toMatchObject({ status: 'running', attempts: 1, claim, startedAt: '2026-11-21T00:01:00Z' });
    expect(after.tasks.get('t2')!.status).toBe('pending');
    // The cap counts what already runs: with three running, nothing more starts.
    expect(claimReadyTasks(tx, 12, 2, 3, claim, '2026-11-21T00:02:00Z')).toEqual([]);
  });

  it('claims a task with every parallel attempt it runs (#50), each leg counting against max_parallel', () => {
    const v = runOf([task('t1'), task('t2'), task('t3')]);
    const tx = memoryTx({ ...v, run: { ...v.run, attempts: { parallel: 3, max: 3 } } });
    expect(claimReadyTasks(tx, 12, 2, 7, claim)).toEqual(['t1', 't2']);
    const after = readView(tx, 12, 2)!;
    expect(after.tasks.get('t1')!.parallel).toBe(3);
    expect(runningCount(after)).toBe(6);
    // One slot left: t3 needs three, so it waits.
    expect(claimReadyTasks(tx, 12, 2, 7, claim)).toEqual([]);
  });

  it('never claims a task twice, and never claims a task whose dependency did not succeed: it is marked blocked instead', () => {
    const tasks = [task('t1'), task('t2', 't1'), task('t3', 't2'), task('t4')];
    const tx = memoryTx(runOf(tasks, { t1: 'failure' }));
    expect(claimReadyTasks(tx, 12, 2, 10, claim, '2026-11-21T00:01:00Z')).toEqual(['t4']);
    expect(claimReadyTasks(tx, 12, 2, 10, claim, '2026-11-21T00:01:00Z')).toEqual([]);
    const after = readView(tx, 12, 2)!;
    expect(after.tasks.get('t2')).toMatchObject({ status: 'blocked', error: 'a task it depends on did not succeed' });
    // t3 waits on t2, which is blocked, so t3 is blocked the next time anything is claimed.
    claimReadyTasks(tx, 12, 2, 10, claim, '2026-11-21T00:02:00Z');
    expect(readView(tx, 12, 2)!.tasks.get('t3')!.status).toBe('blocked');
    expect([...readView(tx, 12, 2)!.tasks.values()].filter((t) => t.status === 'running').map((t) => t.id)).toEqual(['t4']);
  });

  it('says when max_parallel runs fewer parallel attempts than asked for (#50): the record keeps the number asked, the plan comment says it', () => {
    const v = runOf([task('t1'), task('t2')]);
    const tx = memoryTx({ ...v, run: { ...v.run, attempts: { parallel: 3, max: 3 } } });
    expect(claimReadyTasks(tx, 12, 2, 2, claim)).toEqual(['t1']);
    const after = readView(tx, 12, 2)!;
    expect(after.tasks.get('t1')).toMatchObject({ parallel: 2, attemptsAsked: 3 });
    const body = renderPlanComment(after, LINKS, GITHUB);
    expect(body).toContain('t1 runs 2 parallel attempts of the 3 asked for: each is a job of its own, and `max_parallel` (2) bounds the jobs at once.');
    expect(body).not.toContain('t2 runs');
    // Once the attempts ran and the task settled on one, the line says so in the past.
    const t1 = after.tasks.get('t1')!;
    const standing = (n: number) => ({ n, branch: `b${n}`, headSha: null, qualified: n === 1, fixed: 0, failing: [], fell: [], changedLines: 1 });
    const selection = { task: 't1', chosen: 1, candidates: [standing(1), standing(2)], reason: 'r' };
    const settled = renderPlanComment(
      { ...after, tasks: new Map([...after.tasks, ['t1', { ...t1, status: 'success', parallel: undefined, selection }]]) },
      LINKS,
      GITHUB,
    );
    expect(settled).toContain('t1 ran 2 parallel attempts of the 3 asked for: each was a job of its own, and `max_parallel` (2) bounded the jobs at once.');
    expect(settled).not.toContain('t1 runs');
    // Nothing cut, nothing said.
    const roomy = memoryTx({ ...v, run: { ...v.run, attempts: { parallel: 3, max: 3 } } });
    claimReadyTasks(roomy, 12, 2, 6, claim);
    expect(readView(roomy, 12, 2)!.tasks.get('t1')!.attemptsAsked).toBeUndefined();
    expect(renderPlanComment(readView(roomy, 12, 2)!, LINKS, GITHUB)).not.toContain('asked for');
  });

  const cand = (n: number) => ({
    n,
    branch: `crew/12/r2/t1${n === 1 ? '' : `-a${n}`}`,
    worker: 'success' as const,
    headSha: 'b'.repeat(40),
    summary: 's',
    changedFiles: [],
    attempt: 1,
  });

  it('claims a task whose parallel attempts are all recorded but not judged again with its candidates, to judge them in one leg', () => {
    const v = runOf([task('t1'), task('t2')]);
    // Interrupted while judging: back to pending with every candidate and its claim's number (advance's cancelled path, /crew resume's dead claims).
    v.tasks.set('t1', { ...v.tasks.get('t1')!, attempts: 1, parallel: 3, candidates: [cand(1), cand(2), cand(3)] });
    expect(candidatesComplete(v.tasks.get('t1')!)).toBe(true);
    // Settling clears `parallel`: a settled task is never waiting to be judged, and keeps nothing for a new claim.
    expect(candidatesComplete({ ...v.tasks.get('t1')!, parallel: undefined })).toBe(false);
    expect(keepsCandidates({ ...v.tasks.get('t1')!, parallel: undefined })).toBe(false);
    expect(attemptsToRun(v.tasks.get('t1')!)).toEqual([1]);
    const tx = memoryTx({ ...v, run: { ...v.run, attempts: { parallel: 3, max: 3 } } });
    // One slot judges t1; t2, fresh, needs three legs.
    expect(claimReadyTasks(tx, 12, 2, 3, claim)).toEqual(['t1']);
    const after = readView(tx, 12, 2)!;
    expect(after.tasks.get('t1')).toMatchObject({ status: 'running', attempts: 1, parallel: 3, claim });
    expect(after.tasks.get('t1')!.candidates!.map((c) => c.n)).toEqual([1, 2, 3]);
    expect(runningCount(after)).toBe(1);
    expect(claimReadyTasks(memoryTx({ ...v, run: { ...v.run, attempts: { parallel: 3, max: 3 } } }), 12, 2, 10, claim)).toEqual(['t1', 't2']);
  });

  it('re-judging after `/crew retry` counts no attempt more: no worker ran for it', () => {
    const v = runOf([task('t1')]);
    // The judging failed for good (advance gave up restarting it); `/crew retry t1` set it pending as it was.
    v.tasks.set('t1', { ...v.tasks.get('t1')!, attempts: 1, restarts: 2, parallel: 3, candidates: [cand(1), cand(2), cand(3)] });
    expect(attemptsUsed(v.tasks.get('t1')!)).toBe(3);
    const tx = memoryTx({ ...v, run: { ...v.run, attempts: { parallel: 3, max: 3 } } });
    expect(claimReadyTasks(tx, 12, 2, 3, claim)).toEqual(['t1']);
    const t1 = readView(tx, 12, 2)!.tasks.get('t1')!;
    expect(t1).toMatchObject({ status: 'running', attempts: 1 });
    expect(attemptsUsed(t1)).toBe(3);
  });

  it('a claim after a cancel keeps the attempts recorded (#50): only the missing legs run, each taking a slot', () => {
    const v = runOf([task('t1'), task('t2')]);
    v.tasks.set('t1', { ...v.tasks.get('t1')!, attempts: 1, parallel: 3, candidates: [cand(2)] });
    expect(attemptsToRun(v.tasks.get('t1')!)).toEqual([1, 3]);
    // Two slots: t1's two missing legs take them, t2 (three legs) waits.
    const tx = memoryTx({ ...v, run: { ...v.run, attempts: { parallel: 3, max: 3 } } });
    expect(claimReadyTasks(tx, 12, 2, 2, claim)).toEqual(['t1']);
    const after = readView(tx, 12, 2)!;
    expect(after.tasks.get('t1')).toMatchObject({ status: 'running', attempts: 1, parallel: 3, claim });
    expect(after.tasks.get('t1')!.candidates!.map((c) => c.n)).toEqual([2]);
    expect(runningCount(after)).toBe(2);
    // A task with nothing recorded starts every leg afresh, under a new number.
    const fresh = memoryTx({ ...v, run: { ...v.run, attempts: { parallel: 3, max: 3 } } });
    claimReadyTasks(fresh, 12, 2, 10, claim);
    expect(readView(fresh, 12, 2)!.tasks.get('t2')).toMatchObject({ attempts: 1, parallel: 3 });
    expect(readView(fresh, 12, 2)!.tasks.get('t2')!.candidates).toBeUndefined();
  });

  it('claims nothing outside EXECUTING', () => {
    const v = runOf([task('t1')]);
    const tx = memoryTx({ ...v, run: { ...v.run, phase: 'ESCALATING' } });
    expect(claimReadyTasks(tx, 12, 2, 10, claim, '2026-11-21T00:01:00Z')).toEqual([]);
  });
});
