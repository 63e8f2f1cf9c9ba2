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
    // The issue keeps one plan comment: the follow-up took it over, and it shows the pull request's attempts.
    const plans = r.issue.comments.filter((c) => c.author === r.crewLogin && c.body.startsWith('<!-- crew:plan issue=1 '));
    expect(plans.map((c) => c.body.slice(0, 32))).toEqual(['<!-- crew:plan issue=1 run=2 -->']);
    expect(plans[0]!.body).toContain('**CI fixes** (`fix_ci`): 1 of 2 attempts used.');
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
    // The issue's one plan comment (held by the newest follow-up, run 3) shows each attempt and where they ran out.
    const plans = r.issue.comments.filter((c) => c.author === r.crewLogin && c.body.startsWith('<!-- crew:plan issue=1 '));
    expect(plans.map((c) => c.body.slice(0, 32))).toEqual(['<!-- crew:plan issue=1 run=3 -->']);
    const plan = plans[0]!.body;
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

describe('fix_ci: CI that finishes before crew’s run does (#38)', () => {
  /** The route job's comment when a failure comes while a run of the issue still works. */
  const LOOK_AGAIN = /crew will look at this pull request's CI again when that run ends/;

  it('CI fails within a second of crew opening its pull request, while the run still writes its report: crew says it looks again, and when the run ends it follows up on the same pull request; CI passes on the fix', async () => {
    const { r, w } = await playFixCi('fix-ci-fast');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    const pr = r.pulls[0]!;
    expect([pr.head, pr.state]).toEqual(['crew/1/r1/integration', 'open']);
    // CI: red on crew's first head, green on the follow-up's, which is the pull request's head.
    expect(w.ci.map((c) => `${c.actor}:${c.result}`)).toEqual(['crew-bot:failure', 'crew-bot:success']);
    expect(w.ci[1]!.head).toBe(pr.headSha);
    expect(w.ci[0]!.head).toBe(w.runs[1]!.review!.headSha);
    // The failure reached route while run 1 was still working: nothing counted, and crew said it looks again.
    const byCi = r.jobs.filter((j) => j.event === 'workflow_run' && j.result !== 'skipped').map((j) => `${j.job}:${j.result}`);
    expect(byCi).toEqual(['route:success', 'merge:success']);
    const said = crewSaid(r);
    const again = said.filter((b) => LOOK_AGAIN.test(b));
    expect(again).toHaveLength(1);
    expect(again[0]).toMatch(/^CI failed on [0-9a-f]{7} while crew is still working on issue #1 \(run 1, reviewing\)\./);
    expect(said.filter((b) => /no follow-up started/.test(b))).toEqual([]);
    // Run 1 ended, looked once, and started exactly one follow-up: run 2, from that failure, on the same branch.
    expect(Object.keys(w.runs)).toEqual(['1', '2']);
    expect(w.runs[1]!.phase).toBe('COMPLETED');
    expect(w.runs[2]!.phase).toBe('COMPLETED');
    expect(w.runs[2]!.followUp).toMatchObject({ pull: pr.number, k: 1, fromRun: 1, branch: 'crew/1/r1/integration', source: 'ci' });
    expect(w.runs[2]!.base.sha).toBe(w.ci[0]!.head);
    expect(w.runs[2]!.review!.headSha).toBe(pr.headSha);
    expect(said.filter((b) => b.startsWith('crew starts follow-up'))).toEqual([
      expect.stringMatching(
        /^crew starts follow-up 1 on this pull request \(run 2 of #1\)\. CI failed on [0-9a-f]{7}: the `CI` workflow \([^\n]*this is attempt 1 of 2/,
      ),
    ]);
    expect(w.intakePrompts.at(-1)).toContain('src/index.js:');
    expect(w.intakePrompts.at(-1)).toContain('the `lint` check of the `CI` workflow passes');
    expect(w.files['src/index.js']).not.toContain('console.log');
    // The attempt is counted once, on run 1: the route job's not-started entry gave way to the one the run's end started.
    expect(w.runs[1]!.fixCi.attempts.map((a) => [a.n, a.headSha, a.checks.map((c) => `${c.workflow}/${c.job}`), a.outcome])).toEqual([
      [1, w.ci[0]!.head, ['CI/lint'], 'requested'],
    ]);
    expect(w.runs[1]!.fixCi.lookAfter).toBe(1);
    const plan = r.issue.comments.find((c) => c.author === r.crewLogin && c.body.startsWith('<!-- crew:plan issue=1 '))!.body;
    expect(plan).toContain('**CI fixes** (`fix_ci`): 1 of 2 attempts used.');
  }, 600_000);

  it('the same with a CI that passes fast: no follow-up, and nothing posted about CI', async () => {
    const { r, w } = await playFixCi('fix-ci-fast', (s) => {
      s.repo.files['.github/workflows/ci.yml'] = s.repo.files['.github/workflows/ci.yml']!.replace('run: node scripts/lint.js', 'run: echo lint ok');
    });
    expectFaithful(r);
    expect(w.ci.map((c) => `${c.actor}:${c.result}`)).toEqual(['crew-bot:success']);
    expect(Object.keys(w.runs)).toEqual(['1']);
    expect(w.runs[1]!.fixCi.attempts).toEqual([]);
    // The success went to the merge job (the run was still working: nothing to say), and crew said nothing about CI.
    expect(r.jobs.filter((j) => j.event === 'workflow_run' && j.result !== 'skipped').map((j) => j.job)).toEqual(['merge']);
    expect(crewSaid(r).filter((b) => !/^<!-- crew:/.test(b))).toEqual([]);
    expect(crewSaid(r).filter((b) => /fix_ci|CI failed/.test(b))).toEqual([]);
  }, 600_000);

  it('CI fails again on the follow-up’s own push while it is still judging: picked up when the follow-up ends, as attempt 2 of 2, whose fix passes', async () => {
    const { r, w } = await playFixCi('fix-ci-fast-again');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    const pr = r.pulls[0]!;
    expect(w.ci.map((c) => `${c.actor}:${c.result}`)).toEqual(['crew-bot:failure', 'crew-bot:failure', 'crew-bot:success']);
    expect(w.ci[2]!.head).toBe(pr.headSha);
    // Each failure came while a run was working (run 1 writing its report, then follow-up 1 judging): crew said it looks again.
    const again = crewSaid(r).filter((b) => LOOK_AGAIN.test(b));
    expect(again.map((b) => /\(run (\d), (\w+)\)/.exec(b)?.slice(1).join(' '))).toEqual(['1 reviewing', '2 reviewing']);
    // Two follow-ups, each started by the end of the run before it, on the head whose CI failed.
    expect(Object.keys(w.runs)).toEqual(['1', '2', '3']);
    for (const [k, n] of [
      [2, 1],
      [3, 2],
    ] as const) {
      expect(w.runs[k]!.phase).toBe('COMPLETED');
      expect(w.runs[k]!.followUp).toMatchObject({ pull: pr.number, k: n, source: 'ci' });
      expect(w.runs[k]!.base.sha).toBe(w.ci[n - 1]!.head);
    }
    expect(w.runs[1]!.fixCi.attempts.map((a) => [a.n, a.headSha, a.outcome])).toEqual([
      [1, w.ci[0]!.head, 'requested'],
      [2, w.ci[1]!.head, 'requested'],
    ]);
    expect(w.runs[1]!.fixCi.exhaustedNotedFor).toBeNull();
    expect(w.files['src/index.js']).not.toMatch(/console\.log|TODO/);
    const notes = crewSaid(r).filter((b) => b.startsWith('crew starts follow-up'));
    expect(notes.map((b) => /this is attempt (\d) of (\d)/.exec(b)?.slice(1).join('/'))).toEqual(['1/2', '2/2']);
  }, 900_000);
});

describe('after CI fails on crew’s pull request, the report says why it is not merged (#39)', () => {
  /** The Merge section of the pull request's report comment, and the plan comment's line, as the run left them. */
  const mergeWords = (r: Played) => {
    const report = crewSaid(r).find((b) => b.startsWith('<!-- crew:report '))!;
    const section = /<!-- crew:merge -->\n### Merge\n\n(.*)\n<!-- \/crew:merge -->/.exec(report)?.[1];
    const plan = r.issue.comments.find((c) => c.author === r.crewLogin && c.body.startsWith('<!-- crew:plan issue=1 '))!.body;
    return { section, plan };
  };

  it('fix_ci on and its attempts used up: no merge; the report and the plan comment say which check failed, with its run, and what a person can do; the used-up note stays', async () => {
    const { r, w } = await playFixCi('fix-ci-fast-again', (s) => {
      s.config = 'fix_ci: true\nfix_ci_attempts: 1\nauto_merge: true\n';
      // With one attempt, follow-up 1's report may come before or after CI fails on its push (both end as below),
      // so the scenario's hold on that report's edit, which orders them for the second attempt, is dropped here.
      s.timeline = s.timeline.filter((t) => !('hold_request' in t && t.hold_request.body?.includes('run=2')));
    });
    expectFaithful(r);
    const pr = r.pulls[0]!;
    expect([pr.state, pr.merged]).toEqual(['open', false]);
    expect(w.ci.map((c) => `${c.actor}:${c.result}`)).toEqual(['crew-bot:failure', 'crew-bot:failure']);
    expect(Object.keys(w.runs)).toEqual(['1', '2']);
    const head = pr.headSha!.slice(0, 7);
    const { section, plan } = mergeWords(r);
    const said = new RegExp(
      `^the \`lint\` check of \`CI\` failed on ${head} \\(\\[run\\]\\(http://127\\.0\\.0\\.1:\\d+/acme/widgets/actions/runs/\\d+\\)\\)\\. crew has used all 1 of its \`fix_ci_attempts\` on this pull request\\. Push a fix, or comment \`/crew fix …\`; crew merges once the checks pass$`,
    );
    expect(w.runs[2]!.merge).toMatchObject({ state: 'not-merged', headSha: pr.headSha });
    expect(w.runs[2]!.merge!.reason).toMatch(said);
    expect(section).toBe(`Not merged by crew: ${w.runs[2]!.merge!.reason}.`);
    expect(plan).toContain(`· not merged by crew: ${w.runs[2]!.merge!.reason}`);
    for (const text of [section!, plan]) expect(text).not.toMatch(/waiting|⏳/i);
    // The used-up note: said once on the pull request, and kept in the plan comment.
    expect(crewSaid(r).filter((b) => /crew has used all 1 of its `fix_ci_attempts` on this pull request, so it stops here/.test(b))).toHaveLength(1);
    expect(plan).toContain(`CI failed again on ${head} with no attempts left, so crew stopped fixing CI on this pull request.`);
    expect(w.runs[1]!.fixCi.exhaustedNotedFor).toBe(pr.headSha);
  }, 900_000);
});
