import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AnthropicModel } from '../../src/adapters/anthropic/model';
import { summarize } from '../../src/agents/summarizer';
import { COMPACT_AT, runToolLoop, type AgentTool } from '../../src/agents/tool-loop';
import { runWorker, type WorkerInput } from '../../src/agents/worker';
import { workspaceTools } from '../../src/agents/workspace-tools';
import { PathJail } from '../../src/agents/path-jail';
import { checkPlan, topologicalOrder, waves, type Plan } from '../../src/domain/plan';
import { STATE_BRANCH } from '../../src/domain/refs';
import type { Clock, Log } from '../../src/ports';
import { loadTemplate } from '../../src/templates';
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest, type Script, type ScriptedReply } from '../../tests/support/anthropic/index';
import {
  crewIds,
  dagScenario,
  notePath,
  noteContent,
  SPEC,
  SPEC_PATH,
  taskReplies,
  type DagTask,
  type ModelLatency,
} from '../../tests/support/scenario/dag-scenario';
import { PROJECT_ROOT, runScenario } from '../../tests/support/scenario/run-scenario';
import { PROFILES, type PlatformProfile } from '../../tests/support/latency';
import type { DagCase } from './dags';
import { pricedUsd, recordedEstimate, type CostInput } from './cost';
import type { CostEstimate } from '../../src/domain/cost-estimate';
import { jobRequests, profileApplied, requestTrace, type JobRequests, type ProfileApplied, type TracedRequest } from './round-trips';

/**
 * The three ways the benchmark plays the same tasks, on the offline world:
 * - crew: the shipped workflow and dist/ on the workflow runner, fake GitHub and fake Anthropic API;
 * - the seed's way (claude-crew): waves with a barrier, an LLM parent making one call per wave and
 *   one to hand over to aggregation, reading only the results' metadata; crew's own worker agent
 *   does each task; no prompt caching;
 * - a single agent (claude-code-action): every task in turn in one growing conversation, with
 *   prompt caching, and compaction only near the model's context window.
 * The baselines run in-process against their own fake Anthropic API with the same latency and the
 * same scripted work; they add no sleeps and make no calls beyond what their design needs. Under a
 * latency profile each baseline task also pays one REST request: hosted in claude-code-action, the
 * agent edits its tracking comment once per finished task (hosted.ts). It is added to the turn that
 * writes the task's note. Their one job start comes before the first task, outside the makespan.
 */

export type WayName = 'crew' | 'seed' | 'single';

export interface Tally {
  requests: number;
  /** Uncached input tokens. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export interface WayRun {
  way: WayName;
  /** From the first task's start to the last task's end. */
  makespanMs: number;
  /** crew only: from the first job's start to the last job's end (planning, integration, critic, PR included). */
  endToEndMs: number | null;
  /** Per task (the DAG's ids): when it started and ended, ms from the first start. */
  spans: Record<string, { start: number; end: number }>;
  tokens: { tasks: Tally; orchestration: Tally; planningAndReview: Tally };
  /** crew only: per task, state writes its job redid because another job's write got there first. */
  stateRetries?: Record<string, number>;
  /** REST requests crew made (writes among them); null for the baselines, whose GitHub requests hosted.ts measures. */
  github: { total: number; writes: number; git: number } | null;
  /** crew and the single agent: what the run spent, for cost.ts. */
  cost?: CostInput;
  /** crew only: what each job asked of GitHub, the latency the fake added, and one work job's requests in order. */
  jobs?: JobRequests[];
  applied?: ProfileApplied;
  /** crew only: per DAG id, the requests of that task's work job, in order. */
  traces?: Record<string, TracedRequest[]>;
}

export interface WorldOptions {
  timeScale: number;
  latency: ModelLatency;
}

