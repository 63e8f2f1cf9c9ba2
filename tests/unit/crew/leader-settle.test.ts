import { describe, expect, it } from 'vitest';
import { DEFAULT_ESCALATION_LIMITS } from '../../../src/domain/leader-policy';
import type { CheckedResult } from '../../../src/domain/result';
import type { StateTx } from '../../../src/ports';
import { readView, writePlan, writeRun, writeTask } from '../../../src/state/run-files';
import { openQueuedQuestion, settleInState } from '../../../src/steps/leader';
import { view } from './run-fixtures';

/** An in-memory state transaction holding the fixture run (issue 12, run 2). */
function stateWith(v: ReturnType<typeof view>): StateTx {
  const files = new Map<string, string>();
  const tx: StateTx = {
    read: (p) => files.get(p),
    write: (p, c) => void files.set(p, c),
    remove: (p) => void files.delete(p),
    list: (prefix) => [...files.keys()].filter((k) => k.startsWith(prefix)),
  };
  writeRun(tx, v.run, v.run.updatedAt);
  writePlan(tx, 12, 2, v.plan!, '', () => '');
  for (const t of v.tasks.values()) writeTask(tx, 12, 2, t);
  return tx;
}

const failure = (category: 'technical' | 'scope'): CheckedResult => ({
  status: 'failure',
  quality: 'RED',
  completeness: 0,
  summary: 'stuck',
  details: '',
  feedback: { type: 'difficulty', issue: 'stuck', attempts: ['tried'], impediment: { category, requestedAction: 'help' } },
  metadataIssues: [],
  retry: false,
  reason: 'the worker reported failure: stuck',
  complete: true,
});

const claim = { runId: 'dispatch:x', nonce: 'x', at: '2026-11-21T00:02:00Z' };

describe('the leader settling a failed task in the state write', () => {
  it('at the advisor’s limit the failure stands, and the task says why crew stopped escalating, for the failure comment to show', () => {
    const v = view(['failure', 'pending', 'success'], {
      leader: { escalations: { user: 0, planner: 0, advisor: 5 }, failureStreak: 0, signatures: {}, replannedFailed: false },
    });
    const tx = stateWith(v);
    const decision = settleInState(tx, 12, 2, 't1', failure('technical'), claim, DEFAULT_ESCALATION_LIMITS);
    expect(decision).toMatchObject({ action: 'give_up' });
    expect(readView(tx, 12, 2)!.tasks.get('t1')!.error).toBe(
      'the worker reported failure: stuck; crew stopped escalating it: the escalation limit per run is reached for the advisor (`escalation_limits.advisor: 5`); raise it in .github/crew.yml to let crew escalate further (matching: impediment: technical)',
    );
  });

  it('a second question waits on its task (unsettled, so its dependents are not blocked) and becomes the open one when the first is answered', () => {
    const v = view(['failure', 'pending', 'success'], {
      phase: 'ESCALATING',
      waiting: { kind: 'decision', commentId: 5, task: 't3', topic: 'scope', question: 'first?' },
    });
    const tx = stateWith(v);
    expect(settleInState(tx, 12, 2, 't1', failure('scope'), claim, DEFAULT_ESCALATION_LIMITS)).toMatchObject({ action: 'queue' });
    const queued = readView(tx, 12, 2)!;
    expect(queued.run.waiting).toMatchObject({ task: 't3' });
    expect(queued.tasks.get('t1')!.queuedQuestion).toMatchObject({ topic: 'scope' });
    // While a question is still open nothing is taken; once it is answered, t1's is asked.
    expect(openQueuedQuestion(tx, 12, 2, '2026-11-21T00:03:00Z')).toBeNull();
    writeRun(tx, { ...queued.run, phase: 'EXECUTING', waiting: null }, '2026-11-21T00:03:00Z');
    expect(openQueuedQuestion(tx, 12, 2, '2026-11-21T00:03:00Z')).toMatchObject({ task: 't1', planReview: false });
    const asked = readView(tx, 12, 2)!;
    expect(asked.run).toMatchObject({ phase: 'ESCALATING', waiting: { kind: 'decision', commentId: 0, task: 't1', topic: 'scope' } });
    expect(asked.tasks.get('t1')!.queuedQuestion).toBeNull();
  });
});
