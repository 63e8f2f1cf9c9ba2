import { criticalPath } from '../../src/domain/plan';
import { costLines, costMarkdown } from './cost';
import type { LimitsFigure } from './limits';
import { setupCacheLine, setupCacheMarkdown } from './setup-cache';
import type { PlatformProfile } from '../../tests/support/latency';
import { CHAIN, QUICK, TWELVE, WIDE } from './dags';
import type { BenchResults, MakespanFigure, ProfileFigures, RoundTripFigure } from './results';
import type { GitCounts, TracedRequest } from './round-trips';
import { REQUESTS_ONLY, WHOLE_RUN_TARGETS, type WholeRunFigure, type WholeRunPlay } from './whole-run';
import type { WayName } from './ways';

/** Renders bench/results.json: the one-screen table, bench/results.md, and the figures in docs/PERFORMANCE.md. */

const WAYS: WayName[] = ['crew', 'seed', 'single'];
const WAY_LABEL: Record<WayName, string> = { crew: 'crew', seed: "seed's way", single: 'single agent' };
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const k = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(Math.round(n)));
const pct = (x: number) => `${Math.round(x * 100)}%`;
const x2 = (x: number) => `×${x.toFixed(2)}`;

export function machineLine(r: BenchResults): string {
  const m = r.machine;
  return `${m.cpus} × ${m.cpu}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}; load average ${m.loadAverage.map((l) => l.toFixed(1)).join(' ')} at the start`;
}

export function worldLine(r: BenchResults): string {
  return `time scale ${r.world.timeScale} (one minute of model time takes ${(60 * r.world.timeScale).toFixed(1)} s); model latency ${r.world.latency.perRequestMs} ms per request + ${r.world.latency.perOutputTokenMs} ms per output token, before scaling`;
}

/** What a latency profile adds, before scaling. */
export function profileLine(p: PlatformProfile): string {
  if (!p.restMs && !p.graphqlMs && !p.gitMs && !p.dispatchLagMs && !p.jobStartMs) return `${p.name}: no latency`;
  return `${p.name}: ${p.restMs} ms per REST, ${p.graphqlMs} ms per GraphQL and ${p.gitMs} ms per git request, ${p.dispatchLagMs / 1000} s for a dispatched run to start, ${p.jobStartMs / 1000} s for a job to start, before scaling`;
}

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
}

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [pad(head, widths), ...rows.map((r) => pad(r, widths))];
}

const wayCell = (f: MakespanFigure, w: WayName) => (w === 'crew' ? s(f.ways.crew.makespanMs) : `${s(f.ways[w].makespanMs)} ${x2(f.ways[w].ratioToCrew)}`);

/**
 * Where crew's time went on the critical path: what its jobs there took against their scripted
 * work, and what passed between one job's end and the next one's start (negative: the next
 * job started before the previous one had finished posting).
 */
export function criticalChain(f: MakespanFigure, timeScale: number): { path: string[]; workMs: number; jobsMs: number; gapsMs: number } | undefined {
  const c = [TWELVE, WIDE, CHAIN, QUICK].find((x) => x.name === f.scenario);
  const spans = f.spans.crew;
  if (!c || c.tasks.some((t) => !spans[t.id])) return undefined;
  const work = (id: string) => c.tasks.find((t) => t.id === id)!.ms * timeScale;
  const { path } = criticalPath({ tasks: c.tasks.map((t) => ({ id: t.id, dependsOn: t.deps })) }, work);
  const jobsMs = path.reduce((sum, id) => sum + spans[id]!.end - spans[id]!.start, 0);
  const gapsMs = path.slice(1).reduce((sum, id, i) => sum + spans[id]!.start - spans[path[i]!]!.end, 0) + spans[path[0]!]!.start;
  return { path, workMs: path.reduce((sum, id) => sum + work(id), 0), jobsMs, gapsMs };
}

function chainSentence(f: MakespanFigure, p: ProfileFigures, r: BenchResults): string {
  const chain = criticalChain(f, r.world.timeScale);
  if (!chain) return `${f.scenario}: no critical chain to show.`;
  const over = chain.jobsMs - chain.workMs;
  const retries = chain.path.reduce((n, id) => n + (f.crewStateRetries?.[id] ?? 0), 0);
  const total = Object.values(f.crewStateRetries ?? {}).reduce((n, k) => n + k, 0);
  return `${p.profile.name}, ${f.scenario}: the jobs on its critical path (${chain.path.join(' → ')}) took ${s(chain.jobsMs)} for ${s(chain.workMs)} of work, ${s(over)} over it against s × o = ${s(f.steps * p.overhead.stepMs)}; ${s(chain.gapsMs)} passed before and between them. Those jobs redid ${retries} state write${retries === 1 ? '' : 's'} another job's write had beaten (${total} across all ${f.tasks} jobs).`;
}

