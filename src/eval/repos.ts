import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/**
 * Where an instance's repository comes from, and the clone cache. A folder of mirrors
 * (`CREW_EVAL_MIRRORS`, each `<owner>+<name>` a bare repository or holding one as `repo`) is
 * read first; otherwise GitHub (`CREW_EVAL_GIT_BASE`, default https://github.com/). Each
 * repository is cloned once into the cache (bare) and every checkout shares its objects.
 */

export function mirrorOf(repo: string, mirrors: string | undefined): string | undefined {
  if (!mirrors) return undefined;
  const dir = join(mirrors, repo.replace('/', '+'));
  for (const candidate of [join(dir, 'repo'), dir]) if (existsSync(join(candidate, 'HEAD')) && existsSync(join(candidate, 'objects'))) return candidate;
  return undefined;
}

export function sourceOf(repo: string, env: NodeJS.ProcessEnv = process.env, mirrors = env.CREW_EVAL_MIRRORS): string {
  return mirrorOf(repo, mirrors) ?? `${(env.CREW_EVAL_GIT_BASE ?? 'https://github.com/').replace(/\/?$/, '/')}${repo}.git`;
}

export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CREW_EVAL_CACHE ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'crew', 'eval-clones');
}

export async function git(args: string[], cwd?: string, timeoutMs = 600_000): Promise<string> {
  try {
    const r = await exec('git', ['-c', 'advice.detachedHead=false', '-c', 'core.hooksPath=/dev/null', ...args], {
      cwd,
      timeout: timeoutMs,
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
    return r.stdout;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`git ${args.slice(0, 2).join(' ')} failed: ${(err.stderr || err.message).trim().split('\n').slice(-3).join(' ')}`);
  }
}

export class CloneCache {
  private readonly busy = new Map<string, Promise<string>>();
  constructor(
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly mirrors = env.CREW_EVAL_MIRRORS,
  ) {}

  /** The cached bare clone of `repo` holding `commits`, fetched again once when one is missing. */
  bare(repo: string, commits: string[]): Promise<string> {
    const prev = this.busy.get(repo) ?? Promise.resolve('');
    const next = prev.catch(() => '').then(() => this.ensure(repo, commits));
    this.busy.set(repo, next);
    return next;
  }

  private async ensure(repo: string, commits: string[]): Promise<string> {
    const path = join(this.dir, `${repo.replace('/', '+')}.git`);
    const source = sourceOf(repo, this.env, this.mirrors);
    if (!existsSync(join(path, 'HEAD'))) {
      await mkdir(this.dir, { recursive: true });
      await rm(path, { recursive: true, force: true });
      await git(['clone', '--quiet', '--bare', source, path]);
    }
    const missing = async () => {
      const out: string[] = [];
      for (const c of commits) if (!(await has(path, c))) out.push(c);
      return out;
    };
    if ((await missing()).length) await git(['fetch', '--quiet', source, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], path);
    const still = await missing();
    if (still.length) throw new Error(`commit ${still.join(', ')} is not in ${repo} (${source})`);
    return path;
  }
}

async function has(repo: string, commit: string): Promise<boolean> {
  return git(['cat-file', '-e', `${commit}^{commit}`], repo).then(
    () => true,
    () => false,
  );
}

/** A fresh working copy at `commit`, on a branch of its own (crew's local mode works from a branch). */
export async function checkout(bare: string, commit: string, dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await git(['clone', '--quiet', '--shared', '--no-checkout', bare, dir]);
  await git(['checkout', '--quiet', '-B', 'eval-base', commit], dir);
  await git(['config', 'user.name', 'crew eval'], dir);
  await git(['config', 'user.email', 'crew-eval@localhost'], dir);
}

/** The diff from `base` to the working tree as it stands (new files included), in the form `git apply` and SWE-bench read. */
export async function patchFrom(dir: string, base: string): Promise<string> {
  await git(['add', '-A', '--', '.', ':(exclude).crew'], dir);
  return git(['diff', '--cached', '--binary', '--no-color', '--no-ext-diff', base, '--', '.', ':(exclude).crew'], dir);
}

/** A file as committed at `sha`, or undefined where it is not there. */
export function fileAt(dir: string, sha: string, path: string): Promise<string | undefined> {
  return git(['show', `${sha}:${path}`], dir).catch(() => undefined);
}
