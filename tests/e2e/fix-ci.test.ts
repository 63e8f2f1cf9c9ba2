import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/domain/run-state';
import { expectFaithful, play, shown } from './helpers';

describe('fix_ci: a failed CI on crew’s pull request (#19 §2, up to the follow-up entry point)', () => {
  it('each failure on a new head is an attempt, answered on the pull request with the log tail; after fix_ci_attempts crew says so once and stops; other completed runs start no job', async () => {
    let record: RunRecord | undefined;
    let logDownloads: Array<{ status: number; authorization: boolean }> = [];
    const r = await play('fix-ci', {
      hooks: {
        beforeClose: async ({ gh }) => {
          record = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!) as RunRecord;
          logDownloads = gh.logDownloads;
        },
      },
    });
    expectFaithful(r);
    const [pr, ...others] = r.pulls;
    expect(others).toEqual([]);
    expect(pr!.head).toBe('crew/1/r1/integration');

    // Three pushes by the maintainer: three CI runs, each failing in `test`.
    const ci = r.jobs.filter((j) => j.event === 'push' && j.name === 'test');
    expect(ci.map((j) => j.result)).toEqual(['failure', 'failure', 'failure']);
    // Each CI failure started crew's route job (and nothing else of crew's); every other completed run (crew's own) started none.
    const byWorkflowRun = r.jobs.filter((j) => j.event === 'workflow_run');
    expect(byWorkflowRun.filter((j) => j.result !== 'skipped').map((j) => `${j.job}:${j.result}`)).toEqual(['route:success', 'route:success', 'route:success']);
    expect(new Set(byWorkflowRun.map((j) => j.run)).size).toBe(3);

    const said = pr!.comments.filter((c) => c.author === r.crewLogin).map((c) => shown(c.body));
    const ciSaid = said.filter((b) => /^CI failed on /.test(b));
    expect(ciSaid).toHaveLength(3);
    expect(ciSaid[0]).toContain('this is attempt 1 of 2 (`fix_ci_attempts`)');
    expect(ciSaid[1]).toContain('this is attempt 2 of 2 (`fix_ci_attempts`)');
    for (const b of ciSaid.slice(0, 2)) {
      expect(b).toContain('- the `test` check of the `CI` workflow passes');
      expect(b).toContain('FAIL test/notes.test.js > lists the notes\nAssertionError: expected 1 to be 3\n##[error]Process completed with exit code 1.');
      expect(b).not.toContain('lint ok');
      expect(b).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z/);
    }
    expect(ciSaid[2]).toMatch(/crew has used all 2 of its `fix_ci_attempts` on this pull request, so it stops here/);
    // The two attempts' logs were read through the redirect, never with the token; the third failure read none.
    expect(logDownloads).toEqual([
      { jobId: expect.any(Number), status: 200, authorization: false },
      { jobId: expect.any(Number), status: 200, authorization: false },
    ]);

    // The plan comment on the issue shows each attempt and where they ran out.
    const plan = r.issue.comments.find((c) => c.author === r.crewLogin && c.body.startsWith('<!-- crew:plan issue=1 run=1 -->'))!.body;
    expect(plan).toContain('**CI fixes** (`fix_ci`): 2 of 2 attempts used.');
    expect(plan.match(/^- Attempt \d on [0-9a-f]{7}: `test` \(`CI`, \[job\]/gm)).toHaveLength(2);
    expect(plan).toContain(`CI failed again on ${pr!.headSha!.slice(0, 7)} with no attempts left`);

    // The run's record holds both attempts on their heads, and the head where they ran out.
    const fixCi = record!.fixCi;
    expect(fixCi.attempts.map((a) => [a.n, a.checks.map((c) => `${c.workflow}/${c.job}`), a.outcome])).toEqual([
      [1, ['CI/test'], 'requested'],
      [2, ['CI/test'], 'requested'],
    ]);
    expect(new Set([...fixCi.attempts.map((a) => a.headSha), fixCi.exhaustedNotedFor]).size).toBe(3);
    expect(fixCi.exhaustedNotedFor).toBe(pr!.headSha);
  });

  it('with fix_ci off, the failure starts the route job (its if: cannot read crew.yml), which logs a skip and says nothing', async () => {
    const r = await play('fix-ci', {
      edit: (s) => {
        s.config = 'fix_ci: false\n';
        s.timeline = s.timeline.slice(0, 3);
      },
    });
    expectFaithful(r);
    const route = r.jobs.filter((j) => j.event === 'workflow_run' && j.result !== 'skipped');
    expect(route.map((j) => `${j.job}:${j.result}`)).toEqual(['route:success']);
    expect(r.pulls[0]!.comments.filter((c) => c.author === r.crewLogin && /CI failed/.test(c.body))).toEqual([]);
  });
});