/** One of issue #17's targets, measured under one profile. */
export interface TargetCheck {
  target: string;
  /** The figure, or why there is none (e.g. not in the quick sample). */
  measured: string;
  met: boolean | undefined;
}

const one = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

/** Issue #17's targets against one profile's figures. */
export function issueTargets(p: ProfileFigures): TargetCheck[] {
  const none = (target: string, why: string): TargetCheck => ({ target, measured: why, met: undefined });
  const byName = (c: { name: string }) => p.makespan.find((f) => f.scenario === c.name);
  const out: TargetCheck[] = [];
  const worst = p.makespan.reduce<MakespanFigure | undefined>((w, f) => (!w || f.crewRatioToBound > w.crewRatioToBound ? f : w), undefined);
  out.push(
    worst
      ? {
          target: 'makespan ≤ 1.10 × (CP + s·o) on every DAG',
          measured: `at most ${worst.crewRatioToBound.toFixed(2)} (${worst.scenario})`,
          met: p.makespan.every((f) => f.meetsTarget),
        }
      : none('makespan ≤ 1.10 × (CP + s·o) on every DAG', 'no DAG measured'),
  );
  const chain = byName(CHAIN);
  // Judged at full scale where the bench measured it (ProfileFigures.fullScaleChain), the bench's own scale beside it.
  const full = p.fullScaleChain;
  out.push(
    chain
      ? {
          target: '5-task chain ≤ 1.15 × the single agent',
          measured: full
            ? `× ${(full.crewMs / full.singleMs).toFixed(2)} at full scale (${s(full.crewMs)} against ${s(full.singleMs)}); × ${(chain.ways.crew.makespanMs / chain.ways.single.makespanMs).toFixed(2)} at the bench's scale`
            : `× ${(chain.ways.crew.makespanMs / chain.ways.single.makespanMs).toFixed(2)}`,
          met: full ? full.crewMs <= 1.15 * full.singleMs : chain.ways.crew.makespanMs <= 1.15 * chain.ways.single.makespanMs,
        }
      : none('5-task chain ≤ 1.15 × the single agent', 'not in this run'),
  );
  const twelve = byName(TWELVE);
  out.push(
    twelve
      ? {
          target: '12-task DAG ≥ 2 × faster than the single agent',
          measured: `${twelve.ways.single.ratioToCrew.toFixed(2)} × faster`,
          met: twelve.ways.single.makespanMs >= 2 * twelve.ways.crew.makespanMs,
        }
      : none('12-task DAG ≥ 2 × faster than the single agent', 'not in this run'),
  );
  const quiet = p.roundTrips.find((t) => t.uncontended);
  const work = quiet?.jobs.filter((j) => j.kind === 'work') ?? [];
  // A work job that ran a chain of tasks (#17 §4) is judged per task it ran: each task is one
  // step of the run, whichever job it ran in. Results from before chains count one task a job.
  const tasksOf = (j: (typeof work)[number]) => Math.max(1, j.tasks ?? 1);
  const perWork = (target: string, limit: number, f: (j: (typeof work)[number]) => number, alsoWith?: (j: (typeof work)[number]) => number): TargetCheck => {
    if (!work.length) return none(target, 'no uncontended run here');
    const perTask = (g: (j: (typeof work)[number]) => number) => work.map((j) => g(j) / tasksOf(j));
    const figure = (values: number[]) =>
      `mean ${one(Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100)}, most ${one(Math.round(Math.max(...values) * 100) / 100)}`;
    const values = perTask(f);
    const chained = work.some((j) => tasksOf(j) > 1);
    const measured = `${chained ? 'per task: ' : ''}${figure(values)}${alsoWith ? `; with actions/checkout ${figure(perTask(alsoWith))}` : ''}`;
    return { target, measured, met: Math.max(...values) <= limit };
  };
  out.push(
    perWork(
      'work job ≤ 6 git requests (uncontended), crew’s own',
      6,
      (j) => j.git.total - j.checkoutGit,
      (j) => j.git.total,
    ),
  );
  out.push(perWork('work job ≤ 4 REST requests (uncontended)', 4, (j) => j.rest));
  out.push(perWork('work job ≤ 2 state writes (uncontended)', 2, (j) => j.stateWrites));
  const busy = p.roundTrips.find((t) => !t.uncontended && t.maxParallel >= 10 && t.jobs.length >= 20);
  out.push(
    busy
      ? {
          target: 'state-write retries ≤ 1 per job at max_parallel 10',
          measured: `${busy.retriesPerJob.toFixed(2)} per job (${busy.scenario})`,
          met: busy.retriesPerJob <= 1,
        }
      : none('state-write retries ≤ 1 per job at max_parallel 10', 'no wide run here'),
  );
  return out;
}

const verdict = (met: boolean | undefined) => (met === undefined ? '–' : met ? 'met' : 'missed');