const quietLog: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
const clock: Clock = { now: () => new Date(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
const API_KEY = 'sk-ant-bench-key-000000';
/** Concurrent jobs GitHub Free allows for a repository owner's standard runners. */
export const GITHUB_FREE_CONCURRENT_JOBS = 20;
export const WORKER_MODEL = 'claude-haiku-5-5';
const PARENT_MODEL = 'claude-sonnet-5-5';

/** crew's agents; any request from another role would be orchestration. */
const CREW_AGENTS = new Set(['intake', 'decomposer', 'plan_reviewer', 'worker', 'summarizer', 'critic', 'retrospector', 'resolver']);
const TASK_ROLES = new Set(['worker', 'summarizer', 'single_agent']);

export const emptyTally = (): Tally => ({ requests: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0 });
export const inputOf = (t: Tally) => t.input + t.cacheRead + t.cacheWrite;

export function tally(requests: RecordedRequest[], keep: (r: RecordedRequest) => boolean = () => true): Tally {
  const t = emptyTally();
  for (const r of requests) {
    if (!r.usage || !keep(r)) continue;
    t.requests++;
    t.input += r.usage.input_tokens;
    t.cacheRead += r.usage.cache_read_input_tokens;
    t.cacheWrite += r.usage.cache_creation_input_tokens;
    t.output += r.usage.output_tokens;
  }
  return t;
}

function spansFrom(raw: Record<string, { start: number; end: number }>): { makespanMs: number; spans: WayRun['spans'] } {
  const first = Math.min(...Object.values(raw).map((s) => s.start));
  const last = Math.max(...Object.values(raw).map((s) => s.end));
  return {
    makespanMs: Math.round(last - first),
    spans: Object.fromEntries(Object.entries(raw).map(([id, s]) => [id, { start: Math.round(s.start - first), end: Math.round(s.end - first) }])),
  };
}

/** crew: the shipped workflow, dist/ as the runner runs it, the fakes. */
export async function runCrew(c: DagCase, o: WorldOptions, profile: PlatformProfile = PROFILES.loopback): Promise<WayRun> {
  let requests: RecordedRequest[] = [];
  let estimate: CostEstimate | null = null;
  let jobRequestsSeen: JobRequests[] = [];
  let applied: ProfileApplied | undefined;
  const traces: Record<string, TracedRequest[]> = {};
  const dagIds = new Map([...crewIds(c.tasks)].map(([id, crewId]) => [crewId, id]));
  const scenario = dagScenario(c.name, c.tasks, {
    maxParallel: c.maxParallel,
    timeScale: o.timeScale,
    latency: o.latency,
    profile: profile.name,
    ...(c.config ? { config: c.config } : {}),
  });
  // GitHub Free runs 20 jobs at once; the runner's default of 8 would hold back a max_parallel of 10.
  const retriesByJob: Record<string, number> = {};
  const r = await runScenario(scenario, {
    baseDir: PROJECT_ROOT,
    maxConcurrentJobs: GITHUB_FREE_CONCURRENT_JOBS,
    hooks: {
      beforeClose: async ({ anthropic, gh, runner }) => {
        requests = [...anthropic.requests];
        estimate = await recordedEstimate(gh);
        jobRequestsSeen = jobRequests(gh, runner);
        applied = profileApplied(gh);
        for (const job of runner.runs.flatMap((run) => run.jobs)) {
          const task = job.matrix?.task;
          if (job.id === 'work' && task && job.key) traces[dagIds.get(String(task)) ?? String(task)] = requestTrace(gh, job.key);
        }
      },
      // GitStateStore says so each time another job's write beat its own.
      onJobDone: (_run, job) => {
        const task = job.matrix?.task;
        if (job.id === 'work' && task)
          retriesByJob[String(task)] = (retriesByJob[String(task)] ?? 0) + job.log.filter((l) => l.includes(`${STATE_BRANCH} moved under us`)).length;
      },
    },
  });
  const problems = [...r.github.violations, ...r.runnerErrors, ...r.model.unscripted];
  if (r.pulls.length !== 1 || problems.length)
    throw new Error(`crew, ${c.name}: the run did not finish with one pull request (${r.pulls.length}): ${problems.slice(0, 3).join('; ')}`);
  const dagId = new Map([...crewIds(c.tasks)].map(([id, crewId]) => [crewId, id]));
  const raw: Record<string, { start: number; end: number }> = {};
  for (const j of r.jobTimes) {
    if (j.job !== 'work' || !j.task) continue;
    if (raw[dagId.get(j.task)!]) throw new Error(`crew, ${c.name}: task ${j.task} ran in more than one job`);
    raw[dagId.get(j.task)!] = { start: j.startedAt, end: j.finishedAt };
  }
  const jobs = r.jobTimes;
  return {
    way: 'crew',
    ...spansFrom(raw),
    stateRetries: Object.fromEntries(Object.entries(retriesByJob).map(([crewId, n]) => [dagId.get(crewId)!, n])),
    endToEndMs: Math.round(Math.max(...jobs.map((j) => j.finishedAt)) - Math.min(...jobs.map((j) => j.startedAt))),
    tokens: {
      tasks: tally(requests, (q) => TASK_ROLES.has(q.role)),
      orchestration: tally(requests, (q) => !CREW_AGENTS.has(q.role)),
      planningAndReview: tally(requests, (q) => CREW_AGENTS.has(q.role) && !TASK_ROLES.has(q.role)),
    },
    github: { total: r.github.crew.total, writes: r.github.crew.writes, git: r.github.git.total },
    cost: { usd: pricedUsd(requests), jobsMs: jobs.map((j) => j.finishedAt - j.startedAt), estimate },
    jobs: jobRequestsSeen.map((j) => (j.task ? { ...j, task: dagIds.get(j.task) ?? j.task } : j)),
    ...(applied ? { applied } : {}),
    traces,
  };
}

/** The plan crew's decomposer would record for this DAG, so every way's workers read the same task text. */
export function planOf(dag: DagTask[]): Plan {
  const checked = checkPlan(
    {
      summary: 'Notes.',
      tasks: dag.map((t) => ({
        id: t.id,
        title: `Note ${t.id}`,
        description: `Write ${notePath(t.id)} following ${SPEC_PATH}.`,
        persona: 'writer',
        model: 'haiku',
        depends_on: t.deps,
        files: [notePath(t.id)],
        criteria: [`${notePath(t.id)} exists`],
      })),
    },
    [{ id: 'c1', text: 'every note exists', kind: 'semantic' }],
  );
  if (!checked.ok) throw new Error(`the benchmark's plan is invalid: ${checked.errors.join('; ')}`);
  return checked.plan;
}

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'crew-bench-'));
  await mkdir(dirname(join(dir, SPEC_PATH)), { recursive: true });
  await writeFile(join(dir, SPEC_PATH), SPEC);
  return dir;
}

