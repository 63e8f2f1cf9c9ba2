import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Octokit } from '@octokit/core';
import type { PlatformProfile } from '../../support/latency';
import { FakeGitHub } from '../../support/github/fake-github';
import { WorkflowRunner, type JobRun, type KillPoint, type RunnerOptions, type WorkflowRun } from '../../support/runner/workflow-runner';

/** One offline world: a fake GitHub holding `files`, a runner listening to it, and a scratch folder. */
export interface World {
  gh: FakeGitHub;
  runner: WorkflowRunner;
  /** Scratch folder for action folders and files the probes write. */
  dir: string;
  /** An Octokit acting as the repository owner (admin). */
  owner: Octokit;
  as(login: string): Octokit;
  /** Dispatches a workflow the way a person would (REST, with a user token). */
  dispatch(file: string, inputs?: Record<string, string>): Promise<void>;
  /**
   * Waits for every run, then checks nothing went wrong inside the runner or the fake. With `denials`,
   * 401/403 answers the OpenAPI description does not list are expected (tests that probe token scopes).
   */
  settle(opts?: { denials?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export interface WorldOptions {
  files: Record<string, string>;
  /** Action folders by name, or a function that builds them in the scratch folder. */
  actions?: Record<string, string> | ((dir: string) => Promise<Record<string, string>>);
  secrets?: Record<string, string>;
  /** Runner-machine environment, or a function of the scratch folder that gives it. */
  env?: Record<string, string> | ((dir: string) => Record<string, string>);
  killPoints?: KillPoint[];
  timeScale?: number;
  jobTimeScale?: number;
  maxConcurrentJobs?: number;
  onLog?: RunnerOptions['onLog'];
  profile?: PlatformProfile;
  /** The runner's OIDC token service and artifact service, as RunnerOptions takes them. */
  oidc?: RunnerOptions['oidc'];
  artifacts?: RunnerOptions['artifacts'];
}

export async function startWorld(opts: WorldOptions): Promise<World> {
  const dir = await mkdtemp(join(tmpdir(), 'crew-runner-test-'));
  const gh = await FakeGitHub.start({
    root: join(dir, 'github'),
    files: opts.files,
    ...(opts.profile ? { latency: opts.profile, timeScale: opts.timeScale ?? 0.01 } : {}),
  });
  const actions = typeof opts.actions === 'function' ? await opts.actions(dir) : (opts.actions ?? {});
  const runner = new WorkflowRunner({
    gh,
    workRoot: join(dir, 'runner'),
    actions,
    secrets: opts.secrets ?? {},
    env: typeof opts.env === 'function' ? opts.env(dir) : opts.env,
    timeScale: opts.timeScale ?? 0.01,
    ...(opts.jobTimeScale ? { jobTimeScale: opts.jobTimeScale } : {}),
    killPoints: opts.killPoints,
    maxConcurrentJobs: opts.maxConcurrentJobs,
    onLog: opts.onLog,
    ...(opts.profile ? { latency: opts.profile } : {}),
    ...(opts.oidc ? { oidc: opts.oidc } : {}),
    ...(opts.artifacts ? { artifacts: opts.artifacts } : {}),
  });
  const clients = new Map<string, Octokit>();
  const as = (login: string) => {
    let c = clients.get(login);
    if (!c) clients.set(login, (c = new Octokit({ auth: gh.userToken(login), baseUrl: gh.url, request: { retries: 0 } })));
    return c;
  };
  const owner = as(gh.owner);
  return {
    gh,
    runner,
    dir,
    owner,
    as,
    async dispatch(file, inputs = {}) {
      await owner.request('POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
        owner: gh.owner,
        repo: gh.repoName,
        workflow_id: file,
        ref: gh.defaultBranch,
        inputs,
      });
    },
    async settle(o = {}) {
      await runner.idle();
      if (runner.errors.length) throw new Error(`runner errors:\n${runner.errors.join('\n')}`);
      const violations = gh.violations.filter((v) => !(o.denials && /^response .* 40[13]: status 40[13] is not documented/.test(v)));
      if (violations.length) throw new Error(`fake GitHub violations:\n${violations.join('\n')}`);
    },
    async close() {
      runner.stop();
      await gh.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Writes a JavaScript action: `action.yml` declaring `inputs` (name → default, or undefined for none),
 * with `main.mjs` holding `source`. Returns the folder.
 */
export async function writeAction(
  root: string,
  name: string,
  source: string,
  inputs: Record<string, string | undefined> = {},
  using = 'node20',
): Promise<string> {
  const dir = join(root, 'actions', name);
  await mkdir(dir, { recursive: true });
  const lines = [`name: ${name}`, `description: test probe ${name}`];
  if (Object.keys(inputs).length) {
    lines.push('inputs:');
    for (const [k, d] of Object.entries(inputs)) {
      lines.push(`  ${k}:`, `    description: ${k}`);
      if (d !== undefined) lines.push(`    default: ${JSON.stringify(d)}`);
    }
  }
  lines.push('runs:', `  using: ${using}`, '  main: main.mjs', '');
  await writeFile(join(dir, 'action.yml'), lines.join('\n'));
  await writeFile(join(dir, 'main.mjs'), source);
  return dir;
}

/** Shared snippet for probes: `out(name, value)` appends a (possibly multi-line) output. */
export const OUT = `
import { appendFileSync } from 'node:fs';
const out = (name, value) => appendFileSync(process.env.GITHUB_OUTPUT, name + '<<EOF_' + name + '\\n' + value + '\\nEOF_' + name + '\\n');
`;

/** A workflow file that runs on workflow_dispatch, with the given jobs YAML (indented under `jobs:`). */
export function workflow(jobs: string, extra = ''): string {
  return `name: test\non:\n  workflow_dispatch:\n${extra}jobs:\n${jobs}`;
}

export function onlyRun(runner: WorkflowRunner): WorkflowRun {
  if (runner.runs.length !== 1) throw new Error(`expected exactly one run, got ${runner.runs.length}`);
  return runner.runs[0]!;
}

export function job(run: WorkflowRun, id: string): JobRun {
  const found = run.jobs.filter((j) => j.id === id);
  if (found.length !== 1) throw new Error(`expected one job '${id}', got ${found.length}: ${run.jobs.map((j) => j.name).join(', ')}`);
  return found[0]!;
}

export function legs(run: WorkflowRun, id: string): JobRun[] {
  return run.jobs.filter((j) => j.id === id);
}

export async function readLines(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}
