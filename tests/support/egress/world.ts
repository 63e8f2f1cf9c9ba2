import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import * as dnsPacket from 'dns-packet';

/**
 * The internet as model-written code meets it in the offline world: named hosts (plain HTTP servers
 * on port 80 of addresses of their own in 127.0.0.0/8) and a DNS resolver on loopback that answers
 * for those names and nothing else. crew's egress proxy is pointed at the resolver with
 * CREW_EGRESS_RESOLVER, so it finds an allowed registry by the name a lockfile uses. The resolver
 * and every host record what reached them. Binding port 80 needs root, as the sandbox tests do.
 */
export interface Reached {
  method: string;
  url: string;
  host: string;
  body: string;
  /** The TLS server name the request came in under, on a CDN edge's port 443. */
  sni?: string;
}

/**
 * A CDN edge: one address that serves several of the world's names, as Cloudflare serves the npm
 * registry and Fastly serves PyPI, RubyGems and Maven Central. It picks the site by the `Host` header
 * on port 80 and by the TLS server name on port 443 (a self-signed certificate for all its names,
 * made with `openssl` when the world starts), and records every connection that reached it.
 */
export interface CdnEdge {
  address: string;
  connections: Array<{ port: 80 | 443 }>;
}

export interface WorldHost {
  name: string;
  address: string;
  reached: Reached[];
}

export interface EgressWorld {
  /** `127.0.0.1:<port>` of the resolver: CREW_EGRESS_RESOLVER. */
  resolver: string;
  /** Every name the resolver was asked for, in order. */
  queries: string[];
  hosts: Map<string, WorldHost>;
  /** The CDN edge, when the world has one (`startEgressWorld`'s `cdn`). */
  edge?: CdnEdge;
  env: Record<string, string>;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A registry that serves one package's tarball, as npm ci fetches it from the lockfile's `resolved`. */
export const LEFT_PAD_TGZ = readFileSync(join(__dirname, 'left-pad-lite-1.0.0.tgz'));
export const npmRegistry: Handler = (req, _body, res) => {
  if (req.method === 'GET' && req.url === '/left-pad-lite/-/left-pad-lite-1.0.0.tgz') {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': LEFT_PAD_TGZ.length });
    res.end(LEFT_PAD_TGZ);
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"error":"Not found"}');
};

/** A host that takes whatever it is sent (an attacker's collector). */
export const collector: Handler = (_req, _body, res) => {
  res.writeHead(204);
  res.end();
};

/** A host that serves one text for any GET. */
export const serving =
  (text: string): Handler =>
  (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

/** Reads a request's body, records it on `host`, then hands it to `handle`. */
function recording(host: WorldHost, handle: Handler, req: IncomingMessage, res: ServerResponse, sni?: string): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    host.reached.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '', body, ...(sni ? { sni } : {}) });
    handle(req, body, res);
  });
}

/** Binds `server` to `port` on a free address of its own in 127/8 (other tests on the machine may hold the port elsewhere there). */
async function listenSomewhere(server: Server, port: number, what: string, address?: string): Promise<string> {
  for (let tries = 0; ; tries++) {
    const at = address ?? `127.${randomInt(100, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, at, () => resolve(true));
    });
    if (ok) return at;
    if (address || tries > 20) throw new Error(`no free port ${port} in 127.0.0.0/8 for ${what}`);
  }
}

/** A certificate and key for `names`, made by openssl for this test run only. */
function selfSigned(names: string[]): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'egress-world-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=cdn-edge.test',
        '-addext',
        `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `cdn`: names served by one CDN edge (ports 80 and 443 of one address) rather than each on an address of its own. */
export async function startEgressWorld(named: Record<string, Handler>, opts: { cdn?: string[] } = {}): Promise<EgressWorld> {
  const hosts = new Map<string, WorldHost>();
  const servers: Server[] = [];
  const onEdge = new Set(opts.cdn ?? []);
  for (const [name, handle] of Object.entries(named)) {
    const host: WorldHost = { name, address: '', reached: [] };
    hosts.set(name, host);
    if (onEdge.has(name)) continue;
    const server = createServer((req, res) => recording(host, handle, req, res));
    host.address = await listenSomewhere(server, 80, name);
    servers.push(server);
  }
  let edge: CdnEdge | undefined;
  if (onEdge.size) {
    const connections: CdnEdge['connections'] = [];
    // The edge picks the site as a CDN does: by Host on port 80, by the TLS server name on 443.
    const site = (name: string | undefined) => (name && onEdge.has(name.toLowerCase()) ? hosts.get(name.toLowerCase()) : undefined);
    const misdirected = (res: ServerResponse) => {
      res.writeHead(421);
      res.end('no such site on this edge');
    };
    const plain = createServer((req, res) => {
      const host = site(req.headers.host?.replace(/:\d+$/, ''));
      if (!host) return misdirected(res);
      recording(host, named[host.name]!, req, res);
    });
    plain.on('connection', () => connections.push({ port: 80 }));
    const secure = createHttpsServer(selfSigned([...onEdge]), (req, res) => {
      const sni = (req.socket as TLSSocket).servername || undefined;
      const host = site(sni);
      if (!host) return misdirected(res);
      recording(host, named[host.name]!, req, res, sni);
    });
    secure.on('connection', () => connections.push({ port: 443 }));
    const address = await listenSomewhere(plain, 80, 'the CDN edge');
    await listenSomewhere(secure, 443, 'the CDN edge', address);
    servers.push(plain, secure);
    for (const name of onEdge) hosts.get(name)!.address = address;
    edge = { address, connections };
  }

  const queries: string[] = [];
  const udp = createSocket('udp4');
  udp.on('message', (msg, from) => {
    let q: dnsPacket.Packet;
    try {
      q = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const question = q.questions?.[0];
    if (!question) return;
    queries.push(question.name.toLowerCase());
    const host = hosts.get(question.name.toLowerCase());
    const answer = dnsPacket.encode({
      id: q.id,
      type: 'response',
      // RD echoed, RA set; rcode 3 (NXDOMAIN) for a name the world does not have.
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (host ? 0 : 3),
      questions: [question],
      answers: host && question.type === 'A' ? [{ type: 'A', class: 'IN', name: question.name, ttl: 5, data: host.address }] : [],
    });
    udp.send(answer, from.port, from.address);
  });
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const resolver = `127.0.0.1:${udp.address().port}`;
  return {
    resolver,
    queries,
    hosts,
    ...(edge ? { edge } : {}),
    env: { CREW_EGRESS_RESOLVER: resolver },
    close: async () => {
      udp.close();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
