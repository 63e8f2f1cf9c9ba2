import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TOOLCHAIN_PROGRAM } from '../domain/toolchain-check';
import type { Toolchain } from '../domain/toolchain-setup';

const run = promisify(execFile);

/** How each program says its version (`go version` prints `go version go1.22.5 linux/amd64`). */
const VERSION_ARGS: Record<Toolchain, string[]> = { node: ['--version'], python: ['--version'], go: ['version'], rust: ['--version'] };

/**
 * The versions of the runner's own programs, as a job's shell steps find them on PATH (`/crew doctor`
 * runs in crew's route job, on the same runner image as the work jobs, before any setup steps): the
 * first version-looking word of each one's answer; null when the program is not there or fails.
 */
export async function runnerToolchains(tools: Toolchain[]): Promise<Partial<Record<Toolchain, string | null>>> {
  const found = await Promise.all(
    tools.map(async (t) => {
      try {
        const { stdout, stderr } = await run(TOOLCHAIN_PROGRAM[t], VERSION_ARGS[t], { timeout: 15_000 });
        return [t, /\b(?:go|v)?(\d+\.\d+(?:\.\d+)?)/.exec(`${stdout} ${stderr}`)?.[1] ?? null] as const;
      } catch {
        return [t, null] as const;
      }
    }),
  );
  return Object.fromEntries(found);
}
