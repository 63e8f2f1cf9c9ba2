import { statSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';

export interface GitIdentity {
  name: string;
  email: string;
}

export const ACTIONS_IDENTITY: GitIdentity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

/**
 * Settings that would make crew's own git run a program, overridden for every command. They
 * outrank `.git/config`, so a poisoned checkout config (tools cannot write it, but this is the
 * second fence) runs nothing while the credentials are in git's environment: no hooks, no
 * fsmonitor daemon, no credential helper, no signing program.
 */
export const HARDENING: Array<[string, string]> = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['credential.helper', ''],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['protocol.ext.allow', 'never'],
  // crew never needs a pager, an editor, ssh or a password prompt: if git ever wanted one, it fails instead of running a program.
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['core.sshCommand', 'false'],
  ['core.askPass', ''],
];

/**
 * Which git folder crew's git uses, fixed when crew made or found it, never looked up again: a
 * worktree's `.git` is a file in the tree (a tool can rewrite it to point at a folder of its own,
 * with its own config and hooks), and a checkout's `.git` folder can be renamed away by whoever
 * may write the checkout. `GIT_DIR`/`GIT_WORK_TREE` pin it; before every command the folder must
 * still be the one found at the start (same device and inode), or crew's git stops, saying why.
 */
export interface GitPin {
  gitDir: string;
  workTree: string;
  /** Leave out the user's global git config (`~/.gitconfig`): locally, tools run as that user and could write it. */
  ignoreGlobalConfig?: boolean;
}

function identityOf(path: string): string {
  const s = statSync(path);
  return `${s.dev}:${s.ino}`;
}

/**
 * For checkouts that live for one job (an Actions job's workspace, its crew/state checkout):
 * housekeeping git would start after a fetch or a commit (`gc --auto`, `maintenance run --auto`)
 * only costs the job time. Not for a person's own repository (local mode).
 */
export const THROWAWAY_CHECKOUT: Record<string, string> = {
  'gc.auto': '0',
  'maintenance.auto': 'false',
};

/**
 * A simple-git client whose credentials and identity travel in the environment of
 * each git command (GIT_CONFIG_COUNT/KEY/VALUE), so nothing is ever written to
 * `.git/config` where an agent's tools could read it.
 */
export function gitClient(dir: string, token: string, identity: GitIdentity = ACTIONS_IDENTITY, extraConfig: Record<string, string> = {}, pin?: GitPin): SimpleGit {
  const header = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  // simple-git calls setting these keys at all unsafe, even to switch them off. Only crew sets them, never model
  // text: credentials travel in GIT_CONFIG_* so they never touch .git/config, and HARDENING switches off what
  // could run a program with those credentials in its environment. Every other guard stays on.
  const config = [['http.extraheader', header], ...HARDENING, ...Object.entries(extraConfig)];
  const unsafe = {
    allowUnsafeConfigEnvCount: true,
    allowUnsafeHooksPath: true,
    allowUnsafeFsMonitor: true,
    allowUnsafeCredentialHelper: true,
    allowUnsafeProtocolOverride: true,
    allowUnsafePager: true,
    allowUnsafeEditor: true,
    allowUnsafeSshCommand: true,
    allowUnsafeAskPass: true,
    allowUnsafeConfigPaths: true,
  };
  const git = simpleGit({ baseDir: dir, maxConcurrentProcesses: 1, trimmed: false, unsafe }).env({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_COUNT: String(config.length),
    ...Object.fromEntries(config.flatMap(([k, v], i) => [[`GIT_CONFIG_KEY_${i}`, k], [`GIT_CONFIG_VALUE_${i}`, v]])),
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
    ...(pin ? { GIT_DIR: pin.gitDir, GIT_WORK_TREE: pin.workTree } : {}),
    ...(pin?.ignoreGlobalConfig ? { GIT_CONFIG_GLOBAL: '/dev/null' } : {}),
  });
  return pin ? pinned(git, pin.gitDir) : git;
}

/** The client, whose every command first checks the pinned git folder is still the one it was. */
function pinned(git: SimpleGit, gitDir: string): SimpleGit {
  const expected = identityOf(gitDir);
  const check = async () => {
    const s = await stat(gitDir).catch(() => undefined);
    if (!s || `${s.dev}:${s.ino}` !== expected) {
      throw new Error(`the git folder ${gitDir} was replaced or removed while crew worked (a tool's doing?); crew's git does not follow it, and stops here`);
    }
  };
  return new Proxy(git, {
    get(target, prop, receiver) {
      if (prop === 'raw') return async (args: string[]) => (await check(), target.raw(args));
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

export function isNonFastForward(e: unknown): boolean {
  const text = String(e instanceof Error ? e.message : e);
  return /non-fast-forward|fetch first|\[rejected\]|failed to update ref|cannot lock ref|stale info/i.test(text);
}

/**
 * Runs a git command that takes a message (`commit`, `merge`) with the message read from a
 * file (`-F`), never as an argument: a message can list thousands of files (an attempt's
 * Crew-Result trailer) and one argument over 128 KiB fails the exec with E2BIG. The file lives
 * in a private temporary folder outside the workspace and is removed afterwards.
 */
export async function withMessageFile<T>(message: string, run: (args: string[]) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), 'crew-message-'));
  try {
    const file = join(folder, 'message');
    await writeFile(file, message, { mode: 0o600 });
    return await run(['-F', file]);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * A file as committed at `ref`, or undefined when that commit does not have it. Any other git
 * failure (a ref never fetched, a broken repository) is an error, never "no file": a missing
 * `.github/crew.yml` means defaults, and an unreadable one must not quietly mean them too.
 */
export async function readFileAtCommit(git: SimpleGit, ref: string, path: string): Promise<string | undefined> {
  const listed = await git.raw(['ls-tree', '--name-only', ref, '--', path]);
  return listed.trim() ? git.raw(['show', `${ref}:${path}`]) : undefined;
}
