import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitProcess, type Git, type GitSettings, type UnsafeAllowed } from './git-process';
import { HARDENING } from '../../domain/git-hardening';
import { inertGit } from '../../text/inert';
import { CREW_GIT_IDENTITY } from '../../domain/retention';
import { ownGit, ownPath } from '../../sandbox/own-programs';

export interface GitIdentity {
  name: string;
  email: string;
}

/** Every commit crew makes on GitHub carries it; cleaning up tells crew's commits from a person's by it (domain/retention.ts). */
export const ACTIONS_IDENTITY: GitIdentity = CREW_GIT_IDENTITY;

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
  /** A git folder crew is still making (an empty repository of its own): commands wait for it, and it is pinned once made. */
  made?: Promise<void>;
}

function identityOf(path: string): string {
  const s = statSync(path);
  return `${s.dev}:${s.ino}`;
}

/** The configured programs a repository's attributes can pick by name (`filter=x`, `diff=x`, `merge=x`). */
const DRIVER_PROGRAM = /^(?:filter\..+\.(?:clean|smudge|process)|diff\..+\.(?:textconv|command)|merge\..+\.driver)$/;

/**
 * Every filter, diff and merge driver git's configuration defines, set to no program for crew's
 * own git. A committed `.gitattributes` chooses drivers by name, so a model-written tree could
 * otherwise make crew's `add`, `checkout` or `merge` run any program the person's or the runner's
 * configuration names, with crew's credentials in git's environment. An emptied filter does
 * nothing (and a `required` one fails the command, visibly); an emptied merge or diff program
 * fails the command rather than running. crew's diffs pass `--no-textconv --no-ext-diff` anyway.
 */
export function driverOverrides(dir: string, env: Record<string, string>): Promise<Array<[string, string]>> {
  const args = ['config', '--null', '--name-only', '--get-regexp', '^(filter|diff|merge)\\.'];
  return new Promise((resolve, reject) => {
    execFile(ownGit(), args, { cwd: existsSync(dir) ? dir : tmpdir(), env, encoding: 'utf8' }, (e, listed, stderr) => {
      if (!e) {
        const keys = listed.split(/[\0\n]/).filter((k) => DRIVER_PROGRAM.test(k));
        resolve([...new Set(keys)].map((k) => [k, '']));
      } else if (e.code === 1)
        resolve([]); // git config's answer for "no such setting"
      else
        reject(
          new Error(
            `crew could not list the filter, diff and merge drivers git is configured with in ${dir}, so it cannot switch them off: ${(stderr || e.message).trim()}`,
          ),
        );
    });
  });
}

/**
 * crew's git client (GitProcess), whose credentials and identity travel in the environment of
 * each git command (GIT_CONFIG_COUNT/KEY/VALUE), so nothing is ever written to
 * `.git/config` where an agent's tools could read it. No configured driver runs (driverOverrides).
 */
export function gitClient(dir: string, token: string, identity: GitIdentity = ACTIONS_IDENTITY, extraConfig: Record<string, string> = {}, pin?: GitPin): Git {
  const header = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  const base = {
    PATH: ownPath(),
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    // The drivers are listed with the same git folder and global config the commands will read.
    ...(pin ? { GIT_DIR: pin.gitDir, GIT_WORK_TREE: pin.workTree } : {}),
    ...(pin?.ignoreGlobalConfig ? { GIT_CONFIG_GLOBAL: '/dev/null' } : {}),
  };
  // simple-git's argument checks (kept by GitProcess) call setting these keys at all unsafe, even to switch them off. Only crew sets them, never model
  // text: credentials travel in GIT_CONFIG_* so they never touch .git/config, and HARDENING switches off what
  // could run a program with those credentials in its environment. Every other guard stays on.
  // The same for the driver programs driverOverrides empties: the checks refuse any value for them, even none.
  const withDrivers = (drivers: Array<[string, string]>): GitSettings => {
    const config = [['http.extraheader', header], ...HARDENING, ...drivers, ...Object.entries(extraConfig)];
    const emptied = (kind: string) => drivers.some(([k]) => k.startsWith(`${kind}.`));
    const unsafe: UnsafeAllowed = {
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
      allowUnsafeFilter: emptied('filter'),
      allowUnsafeDiffTextConv: emptied('diff'),
      allowUnsafeDiffExternal: emptied('diff'),
      allowUnsafeMergeDriver: emptied('merge'),
    };
    const vars = {
      ...base,
      GIT_CONFIG_COUNT: String(config.length),
      ...Object.fromEntries(
        config.flatMap(([k, v], i) => [
          [`GIT_CONFIG_KEY_${i}`, k],
          [`GIT_CONFIG_VALUE_${i}`, v],
        ]),
      ),
      GIT_AUTHOR_NAME: identity.name,
      GIT_AUTHOR_EMAIL: identity.email,
      GIT_COMMITTER_NAME: identity.name,
      GIT_COMMITTER_EMAIL: identity.email,
    };
    return { vars, allowed: unsafe };
  };
  // Listed while the job goes on (a git process of its own): every command waits for the list.
  const settings = (pin?.made ?? Promise.resolve()).then(() => driverOverrides(dir, base)).then(withDrivers);
  return new GitProcess(dir, settings, pin ? pinCheck(pin) : undefined);
}

