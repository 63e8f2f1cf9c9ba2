import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, onTestFinished } from 'vitest';
import { FakeGitHub, type FakeGitHubOptions } from './fake-github';

/**
 * The fake GitHub's setup and teardown for tests, written once: a fresh temporary folder
 * (the fake's repositories in `<dir>/gh`, the rest of the folder for the test's own clones),
 * the fake started in it, and at the end the fake closed, the folder removed, and the test
 * failed if the fake recorded a request or response that breaks GitHub's OpenAPI description.
 * A test that sends a bad request on purpose asserts and clears `gh.violations` itself.
 */
export interface FakeGitHubSetup extends Partial<Omit<FakeGitHubOptions, 'root'>> {
  /** Start of the temporary folder's name, to tell leftovers apart. */
  prefix?: string;
  /** Points the Octokit crew builds (GITHUB_API_URL) at the fake, and puts the variable back after. */
  apiUrl?: boolean;
}

export interface FakeGitHubWorld {
  gh: FakeGitHub;
  /** The temporary folder: the fake lives in `gh/` under it; the rest is the test's. */
  dir: string;
}

async function start(setup: FakeGitHubSetup): Promise<FakeGitHubWorld & { stop(): Promise<void> }> {
  const { prefix = 'fake-gh-', apiUrl = false, ...options } = setup;
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const gh = await FakeGitHub.start({ files: { 'README.md': 'hi\n' }, ...options, root: join(dir, 'gh') });
  const savedApiUrl = process.env.GITHUB_API_URL;
  if (apiUrl) process.env.GITHUB_API_URL = gh.url;
  return {
    gh,
    dir,
    async stop() {
      if (apiUrl) {
        if (savedApiUrl === undefined) delete process.env.GITHUB_API_URL;
        else process.env.GITHUB_API_URL = savedApiUrl;
      }
      await gh.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const noViolations = (gh: FakeGitHub) => expect(gh.violations, 'OpenAPI violations left by the test').toEqual([]);

/** A fake GitHub for the current test, from inside the test or a `beforeEach`: torn down when the test finishes. */
export async function fakeGitHubForTest(setup: FakeGitHubSetup = {}): Promise<FakeGitHubWorld> {
  const world = await start(setup);
  onTestFinished(async () => {
    try {
      noViolations(world.gh);
    } finally {
      await world.stop();
    }
  });
  return world;
}

/**
 * One fake GitHub for every test of the current suite (`beforeAll`/`afterAll`), read through
 * the returned object once the suite has started.
 */
export function fakeGitHubForSuite(setup: FakeGitHubSetup = {}): FakeGitHubWorld {
  let world: (FakeGitHubWorld & { stop(): Promise<void> }) | undefined;
  const started = () => {
    if (!world) throw new Error('the suite’s fake GitHub is read before its beforeAll ran');
    return world;
  };
  beforeAll(async () => {
    world = await start(setup);
  });
  afterAll(async () => {
    if (!world) return;
    try {
      noViolations(world.gh);
    } finally {
      await world.stop();
    }
  });
  return {
    get gh() {
      return started().gh;
    },
    get dir() {
      return started().dir;
    },
  };
}
