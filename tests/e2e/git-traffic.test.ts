import { beforeAll, describe, expect, it } from 'vitest';
import { playWholeRun, type WholeRunPlay } from '../../scripts/bench/whole-run';
import { PROFILES } from '../support/latency';
import { loadScenario } from '../support/scenario/run-scenario';

/**
 * The whole-run sample of `npm run bench` (#31 §4): the same two-task run, played once on loopback,
 * its git requests counted by the fake GitHub per job. Counts do not depend on the machine (only
 * which of the two work jobs loses the race to write first does), so they are checked here; the
 * time ratio is the bench's alone (docs/PERFORMANCE.md, "A whole run").
 */

/**
 * crew's own git requests per job (actions/checkout's apart), as this run makes them now at the
 * scenario's time scale. Before #31 §4 the same run made 140 (route 28, work 12 and 18, advance 20,
 * critic 48, merge 14): every state read and write listed the branch
 * first. A job's floor is its first read (listing and pack: 4), a push per state write (2), and the
 * listing that checks the plan comment after its last edit (2). A work job also looks at its inbox
 * between the worker's turns (a listing when the last is older than 30 s, time-scaled), and the
 * two work jobs record their tasks at about the same moment: the one whose push loses lists, fetches
 * and pushes again (6 more).
 *
 * Cleaning up after runs (#37), merged after these budgets were first set, added its own: the merge
 * job, once it has merged, deletes the run's branches in one push and records that on crew/state.
 *
 * Then (#31 §4, second round) every job puts its plan comment check off to its end, and spares it
 * when it started another job of the run, which syncs the comment itself (route, advance, and a
 * work job whose teammate still runs or that dispatched the finish); the base branch's head comes in
 * the state's first listing; a plan that needs no approval starts in the write that records it; the
 * integration branch goes up in the push that hands the run to the critic; cleanup reads the state the job last saw, lists only the folders of
 * ended runs with branches and deletes them in the push that records it, and that record settles
 * the merge job's last check. From 98: route 8, work 8 to 11 and 14
 * or 15 (the loser of the race to record), advance 10, critic 16, merge 10. At this time scale a worker looks at its inbox more often
 * than at full scale, where the bench counts fewer (docs/PERFORMANCE.md, "A whole run").
 *
 * The advance job, when every task branch merges as git merges them, integrates from its first read
 * and claims the run in the write that hands it to the critic: advance 8 (read 4, fetch 2, one write 2).
 * The critic then records its PASS in the write that records the pull request (finish.ts), and edits the plan comment
 * before its last write (the retrospective), which spares it the check at its end: critic 12.
 * Then the merge job records the merge and the run's cleanup in one write, the deletions leased to
 * the tips its first read of the issue listed (the pull request's branch left to GitHub when the
 * repository deletes head branches on merge), and edits the plan comment before that write, which
 * settles its check: merge 6, its first read and the push.
 *
 * The route job records the plan comment's id in the write that records the plan (src/state/pending-plan-comment.ts),
 * not in a write of its own: route 6, its first read and the writes that claim the run and record the plan.
 *
 * A work job's first read fetches the state by name and lists nothing, and a task on its first attempt fetches no
 * branch: the work job that records first makes 5 (3 and its push), plus its inbox looks; a write that lost its
 * push fetches the state by name (3) before it pushes again. actions/checkout makes 2 (the event's commit by id),
 * and the merge job none (its files come over the contents API).
 */
// A work job's inbox looks (a listing each) come when its last look is older than 30 s time-scaled: how many
// fall in a task depends on how long the worker's turns take on the machine at the time, so the work budgets
// leave room for two more than a quiet machine makes (the CI run on a busy one made 16 in one job).
const BUDGET = { route: 6, advance: 8, critic: 12, merge: 6, work: { each: 16, both: 24 }, run: 56 };

describe('a whole two-task run: every job, and what each asks of GitHub (#31 §4)', () => {
  let play: WholeRunPlay;
  beforeAll(async () => {
    const { scenario } = await loadScenario((await import('../../scripts/bench/whole-run')).WHOLE_RUN_SCENARIO);
    play = (await playWholeRun(PROFILES.loopback, scenario.time_scale)).play;
    // The per-job counts in the test's output, to compare a change's figures with the budgets.
    console.log(play.counts.jobs.map((j) => `${j.kind}${j.task ? ` ${j.task}` : ''}: ${j.git.total - j.checkoutGit}`).join(', '));
  }, 600_000);

  const own = (kind: string) => play.counts.jobs.filter((j) => j.kind === kind).map((j) => j.git.total - j.checkoutGit);

  it('runs every kind of job once, two work jobs side by side, and merges', () => {
    expect(play.counts.jobs.map((j) => `${j.kind}${j.task ? ` ${j.task}` : ''}`).sort()).toEqual(
      ['advance', 'critic', 'merge', 'route', 'work t1', 'work t2'].sort(),
    );
    expect(play.merged).toBe(true);
    // actions/checkout's two requests in every job but merge: capabilities and the pack. Every job here runs on the
    // default branch, where crew's workflow leaves `ref` empty and the checkout fetches the event's commit by id, with
    // no listing of refs (a branch name would cost that third request). The merge job checks out only crew, and reads
    // its configuration over the contents API.
    expect(play.counts.jobs.map((j) => [j.kind, j.checkoutGit])).toEqual(play.counts.jobs.map((j) => [j.kind, j.kind === 'merge' ? 0 : 2]));
  });

  it("keeps crew's own git requests within each job's budget, and the whole run half the 140 it made before", () => {
    expect(own('route')[0]).toBeLessThanOrEqual(BUDGET.route);
    expect(own('advance')[0]).toBeLessThanOrEqual(BUDGET.advance);
    expect(own('critic')[0]).toBeLessThanOrEqual(BUDGET.critic);
    expect(own('merge')[0]).toBeLessThanOrEqual(BUDGET.merge);
    const work = own('work');
    expect(Math.max(...work)).toBeLessThanOrEqual(BUDGET.work.each);
    expect(work.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(BUDGET.work.both);
    const crew = play.counts.git.total - play.counts.checkoutGit;
    expect(crew).toBeLessThanOrEqual(BUDGET.run);
    // The kinds add up: every request is a listing, a pack download or a pack upload.
    const g = play.counts.git;
    expect(g.infoRefs + g.lsRefs + g.fetch + g.push + g.other).toBe(g.total);
    expect(play.counts.uploadPack + play.counts.receivePack).toBe(g.total);
    expect(g.other).toBe(0);
  });

  it('pushes once for each state write that landed, branches and deletions riding in them, besides a push the other work job beat', () => {
    // A state write is one push (receive-pack's advertisement, then the pack); a task's branch, the new integration
    // branch and cleanup's deletions ride in those pushes. The writes that landed are counted from crew's log. Beyond
    // them: at most one refused push per work job, when the two record their tasks at once and the other's write lands first.
    const writes = play.counts.jobs.reduce((n, j) => n + j.stateWrites, 0);
    // The route job's two: the run's start, and the plan with the plan comment's id in it (no write of the id alone).
    expect(play.counts.jobs.find((j) => j.kind === 'route')!.stateWrites).toBe(2);
    expect(play.counts.git.push).toBeGreaterThanOrEqual(writes);
    expect(play.counts.git.push).toBeLessThanOrEqual(writes + 2);
  });
});
