import { describe, expect, it } from 'vitest';
import {
  branchGoes,
  branchOwner,
  cleanupDue,
  CREW_GIT_IDENTITY,
  JOB_OUTLIVES_MS,
  othersCommits,
  runEnd,
  runsToPrune,
  strayBranches,
  type KeptRun,
  type Retention,
} from '../../../src/domain/retention';
import type { RunRecord, TaskRecord } from '../../../src/domain/run-state';
import { GITHUB } from '../../../src/domain/surface';
import { cleanupComment, strayBranchLines } from '../../../src/render/cleanup';
import { view } from './run-fixtures';

const NOW = new Date('2026-12-01T12:00:00Z');
const DAY = 24 * 60 * 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const policy: Retention = { deleteBranches: true, unfinishedDays: 7, keepRuns: 3, keepDays: 30 };

function rec(patch: Partial<RunRecord>): RunRecord {
  return view(['success', 'success', 'success'], { phase: 'COMPLETED', updatedAt: ago(DAY), ...patch }).run;
}
const done = (): TaskRecord[] => [...view(['success', 'success', 'success']).tasks.values()];
const pr = { number: 40, url: 'https://github.com/acme/widgets/pull/40', reportCommentId: 5 };

describe('when a run has ended for good', () => {
  it('a run with a pull request follows it: merged by crew, merged by a person, closed; open otherwise, whatever its phase', () => {
    expect(runEnd(rec({ pr }))).toBeUndefined();
    expect(runEnd(rec({ pr, phase: 'FAILED' }))).toBeUndefined();
    expect(runEnd(rec({ pr, merge: { state: 'merged', reason: '', headSha: 'a'.repeat(40), mergeSha: 'b'.repeat(40), at: ago(5) } }))).toEqual({
      how: 'merged-by-crew',
      at: ago(5),
    });
    expect(runEnd(rec({ pr, prClosed: { merged: true, at: ago(9), by: 'alice' } }))).toEqual({ how: 'merged', at: ago(9) });
    expect(runEnd(rec({ pr, prClosed: { merged: false, at: ago(9), by: 'alice' } }))).toEqual({ how: 'closed', at: ago(9) });
  });

  it('a follow-up’s merge ends every run of its pull request, the one that opened it included', () => {
    const first = rec({ run: 1, pr });
    const followUp = rec({ run: 2, pr, merge: { state: 'merged', reason: '', headSha: 'a'.repeat(40), mergeSha: 'b'.repeat(40), at: ago(5) } });
    expect(runEnd(first)).toBeUndefined();
    expect(runEnd(first, [followUp])).toEqual({ how: 'merged-by-crew', at: ago(5) });
    expect(cleanupDue(first, done(), NOW, policy, [followUp])).toMatchObject({ due: true, end: { how: 'merged-by-crew' } });
  });

  it('a run without one ended when it was aborted or failed; every other phase is open', () => {
    expect(runEnd(rec({ phase: 'ABORTED', updatedAt: ago(3) }))).toEqual({ how: 'aborted', at: ago(3) });
    expect(runEnd(rec({ phase: 'FAILED', updatedAt: ago(3) }))).toEqual({ how: 'failed', at: ago(3) });
    for (const phase of ['PLANNING', 'EXECUTING', 'REVIEWING', 'ESCALATING', 'INTERRUPTED', 'AWAITING_APPROVAL'] as const)
      expect(runEnd(rec({ phase })), phase).toBeUndefined();
  });
});

