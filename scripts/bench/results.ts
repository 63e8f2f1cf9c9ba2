import type { CostFigure } from './cost';
import type { PlatformProfile } from '../../tests/support/latency';
import type { LimitsFigure } from './limits';
import type { SetupCacheFigure } from './setup-cache';
import type { LongTaskFigure } from './long-task';
import type { BundleSize, ColdStart, StateWrites } from './platform';
import type { JobKindFigure, JobRequests, ProfileApplied, TracedRequest } from './round-trips';
import type { Tally, WayName } from './ways';
import type { WholeRunFigure } from './whole-run';

/** bench/results.json: everything `npm run bench` measured, from which results.md and docs/PERFORMANCE.md are written. */
export interface BenchResults {
  generated: string;
  quick: boolean;
  machine: { cpus: number; cpu: string; memoryGiB: number; os: string; node: string; loadAverage: number[] };
  world: { timeScale: number; latency: { perRequestMs: number; perOutputTokenMs: number } };
  /** Everything that depends on GitHub's latency, once per profile (#17 §2): loopback, github-hosted. */
  profiles: ProfileFigures[];
  /** Measured under the first profile run. */
  tokens: TokenFigure & { profile: PlatformProfile['name'] };
  longTask: LongTaskFigure[];
  coldStart: ColdStart;
  bundle: BundleSize;
  stateWrites: StateWrites[];
  /** Wall time of the whole benchmark. */
  tookMs: number;
  /** What each scheduling run cost, crew against the single agent, and how close crew's estimate came (scripts/bench/cost.ts); absent in older results. */
  cost?: CostFigure[];
  /** A whole two-task run's requests and its time under GitHub's request latencies (#31 §4); absent in quick samples and older results. */
  wholeRun?: WholeRunFigure;
  /**
   * A long task under crew's default configuration (#49), as recorded with `--limits=before` on the code
   * before the change and `--limits=after` since: turns completed, input tokens by kind, cost.
   */
  limits?: { workTurns: number; before?: LimitsFigure & { at: string }; after?: LimitsFigure & { at: string } };
  /** Setup time per work job without and with the dependency cache a previous run saved (#51, `--setup-cache`); absent in older results. */
  setupCache?: SetupCacheFigure;
  /** Baselines measured again after the run (`--remeasure`), with when and why. */
  remeasured?: Array<{ way: WayName; at: string; why: string; loadAverage: number[] }>;
}

/** One latency profile's figures. */
export interface ProfileFigures {
  profile: PlatformProfile;
  /** When this profile was measured: a run of one profile keeps the other's figures from before. */
  generated: string;
  /** o: crew's overhead per step (job start, checkout, state writes, dispatch), measured on a chain. */
  overhead: { stepMs: number; measuredOn: string };
  makespan: MakespanFigure[];
  requests: { runs: RequestFigure[]; fit: { perRun: number; perTask: number }; hostedFit: { perRun: number; perTask: number } };
  /** What each kind of crew job asked of GitHub: on a run where jobs do not overlap, and on the widest one. */
  roundTrips: RoundTripFigure[];
  /** Every request of one work job of the uncontended run, in order. */
  workJobTrace: { scenario: string; task: string; requests: TracedRequest[] };
  /**
   * The 5-task chain against the single agent once more at time scale 1, as on GitHub (#17 §4's
   * target): at the bench's 0.1 the model's time shrinks tenfold and crew's own seconds a step do
   * not. Full bench, github-hosted only; absent in the quick sample and in older results.
   */
  fullScaleChain?: FullScaleChain;
}

export interface FullScaleChain {
  scenario: string;
  timeScale: number;
  crewMs: number;
  singleMs: number;
  crewEndToEndMs: number;
}

export interface RoundTripFigure {
  scenario: string;
  maxParallel: number;
  /** One task at a time (a chain): its jobs barely overlap, so they seldom race for crew/state. */
  uncontended: boolean;
  kinds: JobKindFigure[];
  /** Every job's own counts (work jobs by DAG id). */
  jobs: JobRequests[];
  /** State-write retries per job, over every job of the run. */
  retriesPerJob: number;
  /** What the latency profile held up, against what the fake received. */
  applied: ProfileApplied;
}

export interface WayMakespan {
  makespanMs: number;
  /** makespan ÷ the critical path of scripted work. */
  ratioToCriticalPath: number;
  /** this way ÷ crew. */
  ratioToCrew: number;
}

export interface MakespanFigure {
  scenario: string;
  tasks: number;
  maxParallel: number;
  /** The longest chain of scripted work: no way can finish sooner. */
  criticalPathMs: number;
  /** s: tasks on that chain. */
  steps: number;
  /** (all scripted work + n × o) ÷ max_parallel: the other bound, for wide graphs. */
  workBoundMs: number;
  /** 1.10 × (critical path + s × o). */
  targetMs: number;
  ways: Record<WayName, WayMakespan>;
  /** crew's makespan ÷ (critical path + s × o): the target is ≤ 1.10. */
  crewRatioToBound: number;
  meetsTarget: boolean;
  /** crew from the first job to the last: planning, integration, the critic and the pull request included. */
  crewEndToEndMs: number;
  /** When each task started and ended, per way, ms from that way's first task start (DAG ids). */
  spans: Record<WayName, Record<string, { start: number; end: number }>>;
  /** Per task (DAG ids): state writes crew's job had to redo because another job's write got there first. */
  crewStateRetries: Record<string, number>;
}

export interface RequestFigure {
  scenario: string;
  tasks: number;
  rest: number;
  writes: number;
  /** git smart-HTTP requests, counted apart from REST. */
  git: number;
  /** 3 × tasks + 15. */
  budget: number;
  /** How many such runs fit in GITHUB_TOKEN's 1,000 REST requests an hour. */
  runsPerHour: number;
  /**
   * The baselines hosted on GitHub for the same number of tasks: both run inside
   * claude-code-action (scripts/bench/hosted.ts), so their requests are the same.
   */
  hosted: { rest: number; writes: number; graphql: number; git: number; ratioToCrew: number };
}

export interface TokenFigure {
  scenario: string;
  tasks: number;
  ways: Record<WayName, { perTask: number; orchestration: number; cacheShare: number; tasks: Tally; orchestrationTally: Tally }>;
}
