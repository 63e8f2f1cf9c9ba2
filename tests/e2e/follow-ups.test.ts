import { describe, expect, it } from 'vitest';
import type { FakeReviewComment } from '../support/github/model';
import { expectFaithful, play, shown } from './helpers';

type Played = Awaited<ReturnType<typeof play>>;
const crewSaid = (r: Played, pr: number) =>
  r.pulls
    .find((p) => p.number === pr)!
    .comments.filter((c) => c.author === r.crewLogin)
    .map((c) => shown(c.body));
const started = (r: Played, event: string) => r.jobs.filter((j) => j.event === event && j.result !== 'skipped').map((j) => `${j.job}:${j.result}`);

interface World {
  runs: Record<
    number,
    {
      followUp: unknown;
      base: unknown;
      pr: unknown;
      phase: string;
      review: { headSha: string } | null;
      merge: { state: string; reason: string } | null;
      planCommentId: number | null;
      planCommentPassedTo: number | null;
    }
  >;
  threads: FakeReviewComment[];
  ancestors: Record<string, boolean>;
  intakePrompt: string;
  reportEdits: number;
  files: Record<string, string | undefined>;
}

/** What the scenario left: run records, review comments, ancestry of earlier heads, the follow-up intake's prompt. */
async function playFollowUp(name: string): Promise<{ r: Played; w: World }> {
  const w: World = { runs: {}, threads: [], ancestors: {}, intakePrompt: '', reportEdits: 0, files: {} };
  const heads: string[] = [];
  const r = await play(name, {
    hooks: {
      onCrewComment: (e) => {
        if (e.edited && /^<!-- crew:report /.test(e.body)) w.reportEdits++;
      },
      beforeClose: async ({ gh, anthropic }) => {
        for (const k of [1, 2, 3]) {
          const text = await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-${k}/run.json`);
          if (text) w.runs[k] = JSON.parse(text) as World['runs'][number];
        }
        w.threads = [...gh.reviewComments];
        const final = (await gh.repo.branchSha('crew/1/r1/integration'))!;
        for (const rec of Object.values(w.runs)) if (rec.review?.headSha) heads.push(rec.review.headSha);
        for (const rec of Object.values(w.runs)) {
          const f = rec.followUp as { crewHead: string | null } | null;
          if (rec.base && f) heads.push((rec.base as { sha: string }).sha);
        }
        for (const h of heads) w.ancestors[h] = await gh.repo.isAncestor(h, final);
        for (const path of ['CHANGELOG.md', 'src/index.js']) w.files[path] = await gh.repo.readFile(final, path);
        const intake = anthropic.requests.filter((q) => q.role === 'intake').at(-1);
        w.intakePrompt = JSON.stringify(intake?.body.messages ?? []);
      },
    },
  });
  return { r, w };
}

/** One plan comment by crew on the issue: run 1's, taken over by run 2 (the follow-up), which it shows. */
function expectOnePlanComment(r: Played, w: World): void {
  const plans = r.issue.comments.filter((c) => c.author === r.crewLogin && c.body.startsWith('<!-- crew:plan '));
  expect(plans).toHaveLength(1);
  expect(plans[0]!.id).toBe(w.runs[1]!.planCommentId);
  expect(w.runs[2]!.planCommentId).toBe(w.runs[1]!.planCommentId);
  expect(w.runs[1]!.planCommentPassedTo).toBe(2);
  expect(plans[0]!.body).toMatch(/^<!-- crew:plan issue=1 run=2 --><!-- crew:version v=\d+ -->\n### crew · run 2 · ✅ Done\n/);
  expect(plans[0]!.body).toMatch(
    /Follow-up 1 on pull request #2 \(continues run 1, which this comment showed before: \[its report\]\([^)]*issue-1\/run-1\/report\.md\)\)/,
  );
}

describe('follow-up runs on crew’s own pull request (#19 §1)', () => {
  it('a review with two line comments and a /crew review: follow-up commits on the same pull request, a reply in each thread naming the commit, every criterion judged again, the report edited', async () => {
    const { r, w } = await playFollowUp('pr-follow-up');
    expectFaithful(r);
    // One pull request, updated in place.
    expect(r.pulls).toHaveLength(1);
    const pr = r.pulls[0]!;
    expect([pr.number, pr.head, pr.base, pr.state]).toEqual([2, 'crew/1/r1/integration', 'main', 'open']);
    const run2 = w.runs[2]!;
    expect(run2.phase).toBe('COMPLETED');
    expect(run2.pr).toMatchObject({ number: 2 });
    expect(run2.followUp).toMatchObject({ pull: 2, k: 1, fromRun: 1, branch: 'crew/1/r1/integration', source: 'review', added: ['c2', 'c3', 'c4'] });
    // Workers started from the pull request's head; the work went on top of it, never replacing it.
    const run1Head = w.runs[1]!.review!.headSha;
    expect((run2.base as { sha: string }).sha).toBe(run1Head);
    expect(w.ancestors[run1Head]).toBe(true);
    expect(pr.headSha).toBe(run2.review!.headSha);
    expect(w.files['src/index.js']).toContain("return text.trim().toUpperCase() + '!';");
    // The critic judged the original criterion and the three new ones.
    expect(pr.body).toMatch(
      /### Done criteria \(critic: PASS\)\n- ✅ The tests pass \(`npm test`\)\n- ✅ The line comments[^\n]*\n- ✅ shout trims[^\n]*\n- ✅ The JSDoc/,
    );
    expect(pr.body).toContain('### Follow-up 1');
    // The report comment is the same comment, edited, now run 2's with its follow-up section.
    const reports = crewSaid(r, 2).filter((b) => /^<!-- crew:report /.test(b));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(
      /^<!-- crew:report issue=1 run=2 -->\n## crew report · issue #1 · run 2\n\n### Follow-up 1\n\nRun 2 continues run 1 on this pull request, asked by @reviewer in a review: new criteria c2, c3, c4; 2 review threads addressed\./,
    );
    expect(reports[0]).toMatch(/\| ✅ \*\*c1\*\* The tests pass \| met/);
    expect(reports[0]).toMatch(/\| ✅ \*\*c4\*\* The JSDoc/);
    expect(w.reportEdits).toBeGreaterThan(0);
    // Intake read both unresolved threads by the writer, with their hunks; not the resolved one, not a reader's.
    expect(w.intakePrompt).toContain('Trim the text first');
    expect(w.intakePrompt).toContain('The JSDoc should say that it trims.');
    expect(w.intakePrompt).toContain('Please address my line comments.');
    expect(w.intakePrompt).toContain('```diff');
    expect(w.intakePrompt).not.toContain('Old nit');
    expect(w.intakePrompt).not.toContain('purple');
    expect(w.intakePrompt).toContain('c1: The tests pass');
    // Each addressed thread got one reply from crew, naming the commit; the others none; no thread was resolved by crew.
    const roots = w.threads.filter((c) => c.in_reply_to === undefined);
    const repliesTo = (body: RegExp) => {
      const root = roots.find((c) => body.test(c.body))!;
      return w.threads.filter((c) => c.in_reply_to === root.id).map((c) => `${c.user}: ${c.body}`);
    };
    const reply = `${r.crewLogin}: Addressed in ${pr.headSha} (follow-up 1, run 2 of #1); the critic judged it with every other criterion. Resolve this thread if you agree.`;
    expect(repliesTo(/^Trim the text/)).toEqual([reply]);
    expect(repliesTo(/^The JSDoc/)).toEqual([reply]);
    expect(repliesTo(/^Old nit/)).toEqual([]);
    expect(repliesTo(/purple/)).toEqual([]);
    expect(roots.filter((c) => c.resolved).map((c) => c.body)).toEqual(['Old nit about capitalize, settled already.']);
    // The note on the pull request, and the plan comment of run 2 on the issue.
    expect(crewSaid(r, 2).some((b) => b.startsWith('crew starts follow-up 1 on this pull request (run 2 of #1), asked by @reviewer'))).toBe(true);
    // The issue keeps one live plan comment: run 1's, taken over by the follow-up, now showing run 2 with a link to run 1's report.
    expectOnePlanComment(r, w);
    // Line comments without /crew started no route job; the /crew review did.
    expect(started(r, 'pull_request_review_comment')).toEqual([]);
    expect(started(r, 'pull_request_review').filter((j) => j.startsWith('route'))).toEqual(['route:success']);
  }, 600_000);

  it('a hand-pushed commit on crew’s branch survives a follow-up, and the earlier pass does not merge it', async () => {
    const { r, w } = await playFollowUp('pr-follow-up-hand-push');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    const pr = r.pulls[0]!;
    expect(pr.merged).toBe(false);
    // The approval came after the hand push: the gate refused run 1's pass, judged on the older head.
    expect(w.runs[1]!.merge).toMatchObject({ state: 'not-merged' });
    expect(w.runs[1]!.merge!.reason).toMatch(/^the head moved to [0-9a-f]{7} after the critic passed [0-9a-f]{7}; crew merges only what the critic judged$/);
    // The follow-up started from the hand-pushed head and kept the commit; its own work went on top.
    const run2 = w.runs[2]!;
    const handHead = (run2.base as { sha: string }).sha;
    expect(handHead).not.toBe(w.runs[1]!.review!.headSha);
    expect(run2.followUp).toMatchObject({ crewHead: w.runs[1]!.review!.headSha, source: 'comment' });
    expect(w.ancestors[handHead]).toBe(true);
    expect(w.ancestors[w.runs[1]!.review!.headSha]).toBe(true);
    expect(w.files['CHANGELOG.md']).toContain('- shout()');
    expect(w.files['src/index.js']).toContain('text.trim().toUpperCase()');
    // The approval was of the hand-pushed head, not the follow-up's: nothing merges until someone approves the new head.
    expect(run2.merge).toMatchObject({ state: 'waiting' });
    const report = crewSaid(r, 2).find((b) => /^<!-- crew:report issue=1 run=2 -->/.test(b))!;
    expect(report).toContain(`The branch had commits crew did not make (head ${handHead.slice(0, 7)} when the follow-up started`);
    expect(crewSaid(r, 2).some((b) => b.includes("The critic's earlier pass no longer counts for merging"))).toBe(true);
    expectOnePlanComment(r, w);
  }, 600_000);

  it('iterate_on_review: a writer’s changes-requested review with line comments (ids past 2^31) starts a follow-up on the same pull request that replies in each thread; with the key off route skips it, logged; an ordinary review starts no job', async () => {
    const on = await playFollowUp('pr-iterate-on-review');
    expectFaithful(on.r);
    expect(on.r.pulls).toHaveLength(1);
    expect(on.w.runs[2]?.followUp).toMatchObject({ pull: 2, k: 1, source: 'review' });
    expect(on.w.runs[2]!.phase).toBe('COMPLETED');
    expect(on.w.intakePrompt).toContain("Trim the text first: shout('  hi ') should give 'HI!'");
    // The review's line comments, ids past 2^31 as on GitHub, are the threads the follow-up took up (read over
    // GraphQL by fullDatabaseId, the schema checked): crew replied once in each, naming the head it pushed.
    const pr = on.r.pulls[0]!;
    const roots = on.w.threads.filter((c) => c.in_reply_to === undefined);
    expect(roots.map((c) => c.body)).toEqual(['Trim here, before upper-casing.', 'The JSDoc should say that it trims.']);
    expect(on.w.intakePrompt).toContain('Trim here, before upper-casing.');
    expect((on.w.runs[2]!.followUp as { threads: Array<{ rootId: number }> }).threads.map((t) => t.rootId)).toEqual(roots.map((c) => c.id));
    for (const root of roots) {
      expect([root.id, root.review].every((id) => id > 2 ** 31)).toBe(true);
      expect(on.w.threads.filter((c) => c.in_reply_to === root.id).map((c) => `${c.user}: ${c.body}`)).toEqual([
        `${on.r.crewLogin}: Addressed in ${pr.headSha} (follow-up 1, run 2 of #1); the critic judged it with every other criterion. Resolve this thread if you agree.`,
      ]);
    }
    expect(pr.headSha).toBe(on.w.runs[2]!.review!.headSha);
    expect(started(on.r, 'pull_request_review_comment')).toEqual([]);
    // The COMMENT review without /crew: filtered by the workflow. The changes-requested one: route, then the run.
    expect(started(on.r, 'pull_request_review').filter((j) => j.startsWith('route'))).toEqual(['route:success']);

    const routeLogs: string[] = [];
    const off = await play('pr-iterate-on-review', {
      edit: (s) => {
        s.config = '';
      },
      hooks: {
        onJobDone: (run, job) => {
          if (run.event === 'pull_request_review' && job.id === 'route') routeLogs.push(...job.log);
        },
      },
    });
    expectFaithful(off);
    expect(off.pulls).toHaveLength(1);
    expect(started(off, 'pull_request_review').filter((j) => j.startsWith('route'))).toEqual(['route:success']);
    expect(routeLogs.some((l) => l.includes('iterate_on_review is off in .github/crew.yml, so no follow-up starts'))).toBe(true);
    // Nothing beyond run 1: no follow-up model call, no note on the pull request.
    expect(off.model.requests).toBeLessThan(on.r.model.requests);
    expect(crewSaid(off, 2).some((b) => b.includes('follow-up'))).toBe(false);
  }, 900_000);
});
