import { describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../support/github/fake-github';
import type { ScenarioHooks } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play, playAnswer, shown } from './helpers';

/**
 * `budgets.run` reached while planning or in the critic (#52): the run waits and asks as at a worker's
 * budget end, instead of failing (planning) or asking to raise the budget and retry (the critic).
 */

interface AtStop {
  phase: string;
  waiting: { kind: string; limit: string; at?: string; commentId: number } | null;
  question: string;
  plan: string;
  labels: string[];
  intakeKept: boolean;
  usageCost: number;
}

async function atStop(gh: FakeGitHub): Promise<AtStop> {
  const crew = [...gh.comments.values()].filter((c) => c.issue === 1 && c.user !== 'maintainer');
  const run = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!);
  return {
    phase: run.phase,
    waiting: run.waiting,
    question: shown(crew.find((c) => c.body.includes('crew stopped at a budget'))?.body ?? ''),
    plan: crew.find((c) => c.body.includes('<!-- crew:plan issue=1 run=1'))?.body ?? '',
    labels: [...(gh.issues.get(1)?.labels ?? [])],
    intakeKept: (await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/intake.json')) !== undefined,
    usageCost: run.usage.costUsd,
  };
}

const playStop = (scenario: string, answer: string, beforeClose?: ScenarioHooks['beforeClose']) => playAnswer(scenario, answer, atStop, beforeClose);

