import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModel, ModelError } from '../../../src/adapters/anthropic/model';
import { withEffort } from '../../../src/agents/effort';
import { parseConfig } from '../../../src/config/schema';
import type { Clock, Log, ModelRequest } from '../../../src/ports';
import { startFakeAnthropic, type FakeAnthropic } from '../../support/anthropic/index';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
const clock: Clock = { now: () => new Date(), sleep: async () => undefined };
const ask = (model: string): ModelRequest => ({
  model,
  system: "You are crew's worker.",
  tools: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Task: t1\nAttempt: 1\n\nSay ok.' }] }],
  maxTokens: 1024,
});

describe('effort per role, sent as output_config.effort (#49)', () => {
  let api: FakeAnthropic;
  let model: AnthropicModel;
  beforeEach(async () => {
    api = await startFakeAnthropic({ script: { entries: [], respond: () => ({ content: [{ type: 'text', text: 'ok' }] }) } });
    process.env.ANTHROPIC_BASE_URL = api.url;
    model = new AnthropicModel('sk-ant-test-key-1234', clock, log);
  });
  afterEach(async () => {
    delete process.env.ANTHROPIC_BASE_URL;
    await api.close();
  });

  it("asks at the role's default where the model takes the parameter, and sends nothing where it does not", async () => {
    const { effort } = parseConfig(undefined);
    await withEffort(model, effort, 'worker').complete(ask('claude-opus-5-5'));
    await withEffort(model, effort, 'planner').complete(ask('claude-opus-5-5'));
    await withEffort(model, effort, 'worker').complete(ask('claude-haiku-4-5'));
    expect(api.requests.map((r) => r.body.output_config)).toEqual([{ effort: 'high' }, undefined, undefined]);
    expect(api.requests.map((r) => r.outcome)).toEqual([200, 200, 200]);
  });

  it('sends a configured level whatever the model, and a model that refuses it fails visibly', async () => {
    const { effort } = parseConfig('effort:\n  worker: max\n  summarizer: low\n');
    await withEffort(model, effort, 'worker').complete(ask('claude-sonnet-5-5'));
    await withEffort(model, effort, 'summarizer').complete(ask('claude-haiku-5-5'));
    expect(api.requests.map((r) => r.body.output_config)).toEqual([{ effort: 'max' }, { effort: 'low' }]);
    const refused = await withEffort(model, effort, 'worker')
      .complete(ask('claude-opus-4-5'))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ModelError);
    expect((refused as Error).message).toContain("output_config.effort: 'max' is not supported by claude-opus-4-5");
  });

  it('names the key of a level that does not exist', () => {
    expect(() => parseConfig('effort:\n  critic: extreme\n')).toThrow(/effort\.critic/);
  });
});
