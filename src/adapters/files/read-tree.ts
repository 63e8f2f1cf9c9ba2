import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/**
 * Every file under `dir/sub` with its text, keyed by its path relative to `dir` with `/`
 * separators. A missing folder is empty. `skip` leaves out entries by their path.
 */
export async function readTree(dir: string, sub = '', skip: (path: string, isDir: boolean) => boolean = () => false): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = join(d, e.name);
      const path = relative(dir, full).split(sep).join('/');
      if (skip(path, e.isDirectory())) continue;
      if (e.isDirectory()) await walk(full);
      else files.set(path, await readFile(full, 'utf8'));
    }
  };
  await walk(join(dir, sub));
  return files;
}
