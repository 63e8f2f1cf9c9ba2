import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathJail } from '../../../src/agents/path-jail';
import { NotAccepted } from '../../../src/agents/submission';
import { estimateTokens, runToolLoop, type AgentTool } from '../../../src/agents/tool-loop';
import { workspaceTools } from '../../../src/agents/workspace-tools';
import { ZERO_USAGE } from '../../../src/domain/run-state';
import { LOG_REASON_CHARS } from '../../../src/text/log-line';
import type { Log, Model, ModelReply, ModelRequest } from '../../../src/ports';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

/** A hand-made Model port that replays replies and keeps every request. */
function scriptedModel(replies: Array<ModelReply['content']>): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async complete(req) {
      requests.push(structuredClone(req));
      const content = replies[requests.length - 1];
      if (!content) throw new Error(`no reply scripted for turn ${requests.length}`);
      return {
        content,
        stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
        usage: { ...ZERO_USAGE, inputTokens: 10, outputTokens: 2 },
      };
    },
  };
}

const use = (name: string, input: unknown, id = `toolu_${name}_${Math.random().toString(36).slice(2, 8)}`) => ({ type: 'tool_use' as const, id, name, input });

describe('workspace tools', () => {
  let root: string;
  let tools: Map<string, AgentTool>;
  let written: string[];
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tools-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.js'), 'one\ntwo\nthree\ntwo\n');
    written = [];
    tools = new Map(workspaceTools(new PathJail(root, ['.github/workflows/**']), (p) => written.push(p)).map((t) => [t.spec.name, t]));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const run = (name: string, input: unknown) => Promise.resolve(tools.get(name)!.run(input));

  it('lists files, skipping .git', async () => {
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), '');
    writeFileSync(join(root, 'README.md'), '');
    expect(await run('list_files', {})).toBe('README.md\nsrc/a.js');
    expect(await run('list_files', { path: 'src' })).toBe('src/a.js');
    await expect(run('list_files', { path: 'nope' })).rejects.toThrow(/does not exist/);
  });

  it('reads whole files and line ranges, numbered', async () => {
    expect(await run('read_file', { path: 'src/a.js' })).toBe('src/a.js: lines 1-4 of 4 (the whole file)\n1\tone\n2\ttwo\n3\tthree\n4\ttwo');
    expect(await run('read_file', { path: 'src/a.js', start_line: 2, end_line: 3 })).toBe(
      'src/a.js: lines 2-3 of 4. To read on, call read_file with start_line 4.\n2\ttwo\n3\tthree',
    );
    await expect(run('read_file', { path: 'src/a.js', start_line: 99 })).rejects.toThrow(/start_line 99 is past the end: src\/a.js has 4 lines/);
    await expect(run('read_file', { path: 'src' })).rejects.toThrow(/is a folder/);
    await expect(run('read_file', { path: '../etc/passwd' })).rejects.toThrow(/outside the repository/);
  });

  it('writes files, creating folders, and reports what it wrote', async () => {
    expect(await run('write_file', { path: 'docs/new/x.md', content: 'hi\n' })).toContain('wrote docs/new/x.md');
    expect(readFileSync(join(root, 'docs/new/x.md'), 'utf8')).toBe('hi\n');
    expect(written).toEqual(['docs/new/x.md']);
    await expect(run('write_file', { path: '.github/workflows/ci.yml', content: 'x' })).rejects.toThrow(/protected/);
    await expect(run('write_file', { path: 'x' })).rejects.toThrow(/'content' must be a string/);
  });

  it('edits one exact occurrence, and explains missing or repeated strings', async () => {
    await expect(run('edit_file', { path: 'src/a.js', old_string: 'two', new_string: '2' })).rejects.toThrow(/occurs 2 times in src\/a.js, at lines 2 and 4/);
    await expect(run('edit_file', { path: 'src/a.js', old_string: 'four', new_string: '4' })).rejects.toThrow(/was not found/);
    await expect(run('edit_file', { path: 'src/missing.js', old_string: 'a', new_string: 'b' })).rejects.toThrow(/does not exist; use write_file/);
    expect(await run('edit_file', { path: 'src/a.js', old_string: 'three\n', new_string: '$& 3\n' })).toBe(
      'edited src/a.js: replaced 1 occurrence; it has 4 lines now. The changed lines:\n1\tone\n2\ttwo\n3\t$& 3\n4\ttwo',
    );
    // `$&` is inserted literally, not as a regex replacement pattern.
    expect(readFileSync(join(root, 'src/a.js'), 'utf8')).toBe('one\ntwo\n$& 3\ntwo\n');
  });
});

