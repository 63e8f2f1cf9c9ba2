import type { Settings } from '../settings';
import type { StepContext } from './context';

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
