import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { ownTempDirFor } from '../sandbox/own-temp';
import { join, relative, resolve } from 'node:path';
import { addTokens, type Trajectory } from '../domain/trajectory';
import { readTrajectories } from '../trajectory/files';
import type { Log, Model } from '../ports';
import type { Provider } from '../domain/providers';
import { chartSvg } from './chart';
import { pickInstances, readInstances, type Instance } from './instances';
import { journalDone, journalStart, key, readJournal } from './journal';
import { playCrew } from './play-crew';
import { playSingle } from './play-single';
import { isCrewWay, parallelAttempts, type Budget, type Played, type PlayInput, type Way } from './play';
import { progressLine, type Stage } from './progress';
import { checkout, CloneCache, defaultCacheDir } from './repos';
import { resultsMarkdown, round1, round6, totals, type EvalResult } from './results';
import { sandboxFor, scorePrediction, type Score, type ScoreOptions } from './score';
import { LOCAL_OPT_IN } from '../domain/local-runs';

/**
 * `crew eval`: every picked instance played each way, scored where it can be, and the results
 * kept in `--out` as they come (the journal), so an interrupted eval goes on where it stopped.
 */

export interface EvalOptions {
  instances: string;
  ids?: string[];
  limit?: number;
  ways: Way[];
  concurrency: number;
  out: string;
  scripted?: string;
  provider?: Provider;
  allowUnsandboxed: boolean;
  maxIterations?: number;
  budget: Budget;
  /** crew's own command line, for the crew way's processes. */
  cli: string;
  /** A fresh model for one instance played the single way (scripted replies start from their first). */
  model: (scripted: string | undefined) => Promise<Model>;
  modelName: string;
  say: (line: string) => void;
  signal: AbortSignal;
  readRun: PlayInput['readRun'];
}

const COMMAND_TIMEOUT_SECONDS = 900;

/** The machine's means: one instance at a time per core at most (each crew way runs its own tasks in parallel as well). */
export function concurrencyCap(): number {
  return Math.max(1, availableParallelism());
}

export async function runEval(o: EvalOptions): Promise<{ results: EvalResult[]; interrupted: boolean }> {
  const file = resolve(o.instances);
  const instances = pickInstances(await readInstances(file), o.ids, o.limit, file);
  const out = resolve(o.out);
  await mkdir(out, { recursive: true });
  const { done, started } = await readJournal(out);
  const work = join(ownTempDirFor('eval'), createHash('sha256').update(out).digest('hex').slice(0, 12));
  const cache = new CloneCache(defaultCacheDir());
  const jobs = instances.flatMap((inst) => o.ways.map((way) => ({ inst, way }))).filter((j) => !done.has(key(j.inst.instance_id, j.way)));
  const total = instances.length * o.ways.length;
  if (done.size) o.say(`Resuming: ${total - jobs.length} of ${total} already done in ${out}.`);
  let index = total - jobs.length;
  const cap = concurrencyCap();
  if (o.concurrency > cap) o.say(`--concurrency ${o.concurrency} is more than this machine's ${cap} cores: playing ${cap} at once.`);
  const concurrency = Math.min(o.concurrency, cap);
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job && !o.signal.aborted; job = queue.shift()) {
      const n = ++index;
      const result = await playOne(o, out, work, cache, job.inst, job.way, started.has(key(job.inst.instance_id, job.way)), (stage, seconds, note) =>
        o.say(progressLine({ index: n, total, id: job.inst.instance_id, way: job.way, stage, seconds, ...(note ? { note } : {}) })),
      );
      if (!result) break;
      done.set(key(job.inst.instance_id, job.way), result);
      await journalDone(out, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, jobs.length)) }, worker));
  const results = instances.flatMap((i) => o.ways.flatMap((w) => done.get(key(i.instance_id, w)) ?? []));
  await writeOutputs(out, results, instances, o);
  return { results, interrupted: o.signal.aborted };
}

