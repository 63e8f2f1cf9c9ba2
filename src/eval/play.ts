import { MAX_PARALLEL_ATTEMPTS } from '../domain/candidates';
import type { Provider } from '../domain/providers';
import type { RunView } from '../domain/run-state';
import type { Instance } from './instances';

/** What a way is given for one instance, and what it leaves. */

/**
 * The ways an instance is played: `crew` (a crew run), `single` (one agent), and `crew-best-of-N`
 * (#50: a crew run whose tasks each get N parallel attempts, `attempts.parallel: N`, the critic
 * choosing among them by tests).
 */
export type Way = 'crew' | 'single' | `crew-best-of-${number}`;

/** `--way both`: crew against one agent. */
export const BOTH: Way[] = ['crew', 'single'];

const BEST_OF = /^crew-best-of-(\d+)$/;

/** The parallel attempts a way asks crew for: N for `crew-best-of-N`, none for the others. */
export function parallelAttempts(way: Way): number | undefined {
  const m = BEST_OF.exec(way);
  return m ? Number(m[1]) : undefined;
}

/** Whether the way is a crew run (in a process of its own, resumable), not the single agent. */
export const isCrewWay = (way: Way): boolean => way === 'crew' || parallelAttempts(way) !== undefined;

/**
 * `--way`: crew, single, both (crew and single), crew-best-of-N (N from 2 to MAX_PARALLEL_ATTEMPTS), or
 * several of them with commas (`crew,single,crew-best-of-3`). Throws an Error that says what is accepted.
 */
export function parseWays(text: string): Way[] {
  const accepted = `crew, single, both or crew-best-of-N (N from 2 to ${MAX_PARALLEL_ATTEMPTS}), or several with commas: crew,single,crew-best-of-3`;
  const ways: Way[] = [];
  for (const part of text.split(',').map((s) => s.trim())) {
    const m = BEST_OF.exec(part);
    const one: Way[] | undefined =
      part === 'both'
        ? BOTH
        : part === 'crew' || part === 'single'
          ? [part]
          : m && Number(m[1]) >= 2 && Number(m[1]) <= MAX_PARALLEL_ATTEMPTS && !m[1]!.startsWith('0')
            ? [part as Way]
            : undefined;
    if (!one) throw new Error(`--way is ${accepted} (got '${text}')`);
    for (const w of one) if (!ways.includes(w)) ways.push(w);
  }
  return ways;
}

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
  /** The crew way's parallel attempts per task (`crew-best-of-N`): handed to crew as `attempts.parallel`. */
  parallelAttempts?: number;
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
