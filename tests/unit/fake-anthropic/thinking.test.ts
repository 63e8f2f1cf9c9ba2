import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { parseScript, thinkingSignature, type FakeAnthropic, type Script } from '../../support/anthropic';
import { VALID_HEADERS, clientFor, fakeForTest, rawPost, sseEvents, systemFor, taskPrompt } from './helpers';

type Params = Anthropic.MessageCreateParamsNonStreaming;
type Block = Anthropic.ContentBlockParam;

const MODEL = 'claude-sonnet-5-5';
const PLAN = 'The task names a.ts, so I should read it before changing anything.';
const AFTERTHOUGHT = 'Reading it whole is cheaper than grepping.';
const NEXT = 'a.ts imports b.ts; read that too.';

/** Turn 0 interleaves thinking and text before a tool call; turn 1 thinks again before another. */
const script: Script = {
  entries: [
    {
      role: 'worker',
      replies: [
        {
          content: [
            { type: 'thinking', thinking: PLAN },
            { type: 'text', text: 'Reading a.ts.' },
            { type: 'thinking', thinking: AFTERTHOUGHT },
            { type: 'tool_use', name: 'read_file', input: { path: 'a.ts' } },
          ],
        },
        {
          content: [
            { type: 'thinking', thinking: NEXT },
            { type: 'tool_use', name: 'read_file', input: { path: 'b.ts' } },
          ],
        },
        { content: [{ type: 'text', text: 'Done.' }] },
      ],
    },
  ],
};

const ask = (history: Params['messages'] = [], model = MODEL): Params => ({
  model,
  max_tokens: 4096,
  system: systemFor('worker'),
  messages: [{ role: 'user', content: taskPrompt('t1') }, ...history],
});
const toolUseOf = (message: Anthropic.Message) => message.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')!;
const resultFor = (message: Anthropic.Message): Params['messages'][number] => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: toolUseOf(message).id, content: 'export {}' }],
});
/** The history after `reply`, sending `content` back as its assistant message. */
const turnAfter = (reply: Anthropic.Message, content: Block[] = reply.content as Block[]): Params['messages'] => [
  { role: 'assistant', content },
  resultFor(reply),
];

async function firstTurn(fake: FakeAnthropic): Promise<Anthropic.Message> {
  return clientFor(fake).messages.create(ask());
}

