import { summarize } from '../../src/agents/summarizer';
import type { WorkerInput } from '../../src/agents/worker';
import type { Config } from '../../src/config/schema';
import type { Tier } from '../../src/domain/plan';
import type { Model } from '../../src/ports';
import { loadTemplate } from '../../src/templates';

/** The worker's limits as the work step gives them to a task's first attempt, from `config` (today's code, before #49). */
export async function workerSetup(config: Config, model: Model, _tier: Tier) {
  const summarizer = await loadTemplate('summarizer');
  const input: Pick<WorkerInput, 'maxTurns' | 'limits' | 'compaction' | 'maxOutputTokens'> = {
    maxTurns: config.worker_max_turns,
    maxOutputTokens: config.max_output_tokens.worker,
    limits: { tokens: config.budgets.task.tokens, costUsd: config.budgets.task.cost_usd, deadline: Date.now() + 3_600_000 },
    compaction: {
      budgetTokens: config.context_budget,
      summarize: (prev, messages) => summarize(model, config.models.haiku, summarizer, prev, messages, config.max_output_tokens.summarizer),
    },
  };
  return {
    input,
    limits: { maxTurns: config.worker_max_turns, tokens: config.budgets.task.tokens, costUsd: config.budgets.task.cost_usd, compactAt: config.context_budget },
  };
}
