import type { Tier } from './plan';

/**
 * Where crew's model calls go, and the model id each tier maps to by default on each of them.
 *
 * Defaults (the Claude 5.5 family, November 2026), checked against Anthropic's "Model IDs and
 * versions" (platform.claude.com/docs/en/about-claude/models/model-ids-and-versions): from the 4.6
 * generation on, ids carry no date: `claude-<name>-<major>-<minor>` on the Claude API,
 * `anthropic.claude-<name>-<major>-<minor>` on Bedrock (no `-v1` suffix after Opus 4.6), and on
 * Vertex AI the Claude API's own (no `@date`).
 * - `anthropic`: the Claude API's ids.
 * - `bedrock`: the US cross-region inference profiles (`us.anthropic.…`), not the base ids: Claude
 *   Opus 5.5 is served on Bedrock only through an inference profile (list-foundation-models gives
 *   `inferenceTypesSupported: ["INFERENCE_PROFILE"]` for `anthropic.claude-opus-5-5`, with `jp.` and
 *   `global.` profiles in Tokyo: dev.classmethod.jp/en/articles/bedrock-claude-opus-5-5/), and a
 *   profile spreads the load over the geography's regions. An account outside the US sets `models:`
 *   to its own geography's prefix (`eu.`, `apac.`, `jp.`) or `global.`.
 * - `vertex`: Vertex AI's publisher model ids, the Claude API's for this family.
 */
export const PROVIDERS = ['anthropic', 'bedrock', 'vertex'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const DEFAULT_MODELS: Record<Provider, Record<Tier, string>> = {
  anthropic: { haiku: 'claude-haiku-5-5', sonnet: 'claude-sonnet-5-5', opus: 'claude-opus-5-5' },
  bedrock: { haiku: 'us.anthropic.claude-haiku-5-5', sonnet: 'us.anthropic.claude-sonnet-5-5', opus: 'us.anthropic.claude-opus-5-5' },
  vertex: { haiku: 'claude-haiku-5-5', sonnet: 'claude-sonnet-5-5', opus: 'claude-opus-5-5' },
};

/**
 * The fallback's model id for a primary model id: the same tier in the fallback's mapping, so a
 * request for the primary's sonnet goes to the fallback's sonnet. Undefined for an id in no tier.
 */
export function fallbackModelFor(primary: Record<Tier, string>, fallback: Record<Tier, string>): (model: string) => string | undefined {
  const tiers = Object.keys(primary) as Tier[];
  return (model) => {
    const tier = tiers.find((t) => primary[t] === model);
    return tier && fallback[tier];
  };
}

export const isProvider = (v: string): v is Provider => (PROVIDERS as readonly string[]).includes(v);

/** One line per provider for a key's description: `anthropic` → x, `bedrock` → y, `vertex` → z. */
export const defaultsText = (tier: Tier): string => PROVIDERS.map((p) => `\`${DEFAULT_MODELS[p][tier]}\` (${p})`).join(', ');
