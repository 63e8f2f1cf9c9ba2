import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A file of crew's own checkout (the workflow `crew init` writes), found from the bundle
 * (dist/cli/index.js) or from the source (src/init/shipped.ts): two folders up either way.
 */
export async function shippedFile(path: string): Promise<string> {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', '..', path), join(here, '..', path)];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`crew's ${path} is missing from ${candidates[0]}: reinstall crew (npx crew@latest init).`);
  return readFile(found, 'utf8');
}