function expectStoppedWhilePlanning(seen: AtStop) {
  expect(seen.phase).toBe('ESCALATING');
  expect(seen.waiting).toMatchObject({ kind: 'budget', limit: 'run', at: 'planning' });
  expect(seen.waiting!.commentId).toBeGreaterThan(0);
  // What intake's reply cost is on the run, and its reading is kept for going on.
  expect(seen.usageCost).toBeGreaterThan(0.001);
  expect(seen.intakeKept).toBe(true);
  expect(seen.question).toMatch(
    /^\*\*crew stopped at a budget\*\*: the run has spent \$\d+\.\d+ \([\d,]+ tokens\) of `budgets\.run` \(\$0\.0010, 20,000,000 tokens\)\. crew was still planning, so no task has started\. What planning settled is kept \(intake's reading of the issue, and your answers: nothing is asked again\)\.\n\nReply with one of:\n- `\/crew continue` — go on planning, with another `budgets\.run` to spend from here; `\/crew continue \$N` gives it \$N more instead;\n- `\/crew abort` — end the run; its branches are cleaned up as a failed run's are\.\n\n`\/crew accept` has nothing to take while planning: there is no plan and no work yet\./,
  );
  expect(seen.plan).toContain('**Stopped at a budget** while planning: the run has spent');
  expect(seen.plan).toContain('**Commands now:** `/crew continue` · `/crew abort`');
  expect(seen.labels).toContain('crew: waiting');
}

function expectStoppedInCritic(seen: AtStop) {
  expect(seen.phase).toBe('ESCALATING');
  expect(seen.waiting).toMatchObject({ kind: 'budget', limit: 'run', at: 'review' });
  expect(seen.waiting!.commentId).toBeGreaterThan(0);
  expect(seen.question).toMatch(
    /^\*\*crew stopped at a budget\*\*: the run has spent \$\d+\.\d+ \([\d,]+ tokens\) of `budgets\.run` \(\$50\.00, 6,000 tokens\)\. Nothing is lost: every task's work is done and integrated; the critic stopped before its verdict\.\n\n- ✅ t1: done, on \[`crew\/1\/r1\/t1`\]\([^)]+\)\n\nReply with one of:\n- `\/crew continue` — the critic judges again, with another `budgets\.run` to spend from here; `\/crew continue \$N` gives it \$N more instead;\n- `\/crew accept` — open the pull request with what exists: the critic does not judge it/,
  );
  expect(seen.plan).toContain('**Stopped at a budget** in the critic: the run has spent');
  expect(seen.plan).toContain('**Commands now:** `/crew continue` · `/crew accept` · `/crew abort`');
}

describe('a budget reached while planning or in the critic keeps what was done and asks (#52), through dist/', () => {
  it('planning: the run waits at the budget; `/crew continue $5` plans on from intake’s reading, not asking intake again, and ends in a pull request', async () => {
    const { r, seen } = await playStop('planning-budget-end', '/crew continue $5');
    expectStoppedWhilePlanning(seen);
    expect(r.model.byRole.intake).toBe(1);
    expect(r.model.byRole.plan_reviewer).toBe(1);
    expect(r.model.byRole.worker).toBe(1);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
    expect(crewComments(r).some((c) => c.body.includes('**crew stopped** during'))).toBe(false);
    expect(r.issue.labels).not.toContain('crew: waiting');
  }, 600_000);

  it('planning: `/crew accept` is refused with the reason and the run keeps waiting; no model request is made', async () => {
    let after: { phase: string; waiting: unknown } | undefined;
    const { r, seen } = await playStop('planning-budget-end', '/crew accept', async ({ gh }) => {
      const run = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!);
      after = { phase: run.phase, waiting: run.waiting };
    });
    expectStoppedWhilePlanning(seen);
    expect(after).toEqual({ phase: 'ESCALATING', waiting: seen.waiting });
    expect(r.model.byRole.plan_reviewer).toBeUndefined();
    expect(r.pulls).toEqual([]);
    expect(shown(crewComments(r).at(-1)!.body)).toBe(
      'crew did not accept: run 1 stopped at its budget while planning, so there is no plan and no work yet to open a pull request with. Comment `/crew continue` to go on planning (`/crew continue $N` to set how much more it may spend), or `/crew abort` to end the run.',
    );
  }, 600_000);

  it('planning after `/crew revise`: the feedback is kept at the budget, and `/crew continue $5` plans v2 with it, not asking again', async () => {
    let waiting: { kind: string; at?: string; revision?: string } | undefined;
    let decomposer: string[] = [];
    let after: { phase: string; planVersion: number } | undefined;
    const r = await play('revise-budget-end', {
      hooks: {
        onStep: async (_step, index, gh) => {
          if (index === 4) waiting = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!).waiting;
        },
        beforeClose: async ({ gh, anthropic }) => {
          decomposer = anthropic.requests.filter((q) => q.role === 'decomposer').map((q) => JSON.stringify(q.body.messages));
          after = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!);
        },
      },
    });
    expectFaithful(r);
    expect(waiting).toMatchObject({
      kind: 'budget',
      at: 'planning',
      revision: 'A maintainer (@maintainer) asked for these changes: Put both notes under docs/ instead.',
    });
    // The decomposer was asked twice: plan v1, then v2 after `/crew continue` with the feedback (the refused request never reached it).
    expect(decomposer).toHaveLength(2);
    expect(decomposer[1]).toContain('Put both notes under docs/ instead.');
    expect(after).toMatchObject({ phase: 'AWAITING_APPROVAL', planVersion: 2 });
  }, 600_000);

  it('the critic: the run waits with the work integrated; `/crew continue $5` judges again and ends in a pull request', async () => {
    const { r, seen } = await playStop('critic-budget-end', '/crew continue $5');
    expectStoppedInCritic(seen);
    expect(r.model.byRole.worker).toBe(1);
    expect(r.model.byRole.critic).toBe(1);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.body).not.toContain('accepted this with `/crew accept`');
  }, 600_000);

  it('the critic: `/crew accept` opens the pull request without the critic’s verdict, saying so', async () => {
    const { r, seen } = await playStop('critic-budget-end', '/crew accept');
    expectStoppedInCritic(seen);
    expect(r.model.byRole.critic).toBeUndefined();
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
    expect(r.pulls[0]!.body).toContain(
      '> @maintainer accepted this with `/crew accept` when the run stopped at a budget: the critic did not judge it, so its done criteria are unmet as far as crew knows. crew never merges an accepted pull request by itself.',
    );
    expect(r.pulls[0]!.merged).toBe(false);
  }, 600_000);

  it('the critic: `/crew abort` ends the run ABORTED, with no pull request', async () => {
    const { r, seen } = await playStop('critic-budget-end', '/crew abort');
    expectStoppedInCritic(seen);
    expect(r.pulls).toEqual([]);
    expect(r.model.byRole.critic).toBeUndefined();
    expect(crewComments(r).some((c) => c.body.includes('@maintainer aborted the run'))).toBe(true);
  }, 600_000);
  it('the critic: the base’s test runs it made before the budget stop are kept on crew/state, for judging again', async () => {
    let baseRuns: string[] = [];
    const r = await play('critic-budget-end', {
      edit: (s) => {
        // A command criterion: the critic runs it on the head, then on the base, before its model's refused request.
        s.config = `${s.config ?? ''}criteria:\n  - npm test\n`;
        (s.timeline[2] as { comment: string }).comment = '/crew abort';
      },
      hooks: {
        onStep: async (_step, index, gh) => {
          if (index === 2) baseRuns = (await gh.repo.listFiles('refs/heads/crew/state')).filter((f) => /^issue-1\/run-1\/test-results\/base_/.test(f));
        },
      },
    });
    expectFaithful(r);
    expect(baseRuns.length).toBe(1);
    expect(r.model.byRole.critic).toBeUndefined();
  }, 600_000);
});
