import { afterEach, describe, expect, it } from 'vitest';
import { PROFILES, profileNamed } from '../../support/latency';
import { startWorld, type World } from './helpers';

const WORKFLOW = `name: hello
on: workflow_dispatch
jobs:
  first:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: echo one
  second:
    needs: first
    runs-on: ubuntu-latest
    steps:
      - run: echo two
`;

describe('latency profiles (#17 §1)', () => {
  let world: World | undefined;
  afterEach(async () => world?.close());

  it('github-hosted holds up every REST and git request, each job start, and a dispatched run, by the profile scaled; loopback by nothing', async () => {
    const scale = 0.01;
    world = await startWorld({ files: { '.github/workflows/hello.yml': WORKFLOW }, timeScale: scale, profile: PROFILES['github-hosted'] });
    await world.dispatch('hello.yml');
    await world.settle();
    const [run] = world.runner.runs;
    const queued = Object.fromEntries(run!.jobs.map((j) => [j.id, j.queuedMs]));
    // The first job waits for the dispatched run to start and for a runner; the second only for a runner.
    expect(queued).toEqual({ first: Math.round((5_000 + 20_000) * scale), second: Math.round(20_000 * scale) });
    const d = world.gh.delays;
    expect(d.rest).toBeGreaterThan(0);
    expect(d.git).toBeGreaterThan(0);
    expect(d.ms).toBe(d.rest * Math.round(150 * scale) + d.graphql * Math.round(150 * scale) + d.git * Math.round(250 * scale));
    await world.close();

    world = await startWorld({ files: { '.github/workflows/hello.yml': WORKFLOW }, timeScale: scale, profile: PROFILES.loopback });
    await world.dispatch('hello.yml');
    await world.settle();
    expect(world.runner.runs[0]!.jobs.map((j) => j.queuedMs)).toEqual([0, 0]);
    expect(world.gh.delays).toEqual({ rest: 0, graphql: 0, git: 0, ms: 0 });
  });

  it("a dispatched run whose first job is skipped: the job that runs first waits for the run to start, as crew's dispatched work and advance jobs do", async () => {
    const scale = 0.01;
    // crew's shape: route runs only on a comment; in a dispatched run work (which needs route) is the first to run, then advance.
    const shape = `name: shape
on: workflow_dispatch
jobs:
  route:
    if: github.event_name == 'issue_comment'
    runs-on: ubuntu-latest
    steps:
      - run: echo route
  work:
    needs: route
    if: "!cancelled()"
    runs-on: ubuntu-latest
    steps:
      - run: echo work
  advance:
    needs: [route, work]
    if: always()
    runs-on: ubuntu-latest
    steps:
      - run: echo advance
`;
    world = await startWorld({ files: { '.github/workflows/shape.yml': shape }, timeScale: scale, profile: PROFILES['github-hosted'] });
    await world.dispatch('shape.yml');
    await world.settle();
    const queued = Object.fromEntries(world.runner.runs[0]!.jobs.map((j) => [j.id, [j.result, j.queuedMs]]));
    expect(queued).toEqual({
      route: ['skipped', undefined],
      work: ['success', Math.round((5_000 + 20_000) * scale)],
      advance: ['success', Math.round(20_000 * scale)],
    });
  });

  it("puts each request down to the job whose token made it, and to that job's step", async () => {
    world = await startWorld({ files: { '.github/workflows/hello.yml': WORKFLOW }, timeScale: 0.01, profile: PROFILES.loopback });
    await world.dispatch('hello.yml');
    await world.settle();
    const first = world.runner.runs[0]!.jobs.find((j) => j.id === 'first')!;
    expect(first.key).toBe(`${world.runner.runs[0]!.id}/first`);
    const mine = world.gh.gitRequests.filter((r) => r.job === first.key);
    // actions/checkout of the run's commit: v2's capabilities, then the fetch (a commit id needs no ref listing).
    expect(mine.map((r) => [r.kind, r.step])).toEqual([
      ['info/refs', 'actions/checkout@v4'],
      ['fetch', 'actions/checkout@v4'],
    ]);
    // The person's dispatch is theirs, not a job's.
    expect(world.gh.requests.filter((r) => r.job)).toEqual([]);
  });

  it('a scenario names its profile; an unknown name is refused with the names there are', () => {
    expect(profileNamed(undefined).name).toBe('loopback');
    expect(profileNamed('github-hosted').gitMs).toBe(250);
    expect(() => profileNamed('fast')).toThrow("unknown latency profile 'fast': use loopback or github-hosted");
  });
});
