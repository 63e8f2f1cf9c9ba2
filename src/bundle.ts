import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * ncc splits some code into chunks (`dist/<n>.index.js`) that the bundle imports on first use,
 * from beside itself. Run as `uses: ./` (crew on its own repository), that folder is the
 * workspace, which later holds branches a model wrote: every chunk is imported now, while it is
 * still crew's own, and the bundle's later imports of it get these modules from the cache.
 */
export async function preloadBundleChunks(): Promise<number> {
  const here = dirname(fileURLToPath(import.meta.url));
  const chunks = readdirSync(here).filter((f) => /^\d+\.index\.js$/.test(f));
  for (const f of chunks) await import(/* webpackIgnore: true */ pathToFileURL(join(here, f)).href);
  return chunks.length;
}

/**
 * A file of crew's own checkout, beside dist/ (e.g. `.github/workflows/crew-jobs.yml`): the action runs
 * from a checkout of crew at one commit, so this is that commit's copy. Undefined when it is not there.
 */
export function readOwnFile(path: string): string | undefined {
  try {
    return readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', path), 'utf8');
  } catch {
    return undefined;
  }
}
