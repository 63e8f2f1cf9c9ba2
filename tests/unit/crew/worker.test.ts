import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModel } from '../../../src/adapters/anthropic/model';
import { summarize } from '../../../src/agents/summarizer';
import { repositoryMapOf, runWorker, type WorkerInput } from '../../../src/agents/worker';
import { DEFAULT_DENY } from '../../../src/config/schema';
import type { Plan } from '../../../src/domain/plan';
import { ZERO_USAGE } from '../../../src/domain/run-state';
import type { Clock, Log, Model, ModelReply, ModelRequest } from '../../../src/ports';
import { startFakeAnthropic, type FakeAnthropic } from '../../support/anthropic/index';

/** A report crew's report rules take as it is (they are tested in result-rules.test.ts and the workers e2e). */
const WHOLE_REPORT = {
  status: 'success',
  quality: 'GREEN',
  completeness: 100,
  details: Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n'),
};

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
const clock: Clock = { now: () => new Date(), sleep: async () => undefined };

const plan: Plan = {
  summary: 'Review the parser.',
  criteria: [{ id: 'c1', text: 'findings are written down', kind: 'semantic' }],
  tasks: [
    {
      id: 't1',
      title: 'Review parse()',
      description: 'Review src/parse.js.',
      persona: 'reviewer',
      tier: 'haiku',
      dependsOn: [],
      files: [],
      criteria: ['findings listed with line numbers'],
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
    maxTurns: 80,
    modelId: 'claude-haiku-5-5',
    system: "You are crew's worker, acting as a reviewer.",
    repoFiles: ['parse.js'],
    commands: { runner: undefined, unavailable: 'no sandbox (test)', policy: { allow: [], deny: DEFAULT_DENY }, timeoutMs: 1000, maxOutputBytes: 10_000 },
    team: { running: async () => [], send: async () => undefined, inbox: async () => [] },
    limits: { tokens: 10_000_000, costUsd: 100, deadline: Date.now() + 600_000 },
    memory: { attempts: [], lastFailure: null, knowledge: [], advice: [] },
    ...over,
  };
}

function scripted(replies: Array<ModelReply['content']>): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async complete(req) {
      requests.push(structuredClone(req));
      return { content: replies[requests.length - 1]!, stopReason: 'tool_use', usage: ZERO_USAGE };
    },
  };
}

describe('runWorker', () => {
  let repo: string;
  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'worker-'));
    writeFileSync(join(repo, 'parse.js'), 'export const parse = (s) => s.split(",");\n');
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('scopes tools by role: a reviewer may read and run checks but is refused writes, with a reason it can read', async () => {
    const model = scripted([
      [{ type: 'tool_use', id: 'toolu_1', name: 'write_file', input: { path: 'x.js', content: 'x' } }],
      [{ type: 'tool_use', id: 'toolu_2', name: 'run_command', input: { command: 'npm test' } }],
      [{ type: 'tool_use', id: 'toolu_3', name: 'report_result', input: { ...WHOLE_REPORT, summary: 's' } }],
    ]);
    const out = await runWorker(model, input(repo), log);
    const offered = model.requests[0]!.tools.map((t) => t.name);
    expect(offered).toEqual(['list_files', 'read_file', 'search', 'run_command', 'send_message', 'check_inbox', 'report_result']);
    expect(model.requests[1]!.messages.at(-1)!.content[0]).toMatchObject({
      is_error: true,
      content: expect.stringContaining('write_file is not available to a reviewer'),
    });
    expect(model.requests[2]!.messages.at(-1)!.content[0]).toMatchObject({
      is_error: true,
      content: 'run_command is not available in this run: no sandbox (test)',
    });
    expect(out).toMatchObject({ stop: 'final', reported: { status: 'success', summary: 's' }, toolCalls: { write_file: 1, run_command: 1, report_result: 1 } });
  });

  it("gives a coder the read-only roles' tools (readOnlyTools) with write_file and edit_file, in crew's order", async () => {
    const model = scripted([[{ type: 'tool_use', id: 'toolu_1', name: 'report_result', input: { ...WHOLE_REPORT, summary: 's' } }]]);
    await runWorker(model, input(repo, { task: { ...plan.tasks[0]!, persona: 'coder' } }), log);
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual([
      'list_files',
      'read_file',
      'write_file',
      'edit_file',
      'search',
      'run_command',
      'send_message',
      'check_inbox',
      'report_result',
    ]);
  });

  it('tells a retry what failed before, and gives knowledge from the repository', async () => {
    const model = scripted([[{ type: 'tool_use', id: 'toolu_1', name: 'report_result', input: { status: 'success', summary: 's' } }]]);
    await runWorker(
      model,
      input(repo, {
        attempt: 2,
        memory: {
          attempts: ['Attempt 1 (timeout): ran out of turns'],
          lastFailure: 'the worker reached its turn limit',
          knowledge: ['[constraint] never edit generated files'],
          advice: ['The advisor says: check the types first'],
        },
      }),
      log,
    );
    const first = (model.requests[0]!.messages[0]!.content[0] as { text: string }).text;
    expect(first).toContain('Attempt: 2');
    expect(first).toContain('## Earlier attempts at this task\nAttempt 1 (timeout): ran out of turns');
    expect(first).toContain('The last attempt did not succeed because: the worker reached its turn limit.');
    expect(first).toContain('- [constraint] never edit generated files');
    expect(first).toContain("## Notes for this attempt (from crew's advisor or a maintainer)\n- The advisor says: check the types first");
  });
});

