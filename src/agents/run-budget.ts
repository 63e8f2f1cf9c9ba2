import { addUsage, tokensOf, ZERO_USAGE, type Usage } from '../domain/run-state';
import type { Model, ModelReply, ModelRequest } from '../ports';

/** The run's budget (`budgets.run` in .github/crew.yml) is spent: no agent may call the model again in this run. */
export class RunBudgetSpent extends Error {
  constructor(
    readonly budget: { tokens: number; cost_usd: number },
    readonly spent: Usage,
    /** What the replies this wrapper let through cost: the stopped step's own spending, none of it lost when it records. */
    readonly sinceStart: Usage = ZERO_USAGE,
  ) {
    super(
      `the run's model budget is spent: ${tokensOf(spent).toLocaleString('en-US')} tokens of \`budgets.run.tokens\` ${budget.tokens.toLocaleString('en-US')}, $${spent.costUsd.toFixed(2)} of \`budgets.run.cost_usd\` $${budget.cost_usd.toFixed(2)}`,
    );
  }
}

/**
 * The model as every agent but the worker reaches it (intake, decomposer, plan reviewer, critic,
 * resolver, retrospector): each request is refused once the run has spent its budget, counting what
 * the run had spent when the step began and every reply since. A request already sent finishes, so
 * a run can pass its budget by at most one reply; the worker has its own, finer limits per turn.
 */
export function withinRunBudget(model: Model, budget: { tokens: number; cost_usd: number }, spentBefore: Usage): Model {
  let spent = spentBefore;
  let sinceStart = ZERO_USAGE;
  return {
    async complete(request: ModelRequest): Promise<ModelReply> {
      if (tokensOf(spent) >= budget.tokens || spent.costUsd >= budget.cost_usd) throw new RunBudgetSpent(budget, spent, sinceStart);
      const reply = await model.complete(request);
      spent = addUsage(spent, reply.usage);
      sinceStart = addUsage(sinceStart, reply.usage);
      return reply;
    },
  };
}
