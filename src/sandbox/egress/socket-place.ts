import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where crew's egress proxy puts its Unix socket: the one place that decides it (the sandbox's route
 * gets the path from the proxy, never builds it).
 *
 * A socket's address holds at most 107 bytes of path on Linux (`sun_path` is 108 with its NUL,
 * unix(7)); 103 on macOS. Node before 23 cuts a longer path short without a word and binds whatever
 * the cut leaves (maybe outside the private folder); Node 23 and later, as GitHub's `node24` runs
 * actions, refuse it with EINVAL (nodejs/node#52347). A runner's temporary folder can be any depth, so
 * the socket never goes there: it goes in a fresh folder (`mkdtemp`: random name, `0700`, crew's user's)
 * in the machine's temporary folder, or in /tmp when that one is too deep.
 */
export const SOCKET_PATH_MAX = process.platform === 'darwin' ? 103 : 107;

const FOLDER = 'crew-egress-';
const SOCKET = 'proxy.sock';
/** What mkdtemp adds to the prefix. */
const RANDOM = 6;

/** Makes the socket's private folder; the socket is `socket` in it. Throws, naming the folders tried, when none is short enough. */
export function makeEgressSocketPlace(): Promise<{ dir: string; socket: string }> {
  return makeSocketPlace(FOLDER, SOCKET);
}

/** The same for another of crew's sockets (a service's bridge, #51): a fresh private folder `<prefix>XXXXXX`, and `name` in it. */
export async function makeSocketPlace(prefix: string, name: string): Promise<{ dir: string; socket: string }> {
  const fits = (base: string) => Buffer.byteLength(join(base, prefix)) + RANDOM + 1 + name.length <= SOCKET_PATH_MAX;
  const bases = [...new Set([tmpdir(), '/tmp'])];
  const base = bases.find(fits);
  if (!base) throw new Error(`no folder short enough for crew's socket ${name} (tried ${bases.join(', ')}; a socket path holds ${SOCKET_PATH_MAX} bytes)`);
  const dir = await mkdtemp(join(base, prefix));
  return { dir, socket: join(dir, name) };
}

/** Socket folders still in use: removed when the process exits (local mode runs many jobs in one process; a self-hosted runner keeps /tmp). */
const live = new Set<string>();
process.once('exit', () => {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
});

/** Removes `dir` when the process exits, unless the returned function is called first (its owner removed it). */
export function removedAtExit(dir: string): () => void {
  live.add(dir);
  return () => void live.delete(dir);
}
