import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSandbox, type CommandRunner } from '../../../src/sandbox/command-runner';
import { git } from '../../support/git-cli';

const CANARIES = {
  ANTHROPIC_API_KEY: 'sk-ant-canary-0123456789abcdef',
  GITHUB_TOKEN: 'ghs_canary0123456789abcdef0123456789',
  INPUT_GITHUB_TOKEN: 'ghs_canaryinput0123456789abcdef0123',
  ACTIONS_RUNTIME_TOKEN: 'canary-actions-runtime-0123456789',
};
/** Runs a command the way crew does in a job: from a process whose initial environment holds the secrets. */
async function probe(mode: 'sandboxed' | 'unsandboxed', workspace: string, temp: string, command: string): Promise<string> {
  const script = join(__dirname, '..', '..', 'support', 'sandbox', 'probe.ts');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, mode, workspace, temp, command], {
    env: { ...process.env, ...CANARIES },
    maxBuffer: 10_000_000,
  });
  return stdout;
}

const PROBE =
  'env; echo ---; cat /proc/$PPID/environ; echo; cat /proc/1/environ; echo; for p in /proc/[0-9]*; do cat $p/environ 2>/dev/null; done; echo; git config -l; cat .git/config; ls /proc';

describe('run_command’s sandbox, for real (this machine runs as root, so the tool user and namespaces exist)', () => {
  let dir: string;
  let workspace: string;
  let sandbox: CommandRunner;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-'));
    workspace = join(dir, 'ws');
    await mkdir(workspace);
    await git(['init', '--quiet', workspace]);
    // What actions/checkout leaves when persist-credentials is on: the token in .git/config. crew runs with it off, but prove even this stays out of reach.
    await git(['config', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${CANARIES.GITHUB_TOKEN}`], { cwd: workspace });
    await writeFile(join(workspace, 'README.md'), 'hello\n');
    const prepared = await prepareSandbox(workspace, dir);
    if (!('runner' in prepared)) throw new Error(`sandbox unavailable: ${prepared.reason}`);
    sandbox = prepared.runner;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const run = (cmd: string, runner = sandbox, timeoutMs = 20_000) => runner.run(cmd, { cwd: workspace, timeoutMs, maxOutputBytes: 200_000 });

  it('no canary secret is visible: not in the environment, not through /proc of the parent or any process, not in git config', async () => {
    const out = await probe('sandboxed', workspace, dir, PROBE);
    for (const [name, value] of Object.entries(CANARIES)) expect(out, name).not.toContain(value);
    expect(out).toContain('PATH=');
    expect(out).toContain('HOME=');
    expect(out).toContain('repositoryformatversion');
  });

  it('keeps .git out of reach: its config (with a planted token) cannot be read, its hooks cannot be written', async () => {
    const r = await run('cat .git/config; touch .git/hooks/post-checkout && echo WROTE-HOOK');
    expect(r.output).not.toContain(CANARIES.GITHUB_TOKEN);
    expect(r.output).not.toContain('WROTE-HOOK');
  });

  it('sees only its own processes and runs as the unprivileged tool user, without sudo', async () => {
    const r = await run('id -un; ls /proc | grep -c "^[0-9]"; sudo -n true 2>&1 || echo no-sudo');
    const [user, count] = r.output.trim().split('\n');
    expect(user).toBe('crew-tool');
    expect(Number(count)).toBeLessThan(10);
    expect(r.output).toMatch(/no-sudo/);
  });

  it('has no network, not even loopback to a server on this machine', async () => {
    const server = createServer((_, res) => res.end('reached'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const r = await run(`(exec 3<>/dev/tcp/127.0.0.1/${port} && echo CONNECTED) 2>&1 || echo BLOCKED`);
    server.close();
    expect(r.output).toContain('BLOCKED');
    expect(r.output).not.toContain('CONNECTED');
  });

  it('can work in the checkout: read, write, run the project’s commands', async () => {
    const r = await run('cat README.md && echo new > made-by-tool.txt && git status --porcelain');
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('hello');
    expect(r.output).toContain('made-by-tool.txt');
  });

  it('stops a command at its timeout and caps its output', async () => {
    const slow = await run('sleep 30', sandbox, 500);
    expect(slow.timedOut).toBe(true);
    const loud = await sandbox.run('yes x | head -c 100000', { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 1000 });
    expect(loud.truncated).toBe(true);
    expect(loud.output.length).toBeLessThan(1200);
  });

  it('without the sandbox, the scrubbed environment alone does not hide the parent’s secrets (why it is off by default)', async () => {
    const out = await probe('unsandboxed', workspace, dir, PROBE);
    // env is scrubbed...
    expect(out.split('---')[0]).not.toContain(CANARIES.ANTHROPIC_API_KEY);
    // ...but /proc/$PPID/environ gives the parent's away, and .git/config its token: the probe above would see a leak.
    expect(out).toContain(CANARIES.ANTHROPIC_API_KEY);
    expect(out).toContain(CANARIES.GITHUB_TOKEN);
  });
});

describe('when the sandbox cannot be set up', () => {
  it('says why, instead of running commands unprotected', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nosandbox-'));
    const bin = join(dir, 'bin');
    await mkdir(bin);
    // A machine without util-linux's unshare: every other tool is there.
    const { symlink } = await import('node:fs/promises');
    for (const tool of ['id', 'useradd', 'chown', 'chmod', 'find', 'git', 'sh', 'bash']) {
      for (const d of ['/usr/bin', '/usr/sbin', '/bin', '/sbin']) {
        try {
          await symlink(join(d, tool), join(bin, tool));
          break;
        } catch {
          /* not in this folder */
        }
      }
    }
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      const prepared = await prepareSandbox(dir, dir);
      expect('reason' in prepared && prepared.reason).toMatch(/the sandbox did not start \(could not start the command: spawn unshare ENOENT\)/);
    } finally {
      process.env.PATH = saved;
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('opening the workspace to the tool user', () => {
  it('never follows a symbolic link in the checkout to a file outside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'symlink-ws-'));
    const outside = join(dir, 'outside.txt');
    await writeFile(outside, 'secret\n', { mode: 0o600 });
    const ws = join(dir, 'ws');
    await mkdir(ws);
    await git(['init', '--quiet', ws]);
    const { symlink, stat } = await import('node:fs/promises');
    await symlink(outside, join(ws, 'link-to-outside'));
    await symlink('/usr/bin/git', join(ws, 'link-to-system'));
    try {
      const prepared = await prepareSandbox(ws, dir);
      expect('runner' in prepared).toBe(true);
      expect((await stat(outside)).mode & 0o777).toBe(0o600);
      expect((await stat('/usr/bin/git')).mode & 0o777).toBe(0o755);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
