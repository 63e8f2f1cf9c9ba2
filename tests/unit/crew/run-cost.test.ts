import { GITHUB } from '../../../src/domain/surface';
import { describe, expect, it } from 'vitest';
import { billableMinutes, jobMinutes, minutesPerTask, runMinutes, type JobTime } from '../../../src/domain/actions-minutes';
import { against } from '../../../src/domain/cost-estimate';
import { estimateRun, MIN_SAMPLES, PRIOR, quantile, type EstimateInput, type PastRun } from '../../../src/domain/estimate';
import { usageOf } from '../../../src/domain/pricing';
import { estimateText, estimateVsActual, localCostLine, minutesNote } from '../../../src/render/cost';
import { renderPlanComment } from '../../../src/render/plan-comment';
import { renderReport } from '../../../src/render/report';
import { recordingJobTimes, jobId } from '../../../src/state/job-times';
import { pastRun, readPastRuns } from '../../../src/state/past-runs';
import { pruneRunFolder } from '../../../src/state/run-digests';
import { readRunSpends } from '../../../src/state/spend';
import { totalUsage } from '../../../src/domain/run-state';
import { paths, readJobTimes, readView, writeRun } from '../../../src/state/run-files';
import { view } from './run-fixtures';
import { CountingState } from './memory-state';

const at = (s: number) => new Date(Date.UTC(2026, 10, 21, 0, 0, 0) + s * 1000).toISOString();
const job = (id: string, step: string, from: number, to: number, task?: string): JobTime => ({
  id,
  step,
  ...(task ? { task } : {}),
  startedAt: at(from),
  lastAt: at(to),
});

describe('billable Actions minutes: each job rounded up to a whole minute (docs: Actions runner pricing)', () => {
  it('rounds every started minute up, and a job that ran at all bills one', () => {
    expect(billableMinutes(0)).toBe(1);
    expect(billableMinutes(1)).toBe(1);
    expect(billableMinutes(59_999)).toBe(1);
    expect(billableMinutes(60_000)).toBe(1);
    expect(billableMinutes(60_001)).toBe(2);
    expect(billableMinutes(3 * 60_000 + 500)).toBe(4);
    // A clock that went backwards still counts the job that ran.
    expect(billableMinutes(-5)).toBe(1);
  });

  it('rounds per job, not per run: nine 20-second jobs bill nine minutes, one 3-minute job three', () => {
    const nine = Array.from({ length: 9 }, (_, i) => job(`j${i}`, 'work', i * 20, i * 20 + 20));
    expect(runMinutes(nine)).toBe(9);
    expect(runMinutes([job('one', 'work', 0, 180)])).toBe(3);
    expect(jobMinutes(job('x', 'critic', 0, 61))).toBe(2);
  });

  it('shares a chained job’s minutes evenly among the tasks it ran', () => {
    const m = minutesPerTask([{ ...job('a', 'work', 0, 170, 't1'), chained: ['t2'] }, job('b', 'work', 0, 10, 't3')]);
    expect([...m]).toEqual([
      ['t1', 1.5],
      ['t2', 1.5],
      ['t3', 1],
    ]);
  });

  it('adds the minutes of a task that needed more than one work job', () => {
    const m = minutesPerTask([job('a', 'work', 0, 30, 't1'), job('b', 'work', 100, 200, 't1'), job('c', 'work', 0, 10, 't2'), job('d', 'route', 0, 10)]);
    expect([...m]).toEqual([
      ['t1', 3],
      ['t2', 1],
    ]);
  });
});

const MODELS = { haiku: 'claude-haiku-5-5', sonnet: 'claude-sonnet-5-5', opus: 'claude-opus-5-5' } as const;

function input(patch: Partial<EstimateInput> = {}): EstimateInput {
  return {
    at: at(0),
    tasks: [{ tier: 'sonnet' }, { tier: 'sonnet' }, { tier: 'haiku' }],
    models: MODELS,
    criticTier: 'sonnet',
    retroTier: 'sonnet',
    budgets: { run: { cost_usd: 20 }, task: { cost_usd: 5 } },
    taskTimeoutMinutes: 30,
    spent: { costUsd: 0.05, minutes: 2 },
    waitsForApproval: false,
    past: [],
    ...patch,
  };
}

