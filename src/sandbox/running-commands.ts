/**
 * Process groups of commands still running: each runs detached (its own group, out of the runner's
 * reach), so it must be stopped explicitly when crew stops. Its own module so a job that runs no
 * command can still stop them on a signal without loading the command runner.
 */
export const runningCommands = new Set<number>();

/** Kills every agent command still running (crew is stopping: Ctrl-C, or the runner cancelling the job). */
export function killRunningCommands(): void {
  for (const pid of runningCommands) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  runningCommands.clear();
}
