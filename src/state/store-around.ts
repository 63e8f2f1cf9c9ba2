import type { StateStore } from '../ports';

/** A StateStore that is `inner` but for `update`: the branch capabilities and the reads pass through as they are. */
export function storeAround(inner: StateStore, update: StateStore['update']): StateStore {
  return {
    ...(inner.carriesBranches ? { carriesBranches: true } : {}),
    ...(inner.deletesBranches ? { deletesBranches: true } : {}),
    load: (prefix, fresh) => inner.load(prefix, fresh),
    loadRuns: (pick, fresh) => inner.loadRuns(pick, fresh),
    update,
  };
}
