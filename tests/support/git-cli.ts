import { spawn } from 'node:child_process';

/** Identity and dates for commits the offline world makes itself, so runs are repeatable. */
export const FIXTURE_IDENTITY = {
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.com',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.com',
};

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs git and resolves with its exit code; never throws for a non-zero exit. */
export function tryGit(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: opts.cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...opts.env },
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    if (opts.input !== undefined) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(opts.input);
    }
  });
}

export async function git(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<string> {
  const r = await tryGit(args, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed (${r.code}): ${r.stderr.trim() || r.stdout.trim()}`);
  return r.stdout;
}

/** A fresh checkout of `main` in `workspace`, as actions/checkout leaves it: one commit deep, no credentials kept. */
export async function checkoutMain(workspace: string, cloneUrl: string, token: string): Promise<void> {
  const auth = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  await git(['init', '--quiet', '-b', 'main', workspace]);
  await git(['-c', `http.extraheader=${auth}`, 'fetch', '--quiet', '--depth=1', cloneUrl, '+refs/heads/main:refs/remotes/origin/main'], { cwd: workspace });
  await git(['checkout', '--quiet', '-B', 'main', 'refs/remotes/origin/main'], { cwd: workspace });
}
