import { Resolver, lookup as systemLookup, type LookupAddress } from 'node:dns';
import { EventEmitter } from 'node:events';
import { rm } from 'node:fs/promises';
import { createServer, connect, isIP, type Server as NetServer, type Socket } from 'node:net';
import { RequestError, Server } from 'proxy-chain';
import { hostAllowed, MAX_COUNTED_HOSTS, normaliseHost, OTHER_HOSTS, type Refusals } from '../../domain/egress';
import { ACCESS_DENIED_ALERT, readClientHello } from './client-hello';
import { makeEgressSocketPlace, removedAtExit } from './socket-place';

/**
 * crew's egress proxy: an HTTP proxy (CONNECT for HTTPS, absolute-URI requests for plain HTTP) that
 * lets through only the hosts on the allowlist, resolves their names itself, and counts every request
 * it refuses by host. It checks what it forwards, not only where: a plain request's `Host` header must
 * name its target, and a tunnel's TLS ClientHello must name the CONNECT line's host (a CDN edge picks
 * the site by those, so an allowed registry's address would otherwise reach any site on its CDN). It runs in crew's own process, as crew's user, outside the sandbox. The sandbox
 * reaches it only through a Unix socket (network namespaces do not separate those): a forwarder inside
 * the sandbox's namespace listens on 127.0.0.1 there and hands each connection to the socket.
 *
 * The proxy part is proxy-chain (Apify's maintained Node proxy server). proxy-chain drops connections
 * that have no remote address, which a Unix socket's have not, so the socket is a thin bridge to
 * proxy-chain listening on crew's own loopback, where the sandbox cannot reach it directly.
 */
export interface EgressProxy {
  /** The Unix socket the sandbox's forwarder connects to (in a folder only crew's user, and root, can enter: socket-place.ts). */
  readonly socket: string;
  readonly allow: readonly string[];
  /** Requests refused so far, by host. */
  refused(): Refusals;
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  allow: readonly string[];
  /**
   * The DNS server the proxy asks (`host:port`), instead of the machine's resolver: set from
   * CREW_EGRESS_RESOLVER, which the offline world's tests point at a resolver they run on loopback.
   */
  resolver?: string;
  /**
   * One line per refused request, for the job's log. `named`: the request went to an allowed host but
   * named another site (its `Host` header, or its tunnel's TLS server name), or named none.
   */
  onRefused?: (host: string, port: number, how: 'CONNECT' | 'HTTP', named?: string) => void;
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
  /** Counts a refusal under `key` (the host, or `named (via host)` when a request names another site than its target). */
  const count = (key: string) => {
    const k = key in refused || Object.keys(refused).length < MAX_COUNTED_HOSTS ? key : OTHER_HOSTS;
    refused[k] = (refused[k] ?? 0) + 1;
  };
  const refuse = (host: string, port: number, how: 'CONNECT' | 'HTTP', named?: string): RequestError => {
    count(named === undefined ? host : viaKey(named, host));
    opts.onRefused?.(host, port, how, named);
    const refusal = new RequestError(
      named === undefined
        ? `crew's egress allowlist refused ${host}: model-written code reaches only the allowed hosts. If the repository needs it, add it to network.allow in .github/crew.yml.`
        : `crew's egress proxy refused a request to ${host}: ${named.startsWith('(') ? named.slice(1, -1) : `its Host header names ${named}`}. A request must name the host it is sent to, in one Host header.`,
      403,
    );
    // proxy-chain recognises its error by name, and a bundler may rename the class (ncc makes it `request_error_RequestError`).
    refusal.name = 'RequestError';
    return refusal;
  };
  const proxy = new Server({
    port: 0,
    host: '127.0.0.1',
    verbose: false,
    prepareRequestFunction: ({ hostname, port, isHttp, request }) => {
      const host = normaliseHost(hostname);
      // Checked before any lookup: a refused name is never resolved, so names cannot carry data out through DNS either.
      if (!hostAllowed(opts.allow, host)) throw refuse(host, port, isHttp ? 'HTTP' : 'CONNECT');
      if (isHttp) {
        // An edge that serves many sites picks one by Host: the request must name the host it goes to, once.
        const named = otherHostNamed(request.rawHeaders, host, port);
        if (named !== undefined) throw refuse(host, port, 'HTTP', named);
        return { dnsLookup: dnsLookup as never };
      }
      return {
        customConnectServer: tunnelChecker(host, port, dnsLookup, (named) => {
          count(viaKey(named, host));
          opts.onRefused?.(host, port, 'CONNECT', named);
        }) as never,
      };
    },
  });
  let place: { dir: string; socket: string } | undefined;
  let bridge: NetServer | undefined;
  /** The sandbox's connections: closing the proxy ends them (a client's idle keep-alive would otherwise hold the close up). */
  const open = new Set<Socket>();
  try {
    await proxy.listen();
    // The job's process must still end when its work is done: neither listener keeps it alive.
    (proxy.server as NetServer).unref();
    place = await makeEgressSocketPlace();
    const listening = createServer((client) => {
      open.add(client);
      client.on('close', () => open.delete(client));
      const upstream = connect(proxy.port, '127.0.0.1');
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    bridge = listening;
    listening.unref();
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(place!.socket, () => resolve());
    });
  } catch (e) {
    // A proxy that does not start leaves nothing behind: no listener, no folder (a job would otherwise wait for them).
    bridge?.close();
    await proxy.close(true).catch(() => undefined);
    if (place) await rm(place.dir, { recursive: true, force: true });
    throw e;
  }
  const { dir, socket } = place;
  let closed = false;
  const kept = removedAtExit(dir);
  return {
    socket,
    allow: opts.allow,
    refused: () => ({ ...refused }),
    close: async () => {
      if (closed) return;
      closed = true;
      const closing = new Promise<void>((resolve) => bridge!.close(() => resolve()));
      for (const c of open) c.destroy();
      await closing;
      await proxy.close(true).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
      kept();
    },
  };
}

