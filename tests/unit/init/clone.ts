import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** Temporary clones of a repository's files for `crew init`, removed after each test of the file that calls this. */
export function clones(): (files: Record<string, string>) => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  return async (files) => {
    const dir = await mkdtemp(join(tmpdir(), 'crew-init-'));
    dirs.push(dir);
    for (const [p, text] of Object.entries(files)) {
      await mkdir(join(dir, p, '..'), { recursive: true });
      await writeFile(join(dir, p), text);
    }
    return dir;
  };
}
