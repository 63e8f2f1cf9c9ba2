import { join } from 'node:path';
import { CONFIG_PATH } from '../config/schema';
import { refusalsSince } from '../domain/egress';
import { SETUP_ACTION_PATH } from '../domain/toolchain-setup';
import {
  homeEnv,
  prepareSandbox,
  prepareUserNamespace,
  UnsandboxedRunner,
  type CommandRunner,
  type ProgramHome,
  type RunOptions,
} from '../sandbox/command-runner';
import { jobTempDir } from '../sandbox/own-temp';
import { MAX_OUTPUT_BYTES } from './command-options';
import { jobEgress, NetworkedRunner, routeOf, setupNetworkAdvice, startJobProxy, unneeded, type Egress, type NetworkConfig } from './egress';
import type { Log } from '../ports';
import { NO_REACH, prepareReach, startWithReach, withHomeCaches, type JobReach } from './sandbox-reach';

/** What the work and critic jobs share before an agent starts: the trusted setup, then the sandbox. */

/** How to let commands run without a sandbox, unless the context says otherwise (local mode: a flag). */
export const CONFIG_OPT_IN = 'set allow_unsandboxed: true in .github/crew.yml';

/** What the job's config says about commands and their network. */
export interface ToolsConfig {
  allow_unsandboxed: boolean;
  network: NetworkConfig;
  /** Variables of the setup steps the sandboxed commands get (#51: sandbox-reach.ts). */
  sandbox_env?: string[];
}

/**
 * What the sandbox's setup needs of a job: the folder the commands work in, the log, and how to say
 * the sandbox may be turned off. A step passes its StepContext; crew eval and local mode pass just these.
 */
export interface ToolsContext {
  repo: { dir: string };
  log: Log;
  unsandboxedOptIn?: string;
}

export interface JobTools {
  /** What the agents' commands run through (with the network `network.tools` gives them), when anything can run them. */
  runner?: CommandRunner;
  warning: string | null;
  /** Why no sandbox started, when none did. */
  reason?: string;
  /** What model-written code reaches in this job, and what was refused; none when no runner could start. */
  egress?: Egress;
  /** A line for a failed command's message that points at the repository's setup steps, when something says so (#51). */
  hint?: JobReach['hint'];
  /**
   * Closes what these tools started: the egress proxy, the bridges to `network.services` and the
   * commands' own home. The job's process ending does not do it in local mode or eval, where one
   * process runs many jobs: whoever prepared the tools calls it when the job's commands are done.
   */
  dispose(): Promise<void>;
  /** What the agents' run_command tells the model about the runner's variables and services (#51). */
  reach?: JobReach['model'];
}

/**
 * The sandbox for run_command, or the reason there is none, said loudly. The first that
 * starts wins: the tool user (root or passwordless sudo), then user namespaces (where the
 * kernel lets any user create them). The job's egress proxy starts first, so the sandbox is
 * prepared with its route and checked to reach it.
 */
export async function commandRunner(
  ctx: ToolsContext,
  config: ToolsConfig,
  sandboxes: Array<typeof prepareSandbox> = [prepareSandbox, prepareUserNamespace],
  /** Whether anything in this job may use the allowlist; a job where nothing does starts no proxy and probes no route. */
  needsRoute = true,
  jobReach?: JobReach,
): Promise<JobTools> {
  const temp = jobTempDir();
  const reasons: string[] = [];
  const proxy = needsRoute || config.network.tools === 'allowlist' ? await startJobProxy(config.network, ctx.log) : undefined;
  const given = jobReach ?? (await prepareReach(config, ctx.log));
  const { reach } = given;
  const hint = hintOf(given);
  // The reach is this function's to close only when it made it; prepareTools closes its own.
  const closeReach = jobReach ? async () => undefined : () => given.close();
  for (const prepare of sandboxes) {
    // Without `ip` in the sandbox, the job keeps its sandbox without the services (sandbox-reach.ts).
    const started = await startWithReach((r) => prepare(ctx.repo.dir, temp, routeOf(proxy), r), given, ctx.log).catch(async (e: unknown) => {
      // A sandbox that threw: what this function started closes here, as the tools' dispose would have.
      await disposer(ctx.log, async () => (proxy && 'socket' in proxy ? proxy.close() : undefined), closeReach)();
      throw e;
    });
    const prepared = started.prepared;
    if ('runner' in prepared) {
      const egress = proxy ? jobEgress(config.network, prepared.runner, proxy, prepared.egressProblem) : unneeded();
      ctx.log.info(`run_command is ${prepared.runner.description}. ${egress.statement}`);
      for (const note of prepared.notes ?? []) ctx.log.warn(note);
      if (egress.problem) ctx.log.warn(`crew's egress allowlist could not be set up: ${egress.problem}`);
      const runner = egress.tools === 'allowlist' ? new NetworkedRunner(prepared.runner, 'allowlist') : prepared.runner;
      const warning = egress.mode === 'open' ? `model-written setup had the runner's network, unfiltered (network.fallback: open; ${egress.problem})` : null;
      return {
        runner,
        warning,
        egress,
        ...hintOf(started.given),
        reach: started.given.model,
        dispose: disposer(ctx.log, () => egress.close(), closeReach),
      };
    }
    reasons.push(prepared.reason);
  }
  if (proxy && 'socket' in proxy) await proxy.close();
  const reason = reasons.join(', and ');
  if (config.allow_unsandboxed) {
    const runner = new UnsandboxedRunner(join(temp, 'crew-tool-home'), { env: reach.env ?? {} });
    const egress = jobEgress(config.network, runner, undefined, undefined);
    ctx.log.warn(`No sandbox: ${reason}. allow_unsandboxed is on, so ${runner.description}. ${egress.statement}`);
    return {
      runner,
      warning: `commands ran without a sandbox (${reason})`,
      egress,
      ...hint,
      reach: given.model,
      dispose: disposer(ctx.log, () => egress.close(), closeReach),
    };
  }
  const optIn = ctx.unsandboxedOptIn ?? CONFIG_OPT_IN;
  ctx.log.warn(`No sandbox: ${reason}. run_command is refused; ${optIn} to run commands without one.`);
  return { warning: `run_command was refused: no sandbox (${reason})`, reason, ...hint, dispose: disposer(ctx.log, closeReach) };
}

