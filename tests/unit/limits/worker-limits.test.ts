import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModel } from '../../../src/adapters/anthropic/model';
import { runWorker, type WorkerInput } from '../../../src/agents/worker';
import { workerCompaction } from '../../../src/agents/worker-compaction';
import type { AgentTool } from '../../../src/agents/tool-loop';
import { DEFAULT_DENY, parseConfig } from '../../../src/config/schema';
import type { Plan } from '../../../src/domain/plan';
import { checkResult } from '../../../src/domain/result';
import { ZERO_USAGE } from '../../../src/domain/run-state';
import type { Clock, Log, Model, ModelReply, ModelRequest } from '../../../src/ports';
import { loadTemplate } from '../../../src/templates';
import { startFakeAnthropic, type FakeAnthropic } from '../../support/anthropic/index';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
const clock: Clock = { now: () => new Date(), sleep: async () => undefined };
const REPORT = {
  status: 'success',
  quality: 'GREEN',
  completeness: 100,
  summary: 'Done.',
  details: Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n'),
};

const plan: Plan = {
  summary: 'Fix the date parser.',
  criteria: [{ id: 'c1', text: 'the date tests pass', kind: 'semantic' }],
  tasks: [
    {
      id: 't1',
      title: 'Fix parseDate',
      description: 'Fix src/date.ts so the date tests pass.',
      persona: 'coder',
      tier: 'sonnet',
      dependsOn: [],
      files: ['src/date.ts'],
      criteria: ['the date tests pass'],
    },
  ],
};

function input(repoDir: string, over: Partial<WorkerInput> = {}): WorkerInput {
  return {
    task: plan.tasks[0]!,
    plan,
    attempt: 1,
    repoDir,
    protectedPaths: [],
    maxTurns: 100,
    modelId: 'claude-sonnet-5-5',
    system: "You are crew's worker, acting as a coder.",
    repoFiles: ['src/date.ts'],
    commands: { runner: undefined, unavailable: 'no sandbox (test)', policy: { allow: [], deny: DEFAULT_DENY }, timeoutMs: 1000, maxOutputBytes: 10_000 },
    team: { running: async () => [], send: async () => undefined, inbox: async () => [] },
    limits: { tokens: 100_000_000, costUsd: 1000, deadline: Date.now() + 600_000 },
    memory: { attempts: [], lastFailure: null, knowledge: [], advice: [] },
    ...over,
  };
}

describe('loop detection (#49)', () => {
  let repo: string;
  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'worker-loop-'));
    writeFileSync(join(repo, 'src.ts'), 'export const a = 1;\n');
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('five identical failing edits: a note after three, a stop with the reason after five', async () => {
    const requests: ModelRequest[] = [];
    const model: Model = {
      async complete(req) {
        requests.push(structuredClone(req));
        // The same edit of text that is not in the file, again and again.
        const content: ModelReply['content'] = [
          {
            type: 'tool_use',
            id: `toolu_${requests.length}`,
            name: 'edit_file',
            input: { path: 'src.ts', old_string: 'export const b = 2;', new_string: 'export const b = 3;' },
          },
        ];
        return { content, stopReason: 'tool_use', usage: ZERO_USAGE };
      },
    };
    const out = await runWorker(model, input(repo), log);
    expect(requests).toHaveLength(5);
    const told = (i: number) => JSON.stringify(requests[i]!.messages.at(-1));
    // The third identical failure is followed by a note in what the model reads next; the two before it are not.
    expect(told(2)).not.toContain('with the same input');
    expect(told(3)).toContain('crew notes: you have called edit_file with the same input 3 times, and it failed the same way each time');
    expect(out.stop).toBe('loop');
    expect(out.error).toBe('the worker called edit_file with the same input 5 times, and it failed the same way each time');
    // The attempt's result says why; the work step commits what is in the files, as after any ending.
    const checked = checkResult(out.reported, {
      persona: 'coder',
      ending: 'loop',
      changedFiles: [],
      turns: out.turns,
      usage: out.usage,
      toolCalls: out.toolCalls,
      error: out.error!,
    });
    expect(checked).toMatchObject({ status: 'failure', retry: true });
    expect(checked.reason).toBe(
      'the attempt was stopped going round in circles: the worker called edit_file with the same input 5 times, and it failed the same way each time',
    );
  });
});

