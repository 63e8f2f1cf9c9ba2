import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/agents/summarizer';
import { runToolLoop, type AgentTool } from '../../../src/agents/tool-loop';
import { ZERO_USAGE } from '../../../src/domain/run-state';
import type { Log, Model, ModelReply, ModelRequest } from '../../../src/ports';

/**
 * What crew does with each stop_reason the Messages API can end a reply with
 * (docs.claude.com/en/api/handling-stop-reasons): a reply cut at max_tokens or at the context
 * window runs none of its tool calls; a refusal ends the loop visibly; pause_turn is sent back to
 * be continued. And the summarizer never loses turns to a cut-off summary.
 */
const warnings: string[] = [];
const log: Log = { info: () => undefined, warn: (m) => warnings.push(m), checkpoint: () => undefined };

type Scripted = { content: ModelReply['content']; stop: ModelReply['stopReason'] };
function model(replies: Scripted[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async complete(req) {
      requests.push(structuredClone(req));
      const r = replies[requests.length - 1];
      if (!r) throw new Error(`no reply scripted for request ${requests.length}`);
      return { content: r.content, stopReason: r.stop, usage: { ...ZERO_USAGE, inputTokens: 10, outputTokens: 2 } };
    },
  };
}

const ran: unknown[] = [];
const write: AgentTool = { spec: { name: 'write_file', description: 'w', input_schema: { type: 'object' } }, run: (i) => (ran.push(i), 'wrote') };
const edit: AgentTool = { spec: { name: 'edit_file', description: 'e', input_schema: { type: 'object' } }, run: (i) => (ran.push(i), 'edited') };
const done: AgentTool = { final: true, spec: { name: 'done', description: 'd', input_schema: { type: 'object' } }, run: () => 'ok' };
const base = {
  modelId: 'claude-test',
  system: "You are crew's worker.",
  firstMessage: 'Task: t1',
  log,
  tools: [write, edit, done],
  maxTurns: 6,
  maxTokens: 8000,
};
const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use' as const, id, name, input });

