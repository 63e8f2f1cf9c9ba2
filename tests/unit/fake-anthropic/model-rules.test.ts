import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS, rulesForModel } from '../../support/anthropic';
import { MODEL, VALID_HEADERS, alwaysReply, clientFor, fakeForTest, rawPost, systemFor, taskPrompt } from './helpers';

type Params = Anthropic.MessageCreateParamsNonStreaming;

const CLAUDE_5_5 = ['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'];
/** Models that keep the earlier rules; each accepts every request the 5.5 family rejects below. */
const EARLIER = [MODEL, 'claude-sonnet-4-5-20250929', 'claude-opus-4-5'];

const readFile: Anthropic.Tool = {
  name: 'read_file',
  description: 'Read a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } } },
};

/** This SDK no longer types the sampling parameters, but a client can still send them. */
type Extra = Partial<Params> & { temperature?: number; top_p?: number; top_k?: number };

const base = (model: string, extra: Extra = {}): Params => ({
  model,
  max_tokens: 4096,
  system: systemFor('worker'),
  tools: [readFile],
  messages: [{ role: 'user', content: taskPrompt('t1') }],
  ...extra,
});
const withPrefill = (model: string, prefill: string): Params => ({
  ...base(model),
  messages: [
    { role: 'user', content: taskPrompt('t1') },
    { role: 'assistant', content: [{ type: 'text', text: prefill }] },
  ],
});

const thinkingMessage = (type: string) =>
  `"thinking.type.${type}" is not supported for this model. ` + 'Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.';
const FORCED_TOOL = 'Thinking may not be enabled when tool_choice forces tool use.';
const PREFILL = 'This model does not support assistant message prefill. The conversation must end with a user message.';

interface Rule {
  rule: string;
  invalid: (model: string) => Params;
  message: string;
  valid: (model: string) => Params;
}

const rules: Rule[] = [
  {
    rule: 'tool_choice any (forced tool use)',
    invalid: (model) => base(model, { tool_choice: { type: 'any' } }),
    message: FORCED_TOOL,
    valid: (model) => base(model, { tool_choice: { type: 'auto' } }),
  },
  {
    rule: 'tool_choice tool (forced tool use)',
    invalid: (model) => base(model, { tool_choice: { type: 'tool', name: 'read_file' } }),
    message: FORCED_TOOL,
    valid: (model) => base(model, { tool_choice: { type: 'none' } }),
  },
  {
    rule: 'assistant prefill',
    invalid: (model) => withPrefill(model, 'Plan:'),
    message: PREFILL,
    valid: (model) => base(model),
  },
  {
    rule: 'assistant prefill ending in whitespace',
    invalid: (model) => withPrefill(model, 'Plan:\n'),
    message: PREFILL,
    valid: (model) => base(model),
  },
  {
    rule: 'temperature',
    invalid: (model) => base(model, { temperature: 0.2 }),
    message: '`temperature` is deprecated for this model.',
    valid: (model) => base(model),
  },
  {
    rule: 'top_p',
    invalid: (model) => base(model, { top_p: 0.9 }),
    message: '`top_p` is deprecated for this model.',
    valid: (model) => base(model),
  },
  {
    rule: 'top_k',
    invalid: (model) => base(model, { top_k: 40 }),
    message: '`top_k` is deprecated for this model.',
    valid: (model) => base(model),
  },
  {
    rule: 'a thinking budget',
    invalid: (model) => base(model, { thinking: { type: 'enabled', budget_tokens: 2048 } }),
    message: thinkingMessage('enabled'),
    valid: (model) => base(model, { thinking: { type: 'adaptive' } }),
  },
  {
    rule: 'thinking disabled',
    invalid: (model) => base(model, { thinking: { type: 'disabled' } }),
    message: thinkingMessage('disabled'),
    valid: (model) => base(model, { thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }),
  },
];

const onEach = <T>(models: string[], items: T[]) => models.flatMap((model) => items.map((item) => ({ model, ...item })));

