import { Ajv2020 } from 'ajv/dist/2020.js';
import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';

/**
 * `crew show` after a local run: the real bin (bin/crew.js → dist/cli) as a separate process, with
 * scripted model replies, reading the trajectories the run kept under `.crew/runs/<N>/trajectories`.
 */

const exec = promisify(execFile);
const BIN = join(PROJECT_ROOT, 'bin', 'crew.js');
const FIXTURE = join(PROJECT_ROOT, 'scenarios', 'fixtures', 'textkit');

let root: string;
let dir: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crew-show-'));
  dir = join(root, 'repo');
  await cp(FIXTURE, dir, { recursive: true });
  const git = (...args: string[]) => exec('git', ['-C', dir, '-c', 'user.name=maintainer', '-c', 'user.email=m@example.com', ...args]);
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-qm', 'start');
  // The shared one-task script, with the worker's first turn in front: words with a terminal escape, a command that exits 3, a read.
  const script = YAML.parse(await readFile(join(PROJECT_ROOT, 'tests', 'scenarios', 'local', 'one-task.model.yaml'), 'utf8')) as {
    entries: Array<{ role: string; replies: unknown[] }>;
  };
  script.entries
    .find((e) => e.role === 'worker')!
    .replies.unshift({
      content: [
        { type: 'text', text: 'Checking the runtime first.\u001b[2J\u001b[31m (that was an escape)' },
        { type: 'tool_use', name: 'run_command', input: { command: 'echo the-output; exit 3' } },
        { type: 'tool_use', name: 'read_file', input: { path: 'package.json' } },
      ],
    });
  await writeFile(join(root, 'script.yaml'), YAML.stringify(script));
  const r = await crew(['run', 'Add a notes file', '--criteria', 'NOTES.md exists', '--scripted', join(root, 'script.yaml'), '--allow-unsandboxed']);
  expect(r.code, r.out).toBe(0);
}, 120_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function crew(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', CREW_TIME_SCALE: '0.01' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('crew show', () => {
  it("prints the worker's turns, tool calls and exit codes, without the model's terminal escapes", async () => {
    const r = await crew(['show', '1', 't1']);
    expect(r.code, r.out).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(/^worker t1 attempt 1 · \S+ · final · 3 turns · [\d,]+ tokens · \$\d+\.\d{4} · \d+\.\d s$/);
    expect(r.out).toContain('turn 1 · tool_use');
    expect(r.out).toContain('  │ Checking the runtime first. (that was an escape)');
    expect(r.out).toContain('  → run_command echo the-output; exit 3');
    expect(r.out).toMatch(/ {4}← exit 3 · \d+\.\d s\n {6}exit code 3\n {6}the-output/);
    expect(r.out).toContain('  → read_file package.json');
    expect(r.out).toContain('  → write_file NOTES.md');
    expect(r.out).toContain('  → report_result success');
    expect(r.out).not.toMatch(/\u001b/);
  });

  it('--json prints the records as kept: each line parses against the published schema and round-trips', async () => {
    const r = await crew(['show', '1', 't1', '--json']);
    expect(r.code, r.out).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
      JSON.parse(await readFile(join(PROJECT_ROOT, 'schema', 'trajectory.schema.json'), 'utf8')),
    );
    const record = JSON.parse(lines[0]!) as { agent: string; task: string; turns: Array<{ tool_results: Array<{ exit_code?: number }> }> };
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    expect(JSON.stringify(record)).toBe(lines[0]);
    expect(record).toMatchObject({ agent: 'worker', task: 't1', attempt: 1, issue: 1, run: 1 });
    expect(record.turns[0]!.tool_results[0]).toMatchObject({ exit_code: 3 });
    // The same line as the file under the run's folder.
    const folder = join(dir, '.crew', 'runs', '1', 'trajectories');
    const kept = (await Promise.all((await readdir(folder)).map((f) => readFile(join(folder, f), 'utf8')))).join('');
    expect(kept.split('\n')).toContain(lines[0]);
  });

  it('picks agent runs by --agent and --attempt, says what the run has when nothing matches, and status points to it', async () => {
    const planner = await crew(['show', '--agent', 'intake']);
    expect(planner.code, planner.out).toBe(0);
    expect(planner.out.split('\n')[0]).toMatch(/^intake · /);
    expect(planner.out).toContain('→ submit_intake');

    const none = await crew(['show', '1', 't1', '--attempt', '2']);
    expect(none.code).toBe(1);
    expect(none.out).toContain('No agent run of run 1 is t1 attempt 2. It has: intake; plan reviewer round 1; worker t1 attempt 1; retrospector.');

    const bad = await crew(['show', '1', '--agent', 'nobody']);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('--agent is one of intake, planner, plan_reviewer, worker, critic, resolver, retrospector');

    const status = await crew(['status', '1']);
    expect(status.out).toContain('What the agents did: crew show 1');
  });
});
