import { join } from 'node:path';
import { prepareSandbox, prepareUserNamespace, UnsandboxedRunner, type CommandRunner } from '../sandbox/command-runner';
import type { StepContext } from './context';

/** What the work and critic jobs share before an agent starts: the trusted setup, then the sandbox. */

export const MAX_OUTPUT_BYTES = 30_000;

/** How to let commands run without a sandbox, unless the context says otherwise (local mode: a flag). */
export const CONFIG_OPT_IN = 'set allow_unsandboxed: true in .github/crew.yml';

/**
 * The sandbox for run_command, or the reason there is none, said loudly. The first that
 * starts wins: the tool user (root or passwordless sudo), then user namespaces (where the
 * kernel lets any user create them).
 */
export async function commandRunner(
  ctx: Pick<StepContext, 'repo' | 'log' | 'unsandboxedOptIn'>,
  allowUnsandboxed: boolean,
  sandboxes: Array<typeof prepareSandbox> = [prepareSandbox, prepareUserNamespace],
): Promise<{ runner?: CommandRunner; warning: string | null; /** Why no sandbox started, when none did. */ reason?: string }> {
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
  const optIn = ctx.unsandboxedOptIn ?? CONFIG_OPT_IN;
  ctx.log.warn(`No sandbox: ${reason}. run_command is refused; ${optIn} to run commands without one.`);
  return { warning: `run_command was refused: no sandbox (${reason})`, reason };
}

/**
 * Where the job's agents will work: setup (config `setup:`), then the sandbox for their commands.
 *
 * Setup runs whatever the tree tells it to (`npm ci` runs package.json lifecycle scripts, `pip install`
 * runs the build backend). On the run's base commit that is the repository's own reviewed code, so it
 * runs as crew's user, with network, before the sandbox opens the tree to the tool user. On any tree a
 * model has written (a dependent task's start, a resumed task, the critic's integrated branch) it is
 * model code: it runs inside the sandbox like `run_command`, with network but out of sight of crew's
 * processes, environment and credentials; with no sandbox it is refused unless `allow_unsandboxed`.
 */
export async function prepareTools(
  ctx: Pick<StepContext, 'repo' | 'log' | 'unsandboxedOptIn'>,
  config: { setup: string[]; command_timeout_seconds: number; allow_unsandboxed: boolean },
  tree: { trusted: boolean },
  sandboxes?: Array<typeof prepareSandbox>,
): Promise<{ runner?: CommandRunner; warning: string | null; setupFailure: string | null }> {
  const timeoutMs = config.command_timeout_seconds * 1000;
  if (tree.trusted || !config.setup.length) {
    const setupFailure = await runSetup(
      ctx,
      config.setup,
      timeoutMs,
      new UnsandboxedRunner(process.env.HOME ?? '/tmp'),
      'on the base commit, outside the sandbox',
    );
    if (setupFailure) return { warning: null, setupFailure };
    return { ...(await commandRunner(ctx, config.allow_unsandboxed, sandboxes)), setupFailure: null };
  }
  const prepared = await commandRunner(ctx, config.allow_unsandboxed, sandboxes);
  if (!prepared.runner) {
    const setupFailure = `the setup commands were refused: this tree holds model-written code, and ${prepared.warning ?? 'there is no sandbox'}; ${ctx.unsandboxedOptIn ?? CONFIG_OPT_IN} to run them without one`;
    ctx.log.warn(setupFailure);
    return { ...prepared, setupFailure };
  }
  const where = prepared.runner.sandboxed
    ? 'on a model-written tree, inside the sandbox with network'
    : 'on a model-written tree, WITHOUT a sandbox (allow_unsandboxed)';
  const setupFailure = await runSetup(ctx, config.setup, timeoutMs, prepared.runner, where);
  return { ...prepared, setupFailure };
}

async function runSetup(
  ctx: Pick<StepContext, 'repo' | 'log'>,
  commands: string[],
  timeoutMs: number,
  runner: CommandRunner,
  where: string,
): Promise<string | null> {
  for (const command of commands) {
    ctx.log.info(`setup (${where}): ${command}`);
    const r = await runner.run(command, { cwd: ctx.repo.dir, timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES, network: true });
    if (r.exitCode !== 0)
      return `the setup command \`${command}\` ${r.timedOut ? 'timed out' : `exited with ${r.exitCode}`}: ${r.output.trim().split('\n').slice(-5).join(' / ')}`;
  }
  return null;
}
