import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runIntake } from '../../../src/agents/intake';
import { PathJail } from '../../../src/agents/path-jail';
import { reviewPlan } from '../../../src/agents/plan-reviewer';
import { readOnlyTools } from '../../../src/agents/read-only-tools';
import { SubmissionRejected } from '../../../src/agents/submission';
import { ZERO_USAGE } from '../../../src/domain/run-state';
import type { Log, Model, ModelReply, ModelRequest, ToolUseBlock } from '../../../src/ports';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
/** The calls here differ only in the model's script. */
const call = (model: Model) => ({ model, modelId: 'm', system: 'sys', log });

/** A model that answers the n-th request with the n-th list of tool calls, recording every request. */
function scripted(turns: { name: string; input: unknown }[][]): { model: Model; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    model: {
      async complete(req): Promise<ModelReply> {
        requests.push(structuredClone(req));
        const calls = turns[requests.length - 1] ?? [];
        return {
          content: calls.map((c, i): ToolUseBlock => ({ type: 'tool_use', id: `tu${requests.length}_${i}`, name: c.name, input: c.input })),
          stopReason: 'tool_use',
          usage: ZERO_USAGE,
        };
      },
    },
  };
}

const results = (req: ModelRequest) =>
  req.messages
    .at(-1)!
    .content.filter((b) => b.type === 'tool_result')
    .map((b) => (b as { content: string; is_error?: boolean }).content);

const INTAKE = { task: 'Add slugify.', criteria: [{ text: 'the unit tests pass', kind: 'command', command: 'npm run test:unit' }], single_task: false };

describe('the planning roles look at the repository before they answer (#48)', () => {
  let repo: string;
  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'planning-eyes-'));
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ scripts: { 'test:unit': 'vitest run' } }));
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));
  const eyes = (turns: number) => ({ map: '## Repository map\npackage.json', look: { tools: readOnlyTools(new PathJail(repo, []), 10_000), turns } });

  it('an intake that reads a file gets its text, then answers; the prompt holds the scripts, the map and the allowance', async () => {
    const { model, requests } = scripted([[{ name: 'read_file', input: { path: 'package.json' } }], [{ name: 'submit_intake', input: INTAKE }]]);
    const out = await runIntake(call(model), {
      title: 'Add slugify',
      body: 'Please.',
      stated: [],
      answers: '',
      eyes: eyes(6),
      scripts: ['package.json scripts:', '  test:unit: vitest run'],
    });
    expect(out.intake.criteria[0]!.command).toBe('npm run test:unit');
    expect(requests).toHaveLength(2);
    const first = JSON.stringify(requests[0]!.messages[0]);
    expect(first).toContain('## Scripts the repository has');
    expect(first).toContain('  test:unit: vitest run');
    expect(first).toContain('## Repository map\\npackage.json');
    expect(first).toContain('you may look at the repository with list_files, read_file, search, for at most 6 turns');
    expect(requests[0]!.tools.map((t) => t.name)).toEqual(['list_files', 'read_file', 'search', 'submit_intake']);
    expect(results(requests[1]!)[0]).toContain('"test:unit":"vitest run"');
  });

  it('an answer on the first turn still ends it, as scripted scenarios give it', async () => {
    const { model, requests } = scripted([[{ name: 'submit_intake', input: INTAKE }]]);
    await runIntake(call(model), { title: 'T', body: 'B', stated: [], answers: '', eyes: eyes(6) });
    expect(requests).toHaveLength(1);
  });

  it('past the allowance the read tools refuse and ask for the answer, which still has its re-asks', async () => {
    const review = { verdict: 'PASS', findings: [] };
    const read = { name: 'list_files', input: {} };
    const { model, requests } = scripted([[read], [read], [{ name: 'submit_review', input: review }]]);
    const plan = { summary: 'S', criteria: [], tasks: [] };
    const out = await reviewPlan(call(model), { title: 'T', body: 'B' }, plan, eyes(1));
    expect(out.verdict).toBe('PASS');
    expect(results(requests[1]!)[0]).toBe('package.json');
    expect(results(requests[2]!)[0]).toContain('Your 1 turn of looking at the repository is used up; answer now by calling submit_review.');
  });

  it('the allowance adds turns to look, not answers: three refused answers end it, with turns still left', async () => {
    const bad = [{ name: 'submit_intake', input: { task: '', criteria: [] } }];
    const { model, requests } = scripted([bad, bad, bad, bad, bad, bad]);
    const err = await runIntake(call(model), { title: 'T', body: 'B', stated: [], answers: '', eyes: eyes(6) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SubmissionRejected);
    expect((err as SubmissionRejected).attempts).toBe(3);
    expect(requests).toHaveLength(3);
  });
});
