import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The prompt templates shipped beside the bundles: `<crew>/templates/*.md`, seen from dist/ (the action) or dist/cli/ (the CLI). */
function templatesDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', 'templates'), join(here, '..', '..', 'templates')];
  return candidates.find((d) => existsSync(join(d, 'worker_default.md'))) ?? candidates[0]!;
}

/** crew's own templates, read once before anything is checked out (see preloadTemplates). */
let preloaded: Map<string, string> | undefined;

/**
 * Reads every template now. Run as `uses: ./` (crew on its own repository), the templates sit
 * in the workspace, which later holds branches a model wrote: they must be read before that.
 */
export async function preloadTemplates(): Promise<void> {
  const dir = templatesDir();
  const names = (await readdir(dir)).filter((f) => /^[a-z_]+\.md$/.test(f));
  preloaded = new Map(await Promise.all(names.map(async (f) => [f.slice(0, -3), (await readFile(join(dir, f), 'utf8')).trim()] as const)));
}

export async function loadTemplate(name: string): Promise<string> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`invalid template name '${name}'`);
  if (preloaded) {
    const text = preloaded.get(name);
    if (text === undefined) throw new Error(`crew's prompt template ${name}.md is missing from ${templatesDir()}; the action checkout is incomplete`);
    return text;
  }
  const file = join(templatesDir(), `${name}.md`);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    throw new Error(`crew's prompt template ${name}.md is missing from ${templatesDir()}; the action checkout is incomplete`);
  }
}

/**
 * The prompt an agent gets: the repository's override from `templates_dir` (read from the
 * default branch, or a local run's base commit), else crew's own, plus `append_system_prompt`.
 */
export async function promptTemplate(
  name: string,
  config: { templates_dir: string; prompts: { append_system_prompt: string } },
  readDefaultBranchFile: (path: string) => Promise<string | undefined>,
): Promise<string> {
  const override = await readDefaultBranchFile(`${config.templates_dir.replace(/\/+$/, '')}/${name}.md`);
  const base = override?.trim() || (await loadTemplate(name));
  return config.prompts.append_system_prompt ? `${base}\n\n${config.prompts.append_system_prompt}` : base;
}
