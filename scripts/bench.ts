/**
 * `npm run bench`: crew against the seed's way and a single agent on the offline world, written
 * to bench/results.json and bench/results.md and into docs/PERFORMANCE.md. Never edit those
 * figures by hand; run this again. Options:
 *   --profile=loopback|github-hosted|both   GitHub's latency (tests/support/latency.ts); both by default.
 *             One profile keeps the other's figures from bench/results.json.
 *   --quick   a small sample of every part, the parts at once (about 30 s), printed only (npm test runs it)
 *   --docs    rewrite docs/PERFORMANCE.md and bench/results.md from bench/results.json, measuring nothing
 *   --remeasure=seed|single "why"   measure one baseline again (a driver fix), keeping crew's figures
 *   --setup-cache   setup time per work job with and without a previous run's dependency cache (#51), kept with the rest
 *   --cold-start   the cold start alone (medians of 10), printed only
 * A cold start more than COLD_START_LIMIT_MS over `node -e ""` fails the run (exit code 1), after the figures are written.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem, arch } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { criticalPath } from '../src/domain/plan';
import { PROFILES, profileNamed, type PlatformProfile } from '../tests/support/latency';
import { measureWholeRun, type WholeRunFigure } from './bench/whole-run';
import { measureSetupCache, setupCacheLine } from './bench/setup-cache';
import { PROJECT_ROOT } from '../tests/support/scenario/run-scenario';
import { CALIBRATION, CHAIN, EIGHT, ONE, QUICK, TWELVE, WIDE, type DagCase } from './bench/dags';
import { costFigure } from './bench/cost';
import { hostedRequests } from './bench/hosted';
import { limitsSample } from './bench/limits';
import { longTask } from './bench/long-task';
import { bundleSize, coldStart, coldStartFailure, stateWrites, type ColdStart } from './bench/platform';
import { limitsLine, resultsMarkdown, terminalTable, wholeRunLine, withFigures } from './bench/report';

/** Turns of work in the long task under the default configuration (#49). */
const LIMITS_TURNS = 60;
import type { BenchResults, FullScaleChain, MakespanFigure, ProfileFigures, RequestFigure, RoundTripFigure, TokenFigure } from './bench/results';
import { byJobKind } from './bench/round-trips';
import { inputOf, runCrew, runSeed, runSingle, type WayName, type WayRun, type WorldOptions } from './bench/ways';

const LATENCY = { perRequestMs: 1500, perOutputTokenMs: 15 };

/** The scripted work of each task, scaled: what no way can do faster. */
const workMs = (c: DagCase, world: WorldOptions) => (id: string) => c.tasks.find((t) => t.id === id)!.ms * world.timeScale;

function lowerBounds(c: DagCase, world: WorldOptions, o: number) {
  const work = workMs(c, world);
  const cp = criticalPath({ tasks: c.tasks.map((t) => ({ id: t.id, dependsOn: t.deps })) }, work);
  const all = c.tasks.reduce((sum, t) => sum + work(t.id), 0);
  return { criticalPathMs: cp.length, steps: cp.path.length, workBoundMs: (all + c.tasks.length * o) / c.maxParallel };
}

/** o from a chain crew ran: the time between the first task's start and the last one's end that was not scripted work, per step. */
function overheadOn(c: DagCase, chain: string[], crew: WayRun, world: WorldOptions): number {
  const span = crew.spans[chain.at(-1)!]!.end - crew.spans[chain[0]!]!.start;
  return (span - chain.reduce((sum, id) => sum + workMs(c, world)(id), 0)) / chain.length;
}

function wayMakespan(run: WayRun, crewMs: number, criticalPathMs: number, c: DagCase) {
  if (!Number.isFinite(run.makespanMs)) throw new Error(`${run.way}, ${c.name}: no makespan was measured (a task without a start or an end)`);
  // Scripted work is a floor no way can go under; below it the measurement itself is wrong.
  if (run.makespanMs < criticalPathMs * 0.99)
    throw new Error(
      `${run.way}, ${c.name}: a makespan of ${run.makespanMs} ms is below the critical path of ${Math.round(criticalPathMs)} ms, which cannot be`,
    );
  return { makespanMs: run.makespanMs, ratioToCriticalPath: round2(run.makespanMs / criticalPathMs), ratioToCrew: round2(run.makespanMs / crewMs) };
}

