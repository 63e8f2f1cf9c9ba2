import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/schema';
import { CREW_GIT_IDENTITY, type BranchCommit, type BranchTip } from '../../../src/domain/retention';
import type { RunRecord, TaskRecord } from '../../../src/domain/run-state';
import { GITHUB } from '../../../src/domain/surface';
import type { BranchDeletion, CrewBranches } from '../../../src/ports';
import { paths, writePlan, writeRun, writeTask } from '../../../src/state/run-files';
import { findStrayBranches, tidyUp } from '../../../src/steps/cleanup';
import type { StepContext } from '../../../src/steps/context';
import { MemoryState } from './memory-state';
import { view } from './run-fixtures';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';

const NOW = new Date('2026-12-01T12:00:00Z');
const DAY = 24 * 60 * 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const crew = { name: CREW_GIT_IDENTITY.name, email: CREW_GIT_IDENTITY.email };

/** GitHub's crew/ branches in memory: who made each branch's commits, and deletions as leased pushes. */
class Branches implements CrewBranches {
  readonly tips = new Map<string, string>();
  readonly commits = new Map<string, BranchCommit[]>();
  readonly failCompareFor = new Set<string>();
  deletions = 0;
  async list(): Promise<BranchTip[]> {
    return [...this.tips].map(([branch, sha]) => ({ branch, sha }));
  }
  /** No state read lists branches here: tidyUp always asks (list). */
  listed(): BranchTip[] | undefined {
    return undefined;
  }
  async commitsBeyond(_base: string, sha: string) {
    if (this.failCompareFor.has(sha)) throw new Error('GitHub answered 502');
    return { commits: this.commits.get(sha) ?? [{ sha, author: crew, committer: crew }], complete: true };
  }
  async delete(tips: readonly BranchTip[]): Promise<BranchDeletion[]> {
    this.deletions++;
    return tips.map((t) => {
      const now = this.tips.get(t.branch);
      if (now === undefined) return { branch: t.branch, outcome: 'gone' as const };
      if (now !== t.sha) return { branch: t.branch, outcome: 'moved' as const, sha: now };
      this.tips.delete(t.branch);
      return { branch: t.branch, outcome: 'deleted' as const };
    });
  }
}

function world(configText = '') {
  const state = new MemoryState();
  const branches = new Branches();
  const comments: Array<{ issue: number; body: string }> = [];
  const warnings: string[] = [];
  const config = parseConfig(configText);
  const ctx = withPlanCommentSync({
    state,
    crewBranches: branches,
    clock: { now: () => NOW },
    config: async () => config,
    surface: GITHUB,
    log: { info: () => undefined, warn: (m: string) => void warnings.push(m), checkpoint: () => undefined },
    forge: {
      postComment: async (issue: number, body: string) => {
        comments.push({ issue, body });
        return { id: comments.length, url: '' };
      },
      defaultBranch: async () => 'main',
    },
  } as unknown as StepContext);
  /** A run of issue `issue` with two tasks, written as crew writes it, and its branches on GitHub. */
  const run = (issue: number, patch: Partial<RunRecord>, tasks: Array<TaskRecord['status']> = ['success', 'success', 'success'], withBranches = true) => {
    const v = view(tasks, { issue, run: 1, ...patch });
    const tx = state.tx();
    writeRun(tx, { ...v.run, version: 0 }, v.run.updatedAt);
    writePlan(tx, issue, 1, v.plan!, '', () => '');
    for (const t of v.tasks.values()) writeTask(tx, issue, 1, { ...t, branch: `crew/${issue}/r1/${t.id}` });
    if (withBranches) for (const t of v.tasks.keys()) branches.tips.set(`crew/${issue}/r1/${t}`, `${issue}${t}`.padEnd(40, '0'));
  };
  const record = (issue: number) => JSON.parse(state.files.get(paths.run(issue, 1))!) as RunRecord;
  return { state, branches, comments, warnings, ctx, run, record };
}

const aborted = (daysAgo: number): Partial<RunRecord> => ({ phase: 'ABORTED', updatedAt: ago(daysAgo * DAY) });

