import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';

/**
 * `crew eval` through the real bin (bin/crew.js → dist/cli) as a separate process, with scripted
 * models, on instances over a local bare repository the test builds (no network): predictions,
 * self-scoring, broken instances, the results page and chart, and a killed eval resumed.
 */

const exec = promisify(execFile);
const BIN = join(PROJECT_ROOT, 'bin', 'crew.js');

let root: string;
let base: string;
let fix: string;
const env = () => ({
  PATH: process.env.PATH!,
  HOME: join(root, 'home'),
  CREW_TIME_SCALE: '0.01',
  CREW_EVAL_MIRRORS: join(root, 'mirrors'),
  CREW_EVAL_CACHE: join(root, 'cache'),
  // Nothing is fetched from the network: a repository not in the mirrors is not found.
  CREW_EVAL_GIT_BASE: `file://${join(root, 'nowhere')}/`,
});

const SUM_BUGGY = 'export const add = (a, b) => a - b;\nexport const mul = (a, b) => a * b;\n';
const SUM_FIXED = 'export const add = (a, b) => a + b;\nexport const mul = (a, b) => a * b;\n';
const SUM_WRONG = 'export const add = (a, b) => a + b + 1;\nexport const mul = (a, b) => a * b;\n';
const SUM_MUL_BROKEN = 'export const add = (a, b) => a + b;\nexport const mul = (a, b) => a * b + 1;\n';
const TEST_BASE =
  "import test from 'node:test';\nimport assert from 'node:assert';\nimport { mul } from '../src/sum.js';\ntest('multiplies', () => assert.equal(mul(2, 3), 6));\n";
const TEST_FIX = `${TEST_BASE}test('adds', async () => assert.equal((await import('../src/sum.js')).add(2, 3), 5));\n`;

async function git(dir: string, ...args: string[]): Promise<string> {
  return (await exec('git', ['-C', dir, '-c', 'user.name=maintainer', '-c', 'user.email=m@example.com', ...args])).stdout.trim();
}

const REPORT = {
  status: 'success',
  quality: 'GREEN',
  completeness: 100,
  summary: 'Changed add in src/sum.js.',
  details: Array.from({ length: 22 }, (_, i) => `- line ${i + 1} of the report`).join('\n'),
};

/** The crew way: intake, plan review, one worker that writes src/sum.js (after `first` moves), the critic, the retrospective. */
function crewScript(content: string, first: unknown[] = [], ask = false): string {
  return crewRun([{ role: 'worker', task: 't1', replies: [...first, ...workerReplies(content)] }], EXISTS, ask);
}

const EXISTS = { text: 'src/sum.js exists', kind: 'command', command: 'test -f src/sum.js' };
/** What tells a right add() from a wrong one in the play: the tests there are, and add(2, 3) is 5. */
const ADDS = {
  text: 'the tests pass and add(2, 3) is 5',
  kind: 'command',
  command: `node --test && node --input-type=module -e "import { add } from './src/sum.js'; process.exit(add(2, 3) === 5 ? 0 : 1)"`,
};

/** crew-best-of-N (#50): the crew run, with each parallel attempt of t1 writing its own src/sum.js. */
function bestOfScript(attempts: string[], criterion: typeof EXISTS): string {
  return crewRun(
    attempts.map((content, i) => ({
      role: 'worker',
      task: 't1',
      contains: `Parallel attempt: ${i + 1} of ${attempts.length}`,
      replies: workerReplies(content),
    })),
    criterion,
  );
}

