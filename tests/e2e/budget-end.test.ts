import { describe, expect, it } from 'vitest';
import type { Script } from '../support/anthropic/script';
import type { FakeGitHub } from '../support/github/fake-github';
import type { ScenarioHooks } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play, playAnswer, shown } from './helpers';

/** What the world showed when crew had stopped at the budget: before the maintainer's answer (the timeline's third step). */
interface AtStop {
  plan: string;
  question: string;
  notes: string | undefined;
  task: { status: string; headSha: string | null; attempts: number };
  phase: string;
  waiting: { kind: string; limit: string; commentId: number } | null;
  branchSha: string | undefined;
}

async function atStop(gh: FakeGitHub): Promise<AtStop> {
  const crew = [...gh.comments.values()].filter((c) => c.issue === 1 && c.user !== 'maintainer');
  const run = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!);
  return {
    plan: crew.find((c) => c.body.includes('<!-- crew:plan issue=1 run=1'))!.body,
    question: shown(crew.find((c) => c.body.includes('crew stopped at a budget'))?.body ?? ''),
    notes: await gh.repo.readFile('refs/heads/crew/1/r1/t1', 'NOTES.md'),
    task: JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/tasks/task_t1.json'))!),
    phase: run.phase,
    waiting: run.waiting,
    branchSha: await gh.repo.branchSha('crew/1/r1/t1'),
  };
}

/** Plays run-budget-end with `answer` as the maintainer's reply to the budget's question; `seen` is the world at the stop. */
const playRunBudgetEnd = (answer: string, beforeClose?: ScenarioHooks['beforeClose']) => playAnswer('run-budget-end', answer, atStop, beforeClose);

