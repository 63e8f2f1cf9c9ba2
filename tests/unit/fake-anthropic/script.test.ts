import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { parseScript, parseScriptYaml, type Script } from '../../support/anthropic';
import { MODEL, clientFor, fakeForTest, systemFor, taskPrompt } from './helpers';

type Params = Anthropic.MessageCreateParamsNonStreaming;

const reply = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const ask = (role: string, task: string, attempt = 1, history: Params['messages'] = []): Params => ({
  model: MODEL,
  max_tokens: 200,
  system: systemFor(role),
  messages: [{ role: 'user', content: taskPrompt(task, attempt) }, ...history],
});
const textOf = (message: Anthropic.Message) => (message.content[0] as Anthropic.TextBlock).text;

describe('fake Anthropic scripted replies', () => {
  it('identifies role, task, attempt and turn from the request content', async () => {
    const fake = await fakeForTest({ script: { entries: [], respond: () => reply('ok') } });
    const client = clientFor(fake);
    await client.messages.create({
      model: MODEL,
      max_tokens: 50,
      system: [
        { type: 'text', text: 'Shared preamble.' },
        { type: 'text', text: "You are crew's decomposer. Later: You are crew's critic." },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Context first.\nTask: issue-42_b\nAttempt: 3' }] },
        { role: 'assistant', content: 'one' },
        { role: 'user', content: 'Task: not-this-one' },
        { role: 'assistant', content: 'two' },
        { role: 'user', content: 'continue' },
      ],
    });
    await client.messages.create({ model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });

    expect(fake.requests[0]).toMatchObject({ role: 'decomposer', task: 'issue-42_b', attempt: 3, turn: 2 });
    expect(fake.requests[1]).toMatchObject({ role: 'unknown', attempt: 1, turn: 0 });
    expect(fake.requests[1]?.task).toBeUndefined();
  });

  it('lets the identification be overridden', async () => {
    const fake = await fakeForTest({
      script: { entries: [{ role: 'custom', task: 'x', replies: [reply('custom reply')] }] },
      identify: () => ({ role: 'custom', task: 'x', attempt: 1, turn: 0 }),
    });
    const message = await clientFor(fake).messages.create(ask('worker', 't1'));
    expect(textOf(message)).toBe('custom reply');
  });

  it('picks the most specific matching entry', async () => {
    const fake = await fakeForTest({
      script: {
        entries: [
          { role: 'worker', task: 't1', attempt: 2, replies: [reply('task and attempt')] },
          { role: 'worker', attempt: 2, replies: [reply('attempt only')] },
          { role: 'worker', replies: [reply('role only')] },
          { role: 'worker', task: 't1', replies: [reply('task only')] },
          { role: 'critic', replies: [reply('critic')] },
        ],
      },
    });
    const client = clientFor(fake);
    const answer = async (role: string, task: string, attempt: number) => textOf(await client.messages.create(ask(role, task, attempt)));

    expect(await answer('worker', 't1', 1)).toBe('task only');
    expect(await answer('worker', 't1', 2)).toBe('task and attempt');
    expect(await answer('worker', 't2', 1)).toBe('role only');
    expect(await answer('worker', 't2', 2)).toBe('attempt only');
    expect(await answer('critic', 't1', 2)).toBe('critic');
  });

  it('answers by turn through a tool loop, with stable generated tool_use ids', async () => {
    const fake = await fakeForTest({
      script: {
        entries: [
          {
            role: 'worker',
            replies: [{ content: [{ type: 'tool_use', name: 'read_file', input: { path: 'a.ts' } }] }, { content: [{ type: 'text', text: 'Done.' }] }],
          },
        ],
      },
    });
    const client = clientFor(fake);
    const first = await client.messages.create(ask('worker', 't1'));
    const toolUse = first.content[0] as Anthropic.ToolUseBlock;
    expect(first.stop_reason).toBe('tool_use');
    expect(toolUse.id).toMatch(/^toolu_/);

    const retried = await client.messages.create(ask('worker', 't1'));
    expect(retried.content).toEqual(first.content);

    const second = await client.messages.create(
      ask('worker', 't1', 1, [
        { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'export {}' }] },
      ]),
    );
    expect(second).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'Done.' }] });

    const otherTask = await client.messages.create(ask('worker', 't2'));
    expect((otherTask.content[0] as Anthropic.ToolUseBlock).id).not.toBe(toolUse.id);
  });

  it('keeps explicit tool_use ids and stop reasons', async () => {
    const fake = await fakeForTest({
      script: {
        entries: [
          {
            role: 'worker',
            replies: [
              {
                content: [{ type: 'tool_use', id: 'toolu_fixed', name: 'read_file', input: {} }],
                stop_reason: 'max_tokens',
              },
            ],
          },
        ],
      },
    });
    const message = await clientFor(fake).messages.create(ask('worker', 't1'));
    expect(message).toMatchObject({ stop_reason: 'max_tokens', content: [{ id: 'toolu_fixed' }] });
  });

  it('answers an unscripted request with a clear 400 and records it', async () => {
    const fake = await fakeForTest({ script: { entries: [{ role: 'worker', replies: [reply('only turn 0')] }] } });
    const client = clientFor(fake);
    const error = await client.messages
      .create(
        ask('worker', 't1', 1, [
          { role: 'assistant', content: 'x' },
          { role: 'user', content: 'y' },
        ]),
      )
      .catch((e: unknown) => e);

    expect(error).toMatchObject({
      status: 400,
      apiMessage: 'fake-anthropic: no scripted reply for role=worker task=t1 attempt=1 turn=1',
    });
    expect(fake.unscripted).toHaveLength(1);
    expect(fake.unscripted[0]).toMatchObject({ role: 'worker', task: 't1', turn: 1, outcome: 400 });
    await client.messages.create(ask('worker', 't1'));
    expect(fake.unscripted).toHaveLength(1);
  });

  it('consults respond() first and falls through to entries when it returns undefined', async () => {
    const seen: string[] = [];
    const fake = await fakeForTest({
      script: {
        entries: [{ role: 'worker', replies: [reply('from entries')] }],
        respond: (request) => {
          seen.push(`${request.role}/${request.task}/${request.turn}`);
          return request.task === 'special' ? reply('from respond') : undefined;
        },
      },
    });
    const client = clientFor(fake);
    expect(textOf(await client.messages.create(ask('worker', 'special')))).toBe('from respond');
    expect(textOf(await client.messages.create(ask('worker', 'plain')))).toBe('from entries');
    expect(seen).toEqual(['worker/special/0', 'worker/plain/0']);
  });

  it('replaces the script at runtime', async () => {
    const fake = await fakeForTest();
    const client = clientFor(fake);
    await expect(client.messages.create(ask('worker', 't1'))).rejects.toMatchObject({ status: 400 });
    fake.setScript({ entries: [{ role: 'worker', replies: [reply('now scripted')] }] });
    expect(textOf(await client.messages.create(ask('worker', 't1')))).toBe('now scripted');
  });
});

