import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { scaledMs } from '../time';

export interface StepProcess {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** GitHub's cancellation: SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s after that (scaled). */
  cancel(scale: number): void;
  kill(): void;
}

export function startProcess(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; onLine: (line: string, stream: 'stdout' | 'stderr') => void },
): StepProcess {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = (stream: 'stdout' | 'stderr') => {
    const rl = createInterface({ input: child[stream]! });
    rl.on('line', (l) => opts.onLine(l, stream));
    return new Promise<void>((resolve) => rl.on('close', resolve));
  };
  const streams = Promise.all([lines('stdout'), lines('stderr')]);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
    child.on('error', () => resolve({ code: 127, signal: null }));
  });
  const timers: NodeJS.Timeout[] = [];
  const done = Promise.all([exited, streams]).then(([r]) => {
    timers.forEach(clearTimeout);
    return r;
  });
  return {
    child,
    done,
    cancel(scale) {
      child.kill('SIGINT');
      timers.push(setTimeout(() => child.kill('SIGTERM'), scaledMs(7500, scale)));
      timers.push(setTimeout(() => child.kill('SIGKILL'), scaledMs(10_000, scale)));
    },
    kill() {
      child.kill('SIGKILL');
    },
  };
}
