import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gitRepo } from '../../../src/adapters/git/git-repo';
import { gitClient } from '../../../src/adapters/git/git-client';
import { searchTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import { syntaxCheckFor } from '../../../src/agents/syntax-check';
import { prepareSandbox, prepareUserNamespace } from '../../../src/sandbox/command-runner';
import { ownGit, ownPath, ownProgram } from '../../../src/sandbox/own-programs';
import { pathFolderWarnings } from '../../../src/sandbox/path-folders';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';
import { restoreEnv } from '../../support/process-env';

/**
 * crew's own programs (git, python3) run outside the sandbox with crew's secrets in reach: a program model-written
 * code planted in a PATH folder it can write (the checkout's `node_modules/.bin`, crew's temporary folder, a folder
 * every user can write) must never run as crew, whatever PATH says.
 */
describe("crew's own programs come only from PATH folders model-written code cannot write", () => {
  let dir: string;
  let ws: string;
  let planted: string;
  let open: string;
  const saved = { ...process.env };

  /** A program `name` in `folder` that leaves a mark, then does nothing. */
  const plant = async (folder: string, name: string) => {
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, name), `#!/bin/sh\necho "${folder}/${name} $*" >> '${join(dir, 'ran')}'\nexit 0\n`, { mode: 0o755 });
  };
  const ran = () => readFile(join(dir, 'ran'), 'utf8').catch(() => '');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'own-programs-'));
    ws = join(dir, 'ws');
    await mkdir(ws);
    await git(['init', '-q', '-b', 'main'], { cwd: ws });
    await writeFile(join(ws, 'a.txt'), 'a\n');
    await git(['add', '-A'], { cwd: ws });
    await git(['commit', '-qm', 'first'], { cwd: ws, env: FIXTURE_IDENTITY });
    planted = join(ws, 'node_modules', '.bin');
    for (const name of ['git', 'python3', 'tar', 'find', 'chmod']) await plant(planted, name);
    // A folder outside the checkout that every user (the tool user among them) can write.
    open = join(dir, 'open-bin');
    await plant(open, 'git');
    await chmod(open, 0o777);
  });
  afterEach(async () => {
    restoreEnv(saved);
    await rm(join(dir, 'ran'), { force: true });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('git, tar and find: a program in the checkout or in a folder every user can write is passed over for the one in a trusted folder; git runs with only the trusted folders on its PATH', async () => {
    process.env.GITHUB_WORKSPACE = ws;
    process.env.PATH = `${planted}:${open}:${saved.PATH}`;
    expect(ownGit()).not.toMatch(new RegExp(`^(${planted}|${open})/`));
    expect(ownPath().split(':')).not.toContain(planted);
    expect(ownPath().split(':')).not.toContain(open);
    // crew's git client (its driver listing, then the command) and the working copy's base checkout.
    expect((await gitClient(ws, 'token').raw(['rev-parse', 'HEAD'])).trim()).toMatch(/^[0-9a-f]{40}$/);
    const { repo } = gitRepo(ws, ws, 'token');
    await repo.checkoutCopy('HEAD', join(dir, 'copy'));
    expect(await readFile(join(dir, 'copy', 'a.txt'), 'utf8')).toBe('a\n');
    // The reviewed copy for MCP servers: git archive, then tar and find (which runs chmod) of crew's own.
    await mkdir(join(dir, 'export'));
    await repo.exportCommit('HEAD', join(dir, 'export'));
    expect(await readFile(join(dir, 'export', 'a.txt'), 'utf8')).toBe('a\n');
    expect(await ran()).toBe('');
  });

  it("the agents' search tool runs crew's git, never the checkout's", async () => {
    process.env.GITHUB_WORKSPACE = ws;
    process.env.PATH = `${planted}:${saved.PATH}`;
    expect(await searchTool(new PathJail(ws), 10_000).run({ pattern: '^a$' })).toMatch(/a\.txt:1:a/);
    expect(await ran()).toBe('');
  });

  it("python3 for the syntax check: the checkout's is never run", async () => {
    process.env.GITHUB_WORKSPACE = ws;
    process.env.PATH = `${planted}:${saved.PATH}`;
    const python = ownProgram('python3');
    expect(python ?? '').not.toContain(planted);
    const result = await syntaxCheckFor('x.py')!.check('def f(:\n');
    // Where the machine has a python3 in a trusted folder the check runs; where it has none, there is no check.
    if (python) expect(result).toMatchObject({ ok: false });
    else expect(result).toBeUndefined();
    expect(await ran()).toBe('');
  });

  it("the sandbox's own programs, which crew starts as itself (unshare, sudo, setpriv, mount, useradd, chown, cp), are never the checkout's", async () => {
    const programs = ['unshare', 'sudo', 'setpriv', 'mount', 'sh', 'bash', 'useradd', 'chown', 'chmod', 'cp', 'rm', 'ip'];
    for (const name of programs) await plant(planted, name);
    process.env.GITHUB_WORKSPACE = ws;
    process.env.PATH = `${planted}:${saved.PATH}`;
    for (const prepare of [prepareSandbox, prepareUserNamespace]) {
      const prepared = await prepare(ws, join(dir, `temp-${prepare.name}`));
      if (!('runner' in prepared)) throw new Error(`${prepare.name}: the sandbox did not start: ${prepared.reason}`);
      const r = await prepared.runner.run('echo inside', { cwd: ws, timeoutMs: 20_000, maxOutputBytes: 10_000 });
      expect(r.output.trim(), prepare.name).toBe('inside');
    }
    expect(await ran()).toBe('');
  }, 60_000);

  it("crew's own temporary folder (RUNNER_TEMP) and a relative PATH entry are passed over too", async () => {
    const temp = join(dir, 'runner-temp');
    await plant(join(temp, 'bin'), 'git');
    process.env.RUNNER_TEMP = temp;
    process.env.PATH = `${join(temp, 'bin')}:.:${saved.PATH}`;
    expect(ownGit()).not.toContain(temp);
    expect(ownPath().split(':')).not.toContain('.');
  });

  it('with git only in folders crew does not trust, git fails with a message that names them, why, and what to do', () => {
    process.env.GITHUB_WORKSPACE = ws;
    process.env.PATH = `${planted}:${open}`;
    expect(() => ownGit()).toThrow(
      new RegExp(
        `crew found no git.*${planted.replace(/[.]/g, '\\.')} \\(it is inside ${ws}, which the sandbox's commands write\\).*${open} \\(it is writable by every user.*Install git in a folder only root or crew's user can write`,
      ),
    );
  });

  it('the job log still names a PATH folder inside the checkout: the later steps of the workflow run what is planted there', () => {
    const said = pathFolderWarnings(`${planted}:/usr/bin`, ws);
    expect(said).toEqual([expect.stringMatching(/PATH folder .* is inside the checkout.*crew's own git and python3 never come from it.*later steps/)]);
  });
});