describe('runToolLoop', () => {
  const echo: AgentTool = { spec: { name: 'echo', description: 'echo', input_schema: { type: 'object' } }, run: (i) => JSON.stringify(i) };
  const fail: AgentTool = {
    spec: { name: 'fail', description: 'fail', input_schema: { type: 'object' } },
    run: () => {
      throw new Error('disk on fire');
    },
  };
  const done: AgentTool = { final: true, spec: { name: 'done', description: 'done', input_schema: { type: 'object' } }, run: () => 'ok' };
  const base = { modelId: 'claude-test', system: "You are crew's worker.", firstMessage: 'Task: t1', log };

  it('returns tool errors to the model as is_error results and carries on', async () => {
    const model = scriptedModel([[use('fail', {}, 'toolu_1'), use('nope', {}, 'toolu_2')], [use('done', { a: 1 })]]);
    const out = await runToolLoop({ ...base, model, tools: [echo, fail, done], maxTurns: 5 });
    expect(out.stop).toBe('final');
    expect(out.finalInput).toEqual({ a: 1 });
    expect(out.turns).toBe(2);
    const results = model.requests[1]!.messages.at(-1)!.content;
    expect(results).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: 'disk on fire' },
      { type: 'tool_result', tool_use_id: 'toolu_2', is_error: true, content: "There is no tool named 'nope'. Available tools: echo, fail, done." },
    ]);
    expect(out.toolCalls).toEqual({ fail: 1, nope: 1, done: 1 });
    expect(out.usage.inputTokens).toBe(20);
  });

  it('logs every refused call with its reason on the same line, shortened, never more than one line', async () => {
    const infos: string[] = [];
    let calls = 0;
    const judge: AgentTool = {
      spec: { name: 'submit_judgment', description: 'judge', input_schema: { type: 'object' } },
      run: () => {
        calls++;
        if (calls === 1) throw new NotAccepted(['evaluations: judge c2 too', 'evaluations: c9 is not among the criteria listed for you'], 'submit_judgment');
        if (calls === 2) throw new Error(`Not accepted:\n::add-mask::secret\n- ${'x'.repeat(400)}`);
        return 'judged';
      },
    };
    const model = scriptedModel([
      [use('submit_judgment', {}, 'toolu_1'), use('nope\n::warning::hi', {}, 'toolu_2')],
      [use('submit_judgment', {}, 'toolu_3'), use('done', {}, 'toolu_4')],
    ]);
    await runToolLoop({
      ...base,
      log: { ...log, info: (m) => infos.push(m) },
      model,
      tools: [judge, done],
      maxTurns: 5,
    });
    expect(infos[0]).toBe(
      'tool submit_judgment failed: Not accepted: evaluations: judge c2 too; evaluations: c9 is not among the criteria listed for you; Fix these and call submit_judgment again.',
    );
    expect(infos[1]).toBe("tool nope; ::warning::hi refused: There is no tool named 'nope; ::warning::hi'. Available tools: submit_judgment, done.");
    expect(infos[2]).toMatch(/^tool submit_judgment failed: Not accepted: ::add-mask::secret; x+…$/);
    expect(infos[2]!.length).toBe('tool submit_judgment failed: '.length + LOG_REASON_CHARS);
    for (const line of infos) expect(line).not.toMatch(/[\r\n]/);
    // The model still gets the whole reason.
    expect(JSON.stringify(model.requests[1]!.messages.at(-1)!.content)).toContain('c9 is not among the criteria listed for you');
  });

  it('stops at the turn limit', async () => {
    const model = scriptedModel(Array.from({ length: 3 }, () => [use('echo', {})]));
    const out = await runToolLoop({ ...base, model, tools: [echo, done], maxTurns: 3 });
    expect(out).toMatchObject({ stop: 'max_turns', turns: 3 });
  });

  it('nudges once when the model stops without the final tool, then gives up', async () => {
    const model = scriptedModel([[{ type: 'text', text: 'I am done.' }], [{ type: 'text', text: 'Really done.' }]]);
    const out = await runToolLoop({ ...base, model, tools: [done], maxTurns: 5, nudge: 'Call done.' });
    expect(out.stop).toBe('no_final');
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'Call done.' }] });
  });

  it('never sends empty text blocks back and keeps thinking blocks as they came', async () => {
    const thinking = { type: 'thinking' as const, thinking: 'plan', signature: 'sig' };
    const model = scriptedModel([[thinking, { type: 'text', text: '' }, use('echo', { x: 1 }, 'toolu_9')], [use('done', {})]]);
    await runToolLoop({ ...base, model, tools: [echo, done], maxTurns: 5 });
    expect(model.requests[1]!.messages[1]).toEqual({
      role: 'assistant',
      content: [thinking, { type: 'tool_use', id: 'toolu_9', name: 'echo', input: { x: 1 } }],
    });
  });
});