/** The profile the targets of #17 are judged under: github-hosted when it was measured. */
const judgedUnder = (r: BenchResults) => r.profiles.find((p) => p.profile.name === 'github-hosted') ?? r.profiles.at(-1)!;

const gitCells = (g: { total: number; infoRefs: number; lsRefs: number; fetch: number; push: number }) => [
  one(g.total),
  one(g.infoRefs),
  one(g.lsRefs),
  one(g.fetch),
  one(g.push),
];

/** The one-screen summary `npm run bench` prints. */
export function terminalTable(r: BenchResults): string {
  const lines: string[] = [];
  lines.push(`crew benchmark${r.quick ? ' (quick sample)' : ''}: ${machineLine(r)}`);
  lines.push(`offline world: ${worldLine(r)}`);
  for (const p of r.profiles)
    lines.push(`GitHub ${profileLine(p.profile)}; o (per-step overhead of a crew job, ${p.overhead.measuredOn}) ${s(p.overhead.stepMs)}`);
  for (const m of r.remeasured ?? []) lines.push(`${WAY_LABEL[m.way]} measured again ${m.at.slice(0, 16)}: ${m.why}`);
  lines.push('');
  lines.push('Makespan, first task start to last task end (× = that way ÷ crew)');
  lines.push(
    ...table(
      ['scenario', 'profile', 'crew', "seed's way", 'single agent', 'crit. path', 'crew÷CP', 'target', 'crew÷(CP+s·o)'],
      r.profiles[0]!.makespan.flatMap((f0) =>
        r.profiles.map((p) => {
          const f = p.makespan.find((x) => x.scenario === f0.scenario) ?? f0;
          return [
            `${f.scenario} (P=${f.maxParallel})`,
            p.profile.name,
            wayCell(f, 'crew'),
            wayCell(f, 'seed'),
            wayCell(f, 'single'),
            s(f.criticalPathMs),
            f.ways.crew.ratioToCriticalPath.toFixed(2),
            `≤ ${s(f.targetMs)}`,
            `${f.crewRatioToBound.toFixed(2)} ${f.meetsTarget ? 'ok' : 'MISSED'}`,
          ];
        }),
      ),
    ),
  );
  lines.push('');
  const main = r.profiles[0]!;
  const fit = main.requests.fit;
  const hfit = main.requests.hostedFit;
  const growth =
    main.requests.runs.length > 1
      ? `; crew ≈ ${fit.perRun.toFixed(1)} + ${fit.perTask.toFixed(2)} per task, baselines ≈ ${hfit.perRun.toFixed(1)} + ${hfit.perTask.toFixed(2)}`
      : '';
  lines.push(`GitHub REST requests per run (${main.profile.name}), target ≤ 3 per task + 15${growth}`);
  lines.push(
    ...table(
      ['run', 'tasks', 'crew (writes)', 'budget', 'runs/hour', "seed's way & single agent (writes)", 'git crew/them'],
      main.requests.runs.map((q) => [
        q.scenario,
        String(q.tasks),
        `${q.rest} (${q.writes})`,
        String(q.budget),
        String(q.runsPerHour),
        `${q.hosted.rest} (${q.hosted.writes}) ${x2(q.hosted.ratioToCrew)} +${q.hosted.graphql} GraphQL`,
        `${q.git}/${q.hosted.git}`,
      ]),
    ),
  );
  lines.push('');
  const judged = judgedUnder(r);
  lines.push(`Requests per job, mean by kind (${judged.profile.name}); git = info/refs + ls-refs + fetch + push`);
  lines.push(
    ...table(
      ['run', 'job', 'jobs', 'REST', 'GraphQL', 'git', 'info/refs', 'ls-refs', 'fetch', 'push', 'state writes', 'retries'],
      judged.roundTrips.flatMap((t) =>
        t.kinds.map((k) => [
          t.scenario,
          k.kind,
          String(k.jobs),
          one(k.mean.rest),
          one(k.mean.graphql),
          ...gitCells(k.mean.git),
          one(k.mean.stateWrites),
          one(k.mean.stateWriteRetries),
        ]),
      ),
    ),
  );
  const measuredTargets = issueTargets(judged).filter((t) => t.met !== undefined);
  if (measuredTargets.length) {
    lines.push(`Issue #17's targets under ${judged.profile.name}`);
    for (const t of measuredTargets) lines.push(`  ${t.target}: ${t.measured}, ${verdict(t.met)}`);
  }
  lines.push('');
  const t = r.tokens;
  lines.push(`Model input tokens (uncached + cache read + cache write), ${t.scenario}`);
  lines.push(
    ...table(
      ['', ...WAYS.map((w) => WAY_LABEL[w])],
      [
        ['per task', ...WAYS.map((w) => `${k(t.ways[w].perTask)}${w === 'crew' ? '' : ` ${x2(t.ways[w].perTask / t.ways.crew.perTask)}`}`)],
        ['orchestration (target 0)', ...WAYS.map((w) => k(t.ways[w].orchestration))],
        ['cache share', ...WAYS.map((w) => pct(t.ways[w].cacheShare))],
      ],
    ),
  );
  const lt = (w: WayName) => r.longTask.find((l) => l.way === w)!;
  lines.push(`A ${lt('crew').workTurns}-turn task: input per turn (target ≤ 100k) and cache share (target ≥ 70%)`);
  lines.push(
    ...table(
      ['', ...WAYS.map((w) => WAY_LABEL[w])],
      [
        [
          'largest turn',
          ...WAYS.map((w) => `${k(lt(w).largestTurnInput)}${w === 'crew' ? '' : ` ${x2(lt(w).largestTurnInput / lt('crew').largestTurnInput)}`}`),
        ],
        ['mean turn', ...WAYS.map((w) => `${k(lt(w).meanTurnInput)}${w === 'crew' ? '' : ` ${x2(lt(w).meanTurnInput / lt('crew').meanTurnInput)}`}`)],
        ['cache share', ...WAYS.map((w) => pct(lt(w).cacheShare))],
      ],
    ),
  );
  lines.push('');
  lines.push(
    `Cold start: node dist/index.js to its first network request ${r.coldStart.crewMs} ms, node -e "" ${r.coldStart.nodeMs} ms (medians of ${r.coldStart.runs}); bundle ${(r.bundle.entryBytes / 1e6).toFixed(2)} MB (dist/ ${(r.bundle.totalBytes / 1e6).toFixed(2)} MB)`,
  );
  lines.push(`Run-state writes: ${r.stateWrites.map((w) => `${w.writers} writer${w.writers > 1 ? 's' : ''} ${w.perSecond}/s (${w.lost} lost)`).join(', ')}`);
  lines.push(...costLines(r.cost ?? []));
  if (r.wholeRun) lines.push(wholeRunLine(r.wholeRun));
  if (r.limits) lines.push(limitsLine(r.limits));
  if (r.setupCache) lines.push(setupCacheLine(r.setupCache));
  lines.push(`(${s(r.tookMs)})`);
  return lines.join('\n');
}

