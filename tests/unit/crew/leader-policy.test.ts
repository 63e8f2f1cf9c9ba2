import { describe, expect, it } from 'vitest';
import {
  decide,
  endOfRunDecision,
  DEFAULT_ESCALATION_LIMITS,
  failureSignature,
  FRESH_MEMORY,
  recordSuccess,
  type FailedTask,
  type LeaderMemory,
} from '../../../src/domain/leader-policy';

const failed = (over: Partial<FailedTask> = {}): FailedTask => ({ task: 't2', failures: 1, signature: 'tests failed', ...over });
const limits = DEFAULT_ESCALATION_LIMITS;
const mem = (over: Partial<LeaderMemory> = {}): LeaderMemory => ({ ...FRESH_MEMORY, escalations: { ...FRESH_MEMORY.escalations }, ...over });

describe('the escalation table, one row each', () => {
  it.each([
    ['the same task failed 3 times', failed({ failures: 3 }), { to: 'planner', action: 'replan_task' }],
    ['impediment: scope', failed({ impediment: { category: 'scope', requestedAction: 'touch the CLI too' } }), { to: 'user', action: 'ask', topic: 'scope' }],
    [
      'impediment: ambiguity',
      failed({ impediment: { category: 'ambiguity', requestedAction: 'which format?' } }),
      { to: 'user', action: 'ask', topic: 'ambiguity' },
    ],
    [
      'impediment: technical',
      failed({ impediment: { category: 'technical', requestedAction: 'help with the type error' } }),
      { to: 'advisor', action: 'retry_stronger' },
    ],
    [
      'impediment: dependency',
      failed({ impediment: { category: 'dependency', requestedAction: 'needs the schema from t1' } }),
      { to: 'planner', action: 'reevaluate_dependencies' },
    ],
    ['conflicting requirements', failed({ conflicting: ['keep the API', 'rename every function'] }), { to: 'user', action: 'ask', topic: 'conflict' }],
  ] as const)('%s', (rule, input, expected) => {
    const { decision, memory } = decide(input, mem(), { userQuestionOpen: false, limits });
    expect(decision).toMatchObject({ rule, task: 't2', ...expected });
    const target = expected.to as 'user' | 'planner' | 'advisor';
    expect(memory.escalations[target]).toBe(1);
  });

  it('3 tasks in a row failed: user and planner together', () => {
    const { decision, memory } = decide(failed(), mem({ failureStreak: 2 }), { userQuestionOpen: false, limits });
    expect(decision).toMatchObject({ rule: '3 tasks in a row failed', to: 'user+planner', action: 'review_plan' });
    expect(memory.escalations).toEqual({ user: 1, planner: 1, advisor: 0 });
    expect(memory.failureStreak).toBe(0);
  });

  it('≥50% of tasks partial or failed after all retries: re-decompose them once, then go on to the report', () => {
    expect(endOfRunDecision(4, ['t1', 't2'], mem(), limits)).toEqual({ action: 'replan_failed', tasks: ['t1', 't2'] });
    expect(endOfRunDecision(4, ['t1'], mem(), limits)).toEqual({ action: 'report' });
    expect(endOfRunDecision(4, ['t1', 't2', 't3'], mem({ replannedFailed: true }), limits)).toEqual({ action: 'report' });
  });

  it('nothing matches: the failure stands', () => {
    expect(decide(failed(), mem(), { userQuestionOpen: false, limits }).decision).toMatchObject({
      to: 'none',
      action: 'give_up',
      reason: 'no escalation rule applies',
    });
  });
});

