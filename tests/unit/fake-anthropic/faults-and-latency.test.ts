import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it, vi } from 'vitest';
import type { Script } from '../../support/anthropic';
import { MODEL, VALID_HEADERS, clientFor, fakeForTest, rawPost, systemFor, taskPrompt } from './helpers';

const FULL_TEXT = 'The plan has three steps and this sentence is long enough to stream in pieces.';
const script: Script = { entries: [{ role: 'worker', replies: [{ content: [{ type: 'text', text: FULL_TEXT }] }] }] };
const ask = (role = 'worker', turns = 0): Anthropic.MessageCreateParamsNonStreaming => ({
  model: MODEL,
  max_tokens: 200,
  system: systemFor(role),
  messages: [
    { role: 'user', content: taskPrompt('t1') },
    ...Array.from({ length: turns }, () => [
      { role: 'assistant' as const, content: 'earlier' },
      { role: 'user' as const, content: 'go on' },
    ]).flat(),
  ],
});
const outcomes = (fake: { requests: Array<{ outcome: unknown }> }) => fake.requests.map((r) => r.outcome);

async function elapsedMs(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

describe('fake Anthropic faults', () => {
  it('answers 429 with rate_limit_error and retry-after (plus the scaled retry-after-ms)', async () => {
    const fake = await fakeForTest({ script, timeScale: 0.01, faults: [{ kind: '429', retryAfterSeconds: 60 }] });
    const response = await rawPost(fake, ask(), VALID_HEADERS);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(response.headers.get('retry-after-ms')).toBe('600');
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });

    const unscaled = await fakeForTest({ script, faults: [{ kind: '429', retryAfterSeconds: 1 }] });
    const plain = await rawPost(unscaled, ask(), VALID_HEADERS);
    expect(plain.headers.get('retry-after')).toBe('1');
    expect(plain.headers.has('retry-after-ms')).toBe(false);
  });

  it('has the SDK wait for retry-after on 429 and then succeed', async () => {
    // 80 s scaled by 0.01 is 800 ms, longer than the SDK's own first backoff (at most 500 ms).
    const fake = await fakeForTest({ script, timeScale: 0.01, faults: [{ kind: '429', retryAfterSeconds: 80 }] });
    const client = clientFor(fake, { maxRetries: 2 });
    let message: Anthropic.Message | undefined;
    const took = await elapsedMs(async () => (message = await client.messages.create(ask())));

    expect(took).toBeGreaterThanOrEqual(790);
    expect(message?.content).toEqual([{ type: 'text', text: FULL_TEXT }]);
    expect(outcomes(fake)).toEqual([429, 200]);
  });

  it('lets the SDK retry 529 overloaded_error and 500 api_error until it succeeds', async () => {
    const fake = await fakeForTest({ script, faults: [{ kind: '529' }, { kind: '500' }] });
    const message = await clientFor(fake, { maxRetries: 2 }).messages.create(ask());

    expect(message.content).toEqual([{ type: 'text', text: FULL_TEXT }]);
    expect(outcomes(fake)).toEqual([529, 500, 200]);
    expect(fake.requests.map((r) => r.error?.type)).toEqual(['overloaded_error', 'api_error', undefined]);
  });

  it('fails once retries are exhausted, consuming `times`', async () => {
    const fake = await fakeForTest({ script, faults: [{ kind: '529', times: 2 }] });
    const client = clientFor(fake);
    await expect(client.messages.create(ask())).rejects.toMatchObject({ status: 529, type: 'overloaded_error' });
    await expect(client.messages.create(ask())).rejects.toBeInstanceOf(Anthropic.InternalServerError);
    await expect(client.messages.create(ask())).resolves.toBeDefined();
    expect(outcomes(fake)).toEqual([529, 529, 200]);
  });

  it('breaks a stream midway with an error event the SDK surfaces without status and does not retry', async () => {
    const fake = await fakeForTest({ script, faults: [{ kind: 'midstream' }] });
    const stream = clientFor(fake, { maxRetries: 2 }).messages.stream(ask());
    let received = '';
    stream.on('text', (delta) => (received += delta));
    const error = await stream.finalMessage().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({ status: undefined, type: 'overloaded_error', apiMessage: 'Overloaded' });
    expect(received.length).toBeGreaterThan(0);
    expect(FULL_TEXT.startsWith(received) && received !== FULL_TEXT).toBe(true);
    expect(outcomes(fake)).toEqual(['midstream']);
  });

  it('leaves midstream faults for streaming requests', async () => {
    const fake = await fakeForTest({ script, faults: [{ kind: 'midstream' }] });
    const client = clientFor(fake);
    await expect(client.messages.create(ask())).resolves.toBeDefined();
    await expect(client.messages.stream(ask()).finalMessage()).rejects.toMatchObject({ type: 'overloaded_error' });
    expect(outcomes(fake)).toEqual([200, 'midstream']);
  });

  it('drops the connection without a response', async () => {
    const fake = await fakeForTest({ script, faults: [{ kind: 'drop', times: 2 }] });
    await expect(clientFor(fake).messages.create(ask())).rejects.toBeInstanceOf(Anthropic.APIConnectionError);

    const message = await clientFor(fake, { maxRetries: 1 }).messages.create(ask());
    expect(message.content).toEqual([{ type: 'text', text: FULL_TEXT }]);
    expect(outcomes(fake)).toEqual(['drop', 'drop', 200]);
  });

  it('only hits requests matching role and turn', async () => {
    const fake = await fakeForTest({
      script: {
        entries: [{ role: 'critic', replies: [{ content: [{ type: 'text', text: 'a' }] }, { content: [{ type: 'text', text: 'b' }] }] }, ...script.entries],
      },
      faults: [{ match: { role: 'critic', turn: 1 }, kind: '500' }],
    });
    const client = clientFor(fake);
    await client.messages.create(ask('worker'));
    await client.messages.create(ask('critic', 0));
    await expect(client.messages.create(ask('critic', 1))).rejects.toMatchObject({ status: 500 });
    expect(outcomes(fake)).toEqual([200, 200, 500]);
  });
});

