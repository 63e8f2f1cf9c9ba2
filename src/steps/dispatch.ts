import type { Settings } from '../settings';
import type { StepContext } from './context';
import { ownCode } from './own-code';

export type Step = (ctx: StepContext) => Promise<void>;

/**
 * Each step's module, imported when its job starts. ncc writes a dynamic import to chunks of its
 * own, so a job parses its step's code and what that uses, not every step's (a route job leaves
 * out MCP, the sandbox and the egress proxy). docs/PERFORMANCE.md, "Cold start".
 */
export const STEPS: Record<Settings['step'], () => Promise<Step>> = {
  route: async () => (await import('./route')).route,
  work: async () => (await import('./work')).work,
  advance: async () => (await import('./advance')).advance,
  critic: async () => (await import('./critic')).critic,
  merge: async () => (await import('./merge')).merge,
  cleanup: async () => (await import('./cleanup')).cleanup,
};

/**
 * The step `name`, its code loading from now on, once `ready` (the bundle's chunks) has settled. A
 * chunk or step that fails to load fails the step when it runs, inside the job's lifecycle
 * (run-job.ts), so it ends in a failure comment like any other failure, not in the job log only.
 */
export function loadingStep(name: Settings['step'], ready: Promise<unknown> = Promise.resolve()): Step {
  const loading = ready.then(() => STEPS[name]());
  loading.catch(() => undefined); // reported when the step runs
  return async (ctx) => (await ownCode(`the ${name} step`, loading))(ctx);
}