describe('fake Anthropic thinking blocks in replies', () => {
  it('returns scripted thinking blocks with a deterministic signature', async () => {
    const fake = await fakeForTest({ script });
    const first = await firstTurn(fake);

    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'text', 'thinking', 'tool_use']);
    expect(first.content[0]).toEqual({
      type: 'thinking',
      thinking: PLAN,
      signature: thinkingSignature({ role: 'worker', task: 't1', attempt: 1, turn: 0 }, 0, PLAN),
    });
    const [plan, , afterthought] = first.content as Anthropic.ThinkingBlock[];
    expect(plan?.signature).toMatch(/^[A-Za-z0-9+/]{40,}={0,2}$/);
    expect(afterthought?.signature).not.toBe(plan?.signature);

    const retried = await firstTurn(fake);
    const elsewhere = await firstTurn(await fakeForTest({ script }));
    expect(retried.content).toEqual(first.content);
    expect(elsewhere.content).toEqual(first.content);
  });

  it('counts thinking as output tokens', async () => {
    const fake = await fakeForTest({ script });
    const first = await firstTurn(fake);
    const tokens = (text: string) => Math.ceil(Buffer.byteLength(text) / 4);

    expect(first.usage.output_tokens).toBe(
      tokens(PLAN) + tokens('Reading a.ts.') + tokens(AFTERTHOUGHT) + tokens('read_file' + JSON.stringify({ path: 'a.ts' })),
    );
  });

  it('streams thinking as thinking_delta events and one signature_delta, in the real SSE format', async () => {
    const fake = await fakeForTest({ script });
    const response = await rawPost(fake, { ...ask(), stream: true }, VALID_HEADERS);
    const events = sseEvents(await response.text());
    const signature = thinkingSignature({ role: 'worker', task: 't1', attempt: 1, turn: 0 }, 0, PLAN);

    const ofBlock0 = events.filter((e) => e.data.index === 0).map((e) => e.data);
    expect(ofBlock0[0]).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    const deltas = ofBlock0.slice(1, -1).map((data) => data.delta as { type: string; thinking?: string });
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.slice(0, -1).every((delta) => delta.type === 'thinking_delta')).toBe(true);
    expect(
      deltas
        .slice(0, -1)
        .map((delta) => delta.thinking)
        .join(''),
    ).toBe(PLAN);
    expect(deltas.at(-1)).toEqual({ type: 'signature_delta', signature });
    expect(ofBlock0.at(-1)).toEqual({ type: 'content_block_stop', index: 0 });
  });

  it('streams to MessageStream.finalMessage the same message it answers without streaming', async () => {
    const fake = await fakeForTest({ script });
    const stream = clientFor(fake).messages.stream(ask());
    const thinking: string[] = [];
    const signatures: string[] = [];
    stream.on('thinking', (delta) => thinking.push(delta));
    stream.on('signature', (signature) => signatures.push(signature));
    const streamed = await stream.finalMessage();
    const plain = await firstTurn(fake);

    expect(streamed.content).toEqual(plain.content);
    expect(thinking.join('')).toBe(PLAN + AFTERTHOUGHT);
    expect(signatures).toEqual([(plain.content[0] as Anthropic.ThinkingBlock).signature, (plain.content[2] as Anthropic.ThinkingBlock).signature]);
  });

  it('returns empty thinking text (display omitted) with only a signature_delta', async () => {
    const fake = await fakeForTest({
      script: {
        entries: [],
        respond: () => ({
          content: [
            { type: 'thinking', thinking: '' },
            { type: 'text', text: 'Hi.' },
          ],
        }),
      },
    });
    const response = await rawPost(fake, { ...ask(), stream: true }, VALID_HEADERS);
    const deltas = sseEvents(await response.text())
      .filter((e) => e.event === 'content_block_delta' && e.data.index === 0)
      .map((e) => (e.data.delta as { type: string }).type);
    expect(deltas).toEqual(['signature_delta']);

    const message = await clientFor(fake).messages.create(ask());
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: '' });
    expect((message.content[0] as Anthropic.ThinkingBlock).signature).not.toBe('');
    expect(message.usage.output_tokens).toBe(1);
  });
});

const MODIFIED =
  '`thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. ' +
  'These blocks must remain as they were in the original response.';
const missingThinking = (found: string) =>
  `messages.1.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. ` +
  'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the ' +
  'lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous ' +
  'turns. To avoid this requirement, disable `thinking`. Please consult our documentation at ' +
  'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

const isThinking = (block: Anthropic.ContentBlock): block is Anthropic.ThinkingBlock => block.type === 'thinking';
const edit = (block: Anthropic.ContentBlock, change: Partial<Anthropic.ThinkingBlock>) => (isThinking(block) ? { ...block, ...change } : block) as Block;

interface LoopCase {
  rule: string;
  /** Rewrites the turn-0 assistant content before it is sent back with the tool result. */
  send: (content: Anthropic.ContentBlock[]) => Block[];
  message: string;
}

const loopCases: LoopCase[] = [
  {
    rule: 'every thinking block dropped',
    send: (content) => content.filter((block) => !isThinking(block)) as Block[],
    message: missingThinking('text'),
  },
  {
    rule: 'every block but the tool call dropped',
    send: (content) => content.filter((block) => block.type === 'tool_use') as Block[],
    message: missingThinking('tool_use'),
  },
  {
    rule: 'one thinking block dropped',
    send: (content) => content.filter((block) => !(isThinking(block) && block.thinking === AFTERTHOUGHT)) as Block[],
    message: `messages.1.content.2: ${MODIFIED}`,
  },
  {
    rule: 'thinking text edited',
    send: (content) => content.map((block, i) => (i === 2 ? edit(block, { thinking: `${AFTERTHOUGHT} (edited)` }) : block)) as Block[],
    message: `messages.1.content.2: ${MODIFIED}`,
  },
  {
    rule: 'a signature swapped for another issued one',
    send: (content) => {
      const afterthought = content[2] as Anthropic.ThinkingBlock;
      return content.map((block, i) => (i === 0 ? edit(block, { signature: afterthought.signature }) : block)) as Block[];
    },
    message: `messages.1.content.0: ${MODIFIED}`,
  },
  {
    rule: 'thinking blocks reordered',
    send: (content) => [content[2], content[1], content[0], content[3]] as Block[],
    message: `messages.1.content.0: ${MODIFIED}`,
  },
  {
    rule: 'a thinking block duplicated',
    send: (content) => [content[0], ...content] as Block[],
    message: `messages.1.content.1: ${MODIFIED}`,
  },
];