describe('fake Anthropic model-specific rules', () => {
  const rejected = onEach(CLAUDE_5_5, rules);
  it.each(rejected)('rejects $rule on $model with 400 invalid_request_error', async ({ model, invalid, message }) => {
    const fake = await fakeForTest({ script: alwaysReply() });
    const error = await clientFor(fake)
      .messages.create(invalid(model))
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', apiMessage: message });
    expect(fake.requests[0]).toMatchObject({ outcome: 400, error: { type: 'invalid_request_error', message } });
  });

  it.each(onEach(CLAUDE_5_5, rules))('accepts the valid counterpart of $rule on $model', async ({ model, valid }) => {
    const fake = await fakeForTest({ script: alwaysReply() });
    const message = await clientFor(fake).messages.create(valid(model));

    expect(message).toMatchObject({ model, content: [{ type: 'text', text: 'ok' }] });
    expect(fake.requests[0]?.outcome).toBe(200);
  });

  // The whitespace prefill stays a 400 on earlier models; see the next test.
  const acceptedEarlier = rules.filter(({ rule }) => rule !== 'assistant prefill ending in whitespace');
  it.each(onEach(EARLIER, acceptedEarlier))('keeps accepting $rule on $model', async ({ model, invalid }) => {
    const fake = await fakeForTest({ script: alwaysReply() });
    // Raw requests: the SDK prints deprecation warnings for some of these ids.
    const response = await rawPost(fake, invalid(model), VALID_HEADERS);

    expect(response.status).toBe(200);
    expect(fake.requests[0]?.outcome).toBe(200);
  });

  it('keeps the trailing-whitespace prefill rule on earlier models', async () => {
    const fake = await fakeForTest({ script: alwaysReply() });
    const error = await clientFor(fake)
      .messages.create(withPrefill(MODEL, 'Plan:\n'))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      apiMessage: 'messages: final assistant content cannot end with trailing whitespace',
    });
  });

  it('accepts between_tools thinking and a request without thinking on the 5.5 family', async () => {
    const fake = await fakeForTest({ script: alwaysReply() });
    const client = clientFor(fake);
    for (const model of CLAUDE_5_5) {
      await client.messages.create(base(model, { thinking: { type: 'between_tools' } }));
      await client.messages.create(base(model));
    }
    expect(fake.requests.map((request) => request.outcome)).toEqual(Array(6).fill(200));
  });

  it('knows the 5.5 and 5 models by default and tells their rules apart', async () => {
    const fake = await fakeForTest({ script: alwaysReply() });
    for (const model of [...CLAUDE_5_5, 'claude-sonnet-5', 'claude-opus-5']) {
      expect(DEFAULT_MODELS).toContain(model);
      expect((await rawPost(fake, base(model), VALID_HEADERS)).status).toBe(200);
    }
    expect(CLAUDE_5_5.map((model) => rulesForModel(model).rejectsPrefill)).toEqual([true, true, true]);
    expect(['claude-sonnet-5', 'claude-opus-5', MODEL].map((model) => rulesForModel(model).rejectsPrefill)).toEqual([false, false, false]);
  });
});

describe('fake Anthropic output_config.effort', () => {
  const withEffort = (model: string, effort: unknown) => ({ ...base(model), output_config: { effort } }) as unknown as Params;
  const status = async (model: string, effort: unknown) => {
    const fake = await fakeForTest({ script: alwaysReply() });
    const response = await rawPost(fake, withEffort(model, effort), VALID_HEADERS);
    return { status: response.status, message: fake.requests[0]?.error?.message };
  };

  it('accepts every level on the 5.5 family, and fewer where the effort page lists fewer', async () => {
    for (const model of CLAUDE_5_5) for (const effort of ['low', 'medium', 'high', 'xhigh', 'max']) expect((await status(model, effort)).status).toBe(200);
    expect((await status('claude-opus-4-5', 'high')).status).toBe(200);
    expect(await status('claude-opus-4-5', 'max')).toEqual({
      status: 400,
      message: "output_config.effort: 'max' is not supported by claude-opus-4-5; it accepts low, medium, high",
    });
    expect((await status('claude-opus-4-6', 'xhigh')).status).toBe(400);
  });

  it('refuses the parameter on a model that does not support it, and a level that does not exist', async () => {
    for (const model of [MODEL, 'claude-sonnet-4-5'])
      expect(await status(model, 'high')).toEqual({ status: 400, message: `output_config.effort: the effort parameter is not supported by ${model}` });
    expect(await status('claude-sonnet-5-5', 'extreme')).toMatchObject({ status: 400, message: expect.stringContaining("Input should be 'low'") });
  });
});
