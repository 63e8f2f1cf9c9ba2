import { lstat, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What lstat says of every entry of a checkout's work tree, and of the git files `git status` compares it with
 * (HEAD, the index, the branch refs): type, inode, size, modification and change times in nanoseconds. A file
 * written, replaced, renamed or removed changes one of them, since no user can set a change time (ctime) back: a
 * comparison of two fingerprints stands in for `git status` as long as the tree has not changed since the first.
 *
 * One case it cannot see: a change within the same tick of the filesystem's clock as the entry's last one, of the
 * same size, leaves every field as it was (git's "racy git" problem). So a fingerprint is taken only once every
 * entry's ctime is older than a marker file written before the walk, in `.git` (same filesystem, same clock):
 * any change after the walk gets a ctime no older than the marker's, so differs. If the clock does not move past the
 * newest entry within a few milliseconds (a filesystem with whole-second times), there is no fingerprint and the
 * caller asks git.
 */
export class TreeFingerprint {
  private constructor(
    private readonly dir: string,
    private readonly entries: Map<string, string>,
  ) {}

  /** The tree's fingerprint now, or undefined when its newest change is too recent to tell a later one from it. */
  static async take(dir: string): Promise<TreeFingerprint | undefined> {
    const marker = join(dir, '.git', 'crew-tree-fingerprint');
    for (let tries = 0; tries < MARKER_TRIES; tries++) {
      // The marker first, then the walk: a change after an entry's lstat comes after the marker, so in a later tick
      // than any entry older than the marker. Written after the walk, the marker could tick on while a change made
      // after the walk but in the entry's own tick kept every field as recorded.
      await writeFile(marker, String(process.hrtime.bigint()));
      const written = (await lstat(marker, { bigint: true })).ctimeNs;
      const entries = await statTree(dir);
      let newest = 0n;
      for (const line of entries.values()) {
        const ctime = BigInt(line.slice(line.lastIndexOf(':') + 1));
        if (ctime > newest) newest = ctime;
      }
      if (written > newest) return new TreeFingerprint(dir, entries);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return undefined;
  }

  /** Whether every entry is still as it was when this fingerprint was taken, and no entry was added. */
  async holds(): Promise<boolean> {
    const now = await statTree(this.dir);
    if (now.size !== this.entries.size) return false;
    for (const [path, line] of now) if (this.entries.get(path) !== line) return false;
    return true;
  }

  /** Whether the work tree (git's own files aside) is as it is in `other`: nothing but git wrote between the two. */
  sameWorkTree(other: TreeFingerprint): boolean {
    const own = (m: Map<string, string>) => [...m].filter(([path]) => !path.startsWith('.git/'));
    const mine = own(this.entries);
    return mine.length === own(other.entries).length && mine.every(([path, line]) => other.entries.get(path) === line);
  }
}

/** About 20 ms: a coarse clock ticks every 1–10 ms. */
const MARKER_TRIES = 10;

/** The git files whose change `git status` shows as staged changes: what HEAD names, and what it is compared with. */
const GIT_FILES = ['HEAD', 'index', 'packed-refs', 'refs/heads'];

async function statTree(dir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const add = async (path: string, deep: boolean): Promise<void> => {
    const s = await lstat(join(dir, path), { bigint: true }).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (!s) return;
    found.set(path, `${s.mode}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`);
    if (!deep || !s.isDirectory()) return;
    for (const name of await readdir(join(dir, path))) if (path || name !== '.git') await add(path ? `${path}/${name}` : name, true);
  };
  await add('', true);
  for (const path of GIT_FILES) await add(`.git/${path}`, true);
  return found;
}
