import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/domain/run-state';
import { expectFaithful, play, shown } from './helpers';

type Played = Awaited<ReturnType<typeof play>>;
const crewSaid = (r: Played) => r.pulls[0]!.comments.filter((c) => c.author === r.crewLogin).map((c) => shown(c.body));
const ciFile = '.github/workflows/ci.yml';

interface World {
  runs: Record<number, RunRecord>;
  /** Each run of the CI workflow: who pushed, on which head, how it ended. */
  ci: Array<{ actor: string; head: string; result: string }>;
  ancestors: Record<string, boolean>;
  forcedPushes: number;
  intakePrompts: string[];
  logDownloads: Array<{ status: number; authorization: boolean }>;
  files: Record<string, string | undefined>;
}

async function playFixCi(name: string, edit?: NonNullable<Parameters<typeof play>[1]>['edit']): Promise<{ r: Played; w: World }> {
  const w: World = { runs: {}, ci: [], ancestors: {}, forcedPushes: 0, intakePrompts: [], logDownloads: [], files: {} };
  const r = await play(name, {
    ...(edit ? { edit } : {}),
    hooks: {
      beforeClose: async ({ gh, anthropic, runner }) => {
        for (const k of [1, 2, 3, 4]) {
          const text = await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-${k}/run.json`);
          if (text) w.runs[k] = JSON.parse(text) as RunRecord;
        }
        w.ci = runner.runs
          .filter((run) => run.workflow === ciFile)
          .map((run) => ({ actor: run.actor, head: run.headSha, result: run.jobs.some((j) => j.result === 'failure') ? 'failure' : 'success' }));
        const final = (await gh.repo.branchSha('crew/1/r1/integration'))!;
        for (const rec of Object.values(w.runs)) {
          for (const sha of [rec.base.sha, rec.review?.headSha]) if (sha) w.ancestors[sha] = await gh.repo.isAncestor(sha, final);
        }
        for (const path of ['src/index.js', 'test/shout.test.js']) w.files[path] = await gh.repo.readFile(final, path);
        w.intakePrompts = anthropic.requests.filter((q) => q.role === 'intake').map((q) => JSON.stringify(q.body.messages));
        w.logDownloads = gh.logDownloads;
      },
    },
  });
  return { r, w };
}

describe('fix_ci: a failed CI on crew’s pull request (#19 §2)', () => {
  it('a failing check leads to a fix on the same branch: a follow-up run from the log tail and criterion, a new commit on top, and CI passes on that head', async () => {
    const { r, w } = await playFixCi('fix-ci');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    const pr = r.pulls[0]!;
    expect([pr.head, pr.state]).toEqual(['crew/1/r1/integration', 'open']);

    // CI: green on crew's first push, red on the maintainer's test, green on crew's fix, which is the pull request's head.
    expect(w.ci.map((c) => `${c.actor}:${c.result}`)).toEqual(['crew-bot:success', 'maintainer:failure', 'crew-bot:success']);
    expect(w.ci[2]!.head).toBe(pr.headSha);
    // Exactly one follow-up, from the CI failure: run 2 started on the maintainer's head and its fix went on top of it.
    expect(Object.keys(w.runs)).toEqual(['1', '2']);
    const run2 = w.runs[2]!;
    expect(run2.phase).toBe('COMPLETED');
    expect(run2.followUp).toMatchObject({ pull: pr.number, k: 1, fromRun: 1, branch: 'crew/1/r1/integration', source: 'ci', added: ['c2', 'c3'] });
    expect(run2.base.sha).toBe(w.ci[1]!.head);
    expect(run2.review!.headSha).toBe(pr.headSha);
    for (const sha of [w.runs[1]!.review!.headSha!, w.ci[1]!.head]) expect(w.ancestors[sha]).toBe(true);
    expect(w.files['src/index.js']).toContain("return text.trim().toUpperCase() + '!';");
    expect(w.files['test/shout.test.js']).toContain("assert.equal(shout('  hi '), 'HI!');");

    // Intake read the failed job's log tail and the criterion.
    const intake = w.intakePrompts.at(-1)!;
    expect(intake).toContain('Follow-up 1 on pull request');
    expect(intake).toContain('the `test` check of the `CI` workflow passes');
    expect(intake).toContain('✖ shout trims the text first');
    expect(intake).toContain("'  HI !' !== 'HI!'");
    expect(intake).toContain('##[error]Process completed with exit code 1.');
    expect(intake).toContain('c1: The tests pass');
    expect(w.logDownloads).toEqual([{ jobId: expect.any(Number), status: 200, authorization: false }]);
    // The critic judged the original criterion and the two new ones.
    expect(pr.body).toMatch(
      /### Done criteria \(critic: PASS\)\n- ✅ The tests pass \(`npm test`\)\n- ✅ shout trims[^\n]*\n- ✅ The `test` check of the `CI` workflow passes/,
    );

    // On the pull request: the note that the follow-up starts, why, and where; the report comment edited with the follow-up and the attempt.
    const said = crewSaid(r);
    const note = said.find((b) => b.startsWith('crew starts follow-up 1'))!;
    expect(note).toMatch(
      /^crew starts follow-up 1 on this pull request \(run 2 of #1\)\. CI failed on [0-9a-f]{7}: the `CI` workflow \(\[run\]\([^)]+\)\); with `fix_ci` on, this is attempt 1 of 2 \(`fix_ci_attempts`\)\. The failed check becomes a new done criterion next to the earlier ones, and the critic judges them all again\./,
    );
    expect(note).toContain('New commits go on `crew/1/r1/integration`; nothing is force-pushed.');
    const reports = said.filter((b) => /^<!-- crew:report /.test(b));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/^<!-- crew:report issue=1 run=2 -->/);
    expect(reports[0]).toContain(
      '### Follow-up 1\n\nRun 2 continues run 1 on this pull request, started by a failed check (`fix_ci`) for @maintainer: new criteria c2, c3.',
    );
    // The report the follow-up wrote shows the attempt (counted on run 1, whose branch the pull request is).
    expect(reports[0]).toContain('**CI fixes** (`fix_ci`): 1 of 2 attempts used.');
    expect(reports[0]).toMatch(/^- Attempt 1 on [0-9a-f]{7}: `test` \(`CI`, \[job\]/m);
    expect(said.filter((b) => /fix_ci_attempts.*stops here/.test(b))).toEqual([]);
    // The attempt is counted once, on run 1 (whose branch the pull request is), and shown in the plan comment.
    expect(w.runs[1]!.fixCi.attempts.map((a) => [a.n, a.headSha, a.checks.map((c) => `${c.workflow}/${c.job}`), a.outcome])).toEqual([
      [1, w.ci[1]!.head, ['CI/test'], 'requested'],
    ]);
    const plan1 = r.issue.comments.find((c) => c.author === r.crewLogin && c.body.startsWith('<!-- crew:plan issue=1 run=1 -->'))!.body;
    expect(plan1).toContain('**CI fixes** (`fix_ci`): 1 of 2 attempts used.');
  }, 600_000);

  it('a check that keeps failing: attempts 1 and 2 each start a follow-up, then one comment that they are used up, and no further run; crew’s own pushes start no CI', async () => {
    const { r, w } = await playFixCi('fix-ci-used-up');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    const pr = r.pulls[0]!;

    // Three pushes by the maintainer, three CI runs, each failing in `test`; crew's pushes (GITHUB_TOKEN) started none.
    expect(w.ci.map((c) => `${c.actor}:${c.result}`)).toEqual(['maintainer:failure', 'maintainer:failure', 'maintainer:failure']);
    const byWorkflowRun = r.jobs.filter((j) => j.event === 'workflow_run');
    // Each started crew's route job; the first two went on to plan a follow-up and start its work.
    expect(byWorkflowRun.filter((j) => j.result !== 'skipped').map((j) => `${j.job}:${j.result}`)).toEqual([
      'route:success',
      'work:success',
      'route:success',
      'work:success',
      'route:success',
    ]);

    // Two follow-ups (runs 2 and 3), each from a CI failure, each finished on the same branch; no run 4.
    expect(Object.keys(w.runs)).toEqual(['1', '2', '3']);
    for (const [k, n] of [
      [2, 1],
      [3, 2],
    ] as const) {
      expect(w.runs[k]!.phase).toBe('COMPLETED');
      expect(w.runs[k]!.followUp).toMatchObject({ pull: pr.number, k: n, branch: 'crew/1/r1/integration', source: 'ci' });
      expect(w.runs[k]!.base.sha).toBe(w.ci[n - 1]!.head);
      expect(w.ancestors[w.runs[k]!.review!.headSha!]).toBe(true);
    }

    const said = crewSaid(r);
    const notes = said.filter((b) => b.startsWith('crew starts follow-up'));
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain('this is attempt 1 of 2 (`fix_ci_attempts`)');
    expect(notes[1]).toMatch(
      /^crew starts follow-up 2 on this pull request \(run 3 of #1\)\. CI failed on [0-9a-f]{7}[^\n]*this is attempt 2 of 2 \(`fix_ci_attempts`\)/,
    );
    // Each follow-up's intake read its failure's log tail; the second keeps the first one's criteria.
    expect(w.intakePrompts).toHaveLength(3);
    for (const p of w.intakePrompts.slice(1)) {
      expect(p).toContain('FAIL test/notes.test.js > lists the notes\\nAssertionError: expected 1 to be 3\\n##[error]Process completed with exit code 1.');
      expect(p).toContain('the `test` check of the `CI` workflow passes');
      expect(p).not.toContain('lint ok');
    }
    expect(w.intakePrompts[2]).toContain('Follow-up 2 on pull request');
    const used = said.filter((b) => /fix_ci_attempts/.test(b) && /stops here/.test(b));
    expect(used).toHaveLength(1);
    expect(used[0]).toMatch(/crew has used all 2 of its `fix_ci_attempts` on this pull request, so it stops here/);
    // Two attempts' logs were read through the redirect, never with the token; the third failure read none.
    expect(w.logDownloads).toEqual([
      { jobId: expect.any(Number), status: 200, authorization: false },
      { jobId: expect.any(Number), status: 200, authorization: false },
    ]);

    // The record on run 1 (the pull request's branch): both attempts, and the head where they ran out.
    const fixCi = w.runs[1]!.fixCi;
    expect(fixCi.attempts.map((a) => [a.n, a.headSha, a.outcome])).toEqual([
      [1, w.ci[0]!.head, 'requested'],
      [2, w.ci[1]!.head, 'requested'],
    ]);
    expect(fixCi.exhaustedNotedFor).toBe(w.ci[2]!.head);
    expect(fixCi.exhaustedNotedFor).toBe(pr.headSha);
    // The plan comment of run 1 shows each attempt and where they ran out.
    const plan = r.issue.comments.find((c) => c.author === r.crewLogin && c.body.startsWith('<!-- crew:plan issue=1 run=1 -->'))!.body;
    expect(plan).toContain('**CI fixes** (`fix_ci`): 2 of 2 attempts used.');
    expect(plan.match(/^- Attempt \d on [0-9a-f]{7}: `test` \(`CI`, \[job\]/gm)).toHaveLength(2);
    expect(plan).toContain(`CI failed again on ${pr.headSha!.slice(0, 7)} with no attempts left`);
  }, 900_000);

  it('with fix_ci off, the failure starts the route job (its if: cannot read crew.yml), which logs a skip and says nothing', async () => {
    const r = await play('fix-ci-used-up', {
      edit: (s) => {
        s.config = 'fix_ci: false\n';
        s.timeline = s.timeline.slice(0, 3);
      },
    });
    expectFaithful(r);
    const route = r.jobs.filter((j) => j.event === 'workflow_run' && j.result !== 'skipped');
    expect(route.map((j) => `${j.job}:${j.result}`)).toEqual(['route:success']);
    expect(r.pulls[0]!.comments.filter((c) => c.author === r.crewLogin && /CI failed|follow-up/.test(c.body))).toEqual([]);
  }, 600_000);
});
