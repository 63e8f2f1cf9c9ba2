import type { planRun as plan } from './planning';

/**
 * planRun (planning.ts), loaded when a command plans: planning brings the agents, the sandbox and
 * the egress proxy, which a route job that answers a comment without planning does not parse.
 */
export async function planRun(...args: Parameters<typeof plan>): ReturnType<typeof plan> {
  return (await import('./planning')).planRun(...args);
}