describe('runToolLoop by stop_reason', () => {
  it('max_tokens: the cut tool call is not run; its tool_result says why and how much room there is; the next reply goes on', async () => {
    ran.length = 0;
    const m = model([
      { content: [use('toolu_cut', 'write_file', { path: 'a.ts' })], stop: 'max_tokens' },
      { content: [use('toolu_w', 'write_file', { path: 'a.ts', content: 'part 1' })], stop: 'tool_use' },
      { content: [use('toolu_d', 'done', {})], stop: 'tool_use' },
    ]);
    const out = await runToolLoop({ ...base, model: m });
    expect(out.stop).toBe('final');
    expect(ran).toEqual([{ path: 'a.ts', content: 'part 1' }]);
    const answer = m.requests[1]!.messages.at(-1)!;
    expect(answer.role).toBe('user');
    expect(answer.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_cut', is_error: true })]);
    const text = (answer.content[0] as { content: string }).content;
    expect(text).toContain('crew did not run this write_file call');
    expect(text).toContain('cut off');
    expect(text).toContain('8000 tokens');
    expect(text).toContain('in parts');
    expect(warnings.some((w) => /cut off \(stop_reason max_tokens\)/.test(w))).toBe(true);
  });

  it('max_tokens in plain text: the model is told in a user message', async () => {
    const m = model([
      { content: [{ type: 'text', text: 'Let me explain at length' }], stop: 'max_tokens' },
      { content: [use('toolu_d', 'done', {})], stop: 'tool_use' },
    ]);
    expect((await runToolLoop({ ...base, model: m })).stop).toBe('final');
    const last = m.requests[1]!.messages.at(-1)!;
    expect(last.role).toBe('user');
    expect(JSON.stringify(last.content)).toContain('reached the output limit of 8000 tokens');
  });

  it('refusal: no tool runs, and the loop ends with a visible error (or throws without recover)', async () => {
    ran.length = 0;
    const refusing = () => model([{ content: [use('toolu_r', 'write_file', { path: 'a.ts', content: 'x' })], stop: 'refusal' }]);
    expect(await runToolLoop({ ...base, model: refusing(), recover: true })).toMatchObject({
      stop: 'error',
      error: expect.stringMatching(/refused to continue \(stop_reason refusal\)/),
    });
    await expect(runToolLoop({ ...base, model: refusing() })).rejects.toThrow(/refused/);
    expect(ran).toEqual([]);
  });

  it('pause_turn: the paused reply is sent back unchanged, as the last message, for the model to continue', async () => {
    const m = model([
      { content: [{ type: 'text', text: 'Working on it' }], stop: 'pause_turn' },
      { content: [use('toolu_d', 'done', {})], stop: 'tool_use' },
    ]);
    expect((await runToolLoop({ ...base, model: m })).stop).toBe('final');
    expect(m.requests[1]!.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Working on it' }] });
  });

  it('model_context_window_exceeded: the tool call is not run; older turns are summarised; without compaction it is an error', async () => {
    ran.length = 0;
    const replies = (): Scripted[] => [
      { content: [use('toolu_1', 'edit_file', { path: 'a' })], stop: 'tool_use' },
      { content: [use('toolu_2', 'edit_file', { path: 'b' })], stop: 'tool_use' },
      { content: [use('toolu_3', 'write_file', { path: 'c' })], stop: 'model_context_window_exceeded' },
      { content: [use('toolu_d', 'done', {})], stop: 'tool_use' },
    ];
    let summaries = 0;
    const m = model(replies());
    const out = await runToolLoop({
      ...base,
      model: m,
      compaction: { budgetTokens: 1_000_000, summarize: async () => (summaries++, { summary: 'edited a and b', usage: ZERO_USAGE }) },
    });
    expect(out).toMatchObject({ stop: 'final', compactions: 1 });
    expect(summaries).toBe(1);
    // The next request is a fresh conversation: one opening with the summary, the cut call and the note why.
    const fresh = m.requests[3]!.messages;
    expect(fresh).toHaveLength(1);
    const opening = JSON.stringify(fresh[0]);
    expect(opening).toContain('edited a and b');
    expect(opening).toContain('Your latest turns, word for word');
    expect(opening).toContain('write_file');
    expect(opening).toContain("the conversation reached the model's context window");
    expect(ran).toEqual([{ path: 'a' }, { path: 'b' }]);
    expect(await runToolLoop({ ...base, model: model(replies()), recover: true })).toMatchObject({
      stop: 'error',
      error: expect.stringMatching(/context window/),
    });
  });
});

describe('summarize by stop_reason', () => {
  const turns = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'wrote a.ts' }] }];
  it('a summary cut at max_tokens is asked again with twice the room', async () => {
    const m = model([
      { content: [{ type: 'text', text: 'Files chan' }], stop: 'max_tokens' },
      { content: [{ type: 'text', text: 'Files changed: a.ts' }], stop: 'end_turn' },
    ]);
    expect((await summarize(m, 'claude-test', 'sys', 'before', turns, 2048)).summary).toBe('Files changed: a.ts');
    expect(m.requests.map((r) => r.maxTokens)).toEqual([2048, 4096]);
  });

  it('one still cut at 64,000 tokens, refused, or empty fails visibly instead of keeping the previous summary', async () => {
    const cut = model([
      { content: [{ type: 'text', text: 'x' }], stop: 'max_tokens' },
      { content: [{ type: 'text', text: 'x' }], stop: 'max_tokens' },
    ]);
    await expect(summarize(cut, 'claude-test', 'sys', 'before', turns, 32_000)).rejects.toThrow(
      /cut off \(stop_reason max_tokens\) at 64000 output tokens; raise max_output_tokens.summarizer/,
    );
    expect(cut.requests.map((r) => r.maxTokens)).toEqual([32_000, 64_000]);
    await expect(summarize(model([{ content: [{ type: 'text', text: 'no' }], stop: 'refusal' }]), 'm', 's', 'before', turns)).rejects.toThrow(/refused/);
    await expect(
      summarize(model([{ content: [{ type: 'thinking', thinking: 'hm', signature: 's' }], stop: 'end_turn' }]), 'm', 's', 'before', turns),
    ).rejects.toThrow(/came back empty/);
  });
});
