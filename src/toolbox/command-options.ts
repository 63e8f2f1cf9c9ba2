import type { CommandToolOptions } from '../agents/command-tools';
import type { CommandPolicy } from '../domain/command-policy';
import type { ModelReach } from '../domain/reach-note';
import type { CommandRunner } from '../sandbox/command-runner';

/** The most a command's output keeps (head and tail), for the agents' commands, setup and test runs alike. */
export const MAX_OUTPUT_BYTES = 30_000;

/**
 * The agents' run_command options, from what the job's tools gave (prepareTools: the runner, why there
 * is none, and the network `network.tools` gives the agents' commands) and the config: built here only,
 * for the worker (work), the critic and eval's single way, so the model is told the network it has.
 */
export function agentCommands(
  tools: { runner?: CommandRunner | undefined; warning: string | null; egress?: { tools: string } | undefined; reach?: ModelReach | undefined },
  config: { commands: CommandPolicy; command_timeout_seconds: number },
  /** No command runs past this time (epoch ms): the job's limit is near. */
  deadline?: { until: number; now: () => number },
): CommandToolOptions {
  return {
    runner: tools.runner,
    unavailable: tools.warning ?? undefined,
    policy: config.commands,
    timeoutMs: config.command_timeout_seconds * 1000,
    maxOutputBytes: MAX_OUTPUT_BYTES,
    ...(tools.egress?.tools === 'allowlist' ? { network: 'allowlist' as const } : {}),
    ...(tools.reach ? { reach: tools.reach } : {}),
    ...(deadline ?? {}),
  };
}