/** A job's requests in order, runs of the same request folded into one line with a count. */
export function traceLines(requests: TracedRequest[]): string[] {
  const out: Array<{ r: TracedRequest; n: number }> = [];
  for (const r of requests) {
    const last = out.at(-1);
    if (last && last.r.step === r.step && last.r.type === r.type && last.r.what === r.what && last.r.status === r.status) last.n++;
    else out.push({ r, n: 1 });
  }
  let i = 0;
  return out.map(({ r, n }) => {
    const from = ++i;
    i += n - 1;
    return `${n > 1 ? `${from}–${i}` : from}. ${r.type} ${r.what}${r.status >= 300 ? ` (${r.status})` : ''}${n > 1 ? ` × ${n}` : ''}, in \`${r.step}\``;
  });
}

const heldUp = (t: RoundTripFigure) =>
  `${t.applied.delays.rest} of ${t.applied.received.rest} REST, ${t.applied.delays.graphql} of ${t.applied.received.graphql} GraphQL and ${t.applied.delays.git} of ${t.applied.received.git} git requests held up, ${s(t.applied.delays.ms)} in all`;

function mdTable(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

/** The figures as Markdown tables: bench/results.md, and the generated part of docs/PERFORMANCE.md. */
export function figuresMarkdown(r: BenchResults, heading = '##'): string {
  const out: string[] = [];
  out.push(`Measured by \`npm run bench\` on ${r.generated.slice(0, 10)}: ${machineLine(r)}. Offline world: ${worldLine(r)}.`, '');
  out.push('GitHub latency profiles:', '');
  for (const p of r.profiles)
    out.push(
      `- ${profileLine(p.profile)}${p.generated.slice(0, 10) === r.generated.slice(0, 10) ? '' : ` (measured on ${p.generated.slice(0, 10)}, kept from that run)`}.`,
    );
  out.push('');
  for (const m of r.remeasured ?? [])
    out.push(
      `The ${WAY_LABEL[m.way]}'s figures were measured again on ${m.at.slice(0, 10)} (load average ${m.loadAverage.map((l) => l.toFixed(1)).join(' ')}), crew's kept: ${m.why}.`,
      '',
    );

  const judged = judgedUnder(r);
  out.push(`${heading} Issue #17's targets`, '');
  out.push(
    `Judged under ${judged.profile.name}${r.profiles.length > 1 ? `; the other profile${r.profiles.length > 2 ? 's' : ''} for comparison` : ''}. "Most" is the largest figure of any one work job of the uncontended run (${judged.roundTrips.find((t) => t.uncontended)?.scenario ?? 'none here'}); retries are averaged over every job of the widest run.`,
    '',
  );
  const checks = r.profiles.map((p) => ({ p, checks: issueTargets(p) }));
  const judgedChecks = issueTargets(judged);
  out.push(
    ...mdTable(
      ['Target', ...checks.map((c) => c.p.profile.name), `Under ${judged.profile.name}`],
      judgedChecks.map((t, i) => [t.target, ...checks.map((c) => c.checks[i]!.measured), `**${verdict(t.met)}**`]),
    ),
    '',
  );

  out.push(`${heading} Makespan`, '');
  out.push(
    `From the first task's start to the last task's end. o is crew's overhead per step, measured under each profile (${r.profiles.map((p) => `${p.profile.name}: o = ${s(p.overhead.stepMs)} on the ${p.overhead.measuredOn}, as long as ${Math.round(p.overhead.stepMs / r.world.timeScale / 1000)} s of model time`).join('; ')}). The target is crew ≤ 1.10 × (critical path + s × o), s = tasks on the critical path. The critical path is the longest chain of scripted work; the work bound is (all scripted work + n × o) ÷ max_parallel.`,
    '',
  );
  out.push(
    ...mdTable(
      [
        'Scenario',
        'Profile',
        'Tasks',
        'max_parallel',
        'Critical path (s steps)',
        'Work bound',
        'crew',
        "seed's way",
        'single agent',
        'crew ÷ critical path',
        'Target',
        'crew ÷ (CP + s·o)',
        'crew end to end',
      ],
      r.profiles[0]!.makespan.flatMap((f0) =>
        r.profiles.flatMap((p) => {
          const f = p.makespan.find((x) => x.scenario === f0.scenario);
          if (!f) return [];
          return [
            [
              f.scenario,
              p.profile.name,
              String(f.tasks),
              String(f.maxParallel),
              `${s(f.criticalPathMs)} (${f.steps})`,
              s(f.workBoundMs),
              s(f.ways.crew.makespanMs),
              `${s(f.ways.seed.makespanMs)} (${x2(f.ways.seed.ratioToCrew)}, ÷CP ${f.ways.seed.ratioToCriticalPath.toFixed(2)})`,
              `${s(f.ways.single.makespanMs)} (${x2(f.ways.single.ratioToCrew)}, ÷CP ${f.ways.single.ratioToCriticalPath.toFixed(2)})`,
              f.ways.crew.ratioToCriticalPath.toFixed(2),
              `≤ ${s(f.targetMs)}`,
              `**${f.crewRatioToBound.toFixed(2)}** ${f.meetsTarget ? 'met' : 'missed'}`,
              s(f.crewEndToEndMs),
            ],
          ];
        }),
      ),
    ),
    '',
  );
  out.push(
    "Against a single agent: crew's makespan ÷ the single agent's (under 1: crew is faster; the chain's target is ≤ 1.15, the 12-task DAG's ≤ 0.5):",
    '',
  );
  out.push(
    ...mdTable(
      ['Profile', ...r.profiles[0]!.makespan.map((f) => f.scenario)],
      r.profiles.map((p) => [
        p.profile.name,
        ...r.profiles[0]!.makespan.map((f0) => {
          const f = p.makespan.find((x) => x.scenario === f0.scenario);
          return f ? `${(f.ways.crew.makespanMs / f.ways.single.makespanMs).toFixed(2)} (single agent ${x2(f.ways.single.ratioToCrew)})` : '–';
        }),
      ]),
    ),
    '',
  );
  for (const p of r.profiles) {
    const full = p.fullScaleChain;
    if (!full) continue;
    out.push(
      `At full scale (time scale ${full.timeScale}: a task's scripted minute takes a minute, and ${p.profile.name}'s waits are as listed above), the ${full.scenario} once more, crew and the single agent side by side: crew ${s(full.crewMs)} (end to end ${s(full.crewEndToEndMs)}), the single agent ${s(full.singleMs)}, **× ${(full.crewMs / full.singleMs).toFixed(2)}**. This is the figure #17's chain target is judged on: at the bench's scale crew's own seconds a step count ${Math.round(full.timeScale / r.world.timeScale)} times over against the model's time.`,
      '',
    );
  }
  out.push(
    "Where crew's time went on each critical path (a job holds its start, checkout, state writes, model latency and dispatch; the time before and between the jobs is scheduling, and under github-hosted holds each job's start):",
    '',
  );
  for (const p of r.profiles) for (const f of p.makespan) out.push(`- ${chainSentence(f, p, r)}${f.meetsTarget ? '' : ' Target missed.'}`);
  out.push('');

  out.push(`${heading} Requests per job`, '');
  out.push(
    "What each kind of crew job asked of GitHub, as means per job (most in any one job in brackets), counted by the fake GitHub from each job's own GITHUB_TOKEN. git counts every smart-HTTP round trip: info/refs starts every fetch, ls-remote and push (a push's ref advertisement; under protocol v2 the capabilities, after which ls-refs lists the refs), fetch is a pack download, push a pack upload. \"checkout\" is the share of git requests made by actions/checkout. State writes are pushes to crew/state that landed; retries, the ones redone because another job's write landed first (from crew's log). The model's requests are not GitHub's and are not counted.",
    '',
  );
  out.push(
    ...mdTable(
      ['Profile', 'Run', 'Job', 'Jobs', 'Tasks', 'REST', 'GraphQL', 'git', 'info/refs', 'ls-refs', 'fetch', 'push', 'checkout', 'State writes', 'Retries'],
      r.profiles.flatMap((p) =>
        p.roundTrips.flatMap((t) =>
          t.kinds.map((k) => [
            p.profile.name,
            `${t.scenario}${t.uncontended ? ' (uncontended)' : ''}`,
            k.kind,
            String(k.jobs),
            k.tasks ? String(k.tasks) : '',
            `${one(k.mean.rest)} (${k.max.rest})`,
            one(k.mean.graphql),
            `${one(k.mean.git.total)} (${k.max.git})`,
            ...gitCells(k.mean.git).slice(1),
            one(k.mean.checkoutGit),
            `${one(k.mean.stateWrites)} (${k.max.stateWrites})`,
            `${one(k.mean.stateWriteRetries)} (${k.max.stateWriteRetries})`,
          ]),
        ),
      ),
    ),
    '',
  );
  out.push('What each profile added to those runs:', '');
  for (const p of r.profiles)
    for (const t of p.roundTrips)
      out.push(`- ${p.profile.name}, ${t.scenario}: ${heldUp(t)}; jobs waited ${s(t.jobs.reduce((n, j) => n + j.queuedMs, 0))} to start.`);
  out.push('');
  const trace = judged.workJobTrace;
  out.push(
    `Every request of one work job (task ${trace.task} of the ${trace.scenario}, ${judged.profile.name}), in the order the fake GitHub received them; each git line is one round trip:`,
    '',
  );
  out.push(...traceLines(trace.requests), '');

  if (r.wholeRun) out.push(...wholeRunMarkdown(r.wholeRun, heading));
  if (r.limits) out.push(...limitsMarkdown(r.limits, heading));
  if (r.setupCache) out.push(...setupCacheMarkdown(r.setupCache, heading));
  out.push(`${heading} GitHub requests per run`, '');
  const main = r.profiles[0]!;
  out.push(
    `REST requests per run with the workflow's token (git smart-HTTP counted apart). crew's grow ≈ ${main.requests.fit.perRun.toFixed(1)} + ${main.requests.fit.perTask.toFixed(2)} per task under ${main.profile.name}. ` +
      `The baselines are measured hosted on GitHub the only way they can be, inside claude-code-action (the seed's way is a Claude Code plugin), so both make the same requests: ≈ ${main.requests.hostedFit.perRun.toFixed(1)} + ${main.requests.hostedFit.perTask.toFixed(2)} per task, plus GraphQL queries, and they open no pull request (scripts/bench/hosted.ts lists the sequence and its source).`,
    '',
  );
  out.push(
    ...mdTable(
      [
        'Run',
        'Profile',
        'Tasks',
        'crew REST',
        'of which writes',
        'Budget 3 × tasks + 15',
        'crew runs an hour under 1,000',
        "seed's way and single agent REST (writes)",
        '÷ crew',
        'their GraphQL',
        'git requests crew / them',
      ],
      main.requests.runs.flatMap((q0) =>
        r.profiles.flatMap((p) => {
          const q = p.requests.runs.find((x) => x.scenario === q0.scenario);
          if (!q) return [];
          return [
            [
              q.scenario,
              p.profile.name,
              String(q.tasks),
              String(q.rest),
              String(q.writes),
              String(q.budget),
              String(q.runsPerHour),
              `${q.hosted.rest} (${q.hosted.writes})`,
              q.hosted.ratioToCrew.toFixed(2),
              String(q.hosted.graphql),
              `${q.git} / ${q.hosted.git}`,
            ],
          ];
        }),
      ),
    ),
    '',
  );
  const t = r.tokens;
  out.push(`${heading} Model tokens`, '');
  out.push(`Input tokens (uncached + read from the cache + written to it), ${t.scenario}, ${t.profile}:`, '');
  out.push(
    ...mdTable(
      ['', ...WAYS.map((w) => WAY_LABEL[w])],
      [
        ['Per task', ...WAYS.map((w) => `${k(t.ways[w].perTask)}${w === 'crew' ? '' : ` (${x2(t.ways[w].perTask / t.ways.crew.perTask)})`}`)],
        ['Orchestration', ...WAYS.map((w) => k(t.ways[w].orchestration))],
        ['Share read from the cache', ...WAYS.map((w) => pct(t.ways[w].cacheShare))],
      ],
    ),
    '',
  );
  const lt = (w: WayName) => r.longTask.find((l) => l.way === w)!;
  out.push(`One ${lt('crew').workTurns}-turn task (each turn reads a file of about 2,500 tokens, then one more turn reports):`, '');
  out.push(
    ...mdTable(
      ['', ...WAYS.map((w) => WAY_LABEL[w])],
      [
        ['Largest turn input', ...WAYS.map((w) => k(lt(w).largestTurnInput))],
        ['Mean turn input', ...WAYS.map((w) => k(lt(w).meanTurnInput))],
        ['Share read from the cache', ...WAYS.map((w) => pct(lt(w).cacheShare))],
        ['Compactions', ...WAYS.map((w) => String(lt(w).compactions))],
        ['All input tokens', ...WAYS.map((w) => k(lt(w).total.input + lt(w).total.cacheRead + lt(w).total.cacheWrite))],
      ],
    ),
    '',
  );
  out.push(...costMarkdown(r.cost ?? [], heading));
  out.push(`${heading} Start, size and state`, '');
  out.push(
    ...mdTable(
      ['What', 'Figure'],
      [
        [`\`node dist/index.js\` (route step) until its first network request, median of ${r.coldStart.runs}`, `${r.coldStart.crewMs} ms`],
        [`\`node -e ""\`, same runs`, `${r.coldStart.nodeMs} ms`],
        ...(r.coldStart.loaded
          ? [['What that route job had loaded of dist/ by then', `${r.coldStart.loaded.files} files, ${(r.coldStart.loaded.bytes / 1e6).toFixed(2)} MB`]]
          : []),
        ['dist/index.js', `${(r.bundle.entryBytes / 1e6).toFixed(2)} MB`],
        ['dist/, every file', `${(r.bundle.totalBytes / 1e6).toFixed(2)} MB`],
        ...r.stateWrites.map((w) => [
          `Run-state writes, ${w.writers} concurrent writer${w.writers > 1 ? 's' : ''} (${w.writes} writes to one counter)`,
          `${w.perSecond} writes/s, ${w.lost} lost`,
        ]),
      ],
    ),
  );
  return out.join('\n');
}

export function resultsMarkdown(r: BenchResults): string {
  return ['# Benchmark results', '', '<!-- Written by `npm run bench` from bench/results.json. Do not edit by hand. -->', '', figuresMarkdown(r), ''].join(
    '\n',
  );
}

const START = '<!-- bench:start (written by `npm run bench` from bench/results.json; do not edit by hand) -->';
const END = '<!-- bench:end -->';

/** Replaces the generated figures in docs/PERFORMANCE.md, keeping the prose around them. */
export function withFigures(doc: string, r: BenchResults): string {
  const at = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (at < 0 || end < at) throw new Error(`docs/PERFORMANCE.md has no ${START} … ${END} block to write the figures into`);
  return `${doc.slice(0, at + START.length)}\n${figuresMarkdown(r, '###')}\n${doc.slice(end)}`;
}

const crewGit = (p: WholeRunPlay) => p.counts.git.total - p.counts.checkoutGit;

/** The whole two-task run (#31 §4) in one line, for the terminal. */
export function wholeRunLine(w: WholeRunFigure): string {
  const l = w.loopback;
  return `A whole 2-task run: ${l.counts.git.total} git requests (${crewGit(l)} crew's own, target < ${WHOLE_RUN_TARGETS.git}; ${l.counts.refAdvertisements} ref advertisements), ${l.counts.rest} REST, ${l.counts.graphql} GraphQL; ${s(w.requestsOnly.busyMs)} with GitHub's request latencies against ${s(l.busyMs)} on loopback: × ${w.ratio} (target < ${WHOLE_RUN_TARGETS.ratio})`;
}

/** The whole two-task run (#31 §4): what every job asked of GitHub, and what GitHub's round trips cost it. */
export function wholeRunMarkdown(w: WholeRunFigure, heading: string): string[] {
  const l = w.loopback;
  const out: string[] = [`${heading} A whole run`, ''];
  out.push(
    `Measured on ${w.measuredAt.slice(0, 10)}, load average ${w.loadAverage.join(' ')} at the start. Issue #31 §4: one run of two independent tasks (\`tests/scenarios/two-task-run.yaml\`), every kind of job once: route, two work jobs side by side, advance, critic, and the merge job a green check starts. Counted by the fake GitHub from each job's token, under loopback; ref advertisements are info/refs and protocol v2's ls-refs. The run is then played again at time scale ${w.timeScale} with ${REQUESTS_ONLY.restMs} ms per REST and GraphQL request and ${REQUESTS_ONLY.gitMs} ms per git request, but no job start and no dispatch lag (as the issue measured it): the ratio is the time some job was running, against loopback's.`,
    '',
  );
  const git = (c: GitCounts) => [String(c.total), String(c.infoRefs), String(c.lsRefs), String(c.fetch), String(c.push)];
  out.push(
    ...mdTable(
      ['Job', 'git', 'info/refs', 'ls-refs', 'fetch', 'push', 'of which actions/checkout', 'REST', 'GraphQL', 'State writes'],
      [
        ...l.counts.jobs.map((j) => [
          `${j.kind}${j.task ? ` (${j.task})` : ''}`,
          ...git(j.git),
          String(j.checkoutGit),
          String(j.rest),
          String(j.graphql),
          String(j.stateWrites),
        ]),
        [
          '**whole run**',
          ...git(l.counts.git).map((c) => `**${c}**`),
          `**${l.counts.checkoutGit}**`,
          `**${l.counts.rest}**`,
          `**${l.counts.graphql}**`,
          `**${l.counts.jobs.reduce((n, j) => n + j.stateWrites, 0)}**`,
        ],
      ],
    ),
    '',
  );
  const met = (ok: boolean) => (ok ? '**met**' : '**not met**');
  out.push(
    ...mdTable(
      ['Target (#31 §4)', 'Measured', ''],
      [
        [`git requests < ${WHOLE_RUN_TARGETS.git}, crew's own`, `${crewGit(l)}`, met(crewGit(l) < WHOLE_RUN_TARGETS.git)],
        [
          `git requests < ${WHOLE_RUN_TARGETS.git}, with actions/checkout's`,
          `${l.counts.git.total}: ${l.counts.refAdvertisements} ref advertisements; upload-pack ${l.counts.uploadPack}, receive-pack ${l.counts.receivePack}`,
          met(l.counts.git.total < WHOLE_RUN_TARGETS.git),
        ],
        [
          `run time < ${WHOLE_RUN_TARGETS.ratio} × loopback with GitHub's request latencies`,
          `× ${w.ratio} (${s(w.requestsOnly.busyMs)} against ${s(l.busyMs)}; the profile held requests up ${s(w.requestsOnly.delayedMs)} in all)`,
          met(w.ratio < WHOLE_RUN_TARGETS.ratio),
        ],
      ],
    ),
    '',
  );
  return out;
}

type Limits = NonNullable<BenchResults['limits']>;
const kTokens = (n: number) => `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
const limitsCells = (f: LimitsFigure) => [
  `${f.turns}`,
  `${f.stop}${f.reported ? ', reported' : ', no report'}`,
  `${f.compactions}`,
  kTokens(f.input.uncached),
  kTokens(f.input.cacheRead),
  kTokens(f.input.cacheWrite),
  kTokens(f.output),
  `$${f.costUsd.toFixed(2)}`,
];

/** The long task under the default configuration (#49), before and after, in one line each. */
export function limitsLine(l: Limits): string {
  const one = (name: string, f: LimitsFigure | undefined) =>
    f
      ? `${name}: ${f.turns} turns (${f.stop}${f.reported ? ', reported' : ''}), input ${kTokens(f.input.uncached)} uncached + ${kTokens(f.input.cacheRead)} cache reads + ${kTokens(f.input.cacheWrite)} cache writes, $${f.costUsd.toFixed(2)}`
      : `${name}: not measured`;
  return `A ${l.workTurns}-turn task under the default configuration: ${one('before', l.before)}; ${one('after', l.after)}`;
}

/** The long task under the default configuration (#49): what its limits let it finish, and what that cost. */
export function limitsMarkdown(l: Limits, heading: string): string[] {
  const limitsOf = (f: LimitsFigure) =>
    `${f.limits.maxTurns} turns, ${f.limits.tokens.toLocaleString('en-US')} tokens, $${f.limits.costUsd}, compaction at ${f.limits.compactAt}`;
  const row = (name: string, f: LimitsFigure & { at: string }) => [`${name} (${f.at.slice(0, 10)}; ${limitsOf(f)})`, ...limitsCells(f)];
  return [
    `${heading} A long task under the default configuration`,
    '',
    `Issue #49: one worker attempt of ${l.workTurns} turns of work (each reads a file of about 2,500 tokens) and then its report, played by crew's worker against the fake API with its prompt caching (\`scripts/bench/limits.ts\`, \`npm run bench -- --limits=before|after\`), under the limits \`.github/crew.yml\`'s defaults give a task's first attempt. Cost at the published prices of the sonnet tier's default model.`,
    '',
    ...mdTable(
      ['Code', 'Turns completed', 'Ended', 'Compactions', 'Input uncached', 'Cache reads', 'Cache writes', 'Output', 'Cost'],
      [...(l.before ? [row('before', l.before)] : []), ...(l.after ? [row('after', l.after)] : [])],
    ),
    '',
  ];
}