describe('the repository map in the worker’s system prompt', () => {
  it('follows the persona: the map the step ranked, or one ranked for the task by paths when only the file list is given', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'worker-map-'));
    try {
      const reply = () => scripted([[{ type: 'tool_use', id: 'toolu_1', name: 'report_result', input: { status: 'success', summary: 's' } }]]);
      const model = reply();
      await runWorker(model, input(repo, { repoFiles: ['src/b.js', 'README.md', 'src/parse.js'] }), log);
      expect(model.requests[0]!.system).toMatch(
        /^You are crew's worker, acting as a reviewer\.\n\n## Repository map\n3 tracked files\. Every top-level folder, with its file count: src\/ \(2\), 1 at the root\.\n.*\n\nsrc\/parse\.js {3}\(named in the request\)\nsrc\/b\.js\nREADME\.md$/,
      );
      const second = reply();
      await runWorker(second, input(repo, { repoMap: '## Repository map\n(ranked by the step)' }), log);
      expect(second.requests[0]!.system).toBe("You are crew's worker, acting as a reviewer.\n\n## Repository map\n(ranked by the step)");
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
    // 1,000 assets before src/ in sort order: the map still names the source, within its budget.
    const many = [...Array.from({ length: 1000 }, (_, i) => `assets/a-${String(i).padStart(4, '0')}.png`), 'src/parse.js', 'src/other.js'];
    const map = repositoryMapOf(many, plan.tasks[0]!);
    expect(map).toContain('src/parse.js   (named in the request)\nsrc/other.js\n');
    expect(map).toMatch(/Left out to keep the map short: \d+ more files \(\d+ in assets\/\)/);
    expect(map.length).toBeLessThan(17_000);
  });
});

describe('context management over a 60-turn task that thinks on every turn, against the fake Messages API (prefix checks on) with the real SDK', () => {
  let api: FakeAnthropic;
  let repo: string;
  const BUDGET = 20_000;
  beforeEach(async () => {
    repo = mkdtempSync(join(tmpdir(), 'worker-long-'));
    // A file a turn: reading the same file again with the same result five times is a loop the worker stops (#49).
    for (let i = 0; i <= 60; i++) writeFileSync(join(repo, `part${i}.txt`), `${`part ${i} `.repeat(1200)}\n`);
    let workerTurns = 0;
    api = await startFakeAnthropic({
      minCacheTokens: 512,
      script: {
        entries: [],
        respond: (req) => {
          if (req.role === 'summarizer') return { content: [{ type: 'text', text: 'Read part files 0-4 repeatedly; nothing changed; no failures.' }] };
          workerTurns++;
          // Claude 5.5 models think on every turn, and each thinking block is bound to everything before it.
          const thinking = { type: 'thinking' as const, thinking: `Turn ${workerTurns}: what next?` };
          if (workerTurns > 60)
            return { content: [thinking, { type: 'tool_use', name: 'report_result', input: { ...WHOLE_REPORT, summary: 'Read everything.' } }] };
          return { content: [thinking, { type: 'tool_use', name: 'read_file', input: { path: `part${workerTurns}.txt` } }] };
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

  it('keeps every turn’s input under the context budget by compaction into a fresh conversation, never editing what a thinking block is bound to, and serves most of it from the prompt cache', async () => {
    const model = new AnthropicModel('sk-ant-test-key-0000', clock, log);
    const task = { ...plan.tasks[0]!, persona: 'coder' as const };
    const out = await runWorker(
      model,
      input(repo, {
        task,
        system: `You are crew's worker, acting as a coder.\n${'Rules. '.repeat(300)}`,
        compaction: { budgetTokens: BUDGET, summarize: (prev, messages) => summarize(model, 'claude-haiku-5-5', "You are crew's summarizer.", prev, messages) },
      }),
      log,
    );
    expect(out.error).toBeUndefined();
    expect(out.stop).toBe('final');
    expect(out.turns).toBe(61);
    expect(out.compactions).toBeGreaterThan(0);
    expect(Math.max(...out.promptTokens)).toBeLessThan(BUDGET);
    const worker = api.requests.filter((q) => q.role === 'worker' && q.usage);
    const read = worker.reduce((s, q) => s + q.usage!.cache_read_input_tokens, 0);
    const all = worker.reduce((s, q) => s + q.usage!.cache_read_input_tokens + q.usage!.cache_creation_input_tokens + q.usage!.input_tokens, 0);
    // A fresh conversation repeats up to a quarter of the budget word for word (#49), written to the cache once
    // more at each of this tiny budget's many compactions; at a real window they are rare.
    expect(read / all).toBeGreaterThan(0.6);
  }, 60_000);
});
