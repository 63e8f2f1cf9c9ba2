// A local run's configuration (`crew run`, `crew eval`): the committed file, a task file's keys and the command line, merged.
import type { Provider } from '../domain/providers';
import { parseYamlMapping, validateConfig, type Config } from './schema';

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Later sources win key by key; nested mappings (budgets, commands, …) merge rather than replace. */
export function mergeConfig(...layers: Array<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer)) out[k] = isMapping(v) && isMapping(out[k]) ? mergeConfig(out[k], v) : v;
  }
  return out;
}

/**
 * The configuration of a local run: `.github/crew.yml` as committed, the task file's
 * keys, then the command line. Whether agents' commands may run without a sandbox is the
 * person's choice alone (`--allow-unsandboxed`): a repository, or a task file that may
 * come with one, cannot turn the sandbox off on the person's machine.
 */
export function localConfig(
  crewYml: string | undefined,
  task: Record<string, unknown>,
  flags: { maxIterations?: number; allowUnsandboxed?: boolean; provider?: Provider; fallbackProvider?: Provider },
  file: string,
): Config {
  const committed = parseYamlMapping(crewYml, file);
  validateConfig(committed, file);
  const merged = mergeConfig(committed, task, flags.maxIterations ? { max_iterations: flags.maxIterations } : {});
  // A local run has no pull request to merge: the result waits on its branch.
  return validateConfig({ ...merged, auto_merge: false, allow_unsandboxed: flags.allowUnsandboxed === true }, file, {
    ...(flags.provider ? { provider: flags.provider } : {}),
    ...(flags.fallbackProvider ? { fallbackProvider: flags.fallbackProvider } : {}),
    via: 'cli',
  });
}

/** Where `allow_unsandboxed: true` was asked for in a file, which locally only the flag can grant (said, not silently dropped). */
export function unsandboxedAskedIn(crewYml: string | undefined, task: Record<string, unknown>, files: { config: string; task?: string }): string[] {
  const asked: string[] = [];
  if (parseYamlMapping(crewYml, files.config).allow_unsandboxed === true) asked.push(files.config);
  if (task.allow_unsandboxed === true) asked.push(files.task ?? 'the task file');
  return asked;
}
