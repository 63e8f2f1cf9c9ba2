import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TOOLCHAIN_PROGRAM, VERSION_ARGS, type RunnerVersion } from '../domain/toolchain-check';
import type { Toolchain } from '../domain/toolchain-setup';

const run = promisify(execFile);

/** How long a program has to say its version. */
export const VERSION_TIMEOUT_MS = 15_000;

/**
 * The versions of the runner's own programs, as a job's shell steps find them on PATH (`/crew doctor`
 * runs in crew's route job, on the same runner image as the work jobs, before any setup steps): the
 * first version-looking word of each one's answer; null when the program is not there or fails;
 * `{ silentForMs }` when it did not answer in time (it is there, so "missing" would mislead).
 */
export async function runnerToolchains(tools: Toolchain[], timeoutMs = VERSION_TIMEOUT_MS): Promise<Partial<Record<Toolchain, RunnerVersion>>> {
  const found = await Promise.all(
    tools.map(async (t): Promise<readonly [Toolchain, RunnerVersion]> => {
      try {
        const { stdout, stderr } = await run(TOOLCHAIN_PROGRAM[t], VERSION_ARGS[t], { timeout: timeoutMs });
        return [t, /\b(?:go|v)?(\d+\.\d+(?:\.\d+)?)/.exec(`${stdout} ${stderr}`)?.[1] ?? null];
      } catch (e) {
        // execFile's timeout kills the program and says so with `killed`.
        return [t, (e as { killed?: boolean }).killed ? { silentForMs: timeoutMs } : null];
      }
    }),
  );
  return Object.fromEntries(found);
}
