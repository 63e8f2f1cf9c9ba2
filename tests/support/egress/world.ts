import { createSocket } from 'node:dgram';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

export async function startEgressWorld(named: Record<string, Handler>): Promise<EgressWorld> {
  const hosts = new Map<string, WorldHost>();
  const servers: Server[] = [];
  for (const [name, handle] of Object.entries(named)) {
    const host: WorldHost = { name, address: '', reached: [] };
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        host.reached.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '', body });
        handle(req, body, res);
      });
    });
    // A free address of its own: other tests on the machine may hold port 80 somewhere else in 127/8.
    for (let tries = 0; ; tries++) {
      const address = `127.${randomInt(100, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;
      const ok = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(80, address, () => resolve(true));
      });
      if (ok) {
        host.address = address;
        break;
      }
      if (tries > 20) throw new Error(`no free port 80 in 127.0.0.0/8 for ${name}`);
    }
    servers.push(server);
    hosts.set(name, host);
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
    env: { CREW_EGRESS_RESOLVER: resolver },
    close: async () => {
      udp.close();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