describe('fake Anthropic thinking blocks sent back', () => {
  it.each(loopCases)('rejects a tool loop with $rule', async ({ send, message }) => {
    const fake = await fakeForTest({ script });
    const first = await firstTurn(fake);
    const error = await clientFor(fake)
      .messages.create(ask(turnAfter(first, send(first.content))))
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', apiMessage: message });
    expect(fake.requests[1]).toMatchObject({ outcome: 400, error: { message } });
  });

  it('accepts a tool loop that sends every turn back unmodified, through several tool calls', async () => {
    const fake = await fakeForTest({ script });
    const client = clientFor(fake);
    const first = await client.messages.create(ask());
    const second = await client.messages.create(ask(turnAfter(first)));
    expect(second.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const third = await client.messages.create(ask([...turnAfter(first), ...turnAfter(second)]));

    expect(third.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(fake.requests.map((request) => request.outcome)).toEqual([200, 200, 200]);
  });

  it('applies the same tool-loop rule on earlier models', async () => {
    const fake = await fakeForTest({ script });
    const client = clientFor(fake);
    const first = await client.messages.create(ask([], 'claude-haiku-4-5'));

    await expect(client.messages.create(ask(turnAfter(first), 'claude-haiku-4-5'))).resolves.toBeDefined();
    const stripped = first.content.filter((block) => !isThinking(block)) as Block[];
    await expect(client.messages.create(ask(turnAfter(first, stripped), 'claude-haiku-4-5'))).rejects.toMatchObject({
      status: 400,
      apiMessage: missingThinking('text'),
    });
  });

  it('requires nothing of tool calls it produced without thinking or never produced', async () => {
    const fake = await fakeForTest({
      script: {
        entries: [
          {
            role: 'worker',
            replies: [{ content: [{ type: 'tool_use', name: 'read_file', input: {} }] }, { content: [{ type: 'text', text: 'ok' }] }],
          },
        ],
      },
    });
    const client = clientFor(fake);
    const first = await client.messages.create(ask());
    await expect(client.messages.create(ask(turnAfter(first)))).resolves.toMatchObject({ content: [{ text: 'ok' }] });

    const handWritten: Params['messages'] = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_hand', name: 'read_file', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_hand', content: 'x' }] },
    ];
    await expect(client.messages.create(ask(handWritten))).resolves.toMatchObject({ content: [{ text: 'ok' }] });
  });

  it('rejects a thinking block whose text was edited in an earlier assistant message', async () => {
    const fake = await fakeForTest({ script });
    const client = clientFor(fake);
    const first = await client.messages.create(ask());
    const second = await client.messages.create(ask(turnAfter(first)));
    const editedFirst = first.content.map((block, i) => (i === 0 ? edit(block, { thinking: 'Something else.' }) : block));

    const error = await client.messages.create(ask([...turnAfter(first, editedFirst as Block[]), ...turnAfter(second)])).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, apiMessage: 'messages.1.content.0: Invalid `signature` in `thinking` block' });
  });

  describe('prefix checks (preserved thinking): a block is bound to everything before it', () => {
    const BOUND =
      'messages.3.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".';
    const twoTurns = async (fake: FakeAnthropic) => {
      const client = clientFor(fake);
      const first = await client.messages.create(ask());
      const second = await client.messages.create(ask(turnAfter(first)));
      return { client, first, second };
    };

    it('rejects a replayed block after an earlier tool result was shortened (what cutting old results did)', async () => {
      const fake = await fakeForTest({ script });
      const { client, first, second } = await twoTurns(fake);
      const cut: Params['messages'] = [
        { role: 'assistant', content: first.content as Block[] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseOf(first).id, content: 'export' }] },
      ];
      await expect(client.messages.create(ask([...cut, ...turnAfter(second)]))).rejects.toMatchObject({ status: 400, apiMessage: BOUND });
    });

    it('rejects it after the opening message or the system prompt changed (what compaction into the old conversation did)', async () => {
      const fake = await fakeForTest({ script });
      const { client, first, second } = await twoTurns(fake);
      const history = [...turnAfter(first), ...turnAfter(second)];
      const summarised: Params = { ...ask(history), messages: [{ role: 'user', content: `${taskPrompt('t1')}\n\nSummary: read a.ts.` }, ...history] };
      await expect(client.messages.create(summarised)).rejects.toMatchObject({
        status: 400,
        apiMessage:
          'messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".',
      });
      await expect(client.messages.create({ ...ask(history), system: `${systemFor('worker')} Be brief.` })).rejects.toMatchObject({ status: 400 });
    });

    it('accepts the unchanged history with its cache breakpoint moved to the newest message, and drop_block', async () => {
      const fake = await fakeForTest({ script });
      const { client, first, second } = await twoTurns(fake);
      const history = [...turnAfter(first), ...turnAfter(second)];
      const marked = history.map((m, i) =>
        i === history.length - 1 ? { ...m, content: (m.content as Block[]).map((b) => ({ ...b, cache_control: { type: 'ephemeral' as const } })) } : m,
      );
      await expect(client.messages.create(ask(marked as Params['messages']))).resolves.toMatchObject({ content: [{ text: 'Done.' }] });
      const cut: Params['messages'] = [
        { role: 'assistant', content: first.content as Block[] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseOf(first).id, content: 'export' }] },
      ];
      const dropping = {
        ...ask([...cut, ...turnAfter(second)]),
        thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } },
      } as unknown as Params;
      expect(fake.requests.map((r) => r.outcome)).toEqual([200, 200, 200]);
      const response = await rawPost(fake, dropping, VALID_HEADERS);
      expect(response.status).not.toBe(400);
    });
  });

  it('rejects a thinking block with a signature it never issued', async () => {
    const fake = await fakeForTest({ script });
    const forged: Params['messages'] = [
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: PLAN, signature: 'c2lnbmF0dXJlIG5vYm9keSBpc3N1ZWQ=' },
          { type: 'text', text: 'Reading a.ts.' },
        ],
      },
      { role: 'user', content: 'Go on.' },
    ];
    const error = await clientFor(fake)
      .messages.create(ask(forged))
      .catch((e: unknown) => e);

    expect(error).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      apiMessage: 'messages.1.content.0: Invalid `signature` in `thinking` block',
    });
  });

  it('does not know signatures another fake instance issued', async () => {
    const issuer = await fakeForTest({ script });
    const first = await firstTurn(issuer);
    const other = await fakeForTest({ script });

    const error = await clientFor(other)
      .messages.create(ask(turnAfter(first)))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, apiMessage: 'messages.1.content.0: Invalid `signature` in `thinking` block' });
    await expect(clientFor(issuer).messages.create(ask(turnAfter(first)))).resolves.toBeDefined();
  });

  it('requires thinking blocks sent back to carry a signature', async () => {
    const fake = await fakeForTest({ script });
    const unsigned = [
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: PLAN },
          { type: 'text', text: 'Reading a.ts.' },
        ],
      },
      { role: 'user', content: 'Go on.' },
    ] as unknown as Params['messages'];
    await expect(clientFor(fake).messages.create(ask(unsigned))).rejects.toMatchObject({
      status: 400,
      apiMessage: 'messages.1.content.0.signature: Field required',
    });
  });
});

describe('thinking blocks in scripts', () => {
  it('accepts thinking blocks, including empty ones', () => {
    const parsed = parseScript({
      entries: [
        {
          role: 'worker',
          replies: [
            {
              content: [
                { type: 'thinking', thinking: '' },
                { type: 'text', text: 'ok' },
              ],
            },
          ],
        },
      ],
    });
    expect(parsed.entries[0]?.replies[0]?.content[0]).toEqual({ type: 'thinking', thinking: '' });
  });

  it.each([
    [{ type: 'thinking', thinking: 'x', signature: 'mine' }, 'entries.0.replies.0.content.0'],
    [{ type: 'thinking' }, 'entries.0.replies.0.content.0.thinking'],
    [{ type: 'thinking', thinking: 42 }, 'entries.0.replies.0.content.0.thinking'],
  ])('rejects a bad thinking block (%#), naming its path', (block, path) => {
    const data = { entries: [{ role: 'worker', replies: [{ content: [block] }] }] };
    expect(() => parseScript(data)).toThrow(new RegExp(`\\b${path.replace(/\./g, '\\.')}:`));
  });
});
