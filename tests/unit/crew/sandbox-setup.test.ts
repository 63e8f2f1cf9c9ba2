import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommandTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import { DEFAULT_DENY } from '../../../src/config/schema';
import type { Log, WorkingCopy } from '../../../src/ports';
import type { CommandRunner } from '../../../src/sandbox/command-runner';
import { DEFAULT_NETWORK } from '../../../src/toolbox/egress';
import { commandRunner, prepareTools } from '../../../src/toolbox/sandbox-setup';
import { git } from '../../support/git-cli';
import { listeningSince, listeningSockets } from '../../support/listening';

describe('run_command when the sandbox cannot be set up (commandRunner)', () => {
  let ws: string;
  const warnings: string[] = [];
  const log: Log = { info: () => undefined, warn: (m) => void warnings.push(m), checkpoint: () => undefined };
  const REASON = 'crew is not root and has no passwordless sudo, so it cannot create the tool user or its namespaces';
  const noSandbox = async () => ({ reason: REASON });
  const ctx = () => ({ repo: { dir: ws } as WorkingCopy, log });
  const tool = (r: { runner?: CommandRunner; warning: string | null }) =>
    runCommandTool(new PathJail(ws), {
      runner: r.runner,
      unavailable: r.warning ?? undefined,
      policy: { allow: [], deny: DEFAULT_DENY },
      timeoutMs: 10_000,
      maxOutputBytes: 10_000,
    });

  beforeAll(async () => {
    ws = await mkdtemp(join(tmpdir(), 'sandbox-setup-'));
  });
  afterAll(async () => {
    await rm(ws, { recursive: true, force: true });
  });

  it('refuses by default, loudly in the log, and tells the model why when it calls run_command', async () => {
    warnings.length = 0;
    const refused = await commandRunner(ctx(), { allow_unsandboxed: false, network: DEFAULT_NETWORK }, [noSandbox]);
    expect(refused).toEqual({ warning: `run_command was refused: no sandbox (${REASON})`, reason: REASON, dispose: expect.any(Function) });
    expect(warnings).toEqual([`No sandbox: ${REASON}. run_command is refused; set allow_unsandboxed: true in .github/crew.yml to run commands without one.`]);
    await expect(Promise.resolve(tool(refused).run({ command: 'echo hi' }))).rejects.toThrow(
      `run_command is not available in this run: run_command was refused: no sandbox (${REASON})`,
    );
  });

  it('with allow_unsandboxed, runs commands unsandboxed with a scrubbed environment, and says so', async () => {
    warnings.length = 0;
    process.env.GITHUB_TOKEN_CANARY_FOR_TEST = 'ghs_canary_must_not_show';
    try {
      const allowed = await commandRunner(ctx(), { allow_unsandboxed: true, network: DEFAULT_NETWORK }, [noSandbox]);
      expect(allowed.runner!.sandboxed).toBe(false);
      expect(allowed.warning).toBe(`commands ran without a sandbox (${REASON})`);
      expect(warnings).toEqual([
        `No sandbox: ${REASON}. allow_unsandboxed is on, so ${allowed.runner!.description}. egress: open (no sandbox): model-written code has the runner's network, unfiltered.`,
      ]);
      expect(warnings[0]).toContain('NOT sandboxed');
      const out = await tool(allowed).run({ command: 'echo "token=${GITHUB_TOKEN_CANARY_FOR_TEST:-none}"' });
      expect(out).toBe('exit code 0\ntoken=none\n');
    } finally {
      delete process.env.GITHUB_TOKEN_CANARY_FOR_TEST;
    }
  });
});

