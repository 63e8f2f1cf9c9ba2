import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitRepo } from '../adapters/git/git-repo';
import { commandRunner } from '../steps/sandbox-setup';

/**
 * What the agents' commands can reach on this machine, said plainly before a local run
 * starts. The sandbox is set up once for real, the way every job sets it up, so what is
 * said is what the jobs will get. File tools always stay inside the job's worktree.
 */
export async function localSandboxStatement(allowUnsandboxed: boolean): Promise<string> {
  const lead = "sandbox: file tools stay inside the run's worktree (no `..`, no links out, never .git); commands get a scrubbed environment with no keys or tokens.";
  const probe = await mkdtemp(join(tmpdir(), 'crew-sandbox-probe-'));
  try {
    const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
    const { runner, warning } = await commandRunner({ repo: { dir: probe } as GitRepo, log: quiet }, allowUnsandboxed);
    if (!runner) return `${lead} ${warning}; agents cannot run commands (set allow_unsandboxed: true to let them, without a sandbox).`;
    return `${lead} Commands: ${runner.description}.`;
  } finally {
    await rm(probe, { recursive: true, force: true });
  }
}
