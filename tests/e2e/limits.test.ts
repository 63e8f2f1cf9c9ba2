import { describe, expect, it } from 'vitest';
import type { Script } from '../support/anthropic/script';
import { expectFaithful, play } from './helpers';

/** A part of the guide: about 1,500 tokens, distinct per part. */
const part = (k: number) =>
  `# Part ${k}\n\n${Array.from({ length: 60 }, (_, i) => `- Function family ${k}, rule ${i}: the example keeps the input's case and spacing.`).join('\n')}\n`;

describe('limits for real work (#49), through dist/', () => {
  it('a 45-turn worker task with the fake’s real caching finishes under the default configuration and ends in a pull request', async () => {
    let workerRequests: Array<{ usage?: { cache_read_input_tokens: number; cache_creation_input_tokens: number; input_tokens: number } }> = [];
    let task = '';
    const r = await play('long-task', {
      edit: (s) => {
        const worker = (s.model as Script).entries.find((e) => e.role === 'worker')!;
        // 44 working turns: write a part, read it back; then the scenario's report on the 45th.
        const turns = Array.from({ length: 22 }, (_, i) => [
          { content: [{ type: 'tool_use' as const, name: 'write_file', input: { path: `docs/part${i + 1}.md`, content: part(i + 1) } }] },
          { content: [{ type: 'tool_use' as const, name: 'read_file', input: { path: `docs/part${i + 1}.md` } }] },
        ]).flat();
        worker.replies = [...turns, ...worker.replies] as typeof worker.replies;
      },
      hooks: {
        beforeClose: async ({ gh, anthropic }) => {
          workerRequests = anthropic.requests.filter((q) => q.role === 'worker');
          task = (await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/tasks/task_t1.json')) ?? '';
        },
      },
    });
    expectFaithful(r);
    expect(workerRequests).toHaveLength(45);
    expect(JSON.parse(task)).toMatchObject({ status: 'success', attempts: 1, turns: 45 });
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files.sort()).toEqual(Array.from({ length: 22 }, (_, i) => `docs/part${i + 1}.md`).sort());
    // The conversation is read from the cache turn after turn: most of what the worker sent was cache reads.
    const sum = (k: 'cache_read_input_tokens' | 'cache_creation_input_tokens' | 'input_tokens') => workerRequests.reduce((n, q) => n + (q.usage?.[k] ?? 0), 0);
    expect(sum('cache_read_input_tokens') / (sum('cache_read_input_tokens') + sum('cache_creation_input_tokens') + sum('input_tokens'))).toBeGreaterThan(0.8);
    // The worker was told its turns and budget as it went.
    const last = JSON.stringify((workerRequests.at(-1) as unknown as { body: { messages: unknown[] } }).body.messages.at(-1));
    expect(last).toContain('crew: turn 44 of 100 done (56 left)');
  }, 600_000);
});