/** At the stop: the task's work is pushed to its branch, the task waits, and crew asked, on the issue and in the plan comment. */
function expectStoppedAtRunBudget(seen: AtStop) {
  expect(seen.notes).toBe('# Notes\n\nStarted.\n');
  expect(seen.task).toMatchObject({ status: 'pending', attempts: 1, headSha: seen.branchSha });
  expect(seen.phase).toBe('ESCALATING');
  expect(seen.waiting).toMatchObject({ kind: 'budget', limit: 'run' });
  expect(seen.waiting!.commentId).toBeGreaterThan(0);
  expect(seen.question).toMatch(
    /^\*\*crew stopped at a budget\*\*: the run has spent \$\d+\.\d+ \([\d,]+ tokens\) of `budgets\.run` \(\$50\.00, 6,000 tokens\)\. Nothing is lost: every task's work so far is committed and pushed to its branch\.\n\n- ⏸ t1: stopped, its work so far committed on \[`crew\/1\/r1\/t1`\]\([^)]+\) \(1 file\)\n\nReply with one of:\n- `\/crew continue` — go on from the work on the branches, with another `budgets\.run` to spend from here; `\/crew continue \$N` gives it \$N more instead;\n- `\/crew accept` — open the pull request with what exists/,
  );
  expect(seen.question).toContain("- `/crew abort` — end the run; its branches are cleaned up as a failed run's are.");
  expect(seen.plan).toMatch(
    /\*\*Stopped at a budget\*\*: the run has spent \$\d+\.\d+ \([\d,]+ tokens\) of `budgets\.run` \(\$50\.00, 6,000 tokens\) \(\[what crew asked\]/,
  );
  expect(seen.plan).toContain('**Commands now:** `/crew continue` · `/crew accept` · `/crew abort`');
  expect(seen.plan).toMatch(/⏳ \*\*t1\*\*, attempt 1, spent its budget/);
}

describe("a budget's end keeps the work and asks (#52), through dist/", () => {
  it('budgets.run reached mid-task: the work is on its branch, crew asks; `/crew continue $5` resumes from that work and ends in a pull request', async () => {
    let firstOfAttempt2 = '';
    let run: { budgetRun?: { tokens: number; cost_usd: number }; usage: { costUsd: number } } | undefined;
    let task: { usage: { costUsd: number } } | undefined;
    const { r, seen } = await playRunBudgetEnd('/crew continue $5', async ({ gh, anthropic }) => {
      firstOfAttempt2 = JSON.stringify(anthropic.requests.filter((q) => q.role === 'worker' && q.task === 't1')[2]?.body.messages[0]);
      run = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!);
      task = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/tasks/task_t1.json'))!);
    });
    expectStoppedAtRunBudget(seen);
    // Resumed from the pushed work: attempt 2 was told what the branch holds, and its edit of the first attempt's line applied.
    expect(firstOfAttempt2).toContain('## What the branch already holds');
    expect(firstOfAttempt2).toContain('NOTES.md');
    expect(r.model.byRole.worker).toBe(3);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
    // The new limit: $5 more than the run had spent when the maintainer answered, and another budgets.run of tokens.
    expect(run!.budgetRun!.tokens).toBeGreaterThan(6000);
    expect(run!.budgetRun!.cost_usd).toBeGreaterThan(5);
    expect(run!.budgetRun!.cost_usd).toBeLessThan(5 + run!.usage.costUsd + task!.usage.costUsd);
    const plan = crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!;
    expect(plan.body).not.toContain('Stopped at a budget');
    expect(r.issue.labels).not.toContain('crew: waiting');
  }, 600_000);

  it('`/crew accept` at the budget opens the pull request with what exists, unjudged, saying it was accepted at a budget', async () => {
    const { r, seen } = await playRunBudgetEnd('/crew accept');
    expectStoppedAtRunBudget(seen);
    // No second attempt and no critic: the budget was spent.
    expect(r.model.byRole.worker).toBe(2);
    expect(r.model.byRole.critic).toBeUndefined();
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
    expect(r.pulls[0]!.body).toContain(
      '> @maintainer accepted this with `/crew accept` when the run stopped at a budget: the critic did not judge it, so its done criteria are unmet as far as crew knows. Not finished: t1 (stopped part way). crew never merges an accepted pull request by itself.',
    );
    expect(r.pulls[0]!.merged).toBe(false);
  }, 600_000);

  it('`/crew abort` at the budget ends the run ABORTED; its branch keeps the work until cleanup.unfinished_days, as a failed run’s', async () => {
    let after: { phase: string; cleanup: unknown; notes: string | undefined } | undefined;
    const { r, seen } = await playRunBudgetEnd('/crew abort', async ({ gh }) => {
      const run = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!);
      after = { phase: run.phase, cleanup: run.cleanup, notes: await gh.repo.readFile('refs/heads/crew/1/r1/t1', 'NOTES.md') };
    });
    expectStoppedAtRunBudget(seen);
    expect(after).toEqual({ phase: 'ABORTED', cleanup: null, notes: '# Notes\n\nStarted.\n' });
    expect(r.pulls).toEqual([]);
    expect(r.model.byRole.worker).toBe(2);
    expect(crewComments(r).some((c) => c.body.includes('@maintainer aborted the run'))).toBe(true);
  }, 600_000);

  it('a run crossing budgets.day mid-run finishes its attempt, keeps the work and asks, with the day’s spend and reset time', async () => {
    let seen: AtStop | undefined;
    const r = await play('run-budget-end', {
      edit: (s) => {
        // Nothing spent today when it starts (no refusal, no warning); the sonnet worker's first attempt takes the day past $0.012.
        s.config = 'budgets:\n  day: 0.012\n';
        s.timeline = s.timeline.slice(0, 2);
        const intake = (s.model as Script).entries.find((e) => e.role === 'intake')!;
        (intake.replies[0]!.content[0] as { input: Record<string, unknown> }).input.model = 'sonnet';
      },
      hooks: {
        beforeClose: async ({ gh }) => {
          seen = await atStop(gh);
        },
      },
    });
    expectFaithful(r);
    // Attempt 1 ran (write, then a partial report: a retry was due); attempt 2 never started.
    expect(r.model.byRole.worker).toBe(2);
    expect(seen!.notes).toBe('# Notes\n\nStarted.\n');
    expect(seen!.task).toMatchObject({ status: 'pending', attempts: 1, headSha: seen!.branchSha });
    expect(seen!.waiting).toMatchObject({ kind: 'budget', limit: 'day' });
    const tomorrow = new Date(Date.parse(r.issue.comments.at(-1)!.createdAt) + 24 * 3600_000).toISOString().slice(0, 10);
    expect(seen!.question).toMatch(
      new RegExp(
        `^\\*\\*crew stopped at a budget\\*\\*: the repository's runs have spent \\$\\d+\\.\\d+ today \\(UTC\\), against \`budgets\\.day\` of \\$0\\.01; the count starts again at ${tomorrow} 00:00 UTC\\.`,
      ),
    );
    expect(seen!.question).toContain('once `budgets.day` has room (after the reset, or raise it in `.github/crew.yml`)');
    expect(seen!.plan).toContain("**Stopped at a budget**: the repository's runs have spent");
    expect(r.pulls).toEqual([]);
  }, 600_000);
});
