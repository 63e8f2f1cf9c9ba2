import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitStateStore } from '../../../src/adapters/git/state-store';
import type { Clock, Log } from '../../../src/ports';
import { paths, readRun, readView, refreshExecutionLog, StateFormatError, writeRun } from '../../../src/state/run-files';
import { plan, view } from './run-fixtures';
import { FRESH_MEMORY } from '../../../src/domain/leader-policy';
import { NOTHING_POSTED } from '../../../src/domain/caps';
import { newTaskRecord } from '../../../src/domain/run-state';
import { fakeGitHubForTest } from '../../support/github/for-test';

const good = view(['running', 'pending', 'success']);
const files = (patch: Record<string, string> = {}) => {
  const all: Record<string, string> = {
    [paths.run(12, 2)]: JSON.stringify(good.run),
    [paths.planJson(12, 2)]: JSON.stringify(plan),
    ...Object.fromEntries([...good.tasks.values()].map((t) => [paths.taskJson(12, 2, t.id), JSON.stringify(t)])),
    ...patch,
  };
  return {
    read: (p: string) => all[p],
    list: (prefix: string) =>
      Object.keys(all)
        .filter((k) => k.startsWith(prefix))
        .sort(),
  };
};
const refusal = (fn: () => unknown): StateFormatError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof StateFormatError) return e;
    throw e;
  }
  throw new Error('expected a StateFormatError');
};