describe('tidyUp: what one job deletes and prunes', () => {
  it('says it once when two jobs clean the same run at the same time: one record, one comment', async () => {
    const w = world();
    w.run(5, aborted(10));
    w.branches.commits.set(w.branches.tips.get('crew/5/r1/t1')!, [
      { sha: 'f'.repeat(40), author: { name: 'alice', email: 'alice@example.com' }, committer: { name: 'alice', email: 'alice@example.com' } },
    ]);
    await Promise.all([tidyUp(w.ctx, 5), tidyUp(w.ctx, 5)]);
    expect(w.record(5).cleanup).toMatchObject({ deleted: ['crew/5/r1/t2', 'crew/5/r1/t3'], kept: [{ branch: 'crew/5/r1/t1', people: ['alice'] }] });
    expect(w.comments).toHaveLength(1);
    expect(w.comments[0]!.issue).toBe(5);
    expect([...w.branches.tips.keys()]).toEqual(['crew/5/r1/t1']);
  });

  it('leaves a run alone while a job may still hold one of its tasks, and one that ended less than unfinished_days ago', async () => {
    const w = world();
    w.run(6, aborted(3), ['success', 'running', 'pending']);
    const t2 = JSON.parse(w.state.files.get(paths.taskJson(6, 1, 't2'))!) as TaskRecord;
    w.state.files.set(paths.taskJson(6, 1, 't2'), JSON.stringify({ ...t2, claim: { runId: '9', nonce: 'n', at: ago(3 * DAY) } }));
    w.run(7, aborted(3));
    w.run(8, aborted(30));
    await tidyUp(w.ctx, 8);
    expect(w.record(6).cleanup).toBeNull();
    expect(w.record(7).cleanup).toBeNull();
    expect(w.record(8).cleanup).toMatchObject({ deleted: ['crew/8/r1/t1', 'crew/8/r1/t2', 'crew/8/r1/t3'] });
    expect([...w.branches.tips.keys()].filter((b) => b.startsWith('crew/8/'))).toEqual([]);
    expect(w.branches.tips.size).toBe(6);
  });

  it('deals with at most 10 runs’ branches a job, the issue it is about first; one that fails does not hold up the rest', async () => {
    const w = world();
    for (let i = 0; i < 12; i++) w.run(100 + i, aborted(60 - i));
    w.branches.failCompareFor.add(w.branches.tips.get('crew/100/r1/t1')!);
    await tidyUp(w.ctx, 111);
    const cleaned = Array.from({ length: 12 }, (_, i) => 100 + i).filter((n) => w.record(n).cleanup !== null);
    // 111 first, then the oldest; 100 (the oldest) failed and waits for a later job, like 109 and 110.
    expect(cleaned).toEqual([101, 102, 103, 104, 105, 106, 107, 108, 111]);
    expect(w.warnings.join('\n')).toMatch(/could not clean up after run 1 of #100 \(GitHub answered 502\); a later job tries again/);
  });

  it('prunes a finished run with no branches left without a write of its own, leaving its digest; a run with branches waits for them', async () => {
    const w = world();
    w.run(
      20,
      { phase: 'COMPLETED', pr: { number: 90, url: 'u', reportCommentId: 1 }, prClosed: { merged: true, at: ago(40 * DAY), by: 'm' } },
      undefined,
      false,
    );
    w.run(21, { phase: 'COMPLETED', pr: { number: 91, url: 'u', reportCommentId: 1 }, prClosed: { merged: false, at: ago(40 * DAY), by: 'm' } });
    w.branches.commits.set(w.branches.tips.get('crew/21/r1/t1')!, [
      { sha: 'e'.repeat(40), author: crew, committer: { name: 'GitHub', email: 'noreply@github.com' } },
    ]);
    await tidyUp(w.ctx);
    expect([...w.state.files.keys()].filter((p) => p.startsWith('issue-20/'))).toEqual(['issue-20/run-1/digest.json']);
    // 21's t1 was kept for GitHub's commit, so crew has dealt with its branches: it is pruned in the same job.
    expect([...w.state.files.keys()].filter((p) => p.startsWith('issue-21/'))).toEqual(['issue-21/run-1/digest.json']);
    expect(w.comments.map((c) => c.issue)).toEqual([21]);
    expect(await findStrayBranches(w.ctx)).toEqual([
      { branch: 'crew/21/r1/t1', sha: w.branches.tips.get('crew/21/r1/t1'), why: { kind: 'no-run', issue: 21, run: 1 } },
    ]);
  });

  it('with delete_branches off deletes nothing, and still prunes', async () => {
    const w = world('cleanup:\n  delete_branches: false\n');
    w.run(30, aborted(60));
    await tidyUp(w.ctx);
    expect(w.branches.deletions).toBe(0);
    expect(w.branches.tips.size).toBe(3);
    expect([...w.state.files.keys()].filter((p) => p.startsWith('issue-30/'))).toEqual(['issue-30/run-1/digest.json']);
  });

  it('does nothing where crew has no view of GitHub’s branches (local mode)', async () => {
    const w = world();
    w.run(40, aborted(60));
    await tidyUp({ ...w.ctx, crewBranches: undefined } as StepContext);
    expect(w.record(40).cleanup).toBeNull();
    expect(await findStrayBranches({ ...w.ctx, crewBranches: undefined } as StepContext)).toBeUndefined();
  });
});
