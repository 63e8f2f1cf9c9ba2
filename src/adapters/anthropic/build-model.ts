import { systemClock } from '../../clock';
import type { Tier } from '../../domain/plan';
import { fallbackModelFor, type Provider } from '../../domain/providers';
import type { Log, Model, ModelFailover } from '../../ports';
import { FailoverModel } from './failover';
import { AnthropicModel } from './model';
import { providerClient, ProviderSetupError, type ProviderSettings } from './providers';

/** What the model's setup reads of the configuration (`Config` has it all). */
export interface ModelConfig extends ProviderSettings {
  provider: Provider;
  models: Record<Tier, string>;
  fallback: { provider: Provider; models: Record<Tier, string> } | null;
}

export type ModelRole = 'provider' | 'fallback_provider';

/** Why a provider cannot be called; the entry words it for its own reader (a comment on GitHub, the terminal). */
export type ModelSetupProblem =
  { kind: 'no-key'; provider: 'anthropic'; role: ModelRole } | { kind: 'provider-setup'; provider: Provider; role: ModelRole; missing: string; fix: string };

/** Where the credentials come from and how a problem is said: the one difference between the Action and the `crew` command. */
export interface ModelSetup {
  /** The Claude API's key (the `anthropic_api_key` input, or the shell's ANTHROPIC_API_KEY). */
  anthropicKey: string | undefined;
  /** A gateway (ANTHROPIC_BASE_URL) may need no key; the SDK still wants one, so a placeholder is sent. */
  keyless?: boolean;
  log: Log;
  /** `api_retry_wait_seconds`, read when a retry needs it. */
  retryWaitMs?: () => Promise<number>;
  /** The error the entry throws for a provider it cannot set up. */
  problem: (p: ModelSetupProblem) => Error;
}

/** `fallback_provider is vertex, but ` before what is missing for the fallback; nothing for the primary. */
export function roleSaying(p: Pick<ModelSetupProblem, 'provider' | 'role'>, quote = '`'): string {
  return p.role === 'provider' ? '' : `${quote}fallback_provider${quote} is ${p.provider}, but `;
}

/** The Model port over one provider: the Claude API with a key, or Amazon Bedrock / Vertex AI through Anthropic's SDKs for them. */
export function providerModel(provider: Provider, role: ModelRole, config: ProviderSettings, setup: ModelSetup): AnthropicModel {
  const options = setup.retryWaitMs ? { retryWaitMs: setup.retryWaitMs } : {};
  if (provider === 'anthropic') {
    if (!setup.anthropicKey && !setup.keyless) throw setup.problem({ kind: 'no-key', provider, role });
    return new AnthropicModel(setup.anthropicKey || 'none', systemClock, setup.log, options);
  }
  try {
    return new AnthropicModel(providerClient(provider, config), systemClock, setup.log, options);
  } catch (e) {
    if (e instanceof ProviderSetupError) throw setup.problem({ kind: 'provider-setup', provider, role, missing: e.missing, fix: e.fix });
    throw e;
  }
}

/**
 * The Model port for the provider in force, and with `fallback_provider` the failover over it and
 * the fallback (both set up, and their setup checked, before the first call). Each failover is
 * added to `failovers`, which the plan comment reports. The Action's entry and the `crew` command both build theirs here.
 */
export function buildModel(config: ModelConfig, setup: ModelSetup, failovers: ModelFailover[]): Model {
  const { log } = setup;
  const primary = providerModel(config.provider, 'provider', config, setup);
  if (config.provider !== 'anthropic') log.info(`crew calls the model through ${primary.label}`);
  if (!config.fallback) return primary;
  const fallback = providerModel(config.fallback.provider, 'fallback_provider', config, setup);
  log.info(`if ${primary.label} stays overloaded or rate-limited past its retries, crew goes on with ${fallback.label} (fallback_provider)`);
  return new FailoverModel(primary, fallback, fallbackModelFor(config.models, config.fallback.models), systemClock, log, (f) => failovers.push(f));
}
