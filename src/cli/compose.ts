// The `crew` command's composition: what its commands build from the process and the person's machine (the
// project, local mode's adapters, the model, standard input). The commands' modules (run, inspect, eval, doctor,
// init) get them from here; only src/cli/ and src/main.ts build adapters.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { buildModel, roleSaying, type ModelSetupProblem } from '../adapters/anthropic/build-model';
import { LocalForge } from '../adapters/local/forge';
import { projectFileAt, projectGit, repositoryTop } from '../adapters/local/project-git';
import { LocalStateStore, processAlive } from '../adapters/local/state-store';
import { createWorktree } from '../adapters/local/worktree';
import { ScriptedModel } from '../adapters/scripted/model';
import { CONFIG_PATH, type Config } from '../config/schema';
import { localRunOfBranch, runsDir } from '../domain/local-runs';
import { runNumbersOf, UsageError, type Project } from '../local/workspace';
import type { LocalAdapters, Model, ModelFailover } from '../ports';
import { SECRET_VARIABLES } from '../sandbox/cloud-credentials';
import { addSecret } from '../text/redact';

/** `OWNER/NAME` from a remote's URL (https://github.com/o/n.git, git@github.com:o/n.git, or any host's last two path parts). */
function repoOfUrl(url: string): string | undefined {
  const m = /[:/]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url.trim());
  return m ? `${m[1]}/${m[2]}` : undefined;
}

export async function originRepo(dir: string): Promise<string | undefined> {
  const top = await repositoryTop(dir).catch(() => undefined);
  if (!top) return undefined;
  const url = await projectGit(top)
    .raw(['remote', 'get-url', 'origin'])
    .catch(() => '');
  return repoOfUrl(url);
}

/** The repository a local run works on; a clear error when `--project` is not one. */
export async function openProject(dir: string): Promise<Project> {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`--project ${dir}: no such folder. Pass the folder of a git repository (the default is the current folder).`);
  const top = await repositoryTop(dir);
  if (!top)
    throw new UsageError(`${dir} is not inside a git repository. crew works on a repository's last commit: run \`git init\` and commit your files first.`);
  const git = projectGit(top);
  const head = (await git.raw(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => '')).trim();
  if (!head) throw new UsageError(`the repository at ${top} has no commits yet. crew works from the last commit: commit your files first.`);
  const branch = (await git.raw(['symbolic-ref', '--short', '-q', 'HEAD']).catch(() => '')).trim() || undefined;
  const dirty = (await git.raw(['status', '--porcelain', '--untracked-files=no'])).trim() !== '';
  return { dir: top, branch, head, dirty };
}

/**
 * The next run number: past every run folder and every `crew/local-<N>/…` branch, so a new
 * run never picks up branches an earlier run left (say, after `.crew/` was deleted).
 */
export async function nextRunNumber(project: string): Promise<number> {
  const refs = await projectGit(project).raw(['for-each-ref', '--format=%(refname:short)', 'refs/heads/crew/']);
  const fromBranches = refs
    .split('\n')
    .map(localRunOfBranch)
    .filter((n): n is number => n !== undefined);
  return Math.max(0, ...fromBranches, ...(await runNumbersOf(project))) + 1;
}

/**
 * One crew process per run: a second `crew run --resume` of a run that is still going would
 * take its running tasks for dead and start them again. A holder that died leaves a stale claim.
 */
export async function claimRun(runDir: string): Promise<() => Promise<void>> {
  await mkdir(runDir, { recursive: true });
  const file = join(runDir, '.session');
  const holder = Number(await readFile(file, 'utf8').catch(() => ''));
  if (holder && holder !== process.pid && processAlive(holder))
    throw new UsageError(`this run is already going in another crew process (pid ${holder}). Wait for it, or stop it with Ctrl-C there.`);
  await writeFile(file, String(process.pid));
  return () => rm(file, { force: true });
}

/**
 * Local mode's adapters over the person's repository (the engine sees only the ports): the run
 * files under .crew/runs/, the forge at the terminal, and a git worktree per job.
 */
export function localAdapters(project: string, images: readonly string[]): LocalAdapters {
  return {
    state: new LocalStateStore(runsDir(project)),
    forge: (runDir, baseBranch, hooks) =>
      new LocalForge(runDir, project, baseBranch, {
        ...hooks,
        images,
        branchSha: async (b) => (await projectGit(project).raw(['rev-parse', `refs/heads/${b}`])).trim(),
      }),
    checkout: (dir, start) => createWorktree(project, dir, start),
    fileAt: (sha, path) => projectFileAt(project, sha, path),
  };
}

/**
 * The run's model: scripted replies, or the provider in force with the credentials of your own shell
 * (ANTHROPIC_API_KEY, your AWS or gcloud setup), failing over to `fallback_provider` when it is set
 * (once for the whole local run: one process). Failovers are added to `failovers`.
 */
export function localModel(scripted: string | undefined, config: Config, warn: (m: string) => void, failovers: ModelFailover[]): Promise<Model> | Model {
  if (scripted) return ScriptedModel.load(resolve(scripted));
  const key = process.env.ANTHROPIC_API_KEY || process.env.ANTHROPIC_AUTH_TOKEN;
  // A gateway's token may match no known key pattern: redact it by value, as the Action does.
  addSecret(key);
  // Amazon Bedrock or Vertex AI, with the credentials of your own AWS or gcloud setup.
  if ([config.provider, config.fallback?.provider].some((p) => p && p !== 'anthropic')) for (const name of SECRET_VARIABLES) addSecret(process.env[name]);
  const log = { info: () => undefined, warn, checkpoint: () => undefined };
  // `api_retry_wait_seconds` bounds each request's retries here as in the Action (main.ts).
  const retryWaitMs = async () => config.api_retry_wait_seconds * 1000;
  return buildModel(config, { anthropicKey: key, keyless: Boolean(process.env.ANTHROPIC_BASE_URL), log, retryWaitMs, problem: localModelProblem }, failovers);
}

/** What is missing for a provider, said for the person at the terminal. */
function localModelProblem(p: ModelSetupProblem): UsageError {
  const as = roleSaying(p, '');
  if (p.kind === 'provider-setup')
    return new UsageError(
      `${as}${p.missing} Set them in your shell (\`aws configure\` / \`gcloud auth application-default login\`), or set \`bedrock:\`/\`vertex:\` in ${CONFIG_PATH}.`,
    );
  return new UsageError(
    `${as}no model to talk to. Set ANTHROPIC_API_KEY (export ANTHROPIC_API_KEY=sk-ant-…), or ANTHROPIC_BASE_URL for an Anthropic-compatible gateway${as ? `, or remove fallback_provider from ${CONFIG_PATH}` : ', or try crew without a key: crew run … --scripted <replies.yaml>'}.`,
  );
}

/** Lines from standard input, one at a time; undefined once the input has ended. */
export function lineReader(): { next(): Promise<string | undefined>; close(): void } {
  const queue: string[] = [];
  const waiters: Array<(l: string | undefined) => void> = [];
  let ended = !process.stdin.readable;
  const rl = ended ? undefined : createInterface({ input: process.stdin, terminal: false });
  rl?.on('line', (l) => (waiters.length ? waiters.shift()!(l) : queue.push(l)));
  rl?.on('close', () => {
    ended = true;
    while (waiters.length) waiters.shift()!(undefined);
  });
  return {
    next: () => (queue.length ? Promise.resolve(queue.shift()) : ended ? Promise.resolve(undefined) : new Promise((r) => waiters.push(r))),
    close: () => rl?.close(),
  };
}
