import { FRESH_MEMORY } from '../../../src/domain/leader-policy';
import type { Plan } from '../../../src/domain/plan';
import { newTaskRecord, ZERO_USAGE, type RunRecord, type RunView, type TaskStatus } from '../../../src/domain/run-state';

/** A three-task run (t2 depends on t1) with one command and one semantic criterion, for pure-logic tests. */
export const plan: Plan = {
  summary: 'Add slugify and document it.',
  criteria: [
    { id: 'c1', text: 'The tests pass', kind: 'command', command: 'npm test' },
    { id: 'c2', text: 'README lists slugify', kind: 'semantic' },
  ],
  tasks: [
    { id: 't1', title: 'Implement "slugify" [core]', description: 'd', persona: 'coder', tier: 'sonnet', dependsOn: [], files: [], criteria: ['exported'] },
    { id: 't2', title: 'Test | slugify', description: 'd', persona: 'coder', tier: 'haiku', dependsOn: ['t1'], files: [], criteria: ['tests pass'] },
    { id: 't3', title: 'Docs', description: 'd', persona: 'writer', tier: 'haiku', dependsOn: [], files: [], criteria: ['documented'] },
  ],
};

export function view(statuses: TaskStatus[], patch: Partial<RunRecord> = {}): RunView {
  const run: RunRecord = {
    schema: 1,
    issue: 12,
    run: 2,
    phase: 'EXECUTING',
    mode: 'run',
    planVersion: 1,
    waiting: null,
    approvedBy: null,
    title: 'Add slugify',
    version: 7,
    requestedBy: 'maintainer',
    trigger: { commentId: 3_000_000_001, createdAt: '2026-11-21T00:00:00Z' },
    base: { branch: 'main', sha: 'a'.repeat(40) },
    planCommentId: 3_000_000_002,
    planCommentPassedTo: null,
    pr: null,
    followUp: null,
    usage: { ...ZERO_USAGE, inputTokens: 1000, outputTokens: 100, costUsd: 0.003 },
    createdAt: '2026-11-21T00:00:00Z',
    updatedAt: '2026-11-21T00:01:00Z',
    failure: null,
    finalizer: null,
    leader: FRESH_MEMORY,
    review: null,
    criteriaDigest: null,
    merge: null,
    retro: null,
    rateLimited: [],
    failovers: [],
    fixCi: { attempts: [], exhaustedNotedFor: null, limit: null, lookAfter: null },
    prClosed: null,
    cleanup: null,
    images: null,
    posted: { comments: 1, pullRequests: 0, branches: 4 },
    ...patch,
  };
  const tasks = new Map(
    plan.tasks.map((t, i) => [
      t.id,
      {
        ...newTaskRecord(t.id, `crew/12/r2/${t.id}`),
        status: statuses[i]!,
        attempts: statuses[i] === 'pending' ? 0 : 1,
        usage: { ...ZERO_USAGE, inputTokens: 500, cacheReadTokens: 400, outputTokens: 50, costUsd: 0.002 },
      },
    ]),
  );
  return { run, plan, tasks };
}