function baselineModel(api: FakeAnthropic, promptCache: boolean): AnthropicModel {
  // The SDK reads its base URL when the client is made; several fakes may be up at once.
  process.env.ANTHROPIC_BASE_URL = api.url;
  const model = new AnthropicModel(API_KEY, clock, quietLog, { promptCache });
  delete process.env.ANTHROPIC_BASE_URL;
  return model;
}

/**
 * What a baseline's worker gets besides its task: no commands (these tasks need none), no
 * teammates, no memory, no budget; and the workspace's files, for workers that show the model
 * a map of the repository.
 */
export function aloneInAWorkspace(repoFiles: string[]): Pick<WorkerInput, 'commands' | 'team' | 'limits' | 'memory'> & { repoFiles: string[] } {
  return {
    repoFiles,
    commands: { runner: undefined, unavailable: 'not needed by these tasks', policy: { allow: [], deny: [] }, timeoutMs: 1000, maxOutputBytes: 10_000 },
    team: { running: async () => [], send: async () => undefined, inbox: async () => [] },
    limits: { tokens: 100_000_000, costUsd: 10_000, deadline: Date.now() + 3_600_000 },
    memory: { attempts: [], lastFailure: null, knowledge: [], advice: [] },
  };
}

/** A baseline task's work under a profile: its note, then its edit of the tracking comment (one REST request). */
const hostedWork = (t: DagTask, profile: PlatformProfile): DagTask => ({ ...t, ms: t.ms + profile.restMs });

const workerEntries = (dag: DagTask[], profile: PlatformProfile) => {
  const ids = crewIds(dag);
  return dag.map((t) => ({ role: 'worker', task: ids.get(t.id)!, replies: taskReplies(hostedWork(t, profile)) }));
};

const SEED_PARENT = [
  "You are crew's seed_parent: the parent session of claude-crew, playing the seed's orchestration.",
  'You never read what a worker wrote. You read the plan and the metadata of each result (status, quality, completeness, the path of its file), check it against the rules, and decide what starts next.',
  'Rules: a missing status is a failure; a missing quality is YELLOW; a missing completeness is 0; a RED or too-short result is retried.',
  'A wave is every task whose dependencies have all succeeded. Call launch_wave with the ids of the next wave; when every task has succeeded, call launch_wave with an empty list to hand over to the aggregator.',
].join('\n');

const LAUNCH_WAVE = {
  name: 'launch_wave',
  description: 'Start the next wave of workers, or hand over to aggregation with an empty list.',
  input_schema: { type: 'object', properties: { tasks: { type: 'array', items: { type: 'string' } } }, required: ['tasks'] },
};