const price = (model: string, t: { input: number; output: number; cacheRead: number; cacheWrite: number }) => usageOf(model, t).costUsd;

describe('the estimate before any work: from the plan and crew’s assumptions', () => {
  it('adds a light and a heavy attempt per task at its tier, the finish, and what planning spent', () => {
    const e = estimateRun(input());
    const low =
      0.05 +
      2 * price(MODELS.sonnet, PRIOR.worker.light) +
      price(MODELS.haiku, PRIOR.worker.light) +
      price(MODELS.sonnet, PRIOR.critic.light) +
      price(MODELS.sonnet, PRIOR.retrospector.light);
    const high =
      0.05 +
      2 * price(MODELS.sonnet, PRIOR.worker.heavy) +
      price(MODELS.haiku, PRIOR.worker.heavy) +
      price(MODELS.sonnet, PRIOR.critic.heavy) +
      price(MODELS.sonnet, PRIOR.retrospector.heavy);
    expect(e.costUsd.low).toBeCloseTo(low, 3);
    expect(e.costUsd.high).toBeCloseTo(high, 3);
    expect(e.costUsd.low).toBeLessThanOrEqual(low + 1e-9);
    expect(e.costUsd.high).toBeGreaterThanOrEqual(high - 1e-9);
    // 2 spent + 3 work jobs of 2 to 16 minutes + the finish, 2 to 10.
    expect(e.minutes).toEqual({ low: 2 + 3 * 2 + 2, high: 2 + 3 * 16 + 10 });
    expect(e.basis).toEqual({ runs: 0, tasks: 0 });
    expect(e).toMatchObject({ spentUsd: 0.05, spentMinutes: 2, capUsd: 20 });
  });

  it('costs more on a stronger tier, and a plan with more tasks costs more', () => {
    const haiku = estimateRun(input({ tasks: [{ tier: 'haiku' }] }));
    const opus = estimateRun(input({ tasks: [{ tier: 'opus' }] }));
    expect(opus.costUsd.high).toBeGreaterThan(haiku.costUsd.high);
    expect(opus.costUsd.low).toBeGreaterThan(haiku.costUsd.low);
    const more = estimateRun(input({ tasks: Array.from({ length: 6 }, () => ({ tier: 'sonnet' as const })) }));
    expect(more.costUsd.high).toBeGreaterThan(estimateRun(input()).costUsd.high);
    expect(more.minutes!.low).toBeGreaterThan(estimateRun(input()).minutes!.low);
  });

  it('never passes the budgets: a task’s budgets.task.cost_usd, and the run’s budgets.run.cost_usd', () => {
    const tightTask = estimateRun(input({ tasks: [{ tier: 'opus' }], budgets: { run: { cost_usd: 20 }, task: { cost_usd: 0.5 } } }));
    const heavyCritic = price(MODELS.sonnet, PRIOR.critic.heavy) + price(MODELS.sonnet, PRIOR.retrospector.heavy);
    expect(tightTask.costUsd.high).toBeCloseTo(0.05 + 0.5 + heavyCritic, 3);
    const tightRun = estimateRun(
      input({ tasks: Array.from({ length: 10 }, () => ({ tier: 'opus' as const })), budgets: { run: { cost_usd: 3 }, task: { cost_usd: 5 } } }),
    );
    expect(tightRun.costUsd.high).toBe(3);
    expect(tightRun.costUsd.low).toBeLessThanOrEqual(3);
    // What was spent stays spent, even past a budget lowered since.
    expect(estimateRun(input({ spent: { costUsd: 4, minutes: 1 }, budgets: { run: { cost_usd: 3 }, task: { cost_usd: 5 } } })).costUsd).toEqual({
      low: 4,
      high: 4,
    });
  });

  it('caps a heavy work job at the task’s time limit, and counts the route job /crew approve starts', () => {
    const short = estimateRun(input({ tasks: [{ tier: 'sonnet' }], taskTimeoutMinutes: 5 }));
    expect(short.minutes!.high).toBe(2 + 6 + 10);
    const approval = estimateRun(input({ tasks: [{ tier: 'sonnet' }], taskTimeoutMinutes: 5, waitsForApproval: true }));
    expect(approval.minutes).toEqual({ low: short.minutes!.low + 1, high: short.minutes!.high + 1 });
  });

  it('has no Actions minutes for a local run, and no retrospective cost when it is off', () => {
    const local = estimateRun(input({ spent: { costUsd: 0.05, minutes: null } }));
    expect(local.minutes).toBeNull();
    expect(local.spentMinutes).toBeNull();
    const noRetro = estimateRun(input({ retroTier: null }));
    expect(estimateRun(input()).costUsd.low - noRetro.costUsd.low).toBeCloseTo(price(MODELS.sonnet, PRIOR.retrospector.light), 3);
  });
});