describe('fake Anthropic latency', () => {
  // 1 s + 1 s scripted delay before the first token, then 50 ms per output token (20 tokens here): 3 s, scaled.
  const slowScript: Script = {
    entries: [{ role: 'worker', replies: [{ content: [{ type: 'text', text: 'x'.repeat(80) }], delay_ms: 1000 }] }],
  };
  const latency = { perRequestMs: 1000, perOutputTokenMs: 50 };

  it('waits the scaled latency for non-streaming and streaming requests', async () => {
    const fake = await fakeForTest({ script: slowScript, latency, timeScale: 0.1 });
    const client = clientFor(fake);
    expect(await elapsedMs(() => client.messages.create(ask()))).toBeGreaterThanOrEqual(290);

    const start = performance.now();
    let firstText = 0;
    const stream = client.messages.stream(ask());
    stream.once('text', () => (firstText = performance.now() - start));
    await stream.finalMessage();
    const total = performance.now() - start;
    expect(firstText).toBeGreaterThanOrEqual(200);
    expect(total).toBeGreaterThanOrEqual(290);
    expect(total - firstText).toBeGreaterThanOrEqual(50);
  });

  it('scales waits down with a tiny timeScale', async () => {
    const fake = await fakeForTest({ script: slowScript, latency, timeScale: 0.001 });
    expect(await elapsedMs(() => clientFor(fake).messages.create(ask()))).toBeLessThan(150);
  });

  it('takes the default timeScale from CREW_TIME_SCALE', async () => {
    vi.stubEnv('CREW_TIME_SCALE', '0.1');
    try {
      const fake = await fakeForTest({ script: slowScript, latency, timeScale: undefined });
      expect(await elapsedMs(() => clientFor(fake).messages.create(ask()))).toBeGreaterThanOrEqual(290);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('holds a reply marked `after` until the other task has asked, so parallel jobs run in a known order', async () => {
    const ordered: Script = {
      entries: [
        { role: 'worker', task: 't1', replies: [{ after: { role: 'worker', task: 't2', requests: 1 }, content: [{ type: 'text', text: 'after t2' }] }] },
        { role: 'worker', task: 't2', replies: [{ content: [{ type: 'text', text: 't2 here' }] }] },
      ],
    };
    const fake = await fakeForTest({ script: ordered });
    const client = clientFor(fake);
    const t2ask = { ...ask(), messages: [{ role: 'user' as const, content: taskPrompt('t2') }] };
    let t1Done = false;
    const t1 = client.messages.create(ask()).then((m) => ((t1Done = true), m));
    await new Promise((r) => setTimeout(r, 300));
    expect(t1Done).toBe(false);
    await client.messages.create(t2ask);
    expect((await t1).content).toEqual([{ type: 'text', text: 'after t2' }]);
    expect(fake.requests.map((r) => r.task)).toEqual(['t2', 't1']);
  });
});
