import type { StateSnapshot, StateStore, StateTx } from '../ports';
import { json, paths } from './run-files';

/** A plan comment's id a job knows and the run's record does not hold yet. */
export interface HeldPlanComment {
  issue: number;
  run: number;
  id: number;
}

/** What steps do with the ids the store holds for this job (pendingPlanCommentStore). */
export interface PlanCommentIds {
  /** From now on every read of the run's record shows `id`, until a write of the record carries it. */
  hold(issue: number, run: number, id: number): void;
  /** The ids no write carried, no longer held: the caller records them in writes of their own. */
  release(): HeldPlanComment[];
}

/**
 * The route job posts the plan comment before it plans, and used to record the comment's id in a
 * write of its own: two git requests on the run's critical path (#31 §4). Instead the id is held
 * here for the rest of the job: every read of that run's run.json (load, loadRuns, the reads inside
 * update) shows it, so whatever renders or links the comment finds it, and the job's next write of
 * the record, which starts from such a read, persists it. Once a committed run.json carries an id,
 * nothing is held for that run. What is still held at the job's end is written the old way
 * (recordHeldPlanComments); a job killed before that leaves it to a later job's search by marker.
 */
export function pendingPlanCommentStore(inner: StateStore): { store: StateStore; ids: PlanCommentIds } {
  const held = new Map<string, HeldPlanComment>();

  /** run.json as the held id shows it; anything else, or a record that holds an id already, as it is. */
  const shown = (path: string, text: string | undefined): string | undefined => {
    const h = held.get(path);
    if (!h || text === undefined) return text;
    const record = parse(text);
    // A damaged record is left to the readers, which say so.
    if (!record || (record.planCommentId ?? null) !== null) return text;
    return json({ ...record, planCommentId: h.id });
  };
  const showing = (s: StateSnapshot): StateSnapshot =>
    held.size === 0
      ? s
      : {
          version: s.version,
          ...(s.confirmedAt !== undefined ? { confirmedAt: s.confirmedAt } : {}),
          read: (p) => shown(p, s.read(p)),
          list: (p) => s.list(p),
        };

  const store: StateStore = {
    ...(inner.carriesBranches ? { carriesBranches: true } : {}),
    ...(inner.deletesBranches ? { deletesBranches: true } : {}),
    load: async (prefix, fresh) => showing(await inner.load(prefix, fresh)),
    loadRuns: async (pick, fresh) => showing(await inner.loadRuns(pick, fresh)),
    update: async (prefix, message, mutate, options) => {
      const done = await inner.update(
        prefix,
        message,
        (tx) => {
          if (held.size === 0) return mutate(tx);
          const seen: StateTx = {
            read: (p) => shown(p, tx.read(p)),
            write: (p, content) => tx.write(p, content),
            remove: (p) => tx.remove(p),
            list: (p) => tx.list(p),
          };
          return mutate(seen);
        },
        options,
      );
      for (const path of [...held.keys()]) {
        const text = done.snapshot.read(path);
        const record = text === undefined ? undefined : parse(text);
        if (record && (record.planCommentId ?? null) !== null) held.delete(path);
      }
      return { value: done.value, snapshot: showing(done.snapshot) };
    },
  };
  return {
    store,
    ids: {
      hold: (issue, run, id) => {
        held.set(paths.run(issue, run), { issue, run, id });
      },
      release: () => {
        const left = [...held.values()];
        held.clear();
        return left;
      },
    },
  };
}

function parse(text: string): (Record<string, unknown> & { planCommentId?: unknown }) | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