/**
 * Where the job's agents will work: setup (config `setup:`), then the sandbox for their commands.
 *
 * Setup runs whatever the tree tells it to (`npm ci` runs package.json lifecycle scripts, `pip install`
 * runs the build backend). On the run's base commit that is the repository's own reviewed code, so it
 * runs as crew's user, with network, before the sandbox opens the tree to the tool user. On any tree a
 * model has written (a dependent task's start, a resumed task, the critic's integrated branch) it is
 * model code: it runs inside the sandbox like `run_command`, out of sight of crew's processes,
 * environment and credentials, reaching only the hosts the egress allowlist lets through (or, where
 * that cannot be set up, no network unless `network.fallback: open`); with no sandbox it is refused
 * unless `allow_unsandboxed`.
 */
export async function prepareTools(
  ctx: ToolsContext,
  config: { setup: string[]; command_timeout_seconds: number } & ToolsConfig,
  /**
   * `mcp`: a stdio MCP server starts in this job's sandbox, and reaches the network only through the allowlist.
   * `ownHome`: the sandbox's commands from here on (setup on a model-written tree, and the caller's, through
   * `home`, which the tools' dispose removes) get a home and temporary folder of their own, out of reach of commands
   * that ran before with the tool user's shared home (#46).
   */
  tree: { trusted: boolean; mcp?: boolean; ownHome?: boolean },
  sandboxes?: Array<typeof prepareSandbox>,
): Promise<JobTools & { setupFailure: string | null; home?: ProgramHome }> {
  const timeoutMs = config.command_timeout_seconds * 1000;
  const jobReach = await prepareReach(config, ctx.log);
  /** What has started so far: the runner's tools (their proxy), the home; the reach's bridges always. */
  const opened: { tools?: Partial<JobTools>; home?: ProgramHome | { failure: string } } = {};
  /** One dispose for what prepareTools started: the runner's (its proxy), the reach's bridges, the home. */
  const handed = <T extends Partial<JobTools>>(tools: T, home?: ProgramHome | { failure: string }) => ({
    ...tools,
    dispose: disposer(ctx.log, tools.dispose, () => jobReach.close(), home && 'dispose' in home ? () => home.dispose() : undefined),
  });
  try {
    if (tree.trusted || !config.setup.length) {
      const setupFailure = await runSetup(
        ctx,
        config.setup,
        timeoutMs,
        new UnsandboxedRunner(process.env.HOME ?? '/tmp', { env: jobReach.reach.env ?? {} }),
        'on the base commit, outside the sandbox',
        undefined,
        undefined,
        jobReach.hint,
      );
      if (setupFailure) return handed({ warning: null, setupFailure, ...hintOf(jobReach) });
      const tools = (opened.tools = await commandRunner(ctx, config, sandboxes, tree.mcp ?? false, jobReach));
      const home = (opened.home = tree.ownHome && tools.runner ? await ownHome(tools.runner) : undefined);
      if (home && 'failure' in home) return handed({ ...tools, setupFailure: home.failure });
      return handed({ ...tools, setupFailure: null, ...(home ? { home } : {}) }, home);
    }
    // The sandbox's home starts with a copy of the caches the setup steps restored (sandbox-reach.ts).
    const prepared = (opened.tools = await commandRunner(ctx, config, sandboxes, true, withHomeCaches(jobReach, ctx.log)));
    if (!prepared.runner || !prepared.egress) {
      const setupFailure = `the setup commands were refused: this tree holds model-written code, and ${prepared.warning ?? 'there is no sandbox'}; ${ctx.unsandboxedOptIn ?? CONFIG_OPT_IN} to run them without one`;
      ctx.log.warn(setupFailure);
      return handed({ ...prepared, setupFailure });
    }
    const egress = prepared.egress;
    const home = (opened.home = tree.ownHome ? await ownHome(prepared.runner) : undefined);
    if (home && 'failure' in home) return handed({ ...prepared, setupFailure: home.failure });
    const network = setupNetwork(prepared.runner, egress);
    const where = !prepared.runner.sandboxed
      ? 'on a model-written tree, WITHOUT a sandbox (allow_unsandboxed)'
      : {
          allowlist: 'on a model-written tree, inside the sandbox, through the egress allowlist',
          offline: 'on a model-written tree, inside the sandbox, without network',
          open: "on a model-written tree, inside the sandbox, with the runner's network (network.fallback: open)",
        }[egress.mode];
    const before = egress.refused();
    const failed = await runSetup(
      ctx,
      config.setup,
      timeoutMs,
      prepared.runner,
      where,
      network,
      home && { cwd: ctx.repo.dir, env: homeEnv(home) },
      prepared.hint ?? jobReach.hint,
    );
    const setupFailure = failed && `${failed}${setupNetworkAdvice(egress, refusalsSince(egress.refused(), before), CONFIG_PATH)}`;
    return handed({ ...prepared, setupFailure, ...(home ? { home } : {}) }, home);
  } catch (e) {
    // A step that threw (a command that could not be started, a folder that could not be written): what had
    // started closes here, as the tools' dispose would have (local mode and eval run many jobs in one process).
    await handed(opened.tools ?? {}, opened.home).dispose();
    throw e;
  }
}