describe('reading the state branch: a damaged file is refused with the file and the field named', () => {
  it('reads what crew wrote', () => {
    const v = readView(files(), 12, 2)!;
    expect(v.run).toMatchObject({ phase: 'EXECUTING', version: 7 });
    expect([...v.tasks.keys()]).toEqual(['t1', 't2', 't3']);
  });

  it('names the field and the bad value of run.json, and says what to do', () => {
    const e = refusal(() => readRun(files({ [paths.run(12, 2)]: JSON.stringify({ ...good.run, phase: 'EXECUTNG' }) }), 12, 2));
    expect(e.message).toMatch(/^crew\/state: issue-12\/run-2\/run\.json is not valid: field `phase` expected one of .*"EXECUTING".* \(got "EXECUTNG"\)\.$/);
    expect(e.next).toContain('git log -p origin/crew/state -- issue-12/run-2/run.json');
    expect(e.next).toContain('crew has not written over it');
    const nested = refusal(() => readRun(files({ [paths.run(12, 2)]: JSON.stringify({ ...good.run, base: { branch: 'main', sha: 42 } }) }), 12, 2));
    expect(nested.field).toBe('base.sha');
  });

  it('says where JSON that does not parse breaks, without quoting the file', () => {
    const e = refusal(() => readRun(files({ [paths.run(12, 2)]: '{\n  "schema": 1,\n  "phase": \n}' }), 12, 2));
    expect(e.field).toBeNull();
    expect(e.message).toMatch(/^crew\/state: issue-12\/run-2\/run\.json is not valid: it is not valid JSON \(.+\)\.$/);
    expect(e.message).not.toContain('"schema"');
  });

  it('checks task files and the plan too, including ids that end up in refs and paths', () => {
    expect(
      refusal(() => readView(files({ [paths.taskJson(12, 2, 't1')]: JSON.stringify({ ...good.tasks.get('t1'), branch: 'main' }) }), 12, 2)).message,
    ).toContain('issue-12/run-2/tasks/task_t1.json is not valid: field `branch` expected a crew/ branch name (got "main")');
    expect(refusal(() => readView(files({ [paths.taskJson(12, 2, 't3')]: JSON.stringify({ ...good.tasks.get('t3'), attempts: -1 }) }), 12, 2)).field).toBe(
      'attempts',
    );
    const badPlan = { ...plan, tasks: [{ ...plan.tasks[0], id: '--upload-pack=x' }] };
    expect(refusal(() => readView(files({ [paths.planJson(12, 2)]: JSON.stringify(badPlan) }), 12, 2)).field).toBe('tasks.0.id');
  });

  it('a run written before later fields reads with the defaults its schema declares, and fields a newer crew added are kept when written back', () => {
    const later = ['mode', 'planVersion', 'waiting', 'leader', 'review', 'criteriaDigest', 'merge', 'retro', 'rateLimited', 'posted', 'approvedBy'];
    const older = Object.fromEntries(Object.entries(good.run).filter(([k]) => !later.includes(k))) as typeof good.run;
    const stored = { ...older, base: { ...older.base, mirror: 'elsewhere' }, futureField: { kept: true } };
    const rec = readRun(files({ [paths.run(12, 2)]: JSON.stringify(stored) }), 12, 2)!;
    expect(rec).toMatchObject({
      mode: 'run',
      planVersion: 1,
      waiting: null,
      approvedBy: null,
      leader: FRESH_MEMORY,
      review: null,
      criteriaDigest: null,
      merge: null,
      retro: null,
      rateLimited: [],
      posted: NOTHING_POSTED,
    });
    const written = new Map<string, string>();
    const tx = { ...files({ [paths.run(12, 2)]: JSON.stringify(stored) }), write: (p: string, c: string) => void written.set(p, c), remove: () => undefined };
    writeRun(tx, rec, '2026-11-21T00:05:00Z');
    expect(JSON.parse(written.get(paths.run(12, 2))!)).toMatchObject({ futureField: { kept: true }, base: { mirror: 'elsewhere' }, mode: 'run', version: 8 });
  });

  it('a task file with only what a new task has reads as a new task record, and the defaults are not shared between reads', () => {
    const bare = { id: 't1', status: 'pending', attempts: 0, branch: 'crew/12/r2/t1' };
    const read = () => readView(files({ [paths.taskJson(12, 2, 't1')]: JSON.stringify(bare) }), 12, 2)!.tasks.get('t1')!;
    const first = read();
    expect(first).toEqual(newTaskRecord('t1', 'crew/12/r2/t1'));
    first.advice.push('changed in place');
    expect(read().advice).toEqual([]);
  });

  it('checks the parts of the record too: a question about a task names the task', () => {
    const waiting = { kind: 'decision', commentId: 5, topic: 'scope', question: 'which?' };
    const e = refusal(() => readRun(files({ [paths.run(12, 2)]: JSON.stringify({ ...good.run, phase: 'ESCALATING', waiting }) }), 12, 2));
    expect(e.field).toBe('waiting.task');
    const review = { iteration: 1, verdict: 'MAYBE', headSha: null, met: {}, rerun: [] };
    expect(refusal(() => readRun(files({ [paths.run(12, 2)]: JSON.stringify({ ...good.run, review }) }), 12, 2)).field).toBe('review.verdict');
  });

  it('a write that reads a damaged file writes nothing: the branch keeps the damaged file for a person to repair', async () => {
    const { gh, dir } = await fakeGitHubForTest({ prefix: 'state-format-' });
    const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
    const clock: Clock = { now: () => new Date(), sleep: async () => undefined };
    const store = new GitStateStore(join(dir, 'state'), gh.cloneUrl, gh.actionsToken({ contents: 'write' }), clock, log);
    const damaged = JSON.stringify({ ...good.run, phase: 'EXECUTNG' });
    await store.update('issue-12/', 'a person edits run.json by hand', (tx) => tx.write(paths.run(12, 2), damaged));
    const tip = await gh.repo.branchSha('crew/state');
    await expect(store.update('issue-12/', 'regenerate the log', (tx) => refreshExecutionLog(tx, 12, 2))).rejects.toBeInstanceOf(StateFormatError);
    await expect(
      store.update('issue-12/', 'bump', (tx) => {
        const rec = readRun(tx, 12, 2)!;
        writeRun(tx, rec, 'now');
      }),
    ).rejects.toThrow(/field `phase`/);
    expect(await gh.repo.branchSha('crew/state')).toBe(tip);
    expect(await gh.repo.readFile('refs/heads/crew/state', paths.run(12, 2))).toBe(damaged);
  });
});
