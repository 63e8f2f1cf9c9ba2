import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { pngOf } from '../../support/images';
import { MODEL, alwaysReply, clientFor, fakeForTest, systemFor, taskPrompt } from './helpers';

const cc = { type: 'ephemeral' };
const readFile = {
  name: 'read_file',
  description: 'Read a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } } },
};
const toolUse = { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.ts' } };
const toolResult = { type: 'tool_result', tool_use_id: 'toolu_a', content: 'export {}' };
const user = (content: unknown) => ({ role: 'user', content });
const image = (media_type: string, bytes: Buffer) => ({ type: 'image', source: { type: 'base64', media_type, data: bytes.toString('base64') } });
const PNG = pngOf(4, 3);
/** A PNG's signature and header only: enough for the API to read its size. */
const pngHeader = (width: number, height: number) => pngOf(width, height).subarray(0, 33);
const assistant = (content: unknown) => ({ role: 'assistant', content });

const base = {
  model: MODEL,
  max_tokens: 256,
  system: systemFor('worker'),
  tools: [readFile],
  messages: [user(taskPrompt('t1'))],
};
const withMessages = (...messages: unknown[]) => ({ ...base, messages: [user(taskPrompt('t1')), ...messages] });
const without = (field: keyof typeof base) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== field));

interface Rule {
  rule: string;
  invalid: unknown;
  message: string;
  valid: unknown;
}

