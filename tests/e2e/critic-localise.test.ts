import { describe, expect, it } from 'vitest';
import type { Judgment } from '../../src/domain/judgment';
import { crewComments, expectFaithful, play } from './helpers';

/** The judgments the run recorded, and how many times each task's worker started. */
async function played(name: string) {
  const judgments: Judgment[] = [];
  const starts = new Map<string, number>();
  const prompts: string[] = [];
  const r = await play(name, {
    hooks: {
      beforeClose: async ({ anthropic, gh }) => {
        for (let i = 1; i <= 4; i++) {
          const text = await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-1/judgments/judgment_${i}.json`);
          if (text) judgments.push(JSON.parse(text) as Judgment);
        }
        for (const q of anthropic.requests)
          if (q.role === 'worker' && q.turn === 0) {
            starts.set(q.task!, (starts.get(q.task!) ?? 0) + 1);
            prompts.push(`${q.task}: ${JSON.stringify(q.body)}`);
          }
      },
    },
  });
  expectFaithful(r);
  return { r, judgments, starts, prompts };
}

describe('localisation (#18 §1)', () => {
  it('one task breaks the build: crew re-runs `npm test` on the base and on each task branch alone, names that task, sends only it back, and the second judgment passes', async () => {
    const { r, judgments, starts } = await played('critic-localise');
    expect(judgments.map((j) => j.verdict)).toEqual(['FAIL', 'PASS']);
    const [l] = judgments[0]!.localisation!;
    expect(l).toMatchObject({ criterion: 'c1', command: 'npm test', outcome: { kind: 'tasks', tasks: ['t1'], how: 'alone' } });
    expect(l!.runs.map((x) => [x.site.kind === 'base' ? 'base' : x.site.task, x.exitCode, x.verdict])).toEqual([
      ['base', 0, 'passes'],
      ['t1', 1, 'fails'],
      ['t2', 0, 'passes'],
      ['t3', 0, 'passes'],
    ]);
    // The critic model blamed t2 and t3; the runs decide: only t1 ran again.
    expect(judgments[0]!.evaluations[0]!.tasks).toEqual(['t1']);
    expect(Object.fromEntries(starts)).toEqual({ t1: 2, t2: 1, t3: 1 });
    // The comment that sends it back shows the table, and the report keeps it under the earlier rounds.
    const sendBack = crewComments(r).find((c) => c.body.startsWith("**crew's critic** judged run 1 FAIL"))!;
    expect(sendBack.body).toContain('sends t1 back');
    expect(sendBack.body).toContain('| Task | What ran | Exit code | Verdict |');
    // The table names the tests that convict t1: those failing on its branch and not on the base (#32).
    expect(sendBack.body).toContain(
      "| t1 | npm test on t1's branch alone on the base | 1 | fails: test/mean.test.js › mean of 2 and 4 is 3; test/sum.test.js › sum adds its arguments |",
    );
    expect(sendBack.body).toContain('| t3 | npm test on t3');
    expect(r.pulls).toHaveLength(1);
    const report = r.pulls[0]!.comments.find((c) => c.body.includes('## crew report'))!.body;
    expect(report).toContain('Earlier rounds: where the failures came from (1)');
    expect(report).toContain('c1 fails because of t1');
  }, 360_000);

  it('only a combination fails: no branch fails alone, so crew leaves one task out at a time; without either it passes, so both are named', async () => {
    const { r, judgments } = await played('critic-localise-combination');
    expect(judgments.map((j) => j.verdict)).toEqual(['FAIL']);
    const [l] = judgments[0]!.localisation!;
    expect(l!.outcome).toEqual({ kind: 'tasks', tasks: ['t1', 't2'], how: 'without' });
    expect(l!.runs.map((x) => [x.site.kind, x.site.kind === 'base' ? '-' : x.site.task, x.exitCode, x.verdict])).toEqual([
      ['base', '-', 0, 'passes'],
      ['alone', 't1', 0, 'passes'],
      ['alone', 't2', 0, 'passes'],
      ['without', 't1', 0, 'passes'],
      ['without', 't2', 0, 'passes'],
    ]);
    const decision = crewComments(r).find((c) => c.body.includes('crew needs a decision'))!;
    expect(decision.body).toContain('c1 fails because of t1, t2: without one of them, `npm test` passes');
    expect(decision.body).toContain('| t2 | npm test on the integrated work without t2 | 0 | passes |');
    expect(r.pulls).toHaveLength(0);
  }, 360_000);

  it('the criterion already fails on the base: crew says so, blames no task and re-runs nothing; the maintainer accepts', async () => {
    const { r, judgments, starts } = await played('critic-base-failing');
    expect(judgments.map((j) => j.verdict)).toEqual(['FAIL']);
    expect(judgments[0]!.localisation![0]!.outcome).toEqual({ kind: 'before' });
    expect(judgments[0]!.evaluations[0]!.tasks).toEqual([]);
    expect(Object.fromEntries(starts)).toEqual({ t1: 1, t2: 1 });
    const decision = crewComments(r).find((c) => c.body.includes('crew needs a decision'))!;
    expect(decision.body).toContain("c1 fails before crew's changes: `npm test` fails the same way on the base branch");
    expect(decision.body).toContain('| – | npm test on the base');
    expect(decision.body).toContain('| fails |');
    expect(crewComments(r).some((c) => c.body.startsWith("**crew's critic**"))).toBe(false);
    expect(r.pulls).toHaveLength(1);
  }, 360_000);

  it("a failure already on the base that the issue asks to fix (#50): the task whose files are the test's code, and only it, goes back with the test's output; the run ends in a PR", async () => {
    const { r, judgments, starts, prompts } = await played('critic-base-failing-owned');
    expect(judgments.map((j) => j.verdict)).toEqual(['FAIL', 'PASS']);
    const [l] = judgments[0]!.localisation!;
    // The square task changed src/index.js, which the test imports too; the sum task was given the test.
    expect(l!.outcome).toEqual({
      kind: 'before',
      owners: { tasks: ['t1'], tests: ['test/negatives.test.js'], code: ['src/sum.js'] },
    });
    expect(judgments[0]!.evaluations[0]!.tasks).toEqual(['t1']);
    expect(Object.fromEntries(starts)).toEqual({ t1: 2, t2: 1, t3: 1 });
    // Its second attempt starts from the test's output.
    const again = prompts.filter((p) => p.startsWith('t1: '))[1]!;
    expect(again).toContain("This failure was there before crew's changes");
    expect(again).toContain('test/negatives.test.js › sum adds negative numbers');
    expect(again).toContain('0 !== -5');
    const sendBack = crewComments(r).find((c) => c.body.startsWith("**crew's critic** judged run 1 FAIL"))!;
    expect(sendBack.body).toContain('sends t1 back');
    expect(sendBack.body).toContain("test/negatives.test.js exercises code in t1's files (src/sum.js)");
    expect(crewComments(r).some((c) => c.body.includes('crew needs a decision'))).toBe(false);
    expect(r.pulls).toHaveLength(1);
  }, 360_000);
});
