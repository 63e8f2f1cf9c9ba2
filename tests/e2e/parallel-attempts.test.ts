import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../support/scenario/schema';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play, shown } from './helpers';

/** The worker starts per parallel attempt, from each attempt's first request. */
async function played(name: string, workflow?: 'full', edit?: (s: Scenario) => void) {
  const starts: string[] = [];
  let mainSum: string | null | undefined;
  let state: { run: { phase: string; waiting: unknown }; task: Record<string, unknown> } | undefined;
  const r = await play(name, {
    edit: (sc) => {
      if (workflow) sc.workflow = workflow;
      edit?.(sc);
    },
    hooks: {
      beforeClose: async ({ anthropic, gh }) => {
        mainSum = await gh.repo.readFile('refs/heads/main', 'src/sum.js');
        const file = async (path: string) => JSON.parse((await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-1/${path}`)) ?? 'null');
        state = { run: await file('run.json'), task: await file('tasks/task_t1.json') };
        for (const q of anthropic.requests)
          if (q.role === 'worker' && q.turn === 0) starts.push(/Parallel attempt: (\d) of 3/.exec(JSON.stringify(q.body))?.[1] ?? '-');
      },
    },
  });
  expectFaithful(r);
  return { r, starts: starts.sort(), mainSum, state: state! };
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

/** A server that prints what is not MCP (tests/support/mcp/servers.mjs): each leg's job notes it. */
const NOISY_MCP = `mcp_servers:\n  noisy:\n    command: node\n    args: [${join(PROJECT_ROOT, 'tests', 'support', 'mcp', 'servers.mjs')}, garbage]\n    tools: ["*"]\n`;

describe('parallel attempts when the job judging them stops, and at a repository budget', () => {
  it('the task settled on its attempts keeps what each leg’s job noted about the repository’s MCP servers', async () => {
    const { r } = await played('parallel-attempts', undefined, (s) => void (s.config = `${s.config ?? ''}${NOISY_MCP}`));
    const comment = shown(planComment(r));
    expect(comment).toContain('Kept attempt 3');
    expect(comment).toMatch(/- t1: MCP server `noisy` not started: it printed something that is not an MCP message on stdout/);
  }, 600_000);

  it('the judging leg lost while judging: advance starts one leg that judges the recorded attempts again (no worker runs twice), and the run ends as before', async () => {
    const { r, starts, mainSum } = await played('parallel-attempts', undefined, (s) => {
      s.kill.push({ job: 'work', checkpoint: 'candidates-judging', mode: 'lost', times: 1 });
    });
    expect(r.jobs.filter((j) => j.killedAt).map((j) => j.killedAt)).toEqual(['candidates-judging']);
    expect(starts).toEqual(['1', '2', '3']);
    const comment = shown(planComment(r));
    expect(comment).toContain('Kept attempt 3: the only attempt that met every command criterion');
    expect(mainSum).toContain('return numbers.reduce((total, n) => total + n, 0);');
    expect(r.branches.map((b) => b.name).sort()).toEqual(['crew/state', 'main']);
  }, 600_000);

  it('the workflow run cancelled while judging: the run is interrupted, and `/crew resume` judges the recorded attempts without running a worker again', async () => {
    const { r, starts, mainSum } = await played('parallel-attempts', undefined, (s) => {
      s.kill.push({ job: 'work', checkpoint: 'candidates-judging', mode: 'cancel', times: 1 });
      s.timeline.splice(2, 0, { comment: '/crew resume', author: 'maintainer', unless_crew_said: '✅ Done' }, { wait: 'idle' });
    });
    expect(r.jobs.filter((j) => j.killedAt).map((j) => j.killedAt)).toEqual(['candidates-judging']);
    expect(r.issue.comments.some((c) => c.body === '/crew resume')).toBe(true);
    expect(starts).toEqual(['1', '2', '3']);
    expect(planComment(r)).toContain('Kept attempt 3');
    expect(mainSum).toContain('return numbers.reduce((total, n) => total + n, 0);');
    expect(r.branches.map((b) => b.name).sort()).toEqual(['crew/state', 'main']);
  }, 600_000);

  it('the repository’s day budget reached before the attempts begin: no worker starts, and the task waits at the budget as a task run once does', async () => {
    const { r, starts, state } = await played('parallel-attempts', undefined, (s) => {
      // Planning alone takes the day past it; nothing was spent today when the run starts.
      s.config = `${s.config ?? ''}budgets:\n  day: 0.0001\n`;
      s.timeline = s.timeline.slice(0, 2);
    });
    expect(starts).toEqual([]);
    expect(r.pulls).toEqual([]);
    expect(state.run).toMatchObject({ phase: 'ESCALATING', waiting: { kind: 'budget', limit: 'day' } });
    // Back to pending with no candidate: `/crew continue` after the reset starts every attempt afresh.
    expect(state.task).toMatchObject({ status: 'pending', attempts: 0 });
    expect(state.task.candidates).toBeUndefined();
    const question = crewComments(r).find((c) => c.body.includes('crew stopped at a budget'))?.body ?? '';
    expect(question).toContain("the repository's runs have spent");
    expect(question).toContain('`budgets.day`');
  }, 600_000);
});

describe('parallel attempts a budget stopped, every one (#50, #52)', () => {
  it('both attempts cut at the run’s budget stop: nothing is judged, the task waits at the budget with each attempt’s work on its branch, and `/crew continue` goes on from there to a pull request', async () => {
    let atStop: { run: Record<string, unknown>; t1: Record<string, unknown>; notes: (string | undefined)[]; question: string; judged: boolean } | undefined;
    const starts: Record<string, string[]> = {};
    const found: Record<string, boolean> = {};
    const r = await play('parallel-budget-stop-all-legs', {
      hooks: {
        onStep: async (_step, index, gh) => {
          if (index !== 2) return;
          const read = async (path: string) => JSON.parse((await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-1/${path}`)) ?? 'null');
          const comments = [...gh.comments.values()].map((c) => c.body);
          atStop = {
            run: await read('run.json'),
            t1: await read('tasks/task_t1.json'),
            notes: [await gh.repo.readFile('refs/heads/crew/1/r1/t1', 'notes/A.md'), await gh.repo.readFile('refs/heads/crew/1/r1/t1-a2', 'notes/A.md')],
            question: comments.find((b) => b.includes('crew stopped at a budget')) ?? '',
            judged: comments.some((b) => b.includes('Attempts of t1')),
          };
        },
        beforeClose: async ({ anthropic }) => {
          for (const q of anthropic.requests) {
            if (q.role !== 'worker' || q.task !== 't1') continue;
            const body = JSON.stringify(q.body);
            const leg = /Parallel attempt: (\d) of 2/.exec(body)?.[1] ?? '-';
            const attempt = /Attempt: (\d+)/.exec(body)?.[1] ?? '-';
            if (q.turn === 0) (starts[leg] ??= []).push(attempt);
            // The continued attempt's first look at notes/A.md (its first turn) finds what the same attempt wrote before the stop.
            if (q.turn === 1 && attempt === '2') found[leg] = new RegExp(`Attempt ${leg}, line \\d`).test(body);
          }
        },
      },
    });
    expectFaithful(r);
    const s = atStop!;
    expect(s.run).toMatchObject({ phase: 'ESCALATING', waiting: { kind: 'budget', limit: 'run' } });
    // Waiting, not failed, and nothing judged: both attempts' work is on their branches for `/crew continue`.
    expect(s.t1).toMatchObject({ status: 'pending', attempts: 1, parallel: 2 });
    expect(s.t1.candidates).toBeUndefined();
    expect(s.t1.selection).toBeUndefined();
    expect(s.judged).toBe(false);
    expect(s.notes[0]).toMatch(/^# A\n\nAttempt 1, line \d\.\n$/);
    expect(s.notes[1]).toMatch(/^# A\n\nAttempt 2, line \d\.\n$/);
    // Asked when t2 stopped the run, while t1's attempts still worked.
    expect(s.question).toContain('⏳ t1: still running');
    // After `/crew continue $5` each attempt starts once more (attempt 2), from its branch, and one is kept for the pull request.
    expect(starts).toEqual({ '1': ['1', '2'], '2': ['1', '2'] });
    expect(found).toEqual({ '1': true, '2': true });
    expect(r.pulls).toHaveLength(1);
    expect([...r.pulls[0]!.files].sort()).toEqual(['notes/A.md', 'notes/B.md']);
    expect(shown(planComment(r))).toMatch(/Kept attempt [12]/);
  }, 600_000);
});
