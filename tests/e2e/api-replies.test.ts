import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play } from './helpers';

type Block = { type: string; tool_use_id?: string; is_error?: boolean; content?: unknown; name?: string; input?: unknown };
type Worker = { turn: number; outcome: number | string; last: { role: string; content: Block[] } | undefined; maxTokens: number; sentInput?: unknown };

/** Plays a scenario and keeps, for task t1's worker, every request's turn, outcome and last message. */
async function playWorker(name: string): Promise<{ r: ScenarioResult; worker: Worker[]; files: Record<string, string | undefined> }> {
  const worker: Worker[] = [];
  const files: Record<string, string | undefined> = {};
  const r = await play(name, {
    hooks: {
      beforeClose: async ({ gh, anthropic }) => {
        for (const q of anthropic.requests.filter((x) => x.role === 'worker')) {
          const last = q.body.messages.at(-1) as Worker['last'];
          worker.push({
            turn: q.turn,
            outcome: q.outcome,
            last: last && { role: last.role, content: typeof last.content === 'string' ? [] : last.content },
            maxTokens: q.body.max_tokens,
          });
        }
        for (const f of ['NOTES.md', 'ran.log']) files[f] = await gh.repo.readFile('refs/heads/crew/1/r1/t1', f);
      },
    },
  });
  expectFaithful(r);
  return { r, worker, files };
}

describe('a reply cut off at max_tokens (max-tokens-cut scenario)', () => {
  let s: Awaited<ReturnType<typeof playWorker>>;
  beforeAll(async () => {
    s = await playWorker('max-tokens-cut');
  }, 600_000);

  it('the cut write_file call is not run; its tool_result tells the model it was cut off and how much room it has', () => {
    expect(s.worker.map((w) => w.turn)).toEqual([0, 1, 2, 3]);
    // Workers ask for max_output_tokens.worker (64,000 by default), not 8,192.
    expect(s.worker[0]!.maxTokens).toBe(64_000);
    const answer = s.worker[1]!.last!;
    expect(answer.role).toBe('user');
    // The tool result, then what crew tells the worker of its turns and budget left (#49).
    expect(answer.content).toHaveLength(2);
    expect(answer.content[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(answer.content[1]).toMatchObject({ type: 'text', text: expect.stringMatching(/^crew: turn 1 of \d+ done/) });
    const text = String(answer.content[0]!.content);
    expect(text).toContain('crew did not run this write_file call');
    expect(text).toContain('reached the output limit of 64000 tokens');
    expect(text).toContain('Write a large file in parts');
  });

  it('the next replies write the file in parts, and the task succeeds with exactly what they wrote', () => {
    expect(s.files['NOTES.md']).toBe('# Notes\n\nFirst part.\n\nSecond part.\n');
    expect(crewComments(s.r).find((c) => c.body.includes('<!-- crew:plan'))!.body).toContain('✅ Done');
    expect(s.r.pulls).toHaveLength(1);
  });
});

describe('dropped streams (dropped-streams scenario)', () => {
  let s: Awaited<ReturnType<typeof playWorker>>;
  beforeAll(async () => {
    s = await playWorker('dropped-streams');
  }, 600_000);

  it('a socket reset mid-stream and a stream ended without message_stop are each asked again', () => {
    expect(s.worker.map((w) => [w.turn, w.outcome])).toEqual([
      [0, 200],
      [1, 'reset-midstream'],
      [1, 200],
      [2, 'eof-midstream'],
      [2, 200],
      [3, 200],
    ]);
  });

  it('no tool ran twice, and the task succeeds', () => {
    expect(s.files['ran.log']).toBe('ran\n');
    expect(s.files['NOTES.md']).toBe('# Notes\n\nFirst part.\n\nSecond part.\n');
    expect(crewComments(s.r).find((c) => c.body.includes('<!-- crew:plan'))!.body).toContain('✅ Done');
    expect(crewComments(s.r).some((c) => /refused the request/.test(c.body))).toBe(false);
  });
});

describe('a worker that thinks on every turn crosses compaction (thinking-compaction scenario; the fake checks each block’s prefix)', () => {
  it('compaction starts a fresh conversation instead of editing the one the thinking blocks are bound to, and the task succeeds', async () => {
    type Q = { outcome: number | string; messages: Array<{ role: string; content: string | Block[] }> };
    let worker: Q[] = [];
    let summaries = 0;
    const r = await play('thinking-compaction', {
      hooks: {
        beforeClose: async ({ anthropic }) => {
          worker = anthropic.requests.filter((q) => q.role === 'worker').map((q) => ({ outcome: q.outcome, messages: q.body.messages as Q['messages'] }));
          summaries = anthropic.requests.filter((q) => q.role === 'summarizer').length;
        },
      },
    });
    expectFaithful(r);
    // No request was refused: before the fix, the first request after compaction got the 400
    // "The block is bound to a different conversation" in each attempt, and the run ended with no PR.
    expect(worker.map((q) => q.outcome)).toEqual([200, 200, 200, 200]);
    expect(summaries).toBe(1);
    // Before compaction the worker sent its thinking back, as the API wants.
    const blocks = (q: Q) => q.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
    expect(blocks(worker[1]!).some((b) => b.type === 'thinking')).toBe(true);
    // After it: one opening message with the summary and the last step as text, and no thinking from before.
    const fresh = worker[2]!;
    expect(fresh.messages).toHaveLength(1);
    const opening = JSON.stringify(fresh.messages[0]);
    expect(opening).toContain('Your work so far (summarised)');
    expect(opening).toContain('Your latest turns, word for word');
    expect(opening).toContain('run_command');
    expect(blocks(fresh).some((b) => b.type === 'thinking')).toBe(false);
    // From there the conversation only grows (the cache breakpoint moves on to the newest message).
    const unmarked = (m: unknown) => JSON.stringify(m, (k, v: unknown) => (k === 'cache_control' ? undefined : v));
    expect(unmarked(worker[3]!.messages[0])).toBe(unmarked(fresh.messages[0]));
    expect(worker[3]!.messages).toHaveLength(3);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toEqual(['NUMBERS.md']);
  });
});
