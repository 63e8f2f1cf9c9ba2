import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runToolLoop, type AgentTool } from '../../../src/agents/tool-loop';
import { usageOf } from '../../../src/domain/pricing';
import { SIZE_LIMITS, summaryOf, TrajectorySchema, usageFrom, type Trajectory } from '../../../src/domain/trajectory';
import type { Log, Model, ModelReply } from '../../../src/ports';
import { agentRunsSummary, terminalSafe, terminalTrajectory, turnLines } from '../../../src/render/trajectory';
import { addSecret } from '../../../src/text/redact';
import { recordLine, TrajectoryRecorder } from '../../../src/trajectory/recorder';
import { abandonedUploads, artifactsAvailable, uploadArtifact } from '../../../src/adapters/artifact/upload';
import { FakeArtifactService } from '../../support/artifacts/fake-artifact-service';
import { ConfigError, parseConfig } from '../../../src/config/schema';
import { githubTrajectories, type GitHubTrajectoryIO } from '../../../src/trajectory/github';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

function recorder(level: 'full' | 'summary' | 'none' = 'full') {
  const turns: string[] = [];
  const r = new TrajectoryRecorder({
    level: () => level,
    issue: 7,
    run: 1,
    job: { step: 'work', id: 'job-1', url: () => 'https://github.com/o/r/actions/runs/1/job/2', workflowRun: '1' },
    now: () => Date.now(),
    warn: () => undefined,
    sinks: [{ turn: (_rec, t) => turns.push(`turn ${t.turn}`) }],
  });
  return { r, turns };
}

/** A model that plays `replies` in order, each costing what the price list says for its tokens. */
function playing(replies: Array<Omit<ModelReply, 'usage'>>): Model {
  let i = 0;
  return {
    async complete() {
      const reply = replies[i++];
      if (!reply) throw new Error('the script ran out');
      return { ...reply, usage: usageOf('claude-haiku-4-5', { input: 1000 + i, output: 100 * i, cacheRead: 10, cacheWrite: 5 }) };
    },
  };
}

const tool = (name: string, run: AgentTool['run'], final = false): AgentTool => ({
  spec: { name, description: name, input_schema: { type: 'object' } },
  run,
  final,
});

describe('the trajectory of a tool loop', () => {
  it('records each turn: the model, usage, stop reason, text, tool calls and their results, exit codes included', async () => {
    const { r, turns } = recorder();
    const outcome = await runToolLoop({
      model: playing([
        {
          stopReason: 'tool_use',
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'a', name: 'run_command', input: { command: 'npm test' } },
            { type: 'tool_use', id: 'b', name: 'nope', input: {} },
          ],
        },
        { stopReason: 'tool_use', content: [{ type: 'tool_use', id: 'c', name: 'done', input: { ok: true } }] },
      ]),
      modelId: 'claude-haiku-4-5',
      system: 's',
      firstMessage: 'go',
      maxTurns: 5,
      log,
      tools: [
        tool('run_command', (_input, facts) => {
          Object.assign(facts!, { exitCode: 1 });
          return 'exit code 1\n1 failing';
        }),
        tool('done', () => 'ok', true),
      ],
      trajectory: r.start({ agent: 'worker', model: 'claude-haiku-4-5', task: 't1', attempt: 2 }),
    });
    expect(outcome.stop).toBe('final');
    const [rec] = r.records();
    expect(TrajectorySchema.parse(rec)).toEqual(rec);
    expect(rec).toMatchObject({
      agent: 'worker',
      task: 't1',
      attempt: 2,
      issue: 7,
      num_turns: 2,
      stop: 'final',
      job: { url: 'https://github.com/o/r/actions/runs/1/job/2' },
    });
    expect(usageFrom(rec!.usage)).toEqual(outcome.usage);
    expect(rec!.turns[0]!.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'a', name: 'run_command', input: { command: 'npm test' } },
      { type: 'tool_use', id: 'b', name: 'nope', input: {} },
    ]);
    expect(rec!.turns[0]!.tool_results).toEqual([
      expect.objectContaining({ tool_use_id: 'a', is_error: false, exit_code: 1, content: 'exit code 1\n1 failing' }),
      expect.objectContaining({ tool_use_id: 'b', is_error: true }),
    ]);
    expect(turns).toEqual(['turn 1', 'turn 2']);
    expect(turnLines(rec!.turns[0]!, 'full')).toEqual([
      '💬 Let me look.',
      '→ run_command npm test',
      expect.stringMatching(/^ {2}← exit 1 · \d\.\d s · 1 failing$/),
      '→ nope',
      expect.stringMatching(/^ {2}← error · /),
    ]);
  });

  it('ends the record when the loop throws, with the error', async () => {
    const { r } = recorder();
    const loop = runToolLoop({
      model: playing([{ stopReason: 'refusal', content: [{ type: 'text', text: 'no' }] }]),
      modelId: 'm',
      system: 's',
      firstMessage: 'go',
      maxTurns: 3,
      log,
      tools: [],
      trajectory: r.start({ agent: 'critic', model: 'm', iteration: 1 }),
    });
    await expect(loop).rejects.toThrow(/refused/);
    expect(r.records()[0]).toMatchObject({ stop: 'error', error: expect.stringContaining('refused'), num_turns: 1 });
  });
});

