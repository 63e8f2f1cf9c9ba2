import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { executionLog } from '../../../src/state/run-files';
import { view } from './run-fixtures';

describe("execution_log.yaml in claude-crew's schema", () => {
  it('a failed run: top-level status and finished, the phases next to the tasks, a task whose dependency failed is blocked', () => {
    const v = view(['failure', 'blocked', 'success'], {
      phase: 'FAILED',
      updatedAt: '2026-11-21T00:09:00Z',
      phases: {
        decomposer: { model: 'sonnet', started: '2026-11-21T00:00:05Z', finished: '2026-11-21T00:01:35Z', status: 'success', retries: 0, error: null },
        aggregator: { model: null, started: '2026-11-21T00:08:00Z', finished: '2026-11-21T00:08:02Z', status: 'success', retries: 0, error: null },
        retrospector: { model: 'sonnet', started: '2026-11-21T00:08:03Z', finished: '2026-11-21T00:08:33Z', status: 'success', retries: 0, error: null },
      },
    });
    const t1 = v.tasks.get('t1')!;
    v.tasks.set('t1', {
      ...t1,
      attempts: 3,
      startedAt: '2026-11-21T00:02:00Z',
      finishedAt: '2026-11-21T00:05:00Z',
      error: 'tests fail',
      metadataIssues: ['quality missing, defaulted to YELLOW'],
    });
    const log = YAML.parse(executionLog(v));
    expect(log).toMatchObject({ cmd_id: 'issue-12/run-2', started: '2026-11-21T00:00:00Z', finished: '2026-11-21T00:09:00Z', status: 'failure' });
    expect(log.tasks.map((t: { id: number; role: string; task: string | null; status: string }) => [t.id, t.role, t.task, t.status])).toEqual([
      [1, 'decomposer', null, 'success'],
      [2, 'worker_coder', 't1', 'failure'],
      [3, 'worker_coder', 't2', 'blocked'],
      [4, 'worker_writer', 't3', 'success'],
      [5, 'aggregator', null, 'success'],
      [6, 'retrospector', null, 'success'],
    ]);
    expect(log.tasks[0]).toMatchObject({
      model: 'sonnet',
      started: '2026-11-21T00:00:05Z',
      finished: '2026-11-21T00:01:35Z',
      duration_sec: 90,
      error: null,
      retries: 0,
      metadata_issues: [],
    });
    expect(log.tasks[1]).toMatchObject({
      model: 'sonnet',
      started: '2026-11-21T00:02:00Z',
      finished: '2026-11-21T00:05:00Z',
      duration_sec: 180,
      error: 'tests fail',
      retries: 2,
      metadata_issues: ['quality missing, defaulted to YELLOW'],
    });
    expect(log.tasks[4]).toMatchObject({ model: null, duration_sec: 2 });
  });

  it('a run still going is `running` with no finished time; a completed one with every task done is `success`', () => {
    expect(YAML.parse(executionLog(view(['running', 'pending', 'success'])))).toMatchObject({ status: 'running', finished: null });
    expect(YAML.parse(executionLog(view(['success', 'success', 'success'], { phase: 'COMPLETED' })))).toMatchObject({
      status: 'success',
      finished: '2026-11-21T00:01:00Z',
    });
    expect(YAML.parse(executionLog(view(['success', 'partial', 'success'], { phase: 'COMPLETED' })))).toMatchObject({ status: 'partial' });
  });
});
