import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicModel } from '../../src/adapters/anthropic/model';
import { withEffort } from '../../src/agents/effort';
import { runWorker } from '../../src/agents/worker';
import { parseConfig } from '../../src/config/schema';
import { usageOf } from '../../src/domain/pricing';
import type { Plan } from '../../src/domain/plan';
import type { Clock, Log } from '../../src/ports';
import { loadTemplate } from '../../src/templates';
import { startFakeAnthropic } from '../../tests/support/anthropic/index';
import { workerSetup } from './limits-setup';
import { aloneInAWorkspace, tally } from './ways';

/**
 * A long task under crew's default configuration (#49): `turns` turns of work, each reading a file
 * of about 2,500 tokens and running a check, then the report, played by crew's worker against the
 * fake API with its real prompt caching. What the default limits let it finish: the turns it
 * completed, how it ended, input tokens by kind (uncached, read from the cache, written to it),
 * output, and the cost at published prices. `npm run bench -- --limits=before|after` records it.
 */
export interface LimitsFigure {
  /** Turns of work the script holds before its report. */
  workTurns: number;
  /** Model turns the worker completed. */
  turns: number;
  /** How the attempt ended (the tool loop's stop), and whether it reported. */
  stop: string;
  reported: boolean;
  compactions: number;
  input: { uncached: number; cacheRead: number; cacheWrite: number };
  output: number;
  costUsd: number;
  /** The limits the default configuration gave it. */
  limits: { maxTurns: number; tokens: number; costUsd: number; compactAt: number | string };
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
      tier: 'sonnet',
      dependsOn: [],
      files: [],
      criteria: ['all parts read'],
    },
  ],
};

export async function limitsSample(o: { turns: number; timeScale: number }): Promise<LimitsFigure> {
  const dir = await mkdtemp(join(tmpdir(), 'crew-bench-limits-'));
  // One file a turn: the same read with the same result again and again would be a loop, which the worker now stops (#49).
  const PARTS = o.turns;
  for (let i = 0; i < PARTS; i++)
    await writeFile(
      join(dir, `part${i}.txt`),
      `${Array.from({ length: 125 }, (_, k) => `part ${i} rule ${k}: keep it.`)
        .join(' ')
        .padEnd(10_000, '.')}\n`,
    );
  const config = parseConfig(undefined);
  const modelId = config.models.sonnet;
  let turns = 0;
  const api = await startFakeAnthropic({
    timeScale: o.timeScale,
    script: {
      entries: [],
      respond: (q) => {
        if (q.role === 'summarizer')
          return { content: [{ type: 'text', text: `Read the part files 0-${PARTS - 1} in turn; every rule holds so far; no failures.` }] };
        const last = JSON.stringify(q.body.messages.at(-1) ?? '');
        // Told it is the last turn, or the work is done: the report.
        if (++turns > o.turns || /last turn|report now/i.test(last))
          return {
            content: [
              {
                type: 'tool_use',
                name: 'report_result',
                input: {
                  status: turns > o.turns ? 'success' : 'partial',
                  quality: turns > o.turns ? 'GREEN' : 'YELLOW',
                  completeness: Math.min(100, Math.round((100 * turns) / o.turns)),
                  summary: 'Read the parts.',
                  details: Array.from({ length: 20 }, (_, k) => `- line ${k}`).join('\n'),
                },
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
    const raw = new AnthropicModel('sk-ant-bench-key-000000', clock, log, {});
    const model = withEffort(raw, config.effort, 'worker');
    delete process.env.ANTHROPIC_BASE_URL;
    const setup = await workerSetup(config, raw, 'sonnet');
    const out = await runWorker(
      model,
      {
        task: plan.tasks[0]!,
        plan,
        attempt: 1,
        repoDir: dir,
        protectedPaths: [],
        modelId,
        system: await loadTemplate('worker_coder'),
        ...aloneInAWorkspace(Array.from({ length: PARTS }, (_, i) => `part${i}.txt`)),
        ...setup.input,
      },
      log,
    );
    const total = tally(api.requests);
    const cost = usageOf(modelId, { input: total.input, output: total.output, cacheRead: total.cacheRead, cacheWrite: total.cacheWrite });
    return {
      workTurns: o.turns,
      turns: out.turns,
      stop: out.stop,
      reported: out.reported !== undefined,
      compactions: out.compactions,
      input: { uncached: total.input, cacheRead: total.cacheRead, cacheWrite: total.cacheWrite },
      output: total.output,
      costUsd: cost.costUsd,
      limits: setup.limits,
    };
  } finally {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  }
}