describe('the estimate from the repository’s past runs', () => {
  const pastRunOf = (costs: number[], minutes: number[], after: { costUsd: number; minutes: number | null } | null): PastRun => ({
    tasks: costs.map((c, i) => ({ tier: 'sonnet', costUsd: c, minutes: minutes[i] ?? null })),
    afterPlan: after,
  });

  it('takes the 25th and 90th percentiles of what earlier tasks of the same tier cost, once there are enough', () => {
    const past = [
      pastRunOf([0.2, 0.4], [3, 5], { costUsd: 0.3, minutes: 4 }),
      pastRunOf([0.6, 1.0], [4, 8], { costUsd: 0.5, minutes: 6 }),
      pastRunOf([], [], { costUsd: 0.7, minutes: 5 }),
    ];
    const e = estimateRun(input({ tasks: [{ tier: 'sonnet' }, { tier: 'sonnet' }], past }));
    const costs = [0.2, 0.4, 0.6, 1.0];
    const finish = [0.3, 0.5, 0.7];
    expect(e.costUsd.low).toBeCloseTo(0.05 + 2 * quantile(costs, 0.25) + quantile(finish, 0.25), 3);
    expect(e.costUsd.high).toBeCloseTo(0.05 + 2 * quantile(costs, 0.9) + quantile(finish, 0.9), 3);
    expect(e.minutes).toEqual({
      low: 2 + 2 * Math.ceil(quantile([3, 5, 4, 8], 0.25)) + Math.ceil(quantile([4, 6, 5], 0.25)),
      high: 2 + 2 * Math.ceil(quantile([3, 5, 4, 8], 0.9)) + Math.ceil(quantile([4, 6, 5], 0.9)),
    });
    expect(e.basis).toEqual({ runs: 3, tasks: 4 });
  });

  it(`keeps crew’s assumptions for a tier with fewer than ${MIN_SAMPLES} past tasks, and says what it used`, () => {
    const past = [pastRunOf([0.2, 0.4], [3, 5], null)];
    const fromPlan = estimateRun(input({ tasks: [{ tier: 'sonnet' }] }));
    const e = estimateRun(input({ tasks: [{ tier: 'sonnet' }], past }));
    expect(e.costUsd).toEqual(fromPlan.costUsd);
    expect(e.basis).toEqual({ runs: 0, tasks: 0 });
    // Three opus figures do not inform a sonnet task.
    const opus: PastRun = { tasks: [0.5, 0.6, 0.7].map((c) => ({ tier: 'opus', costUsd: c, minutes: null })), afterPlan: null };
    expect(estimateRun(input({ tasks: [{ tier: 'sonnet' }], past: [opus] })).costUsd).toEqual(fromPlan.costUsd);
  });

  it('says where an actual figure fell', () => {
    expect(against({ low: 1, high: 2 }, 0.5)).toBe('below');
    expect(against({ low: 1, high: 2 }, 1)).toBe('within');
    expect(against({ low: 1, high: 2 }, 2)).toBe('within');
    expect(against({ low: 1, high: 2 }, 2.01)).toBe('above');
  });

  it('quantile interpolates between neighbours', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(quantile([10, 0], 0.25)).toBe(2.5);
    expect(quantile([4], 0.9)).toBe(4);
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('jobs record their start and last write in the writes they make anyway', () => {
  it('adds the job file to every write that changes a run, and makes no write of its own', async () => {
    const inner = new CountingState();
    let clock = Date.parse(at(10));
    const store = recordingJobTimes(inner, { id: '77-1-work-t2', step: 'work', task: 't2', startedAt: Date.parse(at(0)) }, () => new Date(clock));
    await store.update('issue-12/run-2/', 'record', (tx) => tx.write('issue-12/run-2/tasks/task_t2.json', '{"a":1}\n'));
    expect(inner.commits).toBe(1);
    const file = paths.job(12, 2, '77-1-work-t2');
    expect(JSON.parse(inner.files.get(file)!)).toEqual({ id: '77-1-work-t2', step: 'work', task: 't2', startedAt: at(0), lastAt: at(10) });
    // Nothing changed: nothing is committed, the job's record included.
    clock = Date.parse(at(50));
    await store.update('issue-12/run-2/', 'same again', (tx) => tx.write('issue-12/run-2/tasks/task_t2.json', '{"a":1}\n'));
    expect(inner.commits).toBe(1);
    expect(JSON.parse(inner.files.get(file)!).lastAt).toBe(at(10));
    // The next real write moves the job's last write forward, in the same commit.
    clock = Date.parse(at(95));
    await store.update('issue-12/run-2/', 'record again', (tx) => tx.write('issue-12/run-2/tasks/task_t2.json', '{"a":2}\n'));
    expect(inner.commits).toBe(2);
    expect(readJobTimes(await inner.load('issue-12/run-2/'), 12, 2).map(jobMinutes)).toEqual([2]);
  });

  it('finds the run folder a write to the issue’s folder created, and records nothing for files outside runs', async () => {
    const inner = new CountingState();
    const store = recordingJobTimes(inner, { id: '5-1-route', step: 'route', startedAt: Date.parse(at(0)) }, () => new Date(Date.parse(at(3))));
    await store.update('issue-4/', 'start a run', (tx) => tx.write('issue-4/run-3/request.md', '# x\n'));
    await store.update('issue-4/', 'a refusal', (tx) => tx.write('issue-4/refusals/someone.json', '{}\n'));
    expect([...inner.files.keys()].sort()).toEqual(['issue-4/refusals/someone.json', 'issue-4/run-3/jobs/job_5-1-route.json', 'issue-4/run-3/request.md']);
    expect(readJobTimes(await inner.load('issue-4/run-3/'), 4, 3)).toEqual([{ id: '5-1-route', step: 'route', startedAt: at(0), lastAt: at(3) }]);
  });

  it('names jobs by GitHub’s run id, attempt, job and task, safe as a file name', () => {
    expect(jobId({ runId: '123', attempt: '2', job: 'work', task: 't4' })).toBe('123-2-work-t4');
    expect(jobId({ runId: '123', job: 'route' })).toBe('123-1-route');
    expect(jobId({ runId: 'local/../x', job: 'a b' })).toBe('local____x-1-a_b');
  });
});

describe('reading past runs from the state', () => {
  async function finishedRun(
    store: CountingState,
    issue: number,
    run: number,
    opts: { phase?: 'COMPLETED' | 'FAILED' | 'EXECUTING'; createdAt: string; estimate?: boolean },
  ) {
    const v = view(['success', 'success', 'failure'], { issue, run, phase: opts.phase ?? 'COMPLETED', createdAt: opts.createdAt });
    const rec = {
      ...v.run,
      usage: { ...v.run.usage, costUsd: 0.5 },
      estimate: opts.estimate
        ? {
            at: opts.createdAt,
            costUsd: { low: 0.1, high: 1 },
            minutes: { low: 3, high: 9 },
            spentUsd: 0.2,
            spentMinutes: 1,
            capUsd: 20,
            basis: { runs: 0, tasks: 0 },
          }
        : null,
    };
    await store.update(`issue-${issue}/run-${run}/`, 'write', (tx) => {
      writeRun(tx, rec, opts.createdAt);
      tx.write(paths.planJson(issue, run), JSON.stringify(v.plan));
      for (const t of v.tasks.values()) tx.write(paths.taskJson(issue, run, t.id), JSON.stringify({ ...t, branch: `crew/${issue}/r${run}/${t.id}` }));
      for (const j of [
        job('r', 'route', 0, 30),
        job('w1', 'work', 40, 100, 't1'),
        job('w2', 'work', 40, 200, 't2'),
        job('a', 'advance', 300, 310),
        job('c', 'critic', 320, 400),
      ])
        tx.write(paths.job(issue, run, j.id), JSON.stringify(j));
    });
  }

  it('reads the newest finished runs, leaves out the current and unfinished ones, and names a damaged one', async () => {
    const store = new CountingState();
    await finishedRun(store, 1, 1, { createdAt: '2026-11-01T00:00:00Z', estimate: true });
    await finishedRun(store, 2, 1, { createdAt: '2026-11-02T00:00:00Z', phase: 'FAILED' });
    await finishedRun(store, 3, 1, { createdAt: '2026-11-03T00:00:00Z', phase: 'EXECUTING' });
    await finishedRun(store, 4, 1, { createdAt: '2026-11-04T00:00:00Z' });
    await store.update('issue-5/run-1/', 'damaged', (tx) => tx.write(paths.run(5, 1), '{"schema": 1, "phase": "NOPE"'));
    const { runs, problems } = await readPastRuns(store, { issue: 4, run: 1 });
    expect(runs).toHaveLength(2);
    // Newest first: issue 2 (failed: its tasks count, nothing after a plan), then issue 1.
    expect(runs[0]!.afterPlan).toBeNull();
    expect(runs[1]!.tasks).toEqual([
      // t1's job ran exactly a minute; t2's 2 min 40 s.
      { tier: 'sonnet', costUsd: 0.002, minutes: 1 },
      { tier: 'haiku', costUsd: 0.002, minutes: 3 },
      { tier: 'haiku', costUsd: 0.002, minutes: null },
    ]);
    // After the plan: $0.50 − the $0.20 spent when it estimated; route 1 + advance 1 + critic 2 − the 1 minute spent then.
    expect(runs[1]!.afterPlan).toEqual({ costUsd: 0.3, minutes: 3 });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/leaves out run 1 of issue #5: .*issue-5\/run-1\/run\.json is not valid/);
    expect((await readPastRuns(store, { issue: 9, run: 1 }, 1)).runs).toHaveLength(1);
  });

  it('a pruned run’s figures stay in its digest, however old: the estimate reads the same numbers, in the same order (#37)', async () => {
    const store = new CountingState();
    await finishedRun(store, 1, 1, { createdAt: '2026-11-01T00:00:00Z', estimate: true });
    await finishedRun(store, 2, 1, { createdAt: '2026-11-02T00:00:00Z' });
    const before = await readPastRuns(store, { issue: 9, run: 1 });
    const v1 = readView(await store.loadRuns(() => true), 1, 1)!;
    // Pruned through the store main.ts builds, which records the job in every run folder a write touches.
    const recording = recordingJobTimes(store, { id: '8-1-critic', step: 'critic', startedAt: Date.parse(at(0)) }, () => new Date(Date.parse(at(500))));
    await recording.update('', 'prune', (tx) => {
      const v = readView(tx, 1, 1)!;
      pruneRunFolder(tx, v, { how: 'closed', at: at(450) }, at(500));
    });
    expect([...store.files.keys()].filter((p) => p.startsWith('issue-1/'))).toEqual(['issue-1/run-1/digest.json']);
    const after = await readPastRuns(store, { issue: 9, run: 1 });
    expect(after).toEqual(before);
    expect(JSON.parse(store.files.get('issue-1/run-1/digest.json')!)).toMatchObject({
      issue: 1,
      run: 1,
      ended: 'closed',
      endedAt: at(450),
      prunedAt: at(500),
      taskCount: 3,
      // Who asked: the rate per person counts pruned runs too (#52).
      requestedBy: 'maintainer',
      automatic: false,
    });
    // The repository's spend reads the same cost from the digest as from the folder (#52).
    expect((await readRunSpends(store)).runs.find((r) => r.issue === 1)).toMatchObject({ costUsd: totalUsage(v1).costUsd, by: 'maintainer', finished: true });
  });

  it('has no minutes for a run that recorded no jobs', () => {
    const v = view(['success', 'pending', 'success'], { phase: 'COMPLETED' });
    expect(pastRun({ ...v, jobs: [] }).tasks.map((t) => t.minutes)).toEqual([null, null]);
  });
});

describe('what the plan comment, the approval request, the report and the terminal say', () => {
  const estimate = {
    at: at(0),
    costUsd: { low: 0.4, high: 2.1 },
    minutes: { low: 8, high: 60 },
    spentUsd: 0.05,
    spentMinutes: 1,
    capUsd: 20,
    basis: { runs: 0, tasks: 0 },
  };
  const links = {
    branch: (b: string) => `https://x/${b}`,
    comment: (_i: number, id: number) => `#${id}`,
    run: 'https://run',
    stateFile: (p: string) => `https://state/${p}`,
  };

  it('puts the billable minutes after the usage line’s cost, and the estimate on a line of its own', () => {
    const v = { ...view(['success', 'running', 'pending'], { host: 'actions', estimate }), jobs: [job('r', 'route', 0, 30), job('w', 'work', 40, 130, 't1')] };
    const body = renderPlanComment(v, links, GITHUB);
    expect(body).toMatch(/^\*\*Usage:\*\* .* · about \$0\.0\d+ · 3 billable Actions minutes$/m);
    expect(body).toContain(
      "**Estimate:** $0.40–$2.10 of model use and 8–60 billable Actions minutes for the whole run (planning's $0.05 and 1 minute included) · based on the plan and crew's assumptions (no earlier runs on record) · model use stops at $20.00 (`budgets.run`)",
    );
    expect(estimateText({ ...estimate, basis: { runs: 4, tasks: 11 } })).toContain('based on 4 earlier runs of this repository (11 tasks)');
  });

  it('says plainly that a local run bills no Actions minutes', () => {
    const v = { ...view(['success', 'success', 'success'], { host: 'local', estimate: { ...estimate, minutes: null, spentMinutes: null } }), jobs: [] };
    expect(minutesNote(v)).toBe(' · no Actions minutes (a local run)');
    expect(renderPlanComment(v, links, GITHUB)).toContain(
      "$0.40–$2.10 of model use for the whole run (planning's $0.05 included); a local run bills no Actions minutes",
    );
    expect(localCostLine(v)).toBe(
      'Cost: about $0.0090 of model use (estimated $0.40–$2.10: under the estimate). A local run bills no GitHub Actions minutes: it ran on this machine.',
    );
    expect(estimateVsActual(v)).toBe(
      '**Estimate vs actual:** model use $0.40–$2.10 estimated, $0.0090 spent (under the estimate); a local run bills no Actions minutes',
    );
  });

  it('shows the estimate beside the actual figures in the report', () => {
    const v = {
      ...view(['success', 'success', 'success'], {
        host: 'actions',
        phase: 'COMPLETED',
        estimate: { ...estimate, costUsd: { low: 0.001, high: 0.5 }, minutes: { low: 2, high: 4 } },
      }),
      jobs: [job('r', 'route', 0, 30), job('w', 'work', 40, 130, 't1'), job('c', 'critic', 200, 330)],
    };
    const report = renderReport(v, new Map(), links, null, null);
    expect(report).toMatch(/^\*\*Total usage:\*\* .* · about \$0\.01 · 6 billable Actions minutes$/m);
    expect(report).toContain(
      '**Estimate vs actual:** model use $0.0010–$0.50 estimated, $0.0090 spent (within the estimate) · Actions minutes 2–4 estimated, 6 billed so far (over the estimate)',
    );
    // A run from before estimates existed says nothing of one.
    expect(renderReport({ ...v, run: { ...v.run, estimate: undefined } }, new Map(), links, null, null)).not.toContain('Estimate');
  });

  it('reads every job back through readView', async () => {
    const store = new CountingState();
    const rec = view(['pending', 'pending', 'pending']).run;
    await store.update('issue-12/run-2/', 'w', (tx) => {
      writeRun(tx, rec, at(0));
      tx.write(paths.job(12, 2, 'b'), JSON.stringify(job('b', 'work', 50, 70, 't1')));
      tx.write(paths.job(12, 2, 'a'), JSON.stringify(job('a', 'route', 0, 20)));
    });
    expect(readView(await store.load('issue-12/run-2/'), 12, 2)!.jobs!.map((j) => j.id)).toEqual(['a', 'b']);
    await store.update('issue-12/run-2/', 'damage', (tx) =>
      tx.write(paths.job(12, 2, 'a'), JSON.stringify({ id: 'a', step: 'route', startedAt: 'yesterday', lastAt: at(1) })),
    );
    const damaged = await store.load('issue-12/run-2/');
    expect(() => readView(damaged, 12, 2)).toThrow(/jobs\/job_a\.json is not valid: field `startedAt`/);
  });
});