function crewRun(workers: unknown[], criterion: typeof EXISTS, ask = false): string {
  // Asked, intake puts a question first; its second entry answers only once the reply is in the prompt.
  const question = {
    role: 'intake',
    replies: [
      {
        content: [
          {
            type: 'tool_use',
            name: 'submit_intake',
            input: {
              task: 'Make add() add.',
              criteria: [{ text: 'add is right', kind: 'semantic' }],
              questions: ['Should add() accept strings?'],
              single_task: false,
            },
          },
        ],
      },
    ],
  };
  return YAML.stringify({
    entries: [
      ...(ask ? [question] : []),
      {
        role: 'intake',
        ...(ask ? { contains: 'decide yourself' } : {}),
        replies: [
          {
            content: [
              {
                type: 'tool_use',
                name: 'submit_intake',
                input: {
                  task: 'Make add() add.',
                  criteria: [criterion],
                  questions: [],
                  single_task: true,
                  persona: 'coder',
                  model: 'haiku',
                },
              },
            ],
          },
        ],
      },
      { role: 'plan_reviewer', replies: [{ content: [{ type: 'tool_use', name: 'submit_review', input: { verdict: 'PASS' } }] }] },
      ...workers,
      {
        role: 'critic',
        replies: [
          {
            content: [
              {
                type: 'tool_use',
                name: 'submit_judgment',
                input: {
                  evaluations: [{ criterion: 'c1', met: true, evidence: [`\`${criterion.command}\` exited 0`], confidence: 0.9, tasks: ['t1'] }],
                  overall_reason: `${criterion.text}.`,
                },
              },
            ],
          },
        ],
      },
      {
        role: 'retrospector',
        replies: [
          {
            content: [
              { type: 'tool_use', name: 'submit_retrospective', input: { summary: 'One task.', went_well: ['Small.'], went_wrong: [], proposals: [] } },
            ],
          },
        ],
      },
    ],
  });
}

function workerReplies(content: string): unknown[] {
  return [
    { content: [{ type: 'tool_use', name: 'write_file', input: { path: 'src/sum.js', content } }] },
    { content: [{ type: 'tool_use', name: 'report_result', input: REPORT }] },
  ];
}

/** The single way: the worker alone (the same role and task id crew's worker has). */
function singleScript(content: string, first: unknown[] = []): string {
  return YAML.stringify({ entries: [{ role: 'worker', task: 't1', replies: [...first, ...workerReplies(content)] }] });
}

const SLOW = [{ content: [{ type: 'tool_use', name: 'run_command', input: { command: 'sleep 4' } }] }];

function instance(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    instance_id: id,
    repo: 'fixture/calc',
    base_commit: base,
    fix_commit: fix,
    problem_statement: 'add(2, 3) returns -1: add() subtracts. It must return the sum.',
    test_cmd: 'node --test',
    test_files: ['test/sum.test.js'],
    FAIL_TO_PASS: ['test/sum.test.js::adds'],
    PASS_TO_PASS: ['test/sum.test.js::multiplies'],
    ...extra,
  };
}

function crew(
  args: string[],
  opts: { detached?: boolean; env?: Record<string, string> } = {},
): { done: Promise<{ code: number | null; out: string }>; pid: number } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: root,
    env: { ...env(), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.detached === true,
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
  return { done, pid: child.pid! };
}