describe('priorities, limits and the loop detector', () => {
  it('where rows overlap, the user comes first, then the planner, then the advisor', () => {
    const all = failed({ failures: 3, impediment: { category: 'technical', requestedAction: 'x' }, conflicting: ['a', 'b'] });
    expect(decide(all, mem(), { userQuestionOpen: false, limits }).decision).toMatchObject({ to: 'user', topic: 'conflict' });
    expect(
      decide(failed({ failures: 3, impediment: { category: 'technical', requestedAction: 'x' } }), mem(), { userQuestionOpen: false, limits }).decision,
    ).toMatchObject({ to: 'planner' });
  });

  it('a target at its limit is skipped for the next one; all at their limits, nothing escalates', () => {
    expect(DEFAULT_ESCALATION_LIMITS).toEqual({ user: 10, planner: 3, advisor: 5 });
    const input = failed({ failures: 3, impediment: { category: 'technical', requestedAction: 'x' } });
    expect(decide(input, mem({ escalations: { user: 0, planner: 3, advisor: 0 } }), { userQuestionOpen: false, limits }).decision).toMatchObject({
      to: 'advisor',
    });
    expect(decide(input, mem({ escalations: { user: 0, planner: 3, advisor: 5 } }), { userQuestionOpen: false, limits }).decision).toMatchObject({
      to: 'none',
      reason:
        'the escalation limit per run is reached for the planner (`escalation_limits.planner: 3`) and the advisor (`escalation_limits.advisor: 5`); raise them in .github/crew.yml to let crew escalate further (matching: the same task failed 3 times, impediment: technical)',
    });
    expect(
      decide(failed({ impediment: { category: 'scope', requestedAction: 'x' } }), mem({ escalations: { user: 10, planner: 0, advisor: 0 } }), {
        userQuestionOpen: false,
        limits,
      }).decision,
    ).toMatchObject({ to: 'none' });
  });

  it('the limits are the configured ones: a lower limit stops sooner and names its key, a raised one lets crew go on', () => {
    const technical = failed({ impediment: { category: 'technical', requestedAction: 'x' } });
    const low = { ...limits, advisor: 1 };
    const first = decide(technical, mem(), { userQuestionOpen: false, limits: low });
    expect(first.decision).toMatchObject({ to: 'advisor' });
    expect(decide({ ...technical, signature: 'other' }, first.memory, { userQuestionOpen: false, limits: low }).decision).toMatchObject({
      action: 'give_up',
      reason: expect.stringMatching(
        /^the escalation limit per run is reached for the advisor \(`escalation_limits\.advisor: 1`\); raise it in \.github\/crew\.yml/,
      ),
    });
    const spent = mem({ escalations: { user: 0, planner: 0, advisor: 5 } });
    expect(decide(technical, spent, { userQuestionOpen: false, limits: { ...limits, advisor: 6 } }).decision).toMatchObject({ to: 'advisor' });
    // A person at limit 0 is never asked: the planner takes what it can, or the failure stands.
    expect(
      decide(failed({ failures: 3, impediment: { category: 'scope', requestedAction: 'x' } }), mem(), {
        userQuestionOpen: false,
        limits: { ...limits, user: 0 },
      }).decision,
    ).toMatchObject({ to: 'planner' });
    // The end-of-run re-plan is the planner's too: at its limit crew goes to the report and says why.
    expect(endOfRunDecision(2, ['t1'], mem(), { ...limits, planner: 0 })).toEqual({
      action: 'report',
      notReplanned: expect.stringContaining('`escalation_limits.planner: 0`'),
    });
  });

  it('only one user question is open at a time', () => {
    const input = failed({ failures: 3, impediment: { category: 'ambiguity', requestedAction: 'x' } });
    expect(decide(input, mem(), { userQuestionOpen: true, limits }).decision).toMatchObject({ to: 'planner' });
  });

  it('a second question for a person, with nobody else to take it, waits for the open one instead of being dropped', () => {
    const { decision, memory } = decide(failed({ impediment: { category: 'scope', requestedAction: 'touch the docs' } }), mem(), {
      userQuestionOpen: true,
      limits,
    });
    expect(decision).toMatchObject({ to: 'user', action: 'queue', topic: 'scope', question: expect.stringContaining('The worker asks: touch the docs') });
    expect(memory.escalations.user).toBe(1);
    // At the user's limit it is not queued either: the failure stands.
    expect(
      decide(failed({ impediment: { category: 'scope', requestedAction: 'x' } }), mem({ escalations: { user: 10, planner: 0, advisor: 0 } }), {
        userQuestionOpen: true,
        limits,
      }).decision,
    ).toMatchObject({ action: 'give_up' });
  });

  it('stops repeated identical failures', () => {
    let m = mem();
    const input = failed({
      impediment: { category: 'technical', requestedAction: 'x' },
      signature: failureSignature('npm test exited 1 at line 42 (abc1234)'),
    });
    const decisions = [];
    for (let i = 0; i < 3; i++) {
      const r = decide({ ...input, signature: failureSignature(`npm test exited 1 at line ${40 + i} (abc12${i}4)`) }, m, { userQuestionOpen: false, limits });
      decisions.push(r.decision);
      m = r.memory;
    }
    expect(decisions.map((d) => d.to)).toEqual(['advisor', 'advisor', 'none']);
    expect(decisions[2]).toMatchObject({ rule: 'loop detector', reason: expect.stringContaining('happened 3 times') });
  });

  it('a success ends the failure streak', () => {
    expect(recordSuccess(mem({ failureStreak: 2 })).failureStreak).toBe(0);
  });
});
