import type { DagTask } from '../../tests/support/scenario/dag-scenario';

/**
 * The benchmark's task graphs. Durations are model time (the turn that does a task's work);
 * every way plays exactly these tasks with these durations.
 */

export interface DagCase {
  name: string;
  tasks: DagTask[];
  maxParallel: number;
  /** More of `.github/crew.yml` for crew's run. */
  config?: string;
}

const min = 60_000;

/** Twelve tasks, mixed durations: waiting for whole waves costs here. */
export const TWELVE: DagCase = {
  name: '12-task DAG',
  maxParallel: 10,
  tasks: [
    { id: 'a', deps: [], ms: 10 * min },
    { id: 'b', deps: [], ms: 1 * min },
    { id: 'c', deps: [], ms: 2 * min },
    { id: 'd', deps: ['b'], ms: (20 / 3) * min },
    { id: 'e', deps: ['b'], ms: 1 * min },
    { id: 'f', deps: ['c'], ms: 5 * min },
    { id: 'g', deps: ['e'], ms: (10 / 3) * min },
    { id: 'h', deps: ['a'], ms: 1 * min },
    { id: 'i', deps: ['d', 'f'], ms: 2 * min },
    { id: 'j', deps: ['g'], ms: 1 * min },
    { id: 'k', deps: ['h', 'j'], ms: 1 * min },
    { id: 'l', deps: ['i', 'k'], ms: 1 * min },
  ],
};

const ROOT_MS = [1, 1.5, 2, 1, 2.5].map((m) => m * min);

/**
 * Thirty tasks under max_parallel 10: 21 independent notes, five summaries over four
 * notes each, a three-step chain of long tasks listed late in the plan (as a decomposer
 * might list them), and a final index over everything. More tasks are ready at the start
 * than there are slots, so the order in which ready tasks are claimed matters.
 */
export const WIDE: DagCase = {
  name: '30-task wide DAG',
  maxParallel: 10,
  tasks: [
    ...Array.from({ length: 21 }, (_, i) => ({ id: `r${i + 1}`, deps: [], ms: ROOT_MS[i % ROOT_MS.length]! })),
    { id: 'long1', deps: [], ms: 4 * min },
    { id: 'long2', deps: ['long1'], ms: 3 * min },
    { id: 'long3', deps: ['long2'], ms: 2 * min },
    ...Array.from({ length: 5 }, (_, i) => ({ id: `m${i + 1}`, deps: [1, 2, 3, 4].map((k) => `r${i * 4 + k}`), ms: 1.5 * min })),
    { id: 'index', deps: ['m1', 'm2', 'm3', 'm4', 'm5', 'long3'], ms: 1 * min },
  ],
};

export const CHAIN: DagCase = {
  name: '5-task chain',
  maxParallel: 10,
  tasks: ['a', 'b', 'c', 'd', 'e'].map((id, i, all) => ({ id, deps: i ? [all[i - 1]!] : [], ms: 1 * min })),
};

/**
 * Two tasks in a row: measures the per-step overhead o, where no scheduling choice exists. A step
 * of a DAG whose next task is dispatched pays a dispatch and a job start, and o is defined to hold
 * them; since chains (#17 §4) a job would run b itself, so the task's timeout leaves no room for a
 * second task in a 60-minute job (as in tests/e2e/orchestration.test.ts) and b is dispatched.
 */
export const CALIBRATION: DagCase = {
  name: '2-task chain (calibration)',
  maxParallel: 10,
  config: 'task_timeout_minutes: 55\n',
  tasks: [
    { id: 'a', deps: [], ms: 1 * min },
    { id: 'b', deps: ['a'], ms: 1 * min },
  ],
};

export const ONE: DagCase = { name: '1 task', maxParallel: 10, tasks: [{ id: 'a', deps: [], ms: 1 * min }] };

export const EIGHT: DagCase = {
  name: '8-task DAG',
  maxParallel: 10,
  tasks: [
    { id: 'a', deps: [], ms: 1 * min },
    { id: 'b', deps: [], ms: 1 * min },
    { id: 'c', deps: [], ms: 1 * min },
    { id: 'd', deps: ['a'], ms: 1 * min },
    { id: 'e', deps: ['a', 'b'], ms: 1 * min },
    { id: 'f', deps: ['c'], ms: 1 * min },
    { id: 'g', deps: ['d', 'e'], ms: 1 * min },
    { id: 'h', deps: ['f', 'g'], ms: 1 * min },
  ],
};

/**
 * The quick sample: `short` unblocks `after`, while `long` (same wave as `short`) still
 * runs. A wave barrier would hold `after` until `long` ends; crew must not.
 */
export const QUICK: DagCase = {
  name: '3-task sample',
  maxParallel: 10,
  tasks: [
    { id: 'short', deps: [], ms: 0.5 * min },
    { id: 'long', deps: [], ms: 8 * min },
    { id: 'after', deps: ['short'], ms: 0.5 * min },
  ],
};