describe('runToolLoop limits, messages and compaction', () => {
  const echo: AgentTool = { spec: { name: 'echo', description: 'echo', input_schema: { type: 'object' } }, run: () => 'x'.repeat(400) };
  const base = { modelId: 'claude-test', system: "You are crew's worker.", firstMessage: 'Task: t1', log };
  const many = (n: number) => Array.from({ length: n }, (_, i) => [use('echo', { i }, `toolu_${i}`)]);

  it('stops when the token budget is spent', async () => {
    const model = scriptedModel(many(10));
    const out = await runToolLoop({ ...base, model, tools: [echo], maxTurns: 10, limits: { tokens: 35 } });
    expect(out).toMatchObject({ stop: 'budget', turns: 3 });
  });

  it('stops when the cost budget is spent, and when the deadline passes', async () => {
    const pricey: Model = { complete: async () => ({ content: [use('echo', {}, 'toolu_p')], stopReason: 'tool_use', usage: { ...ZERO_USAGE, costUsd: 0.4 } }) };
    expect(await runToolLoop({ ...base, model: pricey, tools: [echo], maxTurns: 10, limits: { costUsd: 1 } })).toMatchObject({ stop: 'budget', turns: 3 });
    let t = 0;
    const clockModel = scriptedModel(many(10));
    const out = await runToolLoop({ ...base, model: clockModel, tools: [echo], maxTurns: 10, limits: { deadline: 3, now: () => t++ } });
    expect(out).toMatchObject({ stop: 'wall_clock', turns: 3 });
  });

  it('adds teammate messages before the next turn, and stops on a shutdown request', async () => {
    const model = scriptedModel(many(5));
    let calls = 0;
    const out = await runToolLoop({
      ...base,
      model,
      tools: [echo],
      maxTurns: 5,
      between: async (turn) => {
        calls++;
        if (turn === 2) return { notes: ['<teammate-message from="t2" type="message">\nuse snake_case\n</teammate-message>'] };
        if (turn === 3) return { stop: 'shutdown' };
        return {};
      },
    });
    expect(out).toMatchObject({ stop: 'shutdown', turns: 2 });
    expect(calls).toBe(3);
    const second = model.requests[1]!.messages.at(-1)!.content;
    expect(second.at(-1)).toEqual({ type: 'text', text: '<teammate-message from="t2" type="message">\nuse snake_case\n</teammate-message>' });
    expect(second[0]).toMatchObject({ type: 'tool_result' });
  });

  it('with recover, an error outside the tools (the model API, compaction, the inbox) ends the loop with what was done; without, it throws', async () => {
    const failing = (at: number): Model => {
      let n = 0;
      return {
        async complete() {
          if (++n === at) throw new Error('the Anthropic API kept failing after 5 attempts');
          return { content: [use('echo', { n }, `toolu_${n}`)], stopReason: 'tool_use', usage: { ...ZERO_USAGE, inputTokens: 10, outputTokens: 1 } };
        },
      };
    };
    expect(await runToolLoop({ ...base, model: failing(3), tools: [echo], maxTurns: 10, recover: true })).toMatchObject({
      stop: 'error',
      turns: 2,
      error: 'the Anthropic API kept failing after 5 attempts',
      usage: { inputTokens: 20, outputTokens: 2 },
      toolCalls: { echo: 2 },
    });
    await expect(runToolLoop({ ...base, model: failing(3), tools: [echo], maxTurns: 10 })).rejects.toThrow(/kept failing/);
    const inboxDown = await runToolLoop({
      ...base,
      model: failing(99),
      tools: [echo],
      maxTurns: 10,
      recover: true,
      between: async (turn) => (turn === 2 ? Promise.reject(new Error('crew/state could not be fetched')) : {}),
    });
    expect(inboxDown).toMatchObject({ stop: 'error', turns: 1, error: 'crew/state could not be fetched' });
    const big = { ...base, model: scriptedModel(many(5)), tools: [echo], maxTurns: 5, recover: true };
    const summaryDown = await runToolLoop({
      ...big,
      compaction: { budgetTokens: 10, summarize: () => Promise.reject(new Error('summarizer: 529 overloaded')) },
    });
    expect(summaryDown).toMatchObject({ stop: 'error', error: 'summarizer: 529 overloaded' });
  });

  it('a cancelled job stops as interrupted, not as an error, even when the cancellation lands in compaction or between turns', async () => {
    const controller = new AbortController();
    const model = scriptedModel([[use('echo', { n: 1 })], [use('echo', { n: 2 })]]);
    const out = await runToolLoop({
      ...base,
      model,
      tools: [echo],
      maxTurns: 5,
      recover: true,
      signal: controller.signal,
      between: async (turn) => {
        if (turn === 2) {
          controller.abort();
          throw new Error('the inbox read was cut off');
        }
        return {};
      },
    });
    expect(out).toMatchObject({ stop: 'interrupted', turns: 1 });
    expect(out.error).toBeUndefined();
  });

  it('before sending, a tool result too large for the context budget is cut, head and tail kept, with a note the model reads', async () => {
    const huge: AgentTool = {
      spec: { name: 'read_file', description: 'read', input_schema: { type: 'object' } },
      run: () => `START\n${'x'.repeat(200_000)}\nEND`,
    };
    const model = scriptedModel([[use('read_file', {}, 'toolu_big')], [use('echo', {}, 'toolu_after')]]);
    const out = await runToolLoop({
      ...base,
      model,
      tools: [huge, echo],
      maxTurns: 2,
      compaction: { budgetTokens: 10_000, summarize: async () => ({ summary: 's', usage: ZERO_USAGE }) },
    });
    const sent = model.requests[1]!;
    const result = sent.messages.at(-1)!.content[0] as { type: string; tool_use_id: string; content: string };
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_big' });
    expect(result.content).toMatch(/^START\n/);
    expect(result.content).toMatch(/\nEND$/);
    expect(result.content).toMatch(/crew cut \d+ characters of this tool result to keep the prompt within the context budget/);
    expect(estimateTokens(base.system, sent.tools, sent.messages)).toBeLessThanOrEqual(10_000);
    expect(out.cutResults).toBe(1);
  });

  it('before sending, compacts when the next prompt would pass the budget, even if the last turn was small', async () => {
    // The model reports tiny prompts, so only the pre-send estimate can see the conversation grow.
    const model = scriptedModel(many(30));
    const summarized: number[] = [];
    const wide: AgentTool = { spec: { name: 'echo', description: 'echo', input_schema: { type: 'object' } }, run: () => 'y'.repeat(3000) };
    await runToolLoop({
      ...base,
      model,
      tools: [wide],
      maxTurns: 30,
      compaction: { budgetTokens: 10_000, summarize: async (_p, m) => (summarized.push(m.length), { summary: 'read y many times', usage: ZERO_USAGE }) },
    });
    expect(summarized.length).toBeGreaterThan(0);
    for (const r of model.requests) expect(estimateTokens(base.system, r.tools, r.messages)).toBeLessThanOrEqual(8_500);
  });

  it('compacts long conversations: older turns become a summary, the newest exchanges stay word for word', async () => {
    const model: Model & { requests: ModelRequest[] } = {
      requests: [],
      async complete(req) {
        this.requests.push(structuredClone(req));
        const n = this.requests.length;
        const size = req.messages.reduce((s, m) => s + JSON.stringify(m).length, 0);
        return {
          content: n < 12 ? [use('echo', { n }, `toolu_${n}`)] : [use('done', {}, 'toolu_done')],
          stopReason: 'tool_use',
          usage: { ...ZERO_USAGE, inputTokens: Math.ceil(size / 4) },
        };
      },
    };
    const done: AgentTool = { final: true, spec: { name: 'done', description: 'done', input_schema: { type: 'object' } }, run: () => 'ok' };
    const folded: number[] = [];
    const out = await runToolLoop({
      ...base,
      model,
      tools: [echo, done],
      maxTurns: 20,
      compaction: {
        budgetTokens: 1000,
        summarize: async (previous, messages) => {
          folded.push(messages.length);
          return { summary: `${previous} [${messages.length} messages folded]`.trim(), usage: { ...ZERO_USAGE, inputTokens: 1 } };
        },
      },
    });
    expect(out.stop).toBe('final');
    expect(out.compactions).toBeGreaterThan(0);
    expect(Math.max(...out.promptTokens)).toBeLessThan(1000);
    // After a compaction the conversation starts afresh: one opening with the task, the summary, and the
    // latest exchange word for word as text (a new conversation cannot hold its tool calls or thinking).
    const i = model.requests.findIndex((r) => JSON.stringify(r.messages[0]).includes('Your work so far (summarised)'));
    const after = model.requests[i]!;
    expect(after.messages).toHaveLength(1);
    const text = (after.messages[0]!.content[0] as { text: string }).text;
    expect(text).toContain('Task: t1');
    const lastCall = model.requests[i - 1]!.messages.at(-1)!.content.find((b) => b.type === 'tool_result') as { content: string };
    // The newest turns (#49: three exchanges, not only the last), word for word.
    expect(text).toMatch(/## Your latest turns, word for word\n[^]*assistant called echo\(\{"n":\d+\}\)\ntool result: /);
    expect(text).toContain(`tool result: ${lastCall.content}`);
    expect(folded.every((n) => n > 0)).toBe(true);
    // Append-only in between: every request repeats the one before it (same system, tools and messages) and adds to it.
    for (let k = 1; k < model.requests.length; k++) {
      const [prev, next] = [model.requests[k - 1]!, model.requests[k]!];
      if (next.messages.length === 1) continue; // a fresh conversation after a compaction
      expect(next.system).toBe(prev.system);
      expect(next.tools).toEqual(prev.tools);
      expect(next.messages.slice(0, prev.messages.length)).toEqual(prev.messages);
    }
  });
});