function makespanFigure(c: DagCase, runs: Record<WayName, WayRun>, o: number, world: WorldOptions): MakespanFigure {
  const b = lowerBounds(c, world, o);
  const base = b.criticalPathMs + b.steps * o;
  const way = (w: WayName) => wayMakespan(runs[w], runs.crew.makespanMs, b.criticalPathMs, c);
  return {
    scenario: c.name,
    tasks: c.tasks.length,
    maxParallel: c.maxParallel,
    criticalPathMs: Math.round(b.criticalPathMs),
    steps: b.steps,
    workBoundMs: Math.round(b.workBoundMs),
    targetMs: Math.round(1.1 * base),
    ways: { crew: way('crew'), seed: way('seed'), single: way('single') },
    crewRatioToBound: round2(runs.crew.makespanMs / base),
    meetsTarget: runs.crew.makespanMs <= 1.1 * base,
    crewEndToEndMs: runs.crew.endToEndMs!,
    spans: { crew: runs.crew.spans, seed: runs.seed.spans, single: runs.single.spans },
    crewStateRetries: runs.crew.stateRetries ?? {},
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

async function requestFigure(c: DagCase, crew: WayRun): Promise<RequestFigure> {
  const rest = crew.github!.total;
  const hosted = await hostedRequests(c.tasks.length);
  return {
    scenario: c.name,
    tasks: c.tasks.length,
    rest,
    writes: crew.github!.writes,
    git: crew.github!.git,
    budget: 3 * c.tasks.length + 15,
    runsPerHour: Math.floor(1000 / rest),
    hosted: { rest: hosted.total, writes: hosted.writes, graphql: hosted.graphql, git: hosted.git, ratioToCrew: round2(hosted.total / rest) },
  };
}

/** Least squares: requests ≈ perRun + perTask × tasks. */
function fit(points: Array<{ tasks: number; rest: number }>): { perRun: number; perTask: number } {
  const n = points.length;
  const mx = points.reduce((s, r) => s + r.tasks, 0) / n;
  const my = points.reduce((s, r) => s + r.rest, 0) / n;
  const sxx = points.reduce((s, r) => s + (r.tasks - mx) ** 2, 0);
  const perTask = sxx ? points.reduce((s, r) => s + (r.tasks - mx) * (r.rest - my), 0) / sxx : 0;
  return { perRun: round2(my - perTask * mx), perTask: round2(perTask) };
}

function wayTokens(c: DagCase, run: WayRun) {
  const t = run.tokens;
  return {
    perTask: Math.round(inputOf(t.tasks) / c.tasks.length),
    orchestration: inputOf(t.orchestration),
    cacheShare: round2(t.tasks.cacheRead / Math.max(1, inputOf(t.tasks))),
    tasks: t.tasks,
    orchestrationTally: t.orchestration,
  };
}

function tokenFigure(c: DagCase, runs: Record<WayName, WayRun>): TokenFigure {
  return { scenario: c.name, tasks: c.tasks.length, ways: { crew: wayTokens(c, runs.crew), seed: wayTokens(c, runs.seed), single: wayTokens(c, runs.single) } };
}

function roundTripFigure(c: DagCase, crew: WayRun, uncontended: boolean): RoundTripFigure {
  const jobs = crew.jobs!;
  return {
    scenario: c.name,
    maxParallel: c.maxParallel,
    uncontended,
    kinds: byJobKind(jobs),
    jobs,
    retriesPerJob: round2(jobs.reduce((n, j) => n + j.stateWriteRetries, 0) / jobs.length),
    applied: crew.applied!,
  };
}

/**
 * Measures one baseline again on the scheduling scenarios of a results file, under each profile
 * there, keeping the rest: for a fix to a baseline's driver without running crew again. The results say so.
 */
export async function remeasure(r: BenchResults, way: 'seed' | 'single', why: string): Promise<BenchResults> {
  const drive = way === 'seed' ? runSeed : runSingle;
  const out: BenchResults = structuredClone(r);
  for (const p of out.profiles) {
    const cases = p.makespan.map((f) => [TWELVE, WIDE, CHAIN, QUICK].find((c) => c.name === f.scenario)!);
    const runs = await Promise.all(cases.map((c) => drive(c, r.world, p.profile)));
    p.makespan.forEach((f, i) => {
      f.ways[way] = wayMakespan(runs[i]!, f.ways.crew.makespanMs, f.criticalPathMs, cases[i]!);
      f.spans[way] = runs[i]!.spans;
    });
    const tokenCase = cases.findIndex((c) => c.name === r.tokens.scenario);
    if (p.profile.name === r.tokens.profile && tokenCase >= 0) out.tokens.ways[way] = wayTokens(cases[tokenCase]!, runs[tokenCase]!);
  }
  out.remeasured = [...(r.remeasured ?? []), { way, at: new Date().toISOString(), why, loadAverage: loadavg() }];
  return out;
}

function machine(): BenchResults['machine'] {
  return {
    cpus: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    loadAverage: loadavg(),
  };
}

export async function runBench(opts: { quick: boolean; profiles?: PlatformProfile[]; log?: (line: string) => void }): Promise<BenchResults> {
  const started = performance.now();
  const say = opts.log ?? (() => undefined);
  const m = machine();
  const profiles = opts.profiles ?? [PROFILES.loopback, PROFILES['github-hosted']];
  // 0.1: crew's per-step overhead here (a few seconds) is then worth about as much model time as a job start on GitHub
  // (tens of seconds). The profile's waits (a job start, each request) shrink by the same scale.
  const world: WorldOptions = { timeScale: opts.quick ? 0.01 : 0.1, latency: LATENCY };
  const scheduling = opts.quick ? [QUICK] : [TWELVE, WIDE, CHAIN];
  const requestOnly = opts.quick ? [] : [ONE, EIGHT];

  // crew's runs one at a time: each keeps this machine's cores busy.
  const crewRuns = async (profile: PlatformProfile) => {
    const crew = new Map<DagCase, WayRun>();
    for (const c of [...(opts.quick ? [] : [CALIBRATION]), ...scheduling, ...requestOnly]) {
      say(`crew, ${profile.name}: ${c.name}`);
      crew.set(c, await runCrew(c, world, profile));
    }
    return crew;
  };
  // The baselines mostly wait on the model, so they run side by side.
  const baselineRuns = (profile: PlatformProfile) => {
    say(`the seed's way and a single agent, ${profile.name}`);
    return Promise.all(
      scheduling.map(async (c) => ({
        c,
        ...(await Promise.all([runSeed(c, world, profile), runSingle(c, world, profile)]).then(([seed, single]) => ({ seed, single }))),
      })),
    );
  };
  const longTasks = async () => {
    say('a long task, three ways');
    const out = [];
    for (const w of ['crew', 'seed', 'single'] as const) out.push(await longTask(w, { ...world, turns: opts.quick ? 30 : 60 }));
    return out;
  };
  const program = async () => {
    say('cold start, bundle, state writes');
    const start = await coldStart(opts.quick ? 3 : 10);
    const writes = [];
    for (const [writers, n] of opts.quick
      ? [
          [1, 2],
          [3, 3],
        ]
      : [
          [1, 20],
          [5, 20],
          [20, 20],
        ])
      writes.push(await stateWrites(writers!, n!, world.timeScale));
    return { start, writes };
  };
  // #17 judges the chain against the single agent as on GitHub: at time scale 1 crew's own seconds a
  // step weigh against the model's time as they would there. Both mostly wait on the model, so side by side.
  const fullScaleChain = async (profile: PlatformProfile): Promise<FullScaleChain | undefined> => {
    if (opts.quick || profile.name !== 'github-hosted') return undefined;
    say(`crew and a single agent at full scale, ${profile.name}: ${CHAIN.name}`);
    const full: WorldOptions = { ...world, timeScale: 1 };
    const [crew, single] = await Promise.all([runCrew(CHAIN, full, profile), runSingle(CHAIN, full, profile)]);
    return { scenario: CHAIN.name, timeScale: 1, crewMs: crew.makespanMs, singleMs: single.makespanMs, crewEndToEndMs: crew.endToEndMs! };
  };
  const eachProfile = async () => {
    const out = [];
    for (const profile of profiles)
      out.push({ profile, crew: await crewRuns(profile), baselines: await baselineRuns(profile), fullChain: await fullScaleChain(profile) });
    return out;
  };
  // The full bench measures one part at a time, on a machine otherwise quiet. The quick sample runs
  // them all at once; the one timing it judges (crew does not wait for a wave) has seconds to spare.
  let measured: Awaited<ReturnType<typeof eachProfile>>;
  let longTaskFigures: Awaited<ReturnType<typeof longTasks>>;
  let platform: Awaited<ReturnType<typeof program>>;
  if (opts.quick) {
    const [crew, baselines, lt, pf] = await Promise.all([Promise.all(profiles.map(crewRuns)), Promise.all(profiles.map(baselineRuns)), longTasks(), program()]);
    measured = profiles.map((profile, i) => ({ profile, crew: crew[i]!, baselines: baselines[i]!, fullChain: undefined }));
    longTaskFigures = lt;
    platform = pf;
  } else {
    measured = await eachProfile();
    longTaskFigures = await longTasks();
    platform = await program();
  }

  // #31 §4: a whole two-task run, on loopback and with GitHub's request latencies at full scale. Not in the quick sample:
  // tests/e2e/git-traffic.test.ts plays the same run and checks its counts.
  // #49: the long task under the default configuration, as the code stands (the `before` figure is kept from the results file).
  say('a long task under the default configuration');
  const limitsAfter = { ...(await limitsSample({ turns: LIMITS_TURNS, timeScale: 0.001 })), at: new Date().toISOString() };

  let wholeRun: WholeRunFigure | undefined;
  if (!opts.quick) {
    say('a whole two-task run, loopback and with GitHub request latencies');
    wholeRun = await measureWholeRun(1);
  }

  const figures: ProfileFigures[] = [];
  for (const { profile, crew, baselines, fullChain } of measured) {
    const o = opts.quick ? overheadOn(QUICK, ['short', 'after'], crew.get(QUICK)!, world) : overheadOn(CALIBRATION, ['a', 'b'], crew.get(CALIBRATION)!, world);
    const runsOf = (c: DagCase) => {
      const b = baselines.find((x) => x.c === c)!;
      return { crew: crew.get(c)!, seed: b.seed, single: b.single };
    };
    const requestRuns = (await Promise.all([...crew.entries()].map(([c, r]) => requestFigure(c, r)))).sort((a, b) => a.tasks - b.tasks);
    // The quick sample's one DAG stands in for both runs the per-job figures come from.
    const uncontended = opts.quick ? QUICK : CHAIN;
    // The job that runs the chain: with #17 §4 the tasks after the first run in the first one's job.
    const traced = opts.quick ? 'short' : 'a';
    figures.push({
      profile,
      generated: new Date().toISOString(),
      overhead: { stepMs: Math.round(o), measuredOn: opts.quick ? `the chain ${QUICK.name} holds` : CALIBRATION.name },
      makespan: scheduling.map((c) => makespanFigure(c, runsOf(c), o, world)),
      requests: { runs: requestRuns, fit: fit(requestRuns), hostedFit: fit(requestRuns.map((q) => ({ tasks: q.tasks, rest: q.hosted.rest }))) },
      roundTrips: opts.quick
        ? [roundTripFigure(QUICK, crew.get(QUICK)!, false)]
        : [roundTripFigure(CHAIN, crew.get(CHAIN)!, true), roundTripFigure(WIDE, crew.get(WIDE)!, false)],
      workJobTrace: { scenario: uncontended.name, task: traced, requests: crew.get(uncontended)!.traces![traced] ?? [] },
      ...(fullChain ? { fullScaleChain: fullChain } : {}),
    });
  }
  const first = measured[0]!;
  const tokenRuns = {
    crew: first.crew.get(scheduling[0]!)!,
    ...(({ seed, single }) => ({ seed, single }))(first.baselines.find((x) => x.c === scheduling[0])!),
  };
  return {
    generated: new Date().toISOString(),
    quick: opts.quick,
    machine: m,
    world,
    profiles: figures,
    tokens: { ...tokenFigure(scheduling[0]!, tokenRuns), profile: first.profile.name },
    longTask: longTaskFigures,
    limits: { workTurns: LIMITS_TURNS, after: limitsAfter },
    coldStart: platform.start,
    bundle: await bundleSize(),
    stateWrites: platform.writes,
    ...(wholeRun ? { wholeRun } : {}),
    cost: scheduling.map((c) => {
      const single = first.baselines.find((x) => x.c === c)!.single;
      return costFigure(c.name, c.tasks.length, first.crew.get(c)!.cost!, single.cost!, world.timeScale);
    }),
    tookMs: Math.round(performance.now() - started),
  };
}

/** `--profile=x` or `--profile x`: loopback, github-hosted or both (the default). */
export function profilesFrom(argv: string[]): PlatformProfile[] {
  const at = argv.findIndex((a) => a === '--profile' || a.startsWith('--profile='));
  if (at < 0) return [PROFILES.loopback, PROFILES['github-hosted']];
  const value = argv[at]!.includes('=') ? argv[at]!.slice('--profile='.length) : argv[at + 1];
  if (value === 'both') return [PROFILES.loopback, PROFILES['github-hosted']];
  if (!value || value.startsWith('--')) throw new Error('npm run bench -- --profile needs a value: loopback, github-hosted or both');
  try {
    return [profileNamed(value)];
  } catch {
    throw new Error(`npm run bench -- --profile=${value}: no such profile; use loopback, github-hosted or both (tests/support/latency.ts)`);
  }
}

/** A run of some profiles keeps the others' figures from the results before it, oldest profile first. */
export function keepOtherProfiles(fresh: BenchResults, before: BenchResults | undefined): BenchResults {
  if (!before?.profiles) return fresh;
  const measured = new Set(fresh.profiles.map((p) => p.profile.name));
  const kept = before.profiles.filter((p) => !measured.has(p.profile.name));
  if (kept.length === 0) return fresh;
  const order = Object.keys(PROFILES);
  return { ...fresh, profiles: [...fresh.profiles, ...kept].sort((a, b) => order.indexOf(a.profile.name) - order.indexOf(b.profile.name)) };
}

const RESULTS_JSON = join(PROJECT_ROOT, 'bench', 'results.json');
const PERFORMANCE_MD = join(PROJECT_ROOT, 'docs', 'PERFORMANCE.md');

function writeDocs(r: BenchResults): void {
  writeFileSync(join(PROJECT_ROOT, 'bench', 'results.md'), resultsMarkdown(r));
  writeFileSync(PERFORMANCE_MD, withFigures(readFileSync(PERFORMANCE_MD, 'utf8'), r));
}

async function main(): Promise<void> {
  const again = process.argv.find((a) => a.startsWith('--remeasure='));
  if (again) {
    const way = again.slice('--remeasure='.length);
    const why = process.argv[process.argv.indexOf(again) + 1];
    if ((way !== 'seed' && way !== 'single') || !why || why.startsWith('--'))
      throw new Error('usage: npm run bench -- --remeasure=seed|single "why it is measured again"');
    const r = await remeasure(JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BenchResults, way, why);
    writeFileSync(RESULTS_JSON, `${JSON.stringify(r, null, 2)}\n`);
    writeDocs(r);
    console.log(terminalTable(r));
    return;
  }
  if (process.argv.includes('--whole-run')) {
    // The whole two-task run alone (#31 §4), into the results file already there; everything else is kept.
    const r: BenchResults = { ...(JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BenchResults), wholeRun: await measureWholeRun(1) };
    writeFileSync(RESULTS_JSON, `${JSON.stringify(r, null, 2)}\n`);
    writeDocs(r);
    console.log(wholeRunLine(r.wholeRun!));
    return;
  }
  const limits = process.argv.find((a) => a.startsWith('--limits='));
  if (limits) {
    // The long task under the default configuration alone (#49), as `before` (the code before a change) or `after`.
    const which = limits.slice('--limits='.length);
    if (which !== 'before' && which !== 'after') throw new Error('usage: npm run bench -- --limits=before|after');
    const old = JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BenchResults;
    const figure = { ...(await limitsSample({ turns: LIMITS_TURNS, timeScale: 0.001 })), at: new Date().toISOString() };
    const r: BenchResults = { ...old, limits: { ...old.limits, workTurns: LIMITS_TURNS, [which]: figure } };
    writeFileSync(RESULTS_JSON, `${JSON.stringify(r, null, 2)}\n`);
    writeDocs(r);
    console.log(limitsLine(r.limits!));
    return;
  }
  if (process.argv.includes('--setup-cache')) {
    // Setup time per work job with and without the dependency cache a previous run saved (#51); everything else is kept.
    const r: BenchResults = { ...(JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BenchResults), setupCache: await measureSetupCache() };
    writeFileSync(RESULTS_JSON, `${JSON.stringify(r, null, 2)}\n`);
    writeDocs(r);
    console.log(setupCacheLine(r.setupCache!));
    return;
  }
  if (process.argv.includes('--docs')) {
    writeDocs(JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BenchResults);
    console.log('rewrote bench/results.md and docs/PERFORMANCE.md from bench/results.json');
    return;
  }
  if (process.argv.includes('--cold-start')) {
    const c = await coldStart(10);
    console.log(coldStartLine(c));
    failOnColdStart(c);
    return;
  }
  const quick = process.argv.includes('--quick');
  const profiles = profilesFrom(process.argv);
  const t0 = performance.now();
  const fresh = await runBench({ quick, profiles, log: (line) => console.error(`… ${((performance.now() - t0) / 1000).toFixed(1)} s: ${line}`) });
  const old = existsSync(RESULTS_JSON) ? (JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as BenchResults) : undefined;
  const kept = quick || !old ? fresh : keepOtherProfiles(fresh, old);
  // The `before` of the long task under the default configuration was measured on the code before #49: it stays.
  const r: BenchResults = old?.limits?.before ? { ...kept, limits: { ...kept.limits!, before: old.limits.before } } : kept;
  console.log(terminalTable(r));
  if (!quick) {
    mkdirSync(join(PROJECT_ROOT, 'bench'), { recursive: true });
    writeFileSync(RESULTS_JSON, `${JSON.stringify(r, null, 2)}\n`);
    writeDocs(r);
    // The quick sample runs every part at once: its timings are not judged.
    failOnColdStart(r.coldStart);
  }
}

function coldStartLine(c: ColdStart): string {
  const loaded = c.loaded ? `; by then it had loaded ${c.loaded.files} files of dist/, ${(c.loaded.bytes / 1e6).toFixed(2)} MB` : '';
  return `cold start: node dist/index.js ${c.crewMs} ms to its first request, node -e "" ${c.nodeMs} ms (+${c.crewMs - c.nodeMs} ms, medians of ${c.runs})${loaded}`;
}

function failOnColdStart(c: ColdStart): void {
  const failure = coldStartFailure(c);
  if (!failure) return;
  console.error(failure);
  process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.stack : String(e));
    process.exit(1);
  });
}
