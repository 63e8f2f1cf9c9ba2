import { Resolver, lookup as systemLookup, type LookupAddress } from 'node:dns';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect, isIP, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestError, Server } from 'proxy-chain';
import { hostAllowed, MAX_COUNTED_HOSTS, normaliseHost, OTHER_HOSTS, type Refusals } from '../../domain/egress';

/**
 * crew's egress proxy: an HTTP proxy (CONNECT for HTTPS, absolute-URI requests for plain HTTP) that
 * lets through only the hosts on the allowlist, resolves their names itself, and counts every request
 * it refuses by host. It runs in crew's own process, as crew's user, outside the sandbox. The sandbox
 * reaches it only through a Unix socket (network namespaces do not separate those): a forwarder inside
 * the sandbox's namespace listens on 127.0.0.1 there and hands each connection to the socket.
 *
 * The proxy part is proxy-chain (Apify's maintained Node proxy server). proxy-chain drops connections
 * that have no remote address, which a Unix socket's have not, so the socket is a thin bridge to
 * proxy-chain listening on crew's own loopback, where the sandbox cannot reach it directly.
 */
export interface EgressProxy {
  /** The Unix socket the sandbox's forwarder connects to (in a folder only crew's user, and root, can enter). */
  readonly socket: string;
  readonly allow: readonly string[];
  /** Requests refused so far, by host. */
  refused(): Refusals;
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  allow: readonly string[];
  /** Where the socket's folder goes (RUNNER_TEMP in a job). */
  tempDir: string;
  /**
   * The DNS server the proxy asks (`host:port`), instead of the machine's resolver: set from
   * CREW_EGRESS_RESOLVER, which the offline world's tests point at a resolver they run on loopback.
   */
  resolver?: string;
  /** One line per refused request, for the job's log. */
  onRefused?: (host: string, port: number, how: 'CONNECT' | 'HTTP') => void;
}

/** IPv4 169.254/16 and IPv6 fe80::/10: cloud metadata endpoints live there, and no registry does. */
function linkLocal(address: string): boolean {
  return isIP(address) === 4 ? address.startsWith('169.254.') : /^fe[89ab][0-9a-f]:/i.test(address);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `dns.lookup` for the proxy's connections: the machine's resolver or the given server; never a link-local address. */
function lookupFor(server: string | undefined) {
  const resolver = server ? new Resolver() : undefined;
  resolver?.setServers([server!]);
  return (hostname: string, options: { all?: boolean } | number, callback: LookupCallback) => {
    const all = typeof options === 'object' && options.all === true;
    const done = (err: NodeJS.ErrnoException | null, found: LookupAddress[]) => {
      if (err) return callback(err, all ? [] : '');
      const usable = found.filter((a) => !linkLocal(a.address));
      if (!usable.length) {
        const e: NodeJS.ErrnoException = new Error(`${hostname} has no address crew's egress proxy connects to (link-local addresses are refused)`);
        e.code = 'ENOTFOUND';
        return callback(e, all ? [] : '');
      }
      if (all) callback(null, usable);
      else callback(null, usable[0]!.address, usable[0]!.family);
    };
    if (!resolver) systemLookup(hostname, { all: true }, (e, found) => done(e, found ?? []));
    else
      resolver.resolve4(hostname, (e, found) =>
        done(
          e,
          (found ?? []).map((address) => ({ address, family: 4 })),
        ),
      );
  };
}

export async function startEgressProxy(opts: EgressProxyOptions): Promise<EgressProxy> {
  const refused: Refusals = {};
  const dnsLookup = lookupFor(opts.resolver);
  const proxy = new Server({
    port: 0,
    host: '127.0.0.1',
    verbose: false,
    prepareRequestFunction: ({ hostname, port, isHttp }) => {
      const host = normaliseHost(hostname);
      if (!hostAllowed(opts.allow, host)) {
        const key = host in refused || Object.keys(refused).length < MAX_COUNTED_HOSTS ? host : OTHER_HOSTS;
        refused[key] = (refused[key] ?? 0) + 1;
        opts.onRefused?.(host, port, isHttp ? 'HTTP' : 'CONNECT');
        // Checked before any lookup: a refused name is never resolved, so names cannot carry data out through DNS either.
        const refusal = new RequestError(
          `crew's egress allowlist refused ${host}: model-written code reaches only the allowed hosts. If the repository needs it, add it to network.allow in .github/crew.yml.`,
          403,
        );
        // proxy-chain recognises its error by name, and a bundler may rename the class (ncc makes it `request_error_RequestError`).
        refusal.name = 'RequestError';
        throw refusal;
      }
      return { dnsLookup: dnsLookup as never };
    },
  });
  await proxy.listen();
  const dir = await socketDir(opts.tempDir);
  const socket = join(dir, 'proxy.sock');
  const bridge: NetServer = createServer((client) => {
    const upstream = connect(proxy.port, '127.0.0.1');
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    bridge.once('error', reject);
    bridge.listen(socket, () => resolve());
  });
  // The job's process must still end when its work is done: neither listener keeps it alive.
  bridge.unref();
  (proxy.server as NetServer).unref();
  let closed = false;
  live.add(dir);
  return {
    socket,
    allow: opts.allow,
    refused: () => ({ ...refused }),
    close: async () => {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => bridge.close(() => resolve()));
      await proxy.close(true).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
      live.delete(dir);
    },
  };
}

/** Socket folders of proxies still open: removed when the process exits (local mode runs many jobs in one process). */
const live = new Set<string>();
process.once('exit', () => {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
});

/** A fresh 0700 folder for the socket; a Unix socket's path must stay under 108 bytes, so a long temp dir gives way to /tmp. */
async function socketDir(tempDir: string): Promise<string> {
  const base = join(tempDir, 'crew-egress-').length > 80 ? tmpdir() : tempDir;
  return mkdtemp(join(base, 'crew-egress-'));
}
