import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * ncc splits code into chunks (`dist/<n>.index.js`: each step, and libraries only some jobs use)
 * that the bundle imports on first use, from beside itself. Run as `uses: ./` (crew on its own
 * repository), that folder is in the workspace, which later holds branches a model wrote: then
 * every chunk is imported now, while it is still crew's own, and the bundle's later imports of it
 * get these modules from the cache. Anywhere else (the runner's `_actions` folder) nothing a job
 * runs can write there, so each chunk is left to its first use and a job parses only what it runs.
 * Without a workspace to compare with, every chunk is imported.
 */
export async function preloadBundleChunks(workspace: string | undefined): Promise<number> {
  const here = dirname(fileURLToPath(import.meta.url));
  if (workspace && !inside(here, workspace)) return 0;
  const chunks = readdirSync(here).filter((f) => /^\d+\.index\.js$/.test(f));
  for (const f of chunks) await import(/* webpackIgnore: true */ pathToFileURL(join(here, f)).href);
  return chunks.length;
}

/** `dir` is `parent` or below it, links resolved (the runner's paths may go through one). */
function inside(dir: string, parent: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const rel = relative(real(parent), real(dir));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
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