type Result = {
  instance_id: string;
  escalations: string[];
  critic_verdict: string | null;
  way: string;
  status: string;
  reason?: string;
  score: { kind: string; reason: string } | null;
  usage: { tokens: number; cost_usd: number; input_tokens: number; output_tokens: number };
  turns: number;
  attempts: number;
  trajectories: string[];
};
type Results = {
  results: Result[];
  totals: Array<{ way: string; tokens: number; cost_usd: number; resolve_rate: number; resolved: number; cost_per_resolved_usd: number | null }>;
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crew-eval-'));
  await mkdir(join(root, 'home'));
  const src = join(root, 'src-repo');
  await mkdir(join(src, 'src'), { recursive: true });
  await mkdir(join(src, 'test'));
  await writeFile(join(src, 'package.json'), '{ "name": "calc", "type": "module", "private": true, "scripts": { "test": "node --test" } }\n');
  await writeFile(join(src, 'src', 'sum.js'), SUM_BUGGY);
  await writeFile(join(src, 'test', 'sum.test.js'), TEST_BASE);
  await git(src, 'init', '-q', '-b', 'main');
  await git(src, 'add', '-A');
  await git(src, 'commit', '-qm', 'calc');
  base = await git(src, 'rev-parse', 'HEAD');
  await writeFile(join(src, 'src', 'sum.js'), SUM_FIXED);
  await writeFile(join(src, 'test', 'sum.test.js'), TEST_FIX);
  await git(src, 'commit', '-qam', 'add adds');
  fix = await git(src, 'rev-parse', 'HEAD');
  await mkdir(join(root, 'mirrors'));
  await exec('git', ['clone', '-q', '--bare', src, join(root, 'mirrors', 'fixture+calc')]);

  const scripts = join(root, 'scripts');
  await mkdir(scripts);
  const files: Record<string, string> = {
    'calc-resolved.crew.yaml': crewScript(SUM_FIXED),
    'calc-resolved.single.yaml': singleScript(SUM_FIXED),
    'calc-wrong.crew.yaml': crewScript(SUM_WRONG),
    // Slow on purpose: the kill test stops the eval while this one plays.
    'calc-wrong.single.yaml': singleScript(SUM_WRONG, SLOW),
    // Best of three: attempt 1 adds one too many, attempt 3 fixes add and breaks mul; attempt 2 is right.
    'calc-resolved.crew-best-of-3.yaml': bestOfScript([SUM_WRONG, SUM_FIXED, SUM_MUL_BROKEN], ADDS),
    // Three wrong alike, and a criterion that cannot tell: the critic is fooled, the tests are not.
    'calc-wrong.crew-best-of-3.yaml': bestOfScript([SUM_WRONG, SUM_WRONG, SUM_WRONG], EXISTS),
    'calc-untested.crew.yaml': crewScript(SUM_FIXED, [], true),
    'calc-untested.single.yaml': singleScript(SUM_FIXED),
    // The play's command plants what npm reads in the tool user's home: node-options replaces crew's NODE_OPTIONS.
    'calc-planted.single.yaml': singleScript(SUM_FIXED, [
      { content: [{ type: 'tool_use', name: 'run_command', input: { command: `printf 'node-options=--no-warnings\\n' > "$HOME/.npmrc"` } }] },
    ]),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(scripts, name), text);
  const lines = [
    instance('calc-resolved'),
    instance('calc-wrong'),
    // SWE-bench's own instances carry no test_cmd: scored by the official harness only.
    instance('calc-untested', { test_cmd: undefined }),
    instance('calc-bad-commit', { base_commit: 'f'.repeat(40) }),
    instance('calc-bad-setup', { setup: ['echo preparing; exit 3'] }),
  ];
  await writeFile(join(root, 'instances.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  await writeFile(join(root, 'planted.jsonl'), `${JSON.stringify(instance('calc-planted', { test_cmd: 'npm test' }))}\n`);
  await writeFile(
    join(root, 'two.jsonl'),
    `${lines
      .slice(0, 2)
      .map((l) => JSON.stringify(l))
      .join('\n')}\n`,
  );
}, 60_000);

afterAll(async () => {
  if (process.env.KEEP_EVAL_TEST) return console.log(root);
  await rm(root, { recursive: true, force: true });
});

describe('crew eval', () => {
  let full: Results;
  let fullOut: string;

  it('plays three instances both ways: SWE-bench predictions, one resolved, one not, one unscorable, each with its reason; broken instances are recorded and the rest go on', async () => {
    fullOut = join(root, 'out');
    const r = await crew(['eval', 'instances.jsonl', '--out', fullOut, '--scripted', join(root, 'scripts'), '--allow-unsandboxed', '--concurrency', '2']).done;
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/\[ ?\d+\/10\] ■■■■ calc-resolved · crew · resolved/);
    full = JSON.parse(await readFile(join(fullOut, 'results.json'), 'utf8')) as Results;
    const of = (id: string, way: string) => full.results.find((x) => x.instance_id === id && x.way === way)!;
    for (const way of ['crew', 'single']) {
      expect(of('calc-resolved', way).score).toMatchObject({ kind: 'resolved', reason: 'all 1 FAIL_TO_PASS and 1 PASS_TO_PASS tests pass' });
      expect(of('calc-wrong', way).score).toMatchObject({
        kind: 'unresolved',
        reason: 'FAIL_TO_PASS 1 of 1 still not passing: test/sum.test.js::adds (failed)',
      });
      expect(of('calc-untested', way).score?.kind).toBe('unscorable');
      expect(of('calc-untested', way).score?.reason).toContain('no test_cmd');
      expect(of('calc-bad-commit', way)).toMatchObject({ status: 'broken', score: null });
      expect(of('calc-bad-commit', way).reason).toContain(`commit ${'f'.repeat(40)} is not in fixture/calc`);
      expect(of('calc-bad-setup', way)).toMatchObject({ status: 'broken', score: null });
      expect(of('calc-bad-setup', way).reason).toMatch(/setup failed: .*exit(ed)? (code )?3/);
    }
    expect(of('calc-resolved', 'crew').turns).toBeGreaterThan(of('calc-resolved', 'single').turns);
    // No person is there: crew's question was answered for them, and the results say so.
    expect(of('calc-untested', 'crew')).toMatchObject({ escalations: ['a question was answered "decide yourself"'], critic_verdict: 'PASS' });
    expect(await readFile(join(fullOut, 'results.md'), 'utf8')).toContain('- calc-untested (crew): a question was answered "decide yourself"');

    // Predictions: SWE-bench's three fields, the diff from base_commit, which applies to it.
    for (const way of ['crew', 'single']) {
      const lines = (await readFile(join(fullOut, `predictions-${way}.jsonl`), 'utf8')).trimEnd().split('\n');
      expect(lines).toHaveLength(3);
      for (const line of lines) {
        const p = JSON.parse(line) as Record<string, string>;
        expect(Object.keys(p).sort()).toEqual(['instance_id', 'model_name_or_path', 'model_patch']);
        expect(p.model_name_or_path).toBe(`crew-${way}:scripted`);
        expect(p.model_patch).toContain('diff --git a/src/sum.js b/src/sum.js');
        expect(p.model_patch).not.toContain('.crew/');
        const check = join(root, `apply-${way}-${p.instance_id}`);
        await exec('git', ['clone', '-q', join(root, 'mirrors', 'fixture+calc'), check]);
        await git(check, 'checkout', '-q', base);
        await writeFile(join(check, 'p.diff'), p.model_patch!);
        await git(check, 'apply', '--check', 'p.diff');
      }
    }
  });

  it('the results page and chart show the usage the model reported, instance by instance and in total', async () => {
    for (const r of full.results.filter((x) => x.status === 'played')) {
      let tokens = 0;
      let cost = 0;
      expect(r.trajectories.length).toBeGreaterThan(0);
      for (const t of r.trajectories)
        for (const line of (await readFile(join(fullOut, t), 'utf8')).trim().split('\n')) {
          const u = (JSON.parse(line) as { usage: Record<string, number> }).usage;
          tokens += u.input_tokens! + u.output_tokens! + u.cache_read_input_tokens! + u.cache_creation_input_tokens!;
          cost += u.cost_usd!;
        }
      expect(tokens).toBeGreaterThan(0);
      expect(r.usage.tokens).toBe(tokens);
      expect(r.usage.cost_usd).toBeCloseTo(cost, 6);
    }
    const md = await readFile(join(fullOut, 'results.md'), 'utf8');
    const svg = await readFile(join(fullOut, 'chart.svg'), 'utf8');
    for (const way of ['crew', 'single']) {
      const mine = full.results.filter((x) => x.way === way);
      const tokens = mine.reduce((n, x) => n + x.usage.tokens, 0);
      const cost = mine.reduce((n, x) => n + x.usage.cost_usd, 0);
      const total = full.totals.find((t) => t.way === way)!;
      expect(total).toMatchObject({ tokens, resolved: 1, resolve_rate: 0.5 });
      expect(total.cost_usd).toBeCloseTo(cost, 6);
      // Cost per resolved instance: all the way cost over its one resolved instance.
      expect(md).toContain(`| ${way} | 5 | 1 | 1 | 1 | 2 | 50.0% | ${tokens} | ${cost.toFixed(4)} | ${cost.toFixed(4)} |`);
      expect(svg).toContain(`${way}: 1/2 resolved, $${total.cost_usd.toFixed(4)}, $${cost.toFixed(4)} per resolved`);
      expect(svg).toContain(`data-way="${way}" data-cost-usd="${total.cost_usd}" data-resolve-rate="0.5" data-tokens="${tokens}"`);
      for (const r of mine.filter((x) => x.status === 'played'))
        expect(md).toContain(
          `| ${r.instance_id} | ${way} | ${r.score!.kind} | ${r.score!.reason.replace(/\|/g, '\\|')} | ${r.usage.tokens} | ${r.usage.cost_usd.toFixed(4)} |`,
        );
    }
    expect(md).toContain('](trajectories/calc-resolved/crew/');
  });

  it('--way crew,single,crew-best-of-3 (#50): best of three keeps the right attempt; predictions for every way, and results.md, results.json and the chart give each way its cost per resolved instance', async () => {
    const out = join(root, 'out-best-of');
    const r = await crew([
      'eval',
      'instances.jsonl',
      '--ids',
      'calc-resolved,calc-wrong',
      '--way',
      'crew,single,crew-best-of-3',
      '--out',
      out,
      '--scripted',
      join(root, 'scripts'),
      '--allow-unsandboxed',
      '--concurrency',
      '2',
    ]).done;
    expect(r.code, r.out).toBe(0);
    const ways = ['crew', 'single', 'crew-best-of-3'];
    const res = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as Results;
    const of = (id: string, way: string) => res.results.find((x) => x.instance_id === id && x.way === way)!;
    // Attempt 1 (add one too many) and attempt 3 (mul broken) fail the command criterion on their branches: attempt 2 is kept, and resolves.
    expect(of('calc-resolved', 'crew-best-of-3').score).toMatchObject({ kind: 'resolved', reason: 'all 1 FAIL_TO_PASS and 1 PASS_TO_PASS tests pass' });
    expect(of('calc-resolved', 'crew-best-of-3').critic_verdict).toBe('PASS');
    expect(of('calc-wrong', 'crew-best-of-3').score?.kind).toBe('unresolved');
    // The Attempts column counts what each way used: three parallel attempts of the one task, one for crew and single.
    expect(of('calc-resolved', 'crew-best-of-3').attempts).toBe(3);
    expect(of('calc-resolved', 'crew').attempts).toBe(1);
    expect(of('calc-resolved', 'single').attempts).toBe(1);
    // A worker's trajectory per attempt, each leg its own: t1, t1-a2, t1-a3.
    const legs = (id: string, way: string) =>
      of(id, way)
        .trajectories.filter((t) => /\/t1[^/]*\.jsonl$/.test(t))
        .map((t) => t.split('/').pop());
    expect(legs('calc-resolved', 'crew')).toEqual(['t1.jsonl']);
    expect(legs('calc-resolved', 'crew-best-of-3').sort()).toEqual(['t1-a2.jsonl', 't1-a3.jsonl', 't1.jsonl']);

    const predictions = (await readFile(join(out, 'predictions-crew-best-of-3.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(predictions.map((p) => [p.instance_id, p.model_name_or_path])).toEqual([
      ['calc-resolved', 'crew-crew-best-of-3:scripted'],
      ['calc-wrong', 'crew-crew-best-of-3:scripted'],
    ]);
    // The kept attempt's diff: add fixed, mul as it was, and nothing of attempts 1 and 3.
    const kept = predictions[0]!.model_patch!;
    expect(kept).toContain('+export const add = (a, b) => a + b;\n');
    expect(kept).not.toContain('a + b + 1');
    expect(kept).not.toContain('a * b + 1');
    for (const way of ['crew', 'single']) expect(existsSync(join(out, `predictions-${way}.jsonl`)), way).toBe(true);

    const md = await readFile(join(out, 'results.md'), 'utf8');
    const svg = await readFile(join(out, 'chart.svg'), 'utf8');
    expect(res.totals.map((t) => t.way)).toEqual(ways);
    for (const way of ways) {
      const mine = res.results.filter((x) => x.way === way);
      const tokens = mine.reduce((n, x) => n + x.usage.tokens, 0);
      const cost = mine.reduce((n, x) => n + x.usage.cost_usd, 0);
      const total = res.totals.find((t) => t.way === way)!;
      // One resolved of two: the price of that one fix is all the way cost, the unresolved instance's too.
      expect(total).toMatchObject({ tokens, resolved: 1, resolve_rate: 0.5 });
      expect(cost).toBeGreaterThan(0);
      expect(total.cost_per_resolved_usd).toBeCloseTo(cost, 6);
      expect(md).toContain(`| ${way} | 2 | 1 | 1 | 0 | 0 | 50.0% | ${tokens} | ${cost.toFixed(4)} | ${cost.toFixed(4)} |`);
      expect(svg).toContain(`${way}: 1/2 resolved, $${total.cost_usd.toFixed(4)}, $${cost.toFixed(4)} per resolved`);
    }
    // Three workers cost more than one: what the best of three pays for its pick.
    expect(of('calc-resolved', 'crew-best-of-3').usage.cost_usd).toBeGreaterThan(of('calc-resolved', 'crew').usage.cost_usd);
    if (process.env.KEEP_EVAL_TEST) console.log(md);
  });

  it('killed mid-instance and run again, it finishes with the same results and plays no finished instance twice', async () => {
    const out = join(root, 'out-killed');
    const args = ['eval', 'two.jsonl', '--out', out, '--scripted', join(root, 'scripts'), '--allow-unsandboxed'];
    const first = crew(args, { detached: true });
    const journal = join(out, 'journal.jsonl');
    const startedSingle = () =>
      readFile(journal, 'utf8').then(
        (t) => t.includes('"instance_id":"calc-wrong","way":"single"'),
        () => false,
      );
    const deadline = Date.now() + 180_000;
    while (!(await startedSingle())) {
      if (Date.now() > deadline) throw new Error(`the eval never reached calc-wrong's single way:\n${(await first.done).out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Inside its `sleep 4`: the whole process group goes at once, as on a crash.
    await new Promise((r) => setTimeout(r, 1500));
    process.kill(-first.pid, 'SIGKILL');
    await first.done;
    expect(existsSync(join(out, 'results.json'))).toBe(false);

    const again = await crew(args).done;
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain('Resuming: 3 of 4 already done');
    const lines = (await readFile(journal, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; instance_id?: string; way?: string; result?: Result });
    const count = (event: string, id: string, way: string) =>
      lines.filter((l) => l.event === event && (l.instance_id ?? l.result?.instance_id) === id && (l.way ?? l.result?.way) === way).length;
    for (const [id, way] of [
      ['calc-resolved', 'crew'],
      ['calc-resolved', 'single'],
      ['calc-wrong', 'crew'],
    ]) {
      expect(count('start', id!, way!), `${id} ${way}`).toBe(1);
      expect(count('done', id!, way!), `${id} ${way}`).toBe(1);
    }
    expect(count('start', 'calc-wrong', 'single')).toBe(2);
    expect(count('done', 'calc-wrong', 'single')).toBe(1);
    const resumed = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as Results;
    const strip = (r: Result) => ({ id: r.instance_id, way: r.way, score: r.score, usage: r.usage, turns: r.turns });
    expect(resumed.results.map(strip)).toEqual(full.results.filter((r) => ['calc-resolved', 'calc-wrong'].includes(r.instance_id)).map(strip));
    expect((await readdir(join(out, 'trajectories', 'calc-wrong', 'single'))).length).toBe(1);
  });

  it("the play's commands plant ~/.npmrc with node-options in the tool user's home: the scoring runs with a home of its own, and its tests are still read (#46)", async () => {
    const out = join(root, 'out-planted');
    // A temporary folder of this test's own, which the tool user can reach: the play's home, with what it planted, is looked at below and shared with no one.
    const temp = await mkdtemp(join(tmpdir(), 'crew-eval-temp-'));
    await chmod(temp, 0o755);
    try {
      const r = await crew(['eval', 'planted.jsonl', '--way', 'single', '--out', out, '--scripted', join(root, 'scripts'), '--allow-unsandboxed'], {
        env: { RUNNER_TEMP: temp },
      }).done;
      expect(r.code, r.out).toBe(0);
      // The play's command did plant it where the tool user's commands share a home.
      expect(await readFile(join(temp, 'crew-tool-home', '.npmrc'), 'utf8')).toBe('node-options=--no-warnings\n');
      const results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as Results;
      expect(results.results.map((x) => [x.instance_id, x.way, x.score])).toEqual([
        ['calc-planted', 'single', expect.objectContaining({ kind: 'resolved', reason: 'all 1 FAIL_TO_PASS and 1 PASS_TO_PASS tests pass' })],
      ]);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  });

  it('says which line and field of the instances file is wrong, and plays nothing', async () => {
    await writeFile(join(root, 'bad.jsonl'), `${JSON.stringify(instance('ok'))}\n${JSON.stringify({ ...instance('x y'), base_commit: 'main' })}\n`);
    const r = await crew(['eval', 'bad.jsonl', '--out', join(root, 'out-bad')]).done;
    expect(r.code).toBe(2);
    expect(r.out).toContain('bad.jsonl:2: instance_id: letters, digits, dot, dash and underscore only');
    expect(r.out).toContain('bad.jsonl:2: base_commit: a full 40-character commit id');
    expect(r.out).toContain('Nothing was played.');
  });
});