/** Before every command of a pinned client: the git folder must still be the one it was. */
function pinCheck({ gitDir, made }: GitPin): () => Promise<void> {
  // A folder being made is pinned as soon as it is made, not at the first command: one swapped in meanwhile (while
  // the drivers are listed, say) would be pinned in its place. Its commands wait for it (the settings do).
  // Not made, or gone already: undefined, which no folder matches (the settings report a failed `git init`).
  const expected = made ? made.then(() => identityOf(gitDir)).catch(() => undefined) : identityOf(gitDir);
  return async () => {
    const pinned = await expected;
    const s = await stat(gitDir).catch(() => undefined);
    if (!s || `${s.dev}:${s.ino}` !== pinned) {
      throw new Error(`the git folder ${gitDir} was replaced or removed while crew worked (a tool's doing?); crew's git does not follow it, and stops here`);
    }
  };
}

/**
 * A push GitHub refused by rule, not by a race: a repository ruleset (GH013, e.g. required
 * signatures or restricted creation on crew/*) or branch protection (GH006). Retrying cannot help,
 * so the error says which rule and what a person can change. Undefined for any other failure.
 */
export function pushRefusedByRule(e: unknown, ref: string): Error | undefined {
  const why = ruleViolation(String(e instanceof Error ? e.message : e));
  if (why === undefined) return undefined;
  return new Error(
    `GitHub refused crew's push to ${ref}: a repository ruleset or branch protection covers that branch (${why}). ` +
      'crew pushes only to crew/* branches; exclude crew/** from that rule, or let the token crew uses bypass it, then comment `/crew resume`.',
    { cause: e },
  );
}

/**
 * What GitHub said when a rule refused a push (a ruleset's GH013, branch protection's GH006), in one
 * line: its first line and the rules it names after it ("- Commits must have verified signatures.",
 * "- Cannot delete this branch", "error: Cannot delete this protected branch"). Undefined when no
 * rule refused it.
 */
export function ruleViolation(text: string): string | undefined {
  if (!/\bGH0(06|13)\b|repository rule violations|protected branch hook declined/i.test(text)) return undefined;
  const lines = text.split('\n').map((l) => l.replace(/^\s*remote:\s*/, '').trim());
  const first = lines.findIndex((l) => /GH0(06|13)|rule violations|protected branch/i.test(l));
  const rules = lines.slice(first + 1).filter((l) => /^- |^error: /.test(l) && !/failed to push/.test(l));
  return [lines[first] ?? '', ...rules].join(' ').slice(0, 400);
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
    // Every message crew writes is inert: a task title, a summary or a resolver's explanation in it is model text.
    await writeFile(file, inertGit(message), { mode: 0o600 });
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
export async function readFileAtCommit(git: Git, ref: string, path: string): Promise<string | undefined> {
  const listed = await git.raw(['ls-tree', '--name-only', ref, '--', path]);
  return listed.trim() ? git.raw(['show', `${ref}:${path}`]) : undefined;
}
