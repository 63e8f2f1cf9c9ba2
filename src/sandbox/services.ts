import { rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { serviceKey, type ServiceAddress } from '../domain/sandbox-reach';
import { makeSocketPlace, removedAtExit } from './egress/socket-place';

/**
 * The services the repository's setup steps started on the runner's loopback (#51), carried into the
 * sandbox's own network namespace, which has no way to the runner's loopback: for each address that
 * `network.services` names, crew listens on a Unix socket in a private folder (0700, crew's user, as the
 * egress proxy's socket: socket-place.ts) and connects each connection to that address, and only that
 * one, on the runner. The sandbox's forwarder (egress/route.ts) listens on the same address inside the
 * namespace and hands connections to the socket. No other port of the runner is reachable, and the
 * bridge never reads or changes what passes.
 */
export interface ServiceRoute {
  address: ServiceAddress;
  /** The bridge's socket, in crew's private folder; the sandbox sees it at sandboxServiceSocket(i). */
  socket: string;
}

export interface ServiceBridges {
  routes: readonly ServiceRoute[];
  /** The addresses that refused a connection crew made for a command (nothing listened on the runner), since the bridges started. */
  refused(): string[];
  close(): Promise<void>;
}

/** Starts one bridge per address; closes what it opened and throws when one cannot start. */
export async function startServiceBridges(addresses: readonly ServiceAddress[]): Promise<ServiceBridges> {
  const opened: Array<{ server: Server; dir: string; sockets: Set<Socket>; kept: () => void }> = [];
  const refused = new Set<string>();
  const close = async () => {
    await Promise.all(
      opened.map(async (o) => {
        for (const s of o.sockets) s.destroy();
        await new Promise<void>((done) => o.server.close(() => done()));
        await rm(o.dir, { recursive: true, force: true });
        o.kept();
      }),
    );
  };
  const routes: ServiceRoute[] = [];
  try {
    for (const address of addresses) {
      const place = await makeSocketPlace('crew-service-', 'bridge.sock');
      const sockets = new Set<Socket>();
      const server = createServer((inside) => {
        const outside = connect({ host: address.host, port: address.port });
        for (const s of [inside, outside]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
        }
        outside.on('error', (e: NodeJS.ErrnoException) => {
          if (e.code === 'ECONNREFUSED') refused.add(serviceKey(address));
          inside.destroy();
        });
        inside.on('error', () => outside.destroy());
        inside.pipe(outside);
        outside.pipe(inside);
      });
      // The job's tools close the bridges (toolbox/sandbox-setup.ts, dispose); a process that ends first removes their folders on its way out.
      opened.push({ server, dir: place.dir, sockets, kept: removedAtExit(place.dir) });
      await new Promise<void>((ok, fail) => {
        server.once('error', fail);
        server.listen(place.socket, () => ok());
      });
      // The bridge keeps no job alive on its own: the step's end is crew's to decide (end-after-step.ts).
      server.unref();
      routes.push({ address, socket: place.socket });
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { routes, refused: () => [...refused], close };
}
