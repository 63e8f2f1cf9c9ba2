import { beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../scripts/bench';
import { QUICK } from '../../scripts/bench/dags';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { terminalTable, withFigures } from '../../scripts/bench/report';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';
import type { BenchResults } from '../../scripts/bench/results';
import { against } from '../../src/domain/cost-estimate';
import { PROFILES } from '../support/latency';
import { COMPACT_AT } from '../../src/agents/tool-loop';
import { contextWindow } from '../../src/domain/context-window';
import { WORKER_MODEL } from '../../scripts/bench/ways';

// `npm run bench -- --quick`: one small DAG three ways (crew through the shipped workflow and dist/,
// the seed's way, a single agent) under both latency profiles, a long task three ways, cold start,
// state writes. It keeps the benchmark from rotting. Timings are not judged here (docs/PERFORMANCE.md
// holds the targets); what does not depend on the machine is.
describe('npm run bench -- --quick', () => {
  let r: BenchResults;
  beforeAll(async () => {
    r = await runBench({ quick: true });
  }, 600_000);

  it('reports the long task under the default configuration (#49): turns completed, how it ended, input tokens by kind, cost', () => {
    const after = r.limits!.after!;
    expect(after).toMatchObject({ workTurns: 60, turns: 61, stop: 'final', reported: true });
    expect(after.input.cacheRead).toBeGreaterThan(10 * (after.input.uncached + after.input.cacheWrite));
    expect(after.costUsd).toBeGreaterThan(0);
    expect(after.costUsd).toBeLessThan(after.limits.costUsd);
    expect(terminalTable(r)).toContain('A 60-turn task under the default configuration: before: not measured; after: 61 turns (final, reported)');
  });

  it('crew does not wait for a wave: the task after the short one starts while the long one of the same wave still runs', () => {
    expect(QUICK.tasks.find((t) => t.id === 'after')!.deps).toEqual(['short']);
    expect(r.profiles.map((p) => p.profile.name)).toEqual(['loopback', 'github-hosted']);
    for (const p of r.profiles) {
      const { crew, seed } = p.makespan[0]!.spans;
      expect(crew.after!.start).toBeGreaterThan(crew.short!.start);
      expect(crew.after!.start).toBeLessThan(crew.long!.end);
      // The seed's way is a barrier: there the same task waits for the long one. That is the difference measured.
      expect(seed.after!.start).toBeGreaterThanOrEqual(seed.long!.end);
      // Each work job is counted for the state writes it had to redo. `after` runs in `short`'s job (short unblocks it
      // alone, and the job has the time: a chain, #17 §4), so there are two work jobs.
      expect(Object.keys(p.makespan[0]!.crewStateRetries).sort()).toEqual(['long', 'short']);
    }
  });

  it('applies each latency profile: github-hosted holds up every request and every job start by its figures scaled, loopback none', () => {
    const scale = r.world.timeScale;
    const [loopback, hosted] = r.profiles.map((p) => p.roundTrips[0]!);
    expect(loopback!.applied.delays).toEqual({ rest: 0, graphql: 0, git: 0, ms: 0 });
    expect(loopback!.jobs.every((j) => j.queuedMs === 0)).toBe(true);

    const gh = PROFILES['github-hosted'];
    const { delays, received } = hosted!.applied;
    expect(received.rest).toBeGreaterThan(0);
    expect(received.git).toBeGreaterThan(0);
    expect({ rest: delays.rest, graphql: delays.graphql, git: delays.git }).toEqual(received);
    expect(delays.ms).toBe(
      delays.rest * Math.round(gh.restMs * scale) + delays.graphql * Math.round(gh.graphqlMs * scale) + delays.git * Math.round(gh.gitMs * scale),
    );
    // Every job waits for a runner; the first job to run in a dispatched run (the run's finish: `after` is chained in
    // `short`'s job) also for the run to start.
    const start = Math.round(gh.jobStartMs * scale);
    const dispatched = Math.round((gh.jobStartMs + gh.dispatchLagMs) * scale);
    for (const j of hosted!.jobs) expect([start, dispatched]).toContain(j.queuedMs);
    expect(hosted!.jobs.find((j) => j.kind === 'advance')!.queuedMs).toBe(dispatched);
    expect(hosted!.jobs.find((j) => j.kind === 'route')!.queuedMs).toBe(start);
  });

  it("puts every request crew made down to the job that made it, by kind, with one work job's requests in order", () => {
    for (const p of r.profiles) {
      const t = p.roundTrips[0]!;
      const run = p.requests.runs[0]!;
      expect(t.jobs.reduce((n, j) => n + j.rest + j.graphql, 0)).toBe(run.rest);
      expect(t.jobs.reduce((n, j) => n + j.git.total, 0)).toBe(t.applied.received.git);
      for (const j of t.jobs) expect(j.git.total).toBe(j.git.infoRefs + j.git.lsRefs + j.git.fetch + j.git.push + j.git.other);
      expect(t.kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['route', 'work']));
      expect(t.kinds.find((k) => k.kind === 'work')!.jobs).toBe(2);
      const work = t.jobs.filter((j) => j.kind === 'work');
      // Each records its task in crew/state at least once, and its checkout is part of its git requests.
      for (const j of work) {
        expect(j.stateWrites).toBeGreaterThanOrEqual(1);
        expect(j.checkoutGit).toBeGreaterThan(0);
        expect(j.git.push).toBeGreaterThan(0);
      }
      const trace = p.workJobTrace;
      expect(trace.task).toBe('short');
      const chained = work.find((j) => j.task === 'short')!;
      // The job that ran the chain is counted for both its tasks (the round-trip targets are judged per task), the other for one.
      expect(work.map((j) => [j.task, j.tasks]).sort()).toEqual([
        ['long', 1],
        ['short', 2],
      ]);
      expect(trace.requests.length).toBe(chained.git.total + chained.rest + chained.graphql);
      expect(trace.requests[0]).toMatchObject({ type: 'git', step: 'actions/checkout@v4' });
      expect(trace.requests.some((q) => q.type === 'git' && q.what.includes('refs/heads/crew/state'))).toBe(true);
    }
  });

  it('prints one screen with every way and every figure, and the hardware it ran on', () => {
    const table = terminalTable(r);
    expect(table.split('\n').length).toBeLessThanOrEqual(45);
    for (const text of [
      'crew',
      'github-hosted',
      'Requests per job',
      "seed's way",
      'single agent',
      'Makespan',
      'GitHub REST',
      'GraphQL',
      'orchestration',
      'largest turn',
      'Cold start',
      'Run-state writes',
      'Node v',
      r.machine.cpu,
    ])
      expect(table).toContain(text);
    expect(r.machine.cpus).toBeGreaterThan(0);
  });

  it('writes its figures into docs/PERFORMANCE.md between the markers, keeping the prose around them', () => {
    const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'PERFORMANCE.md'), 'utf8');
    const written = withFigures(doc, r);
    expect(written).toContain('## Targets');
    expect(written).toContain('### Makespan');
    expect(written).toContain("### Issue #17's targets");
    expect(written).toContain('### Requests per job');
    expect(written).toContain(`| ${QUICK.name} | loopback | 3 | 10 |`);
    expect(written).toContain(`| ${QUICK.name} | github-hosted | 3 | 10 |`);
    expect(withFigures(written, r)).toBe(written);
    expect(() => withFigures('# no markers', r)).toThrow(/bench:start/);
  });

  it('prices crew and the single agent, counts billable minutes job by job, and checks crew’s estimate against what crew spent', () => {
    const f = r.cost![0]!;
    expect(f).toMatchObject({ scenario: QUICK.name, tasks: QUICK.tasks.length, single: { jobs: 1 } });
    // The route job, one work job per task, then advance and critic: every job bills at least a minute.
    expect(f.crew.jobs).toBeGreaterThanOrEqual(QUICK.tasks.length + 3);
    expect(f.crew.minutes).toBeGreaterThanOrEqual(f.crew.jobs);
    expect(f.single.minutes).toBeGreaterThanOrEqual(1);
    expect(f.crew.usd).toBeGreaterThan(0);
    expect(f.single.usd).toBeGreaterThan(0);
    // crew recorded an estimate with its plan, before any task ran; the verdict is the actual figure against its range.
    const e = f.crew.estimate!;
    expect(e.usd.low).toBeLessThanOrEqual(e.usd.high);
    expect(f.crew.usdAgainst).toBe(against(e.usd, f.crew.usd));
    expect(f.crew.minutesAgainst).toBe(against(e.minutes!, f.crew.minutes));
    expect(terminalTable(r)).toContain(`Cost, ${QUICK.name}: crew $`);
    expect(withFigures(readFileSync(join(PROJECT_ROOT, 'docs', 'PERFORMANCE.md'), 'utf8'), r)).toContain(`| ${QUICK.name} | 3 | $`);
  });

  it('figures that do not depend on the machine hold: no orchestration tokens, small turns, the cache, no lost updates', () => {
    expect(r.tokens.ways.crew.orchestration).toBe(0);
    expect(r.tokens.ways.seed.orchestration).toBeGreaterThan(0);
    const crew = r.longTask.find((l) => l.way === 'crew')!;
    const seed = r.longTask.find((l) => l.way === 'seed')!;
    // crew compacts by its model's context window (#49): the sample's turns stay under 60% of Haiku 5.5's 1M tokens, so none.
    expect(crew.compactions).toBe(0);
    expect(crew.largestTurnInput).toBeLessThan(contextWindow(WORKER_MODEL) * COMPACT_AT);
    expect(crew.cacheShare).toBeGreaterThanOrEqual(0.7);
    expect(seed.cacheShare).toBe(0);
    for (const w of r.stateWrites) expect(w.lost).toBe(0);
    for (const q of r.profiles.flatMap((p) => p.requests.runs)) {
      expect(q.rest).toBeLessThanOrEqual(q.budget);
      // The baselines, hosted in claude-code-action: 9 fixed REST requests (2 writes) and one comment edit per task plus three.
      expect(q.hosted).toMatchObject({ rest: 9 + q.tasks + 3, writes: 2 + q.tasks + 3, graphql: 2 });
      expect(q.hosted.git).toBeGreaterThan(0);
    }
    expect(r.coldStart.crewMs).toBeGreaterThan(0);
    expect(r.bundle.entryBytes).toBeGreaterThan(100_000);
    // #53: the route job had loaded its step's chunks beside the entry by its first request, and far from all of dist/.
    expect(r.coldStart.loaded!.files).toBeGreaterThan(1);
    expect(r.coldStart.loaded!.bytes).toBeGreaterThan(r.bundle.entryBytes);
    expect(r.coldStart.loaded!.bytes).toBeLessThan(r.bundle.totalBytes / 2);
  });
});
