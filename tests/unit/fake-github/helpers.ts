import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { onTestFinished } from 'vitest';
import { FIXTURE_IDENTITY, git, tryGit, type GitResult } from '../../support/git-cli';
import type { FakeGitHub, FakeGitHubOptions, GitHubEvent } from '../../support/github/fake-github';
import { fakeGitHubForTest } from '../../support/github/for-test';

export const README = '# widgets\n';

/** A workflow on the default branch that declares `workflow_dispatch` inputs. */
export const CREW_WORKFLOW = `name: crew
on:
  workflow_dispatch:
    inputs:
      issue:
        description: Issue number
        required: true
      mode:
        type: choice
        options: [route, work]
        default: route
      note:
        required: false
  issue_comment:
    types: [created]
permissions:
  contents: write
jobs:
  crew:
    runs-on: ubuntu-latest
    steps:
      - run: echo hi
`;

/** A workflow that other events start, but not workflow_dispatch. */
export const CI_WORKFLOW = `name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: echo test
`;

export const DEFAULT_FILES: Record<string, string> = {
  'README.md': README,
  'src/app.ts': 'export const answer = 42;\n',
  '.github/workflows/crew.yml': CREW_WORKFLOW,
  '.github/workflows/ci.yml': CI_WORKFLOW,
};

/**
 * Starts a fake GitHub for the current test (tests/support/github/for-test.ts), with the
 * files above. When the test finishes the fake is closed, its folder removed, and the test
 * fails if any OpenAPI violation is left: a test that sends a bad request on purpose asserts
 * and clears them with `takeViolations`.
 */
export async function fakeForTest(options: Partial<Omit<FakeGitHubOptions, 'root'>> = {}): Promise<FakeGitHub> {
  return (await fakeGitHubForTest({ prefix: 'fake-gh-test-', files: DEFAULT_FILES, ...options })).gh;
}

/** Returns the violations recorded so far and forgets them. */
export function takeViolations(gh: FakeGitHub): string[] {
  return gh.violations.splice(0, gh.violations.length);
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

const PagingOctokit = Octokit.plugin(paginateRest);

/** The real Octokit (with pagination, as crew's client has it), pointed at the fake. */
export function octokitFor(gh: FakeGitHub, token?: string): InstanceType<typeof PagingOctokit> {
  return new PagingOctokit({ baseUrl: gh.url, ...(token ? { auth: token } : {}), request: { retries: 0 }, log: quiet });
}

export const repoOf = (gh: FakeGitHub) => ({ owner: gh.owner, repo: gh.repoName });

/** Runs a call that must fail, and returns the error's status, message and response. */
export async function failure(
  p: Promise<unknown>,
): Promise<{ status: number; message: string; data: any; headers: Record<string, string | number | undefined> }> {
  try {
    await p;
  } catch (e) {
    const err = e as { status?: number; message?: string; response?: { data?: unknown; headers?: Record<string, string | number | undefined> } };
    return { status: err.status ?? -1, message: err.message ?? String(e), data: err.response?.data, headers: err.response?.headers ?? {} };
  }
  throw new Error('expected the request to fail, but it succeeded');
}

/** Collects every event the fake emits. */
export function recordEvents(gh: FakeGitHub): GitHubEvent[] {
  const events: GitHubEvent[] = [];
  const stop = gh.onEvent((e) => events.push(e));
  onTestFinished(stop);
  return events;
}

// ---- git -------------------------------------------------------------------------------

export const basicHeader = (token: string) => `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;

/** A working folder removed when the test finishes. */
export async function tempDir(prefix = 'fake-gh-work-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs git with no user configuration and no credential helpers, so only the given token can authenticate. */
export function gitIn(cwd: string | undefined, args: string[], token?: string): Promise<GitResult> {
  const auth = token ? ['-c', `http.extraheader=${basicHeader(token)}`] : [];
  return tryGit(['-c', 'credential.helper=', '-c', 'protocol.version=2', ...auth, ...args], {
    cwd,
    env: { ...FIXTURE_IDENTITY, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_ASKPASS: '', SSH_ASKPASS: '' },
  });
}

/** Clones the fake's repository with a token and returns the working folder. */
export async function cloneWith(gh: FakeGitHub, token: string): Promise<string> {
  const dir = join(await tempDir('fake-gh-clone-'), 'repo');
  const r = await gitIn(undefined, ['clone', '--quiet', gh.cloneUrl, dir], token);
  if (r.code !== 0) throw new Error(`clone failed: ${r.stderr}`);
  return dir;
}

/** Writes files in a clone and commits them; returns the new commit's sha. */
export async function commitFiles(dir: string, files: Record<string, string>, message: string): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const env = { ...FIXTURE_IDENTITY, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  await git(['add', '-A'], { cwd: dir, env });
  await git(['commit', '--quiet', '-m', message], { cwd: dir, env });
  return (await git(['rev-parse', 'HEAD'], { cwd: dir, env })).trim();
}

/**
 * Commits files straight into the fake's bare repository (no HTTP) and points `branch`
 * at the commit, forced, starting from `from` (default: the default branch). Returns its sha.
 */
export async function seedBranch(
  gh: FakeGitHub,
  branch: string,
  files: Record<string, string>,
  opts: { from?: string; message?: string } = {},
): Promise<string> {
  return gh.repo.writeCommit({ branch, files, from: opts.from ?? gh.defaultBranch, message: opts.message ?? `Change on ${branch}` });
}

/** Git's view of a branch in the fake's bare repository. */
export async function bareSha(gh: FakeGitHub, ref: string): Promise<string | undefined> {
  return gh.repo.resolve(ref.startsWith('refs/') ? ref : `refs/heads/${ref}`);
}
