import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicModel } from '../../src/adapters/anthropic/model';
import { summarize } from '../../src/agents/summarizer';
import { contextWindow } from '../../src/domain/context-window';
import { runWorker } from '../../src/agents/worker';
import { parseConfig } from '../../src/config/schema';
import type { Plan } from '../../src/domain/plan';
import type { Clock, Log } from '../../src/ports';
import { loadTemplate } from '../../src/templates';
import { startFakeAnthropic } from '../../tests/support/anthropic/index';
import { aloneInAWorkspace, inputOf, singleAgentBudget, tally, singleAgentSystem, WORKER_MODEL, type Tally, type WayName, type WorldOptions } from './ways';

/**
 * One long task, 60 turns of reading files of about 2,500 tokens each, then the report: how
 * large each turn's input gets and how much of it the prompt cache serves, for each way.
 * crew compacts at its model's context window (its default `context_budget`, #49) with caching on; the seed's worker has neither;
 * the single agent caches and compacts only near the context window.
 */

export interface LongTaskFigure {
  way: WayName;
  /** Turns of work (each reads a file); the report adds one more model turn. */
  workTurns: number;
  /** Model turns the worker took, the report included. */
  turns: number;
  largestTurnInput: number;
  meanTurnInput: number;
  /** Share of all input tokens (summaries included) read from the prompt cache. */
  cacheShare: number;
  compactions: number;
  total: Tally;
}

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

const plan: Plan = {
  summary: 'Audit the parts.',
  criteria: [{ id: 'c1', text: 'every part is read', kind: 'semantic' }],
  tasks: [
    {
      id: 't1',
      title: 'Read every part',
      description: 'Read the part files again and again until you have checked each rule.',
      persona: 'coder',
      tier: 'haiku',
      dependsOn: [],
      files: [],
      criteria: ['all parts read'],
    },
  ],
};

export async function longTask(way: WayName, o: WorldOptions & { turns: number }): Promise<LongTaskFigure> {
  const dir = await mkdtemp(join(tmpdir(), 'crew-bench-long-'));
  // About 2,500 tokens each (the fake counts 4 bytes a token).
  // One file a turn: the same read with the same result again and again would be a loop, which the worker now stops (#49).
  const PARTS = o.turns;
  for (let i = 0; i < PARTS; i++)
    await writeFile(
      join(dir, `part${i}.txt`),
      `${Array.from({ length: 125 }, (_, k) => `part ${i} rule ${k}: keep it.`)
        .join(' ')
        .padEnd(10_000, '.')}\n`,
    );
  let turns = 0;
  const api = await startFakeAnthropic({
    timeScale: o.timeScale,
    latency: o.latency,
    script: {
      entries: [],
      respond: (q) => {
        if (q.role === 'summarizer')
          return { content: [{ type: 'text', text: `Read the part files 0-${PARTS - 1} in turn; every rule holds so far; no failures.` }] };
        turns++;
        if (turns > o.turns)
          return {
            content: [
              {
                type: 'tool_use',
                name: 'report_result',
                input: { status: 'success', quality: 'GREEN', completeness: 100, summary: 'Read every part.', details: 'All parts read.' },
              },
            ],
          };
        return { content: [{ type: 'tool_use', name: 'read_file', input: { path: `part${turns % PARTS}.txt` } }] };
      },
    },
  });
  try {
    process.env.ANTHROPIC_BASE_URL = api.url;
    const clock: Clock = { now: () => new Date(), sleep: (ms) => new Promise((r) => setTimeout(r, ms * o.timeScale)) };
    const model = new AnthropicModel('sk-ant-bench-key-000000', clock, log, { promptCache: way !== 'seed' });
    delete process.env.ANTHROPIC_BASE_URL;
    const budget = way === 'crew' ? (parseConfig(undefined).context_budget ?? contextWindow(WORKER_MODEL)) : way === 'single' ? singleAgentBudget() : undefined;
    const summarizer = await loadTemplate('summarizer');
    const out = await runWorker(
      model,
      {
        task: plan.tasks[0]!,
        plan,
        attempt: 1,
        repoDir: dir,
        protectedPaths: [],
        maxTurns: o.turns + 5,
        modelId: WORKER_MODEL,
        system: way === 'single' ? await singleAgentSystem() : await loadTemplate('worker_coder'),
        ...aloneInAWorkspace(Array.from({ length: PARTS }, (_, i) => `part${i}.txt`)),
        ...(budget ? { compaction: { budgetTokens: budget, summarize: (prev, messages) => summarize(model, WORKER_MODEL, summarizer, prev, messages) } } : {}),
      },
      log,
    );
    if (out.stop !== 'final') throw new Error(`the ${way} long task stopped with ${out.stop}`);
    const total = tally(api.requests);
    return {
      way,
      workTurns: o.turns,
      turns: out.turns,
      largestTurnInput: Math.max(...out.promptTokens),
      meanTurnInput: Math.round(out.promptTokens.reduce((s, n) => s + n, 0) / out.promptTokens.length),
      cacheShare: Math.round((total.cacheRead / inputOf(total)) * 1000) / 1000,
      compactions: out.compactions,
      total,
    };
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
}
