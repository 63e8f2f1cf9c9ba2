import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { scaledMs } from '../time';

export interface StepProcess {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * GitHub's cancellation: SIGINT to the step's entry process, SIGTERM 7.5 s later, and 2.5 s after that the
   * whole process tree is killed (scaled).
   */
  cancel(scale: number): void;
  /** Kills the process tree at once (a runner machine that vanished). */
  kill(): void;
}

export function startProcess(
  command: string,
  args: string[],
  opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    onLine: (line: string, stream: 'stdout' | 'stderr') => void;
  },
): StepProcess {
  // Its own process group, so the final kill reaches children that still hold the output pipes.
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const lines = (stream: 'stdout' | 'stderr') => {
    const rl = createInterface({ input: child[stream]! });
    rl.on('line', (l) => opts.onLine(l, stream));
    return new Promise<void>((resolve) => rl.on('close', resolve));
  };
  const streams = Promise.all([lines('stdout'), lines('stderr')]);
  let exitedYet = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      exitedYet = true;
      resolve({ code, signal });
    });
    child.on('error', () => resolve({ code: 127, signal: null }));
  });
  const timers: NodeJS.Timeout[] = [];
  const done = Promise.all([exited, streams]).then(([r]) => {
    timers.forEach(clearTimeout);
    return r;
  });
  const signal = (sig: NodeJS.Signals) => {
    if (!exitedYet) child.kill(sig);
  };
  const killTree = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
  };
  return {
    child,
    done,
    cancel(scale) {
      signal('SIGINT');
      timers.push(setTimeout(() => signal('SIGTERM'), scaledMs(7500, scale)));
      timers.push(setTimeout(killTree, scaledMs(10_000, scale)));
    },
    kill: killTree,
  };
}

/**
 * The runner's "Cleaning up orphan processes" at a job's end: every process a step left running (a service
 * a setup step started in the background, `node server.js &`) is killed, so the next job on the machine
 * starts without it. As actions/runner does (JobExtension.FinalizeJob; ProcessInvoker sets
 * RUNNER_TRACKING_ID in every step's environment), the processes are found by the job's tracking id in
 * their environment: so a process that cleared its environment (crew's sandbox, `env -i`) is not found,
 * and nothing of another job's or another program's is touched.
 */
export function orphanCleanup(trackingId: string): void {
  const mark = `RUNNER_TRACKING_ID=${trackingId}`;
  for (const name of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    let environ = '';
    try {
      environ = readFileSync(`/proc/${name}/environ`, 'latin1');
    } catch {
      continue;
    }
    if (!environ.split('\0').includes(mark)) continue;
    try {
      process.kill(Number(name), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}
