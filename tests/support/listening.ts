import { readdir, readFile, readlink } from 'node:fs/promises';

/**
 * The sockets this process listens on, read from Linux's /proc (proc(5): /proc/net/unix, /proc/net/tcp,
 * /proc/self/fd), as `unix <path>` or `tcp <address>`. What a job left listening shows as what is here
 * after it and was not before: crew's egress proxy (a Unix socket and a loopback port) and the bridges
 * to `network.services` (Unix sockets) are found whether or not anything in crew still holds them.
 */
export async function listeningSockets(): Promise<Set<string>> {
  const mine = new Set<string>();
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) mine.add(inode);
  }
  const found = new Set<string>();
  // Num RefCount Protocol Flags Type St Inode Path; Flags 00010000 is __SO_ACCEPTCON, a socket that listens.
  for (const line of (await readFile('/proc/net/unix', 'utf8')).split('\n').slice(1)) {
    const [, , , flags, , , inode, path] = line.trim().split(/\s+/);
    if (flags === '00010000' && inode && mine.has(inode) && path) found.add(`unix ${path}`);
  }
  // sl local_address rem_address st …; st 0A is LISTEN, the inode is the tenth column.
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A' && cols[9] && mine.has(cols[9])) found.add(`tcp ${cols[1]}`);
    }
  }
  return found;
}

/** What listens now that did not in `before`. */
export async function listeningSince(before: Set<string>): Promise<string[]> {
  return [...(await listeningSockets())].filter((s) => !before.has(s)).sort();
}
