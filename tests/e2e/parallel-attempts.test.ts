import { describe, expect, it } from 'vitest';
import { crewComments, expectFaithful, play } from './helpers';

/** The worker starts per parallel attempt, from each attempt's first request. */
async function played(name: string, workflow?: 'full') {
  const starts: string[] = [];
  let mainSum: string | null | undefined;
  const r = await play(name, {
    ...(workflow ? { edit: (sc) => void (sc.workflow = workflow) } : {}),
    hooks: {
      beforeClose: async ({ anthropic, gh }) => {
        mainSum = await gh.repo.readFile('refs/heads/main', 'src/sum.js');
        for (const q of anthropic.requests)
          if (q.role === 'worker' && q.turn === 0) starts.push(/Parallel attempt: (\d) of 3/.exec(JSON.stringify(q.body))?.[1] ?? '-');
      },
    },
  });
  expectFaithful(r);
  return { r, starts: starts.sort(), mainSum };
}

const planComment = (r: Awaited<ReturnType<typeof play>>) => crewComments(r).find((c) => c.body.includes('Attempts of t1'))?.body ?? '';

describe('parallel attempts of a task, chosen by tests (#50)', () => {
  it('three attempts, two wrong in different ways: the pull request holds the right one, the plan comment lists all three with the reason, and the others go with the run', async () => {
    const { r, starts, mainSum } = await played('parallel-attempts');
    expect(starts).toEqual(['1', '2', '3']);
    const comment = planComment(r);
    expect(comment).toContain('Attempts of t1');
    // Attempt 1 leaves the FAIL_TO_PASS test failing; attempt 2 switched a passing test off; attempt 3 is kept.
    expect(comment).toMatch(/\| 1 ❌ \| .*crew\/1\/r1\/t1\b.*npm test.* failed.*test\/negatives\.test\.js › sum adds negative numbers/);
    expect(comment).toMatch(/\| 2 ❌ \| .*crew\/1\/r1\/t1-a2.*sum of nothing is 0 passed on the base and is skipped here/);
    expect(comment).toMatch(/\| 3 ✅ kept \| .*crew\/1\/r1\/t1-a3/);
    expect(comment).toContain('Kept attempt 3: the only attempt that met every command criterion');
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.merged).toBe(true);
    // What was merged is attempt 3's sum, not attempt 1's or 2's (and no test was switched off).
    expect(mainSum).toContain('return numbers.reduce((total, n) => total + n, 0);');
    // Merged by crew: every branch of the run, the attempts not kept among them, is gone.
    expect(r.branches.map((b) => b.name).sort()).toEqual(['crew/state', 'main']);
  }, 480_000);

  it('the full workflow form: each attempt is a `work (t1-a2)` leg of its own job, and the kept one reaches the pull request', async () => {
    const { r, starts, mainSum } = await played('parallel-attempts', 'full');
    expect(starts).toEqual(['1', '2', '3']);
    expect(r.jobs.map((j) => j.name).filter((n) => n.startsWith('work'))).toEqual(expect.arrayContaining(['work (t1)', 'work (t1-a2)', 'work (t1-a3)']));
    expect(planComment(r)).toContain('Kept attempt 3');
    expect(mainSum).toContain('return numbers.reduce((total, n) => total + n, 0);');
    expect(r.branches.map((b) => b.name).sort()).toEqual(['crew/state', 'main']);
  }, 480_000);

  it('three attempts, all wrong: no pull request, and the report says each candidate’s failing tests', async () => {
    const { r, starts } = await played('parallel-attempts-none');
    expect(starts).toEqual(['1', '2', '3']);
    expect(r.pulls).toHaveLength(0);
    const report = crewComments(r).find((c) => c.body.includes('## crew report'))?.body ?? '';
    expect(report).toContain('None qualified');
    expect(report).toMatch(/\| 1 ❌ \|.*test\/negatives\.test\.js › sum adds negative numbers/);
    expect(report).toMatch(/\| 2 ❌ \|.*sum of nothing is 0 passed on the base and is skipped here/);
    expect(report).toMatch(/\| 3 ❌ \|.*test\/negatives\.test\.js › sum adds negative numbers/);
  }, 480_000);
});