describe('whether a run’s cleanup is due: never while a job may still work on it', () => {
  it('merged or closed: at once, once every run of its pull request has ended its phase', () => {
    const closed = rec({ pr, prClosed: { merged: false, at: ago(1000), by: 'alice' } });
    expect(cleanupDue(closed, done(), NOW, policy)).toMatchObject({ due: true, end: { how: 'closed' } });
    const followUp = rec({ run: 3, pr, phase: 'EXECUTING' });
    expect(cleanupDue(closed, done(), NOW, policy, [followUp])).toEqual({ due: false, why: 'run 3 of its pull request is still executing' });
  });

  it('failed or aborted: only after unfinished_days', () => {
    expect(cleanupDue(rec({ phase: 'FAILED', updatedAt: ago(6 * DAY) }), done(), NOW, policy)).toMatchObject({
      due: false,
      why: expect.stringMatching(/cleanup.unfinished_days/),
    });
    expect(cleanupDue(rec({ phase: 'FAILED', updatedAt: ago(7 * DAY) }), done(), NOW, policy)).toMatchObject({ due: true, end: { how: 'failed' } });
    expect(cleanupDue(rec({ phase: 'ABORTED', updatedAt: ago(8 * DAY) }), done(), NOW, { ...policy, unfinishedDays: 10 })).toMatchObject({ due: false });
  });

  it('a task still claimed by a job holds the run until no job can be alive (self-hosted: 5 days running, 48 hours queued)', () => {
    const aborted = rec({ phase: 'ABORTED', updatedAt: ago(30 * DAY) });
    const running = (at: string): TaskRecord[] => [{ ...done()[0]!, status: 'running', claim: { runId: '9', nonce: 'n', at } }];
    expect(cleanupDue(aborted, running(ago(JOB_OUTLIVES_MS - 60_000)), NOW, policy)).toEqual({ due: false, why: 't1 may still be worked on by a job' });
    expect(cleanupDue(aborted, running(ago(JOB_OUTLIVES_MS)), NOW, policy)).toMatchObject({ due: true });
    expect(cleanupDue(rec({ pr }), done(), NOW, policy)).toEqual({ due: false, why: 'its pull request #40 is open' });
    expect(cleanupDue(rec({ phase: 'ESCALATING' }), done(), NOW, policy)).toEqual({ due: false, why: 'it is escalating' });
  });
});

describe('which branches go', () => {
  it('a run’s branches by name; nothing else is crew’s', () => {
    expect(branchOwner('crew/12/r3/t4')).toEqual({ issue: 12, run: 3, kind: 'task' });
    expect(branchOwner('crew/12/r3/integration')).toEqual({ issue: 12, run: 3, kind: 'integration' });
    expect(branchOwner('crew/12/r3/memory-2')).toEqual({ issue: 12, run: 3, kind: 'memory' });
    for (const other of ['crew/state', 'crew/local-3/t1', 'crew/12/r3', 'crew/12/r3/t1/x', 'crew/0/r1/t1', 'feature/crew/12/r3/t1'])
      expect(branchOwner(other), other).toBeUndefined();
  });

  it('task branches always; the pull request’s branch unless a person merged it (GitHub’s setting decides then); a /crew remember branch never', () => {
    for (const how of ['merged-by-crew', 'merged', 'closed', 'aborted', 'failed'] as const) {
      expect(branchGoes('task', { how, at: '' })).toBe(true);
      expect(branchGoes('integration', { how, at: '' })).toBe(how !== 'merged');
      expect(branchGoes('memory', { how, at: '' })).toBe(false);
    }
  });

  it('a commit someone else authored or committed makes a branch theirs too', () => {
    const crew = { name: CREW_GIT_IDENTITY.name, email: CREW_GIT_IDENTITY.email };
    const alice = { name: 'Alice', email: 'alice@example.com' };
    expect(othersCommits([{ sha: 'a', author: crew, committer: crew }])).toEqual({ shas: [], people: [] });
    expect(othersCommits([{ sha: 'a', author: crew, committer: { ...crew, email: crew.email.toUpperCase() } }])).toEqual({ shas: [], people: [] });
    expect(
      othersCommits([
        { sha: 'a', author: crew, committer: crew },
        { sha: 'b', author: alice, committer: alice },
        { sha: 'c', author: alice, committer: { name: 'GitHub', email: 'noreply@github.com' } },
      ]),
    ).toEqual({ shas: ['b', 'c'], people: ['Alice', 'GitHub'] });
    // Someone else committing crew's work (a rebase in the web UI) counts too.
    expect(othersCommits([{ sha: 'd', author: crew, committer: alice }])).toEqual({ shas: ['d'], people: ['Alice'] });
  });
});

describe('which runs leave crew/state', () => {
  const run = (issue: number, k: number, endedDaysAgo: number | null, branchesSettled = true): KeptRun => ({
    issue,
    run: k,
    end: endedDaysAgo === null ? undefined : { how: 'closed', at: ago(endedDaysAgo * DAY) },
    branchesSettled,
  });

  it('an issue keeps its newest keep_runs finished runs, each only while it ended less than keep_days ago', () => {
    const runs = [run(1, 1, 1), run(1, 2, 1), run(1, 3, 1), run(1, 4, 1), run(1, 5, 1), run(2, 1, 31), run(2, 2, 29), run(3, 1, 30)];
    expect(runsToPrune(runs, NOW, policy)).toEqual([
      { issue: 1, run: 1 },
      { issue: 1, run: 2 },
      { issue: 2, run: 1 },
      { issue: 3, run: 1 },
    ]);
  });

  it('open runs stay and do not count; nor does a run whose branches crew has not dealt with', () => {
    const runs = [run(1, 1, 40, false), run(1, 2, null), run(1, 3, null), run(1, 4, null), run(1, 5, null), run(1, 6, 1)];
    expect(runsToPrune(runs, NOW, { ...policy, keepRuns: 1 })).toEqual([]);
  });

  it('bounded by what ends in keep_days, however many issues there are: 200 issues of one old run each keep none', () => {
    const runs = Array.from({ length: 200 }, (_, i) => run(i + 1, 1, 60));
    expect(runsToPrune(runs, NOW, policy)).toHaveLength(200);
  });
});

