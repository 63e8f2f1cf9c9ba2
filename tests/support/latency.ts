/**
 * Platform latency profiles for the offline world (#17 §1): how long each request to GitHub
 * and each job start takes, before the time scale. `loopback` is the offline world as it always
 * was. `github-hosted` is a run on GitHub's hosted runners; GitHub publishes none of these
 * figures, so each one is an assumption, and where it comes from is said next to it.
 */
export interface PlatformProfile {
  name: 'loopback' | 'github-hosted';
  /** One REST request, from the runner to api.github.com and back. */
  restMs: number;
  /** One GraphQL request. */
  graphqlMs: number;
  /** One git smart-HTTP request (a ref advertisement, a fetch's or a push's pack exchange). */
  gitMs: number;
  /** From a `workflow_dispatch` to its run starting. */
  dispatchLagMs: number;
  /** From a job being queued to its first step: a runner picked, the VM up, the job set up. */
  jobStartMs: number;
}

export const PROFILES: Record<PlatformProfile['name'], PlatformProfile> = {
  loopback: { name: 'loopback', restMs: 0, graphqlMs: 0, gitMs: 0, dispatchLagMs: 0, jobStartMs: 0 },
  'github-hosted': {
    name: 'github-hosted',
    // Measured by the independent harness in issue #17 from a hosted runner: ~150 ms per REST request.
    restMs: 150,
    // Assumed the same as REST: one HTTPS round trip to api.github.com.
    graphqlMs: 150,
    // Measured by the same harness: ~250 ms per git request (TLS, auth and pack negotiation).
    gitMs: 250,
    // Assumption: a dispatched run is usually picked up within a few seconds.
    dispatchLagMs: 5_000,
    // Assumption: issue #17 says each job start takes "tens of seconds" on hosted runners; 20 s is its low end.
    jobStartMs: 20_000,
  },
};

export function profileNamed(name: string | undefined): PlatformProfile {
  if (name === undefined) return PROFILES.loopback;
  const p = PROFILES[name as PlatformProfile['name']];
  if (!p) throw new Error(`unknown latency profile '${name}': use ${Object.keys(PROFILES).join(' or ')}`);
  return p;
}
