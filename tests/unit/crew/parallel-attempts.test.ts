import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../src/config/schema';
import { attemptsFor, attemptsUsed, bestOfLabel, checkAttemptsRequest, legsOf, parseLeg } from '../../../src/domain/attempts';
import { parseCommand } from '../../../src/domain/commands';
import { minutesPerTask } from '../../../src/domain/actions-minutes';
import { estimateRun, type EstimateInput } from '../../../src/domain/estimate';
import { checkPlan, type PlanTask } from '../../../src/domain/plan';
import { ZERO_USAGE } from '../../../src/domain/run-state';
import { outcomeAtBudget } from '../../../src/steps/parallel-attempts';
import type { AttemptOutcome } from '../../../src/steps/task-results';
import type { TakenTask } from '../../../src/steps/work-claim';

/** #50: how many attempts of a task run side by side, the legs they are, and how a run asks for them. */

const task = (id: string, hard = false): PlanTask => ({
  id,
  title: id,
  description: 'd',
  persona: 'coder',
  tier: 'haiku',
  dependsOn: [],
  files: [],
  criteria: [],
  ...(hard ? { hard: true } : {}),
});

describe('legs and attempts', () => {
  it('names attempt 1 by its task and attempt n by `<task>-a<n>`, and reads them back', () => {
    expect(legsOf('t1', 3)).toEqual(['t1', 't1-a2', 't1-a3']);
    expect(legsOf('t4', 1)).toEqual(['t4']);
    expect(parseLeg('t1-a3')).toEqual({ task: 't1', n: 3 });
    expect(parseLeg('t12')).toEqual({ task: 't12', n: 1 });
    for (const bad of ['t1-a1', 't1-a10', 'x', 't0', 't1-b2']) expect(parseLeg(bad)).toBeNull();
  });

  it('gives each task the run’s number, a hard task the ceiling, a task judged before one, and never more than max_parallel', () => {
    const run = { parallel: 2, max: 4 };
    expect(attemptsFor(undefined, task('t1'), false, 10)).toBe(1);
    expect(attemptsFor(run, task('t1'), false, 10)).toBe(2);
    expect(attemptsFor(run, task('t1', true), false, 10)).toBe(4);
    expect(attemptsFor(run, task('t1', true), true, 10)).toBe(1);
    expect(attemptsFor(run, task('t1', true), false, 3)).toBe(3);
  });

  it('bills a parallel attempt’s work job to its task', () => {
    const job = (task: string, startedAt: string, lastAt: string) => ({ id: task, step: 'work', task, startedAt, lastAt });
    const m = minutesPerTask([
      job('t1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:01:30.000Z'),
      job('t1-a2', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:30.000Z'),
    ]);
    expect([...m]).toEqual([['t1', 3]]);
  });
});

describe('the attempts a task used (crew eval’s Attempts column)', () => {
  it('counts every parallel attempt and each leg’s retries, and a task run once by its own count', () => {
    expect(attemptsUsed({ attempts: 2 })).toBe(2);
    // Claimed as attempt 1; leg 2 retried once (its last attempt is 2).
    expect(attemptsUsed({ attempts: 1, candidates: [{ attempt: 1 }, { attempt: 2 }, { attempt: 1 }] })).toBe(4);
    // Claimed again as attempt 3 (two attempts before it), three legs with no retry.
    expect(attemptsUsed({ attempts: 3, candidates: [{ attempt: 3 }, { attempt: 3 }, { attempt: 3 }] })).toBe(5);
  });
});

describe('a parallel leg at the repository’s day or month budget (#50, #52)', () => {
  const leg = { task: task('t1') } as TakenTask;
  const SPENT = "the repository's runs have spent $0.02 today (UTC), against `budgets.day` of $0.01";
  const next = { attempt: 2, sandboxWarning: null, mcpNotes: ['MCP server `x` not started'] };

  it('keeps the attempt it had as its candidate, not retried, saying why', () => {
    const last: AttemptOutcome = {
      attempt: 1,
      checked: {
        status: 'partial',
        quality: 'YELLOW',
        completeness: 50,
        summary: 'half done',
        details: 'd',
        feedback: null,
        metadataIssues: [],
        retry: true,
        reason: 'the worker reported partial',
        complete: false,
      },
      seen: { persona: 'coder', ending: 'reported', changedFiles: ['a.js'], turns: 3, usage: ZERO_USAGE, toolCalls: {}, elapsedMs: 10 },
      final: false,
      sandboxWarning: null,
    };
    const { outcome, notBegun } = outcomeAtBudget(leg, last, next, SPENT);
    expect(notBegun).toBeUndefined();
    expect(outcome).toMatchObject({
      attempt: 1,
      final: true,
      checked: { status: 'partial', retry: false, reason: `the worker reported partial; not retried: ${SPENT}` },
    });
    expect(outcome.seen.changedFiles).toEqual(['a.js']);
  });

  it('without one, records that it never began, with no spending', () => {
    const { outcome, notBegun } = outcomeAtBudget(leg, undefined, next, SPENT);
    expect(notBegun).toBe(`it never began: ${SPENT}`);
    expect(outcome).toMatchObject({ attempt: 2, final: true, checked: { status: 'failure', retry: false, reason: notBegun }, mcpNotes: next.mcpNotes });
    expect(outcome.seen).toMatchObject({ ending: 'budget', turns: 0, usage: ZERO_USAGE });
  });
});

describe('asking for attempts', () => {
  it('reads `/crew run --attempts N` (and `=N`); anything but a number is NaN, which starting the run refuses', () => {
    expect(parseCommand('/crew run --attempts 3')).toEqual({ kind: 'run', attempts: 3 });
    expect(parseCommand('/crew plan --attempts=2')).toEqual({ kind: 'plan', attempts: 2 });
    expect(parseCommand('/crew run')).toEqual({ kind: 'run' });
    expect(parseCommand('/crew run --attempts lots')).toMatchObject({ kind: 'run', attempts: Number.NaN });
    expect(checkAttemptsRequest(Number.NaN, 3)).toMatchObject({ ok: false });
    expect(checkAttemptsRequest(4, 3)).toEqual({ ok: false, why: expect.stringContaining('over the ceiling of 3 (`attempts.max`') });
    expect(checkAttemptsRequest(3, 3)).toEqual({ ok: true });
  });

  it('reads the label `crew: best of N`', () => {
    expect(bestOfLabel('crew: best of 3')).toBe(3);
    expect(bestOfLabel('Crew:Best of 2')).toBe(2);
    expect(bestOfLabel('crew')).toBeNull();
    expect(bestOfLabel('crew: best of')).toBeNull();
  });

  it('takes attempts.parallel and attempts.max from .github/crew.yml, within 1 to 5, parallel not over max', () => {
    expect(parseConfig(undefined).attempts).toEqual({ parallel: 1, max: 3 });
    expect(parseConfig('attempts: { parallel: 3 }').attempts).toEqual({ parallel: 3, max: 3 });
    for (const bad of ['attempts: { parallel: 6, max: 5 }', 'attempts: { parallel: 4 }', 'attempts: { max: 0 }'])
      expect(() => parseConfig(bad)).toThrow(ConfigError);
  });

  it('keeps the planner’s mark on a hard task', () => {
    const proposed = (hard?: boolean) => ({
      summary: 's',
      tasks: [{ id: 'a', title: 'A', description: 'd', persona: 'coder', model: 'haiku', ...(hard === undefined ? {} : { hard }) }],
    });
    const yes = checkPlan(proposed(true));
    const no = checkPlan(proposed());
    expect(yes.ok && yes.plan.tasks[0]!.hard).toBe(true);
    expect(no.ok && no.plan.tasks[0]!.hard).toBeUndefined();
  });
});

describe('the estimate counts every attempt', () => {
  it('three attempts of a task cost and bill as three tasks, beside the finish, which is the same', () => {
    const models = { haiku: 'claude-haiku-5-5', sonnet: 'claude-sonnet-5-5', opus: 'claude-opus-5-5' } as const;
    const input = (attempts: number): EstimateInput => ({
      at: '2026-11-21T00:00:00Z',
      tasks: [{ tier: 'sonnet', attempts }],
      models,
      criticTier: 'sonnet',
      retroTier: null,
      budgets: { run: { cost_usd: 1000 }, task: { cost_usd: 1000 } },
      taskTimeoutMinutes: 30,
      spent: { costUsd: 0, minutes: 0 },
      waitsForApproval: false,
      past: [],
    });
    const [one, three, none] = [estimateRun(input(1)), estimateRun(input(3)), estimateRun({ ...input(1), tasks: [] })];
    const per = (e: typeof one) => e.costUsd.low - none.costUsd.low;
    expect(per(three)).toBeCloseTo(3 * per(one), 3);
    expect(three.minutes!.high - none.minutes!.high).toBe(3 * (one.minutes!.high - none.minutes!.high));
  });
});
