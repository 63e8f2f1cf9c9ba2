import { describe, expect, it } from 'vitest';
import type { WorkflowRun } from '../support/runner/workflow-runner';
import type { ScenarioResult } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play } from './helpers';

/**
 * The README tells people to pass a personal or GitHub App token when crew's pull requests
 * must start CI. Then crew's comments and pushes are not GITHUB_TOKEN's: they fire events
 * that start workflows, crew's own included. One scenario (token-personal.yaml), both tokens.
 */
interface Seen {
  result: ScenarioResult;
  runs: WorkflowRun[];
  secondPrompts: string[];
  /** Who GitHub says opened each pull request. */
  prAuthors: string[];
}

async function playWithToken(token: { personal: string } | { app: string }): Promise<Seen> {
  let runs: WorkflowRun[] = [];
  let secondPrompts: string[] = [];
  let prAuthors: string[] = [];
  const result = await play('token-personal', {
    edit: (s) => void (s.github_token = token),
    hooks: {
      beforeClose: async ({ runner, anthropic, gh }) => {
        runs = runner.runs;
        prAuthors = [...gh.pulls.values()].map((p) => gh.issues.get(p.number)!.user);
        secondPrompts = anthropic.requests.filter((q) => q.role === 'worker' && q.attempt === 2 && q.turn === 0).map((q) => JSON.stringify(q.body.messages[0]));
      },
    },
  });
  expectFaithful(result);
  return { result, runs, secondPrompts, prAuthors };
}

function expectBothQuestionsAnsweredByTheMaintainer({ result, secondPrompts }: Seen): void {
  const questions = crewComments(result).filter((c) => c.body.startsWith('**crew needs a decision**'));
  // One question per task: the second was queued and asked once the first was answered.
  expect(questions.map((q) => /about (t\d)/.exec(q.body)![1]).sort()).toEqual(['t1', 't2']);
  expect(secondPrompts).toHaveLength(2);
  const answers = secondPrompts.map((p) => /@(\S+) answered: ([^\\"]+)/.exec(p)?.slice(1, 3).join(': '));
  expect(answers.sort()).toEqual(['maintainer: Newest entry first, please.', 'maintainer: Use a bulleted list, one line per item.']);
  for (const p of secondPrompts) expect(p).not.toContain('crew needs a decision');
  expect(result.pulls).toHaveLength(1);
  expect(result.pulls[0]!.files.sort()).toEqual(['CHANGES.md', 'NOTES.md']);
  expect(result.issue.labels).not.toContain('crew: waiting');
}

/** Route jobs of crew's workflow started by a comment crew itself wrote. */
function routeJobsOnCrewComments({ result, runs }: Seen) {
  return runs
    .filter((r) => r.workflow.endsWith('crew.yml') && r.event === 'issue_comment' && r.actor === result.crewLogin)
    .flatMap((r) => r.jobs.filter((j) => j.id === 'route'));
}

describe('crew with a personal or GitHub App token instead of GITHUB_TOKEN (through dist/)', () => {
  it('personal token: crew comments as a user, its own comments start route jobs, and it ignores them (a queued question included)', async () => {
    const seen = await playWithToken({ personal: 'crew-bot' });
    expect(seen.result.crewLogin).toBe('crew-bot');
    expect(seen.prAuthors).toEqual(['crew-bot']);
    expectBothQuestionsAnsweredByTheMaintainer(seen);
    // crew-bot is a user, so the workflow's `type == 'User'` filter lets its comments through:
    // the queued question, posted while crew: waiting is on, starts a route job that must do nothing.
    const routes = routeJobsOnCrewComments(seen).filter((j) => j.result === 'success' && j.steps.length > 0);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.some((j) => j.log.some((l) => l.includes("ignoring crew's own comment (as @crew-bot)")))).toBe(true);
    // The pull request is crew-bot's, so CI runs on it; pushes start the third-party workflow.
    expect(seen.runs.some((r) => r.workflow.endsWith('ci.yml') && r.event === 'push')).toBe(true);
  });

  it('App token: comments and pushes are the App bot’s; route jobs skip its comments, pushes start push workflows but never crew’s', async () => {
    const seen = await playWithToken({ app: 'crew-app' });
    expect(seen.result.crewLogin).toBe('crew-app[bot]');
    expect(seen.prAuthors).toEqual(['crew-app[bot]']);
    expectBothQuestionsAnsweredByTheMaintainer(seen);
    // An App's comments fire issue_comment (GITHUB_TOKEN's would not); the `type == 'User'` filter skips the route job.
    const routes = routeJobsOnCrewComments(seen);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.every((j) => j.result === 'skipped')).toBe(true);
    // Every push crew makes fires `push`. The task branches carry the repository's workflows, so
    // third-party CI runs on them; crew/state carries none and starts nothing; crew's workflow
    // does not listen to push at all.
    const pushRuns = seen.runs.filter((r) => r.event === 'push');
    expect(pushRuns.length).toBeGreaterThan(0);
    expect(pushRuns.every((r) => r.workflow.endsWith('ci.yml') && r.actor === 'crew-app[bot]')).toBe(true);
    expect(pushRuns.every((r) => r.jobs.every((j) => j.result === 'success'))).toBe(true);
  });
});