/**
 * The seed's way. Per wave: one parent call that reads the plan and the metadata so far and
 * names the wave; then the wave's workers (crew's worker agent, at most max_parallel at once);
 * then the barrier. After the last wave, one more parent call hands over to aggregation.
 */
export async function runSeed(c: DagCase, o: WorldOptions, profile: PlatformProfile = PROFILES.loopback): Promise<WayRun> {
  const plan = planOf(c.tasks);
  const ids = crewIds(c.tasks);
  const dagId = new Map([...ids].map(([id, crewId]) => [crewId, id]));
  let decided: string[] = [];
  const api = await startFakeAnthropic({
    timeScale: o.timeScale,
    latency: o.latency,
    script: {
      entries: workerEntries(c.tasks, profile),
      respond: (q) => (q.role === 'seed_parent' ? { content: [{ type: 'tool_use', name: 'launch_wave', input: { tasks: decided } }] } : undefined),
    },
  });
  const model = baselineModel(api, false);
  const system = await loadTemplate('worker_writer');
  const results = new Map<string, { status: string; quality: string; completeness: number }>();
  const raw: Record<string, { start: number; end: number }> = {};
  const dirs: string[] = [];
  try {
    const parent = async (next: string[]) => {
      decided = next;
      const rows = plan.tasks.map((t) => `| ${t.id} | ${t.title} | ${t.dependsOn.join(', ') || '-'} | ${t.persona} |`);
      const meta = [...results].map(([id, m]) => `| ${id} | ${m.status} | ${m.quality} | ${m.completeness} | results/result_${id}.md |`);
      const text = [
        '# Plan',
        '| id | title | depends on | persona |',
        '|---|---|---|---|',
        ...rows,
        '',
        '# Results so far (metadata only)',
        '| id | status | quality | completeness | file |',
        '|---|---|---|---|---|',
        ...meta,
        '',
        'Which tasks start now?',
      ].join('\n');
      const reply = await model.complete({
        model: PARENT_MODEL,
        system: SEED_PARENT,
        tools: [LAUNCH_WAVE],
        messages: [{ role: 'user', content: [{ type: 'text', text }] }],
        maxTokens: 1024,
      });
      const use = reply.content.find((b) => b.type === 'tool_use');
      return use && use.type === 'tool_use' ? ((use.input as { tasks: string[] }).tasks ?? []) : [];
    };
    const runTask = async (id: string) => {
      const task = plan.tasks.find((t) => t.id === id)!;
      const dir = await workspace();
      dirs.push(dir);
      const start = performance.now();
      const out = await runWorker(
        model,
        {
          task,
          plan,
          attempt: 1,
          repoDir: dir,
          protectedPaths: [],
          maxTurns: 30,
          modelId: WORKER_MODEL,
          system,
          ...aloneInAWorkspace([SPEC_PATH]),
        },
        quietLog,
      );
      raw[dagId.get(id)!] = { start, end: performance.now() };
      if (out.reported?.status !== 'success') throw new Error(`seed's way, ${c.name}: ${id} did not succeed (${out.stop})`);
      results.set(id, { status: out.reported.status, quality: out.reported.quality ?? 'YELLOW', completeness: out.reported.completeness ?? 0 });
    };
    for (const wave of waves(plan)) {
      const launch = await parent(wave);
      const queue = [...launch];
      await Promise.all(
        Array.from({ length: Math.min(c.maxParallel, queue.length) }, async () => {
          for (let id = queue.shift(); id; id = queue.shift()) await runTask(id);
        }),
      );
    }
    await parent([]);
    const requests = [...api.requests];
    return {
      way: 'seed',
      ...spansFrom(raw),
      endToEndMs: null,
      tokens: {
        tasks: tally(requests, (q) => q.role === 'worker'),
        orchestration: tally(requests, (q) => q.role === 'seed_parent'),
        planningAndReview: emptyTally(),
      },
      github: null,
    };
  } finally {
    await api.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}

/** What the whole request looks like to one agent that does every task itself. */
function wholeRequest(plan: Plan): string {
  return [
    '# Write the notes',
    '',
    plan.summary,
    '',
    'Do every task below, in an order that respects the dependencies, then call report_result once.',
    '',
    ...plan.tasks.flatMap((t) => [
      `## ${t.id}: ${t.title}`,
      t.description,
      `Depends on: ${t.dependsOn.join(', ') || 'nothing'}`,
      ...t.criteria.map((x) => `- ${x}`),
      '',
    ]),
    'Done when:',
    ...plan.criteria.map((x) => `- ${x.text}`),
  ].join('\n');
}

/** Claude Code compacts a conversation when it nears the model's context window. */
export const CONTEXT_WINDOW = 200_000;
export const SINGLE_AGENT_COMPACT_AT = 0.95;
/** The compaction budget under which crew's tool loop compacts at that point. */
export const singleAgentBudget = () => Math.round((CONTEXT_WINDOW * SINGLE_AGENT_COMPACT_AT) / COMPACT_AT);

/** The final tool of a single agent: its one report at the end. */
export function reportTool(): AgentTool {
  return {
    final: true,
    spec: {
      name: 'report_result',
      description: 'Report the outcome once everything is done.',
      input_schema: { type: 'object', properties: { status: { type: 'string' }, summary: { type: 'string' } }, required: ['status', 'summary'] },
    },
    run: () => 'Reported.',
  };
}

export async function singleAgentSystem(): Promise<string> {
  return `You are crew's single_agent: one agent that does every task of the request itself, in one conversation, as claude-code-action does.\n\n${await loadTemplate('worker_writer')}`;
}

/**
 * A single agent: reads the spec once, then does the tasks one after another (any order that
 * respects the dependencies takes the same time), and reports once. Its context grows with
 * every task; prompt caching is on, compaction only near the context window.
 */
export async function runSingle(c: DagCase, o: WorldOptions, profile: PlatformProfile = PROFILES.loopback): Promise<WayRun> {
  const plan = planOf(c.tasks);
  const dagId = new Map([...crewIds(c.tasks)].map(([id, crewId]) => [crewId, id]));
  const order = topologicalOrder(plan).map((id) => c.tasks.find((t) => t.id === dagId.get(id))!);
  const script: Script = {
    entries: [],
    respond: (q): ScriptedReply | undefined => {
      if (q.role === 'summarizer') return { content: [{ type: 'text', text: 'Notes written so far are in notes/; the spec is docs/spec.md.' }] };
      if (q.role !== 'single_agent') return undefined;
      if (q.turn === 0) return { content: [{ type: 'tool_use', name: 'read_file', input: { path: SPEC_PATH } }] };
      const t = order[q.turn - 1];
      if (!t) return { content: [{ type: 'tool_use', name: 'report_result', input: { status: 'success', summary: `Wrote ${order.length} notes.` } }] };
      return {
        delay_ms: hostedWork(t, profile).ms,
        content: [{ type: 'tool_use', name: 'write_file', input: { path: notePath(t.id), content: noteContent(t.id) } }],
      };
    },
  };
  const api = await startFakeAnthropic({ timeScale: o.timeScale, latency: o.latency, script });
  const model = baselineModel(api, true);
  const dir = await workspace();
  try {
    const ends: number[] = [];
    const start = performance.now();
    const out = await runToolLoop({
      model,
      modelId: WORKER_MODEL,
      system: await singleAgentSystem(),
      tools: [...workspaceTools(new PathJail(dir, []), () => undefined), reportTool()],
      firstMessage: wholeRequest(plan),
      maxTurns: order.length + 5,
      log: quietLog,
      compaction: {
        budgetTokens: singleAgentBudget(),
        summarize: async (prev, messages) => summarize(model, WORKER_MODEL, await loadTemplate('summarizer'), prev, messages),
      },
      onTurn: (turn) => void (ends[turn] = performance.now()),
    });
    if (out.stop !== 'final') throw new Error(`single agent, ${c.name}: stopped with ${out.stop}`);
    // Turn 1 reads the spec (counted with the first task); turn k + 2 writes the note of order[k]; the last turn reports.
    const raw = Object.fromEntries(order.map((t, k) => [t.id, { start: k === 0 ? start : ends[k + 1]!, end: ends[k + 2]! }]));
    const requests = [...api.requests];
    return {
      way: 'single',
      ...spansFrom(raw),
      endToEndMs: null,
      tokens: { tasks: tally(requests, (q) => TASK_ROLES.has(q.role)), orchestration: emptyTally(), planningAndReview: emptyTally() },
      github: null,
      // One job, as claude-code-action runs it, from its first turn to its last.
      cost: { usd: pricedUsd(requests), jobsMs: [Math.max(...ends.filter((e) => e !== undefined)) - start] },
    };
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
}
