import { beforeAll, describe, expect, it } from 'vitest';
import { dagScenario, notePath } from '../support/scenario/dag-scenario';
import { outcomeOf, type Outcome } from '../support/scenario/outcome';
import { PROJECT_ROOT, runScenario, type ScenarioResult } from '../support/scenario/run-scenario';
import type { Scenario } from '../support/scenario/schema';
import { soakCases } from '../support/soak';
import { expectFaithful } from './helpers';

// #17 §4: a work job whose task unblocks exactly one task (nothing else ready, and time left in the
// job) runs that task itself, on the same runner and checkout, instead of dispatching a new workflow
// run for it. A three-task chain t1 → t2 → t3 is one work job; before, it was three work jobs in three
// workflow runs (route's, then one dispatch each for t2 and t3), and a fourth run to finish.
const DISPATCHES = 'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches';

function chain(edit?: (s: Scenario) => void): Scenario {
  const s = dagScenario('chain of three', [
    { id: 'a', deps: [], ms: 20_000 },
    { id: 'b', deps: ['a'], ms: 20_000 },
    { id: 'c', deps: ['b'], ms: 20_000 },
  ]);
  edit?.(s);
  return s;
}

/** What the work job asked of GitHub's git, in order: each smart-HTTP round trip, with a push's refs. */
type GitTrip = { kind: string; refs?: string[]; step?: string };

async function play(s: Scenario): Promise<{ r: ScenarioResult; outcome: Outcome; workGit: GitTrip[] }> {
  let outcome: Outcome | undefined;
  let workGit: GitTrip[] = [];
  const r = await runScenario(s, {
    baseDir: PROJECT_ROOT,
    hooks: {
      beforeClose: async ({ gh, result, runner }) => {
        outcome = await outcomeOf(gh, result);
        const keys = new Set(runner.runs.flatMap((run) => run.jobs.filter((j) => j.id === 'work' && j.steps.length).map((j) => j.key)));
        workGit = gh.gitRequests.filter((g) => g.job !== undefined && keys.has(g.job)).map((g) => ({ kind: g.kind, refs: g.refs, step: g.step }));
      },
    },
  });
  expectFaithful(r);
  return { r, outcome: outcome!, workGit };
}

const workJobs = (r: ScenarioResult) => r.jobs.filter((j) => j.job === 'work' && j.result !== 'skipped');

