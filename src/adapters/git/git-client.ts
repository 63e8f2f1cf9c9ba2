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
 * A simple-git client whose credentials and identity travel in the environment of
 * each git command (GIT_CONFIG_COUNT/KEY/VALUE), so nothing is ever written to
 * `.git/config` where an agent's tools could read it.
 */
export function gitClient(dir: string, token: string, identity: GitIdentity = ACTIONS_IDENTITY, extraConfig: Record<string, string> = {}): SimpleGit {
  const header = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  // Two flags simple-git calls unsafe, both set by crew itself and never from model text: credentials travel in
  // GIT_CONFIG_* so they never touch .git/config, and hooks are switched off so nothing an agent wrote into the
  // checkout runs with those credentials in its environment. Every other guard stays on.
  const extra = Object.entries(extraConfig).flatMap(([key, value], i) => [
    [`GIT_CONFIG_KEY_${i + 2}`, key],
    [`GIT_CONFIG_VALUE_${i + 2}`, value],
  ]);
  return simpleGit({ baseDir: dir, maxConcurrentProcesses: 1, trimmed: false, unsafe: { allowUnsafeConfigEnvCount: true, allowUnsafeHooksPath: true } }).env({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_COUNT: String(2 + Object.keys(extraConfig).length),
    GIT_CONFIG_KEY_0: 'http.extraheader',
    GIT_CONFIG_VALUE_0: header,
    GIT_CONFIG_KEY_1: 'core.hooksPath',
    GIT_CONFIG_VALUE_1: '/dev/null',
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
    ...Object.fromEntries(extra),
  });
}

export function isNonFastForward(e: unknown): boolean {
  const text = String(e instanceof Error ? e.message : e);
  return /non-fast-forward|fetch first|\[rejected\]|failed to update ref|cannot lock ref|stale info/i.test(text);
}
