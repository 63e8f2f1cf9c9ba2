/**
 * A job's process must end when its step is done: on GitHub a process that does not exit holds the job
 * until its time limit (#46: a listener of a proxy that failed to start held a work job ten minutes
 * after its last line). Whatever is still open after the step (a listener, a timer, a socket, a child's
 * pipe) gets `graceMs`; then the process exits with the code the step set, and says what held it.
 */
export function endSoonAfterStep(graceMs: number, warn: (message: string) => void): void {
  const timer = setTimeout(() => {
    const kinds = new Map<string, number>();
    for (const kind of process.getActiveResourcesInfo()) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    // Node's names for them (its own stdout and stderr count as PipeWrap when the runner reads them through pipes).
    const open = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ') || 'nothing Node names';
    warn(
      `crew's step ended ${Math.round(graceMs / 1000)} s ago, but something still held its process open (open: ${open}): crew ends it, since left alone it would hold the job until its time limit`,
    );
    process.exit();
  }, graceMs);
  timer.unref();
}
