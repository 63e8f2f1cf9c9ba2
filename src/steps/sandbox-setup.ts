import { join } from 'node:path';
import { prepareSandbox, prepareUserNamespace, UnsandboxedRunner, type CommandRunner } from '../sandbox/command-runner';
import type { StepContext } from './context';

/** What the work and critic jobs share before an agent starts: the trusted setup, then the sandbox. */

export const MAX_OUTPUT_BYTES = 30_000;

/**
 * The sandbox for run_command, or the reason there is none, said loudly. The first that
 * starts wins: the tool user (root or passwordless sudo), then user namespaces (where the
 * kernel lets any user create them).
 */
export async function commandRunner(
  ctx: Pick<StepContext, 'repo' | 'log'>,
  allowUnsandboxed: boolean,
  sandboxes: Array<typeof prepareSandbox> = [prepareSandbox, prepareUserNamespace],
): Promise<{ runner?: CommandRunner; warning: string | null }> {
  const temp = process.env.RUNNER_TEMP ?? '/tmp';
  const reasons: string[] = [];
  for (const prepare of sandboxes) {
    const prepared = await prepare(ctx.repo.dir, temp);
    if ('runner' in prepared) {
      ctx.log.info(`run_command is ${prepared.runner.description}`);
      return { runner: prepared.runner, warning: null };
    }
    reasons.push(prepared.reason);
  }
  const reason = reasons.join(', and ');
  if (allowUnsandboxed) {
    const runner = new UnsandboxedRunner(join(temp, 'crew-tool-home'));
    ctx.log.warn(`No sandbox: ${reason}. allow_unsandboxed is on, so ${runner.description}.`);
    return { runner, warning: `commands ran without a sandbox (${reason})` };
  }
  ctx.log.warn(`No sandbox: ${reason}. run_command is refused; set allow_unsandboxed: true in .github/crew.yml to run commands without one.`);
  return { warning: `run_command was refused: no sandbox (${reason})` };
}

/** Trusted setup (config `setup:`), before any agent runs: with network, outside the sandbox, with a scrubbed environment. */
export async function runSetup(ctx: StepContext, commands: string[], timeoutMs: number): Promise<string | null> {
  const runner = new UnsandboxedRunner(process.env.HOME ?? '/tmp');
  for (const command of commands) {
    ctx.log.info(`setup: ${command}`);
    const r = await runner.run(command, { cwd: ctx.repo.dir, timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES });
    if (r.exitCode !== 0) return `the setup command \`${command}\` ${r.timedOut ? 'timed out' : `exited with ${r.exitCode}`}: ${r.output.trim().split('\n').slice(-5).join(' / ')}`;
  }
  return null;
}
