import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';

/**
 * `.github/crew.yml`, read from the default branch. One schema for every key; each
 * key has a default, so an empty or missing file is valid.
 */

const Tier = z.enum(['haiku', 'sonnet', 'opus']);

export const ConfigSchema = z.strictObject({
  default_model: Tier.default('sonnet').describe('Model tier for agents that have no tier of their own (the decomposer).'),
  models: z
    .strictObject({
      haiku: z.string().min(1).default('claude-haiku-5-5').describe('Model id for the haiku tier: quick, mechanical tasks.'),
      sonnet: z.string().min(1).default('claude-sonnet-5-5').describe('Model id for the sonnet tier: most tasks.'),
      opus: z.string().min(1).default('claude-opus-5-5').describe('Model id for the opus tier: hard reasoning.'),
    })
    .default({ haiku: 'claude-haiku-5-5', sonnet: 'claude-sonnet-5-5', opus: 'claude-opus-5-5' })
    .describe('The Anthropic model id used for each tier.'),
  max_parallel: z.int().min(1).max(20).default(10).describe('How many tasks may run at the same time.'),
  max_tasks: z.int().min(1).max(20).default(10).describe('The most tasks a plan may have.'),
  worker_max_turns: z.int().min(1).max(500).default(30).describe('Model turns a worker may take before its task ends as a timeout.'),
  protected_paths: z
    .array(z.string().min(1))
    .default(['.github/workflows/**', '.github/crew.yml', '.github/crew/**'])
    .describe('Globs agents may never write.'),
  bot_login: z.string().min(1).optional().describe("The login crew's comments appear under, when it is not github-actions[bot] (e.g. a GitHub App)."),
});

export type Config = z.infer<typeof ConfigSchema>;

export const CONFIG_PATH = '.github/crew.yml';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`${CONFIG_PATH} is not valid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? 'nothing' : s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** Parses and validates the file's text; every problem names the key, the bad value and what is expected. */
export function parseConfig(text: string | undefined): Config {
  let raw: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      raw = parseYaml(text) ?? {};
    } catch (e) {
      const where = e instanceof YAMLParseError && e.linePos ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '';
      throw new ConfigError([`the file is not valid YAML${where}: ${(e as Error).message.split('\n')[0]}`]);
    }
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(['the file must be a mapping of keys to values']);
  const result = ConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(top level)';
    if (issue.code === 'unrecognized_keys') {
      const at = issue.path.length ? `${key}.` : '';
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${at}${k}\``).join(', ')}: remove ${issue.keys.length > 1 ? 'them' : 'it'} or check the spelling`;
    }
    return `\`${key}\`: ${issue.message} (got ${show(valueAt(raw, issue.path))})`;
  });
  throw new ConfigError(problems);
}
