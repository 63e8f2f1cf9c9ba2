import { loadavg } from 'node:os';
import { join } from 'node:path';
import { PROFILES, type PlatformProfile } from '../../tests/support/latency';
import { loadScenario, PROJECT_ROOT, runScenario } from '../../tests/support/scenario/run-scenario';
import { emptyGit, jobRequests, requestTrace, type GitCounts, type JobRequests, type TracedRequest } from './round-trips';

/**
 * A whole run of two independent tasks, every kind of job once (#31 §4): route, two work jobs,
 * advance, critic, and the merge job a green check starts. The fake GitHub counts every request
 * crew's jobs make; the run is played on loopback and again with GitHub's request latencies but no
 * job starts, so the ratio of the two is what the round trips alone cost.
 */
export const WHOLE_RUN_SCENARIO = join(PROJECT_ROOT, 'tests', 'scenarios', 'two-task-run.yaml');

/** github-hosted's per-request figures (150 ms REST and GraphQL, 250 ms git), no job start, no dispatch lag: as issue #31 §4 measured. */
export const REQUESTS_ONLY: PlatformProfile = { ...PROFILES['github-hosted'], dispatchLagMs: 0, jobStartMs: 0 };

/** Targets of #31 §4. */
export const WHOLE_RUN_TARGETS = { git: 60, ratio: 2 };

export interface WholeRunCounts {
  /** Every job that ran, in the order they ran (route, work, work, advance, critic, merge). */
  jobs: Array<Pick<JobRequests, 'kind' | 'task' | 'rest' | 'graphql' | 'git' | 'checkoutGit' | 'stateWrites'>>;
  git: GitCounts;
  /** Ref advertisements: a fetch's, ls-remote's or push's info/refs, and protocol v2's ls-refs. */
  refAdvertisements: number;
  /** By service: upload-pack (fetches, listings) and receive-pack (pushes). */
  uploadPack: number;
  receivePack: number;
  /** Of the git requests, actions/checkout's (one checkout a job). */
  checkoutGit: number;
  rest: number;
  graphql: number;
}

export interface WholeRunPlay {
  profile: PlatformProfile['name'] | 'requests-only';
  counts: WholeRunCounts;
  /** How long at least one job was running (the CI app's pause before the merge job left out), ms. */
  busyMs: number;
  /** What the profile added: requests held up and the time it added. */
  delayedMs: number;
  merged: boolean;
}

export interface WholeRunFigure {
  /** When, and the machine's load average then: crew's own work, loopback's time, slows with the load, and the ratio with it. */
  measuredAt: string;
  loadAverage: number[];
  timeScale: number;
  loopback: WholeRunPlay;
  requestsOnly: WholeRunPlay;
  /** requestsOnly.busyMs ÷ loopback.busyMs */
  ratio: number;
  /** One work job's requests in order, under loopback. */
  workTrace: TracedRequest[];
  /** Every job's requests in order, under loopback, for finding where the round trips come from. */
  traces: Record<string, TracedRequest[]>;
}

/** The total time covered by at least one of the intervals. */
export function busyTime(spans: Array<{ startedAt: number; finishedAt: number }>): number {
  let busy = 0;
  let end = -Infinity;
  for (const s of [...spans].sort((a, b) => a.startedAt - b.startedAt)) {
    const from = Math.max(s.startedAt, end);
    if (s.finishedAt > from) busy += s.finishedAt - from;
    end = Math.max(end, s.finishedAt);
  }
  return busy;
}

export function countWholeRun(jobs: JobRequests[]): WholeRunCounts {
  const git = emptyGit();
  for (const j of jobs) for (const k of Object.keys(git) as Array<keyof GitCounts>) git[k] += j.git[k];
  const sum = (f: (j: JobRequests) => number) => jobs.reduce((n, j) => n + f(j), 0);
  return {
    jobs: jobs.map(({ kind, task, rest, graphql, git, checkoutGit, stateWrites }) => ({
      kind,
      ...(task ? { task } : {}),
      rest,
      graphql,
      git,
      checkoutGit,
      stateWrites,
    })),
    git,
    refAdvertisements: git.infoRefs + git.lsRefs,
    uploadPack: 0,
    receivePack: 0,
    checkoutGit: sum((j) => j.checkoutGit),
    rest: sum((j) => j.rest),
    graphql: sum((j) => j.graphql),
  };
}

/** Plays the two-task run once under `latency`. */
export async function playWholeRun(latency: PlatformProfile, timeScale: number): Promise<{ play: WholeRunPlay; traces: Record<string, TracedRequest[]> }> {
  const { scenario, dir } = await loadScenario(WHOLE_RUN_SCENARIO);
  scenario.time_scale = timeScale;
  let counts: WholeRunCounts | undefined;
  let delayedMs = 0;
  const traces: Record<string, TracedRequest[]> = {};
  const result = await runScenario(scenario, {
    baseDir: dir,
    latency,
    hooks: {
      beforeClose: async ({ gh, runner }) => {
        const jobs = jobRequests(gh, runner);
        counts = countWholeRun(jobs);
        const crew = gh.gitRequests.filter((r) => r.job !== undefined);
        counts.uploadPack = crew.filter((r) => r.service === 'upload-pack').length;
        counts.receivePack = crew.filter((r) => r.service === 'receive-pack').length;
        delayedMs = gh.delays.ms;
        for (const run of runner.runs) for (const job of run.jobs) if (job.key && job.steps.length) traces[job.key] = requestTrace(gh, job.key);
      },
    },
  });
  const failed = result.jobs.filter((j) => j.result !== 'success' && j.result !== 'skipped');
  if (failed.length || result.runnerErrors.length) {
    throw new Error(`the whole run did not go through: ${[...failed.map((j) => `${j.job} ${j.result}`), ...result.runnerErrors].join('; ')}`);
  }
  return {
    play: {
      profile: latency === REQUESTS_ONLY ? 'requests-only' : latency.name,
      counts: counts!,
      busyMs: busyTime(result.jobTimes),
      delayedMs,
      merged: result.pulls.some((p) => p.merged),
    },
    traces,
  };
}

/**
 * The whole run on loopback, then with the requests-only profile. At time scale 1 the profile's
 * 250 ms is 250 ms: the ratio compares real round trips with crew's own work, which no scale shrinks.
 */
export async function measureWholeRun(timeScale = 1): Promise<WholeRunFigure> {
  const measuredAt = new Date().toISOString();
  const loadAverage = loadavg().map((l) => Math.round(l * 10) / 10);
  const loopback = await playWholeRun(PROFILES.loopback, timeScale);
  const hosted = await playWholeRun(REQUESTS_ONLY, timeScale);
  const work = Object.keys(loopback.traces).find((k) => /work/.test(k));
  return {
    measuredAt,
    loadAverage,
    timeScale,
    loopback: loopback.play,
    requestsOnly: hosted.play,
    ratio: Math.round((hosted.play.busyMs / loopback.play.busyMs) * 100) / 100,
    workTrace: work ? loopback.traces[work]! : [],
    traces: loopback.traces,
  };
}