describe('script parsing', () => {
  it('accepts YAML-shaped data', () => {
    const script = parseScriptYaml(`
entries:
  - role: worker
    task: t1
    attempt: 2
    replies:
      - content:
          - type: tool_use
            name: read_file
            input: { path: a.ts }
        delay_ms: 20
      - content: [{ type: text, text: Done. }]
        stop_reason: end_turn
`);
    expect(script.entries[0]).toMatchObject({ role: 'worker', task: 't1', attempt: 2 });
    expect(script.entries[0]?.replies[0]?.content[0]).toEqual({ type: 'tool_use', name: 'read_file', input: { path: 'a.ts' } });
  });

  const entryWith = (entry: Record<string, unknown>) => ({ entries: [{ role: 'worker', replies: [], ...entry }] });
  it.each([
    [entryWith({ replies: [{ content: [{ type: 'text', text: '' }] }] }), 'entries.0.replies.0.content.0.text'],
    [entryWith({ replies: [{ content: [{ type: 'image' }] }] }), 'entries.0.replies.0.content.0.type'],
    [{ entries: [{ role: 'worker', reply: [] }] }, 'entries.0.replies'],
    [entryWith({ attempt: 0 }), 'entries.0.attempt'],
    [entryWith({ replies: [{ content: [], stop_reason: 'done' }] }), 'entries.0.replies.0.stop_reason'],
  ])('names the bad path in errors (%#)', (data, path) => {
    const escaped = path.replace(/\./g, '\\.');
    expect(() => parseScript(data)).toThrow(new RegExp(`^Invalid fake-anthropic script:[\\s\\S]*\\b${escaped}:`));
  });

  it('validates scripts given to the fake', async () => {
    const fake = await fakeForTest();
    expect(() => fake.setScript({ entries: [{ role: '', replies: [] }] } as Script)).toThrow(/entries\.0\.role/);
  });
});
