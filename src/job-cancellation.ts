import type { Settings } from './settings';
import type { Log } from './ports';
import { killRunningCommands } from './sandbox/running-commands';

/**
 * GitHub cancels a job with SIGINT, then SIGTERM 7.5 s later, then a kill. The work
 * step stops its worker at the next safe point and saves the work so far (see
 * steps/interruption.ts); SIGTERM only logs, so that saving is not cut short. Other
 * steps keep Node's default: they are short, and every step is safe to repeat.
 */
export function cancellation(step: Settings['step'], log: Log): AbortSignal | undefined {
  if (step !== 'work') return undefined;
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) return;
    log.warn('crew received SIGINT: the workflow run is being cancelled; the worker stops at its next safe point and its work so far is saved');
    controller.abort();
    // A command runs in its own process group, out of the runner's reach: stop it, or the save waits for it past the kill.
    killRunningCommands();
  });
  process.on('SIGTERM', () => log.warn('crew received SIGTERM; still saving the work so far'));
  return controller.signal;
}
