import type { Provider } from '../domain/providers';
import type { RunView } from '../domain/run-state';
import type { Instance } from './instances';

/** What a way is given for one instance, and what it leaves. */

export const WAYS = ['crew', 'single'] as const;
export type Way = (typeof WAYS)[number];

export interface Budget {
  tokens: number;
  costUsd: number;
  ms: number;
}

export interface PlayInput {
  instance: Instance;
  /** The checkout at base_commit the way works in. */
  dir: string;
  /** A folder of the way's own for its files (the task file, the trajectories). */
  scratch: string;
  /** crew's own command line (bin/crew.js), for the crew way's process. */
  cli: string;
  scripted?: string;
  provider?: Provider;
  allowUnsandboxed: boolean;
  maxIterations?: number;
  budget: Budget;
  signal?: AbortSignal;
  /** A local run's state in a project (local mode's run folders, built by the CLI). */
  readRun: (project: string, run: number) => Promise<RunView | undefined>;
}

export type Played =
  | {
      kind: 'played';
      /** The diff from base_commit, as the agents left the tree. */
      patch: string;
      ms: number;
      exitCode: number | null;
      phase: string;
      verdict: 'PASS' | 'FAIL' | null;
      tasks: number;
      attempts: number;
      /** Where the way's trajectories are (a run folder holding trajectories/). */
      runDir: string;
      escalations: string[];
      /** What crew printed (the crew way's process), kept beside the results. */
      log?: string;
    }
  | { kind: 'broken'; reason: string; ms: number; escalations: string[]; log?: string };
