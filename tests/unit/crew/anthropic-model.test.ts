import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModel, ModelError } from '../../../src/adapters/anthropic/model';
import type { Clock, Log, ModelRequest } from '../../../src/ports';
import { startFakeAnthropic, type FakeAnthropic } from '../../support/anthropic/index';

const warnings: string[] = [];
const log: Log = { info: () => undefined, warn: (m) => warnings.push(m), checkpoint: () => undefined };
const waits: number[] = [];
const clock: Clock = {
  now: () => new Date(),
  sleep: async (ms) => {
    waits.push(ms);
  },
};

const tools = [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }];
const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'claude-sonnet-5-5',
  system: "You are crew's worker.\n" + 'Follow the rules. '.repeat(700),
  tools,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Task: t1\nAttempt: 1\n\nRead the README.' }] }],
  maxTokens: 1024,
  ...extra,
});

describe('AnthropicModel against the fake Messages API', () => {
  let api: FakeAnthropic;
  beforeEach(async () => {
    waits.length = 0;
    warnings.length = 0;
    api = await startFakeAnthropic({
      script: {
        entries: [
          {
            role: 'worker',
            task: 't1',
            replies: [
              {
                content: [
                  { type: 'thinking', thinking: 'I should read it.' },
                  { type: 'text', text: 'Reading.' },
                  { type: 'tool_use', name: 'read_file', input: { path: 'README.md' } },
                ],
              },
              { content: [{ type: 'text', text: 'Done.' }] },
            ],
          },
        ],
      },
    });
    process.env.ANTHROPIC_BASE_URL = api.url;
  });
  afterEach(async () => {
    delete process.env.ANTHROPIC_BASE_URL;
    await api.close();
  });

  it('streams a reply with thinking, text and tool_use, and prices the usage', async () => {
    const reply = await new AnthropicModel('sk-ant-test-key-1234', clock, log).complete(request());
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(reply.content[2]).toMatchObject({ type: 'tool_use', name: 'read_file', input: { path: 'README.md' } });
    expect(reply.usage.outputTokens).toBeGreaterThan(0);
    expect(reply.usage.costUsd).toBeGreaterThan(0);
    expect(api.requests[0]!.stream).toBe(true);
  });

  it('sends to the ANTHROPIC_BASE_URL set when it was made, though the SDK loads only with the first request (#53)', async () => {
    const model = new AnthropicModel('sk-ant-test-key-1234', clock, log, { retryWaitMs: 0 });
    delete process.env.ANTHROPIC_BASE_URL;
    expect((await model.complete(request())).stopReason).toBe('tool_use');
    expect(api.requests).toHaveLength(1);
  });

  it('marks the stable prefix for caching, within the 4-breakpoint limit, and the next turn reads it from cache', async () => {
    const model = new AnthropicModel('sk-ant-test-key-1234', clock, log);
    const first = await model.complete(request());
    const body = api.requests[0]!.body;
    const marks = JSON.stringify(body).split('"cache_control"').length - 1;
    expect(marks).toBeGreaterThan(0);
    expect(marks).toBeLessThanOrEqual(4);
    expect((body.tools as Array<Record<string, unknown>>).at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    expect(first.usage.cacheWriteTokens).toBeGreaterThan(0);
    // The tool loop sends the reply back (thinking block untouched) with the tool result.
    const toolUse = first.content.find((b) => b.type === 'tool_use') as { id: string };
    const second = await model.complete(
      request({
        messages: [
          ...request().messages,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '# README' }] },
        ],
      }),
    );
    expect(second.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(second.usage.cacheReadTokens).toBeGreaterThanOrEqual(first.usage.cacheWriteTokens);
  });

  it('retries 429 (honouring retry-after), 529 and 500, then succeeds', async () => {
    api.addFaults([{ kind: '429', retryAfterSeconds: 7 }, { kind: '529' }, { kind: '500' }]);
    const reply = await new AnthropicModel('sk-ant-test-key-1234', clock, log).complete(request());
    expect(reply.stopReason).toBe('tool_use');
    expect(waits[0]).toBe(7000);
    expect(waits).toHaveLength(3);
    expect(warnings).toHaveLength(3);
  });

  it('retries an overloaded error in the middle of a stream, which the SDK itself does not', async () => {
    api.addFaults([{ kind: 'midstream' }]);
    const reply = await new AnthropicModel('sk-ant-test-key-1234', clock, log).complete(request());
    expect(reply.content).toHaveLength(3);
    expect(api.requests.map((r) => r.outcome)).toEqual(['midstream', 200]);
  });

  it('gives up after five attempts with a clear error', async () => {
    api.addFaults([{ kind: '529', times: 10 }]);
    // 1 + 2 + 4 + 8 s of waits fill a 15 s budget: the fifth failure is the last.
    await expect(new AnthropicModel('sk-ant-test-key-1234', clock, log, { retryWaitMs: 15_000 }).complete(request())).rejects.toThrow(
      /kept failing after 5 attempts/,
    );
  });

  it('retries for as long as the wait budget allows (api_retry_wait_seconds), and the error names the key', async () => {
    api.addFaults([{ kind: '529', times: 20 }]);
    const err = await new AnthropicModel('sk-ant-test-key-1234', clock, log, { retryWaitMs: async () => 100_000 }).complete(request()).catch((e: Error) => e);
    // 1+2+4+8+16+32 = 63 s; the next 60 s wait would pass 100 s.
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000]);
    expect(api.requests).toHaveLength(7);
    expect(String((err as Error).message)).toMatch(/kept failing after 7 attempts .*`api_retry_wait_seconds` \(100 s\)/);
  });

  it('retries a stream whose socket is reset mid-reply (the SDK reports "terminated"), using nothing of the broken reply', async () => {
    api.addFaults([{ kind: 'reset-midstream' }]);
    const reply = await new AnthropicModel('sk-ant-test-key-1234', clock, log).complete(request());
    expect(reply.content[2]).toMatchObject({ type: 'tool_use', name: 'read_file', input: { path: 'README.md' } });
    expect(api.requests.map((r) => r.outcome)).toEqual(['reset-midstream', 200]);
    expect(warnings[0]).toMatch(/stream broke off/);
  });

  it('retries a stream that ends without message_stop', async () => {
    api.addFaults([{ kind: 'eof-midstream' }]);
    const reply = await new AnthropicModel('sk-ant-test-key-1234', clock, log).complete(request());
    expect(reply.stopReason).toBe('tool_use');
    expect(api.requests.map((r) => r.outcome)).toEqual(['eof-midstream', 200]);
  });

  it('honours retry-after-ms and retry-after on a 529 as on a 429', async () => {
    api.addFaults([
      { kind: '529', retryAfterMs: 4500 },
      { kind: '529', retryAfterSeconds: 9 },
    ]);
    await new AnthropicModel('sk-ant-test-key-1234', clock, log).complete(request());
    expect(waits).toEqual([4500, 9000]);
  });

  it('a reply cut at max_tokens comes back as the SDK gives it: stop_reason max_tokens, the tool input cut short', async () => {
    await api.close();
    const content = 'x'.repeat(400);
    api = await startFakeAnthropic({
      script: {
        entries: [
          { role: 'worker', replies: [{ stop_reason: 'max_tokens', content: [{ type: 'tool_use', name: 'write_file', input: { path: 'a.ts', content } }] }] },
        ],
      },
    });
    process.env.ANTHROPIC_BASE_URL = api.url;
    const reply = await new AnthropicModel('sk-ant-test-key-1234', clock, log).complete(request());
    expect(reply.stopReason).toBe('max_tokens');
    const use = reply.content[0] as { type: string; input: { path?: string; content?: string } };
    expect(use.type).toBe('tool_use');
    expect(use.input.path).toBe('a.ts');
    expect(use.input.content ?? '').not.toBe(content);
    expect(api.requests[0]!.usage!.output_tokens).toBe(1024);
  });

  it('does not retry a request the API refuses', async () => {
    const err = await new AnthropicModel('sk-ant-test-key-1234', clock, log).complete(request({ model: 'claude-nonexistent-1' })).catch((e) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(String(err.message)).toMatch(/refused the request/);
    expect(api.requests).toHaveLength(1);
  });
});
