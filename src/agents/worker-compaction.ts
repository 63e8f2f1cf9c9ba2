import type { Config } from '../config/schema';
import { contextWindow } from '../domain/context-window';
import type { Tier } from '../domain/plan';
import type { Model } from '../ports';
import { withEffort } from './effort';
import { summarize } from './summarizer';
import type { Compaction } from './tool-loop';

/**
 * A worker's compaction (#49): at 60% of its model's context window (or `context_budget`), summarised
 * by the worker's own tier in the summarizer template's sections, with what the work has changed
 * (`changes`, a `git diff --stat`) kept word for word. The work step, `crew eval`'s single agent and the
 * benchmark build it here, so all three compact alike.
 */
export function workerCompaction(config: Config, model: Model, tier: Tier, template: () => Promise<string>, changes?: () => Promise<string>): Compaction {
  const modelId = config.models[tier];
  return {
    budgetTokens: config.context_budget ?? contextWindow(modelId),
    summarize: async (previous, messages) =>
      summarize(withEffort(model, config.effort, 'summarizer'), modelId, await template(), previous, messages, config.max_output_tokens.summarizer),
    ...(changes ? { changes } : {}),
  };
}
