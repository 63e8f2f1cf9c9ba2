import { describe, expect, it } from 'vitest';
import type { StateStore, StateTx } from '../../../src/ports';
import { paths, planOf, StateFormatError, taskOf, writePlan, writeRun, writeTask } from '../../../src/state/run-files';
import { CrewError, dispatchTasks, taskClaim, updateRun, updateRunFolder, updateView, type StepContext } from '../../../src/steps/context';
import { MemoryState } from './memory-state';
import { view } from './run-fixtures';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';

/**
 * crew/state in memory, with the compare-and-swap's retry made visible: `conflictOnce` lets
 * another job write between a mutation's first run and its retry, as a rejected push does.
 */
class RacingState extends MemoryState {
  readonly messages: string[] = [];
  conflictOnce?: (tx: StateTx) => void;
  override async update<T>(prefix: string, message: string, mutate: (tx: StateTx) => T) {
    this.messages.push(message);
    const other = this.conflictOnce;
    if (other) {
      // The first attempt works on a copy that is thrown away; the other job's write lands; the mutation runs again.
      const scratch = new RacingState();
      for (const [k, v] of this.files) scratch.files.set(k, v);
      mutate(scratch.tx());
      this.conflictOnce = undefined;
      other(this.tx());
    }
    return super.update(prefix, message, mutate);
  }
}

const fixture = view(['running', 'pending', 'success']);
function seeded(): RacingState {
  const state = new RacingState();
  const tx = state.tx();
  writeRun(tx, fixture.run, fixture.run.updatedAt);
  writePlan(tx, 12, 2, fixture.plan!, '', () => '');
  for (const t of fixture.tasks.values()) writeTask(tx, 12, 2, t);
  return state;
}
const dispatched: Array<Record<string, string>> = [];
const ctxWith = (state: StateStore) =>
  withPlanCommentSync({
    state,
    runId: '777',
    clock: { now: () => new Date('2026-11-21T00:05:00.123Z') },
    forge: { dispatch: async (inputs: Record<string, string>) => void dispatched.push(inputs) },
  } as unknown as StepContext);

describe("a step's write of its run", () => {
  it('hands the mutation the run as each attempt of the compare-and-swap reads it, and names the issue and run in the commit', async () => {
    const state = seeded();
    state.conflictOnce = (tx) => writeTask(tx, 12, 2, { ...fixture.tasks.get('t2')!, status: 'running' });
    const seen: string[] = [];
    const running = await updateView(ctxWith(state), 12, 2, 'look', (v) => {
      seen.push(taskOf(v, 't2').status);
      return [...v.tasks.values()].filter((t) => t.status === 'running').map((t) => t.id);
    });
    expect(seen).toEqual(['pending', 'running']);
    expect(running).toEqual(['t1', 't2']);
    expect(state.messages).toEqual(['issue #12 run 2: look']);
    // writeRun numbered the seeded record 1; updateRun hands over run.json itself.
    expect(await updateRun(ctxWith(state), 12, 2, 'read', (rec) => [rec.version, rec.title])).toEqual([1, fixture.run.title]);
  });

  it('a run crew/state does not hold is a CrewError that names it, and nothing is written; updateRunFolder reads nothing first', async () => {
    const state = seeded();
    const before = new Map(state.files);
    for (const write of [updateRun, updateView] as const) {
      const e = await write(ctxWith(state), 12, 3, 'x', (_r, tx) => tx.write('issue-12/run-3/stray', 'x')).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(CrewError);
      expect((e as CrewError).message).toBe('run 3 of issue #12 does not exist on the crew/state branch.');
    }
    expect(state.files).toEqual(before);
    await updateRunFolder(ctxWith(state), 12, 3, 'a message', (tx) => tx.write('issue-12/run-3/inbox/m.json', '{}'));
    expect(state.files.get('issue-12/run-3/inbox/m.json')).toBe('{}');
  });

  it('a task or plan file that is missing is named, not read as undefined', () => {
    const v = view(['running', 'pending', 'success']);
    v.tasks.delete('t2');
    expect(() => taskOf(v, 't2')).toThrow(new StateFormatError(paths.taskJson(12, 2, 't2'), null, 'it is missing, though plan.json lists the task'));
    expect(() => taskOf(v, 't9')).toThrow(StateFormatError);
    expect(() => planOf({ ...v, plan: null })).toThrow('issue-12/run-2/plan.json is not valid: it is missing, though the run is EXECUTING.');
  });
});

describe('task claims', () => {
  it("a claim for this workflow run's matrix, or for a dispatch: the dispatch carries the claim's nonce, the finishing one a fresh nonce", async () => {
    const ctx = ctxWith(seeded());
    const mine = taskClaim(ctx, 'this-run');
    expect(mine).toMatchObject({ runId: '777', at: '2026-11-21T00:05:00Z' });
    const sent = taskClaim(ctx, 'dispatch', '2026-11-21T00:06:00Z');
    expect(sent).toEqual({ runId: `dispatch:${sent.nonce}`, nonce: sent.nonce, at: '2026-11-21T00:06:00Z' });
    expect(sent.nonce).toMatch(/^[0-9a-f]{12}$/);
    expect(sent.nonce).not.toBe(mine.nonce);
    dispatched.length = 0;
    await dispatchTasks(ctx, 12, 2, ['t2', 't3'], sent);
    await dispatchTasks(ctx, 12, 2, []);
    expect(dispatched[0]).toEqual({ issue: '12', run: '2', tasks: '["t2","t3"]', nonce: sent.nonce });
    expect(dispatched[1]).toMatchObject({ issue: '12', run: '2', tasks: '[]' });
    expect(dispatched[1]!.nonce).toMatch(/^[0-9a-f]{12}$/);
    expect(dispatched[1]!.nonce).not.toBe(sent.nonce);
  });
});
