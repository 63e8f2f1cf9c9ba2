import Anthropic, { type ClientOptions } from '@anthropic-ai/sdk';
import { onTestFinished } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions, type Script } from '../../support/anthropic';

export const MODEL = 'claude-haiku-4-5';

/** Starts a fake that is closed when the current test finishes. */
export async function fakeForTest(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const fake = await startFakeAnthropic({ timeScale: 1, ...options });
  onTestFinished(() => fake.close());
  return fake;
}

export const clientFor = (fake: FakeAnthropic, options: ClientOptions = {}) =>
  new Anthropic({ baseURL: fake.url, apiKey: 'test-key', maxRetries: 0, ...options });

export const systemFor = (role: string) => `You are crew's ${role}. Work carefully.`;

export const taskPrompt = (task: string, attempt = 1) => `Task: ${task}\nAttempt: ${attempt}\nPlease do the work.`;

/** A script answering every request with the same text. */
export const alwaysReply = (text = 'ok'): Script => ({
  entries: [],
  respond: () => ({ content: [{ type: 'text', text }] }),
});

/** POSTs to the fake without the SDK, to control headers exactly. */
export function rawPost(fake: FakeAnthropic, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(`${fake.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export const VALID_HEADERS = { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' };

/** Parses an SSE body into its events, keeping `ping` (which the SDK hides). */
export function sseEvents(text: string): Array<{ event: string; data: Record<string, unknown> }> {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? 'null') as Record<string, unknown>;
      return { event, data };
    });
}