/** How a request that names another site than its target (or none) is counted and listed: both names, or the host and why. */
function viaKey(named: string, host: string): string {
  return named.startsWith('(') ? `${host} ${named}` : `${named} (via ${host})`;
}

/** A name a request chose, as the log and the pull request show it: a host name, or a note (it may be any text). */
function shownName(name: string): string {
  const n = normaliseHost(name);
  return /^[a-z0-9_.:-]{1,253}$/.test(n) ? n : '(a name that is not a host name)';
}

/**
 * The host a plain request's `Host` header names when it is not its target (`host:port` of the
 * absolute URI), or `(no Host header)` / `(n Host headers)`; undefined when it names the target once.
 * The raw headers, since proxy-chain forwards every one of them.
 */
function otherHostNamed(rawHeaders: readonly string[], host: string, port: number): string | undefined {
  const hosts: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') hosts.push(rawHeaders[i + 1] ?? '');
  if (hosts.length !== 1) return hosts.length ? `(${hosts.length} Host headers)` : '(no Host header)';
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(hosts[0]!.trim());
  const named = normaliseHost(m?.[1] ?? hosts[0]!);
  if (m && named === host && (m[2] === undefined || Number(m[2]) === port)) return undefined;
  return named ? shownName(named) : '(an empty Host header)';
}

/**
 * What crew's proxy hands an allowed CONNECT to (proxy-chain's `customConnectServer`: it answers 200,
 * then emits the client's socket here). The tunnel is relayed only once its ClientHello names the
 * CONNECT line's host; anything else (another name, no name, an encrypted ClientHello, bytes that are
 * not TLS, nothing within HELLO_WAIT_MS) is refused before the target is even connected to.
 */
function tunnelChecker(host: string, port: number, dnsLookup: ReturnType<typeof lookupFor>, onRefused: (named: string) => void): EventEmitter {
  const server = new EventEmitter();
  server.on('connection', (client: Socket) => {
    let buffered = Buffer.alloc(0);
    const refuse = (named: string) => {
      finish();
      onRefused(named);
      client.end(ACCESS_DENIED_ALERT);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const verdict = readClientHello(buffered);
      if (verdict.kind === 'more') return;
      if (verdict.kind === 'refused') return refuse(`(${verdict.why})`);
      if (verdict.encryptedHello) return refuse('(an encrypted ClientHello)');
      // No name at all: the edge then picks a site by what comes later, inside TLS, where crew cannot look.
      if (verdict.serverName === null) return refuse('(no TLS server name)');
      const named = normaliseHost(verdict.serverName);
      if (named !== host) return refuse(shownName(named));
      finish();
      relay(client, buffered, host, port, dnsLookup);
    };
    const timer = setTimeout(() => refuse('(no ClientHello in time)'), HELLO_WAIT_MS);
    timer.unref();
    const finish = () => {
      clearTimeout(timer);
      client.off('data', onData);
      client.pause();
    };
    client.on('error', () => finish());
    client.on('close', () => clearTimeout(timer));
    client.on('data', onData);
  });
  return server;
}

/** How long a tunnel may take to send its ClientHello. */
const HELLO_WAIT_MS = 15_000;

/** Connects to the allowed target (by crew's own lookup) and relays both ways, starting with the ClientHello read. */
function relay(client: Socket, first: Buffer, host: string, port: number, dnsLookup: ReturnType<typeof lookupFor>): void {
  const target = connect({ host, port, lookup: dnsLookup as never });
  target.on('connect', () => {
    target.write(first);
    client.pipe(target);
    target.pipe(client);
    client.resume();
  });
  target.on('error', () => client.destroy());
  client.on('error', () => target.destroy());
  target.on('close', () => client.destroy());
  client.on('close', () => target.destroy());
}
