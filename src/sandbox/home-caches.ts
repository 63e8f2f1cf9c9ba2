import { execFile } from 'node:child_process';
import { lstat, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ownEnv } from './own-programs';

const execP = promisify(execFile);
const exec = (cmd: string, args: string[]) => execP(cmd, args, { env: ownEnv() });

/**
 * The dependency caches the repository's setup steps restored in the runner's home (#51: `~/.npm` from
 * actions/setup-node's `cache: npm`, `~/.cache/pip`, ...), for a sandbox whose setup runs on a model-written
 * tree: its commands' home starts with a copy of each (domain/setup-caches.ts lists the folders), so setup
 * installs from it, and whatever model-written code writes there stays in the copy; the runner's own folders,
 * which the cache saves at the job's end, are never the sandbox's.
 */
export interface HomeCaches {
  /** The runner's home, where the setup steps restored them. */
  from: string;
  /** Folders relative to both homes. */
  folders: readonly string[];
  /** Told what was copied, how long it took, and what could not be copied (with why). */
  said?(copied: string[], seconds: number, failed: string[]): void;
}

/**
 * Copies the caches into a home crew has just made, before it hands the home to the user the commands run as
 * (the copy is handed over with it): no command has run there yet, so no link planted in it can redirect the
 * copy. A folder that is not there, or not a real folder, is passed over; a copy that fails is removed and
 * passed over too (the setup then downloads, as it would without the cache).
 */
export async function copyHomeCaches(home: string, caches: HomeCaches | undefined): Promise<void> {
  if (!caches?.folders.length) return;
  const started = Date.now();
  const copied: string[] = [];
  const failed: string[] = [];
  for (const folder of caches.folders) {
    const source = join(caches.from, folder);
    if (!(await lstat(source).catch(() => undefined))?.isDirectory()) continue;
    const target = join(home, folder);
    if (await lstat(target).catch(() => undefined)) continue;
    try {
      await mkdir(dirname(target), { recursive: true });
      // -a keeps links as links; --reflink=auto shares the blocks where the file system can (btrfs, xfs), copying on write.
      await exec('cp', ['-a', '--reflink=auto', '--', source, target]);
      copied.push(folder);
    } catch (e) {
      failed.push(`${folder} (${(e as Error).message.split('\n')[0]})`);
      await exec('rm', ['-rf', '--', target]).catch(() => undefined);
    }
  }
  caches.said?.(copied, (Date.now() - started) / 1000, failed);
}