describe('setup (config `setup:`): trusted only on the base commit (prepareTools)', () => {
  let ws: string;
  let temp: string;
  const warnings: string[] = [];
  const infos: string[] = [];
  const log: Log = { info: (m) => void infos.push(m), warn: (m) => void warnings.push(m), checkpoint: () => undefined };
  const ctx = () => ({ repo: { dir: ws } as WorkingCopy, log });
  const config = (setup: string[], allow = false) => ({ setup, command_timeout_seconds: 20, allow_unsandboxed: allow, network: DEFAULT_NETWORK });
  const noSandbox = async () => ({ reason: 'no sandbox on this runner' });

  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), 'prepare-tools-'));
    ws = join(temp, 'ws');
    await mkdir(ws);
    await git(['init', '--quiet', ws]);
  });
  afterAll(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  it('on a model-written tree with no sandbox, refuses setup: nothing runs, and the reason names allow_unsandboxed', async () => {
    warnings.length = 0;
    const marker = join(temp, 'setup-ran');
    const r = await prepareTools(ctx(), config([`touch ${marker}`]), { trusted: false }, [noSandbox]);
    expect(r.runner).toBeUndefined();
    expect(r.setupFailure).toBe(
      'the setup commands were refused: this tree holds model-written code, and run_command was refused: no sandbox (no sandbox on this runner); set allow_unsandboxed: true in .github/crew.yml to run them without one',
    );
    expect(warnings.at(-1)).toBe(r.setupFailure);
    await expect(stat(marker)).rejects.toThrow();
  });

  it('on a model-written tree with allow_unsandboxed, runs setup without a sandbox and says so', async () => {
    infos.length = 0;
    const r = await prepareTools(ctx(), config(['echo hi > from-setup.txt'], true), { trusted: false }, [noSandbox]);
    expect(r.setupFailure).toBeNull();
    expect(r.runner!.sandboxed).toBe(false);
    expect(r.warning).toBe('commands ran without a sandbox (no sandbox on this runner)');
    expect(infos).toContain('setup (on a model-written tree, WITHOUT a sandbox (allow_unsandboxed)): echo hi > from-setup.txt');
    expect(await readFile(join(ws, 'from-setup.txt'), 'utf8')).toBe('hi\n');
  });

  it('on the base commit, runs setup as crew’s user before the sandbox opens the tree; a failing command stops it with its output', async () => {
    infos.length = 0;
    const ok = await prepareTools(ctx(), config(['id -un > setup-user.txt']), { trusted: true }, [noSandbox]);
    expect(ok.setupFailure).toBeNull();
    expect(infos[0]).toBe('setup (on the base commit, outside the sandbox): id -un > setup-user.txt');
    expect((await readFile(join(ws, 'setup-user.txt'), 'utf8')).trim()).toBe(userInfo().username);
    const failed = await prepareTools(ctx(), config(['echo broken; exit 3', 'touch never']), { trusted: true }, [noSandbox]);
    expect(failed).toEqual({ warning: null, setupFailure: 'the setup command `echo broken; exit 3` exited with 3: broken', dispose: expect.any(Function) });
    await expect(stat(join(ws, 'never'))).rejects.toThrow();
  });

  it('a command the runner lacks (exit 127) points at the repository’s setup steps (#51)', async () => {
    const failed = await prepareTools(ctx(), config(['no-such-tool-crew-51 --version']), { trusted: true }, [noSandbox]);
    expect(failed.setupFailure).toMatch(/^the setup command `no-such-tool-crew-51 --version` exited with 127: .*not found/);
    expect(failed.setupFailure).toMatch(
      /A command was not found: install the tools and start the services crew's jobs need in your repository's setup steps, \.github\/actions\/crew-setup\/action\.yml \(docs\/workflow\.md\)$/,
    );
  });

  it('on a model-written tree with the real sandbox, runs setup as the tool user, out of sight of crew’s processes, with no way out but the egress proxy (egress.test.ts covers the allowlist)', async () => {
    const server = createServer((_, res) => res.end('reachable'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const r = await prepareTools(
        ctx(),
        config([
          `id -un > who.txt; ls /proc | grep -c '^[0-9]' > pids.txt; echo "$HTTPS_PROXY" > proxy.txt; node -e "fetch('http://127.0.0.1:${port}').then(() => 'REACHED', () => 'unreachable').then(t => require('fs').writeFileSync('net.txt', t))"`,
        ]),
        { trusted: false },
      );
      expect(r.setupFailure).toBeNull();
      expect(r.runner!.sandboxed).toBe(true);
      expect(r.egress!.mode).toBe('allowlist');
      expect((await readFile(join(ws, 'who.txt'), 'utf8')).trim()).toBe('crew-tool');
      expect(Number(await readFile(join(ws, 'pids.txt'), 'utf8'))).toBeLessThan(10);
      expect((await readFile(join(ws, 'proxy.txt'), 'utf8')).trim()).toBe('http://127.0.0.1:3128');
      // crew's own loopback is another namespace's: the server there is out of reach, proxy or not.
      expect(await readFile(join(ws, 'net.txt'), 'utf8')).toBe('unreachable');
      // The agents' own commands have no network, not even the proxy (network.tools: none).
      const agent = await r.runner!.run(
        `echo "proxy=$HTTPS_PROXY"; node -e "require('net').connect(3128, '127.0.0.1').on('connect', () => console.log('PROXY')).on('error', (e) => console.log(e.code))"`,
        {
          cwd: ws,
          timeoutMs: 20_000,
          maxOutputBytes: 10_000,
        },
      );
      expect(agent.output.trim().split('\n')).toEqual(['proxy=', 'ENETUNREACH']);
      await r.egress!.close();
    } finally {
      server.close();
    }
  });

  it('one dispose closes what the tools started: the egress proxy (its socket and its port) and the bridges to network.services', async () => {
    const service = createServer((_, res) => res.end('a service'));
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const before = await listeningSockets();
    try {
      const network = { ...DEFAULT_NETWORK, tools: 'allowlist' as const, services: [`127.0.0.1:${(service.address() as AddressInfo).port}`] };
      const r = await prepareTools(ctx(), { ...config(['true']), network }, { trusted: false, ownHome: true });
      expect(r.setupFailure).toBeNull();
      expect(r.egress!.mode).toBe('allowlist');
      const opened = await listeningSince(before);
      expect(opened.filter((s) => /\/crew-egress-[^/]+\/proxy\.sock$/.test(s))).toHaveLength(1);
      expect(opened.filter((s) => /\/crew-service-[^/]+\/bridge\.sock$/.test(s))).toHaveLength(1);
      expect(opened.filter((s) => s.startsWith('tcp '))).toHaveLength(1);
      await r.dispose();
      expect(await listeningSince(before)).toEqual([]);
      await expect(stat(r.home!.dir)).rejects.toThrow();
      // A second call (a `finally` after an earlier one) does nothing more.
      await r.dispose();
    } finally {
      service.close();
    }
  });

  it('a step that throws closes what had started: the egress proxy and the bridges to network.services', async () => {
    const service = createServer((_, res) => res.end('a service'));
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const before = await listeningSockets();
    try {
      const network = { ...DEFAULT_NETWORK, tools: 'allowlist' as const, services: [`127.0.0.1:${(service.address() as AddressInfo).port}`] };
      // The sandbox itself throws while it is prepared (commandRunner), or its first command cannot be run (the setup).
      const throwing = async () => {
        throw new Error('sandbox broke');
      };
      const brokenRun = async () => ({
        runner: {
          sandboxed: true,
          description: 'a sandbox whose commands cannot start',
          run: async () => {
            throw new Error('command broke');
          },
        } satisfies CommandRunner,
      });
      await expect(prepareTools(ctx(), { ...config(['true']), network }, { trusted: false }, [throwing])).rejects.toThrow('sandbox broke');
      expect(await listeningSince(before)).toEqual([]);
      await expect(prepareTools(ctx(), { ...config(['true']), network }, { trusted: false }, [brokenRun])).rejects.toThrow('command broke');
      expect(await listeningSince(before)).toEqual([]);
    } finally {
      service.close();
    }
  });
});