const rules: Rule[] = [
  { rule: 'missing model', invalid: without('model'), message: 'model: Field required', valid: base },
  { rule: 'missing max_tokens', invalid: without('max_tokens'), message: 'max_tokens: Field required', valid: base },
  {
    rule: 'non-positive max_tokens',
    invalid: { ...base, max_tokens: 0 },
    message: 'max_tokens: Input should be greater than or equal to 1',
    valid: { ...base, max_tokens: 1 },
  },
  { rule: 'missing messages', invalid: without('messages'), message: 'messages: Field required', valid: base },
  {
    rule: 'invalid messages',
    invalid: { ...base, messages: [{ role: 'robot', content: 'hi' }] },
    message: "messages.0.role: Input should be 'user' or 'assistant'",
    valid: base,
  },
  {
    rule: 'tool_use without a tool_result in the very next message',
    invalid: withMessages(assistant([toolUse]), user('no result here'), assistant('ok'), user([toolResult])),
    message:
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_a. ' +
      'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    valid: withMessages(assistant([toolUse]), user([toolResult])),
  },
  {
    rule: 'tool_result without a tool_use in the previous assistant message',
    invalid: withMessages(assistant([toolUse]), user([toolResult]), assistant('done'), user([toolResult])),
    message:
      'messages.4.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_a. ' +
      'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    valid: withMessages(assistant([toolUse]), user([toolResult]), assistant('done'), user('thanks')),
  },
  {
    rule: 'empty text block in a message',
    invalid: {
      ...base,
      messages: [
        user([
          { type: 'text', text: taskPrompt('t1') },
          { type: 'text', text: '' },
        ]),
      ],
    },
    message: 'messages: text content blocks must be non-empty',
    valid: {
      ...base,
      messages: [
        user([
          { type: 'text', text: taskPrompt('t1') },
          { type: 'text', text: '.' },
        ]),
      ],
    },
  },
  {
    rule: 'empty text block in system',
    invalid: {
      ...base,
      system: [
        { type: 'text', text: systemFor('worker') },
        { type: 'text', text: '' },
      ],
    },
    message: 'system: text content blocks must be non-empty',
    valid: {
      ...base,
      system: [
        { type: 'text', text: systemFor('worker') },
        { type: 'text', text: '.' },
      ],
    },
  },
  {
    rule: 'final assistant prefill ending in whitespace',
    invalid: withMessages(assistant([{ type: 'text', text: 'Plan:\n' }])),
    message: 'messages: final assistant content cannot end with trailing whitespace',
    valid: withMessages(assistant([{ type: 'text', text: 'Plan:' }])),
  },
  {
    rule: 'more than 4 cache_control blocks',
    invalid: {
      ...base,
      tools: [{ ...readFile, cache_control: cc }],
      system: [
        { type: 'text', text: systemFor('worker'), cache_control: cc },
        { type: 'text', text: 'Rules.', cache_control: cc },
      ],
      messages: [
        user([
          { type: 'text', text: taskPrompt('t1'), cache_control: cc },
          { type: 'text', text: 'More.', cache_control: cc },
        ]),
      ],
    },
    message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    valid: {
      ...base,
      tools: [{ ...readFile, cache_control: cc }],
      system: [
        { type: 'text', text: systemFor('worker'), cache_control: cc },
        { type: 'text', text: 'Rules.', cache_control: cc },
      ],
      messages: [
        user([
          { type: 'text', text: taskPrompt('t1'), cache_control: cc },
          { type: 'text', text: 'More.' },
        ]),
      ],
    },
  },
  {
    rule: 'tool_choice naming a tool not in tools',
    invalid: { ...base, tool_choice: { type: 'tool', name: 'write_file' } },
    message: "tool_choice.name: tool 'write_file' was not found in `tools`",
    valid: { ...base, tool_choice: { type: 'tool', name: 'read_file' } },
  },
  {
    rule: 'a tool name outside ^[a-zA-Z0-9_-]{1,64}$ (an MCP tool named with a dot or too long, #36)',
    invalid: { ...base, tools: [{ ...readFile, name: 'mcp__facts__look.up' }] },
    message: "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
    valid: { ...base, tools: [{ ...readFile, name: 'mcp__facts__look_up' }] },
  },
  // Image blocks (#36): the vision docs' limits and the API's 400s (tests/support/anthropic/images.ts).
  {
    rule: 'an image whose media_type is not one the API takes',
    invalid: { ...base, messages: [user([image('image/svg+xml', PNG), { type: 'text', text: taskPrompt('t1') }])] },
    message: "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    valid: { ...base, messages: [user([image('image/png', PNG), { type: 'text', text: taskPrompt('t1') }])] },
  },
  {
    rule: 'an image whose bytes are not its media_type',
    invalid: { ...base, messages: [user([image('image/jpeg', PNG), { type: 'text', text: taskPrompt('t1') }])] },
    message:
      'messages.0.content.0.image.source.base64.data: The image was specified using the image/jpeg media type, but the image appears to be a image/png image',
    valid: { ...base, messages: [user([image('image/png', PNG), { type: 'text', text: taskPrompt('t1') }])] },
  },
  {
    rule: 'an image over 5 MB of base64',
    invalid: { ...base, messages: [user([image('image/png', Buffer.concat([PNG, Buffer.alloc(4_000_000)])), { type: 'text', text: taskPrompt('t1') }])] },
    message: 'messages.0.content.0.image.source.base64: image exceeds 5 MB maximum: 5333428 bytes > 5242880 bytes',
    valid: { ...base, messages: [user([image('image/png', Buffer.concat([PNG, Buffer.alloc(3_000_000)])), { type: 'text', text: taskPrompt('t1') }])] },
  },
  {
    rule: 'an image over 8000 px a side',
    invalid: { ...base, messages: [user([image('image/png', pngHeader(8001, 10)), { type: 'text', text: taskPrompt('t1') }])] },
    message: 'messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels',
    valid: { ...base, messages: [user([image('image/png', pngHeader(8000, 10)), { type: 'text', text: taskPrompt('t1') }])] },
  },
  {
    rule: 'more than 20 images, one over 2000 px a side',
    invalid: {
      ...base,
      messages: [
        user([...Array.from({ length: 20 }, () => image('image/png', PNG)), image('image/png', pngHeader(2001, 10)), { type: 'text', text: taskPrompt('t1') }]),
      ],
    },
    message:
      'messages.0.content.20.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels',
    valid: {
      ...base,
      messages: [
        user([...Array.from({ length: 20 }, () => image('image/png', PNG)), image('image/png', pngHeader(2000, 10)), { type: 'text', text: taskPrompt('t1') }]),
      ],
    },
  },
  {
    rule: 'an image in an assistant turn',
    invalid: withMessages(assistant([image('image/png', PNG)]), user('go on')),
    message: 'messages.1.content.0.image: images are only allowed in user messages',
    valid: withMessages(assistant('look'), user([image('image/png', PNG), { type: 'text', text: 'go on' }])),
  },
];

describe('fake Anthropic request validation', () => {
  it.each(rules)('rejects $rule with 400 invalid_request_error', async ({ invalid, message }) => {
    const fake = await fakeForTest({ script: alwaysReply() });
    const error = await clientFor(fake)
      .messages.create(invalid as Anthropic.MessageCreateParamsNonStreaming)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', apiMessage: message });
    expect(fake.requests[0]).toMatchObject({ outcome: 400, error: { type: 'invalid_request_error' } });
  });

  it.each(rules)('accepts the valid counterpart of $rule', async ({ valid }) => {
    const fake = await fakeForTest({ script: alwaysReply() });
    const message = await clientFor(fake).messages.create(valid as Anthropic.MessageCreateParamsNonStreaming);

    expect(message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(fake.requests[0]?.outcome).toBe(200);
  });
});
