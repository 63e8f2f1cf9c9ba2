import { describe, expect, it } from 'vitest';
import { lastFailure, parseAttemptResult, recallAttempts, type PastAttempt } from '../../../src/domain/attempt-memory';
import { checkResult, resultFile, type Observed } from '../../../src/domain/result';
import { ZERO_USAGE } from '../../../src/domain/run-state';
import { paths, readAttemptHistory } from '../../../src/state/run-files';

const a = (attempt: number, status: string, reason: string | null = null): PastAttempt => ({ attempt, status, summary: `summary ${attempt}`, reason });

describe('memory from earlier attempts (endless8: recent attempts plus every failure)', () => {
  const history = [a(1, 'failure', 'tests failed'), a(2, 'success'), a(3, 'timeout', 'turn limit'), a(4, 'success'), a(5, 'success', 'report too thin')];

  it('keeps the most recent attempts and every failure, oldest first', () => {
    expect(recallAttempts(history, 2)).toEqual([
      'Attempt 1 (failure): summary 1 — tests failed',
      'Attempt 3 (timeout): summary 3 — turn limit',
      'Attempt 4 (success): summary 4',
      'Attempt 5 (success): summary 5 — report too thin',
    ]);
    expect(recallAttempts(history, 50)).toHaveLength(5);
  });

  it('history_context_size 0 keeps only the failures (not everything, as slice(-0) would)', () => {
    expect(recallAttempts(history, 0)).toEqual([
      'Attempt 1 (failure): summary 1 — tests failed',
      'Attempt 3 (timeout): summary 3 — turn limit',
      'Attempt 5 (success): summary 5 — report too thin',
    ]);
  });

  it('the last failure is the latest attempt’s reason, or none when it succeeded cleanly', () => {
    expect(lastFailure(history)).toBe('report too thin');
    expect(lastFailure(history.slice(0, 4))).toBeNull();
    expect(lastFailure([a(1, 'partial')])).toBe('it ended partial');
    expect(lastFailure([])).toBeNull();
  });

  it('reads attempts back from the result files crew wrote on crew/state, for a job that resumes the task', () => {
    const seen: Observed = { persona: 'writer', ending: 'max_turns', changedFiles: [], turns: 3, usage: ZERO_USAGE, toolCalls: {} };
    const files = new Map<string, string>([
      [paths.attemptResult(1, 1, 't1', 1), resultFile('t1', 1, checkResult(undefined, seen), seen, 'abc')],
      [paths.attemptResult(1, 1, 't1', 2), resultFile('t1', 2, checkResult(undefined, { ...seen, ending: 'no_report' }), seen, 'def')],
      [paths.attemptResult(1, 1, 't1', 3), 'the attempt running now'],
      [paths.attemptResult(1, 1, 't11', 1), resultFile('t11', 1, checkResult(undefined, seen), seen, 'abc')],
      [paths.result(1, 1, 't1'), 'not an attempt file'],
    ]);
    const reader = { read: (p: string) => files.get(p), list: (prefix: string) => [...files.keys()].filter((p) => p.startsWith(prefix)) };
    expect(readAttemptHistory(reader, 1, 1, 't1', 3)).toEqual([
      { attempt: 1, status: 'timeout', summary: 'the worker reached its turn limit', reason: 'the worker reached its turn limit' },
      {
        attempt: 2,
        status: 'failure',
        summary: 'the worker stopped without reporting (no completion marker)',
        reason: 'the worker stopped without reporting (no completion marker)',
      },
    ]);
    expect(recallAttempts(readAttemptHistory(reader, 1, 1, 't1', 3), 5)).toEqual([
      'Attempt 1 (timeout): the worker reached its turn limit',
      'Attempt 2 (failure): the worker stopped without reporting (no completion marker)',
    ]);
    expect(parseAttemptResult('no front matter')).toBeUndefined();
  });
});