describe('a chain of tasks runs in one work job', () => {
  let baseline: { r: ScenarioResult; outcome: Outcome; workGit: GitTrip[] };
  beforeAll(async () => {
    baseline = await play(chain());
  }, 360_000);

  it('one work job runs t1, then t2, then t3; one dispatch finishes the run; the PR holds all three', () => {
    const { r } = baseline;
    const work = workJobs(r);
    expect(work).toHaveLength(1);
    expect(work[0]).toMatchObject({ name: 'crew / work (t1)', result: 'success', chained: ['t2', 't3'] });
    // Two workflow runs: the comment's (route, work) and the finishing dispatch's (advance, critic).
    expect(new Set(r.jobs.map((j) => j.run)).size).toBe(2);
    expect(r.github.crew.byRoute[DISPATCHES]).toBe(1);
    expect(r.jobs.filter((j) => j.result !== 'skipped').map((j) => j.job)).toEqual(['route', 'work', 'advance', 'critic']);
    expect(r.pulls).toHaveLength(1);
    expect([...r.pulls[0]!.files].sort()).toEqual([notePath('a'), notePath('b'), notePath('c')]);
    // Each task still has its own branch, started from the one before it.
    expect(r.branches.map((b) => b.name).sort()).toEqual(['crew/1/r1/integration', 'crew/1/r1/t1', 'crew/1/r1/t2', 'crew/1/r1/t3', 'crew/state', 'main']);
    // The job's time is split where it went on to the next task, so each task's span is its own.
    const parts = r.jobTimes.filter((j) => j.job === 'work');
    expect(parts.map((p) => p.task)).toEqual(['t1', 't2', 't3']);
    expect(parts[1]!.startedAt).toBe(parts[0]!.finishedAt);
  });

  it('each task’s work and its record go to GitHub in one push, and the job makes at most 6 git round trips a task besides actions/checkout (#17 §3)', async () => {
    // At the bench's time scale (0.1), where the inbox's 30 s are 3 s: at 0.01 they are shorter than crew's own
    // work between two turns, so the worker would look at GitHub before every turn, as no real worker does.
    const quick = dagScenario(
      'chain at the bench scale',
      ['a', 'b', 'c'].map((id, i, all) => ({ id, deps: i ? [all[i - 1]!] : [], ms: 2_000 })),
      {
        timeScale: 0.1,
      },
    );
    const { r, workGit } = await play(quick);
    expect(workJobs(r)).toHaveLength(1);
    const own = workGit.filter((g) => !/^actions\/checkout@/.test(g.step ?? ''));
    const pushes = own.filter((g) => g.kind === 'push').map((g) => [...(g.refs ?? [])].sort());
    expect(pushes).toEqual(['t1', 't2', 't3'].map((t) => [`refs/heads/crew/1/r1/${t}`, 'refs/heads/crew/state']));
    // Each push is two round trips (info/refs, then the pack); besides them, the first read of the state. A
    // task later in the chain reads nothing first. The last record dispatches the run's finish, whose job
    // syncs the plan comment itself, so this job makes no check after its last edit (#31 §4): it ends on its push.
    expect(own.length).toBeLessThanOrEqual(6 * 3);
    expect(own.slice(-2).map((g) => g.kind)).toEqual(['info/refs', 'push']);
  }, 360_000);

  it('with a second task ready and waiting for a slot, nothing chains: both are dispatched as before', async () => {
    // t1 unblocks t2 and t3 at once: two tasks, so t1's job dispatches them rather than taking one and keeping the other waiting.
    const s = dagScenario('fan-out', [
      { id: 'a', deps: [], ms: 1_000 },
      { id: 'b', deps: ['a'], ms: 1_000 },
      { id: 'c', deps: ['a'], ms: 1_000 },
    ]);
    const { r } = await play(s);
    expect(
      workJobs(r)
        .map((j) => j.name)
        .sort(),
    ).toEqual(['crew / work (t1)', 'crew / work (t2)', 'crew / work (t3)']);
    expect(workJobs(r).every((j) => !j.chained)).toBe(true);
    expect(r.pulls).toHaveLength(1);
  }, 360_000);

  // Killed at a checkpoint of the second task, which the job took up itself: the claim names this
  // workflow run, so advance (a lost runner) or `/crew resume` (a cancelled run) finds it as it
  // finds any killed work job's, and the run ends exactly as the uninterrupted one. `npm test` kills
  // at one checkpoint in each of GitHub's ways; `npm run soak` at all four (tests/support/soak.ts).
  it.each(
    soakCases([
      { checkpoint: 'work-started', mode: 'cancel' as const },
      { checkpoint: 'worker-turn', mode: 'lost' as const, sample: true },
      { checkpoint: 'task-pushed', mode: 'cancel' as const, sample: true },
      { checkpoint: 'task-recorded', mode: 'lost' as const },
    ]),
  )(
    'killed mid-chain at t2 $checkpoint ($mode): resumes to the same outcome',
    async ({ checkpoint, mode }) => {
      const { r, outcome } = await play(
        chain((s) => {
          s.kill.push({ job: 'work', task: 't2', checkpoint, mode, times: 1 });
          s.timeline.push({ comment: '/crew resume', author: 'maintainer', unless_crew_said: '✅ Done' }, { wait: 'idle' });
        }),
      );
      expect(r.jobs.filter((j) => j.killedAt).map((j) => `${j.name}@${j.killedAt}`)).toEqual([`crew / work (t1)@${checkpoint}`]);
      // The killed job had gone on to t2 itself: the kill landed in the chain, not in a job of t2's own.
      // From `task-pushed` on, t2's record has landed in the same push as its work and claimed t3 for
      // this job. A cancelled job takes t3 up only to save it and stop, if it gets that far before the
      // runner's SIGTERM and kill (a race on a busy machine: both ends are the same run); a lost one never does.
      const chained = r.jobs.find((j) => j.killedAt)!.chained!;
      expect(chained[0]).toBe('t2');
      if (checkpoint === 'task-pushed' && mode === 'cancel') expect([['t2'], ['t2', 't3']]).toContainEqual(chained);
      else expect(chained).toEqual(['t2']);
      expect(outcome).toEqual(baseline.outcome);
      expect(r.pulls).toHaveLength(1);
    },
    360_000,
  );
});

// A dispatched run's legs work under the dispatch's claim without writing to take it (the writes all
// jobs made at once were most of #17's state-write races). `/crew resume` asks GitHub which dispatched
// legs are still going instead, and leaves their tasks to them rather than start a second worker.
describe('a dispatched task whose worker is still going', () => {
  it('is left to it by /crew resume, which says so: no second worker, one pull request', async () => {
    let workerRequests: Record<string, number> = {};
    const s = dagScenario('fan-out, resumed mid-task', [
      { id: 'a', deps: [], ms: 1_000 },
      { id: 'b', deps: ['a'], ms: 1_500_000 }, // t2: 15 s at the tests' time scale, time enough to resume during it on a busy machine
      { id: 'c', deps: ['a'], ms: 1_000 },
    ]);
    s.timeline = [
      { comment: '/crew run', author: 'maintainer', wait: { model: { role: 'worker', task: 't2', requests: 2 }, timeout_ms: 120_000 } },
      { comment: '/crew resume', author: 'maintainer', wait: 'idle' },
    ];
    const r = await runScenario(s, {
      baseDir: PROJECT_ROOT,
      hooks: {
        beforeClose: async ({ anthropic }) => {
          workerRequests = {};
          for (const q of anthropic.requests.filter((x) => x.role === 'worker')) workerRequests[q.task!] = (workerRequests[q.task!] ?? 0) + 1;
        },
      },
    });
    expectFaithful(r);
    // t1 runs in route's run and unblocks t2 and t3 at once: one dispatch starts both.
    expect(
      workJobs(r)
        .map((j) => j.name)
        .sort(),
    ).toEqual(['crew / work (t1)', 'crew / work (t2)', 'crew / work (t3)']); // the dispatch's two legs start in either order
    const left = r.issue.comments.find((c) => /is left to the dispatched workflow run/.test(c.body));
    expect(left?.body).toMatch(/^`t2` is left to the dispatched workflow run that may still be working on it/);
    expect(workerRequests).toEqual({ t1: 3, t2: 3, t3: 3 });
    expect(r.pulls).toHaveLength(1);
  }, 360_000);
});