async function playOne(
  o: EvalOptions,
  out: string,
  work: string,
  cache: CloneCache,
  inst: Instance,
  way: Way,
  wasStarted: boolean,
  show: (stage: Stage, seconds: number, note?: string) => void,
): Promise<EvalResult | undefined> {
  const t0 = Date.now();
  const secs = () => (Date.now() - t0) / 1000;
  const base = emptyResult(inst.instance_id, way);
  const broken = (reason: string, ms: number, escalations: string[] = []): EvalResult => ({
    ...base,
    status: 'broken',
    reason,
    wall_seconds: round1(ms / 1000),
    escalations,
  });
  await journalStart(out, inst.instance_id, way);
  show('clone', 0);
  let bare: string;
  const dir = join(work, inst.instance_id, way);
  try {
    bare = await cache.bare(inst.repo, [inst.base_commit, ...(inst.fix_commit ? [inst.fix_commit] : [])]);
    // A crew run the eval was killed in is resumed in place; anything else starts from a fresh checkout.
    const resumable = isCrewWay(way) && wasStarted && existsSync(join(dir, '.crew', 'runs', '1', 'run.json'));
    if (!resumable) await checkout(bare, inst.base_commit, dir);
  } catch (e) {
    const r = broken(`the repository could not be checked out at base_commit: ${(e as Error).message}`, Date.now() - t0);
    show('done', secs(), `broken: ${r.reason}`);
    return r;
  }
  show('play', secs());
  const scratch = join(work, inst.instance_id, `${way}-files`);
  await mkdir(scratch, { recursive: true });
  const scripted = scriptFor(o.scripted, inst.instance_id, way);
  const input = {
    instance: inst,
    dir,
    scratch,
    cli: o.cli,
    ...(parallelAttempts(way) ? { parallelAttempts: parallelAttempts(way) } : {}),
    ...(scripted ? { scripted } : {}),
    ...(o.provider ? { provider: o.provider } : {}),
    allowUnsandboxed: o.allowUnsandboxed,
    ...(o.maxIterations ? { maxIterations: o.maxIterations } : {}),
    budget: o.budget,
    signal: o.signal,
    readRun: o.readRun,
  };
  let played: Played;
  if (isCrewWay(way) && inst.setup?.length && !existsSync(join(dir, '.crew', 'runs', '1', 'run.json'))) {
    // crew's own run would stop at its first job on a failing setup; saying so here names the cause.
    const box = await sandboxFor(dir, inst, scoreOptions(o, work, inst.instance_id), true).catch((e: Error) => ({ failure: `setup crashed: ${e.message}` }));
    if ('failure' in box) {
      const r = broken(box.failure, Date.now() - t0);
      show('done', secs(), `broken: ${r.reason}`);
      return r;
    }
    await box.dispose();
  }
  try {
    played = isCrewWay(way) ? await playCrew(input) : await playSingle(input, () => o.model(scripted), quietLog(o.say, inst.instance_id));
  } catch (e) {
    if (o.signal.aborted) return undefined;
    const r = broken(`crashed while playing: ${(e as Error).message}`, Date.now() - t0);
    show('done', secs(), `broken: ${r.reason}`);
    return r;
  }
  if (o.signal.aborted) return undefined;
  const logs: string[] = [];
  if (played.log !== undefined) {
    await mkdir(join(out, 'logs'), { recursive: true });
    await writeFile(join(out, 'logs', `${inst.instance_id}.${way}.log`), played.log);
    logs.push(`logs/${inst.instance_id}.${way}.log`);
  }
  if (played.kind === 'broken') {
    const r = { ...broken(played.reason, played.ms, played.escalations), logs };
    show('done', secs(), `broken: ${r.reason}`);
    return r;
  }
  const keptDir = join(out, 'trajectories', inst.instance_id, way);
  await rm(keptDir, { recursive: true, force: true });
  const records = readTrajectories(played.runDir);
  if (existsSync(join(played.runDir, 'trajectories'))) await cp(join(played.runDir, 'trajectories'), keptDir, { recursive: true });
  const kept = existsSync(keptDir) ? (await readdir(keptDir)).sort().map((f) => relative(out, join(keptDir, f))) : [];
  const patchFile = join(out, 'patches', `${inst.instance_id}.${way}.diff`);
  await mkdir(join(out, 'patches'), { recursive: true });
  await writeFile(patchFile, played.patch);
  show('score', secs());
  let score: Score;
  try {
    score = await scorePrediction(bare, inst, played.patch, join(work, inst.instance_id, `${way}-score`), scoreOptions(o, work, inst.instance_id));
  } catch (e) {
    score = { kind: 'unscorable', reason: `scoring crashed: ${(e as Error).message}` };
  }
  const usage = usageOf(records.map((r) => r.record));
  const result: EvalResult = {
    ...base,
    status: 'played',
    score,
    usage,
    wall_seconds: round1(played.ms / 1000),
    turns: records.reduce((n, r) => n + r.record.num_turns, 0),
    tasks: played.tasks,
    attempts: played.attempts,
    critic_verdict: played.verdict,
    ended: played.phase,
    escalations: played.escalations,
    trajectories: kept,
    logs,
    patch_bytes: Buffer.byteLength(played.patch),
  };
  show('done', secs(), `${score.kind} · ${usage.tokens} tokens · $${usage.cost_usd.toFixed(4)}`);
  // What is worth keeping is in --out now; the checkouts go.
  for (const d of [dir, scratch, join(work, inst.instance_id, `${way}-score`)]) await rm(d, { recursive: true, force: true }).catch(() => undefined);
  return result;
}

