import { describe, expect, it } from 'vitest';
import { git } from '../support/git-cli';
import { expectFaithful, play } from './helpers';

describe('job time limits (job-time-limit scenario; the runner enforces timeout-minutes)', () => {
  it('a task allowed longer than its work job saves its work before the job’s limit and goes on in a new job, which finishes it', async () => {
    let t1: { status: string; attempts: number; continuations?: number } | undefined;
    let log = '';
    let notes: string | undefined;
    const r = await play('job-time-limit', {
      hooks: {
        beforeClose: async ({ gh }) => {
          t1 = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/tasks/task_t1.json'))!);
          log = await git(['--git-dir', gh.repoDir, 'log', '--format=%s', 'refs/heads/crew/1/r1/t1']);
          notes = await gh.repo.readFile(`refs/heads/${[...gh.pulls.values()][0]!.head}`, 'NOTES.md');
        },
      },
    });
    expectFaithful(r);
    const work = r.jobs.filter((j) => j.job === 'work' && j.result !== 'skipped');
    // The first job stopped itself in time: no job ran into GitHub's limit.
    expect(r.jobs.flatMap((j) => j.annotations).filter((a) => a.includes('exceeded the maximum execution time'))).toEqual([]);
    expect(work.map((j) => [j.event, j.result])).toEqual([
      ['issue_comment', 'success'],
      ['workflow_dispatch', 'success'],
    ]);
    expect(work[0]!.annotations.some((a) => a.includes('task_timeout_minutes (300) is longer than this work job can run (timeout-minutes: 60)'))).toBe(true);
    // The short form's limit is crew-jobs.yml's, which the repository's file cannot raise: crew says where it can be.
    expect(work[0]!.annotations.some((a) => a.includes("use the full workflow (crew's docs/workflow.md) and raise its work job's timeout-minutes"))).toBe(true);
    expect(log.split('\n')).toContain('crew: t1 Add a NOTES file (attempt 1, continued in a new job)');
    expect(t1).toMatchObject({ status: 'success', attempts: 1, continuations: 1 });
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
    expect(notes).toContain('Second part, written in the new job.');
    expect(r.model.unscripted).toEqual([]);
  }, 300_000);
});
