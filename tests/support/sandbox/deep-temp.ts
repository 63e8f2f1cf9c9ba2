import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Self-hosted runners often have long work folders, and some set TMPDIR to the runner's temp folder.
 * These help a test run crew there, under the Unix socket rules of GitHub's `node24`.
 */

/** A folder `length` characters deep from the root (`parent` and then levels of 60), made. */
export async function deepFolder(parent: string, length = 150): Promise<string> {
  let dir = parent;
  for (let level = 0; dir.length < length; level++)
    dir = join(dir, String.fromCharCode(97 + (level % 26)).repeat(Math.min(60, Math.max(1, length - dir.length - 1))));
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Node's flags for a process that runs crew: Unix socket listens fail as Node 24's do (tests/support/egress/unix-listen.cjs). */
export const NODE24_SOCKETS = ['--require', join(__dirname, '..', 'egress', 'unix-listen.cjs')];

/** How long the job probe (job-probe.ts) lived after its last line, `::done <ms>`, given when its process had ended. */
export function exitDelay(stdout: string, endedAt: number): number {
  const done = /^::done (\d+)$/m.exec(stdout);
  if (!done) throw new Error(`the job probe never reached its end:\n${stdout}`);
  return endedAt - Number(done[1]);
}
