import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { inputTokens, type MessagesRequest } from '../../support/anthropic';
import { MODEL, alwaysReply, clientFor, fakeForTest, systemFor, taskPrompt } from './helpers';

type Params = Anthropic.MessageCreateParamsNonStreaming;

/** The documented rule, restated independently of the implementation. */
const tokens = (block: unknown) => Math.ceil(Buffer.byteLength(JSON.stringify(block), 'utf8') / 4);
const text = (value: string) => ({ type: 'text' as const, text: value });
const cc = { type: 'ephemeral' as const };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** About 1,200 tokens of filler, distinct per seed. */
const big = (seed: string) => `${seed} ${'lorem ipsum dolor '.repeat(270)}`;

describe('fake Anthropic usage rule', () => {
  it('counts canonical blocks and output blocks as documented', async () => {
    const fake = await fakeForTest({
      script: {
        entries: [],
        respond: () => ({
          content: [
            { type: 'text', text: 'Voilà — fini' },
            { type: 'tool_use', name: 'write_file', input: { path: 'b.ts', body: 'été' } },
          ],
        }),
      },
    });
    const tool = { name: 'read_file', description: 'Lire un fichier — déjà vu', input_schema: { type: 'object' as const } };
    const toolUse = { type: 'tool_use' as const, id: 'toolu_x', name: 'read_file', input: { path: 'é.ts' } };
    const toolResult = { type: 'tool_result' as const, tool_use_id: 'toolu_x', content: 'contenu' };
    const params: Params = {
      model: MODEL,
      max_tokens: 300,
      tools: [{ ...tool, cache_control: cc }],
      system: systemFor('worker'),
      messages: [
        { role: 'user', content: taskPrompt('t1') },
        { role: 'assistant', content: [text('Je lis.'), toolUse] },
        { role: 'user', content: [toolResult] },
      ],
    };

    const message = await clientFor(fake).messages.create(params);

    const expectedInput =
      tokens(tool) + tokens(text(systemFor('worker'))) + tokens(text(taskPrompt('t1'))) + tokens(text('Je lis.')) + tokens(toolUse) + tokens(toolResult);
    const expectedOutput =
      Math.ceil(Buffer.byteLength('Voilà — fini') / 4) + Math.ceil(Buffer.byteLength('write_file' + JSON.stringify({ path: 'b.ts', body: 'été' })) / 4);
    // The tool's breakpoint prefix is under the model's minimum (4,096 tokens for Haiku 4.5), so nothing is cached.
    expect(message.usage).toMatchObject({
      input_tokens: expectedInput,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: expectedOutput,
    });
    expect(inputTokens(params as MessagesRequest)).toBe(expectedInput);
    expect(fake.requests[0]?.usage).toEqual(message.usage);
  });

  it('sums usage over served requests, optionally per role', async () => {
    const fake = await fakeForTest({ script: alwaysReply('four') });
    const client = clientFor(fake);
    const ask = (role: string) =>
      client.messages.create({
        model: MODEL,
        max_tokens: 50,
        system: systemFor(role),
        messages: [{ role: 'user', content: 'hi' }],
      });
    const [a, b, c] = [await ask('worker'), await ask('critic'), await ask('critic')];
    await client.messages.create({ model: 'nope', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch(() => {});

    expect(fake.usageTotals()).toEqual({
      requests: 3,
      input_tokens: a.usage.input_tokens + b.usage.input_tokens + c.usage.input_tokens,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      output_tokens: 3,
    });
    expect(fake.usageTotals('critic')).toMatchObject({ requests: 2, input_tokens: b.usage.input_tokens * 2 });
  });
});

describe('fake Anthropic prompt caching', () => {
  /** A model whose documented minimum cacheable length is 1,024 tokens. */
  const MODEL = 'claude-sonnet-4-5';
  const cachedSystem = (body: string, ttl?: '5m' | '1h') => [{ ...text(systemFor('worker') + body), cache_control: ttl ? { ...cc, ttl } : cc }];
  const ask = (system: Params['system'], question: string, model = MODEL): Params => ({
    model,
    max_tokens: 100,
    system,
    messages: [{ role: 'user', content: question }],
  });

  it('writes a breakpoint prefix, reads it back on an identical prefix, and misses after a one-byte change', async () => {
    const fake = await fakeForTest({ script: alwaysReply() });
    const client = clientFor(fake);
    const system = cachedSystem(big('alpha'));
    const prefix = tokens(text(systemFor('worker') + big('alpha')));
    expect(prefix).toBeGreaterThan(1024);

    const first = await client.messages.create(ask(system, 'first question'));
    expect(first.usage).toMatchObject({
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
      input_tokens: tokens(text('first question')),
    });
    expect(first.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: prefix, ephemeral_1h_input_tokens: 0 });

    const second = await client.messages.create(ask(system, 'second one'));
    expect(second.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: prefix,
      input_tokens: tokens(text('second one')),
    });

    const changed = cachedSystem(big('alphA'));
    const third = await client.messages.create(ask(changed, 'second one'));
    expect(third.usage).toMatchObject({ cache_creation_input_tokens: prefix, cache_read_input_tokens: 0 });

    // One byte in a tool definition, blocks before the unchanged breakpoint block.
    const withTool = (description: string): Params => ({
      ...ask(system, 'q'),
      tools: [{ name: 'grep', description, input_schema: { type: 'object' } }],
    });
    await client.messages.create(withTool('Search files.'));
    expect((await client.messages.create(withTool('Search files.'))).usage.cache_read_input_tokens).toBeGreaterThan(prefix);
    const toolChanged = await client.messages.create(withTool('Search files!'));
    expect(toolChanged.usage).toMatchObject({ cache_read_input_tokens: 0 });
    expect(toolChanged.usage.cache_creation_input_tokens).toBeGreaterThan(prefix);

    const otherModel = await client.messages.create(ask(system, 'second one', 'claude-sonnet-5'));
    expect(otherModel.usage).toMatchObject({ cache_creation_input_tokens: prefix, cache_read_input_tokens: 0 });
  });

  it('does not cache prefixes below minCacheTokens', async () => {
    const fake = await fakeForTest({ script: alwaysReply(), minCacheTokens: 2000 });
    const client = clientFor(fake);
    const system = cachedSystem(big('small'));
    const total = tokens(text(systemFor('worker') + big('small'))) + tokens(text('q'));

    for (let i = 0; i < 2; i++) {
      const { usage } = await client.messages.create(ask(system, 'q'));
      expect(usage).toMatchObject({ input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    }
  });

  it("caches a prefix only from each model's documented minimum length", async () => {
    const fake = await fakeForTest({ script: alwaysReply() });
    const client = clientFor(fake);
    // About 3,000 and 5,000 tokens.
    const mid = cachedSystem(big('mid') + big('mid2'));
    const long = cachedSystem(big('long1') + big('long2') + big('long3') + big('long4'));
    const written = async (system: Params['system'], model: string) =>
      (await client.messages.create(ask(system, 'q', model))).usage.cache_creation_input_tokens;
    expect(tokens(text(systemFor('worker') + big('mid') + big('mid2')))).toBeGreaterThan(2048);
    expect(tokens(text(systemFor('worker') + big('mid') + big('mid2')))).toBeLessThan(4096);
    // 1,024: Sonnet 4.5; 2,048: Sonnet 5.5 (the family's largest); 4,096: Haiku 4.5, Haiku 5.5, Opus 5.5.
    expect(await written(mid, 'claude-sonnet-4-5')).toBeGreaterThan(0);
    expect(await written(mid, 'claude-sonnet-5-5')).toBeGreaterThan(0);
    for (const model of ['claude-haiku-4-5', 'claude-haiku-5-5', 'claude-opus-5-5']) expect(await written(mid, model)).toBe(0);
    for (const model of ['claude-haiku-5-5', 'claude-opus-5-5']) expect(await written(long, model)).toBeGreaterThan(4096);
  });

  describe('lookback', () => {
    const turn1 = [
      { role: 'user' as const, content: taskPrompt('t1') + big('context') },
      { role: 'assistant' as const, content: 'a1' },
    ];
    // The agent moves its breakpoint to the newest user block every turn.
    const firstRequest: Params = {
      model: MODEL,
      max_tokens: 100,
      system: systemFor('worker'),
      messages: [...turn1, { role: 'user', content: [{ ...text('u2'), cache_control: cc }] }],
    };
    const laterRequest: Params = {
      model: MODEL,
      max_tokens: 100,
      system: systemFor('worker'),
      messages: [
        ...turn1,
        { role: 'user', content: [text('u2')] },
        { role: 'assistant', content: 'a2' },
        { role: 'user', content: [{ ...text('u3'), cache_control: cc }] },
      ],
    };
    const throughU2 = tokens(text(systemFor('worker'))) + tokens(text(taskPrompt('t1') + big('context'))) + tokens(text('a1')) + tokens(text('u2'));
    const afterU2 = tokens(text('a2')) + tokens(text('u3'));

    it('hits an earlier breakpoint prefix within the lookback window', async () => {
      const fake = await fakeForTest({ script: alwaysReply() });
      const client = clientFor(fake);
      expect((await client.messages.create(firstRequest)).usage.cache_creation_input_tokens).toBe(throughU2);

      const { usage } = await client.messages.create(laterRequest);
      expect(usage).toMatchObject({ cache_read_input_tokens: throughU2, cache_creation_input_tokens: afterU2, input_tokens: 0 });
    });

    it('looks back 20 blocks by default: a turn of twelve parallel calls hides the last breakpoint unless a second one marks the turn before', async () => {
      const fake = await fakeForTest({ script: alwaysReply() });
      const client = clientFor(fake);
      const calls = Array.from({ length: 12 }, (_, i) => ({ type: 'tool_use' as const, id: `toolu_${i}`, name: 'read_file', input: { path: `f${i}.ts` } }));
      const results = calls.map((c) => ({ type: 'tool_result' as const, tool_use_id: c.id, content: `contents of ${c.id}` }));
      const mark = <T extends object>(block: T) => ({ ...block, cache_control: cc });
      const opening = { role: 'user' as const, content: [text(big('task'))] };
      // The previous request's breakpoint sat on the opening's last block.
      await client.messages.create({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: [mark(text(big('task')))] }] });
      const wide = (second: boolean): Params => ({
        model: MODEL,
        max_tokens: 100,
        messages: [
          second ? { role: 'user', content: [mark(text(big('task')))] } : opening,
          { role: 'assistant', content: [text('Reading twelve files.'), ...calls] },
          { role: 'user', content: [...results.slice(0, -1), mark(results.at(-1)!)] },
        ],
      });
      // 13 assistant blocks and 12 results: the opening is 25 blocks back from the last breakpoint.
      expect((await client.messages.create(wide(false))).usage.cache_read_input_tokens).toBe(0);
      const fresh = await fakeForTest({ script: alwaysReply() });
      const again = clientFor(fresh);
      await again.messages.create({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: [mark(text(big('task')))] }] });
      expect((await again.messages.create(wide(true))).usage.cache_read_input_tokens).toBe(tokens(text(big('task'))));
    });

    it('misses when the earlier prefix is further back than cacheLookbackBlocks', async () => {
      const fake = await fakeForTest({ script: alwaysReply(), cacheLookbackBlocks: 2 });
      const client = clientFor(fake);
      await client.messages.create(firstRequest);

      const { usage } = await client.messages.create(laterRequest);
      expect(usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: throughU2 + afterU2 });
    });
  });

  it('attributes written tokens to the TTL of each breakpoint', async () => {
    const fake = await fakeForTest({ script: alwaysReply() });
    const system = cachedSystem(big('ttl'), '1h');
    const { usage } = await clientFor(fake).messages.create({
      ...ask(system, ''),
      messages: [{ role: 'user', content: [{ ...text(big('question')), cache_control: cc }] }],
    });
    expect(usage.cache_creation).toEqual({
      ephemeral_1h_input_tokens: tokens(text(systemFor('worker') + big('ttl'))),
      ephemeral_5m_input_tokens: tokens(text(big('question'))),
    });
    expect(usage.input_tokens).toBe(0);
  });

  it('expires entries after their TTL in scaled time', async () => {
    // 5 minutes become 300 ms, one hour 3.6 s: wide margins for a busy machine.
    const fake = await fakeForTest({ script: alwaysReply(), timeScale: 0.001 });
    const client = clientFor(fake);
    const shortLived = cachedSystem(big('short'));
    const longLived = cachedSystem(big('long'), '1h');
    await client.messages.create(ask(shortLived, 'q'));
    await client.messages.create(ask(longLived, 'q'));
    expect((await client.messages.create(ask(shortLived, 'q'))).usage.cache_read_input_tokens).toBeGreaterThan(0);

    await sleep(400);
    const expired = await client.messages.create(ask(shortLived, 'q'));
    expect(expired.usage).toMatchObject({ cache_read_input_tokens: 0 });
    expect(expired.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect((await client.messages.create(ask(longLived, 'q'))).usage.cache_read_input_tokens).toBeGreaterThan(0);
  });

  it('restarts the TTL of an entry on every read', async () => {
    // 5 minutes become 300 ms. The entry ending at 'u2' is only ever read, never rewritten, after
    // the first request, so the last read 400 ms later hits only because the middle read refreshed it.
    const fake = await fakeForTest({ script: alwaysReply(), timeScale: 0.001 });
    const client = clientFor(fake);
    const conversation = (...tail: string[]): Params => ({
      model: MODEL,
      max_tokens: 100,
      messages: [
        { role: 'user', content: big('refresh') },
        { role: 'assistant', content: 'a1' },
        ...tail.map((content, i) => ({
          role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
          content: [{ ...text(content), ...(i === tail.length - 1 ? { cache_control: cc } : {}) }],
        })),
      ],
    });
    await client.messages.create(conversation('u2'));
    await sleep(200);
    expect((await client.messages.create(conversation('u2', 'a2', 'u3'))).usage.cache_read_input_tokens).toBeGreaterThan(0);
    await sleep(200);
    const { usage } = await client.messages.create(conversation('u2', 'other', 'u3'));
    expect(usage.cache_read_input_tokens).toBe(tokens(text(big('refresh'))) + tokens(text('a1')) + tokens(text('u2')));
  });

  it('makes an entry readable only once the writing response has started', async () => {
    const fake = await fakeForTest({ script: alwaysReply(), latency: { perRequestMs: 50 } });
    const client = clientFor(fake);
    const system = cachedSystem(big('parallel'));
    const parallel = await Promise.all([client.messages.create(ask(system, 'a')), client.messages.create(ask(system, 'b'))]);
    for (const { usage } of parallel) expect(usage).toMatchObject({ cache_read_input_tokens: 0 });

    expect((await client.messages.create(ask(system, 'c'))).usage.cache_read_input_tokens).toBeGreaterThan(0);
  });
});
