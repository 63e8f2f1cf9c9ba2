import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModel } from '../../../src/adapters/anthropic/model';
import { runToolLoop, type AgentTool } from '../../../src/agents/tool-loop';
import type { Clock, Log } from '../../../src/ports';
import { startFakeAnthropic, type FakeAnthropic } from '../../support/anthropic/index';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
const clock: Clock = { now: () => new Date(), sleep: async () => undefined };

const readFile: AgentTool = {
  spec: { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
  run: (input) => `contents of ${(input as { path: string }).path}\n${'const x = 1;\n'.repeat(40)}`,
};
const report: AgentTool = {
  final: true,
  spec: { name: 'report_result', description: 'Report', input_schema: { type: 'object' } },
  run: () => 'Reported.',
};

describe('prompt cache breakpoints on a wide turn (#49)', () => {
  let api: FakeAnthropic;
  beforeEach(async () => {
    let turn = 0;
    api = await startFakeAnthropic({
      script: {
        entries: [],
        respond: () => {
          turn++;
          if (turn === 1) return { content: [{ type: 'tool_use', name: 'read_file', input: { path: 'README.md' } }] };
          // Twelve parallel reads: with their results, 24 blocks after the previous request's end.
          if (turn === 2)
            return {
              content: [
                { type: 'text', text: 'Reading twelve files at once.' },
                ...Array.from({ length: 12 }, (_, i) => ({ type: 'tool_use' as const, name: 'read_file', input: { path: `src/f${i}.ts` } })),
              ],
            };
          return { content: [{ type: 'tool_use', name: 'report_result', input: {} }] };
        },
      },
    });
    process.env.ANTHROPIC_BASE_URL = api.url;
  });
  afterEach(async () => {
    delete process.env.ANTHROPIC_BASE_URL;
    await api.close();
  });

  it('a turn with twelve parallel reads: the next request reads the earlier conversation from the cache', async () => {
    const model = new AnthropicModel('sk-ant-test-key-1234', clock, log);
    const out = await runToolLoop({
      model,
      modelId: 'claude-sonnet-5-5',
      system: "You are crew's worker.\n" + 'Follow the rules. '.repeat(700),
      tools: [readFile, report],
      firstMessage: `Task: t1\nAttempt: 1\n\n${'Read the code and report. '.repeat(200)}`,
      maxTurns: 5,
      log,
    });
    expect(out.stop).toBe('final');
    const [, second, third] = api.requests;
    const total = (u: NonNullable<(typeof api.requests)[number]['usage']>) => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
    // Everything the second request sent (system, tools and the conversation up to its end) is read back.
    expect(third!.usage!.cache_read_input_tokens).toBe(total(second!.usage!));
    expect(third!.usage!.cache_creation_input_tokens).toBe(total(third!.usage!) - total(second!.usage!));
    const marks = JSON.stringify(third!.body).split('"cache_control"').length - 1;
    expect(marks).toBeLessThanOrEqual(4);
  });
});
