import { attemptAllowance } from '../../src/domain/budgets';
import { workerCompaction } from '../../src/agents/worker-compaction';
import type { WorkerInput } from '../../src/agents/worker';
import type { Config } from '../../src/config/schema';
import type { Tier } from '../../src/domain/plan';
import { NOTHING_SPENT, ZERO_USAGE } from '../../src/domain/run-state';
import type { Model } from '../../src/ports';
import { loadTemplate } from '../../src/templates';

/**
 * The worker's limits as the work step gives them to a task's first attempt, from `config`: the same
 * functions (attemptAllowance, workerCompaction). The `before` figure in bench/results.json was measured
 * with the code before #49, which gave the attempt the task's whole budget and compacted at a fixed 100k.
 */
export async function workerSetup(config: Config, model: Model, tier: Tier) {
  const allowance = attemptAllowance(config.budgets, NOTHING_SPENT, ZERO_USAGE);
  const compaction = workerCompaction(config, model, tier, () => loadTemplate('summarizer'));
  const input: Pick<WorkerInput, 'maxTurns' | 'limits' | 'compaction' | 'maxOutputTokens'> = {
    maxTurns: config.worker_max_turns,
    maxOutputTokens: config.max_output_tokens.worker,
    limits: { tokens: allowance.tokens, costUsd: allowance.costUsd, deadline: Date.now() + 3_600_000 },
    compaction,
  };
  return { input, limits: { maxTurns: config.worker_max_turns, tokens: allowance.tokens, costUsd: allowance.costUsd, compactAt: compaction.budgetTokens } };
}
