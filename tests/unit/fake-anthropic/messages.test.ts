import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { MODEL, VALID_HEADERS, alwaysReply, clientFor, fakeForTest, rawPost, sseEvents, systemFor, taskPrompt } from './helpers';

const workerScript = {
  entries: [
    {
      role: 'worker',
      replies: [
        { content: [{ type: 'text' as const, text: 'Looking at the repository layout first.' }] },
        {
          content: [
            { type: 'text' as const, text: 'Reading it.' },
            { type: 'tool_use' as const, name: 'read_file', input: { path: 'src/index.ts', lines: [1, 40] } },
          ],
        },
      ],
    },
  ],
};

const request = (turn: 0 | 1) => ({
  model: MODEL,
  max_tokens: 512,
  system: systemFor('worker'),
  messages: [
    { role: 'user' as const, content: taskPrompt('t1') },
    ...(turn === 1
      ? [
          { role: 'assistant' as const, content: 'Looking at the repository layout first.' },
          { role: 'user' as const, content: 'Go on.' },
        ]
      : []),
  ],
});

describe('fake Anthropic messages', () => {
  it('answers a non-streaming create with the full message shape', async () => {
    const fake = await fakeForTest({ script: workerScript });
    const message = await clientFor(fake).messages.create(request(0));

    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'text', text: 'Looking at the repository layout first.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(message.id).toMatch(/^msg_/);
    expect(message.usage.output_tokens).toBe(Math.ceil('Looking at the repository layout first.'.length / 4));
    expect(fake.requests[0]).toMatchObject({ stream: false, outcome: 200, role: 'worker', task: 't1', turn: 0 });
  });

  it('streams text through MessageStream.finalMessage', async () => {
    const fake = await fakeForTest({ script: workerScript });
    const stream = clientFor(fake).messages.stream(request(0));
    const textDeltas: string[] = [];
    stream.on('text', (delta) => textDeltas.push(delta));
    const message = await stream.finalMessage();

    expect(message.content).toEqual([{ type: 'text', text: 'Looking at the repository layout first.' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(textDeltas.join('')).toBe('Looking at the repository layout first.');
    expect(fake.requests[0]).toMatchObject({ stream: true, outcome: 200 });
  });

  it('streams tool_use input as partial JSON chunks', async () => {
    const fake = await fakeForTest({ script: workerScript });
    const stream = clientFor(fake).messages.stream(request(1));
    const partials: string[] = [];
    stream.on('inputJson', (partial) => partials.push(partial));
    const message = await stream.finalMessage();

    expect(message.stop_reason).toBe('tool_use');
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Reading it.' });
    expect(message.content[1]).toMatchObject({
      type: 'tool_use',
      name: 'read_file',
      input: { path: 'src/index.ts', lines: [1, 40] },
    });
    expect((message.content[1] as { id: string }).id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(partials.length).toBeGreaterThan(1);
    expect(partials.join('')).toBe(JSON.stringify({ path: 'src/index.ts', lines: [1, 40] }));
  });

  it('sends SSE events in the real order with usage on message_start and message_delta', async () => {
    const fake = await fakeForTest({ script: workerScript });
    const response = await rawPost(fake, { ...request(1), stream: true }, VALID_HEADERS);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(await response.text());
    for (const { event, data } of events) expect(data.type).toBe(event);

    const names = events.map((e) => e.event).filter((name) => name !== 'content_block_delta');
    expect(names).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const start = events[0]?.data.message as { content: unknown[]; stop_reason: unknown; usage: Record<string, number> };
    expect(start.content).toEqual([]);
    expect(start.stop_reason).toBeNull();
    expect(start.usage).toMatchObject({ output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    expect(start.usage.input_tokens).toBe(fake.requests[0]?.usage?.input_tokens);
    const toolStart = events.find((e) => e.event === 'content_block_start' && e.data.index === 1);
    expect(toolStart?.data.content_block).toMatchObject({ type: 'tool_use', name: 'read_file', input: {} });
    const delta = events.find((e) => e.event === 'message_delta')?.data;
    expect(delta).toMatchObject({
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: fake.requests[0]?.usage?.output_tokens },
    });
  });

  describe('auth', () => {
    it('accepts a hand-set x-api-key header and records it', async () => {
      const fake = await fakeForTest({ script: alwaysReply(), apiKeys: ['key-1'] });
      const client = clientFor(fake, { apiKey: 'key-1', defaultHeaders: { 'X-Api-Key': 'key-1', Authorization: null } });
      await client.messages.create(request(0));
      expect(fake.requests[0]?.auth).toBe('x-api-key');
    });

    it('accepts Authorization: Bearer from authToken and records it', async () => {
      const fake = await fakeForTest({ script: alwaysReply(), apiKeys: ['token-1'] });
      await clientFor(fake, { apiKey: null, authToken: 'token-1' }).messages.create(request(0));
      expect(fake.requests[0]?.auth).toBe('bearer');
    });

    it('rejects an unknown key with 401 authentication_error', async () => {
      const fake = await fakeForTest({ script: alwaysReply(), apiKeys: ['key-1'] });
      const error = await clientFor(fake, { apiKey: 'other' })
        .messages.create(request(0))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
      expect(error).toMatchObject({ status: 401, type: 'authentication_error' });
      expect(fake.requests[0]?.outcome).toBe(401);
    });

    it('rejects a request without credentials, in the real error shape', async () => {
      const fake = await fakeForTest({ script: alwaysReply() });
      const response = await rawPost(fake, request(0), { 'anthropic-version': '2023-06-01' });
      expect(response.status).toBe(401);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toEqual({
        type: 'error',
        error: { type: 'authentication_error', message: 'x-api-key header is required' },
        request_id: response.headers.get('request-id'),
      });
      expect(body.request_id).toMatch(/^req_/);
      expect(fake.requests[0]?.auth).toBe('none');
    });

    it('requires the anthropic-version header', async () => {
      const fake = await fakeForTest({ script: alwaysReply() });
      const missing = await rawPost(fake, request(0), { 'x-api-key': 'k' });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({
        error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' },
      });
      expect((await rawPost(fake, request(0), VALID_HEADERS)).status).toBe(200);
    });
  });

  describe('models', () => {
    it('answers an unknown model with 404 not_found_error', async () => {
      const fake = await fakeForTest({ script: alwaysReply() });
      const error = await clientFor(fake)
        .messages.create({ ...request(0), model: 'claude-nonexistent-1' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.NotFoundError);
      expect(error).toMatchObject({ status: 404, type: 'not_found_error', apiMessage: 'model: claude-nonexistent-1' });
    });

    it('knows the default models and accepts ids the predicate allows', async () => {
      const fake = await fakeForTest({ script: alwaysReply(), acceptModel: (id) => id.startsWith('claude-test-') });
      // Raw requests: the SDK would print deprecation warnings for some of these ids.
      for (const model of ['claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-opus-4-5', 'claude-test-x']) {
        expect((await rawPost(fake, { ...request(0), model }, VALID_HEADERS)).status).toBe(200);
      }
      expect((await rawPost(fake, { ...request(0), model: 'claude-other-x' }, VALID_HEADERS)).status).toBe(404);
    });

    it('uses an explicit model list instead of the defaults', async () => {
      const fake = await fakeForTest({ script: alwaysReply(), models: ['only-this'] });
      const client = clientFor(fake);
      await expect(client.messages.create({ ...request(0), model: 'only-this' })).resolves.toBeDefined();
      await expect(client.messages.create(request(0))).rejects.toMatchObject({ status: 404 });
    });
  });
});