/** Runs each close once, in order; one that fails is said in the log (a dispose runs in a `finally`, where a throw would hide the job's own error). */
function disposer(log: Pick<Log, 'warn'>, ...closes: Array<(() => Promise<void>) | undefined>): () => Promise<void> {
  let done: Promise<void> | undefined;
  const all = async () => {
    for (const close of closes)
      try {
        await close?.();
      } catch (e) {
        log.warn(
          `crew could not close part of the job's tools (the egress proxy, a service bridge or the commands' home): ${(e as Error).message.split('\n')[0]}`,
        );
      }
  };
  return () => (done ??= all());
}

/** The hint, where the job has anything the setup steps hand over (sandbox-reach.ts). */
function hintOf(reach: JobReach): Pick<JobTools, 'hint'> {
  return reach.hint === NO_REACH.hint ? {} : { hint: reach.hint };
}

/** A home made now, with its own temporary folder (CommandRunner.programHome), or why there is none. */
async function ownHome(runner: CommandRunner): Promise<ProgramHome | { failure: string }> {
  try {
    if (!runner.programHome) throw new Error('this sandbox cannot make one');
    return await runner.programHome();
  } catch (e) {
    return { failure: `crew could not give the commands a home of their own (${(e as Error).message.split('\n')[0]})` };
  }
}

/** The network setup on a model-written tree has in the sandbox: what the job's egress gives it (none without a sandbox to ask). */
export function setupNetwork(runner: CommandRunner, egress: Pick<Egress, 'mode'>): RunOptions['network'] {
  if (!runner.sandboxed) return undefined;
  return egress.mode === 'allowlist' ? 'allowlist' : egress.mode === 'open' ? 'open' : 'none';
}

/** Exit code 127 is the shell's "command not found": a tool the runner lacks, which the repository's setup steps can install. */
const NOT_FOUND_HINT = `. A command was not found: install the tools and start the services crew's jobs need in your repository's setup steps, ${SETUP_ACTION_PATH} (docs/workflow.md)`;

/** Runs the setup commands in order, in the checkout (or in `at`, with its variables); the first that fails says why. */
export async function runSetup(
  ctx: Omit<ToolsContext, 'unsandboxedOptIn'>,
  commands: string[],
  timeoutMs: number,
  runner: CommandRunner,
  where: string,
  network?: RunOptions['network'],
  at?: { cwd: string; env: Record<string, string> },
  hint: JobReach['hint'] = NO_REACH.hint,
): Promise<string | null> {
  for (const command of commands) {
    ctx.log.info(`setup (${where}): ${command}`);
    const started = Date.now();
    const r = await runner.run(command, {
      cwd: at?.cwd ?? ctx.repo.dir,
      timeoutMs,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      ...(network ? { network } : {}),
      ...(at ? { env: at.env } : {}),
    });
    // How long each command took: what a dependency cache the setup steps restore saves shows here (#51).
    ctx.log.info(`setup: \`${command}\` ${r.exitCode === 0 ? 'done' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (r.exitCode !== 0) {
      const pointer = hint(r.output);
      return `the setup command \`${command}\` ${r.timedOut ? 'timed out' : `exited with ${r.exitCode}`}: ${r.output.trim().split('\n').slice(-5).join(' / ')}${r.exitCode === 127 ? NOT_FOUND_HINT : ''}${pointer ? ` ${pointer}` : ''}`;
    }
  }
  return null;
}
