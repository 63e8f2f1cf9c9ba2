import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The prompt templates shipped beside the bundle (`<action>/templates/*.md`). */
function templatesDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', 'templates');
}

export async function loadTemplate(name: string): Promise<string> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`invalid template name '${name}'`);
  const file = join(templatesDir(), `${name}.md`);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    throw new Error(`crew's prompt template ${name}.md is missing from ${templatesDir()}; the action checkout is incomplete`);
  }
}