describe('a record stays bounded', () => {
  const big = (n: number) => 'x'.repeat(n);
  /** A turn at every cap: long text and thinking, five parallel calls with long inputs and results. */
  function maxTurn(t: ReturnType<TrajectoryRecorder['start']>, turn: number) {
    const uses = Array.from({ length: 5 }, (_, i) => ({
      type: 'tool_use' as const,
      id: `u${turn}-${i}`,
      name: 'write_file',
      input: { path: `f${i}`, content: big(50_000) },
    }));
    t.reply(turn, {
      model: 'm',
      startedAt: Date.now(),
      durationMs: 1000,
      reply: {
        stopReason: 'tool_use',
        content: [{ type: 'thinking', thinking: big(20_000), signature: 's' }, { type: 'text', text: big(30_000) }, ...uses],
        usage: usageOf('m', { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }),
      },
    });
    for (const use of uses) t.toolResult(turn, { use, content: big(40_000), isError: false, durationMs: 5 });
    t.turnDone(turn);
  }

  it(`a 60-turn worker at every cap stays under the stated limit of ${SIZE_LIMITS.recordBytes} bytes`, () => {
    const { r } = recorder();
    const t = r.start({ agent: 'worker', model: 'm', task: 't1', attempt: 1 });
    for (let turn = 1; turn <= 60; turn++) maxTurn(t, turn);
    t.end({ stop: 'max_turns' });
    const line = recordLine(r.records()[0]!, 'full');
    expect(line.length).toBeLessThan(SIZE_LIMITS.recordBytes);
    expect(r.records()[0]!.cut).toBe(false);
    // Every turn kept its tool calls, even where the turn's room for text ran out.
    expect(r.records()[0]!.turns.every((x) => x.content.filter((b) => b.type === 'tool_use').length === 5)).toBe(true);
  });

  it('past the limit, later turns keep their numbers and tool names only, so even a very long run stays bounded', () => {
    const { r } = recorder();
    const t = r.start({ agent: 'worker', model: 'm', task: 't1', attempt: 1 });
    for (let turn = 1; turn <= 400; turn++) maxTurn(t, turn);
    t.end({ stop: 'max_turns' });
    const rec = r.records()[0]!;
    expect(rec.cut).toBe(true);
    expect(rec.turns.at(-1)).toMatchObject({ short: true });
    expect(rec.turns.at(-1)!.content.filter((b) => b.type === 'tool_use')).toHaveLength(5);
    expect(recordLine(rec, 'full').length).toBeLessThan(SIZE_LIMITS.recordBytes + 400 * 2_000);
  });
});