describe('crew/ branches that belong to no open run', () => {
  it('a name crew does not give, a run no longer on crew/state, a run crew finished cleaning up; never crew/state or an open or waiting run', () => {
    const open = rec({ run: 1, pr });
    const waiting = rec({ run: 2, phase: 'FAILED', updatedAt: ago(DAY) });
    const finished = rec({
      run: 3,
      phase: 'ABORTED',
      cleanup: { at: ago(1), deleted: [], kept: [{ branch: 'crew/12/r3/t1', people: ['Alice'], shas: ['b'] }], refused: null },
    });
    const runs = new Map<string, RunRecord | 'pruned'>([
      ['12/1', open],
      ['12/2', waiting],
      ['12/3', finished],
      ['12/4', 'pruned'],
    ]);
    const tip = (branch: string) => ({ branch, sha: 'f'.repeat(40) });
    const strays = strayBranches(
      ['crew/state', 'crew/12/r1/t1', 'crew/12/r2/t1', 'crew/12/r3/t1', 'crew/12/r4/integration', 'crew/9/r1/t2', 'crew/notes', 'main'].map(tip),
      runs,
    );
    expect(strays.map((s) => [s.branch, s.why.kind])).toEqual([
      ['crew/12/r3/t1', 'done'],
      ['crew/12/r4/integration', 'no-run'],
      ['crew/9/r1/t2', 'no-run'],
      ['crew/notes', 'not-crews'],
    ]);
  });
});

describe('what crew says about a run’s branches', () => {
  it('names from commits and branches are code: they mention nobody and format nothing', () => {
    const body = cleanupComment(
      12,
      2,
      {
        at: '2026-12-01T00:00:00Z',
        deleted: ['crew/12/r2/t2'],
        kept: [{ branch: 'crew/12/r2/t1', people: ['@octocat <img src=x>', 'a`b'], shas: ['0123456789abcdef'] }],
        refused: { branches: ['crew/12/r2/integration'], reason: 'a repository ruleset or branch protection refused it (GH013 … - Cannot delete this branch)' },
      },
      GITHUB,
    )!;
    expect(body).toContain('`@octocat <img src=x>` and ``a`b`` committed to it (`0123456`)');
    expect(body).toContain('The run has ended, so crew deleted `crew/12/r2/t2`.');
    expect(body).toContain('GitHub refused to delete `crew/12/r2/integration`: a repository ruleset');
    expect(body).toContain('crew does not try again for this run: delete it yourself.');
    expect(cleanupComment(12, 2, { at: '', deleted: ['crew/12/r2/t1'], kept: [], refused: null })).toBeUndefined();
  });

  it('lists at most 30 branches that belong to no open run, and says how many more', () => {
    const strays = Array.from({ length: 32 }, (_, i) => ({
      branch: `crew/${i + 1}/r1/t1`,
      sha: 'f'.repeat(40),
      why: { kind: 'no-run' as const, issue: i + 1, run: 1 },
    }));
    const lines = strayBranchLines(strays);
    expect(lines[0]).toBe(
      "**32 branches under `crew/` belong to no open run** (crew deletes only the branches of its own runs, and never one with someone else's work on it):",
    );
    expect(lines.filter((l) => l.startsWith('- `crew/'))).toHaveLength(30);
    expect(lines.at(-1)).toBe('- … and 2 more.');
    expect(strayBranchLines([])).toEqual([]);
  });
});

describe('why a branch was kept, in words', () => {
  it('someone’s commits, a push while crew was deleting, or commits crew could not check', () => {
    const body = cleanupComment(3, 1, {
      at: '',
      deleted: [],
      kept: [
        { branch: 'crew/3/r1/t1', people: [], shas: ['abcdef0123456789'] },
        { branch: 'crew/3/r1/t2', people: [], shas: [] },
      ],
      refused: null,
    })!;
    expect(body).toContain('- `crew/3/r1/t1` is kept: someone pushed to it while crew was deleting it (`abcdef0`)');
    expect(body).toContain('- `crew/3/r1/t2` is kept: crew could not check every commit on it, and crew never deletes');
  });
});
