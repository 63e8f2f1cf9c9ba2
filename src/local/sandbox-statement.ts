import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { prepareSandbox } from '../sandbox/command-runner';
import { DEFAULT_NETWORK, type NetworkConfig } from '../toolbox/egress';
import { commandRunner } from '../toolbox/sandbox-setup';

/**
 * What the agents' commands can reach on this machine, said plainly before a local run
 * starts: which of the three modes this run is in. The sandbox is set up once for real, the
 * way every job sets it up, so what is said is what the jobs will get. File tools always stay
 * inside the job's worktree.
 */
export async function localSandboxStatement(
  allowUnsandboxed: boolean,
  sandboxes?: Array<typeof prepareSandbox>,
  network: NetworkConfig = DEFAULT_NETWORK,
): Promise<string> {
  const files = "File tools stay inside the run's worktree (no `..`, no links out, never .git); commands get a scrubbed environment with no keys or tokens.";
  const probe = await mkdtemp(join(tmpdir(), 'crew-sandbox-probe-'));
  try {
    const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
    const { runner, warning, reason, egress, dispose } = await commandRunner(
      { repo: { dir: probe }, log: quiet },
      { allow_unsandboxed: allowUnsandboxed, network },
      sandboxes,
    );
    await dispose();
    if (!runner) {
      return `sandbox: none can start here (${reason}), so agents' commands (run_command) are refused. ${files} To let commands run without a sandbox, as you and with network, run crew with --allow-unsandboxed.`;
    }
    if (!runner.sandboxed) return `sandbox: OFF (--allow-unsandboxed; ${warning}): ${runner.description}. ${files}`;
    return `sandbox: on (the default), ${runner.description}. ${egress?.statement ?? ''} ${files}`.replace(/  +/g, ' ');
  } finally {
    await rm(probe, { recursive: true, force: true });
  }
}
