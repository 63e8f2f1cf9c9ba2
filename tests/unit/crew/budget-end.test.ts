import { describe, expect, it } from 'vitest';
import { continuedBudget, runBudgets, runBudgetSpent } from '../../../src/domain/budgets';
import { ZERO_USAGE, type RunRecord, type RunView } from '../../../src/domain/run-state';
import { replanJoiningStop, runStopRequest, runWideStop } from '../../../src/steps/budget-stop';
import { budgetQuestion, budgetWaitLine } from '../../../src/render/budget-stop';
import { GITHUB } from '../../../src/domain/surface';

const budgets = { run: { tokens: 10_000, cost_usd: 1 }, task: { tokens: 5_000, cost_usd: 0.5 }, attempt: { tokens: 2_000, cost_usd: 0.2 } };
const spent = { ...ZERO_USAGE, inputTokens: 9_000, outputTokens: 1_500, cacheReadTokens: 1_000, costUsd: 1.05 };

describe("the run's budget after a budget's end (#52)", () => {
  it('/crew continue: what was spent plus another budgets.run, or plus $N; tokens get another budgets.run.tokens either way', () => {
    // 9,000 + 1,500 + 0.1 × 1,000 = 10,600 budget tokens spent.
    expect(runBudgetSpent(budgets.run, spent)).toBe(true);
    expect(continuedBudget(budgets.run, spent)).toEqual({ tokens: 20_600, cost_usd: 2.05 });
    expect(continuedBudget(budgets.run, spent, 5)).toEqual({ tokens: 20_600, cost_usd: 6.05 });
    expect(runBudgetSpent(continuedBudget(budgets.run, spent, 5), spent)).toBe(false);
  });

  it('the limit a person set binds the run, and a configuration raised since counts too: each figure is the larger', () => {
    expect(runBudgets(budgets, {}).run).toEqual(budgets.run);
    expect(runBudgets(budgets, { budgetRun: { tokens: 20_600, cost_usd: 6.05 } }).run).toEqual({ tokens: 20_600, cost_usd: 6.05 });
    const raised = { ...budgets, run: { tokens: 50_000, cost_usd: 2 } };
    expect(runBudgets(raised, { budgetRun: { tokens: 20_600, cost_usd: 6.05 } }).run).toEqual({ tokens: 50_000, cost_usd: 6.05 });
    // The task's and the attempt's budgets are the configuration's.
    expect(runBudgets(budgets, { budgetRun: { tokens: 1, cost_usd: 1 } }).task).toEqual(budgets.task);
  });
});

describe("other workers and the run's budget stop (#52)", () => {
  const waitingAt = (limit: 'run' | 'task' | 'day' | 'month', phase: RunRecord['phase'] = 'ESCALATING') =>
    ({ phase, updatedAt: '2026-12-06T13:00:00Z', waiting: { kind: 'budget', commentId: 7, limit, spentUsd: 1.2, budgetUsd: 1 } }) as unknown as RunRecord;

  it("a stop at the run's, the day's or the month's budget reaches the other workers as a shutdown request, not stored", () => {
    for (const limit of ['run', 'day', 'month'] as const) {
      expect(runStopRequest(waitingAt(limit), 't2')).toMatchObject({ type: 'shutdown_request', from: 'leader', to: 't2' });
      expect(runWideStop(waitingAt(limit))).toEqual({ kind: 'budget', limit, spentUsd: 1.2, budgetUsd: 1 });
    }
  });

  it("a task's own budgets.task stops only that task; a run going again, or aborted, asks nobody to stop", () => {
    expect(runStopRequest(waitingAt('task'), 't2')).toBeUndefined();
    expect(runStopRequest(waitingAt('run', 'EXECUTING'), 't2')).toBeUndefined();
    expect(runStopRequest(waitingAt('run', 'ABORTED'), 't2')).toBeUndefined();
    expect(runStopRequest(undefined, 't2')).toBeUndefined();
  });
});

describe('the question at a budget stop while planning (#52)', () => {
  const view = { run: {}, tasks: new Map() } as unknown as RunView;
  const stop = { kind: 'budget', limit: 'run', spentUsd: 1.2, budgetUsd: 1, at: 'planning' } as const;
  const ask = (intakeKept?: boolean) => budgetQuestion(view, { ...stop, ...(intakeKept === undefined ? {} : { intakeKept }) }, GITHUB, (b) => b, '');

  it("says intake's reading is kept only when intake had made it before the stop", () => {
    expect(ask(true)).toContain("What planning settled is kept (intake's reading of the issue");
    expect(ask(false)).not.toContain('is kept (');
    expect(ask(false)).toContain('going on reads the issue again');
    // A stop recorded before intakeKept existed reads as before.
    expect(ask()).toContain("intake's reading of the issue");
  });
});

describe("re-planning and the resolver at the run's budget (#52)", () => {
  const replan = { tasks: ['t3'], feedback: 'Task t3 is blocked.', endOfRun: false };
  const rec = (phase: RunRecord['phase'], waiting: unknown) => ({ phase, waiting }) as unknown as RunRecord;
  const atTasks = { kind: 'budget', commentId: 7, limit: 'run', spentUsd: 1.2, budgetUsd: 1 } as const;

  it('re-planning joins a wait at a budget the tasks met, so going on re-plans too; never another question, another step, or a re-plan already waiting', () => {
    expect(replanJoiningStop(rec('ESCALATING', atTasks), replan)).toEqual({ ...atTasks, replan });
    expect(replanJoiningStop(rec('ESCALATING', { ...atTasks, limit: 'day' }), replan)).toEqual({ ...atTasks, limit: 'day', replan });
    expect(replanJoiningStop(rec('ESCALATING', { kind: 'decision', commentId: 7, task: 't1', topic: 'scope', question: '?' }), replan)).toBeUndefined();
    expect(replanJoiningStop(rec('ESCALATING', { ...atTasks, at: 'review' }), replan)).toBeUndefined();
    expect(replanJoiningStop(rec('ESCALATING', { ...atTasks, replan: { ...replan, tasks: ['t1'] } }), replan)).toBeUndefined();
    expect(replanJoiningStop(rec('EXECUTING', null), replan)).toBeUndefined();
  });

  it("the resolver's question names the conflicting files inert, offers no /crew accept, and says why", () => {
    const view = { run: {}, tasks: new Map() } as unknown as RunView;
    const stop = { ...atTasks, at: 'integration' as const, conflict: { task: 't2', files: ['docs/`x` <img src=a onerror=b>.md'] } };
    const asked = budgetQuestion(view, stop, GITHUB, (b) => b, '');
    // A file name is the model's: it stays inside a code span, where markdown and HTML do not render.
    expect(asked).toContain('in ``docs/`x` <img src=a onerror=b>.md``, and the resolver stopped');
    expect(asked).not.toContain('- `/crew accept`');
    expect(asked).toContain("`/crew accept` has nothing to take here: the tasks' branches conflict");
    expect(budgetWaitLine(stop, GITHUB, 'u')).toContain('while merging the tasks');
    expect(budgetWaitLine(stop, GITHUB, 'u')).not.toContain('accept');
  });
});