describe("compaction by the model's window (#49)", () => {
  let api: FakeAnthropic;
  let repo: string;
  const failing = (turn: number) =>
    `FAIL test/date.test.ts > parseDate > reads ISO weeks (run at turn ${turn})\nAssertionError: expected 2026-W05 to equal 2026-W06`;
  beforeEach(async () => {
    repo = mkdtempSync(join(tmpdir(), 'worker-window-'));
    const sh = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
    sh('init', '-q');
    // About 5,000 tokens each, one a turn. In short lines, so read_file shows each whole: it cuts a line
    // over 2,000 characters and shows at most 25 kB at once (#48); 550 numbered lines are about 20 kB.
    for (let i = 1; i <= 60; i++)
      writeFileSync(join(repo, `notes${i}.txt`), `${Array.from({ length: 550 }, () => `note ${i} on the calendar rules;`).join('\n')}\n`);
    writeFileSync(join(repo, 'date.ts'), 'export const parseDate = () => 0;\n');
    sh('add', '-A');
    sh('commit', '-qm', 'base');
    let turn = 0;
    api = await startFakeAnthropic({
      script: {
        entries: [],
        respond: (q) => {
          if (q.role === 'summarizer') return { content: [{ type: 'text', text: '## Task\nFix parseDate.\n\n## Next step\nGo on reading the notes.' }] };
          turn++;
          if (turn > 60) return { content: [{ type: 'tool_use', name: 'report_result', input: REPORT }] };
          // Every fourth turn the worker changes a file; every third it runs the tests, which fail.
          if (turn % 4 === 0)
            return { content: [{ type: 'tool_use', name: 'write_file', input: { path: `src/step${turn}.ts`, content: `export const step = ${turn};\n` } }] };
          if (turn % 3 === 0) return { content: [{ type: 'tool_use', name: 'run_tests', input: { turn } }] };
          return { content: [{ type: 'tool_use', name: 'read_file', input: { path: `notes${turn}.txt` } }] };
        },
      },
    });
    process.env.ANTHROPIC_BASE_URL = api.url;
  });
  afterEach(async () => {
    delete process.env.ANTHROPIC_BASE_URL;
    await api.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it("a 60-turn task whose context passes the window's threshold compacts once, and its next turn still holds the files it changed and the last failing test", async () => {
    // Claude Sonnet 4.5's documented window is 200k tokens: the conversation passes 60% of it on the way.
    const config = parseConfig('models:\n  sonnet: claude-sonnet-4-5\n');
    const model = new AnthropicModel('sk-ant-test-key-0000', clock, log);
    const runTests: AgentTool = {
      spec: { name: 'run_tests', description: 'Run the tests', input_schema: { type: 'object' } },
      run: (raw) => failing((raw as { turn: number }).turn),
    };
    const changes = async () => {
      execFileSync('git', ['add', '-A'], { cwd: repo });
      return execFileSync('git', ['diff', '--cached', '--stat=120', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    };
    const out = await runWorker(
      model,
      input(repo, {
        modelId: config.models.sonnet,
        extraTools: [runTests],
        compaction: workerCompaction(config, model, 'sonnet', () => loadTemplate('summarizer'), changes),
      }),
      log,
    );
    expect(out.stop).toBe('final');
    expect(out.compactions).toBe(1);
    const worker = api.requests.filter((q) => q.role === 'worker');
    // The first request of the fresh conversation: one message, the opening.
    const fresh = worker.findIndex((q, i) => i > 0 && q.body.messages.length === 1);
    expect(fresh).toBeGreaterThan(40);
    expect(Math.max(...out.promptTokens.slice(0, fresh))).toBeGreaterThan(120_000);
    // The notes were read whole, each in one window of read_file, not cut short.
    const reads = worker
      .slice(0, fresh)
      .flatMap((q) => q.body.messages.slice(-1))
      .map((m) => JSON.stringify(m));
    expect(reads.filter((r) => r.includes('(the whole file)') && r.includes('550\\tnote')).length).toBeGreaterThan(20);
    const opening = JSON.stringify(worker[fresh]!.body.messages[0]);
    // The files it changed, as git diff --stat lists them.
    for (let t = 4; t < fresh; t += 4) expect(opening).toContain(`src/step${t}.ts`);
    // The last failing test before the compaction, word for word.
    const lastRun = [...Array(fresh).keys()].filter((t) => t > 0 && t % 3 === 0 && t % 4 !== 0).at(-1)!;
    expect(opening).toContain(JSON.stringify(failing(lastRun)).slice(1, -1));
    // The summary was asked of the worker's own tier, in the template's sections.
    const summary = api.requests.find((q) => q.role === 'summarizer')!;
    expect(summary.body.model).toBe('claude-sonnet-4-5');
    expect(JSON.stringify(summary.body.system)).toContain('## Tests and their last result');
  }, 120_000);
});