describe('what a record keeps and shows', () => {
  function sample(): Trajectory {
    const { r } = recorder();
    const t = r.start({ agent: 'worker', model: 'm', task: 't1', attempt: 1 });
    const use = { type: 'tool_use' as const, id: 'u', name: 'run_command', input: { command: 'cat secret.txt' } };
    t.reply(1, {
      model: 'm',
      startedAt: Date.now(),
      durationMs: 10,
      reply: {
        stopReason: 'tool_use',
        content: [{ type: 'text', text: 'cc @octocat <img src=x> fixes #3 sk-ant-unit-canary-0123456789' }, { type: 'text', text: '::error::forged' }, use],
        usage: usageOf('m', { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }),
      },
    });
    t.toolResult(1, { use, content: 'exit code 0\nsk-ant-unit-canary-0123456789\n\u001b[31mred', isError: false, durationMs: 3, facts: { exitCode: 0 } });
    t.end({ stop: 'final' });
    return r.records()[0]!;
  }

  it('redacts secrets in what it writes, and `summary` keeps none of the words or the output', () => {
    addSecret('a-known-secret-value');
    const rec = sample();
    rec.turns[0]!.tool_results[0]!.content += ' a-known-secret-value';
    const full = recordLine(rec, 'full');
    expect(full).not.toMatch(/sk-ant-unit-canary|a-known-secret-value/);
    expect(full).toContain('***');
    const summary = JSON.parse(recordLine(rec, 'summary')) as Trajectory;
    expect(TrajectorySchema.parse(summary)).toEqual(summary);
    expect(JSON.stringify(summary)).not.toMatch(/octocat|red|canary/);
    expect(summary.turns[0]!.content).toEqual([
      expect.objectContaining({ type: 'text', omitted_chars: expect.any(Number) }),
      expect.objectContaining({ type: 'text', omitted_chars: 15 }),
      expect.objectContaining({ name: 'run_command', input: { command: 'cat secret.txt' } }),
    ]);
    expect(summary.turns[0]!.tool_results[0]).toMatchObject({ exit_code: 0 });
    expect(summary.turns[0]!.tool_results[0]!.content).toBeUndefined();
    expect(summaryOf(summary)).toEqual(summary);
  });

  it('renders model text inert in the step summary, never as a workflow command in the log, and without escapes at a terminal', () => {
    const rec = JSON.parse(recordLine(sample(), 'full')) as Trajectory;
    const md = agentRunsSummary([rec], 'full', '[artifact](https://x)');
    expect(md).toContain('<code>@octocat</code>');
    expect(md).not.toMatch(/<img|fixes #3/);
    expect(md).toMatch(/\| \*\*Total\*\* \| 1 \| 1 \| 1 \| 0 \| 0 \|/);
    for (const l of turnLines(rec.turns[0]!, 'full')) expect(l).not.toMatch(/^::/);
    const shown = terminalTrajectory(rec).join('\n');
    expect(shown).not.toMatch(/\u001b/);
    expect(shown).toContain('← exit 0');
    expect(terminalSafe('a\u001b[2Jb\u0007c\nd')).toBe('abc\nd');
    expect(agentRunsSummary([rec], 'none', null)).toContain('No trajectories were kept');
    expect(agentRunsSummary([rec], 'none', null)).not.toContain('octocat');
  });
});

describe('where artifacts can be kept', () => {
  it('github.com, GitHub Enterprise Cloud (*.ghe.com) and *.localhost have the artifact service; a GitHub Enterprise Server does not', () => {
    expect(artifactsAvailable('https://github.com')).toBe(true);
    expect(artifactsAvailable('https://octocorp.ghe.com')).toBe(true);
    expect(artifactsAvailable('http://github.localhost:4000')).toBe(true);
    expect(artifactsAvailable('https://github.example.com')).toBe(false);
    expect(artifactsAvailable('http://127.0.0.1:4000')).toBe(false);
    expect(artifactsAvailable(undefined)).toBe(true);
  });
});

describe('the transcripts key', () => {
  const problems = (text: string) => {
    try {
      parseConfig(text);
      return [];
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
  };

  it('keeps everything for 30 days by default, takes `none` as a short form, and names the key when a value is wrong', () => {
    expect(parseConfig(undefined).transcripts).toEqual({ keep: 'full', retention_days: 30 });
    expect(parseConfig('transcripts: none\n').transcripts).toEqual({ keep: 'none', retention_days: 30 });
    expect(parseConfig('transcripts:\n  keep: summary\n  retention_days: 7\n').transcripts).toEqual({ keep: 'summary', retention_days: 7 });
    expect(problems('transcripts: sometimes\n')).toEqual([
      '`transcripts`: expected `full`, `summary` or `none`, or a mapping with `keep` and `retention_days` (got "sometimes")',
    ]);
    expect(problems('transcripts:\n  retention_days: 0\n')[0]).toMatch(/^`transcripts.retention_days`: .*>=1.* \(got 0\)$/);
    expect(problems('transcripts:\n  kept: none\n')).toEqual(['unknown key `transcripts.kept`: remove it or check the spelling']);
  });
});

describe("a job's trajectories on GitHub", () => {
  function job(upload: GitHubTrajectoryIO['upload'], level: 'full' | 'none' = 'full') {
    const warnings: string[] = [];
    const summaries: string[] = [];
    const groups: string[] = [];
    const uploads: string[] = [];
    const gh = githubTrajectories({
      io: {
        group: (title) => groups.push(title),
        upload: async (name, files) => {
          uploads.push(name);
          return upload(name, files);
        },
        summary: async (md) => void summaries.push(md),
        warn: (m) => warnings.push(m),
      },
      level: () => level,
      working: () => ({ issue: 7, run: 2 }),
      job: { step: 'work', id: 'job-1', url: () => 'https://github.com/o/r/actions/runs/1/job/2', workflowRun: '1', runAttempt: 1 },
      now: () => Date.now(),
      publicRepository: false,
    });
    const t = gh.recorder.start({ agent: 'worker', model: 'm', task: 't1', attempt: 1 });
    t.reply(1, {
      model: 'm',
      startedAt: Date.now(),
      durationMs: 5,
      reply: { stopReason: 'end_turn', content: [{ type: 'text', text: 'done' }], usage: usageOf('m', { input: 3, output: 2, cacheRead: 0, cacheWrite: 0 }) },
    });
    t.end({ stop: 'final' });
    return { gh, warnings, summaries, groups, uploads };
  }

  it('an upload the artifact service refuses costs a warning that names it, and the step summary still has the numbers', async () => {
    const j = job(async () => {
      throw new Error('Failed to CreateArtifact: Received non-retryable error: 403 Forbidden');
    });
    expect(await j.gh.recorder.publish('t1-attempt1')).toBeNull();
    await j.gh.finish();
    expect(j.uploads).toEqual(['crew-trajectories-7-r2-t1-attempt1']);
    expect(j.warnings).toEqual(['could not keep the trajectories of t1-attempt1: Failed to CreateArtifact: Received non-retryable error: 403 Forbidden']);
    expect(j.summaries).toHaveLength(1);
    expect(j.summaries[0]).toMatch(/\| \*\*Total\*\* \| 1 \| 3 \| 2 \| 0 \| 0 \|/);
    expect(j.groups).toHaveLength(1);
  });

  it('uploads each set once: what an attempt published is not uploaded again at the end of the job', async () => {
    const j = job(async (name) => `https://github.com/o/r/actions/runs/1/artifacts/${name.length}`);
    expect(await j.gh.recorder.publish('t1-attempt1')).toMatch(/\/artifacts\/\d+$/);
    await j.gh.finish();
    expect(j.uploads).toEqual(['crew-trajectories-7-r2-t1-attempt1']);
    expect(j.summaries[0]).toContain('[crew-trajectories-7-r2-t1-attempt1](https://github.com/o/r/actions/runs/1/artifacts/');
  });

  it('with `transcripts: none` nothing is uploaded and no group is printed, yet the summary keeps the numbers', async () => {
    const j = job(async () => 'https://x', 'none');
    await j.gh.finish();
    expect(j.uploads).toEqual([]);
    expect(j.groups).toEqual([]);
    expect(j.summaries[0]).toContain('No trajectories were kept');
  });
});

describe('MCP answers on a public repository', () => {
  /** A worker turn that calls an MCP tool and a built-in one, in a job of a public or a private repository. */
  async function played(publicRepository: boolean) {
    const lines: string[] = [];
    const files: string[] = [];
    const summaries: string[] = [];
    const gh = githubTrajectories({
      io: {
        group: (title, l) => lines.push(title, ...l),
        upload: async (_name, f) => {
          files.push(...f.map((x) => x.text));
          return 'https://github.com/o/r/actions/runs/1/artifacts/9';
        },
        summary: async (md) => void summaries.push(md),
        warn: () => {},
      },
      level: () => 'full',
      working: () => ({ issue: 7, run: 2 }),
      job: { step: 'work', id: 'job-1', url: () => null, workflowRun: '1', runAttempt: 1 },
      now: () => Date.now(),
      publicRepository,
    });
    const t = gh.recorder.start({ agent: 'worker', model: 'm', task: 't1', attempt: 1 });
    const mcp = { type: 'tool_use' as const, id: 'u1', name: 'mcp__tracker__ticket', input: { id: 'T-9' } };
    const read = { type: 'tool_use' as const, id: 'u2', name: 'read_file', input: { path: 'README.md' } };
    t.reply(1, {
      model: 'm',
      startedAt: Date.now(),
      durationMs: 5,
      reply: { stopReason: 'tool_use', content: [mcp, read], usage: usageOf('m', { input: 3, output: 2, cacheRead: 0, cacheWrite: 0 }) },
    });
    t.toolResult(1, { use: mcp, content: 'INTERNAL-TICKET customer acme pays 40k', isError: false, durationMs: 3 });
    t.toolResult(1, { use: read, content: 'README-TEXT', isError: false, durationMs: 1 });
    t.turnDone(1);
    t.end({ stop: 'final' });
    await gh.finish();
    return { all: [...lines, ...files, ...summaries].join('\n'), record: JSON.parse(files[0]!) as Trajectory };
  }

  it('are left out of the job log, the step summary and the artifact, with a note; other tools keep theirs', async () => {
    const pub = await played(true);
    expect(pub.all).not.toContain('INTERNAL-TICKET');
    expect(pub.all).toContain('README-TEXT');
    expect(pub.all).toContain('the answer of mcp__tracker__ticket is left out: this repository is public');
    expect(pub.record.turns[0]!.tool_results[0]).toMatchObject({ tool_use_id: 'u1', cut: 'INTERNAL-TICKET customer acme pays 40k'.length });
    expect(pub.record.turns[0]!.tool_results[0]).not.toHaveProperty('content');
    expect(TrajectorySchema.safeParse(pub.record).success).toBe(true);
    // A private repository's people are the only readers: the answer is kept.
    expect((await played(false)).all).toContain('INTERNAL-TICKET');
  });
});

describe('an artifact upload', () => {
  it('that the service never answers is given up on at its deadline, with a message naming the artifact', async () => {
    const service = await FakeArtifactService.start();
    service.stalled = true;
    const saved = { ...process.env };
    Object.assign(process.env, service.jobEnv(4_100_000_001, 'work (t1)'));
    const dir = await mkdtemp(join(tmpdir(), 'crew-upload-'));
    const before = abandonedUploads();
    try {
      const upload = uploadArtifact(
        { dir, runPage: 'https://github.com/o/r/actions/runs/4100000001', retentionDays: 7, deadlineMs: 3_000 },
        'crew-trajectories-7-r2-t1',
        [{ name: 'trajectories.jsonl', text: '{}\n' }],
      );
      // Long enough for the library's first request to arrive on a loaded machine; the service never answers it.
      await expect(upload).rejects.toThrow(/^the artifact service did not finish the upload of crew-trajectories-7-r2-t1 within 3.0 s; crew gave up on it/);
      expect(service.requests).toEqual([{ what: 'CreateArtifact (never answered)', status: 0 }]);
      expect(abandonedUploads()).toBe(before + 1);
    } finally {
      for (const k of ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL', 'GITHUB_RETENTION_DAYS']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
