import { createServer, type AddressInfo } from 'node:net';

/** A loopback port nothing listens on now (bound to 0, then closed): for a service a test starts, since other tests run beside it. */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as AddressInfo).port;
  await new Promise((ok) => s.close(ok));
  return port;
}
