import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

async function works(cmd: string, args: string[]): Promise<boolean> {
  return exec(cmd, args, { timeout: 10_000 }).then(
    () => true,
    () => false,
  );
}

/**
 * What the agents' commands can reach on this machine, said plainly before a local run
 * starts. File tools always stay inside the run's worktree (no `..`, no links out, not
 * `.git`) and every command gets a scrubbed environment; the rest depends on the sandbox.
 */
export async function localSandboxStatement(allowUnsandboxed: boolean): Promise<string> {
  const lead = 'sandbox: file tools stay inside the run\'s worktree, and commands get a scrubbed environment (no keys or tokens).';
  const root = process.getuid?.() === 0 || (await works('sudo', ['-n', 'true']));
  if (root) return `${lead} Commands run as the unprivileged user crew-tool with no network, in their own PID and mount namespaces; they cannot read your home folder or crew's environment.`;
  if (await works('unshare', ['--user', '--map-root-user', '--pid', '--fork', '--mount-proc', '--net', '--', 'true'])) {
    return `${lead} Commands run in user namespaces with no network and cannot see crew's process; the repository's .git is read-only to them. They CAN read and write files your user can, such as ~/.ssh.`;
  }
  if (allowUnsandboxed) return `${lead} NO SANDBOX on this machine (not root, no sudo, no user namespaces): commands run as you, and can read any file you can (such as ~/.ssh) and reach the network.`;
  return `${lead} No sandbox on this machine and allow_unsandboxed is false, so agents cannot run commands.`;
}