function scoreOptions(o: EvalOptions, work: string, id: string): ScoreOptions {
  return {
    log: quietLog(o.say, id),
    allowUnsandboxed: o.allowUnsandboxed,
    commandTimeoutSeconds: COMMAND_TIMEOUT_SECONDS,
    tempDir: join(work, 'tmp'),
    unsandboxedOptIn: LOCAL_OPT_IN,
  };
}

function usageOf(records: Trajectory[]): EvalResult['usage'] {
  const u = records.reduce((s, r) => addTokens(s, r.usage), {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    cost_usd: 0,
  });
  return {
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    cache_read_input_tokens: u.cache_read_input_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens,
    tokens: u.input_tokens + u.output_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens,
    cost_usd: round6(u.cost_usd),
  };
}

function emptyResult(id: string, way: Way): EvalResult {
  return {
    instance_id: id,
    way,
    status: 'played',
    score: null,
    usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, tokens: 0, cost_usd: 0 },
    wall_seconds: 0,
    turns: 0,
    tasks: 0,
    attempts: 0,
    critic_verdict: null,
    ended: 'not played',
    escalations: [],
    trajectories: [],
    logs: [],
    patch_bytes: 0,
  };
}

/** `--scripted` names one file for every instance, or a folder of `<instance_id>.<way>.yaml` (or `<instance_id>.yaml`). */
export function scriptFor(scripted: string | undefined, id: string, way: Way): string | undefined {
  if (!scripted) return undefined;
  const path = resolve(scripted);
  if (!existsSync(join(path, '.'))) return path;
  for (const name of [`${id}.${way}.yaml`, `${id}.yaml`]) if (existsSync(join(path, name))) return join(path, name);
  return join(path, `${id}.${way}.yaml`);
}

function quietLog(say: (l: string) => void, id: string): Log {
  return { info: () => undefined, warn: (m) => say(`  ⚠ ${id}: ${m}`), checkpoint: () => undefined };
}

async function writeOutputs(out: string, results: EvalResult[], instances: Instance[], o: EvalOptions): Promise<void> {
  const { readFile } = await import('node:fs/promises');
  for (const way of o.ways) {
    const lines: string[] = [];
    for (const r of results.filter((x) => x.way === way && x.status === 'played')) {
      const patch = await readFile(join(out, 'patches', `${r.instance_id}.${way}.diff`), 'utf8').catch(() => '');
      lines.push(JSON.stringify({ instance_id: r.instance_id, model_name_or_path: `crew-${way}:${o.modelName}`, model_patch: patch }));
    }
    await writeFile(join(out, `predictions-${way}.jsonl`), lines.length ? `${lines.join('\n')}\n` : '');
  }
  const t = totals(results, o.ways);
  await writeFile(
    join(out, 'results.json'),
    `${JSON.stringify({ instances_file: o.instances, instances: instances.length, model: o.modelName, ways: o.ways, totals: t, results }, null, 2)}\n`,
  );
  await writeFile(join(out, 'results.md'), resultsMarkdown(results, o.ways, { instances: `${instances.length} from ${o.instances}`, model: o.modelName }));
  await writeFile(join(out, 'chart.svg'), chartSvg(t));
}
