import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { startFakeAnthropic, type FakeAnthropic, type Script } from '../support/anthropic';
import { pngOf } from '../support/images';
import { awsSession } from '../support/platforms/credentials';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';

/**
 * `crew run` on a local repository: the real bin (bin/crew.js → dist/cli) as a separate
 * process, real git, and the offline Anthropic API through the real SDK.
 */

const exec = promisify(execFile);
const BIN = join(PROJECT_ROOT, 'bin', 'crew.js');
const FIXTURE = join(PROJECT_ROOT, 'scenarios', 'fixtures', 'textkit');
// Anything a terminal would interpret: escape sequences, carriage returns, other C0 controls.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crew-local-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function project(name: string, files: Record<string, string> = {}): Promise<string> {
  const dir = join(root, name);
  await cp(FIXTURE, dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const git = (...args: string[]) => exec('git', ['-C', dir, '-c', 'user.name=maintainer', '-c', 'user.email=m@example.com', ...args]);
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-qm', 'start');
  return dir;
}

interface Ran {
  code: number | null;
  out: string;
}

function crew(
  args: string[],
  opts: { cwd: string; fake?: FakeAnthropic; env?: Record<string, string>; stdin?: string; onOutput?: (text: string, child: ReturnType<typeof spawn>) => void },
): Promise<Ran> {
  const env: Record<string, string> = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME ?? '/tmp',
    CREW_TIME_SCALE: process.env.CREW_TIME_SCALE ?? '0.01',
    ...opts.env,
  };
  if (opts.fake) Object.assign(env, { ANTHROPIC_BASE_URL: opts.fake.url, ANTHROPIC_API_KEY: 'sk-ant-test-local' });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const take = (d: Buffer) => {
      out += d.toString();
      opts.onOutput?.(out, child);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Local mode has no scenario runner to add a critic: this one finds the notes file the budget scenarios' worker writes. */
const notesCritic: Script['entries'][number] = {
  role: 'critic',
  replies: [
    {
      content: [
        {
          type: 'tool_use',
          name: 'submit_judgment',
          input: {
            evaluations: [{ criterion: 'c1', met: true, evidence: ['NOTES.md exists on the result branch'], confidence: 0.9, tasks: [] }],
            overall_reason: 'NOTES.md exists.',
            suggested_next_action: '',
          },
        },
      ],
    },
  ],
};

/** The demo issue's own done criteria, which its scripted intake restates one by one. */
const DEMO_CRITERIA = ['--criteria', '`npm test` passes, with tests for slugify', '--criteria', 'the README documents slugify'];

async function demoScript(): Promise<Script> {
  const demo = YAML.parse(await readFile(join(PROJECT_ROOT, 'scenarios', 'demo.yaml'), 'utf8')) as { model: Script };
  return demo.model;
}

async function branchFile(dir: string, branch: string, path: string): Promise<string | undefined> {
  return exec('git', ['-C', dir, 'show', `${branch}:${path}`]).then(
    (r) => r.stdout,
    () => undefined,
  );
}

describe('crew run on a local repository', () => {
  it('plans, works in parallel worktrees, judges and leaves the result on a branch; list and status show it; --verbose streams the agents', async () => {
    const fake = await startFakeAnthropic({ script: await demoScript() });
    try {
      const dir = await project('complete');
      // --image (#36): a screenshot outside the repository, shown to intake and the planner as an image block.
      const shot = pngOf(64, 40);
      await writeFile(join(root, 'shot (1).png'), shot);
      const r = await crew(['run', 'Add a slugify function', ...DEMO_CRITERIA, '--verbose', '--image', join(root, 'shot (1).png')], { cwd: dir, fake });
      expect(r.code, r.out).toBe(0);
      for (const role of ['intake', 'decomposer']) {
        const firstUser = fake.requests.find((q) => q.role === role)!.body.messages[0]!.content as Array<{ type: string; source?: { data: string } }>;
        expect(firstUser[0], role).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: shot.toString('base64') } });
      }
      expect(JSON.parse(await readFile(join(dir, '.crew', 'runs', '1', 'run.json'), 'utf8')).images).toEqual([
        expect.objectContaining({
          id: 'image-1',
          source: expect.stringMatching(/^file:\/\/.*shot%20%281%29\.png$/),
          mediaType: 'image/png',
          width: 64,
          height: 40,
        }),
      ]);
      expect(r.out).not.toMatch(CONTROL);
      // The live view in a log: one line per change of state.
      expect(r.out).toMatch(/\[\d\d:\d\d\] +▸ t1 +Implement slugify/);
      expect(r.out).toMatch(/\[\d\d:\d\d\] +✔ t2 +Test slugify/);
      // --verbose: tool calls and the first characters of what the agents say.
      expect(r.out).toMatch(/→ \[t1\] write_file \{"path":"src\/slugify\.js"/);
      expect(r.out).toContain("📝 [decomposer] I'll split this into the function, its tests and its documentation.");
      expect(r.out).toContain('Run 1: completed after 1 critic iteration.');
      expect(r.out).toMatch(/✔ c1 The test suite passes/);
      expect(r.out).toContain('Result branch: crew/local-1/result');
      expect(r.out).toMatch(/sandbox: .*crew-tool/);
      // What it cost, against the estimate made with the plan; a local run bills no Actions minutes, and says so.
      expect(r.out).toMatch(
        /^Cost: about \$[\d.]+ of model use \(estimated \$[\d.]+–\$[\d.]+: (under|within|over) the estimate\)\. A local run bills no GitHub Actions minutes: it ran on this machine\.$/m,
      );

      // The result: the work of all three tasks on the result branch; the person's branch and tree untouched.
      expect(await branchFile(dir, 'crew/local-1/result', 'src/slugify.js')).toContain('export function slugify');
      expect(await branchFile(dir, 'crew/local-1/result', 'test/slugify.test.js')).toContain('slugify');
      expect(await branchFile(dir, 'crew/local-1/result', 'README.md')).toContain('slugify');
      expect(existsSync(join(dir, 'src', 'slugify.js'))).toBe(false);
      expect((await exec('git', ['-C', dir, 'status', '--porcelain'])).stdout).toBe('');
      expect((await exec('git', ['-C', dir, 'worktree', 'list'])).stdout.trim().split('\n')).toHaveLength(1);

      // The run's files, in the state branch's layout, and the history written per iteration.
      const run = join(dir, '.crew', 'runs', '1');
      for (const f of [
        'request.md',
        'plan.json',
        'plan.md',
        'execution_log.yaml',
        'report.md',
        'report_summary.md',
        'tasks/task_t1.json',
        'results/result_t1.md',
        'judgments/judgment_1.json',
      ])
        expect(existsSync(join(run, f)), f).toBe(true);
      const history = (await readFile(join(run, 'history.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; verdict?: string });
      expect(history.map((h) => h.type)).toEqual(['summary', 'judgment', 'final']);
      expect(history[1]!.verdict).toBe('PASS');
      // The same engine as on GitHub: the model was asked by role, and orchestration asked it nothing.
      const roles = new Set(fake.requests.map((q) => q.role));
      expect([...roles].sort()).toEqual(['critic', 'decomposer', 'intake', 'plan_reviewer', 'retrospector', 'worker']);
      expect(fake.unscripted).toEqual([]);

      const listed = await crew(['list'], { cwd: dir });
      expect(listed.code).toBe(0);
      expect(listed.out).toMatch(/^1 +completed +1 +\d{4}-\d\d-\d\d \d\d:\d\dZ +Add a slugify function$/m);
      const status = await crew(['status', '1', '--project', dir], { cwd: root });
      expect(status.code).toBe(0);
      expect(status.out).toContain('crew · run 1 · ✅ Done');
      expect(status.out).toMatch(/\| t2 Test slugify \| coder \| haiku \| t1 \| ✅ success \| crew\/local-1\/t2 \| 1 \|/);
      expect(status.out).not.toContain('<!--');
      expect(status.out).not.toMatch(CONTROL);
      // Said as it is locally: the result branch, the log file, no GitHub-only advice.
      expect(status.out).toContain('Result branch: crew/local-1/result');
      expect(status.out).toContain('Retrospective (light): .crew/runs/1/retrospective.md');
      expect(status.out).toContain('Next: crew run "…" (a new run)');
      expect(status.out).toMatch(/^Usage: .* · about \$[\d.]+ · no Actions minutes \(a local run\)$/m);
      expect(status.out).toMatch(
        /^Estimate: \$[\d.]+–\$[\d.]+ of model use for the whole run \(planning's \$[\d.]+ included\); a local run bills no Actions minutes · /m,
      );
      expect(status.out).not.toMatch(/workflow|Reply in a comment|\/crew /);
      // A finished run has nothing to resume, and saying so needs no model.
      const again = await crew(['run', '--resume'], { cwd: dir });
      expect(again.code, again.out).toBe(0);
      expect(again.out).toContain('Run 1 has ended (completed); there is nothing to resume.');
    } finally {
      await fake.close();
    }
  });

  it('iterates while the criteria are unmet (task from --config), then stops after --max-iterations with the reasons and exit 1', async () => {
    const script: Script = {
      entries: [
        {
          role: 'intake',
          replies: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'submit_intake',
                  input: {
                    task: 'Add a changelog.',
                    criteria: [{ text: 'There is a changelog', kind: 'command', command: 'test -f CHANGELOG.md', restates: 1 }],
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
        {
          role: 'worker',
          task: 't1',
          replies: [
            { content: [{ type: 'tool_use', name: 'write_file', input: { path: 'NOTES.md', content: '# Notes\n' } }] },
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'report_result',
                  input: {
                    status: 'success',
                    quality: 'GREEN',
                    completeness: 100,
                    summary: 'Wrote NOTES.md.',
                    details: Array.from({ length: 24 }, (_, i) => `- line ${i + 1} of the report`).join('\n'),
                  },
                },
              ],
            },
          ],
        },
        {
          role: 'critic',
          replies: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'submit_judgment',
                  input: {
                    evaluations: [
                      { criterion: 'c1', met: false, evidence: ['CHANGELOG.md does not exist; NOTES.md was written instead'], confidence: 0.9, tasks: ['t1'] },
                    ],
                    overall_reason: 'The changelog is missing.',
                    suggested_next_action: 'Create CHANGELOG.md rather than NOTES.md.',
                  },
                },
              ],
            },
          ],
        },
      ],
    };
    const fake = await startFakeAnthropic({ script });
    try {
      // The task from a file, whose max_iterations the command line overrides.
      const dir = await project('unmet');
      await writeFile(
        join(root, 'unmet-task.yaml'),
        'task: Add a changelog\ncriteria:\n  - "`test -f CHANGELOG.md` passes"\nmax_iterations: 5\nmax_retries: 0\n',
      );
      const r = await crew(['run', '--config', join(root, 'unmet-task.yaml'), '--max-iterations', '2'], { cwd: dir, fake });
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain('Run 1: waiting for your answer after 2 critic iterations.');
      expect(r.out).toContain('Critic: FAIL');
      expect(r.out).toMatch(/✘ c1 There is a changelog\n +`test -f CHANGELOG.md` exited with 1/);
      expect(r.out).toContain('Next: Create CHANGELOG.md rather than NOTES.md.');
      expect(r.out).not.toMatch(CONTROL);
      // crew's question is written for the terminal: the judgment as plain text, the choices as typed here.
      expect(r.out).toContain('crew needs a decision on run 1: ');
      expect(r.out).toContain('▸ Evidence for c1');
      expect(r.out).toContain("- `retry`: one more round: the tasks behind the failing criteria run again with the critic's reasons");
      expect(r.out).not.toMatch(/\/crew |\*\*|<details|<sub>|<!--/);
      // Each iteration's worker read the critic's reasons from the iteration before.
      const second = fake.requests.find((q) => q.role === 'worker' && q.attempt === 2 && q.turn === 0);
      expect(JSON.stringify(second?.body.messages)).toContain('Create CHANGELOG.md rather than NOTES.md.');
      const history = (await readFile(join(dir, '.crew', 'runs', '1', 'history.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; iteration?: number });
      expect(history.map((h) => `${h.type}:${h.iteration ?? ''}`)).toEqual(['summary:1', 'judgment:1', 'summary:2', 'judgment:2']);
      // What the run was started with is kept for --resume: the task file's keys and the command line's limit.
      expect(JSON.parse(await readFile(join(dir, '.crew', 'runs', '1', '.options.json'), 'utf8'))).toEqual({
        overrides: { max_iterations: 5, max_retries: 0 },
        maxIterations: 2,
      });
    } finally {
      await fake.close();
    }
  });

  it('asks its clarifying questions at the prompt and carries on with the answer', async () => {
    const scenario = YAML.parse(await readFile(join(PROJECT_ROOT, 'tests', 'scenarios', 'ambiguous-criterion.yaml'), 'utf8')) as { model: Script };
    const fake = await startFakeAnthropic({ script: scenario.model });
    try {
      const dir = await project('questions');
      const r = await crew(['run', 'Make capitalize handle long strings quickly', '--criteria', 'capitalize is fast enough'], {
        cwd: dir,
        fake,
        stdin: 'Under 5 ms for a 1 MB string, checked by `npm test`.\n\n',
      });
      expect(r.out).toContain('Before planning, crew needs answers');
      expect(r.out).toContain('Your answer (finish with an empty line):');
      const second = fake.requests.filter((q) => q.role === 'intake').at(-1);
      expect(JSON.stringify(second?.body.messages)).toContain('Under 5 ms for a 1 MB string');
      expect(r.code, r.out).toBe(0);
    } finally {
      await fake.close();
    }
  });

  it('stops at budgets.run, keeping the work, and `continue $5` typed at the prompt goes on from it to the result (#52)', async () => {
    const scenario = YAML.parse(await readFile(join(PROJECT_ROOT, 'tests', 'scenarios', 'run-budget-end.yaml'), 'utf8')) as { model: Script };
    scenario.model.entries.push(notesCritic);
    const fake = await startFakeAnthropic({ script: scenario.model });
    try {
      const dir = await project('budget-continue', { '.github/crew.yml': 'budgets:\n  run: { tokens: 6000 }\n' });
      const r = await crew(['run', 'Add a notes file'], { cwd: dir, fake, stdin: 'continue $5\n' });
      expect(r.code, r.out).toBe(0);
      // crew's question, written for the terminal: what was spent, the task's work kept, the choices as typed here.
      expect(r.out).toMatch(
        /crew stopped at a budget: the run has spent \$\d+\.\d+ \([\d,]+ tokens\) of `budgets\.run` \(\$50\.00, 6,000 tokens\)\. Nothing is lost/,
      );
      expect(r.out).toContain(
        '- `continue` — go on from the work on the branches, with another `budgets.run` to spend from here; `continue $N` gives it $N more instead;',
      );
      expect(r.out).toContain('Reply with `continue`, `accept`, `abort`');
      expect(r.out).not.toMatch(/\/crew |\*\*|<!--/);
      // Attempt 2 began from the work attempt 1 left on its branch, and the run ended with the result.
      const second = fake.requests.find((q) => q.role === 'worker' && q.attempt === 2 && q.turn === 0);
      expect(JSON.stringify(second?.body.messages)).toContain('## What the branch already holds');
      expect(fake.requests.filter((q) => q.role === 'worker')).toHaveLength(3);
      expect(r.out).toContain('Run 1: completed after 1 critic iteration.');
      const notes = await exec('git', ['-C', dir, 'show', 'crew/local-1/result:NOTES.md']);
      expect(notes.stdout).toBe('# Notes\n\nStarted.\n\nFinished after /crew continue.\n');
      // The new limit was kept on the run: $5 more than it had spent.
      const run = JSON.parse(await readFile(join(dir, '.crew', 'runs', '1', 'run.json'), 'utf8')) as { budgetRun?: { cost_usd: number } };
      expect(run.budgetRun?.cost_usd).toBeGreaterThan(5);
    } finally {
      await fake.close();
    }
  });

  it('stops at budgets.run while planning, and `continue $5` typed at the prompt plans on without asking intake again (#52)', async () => {
    const scenario = YAML.parse(await readFile(join(PROJECT_ROOT, 'tests', 'scenarios', 'planning-budget-end.yaml'), 'utf8')) as { model: Script };
    scenario.model.entries.push(notesCritic);
    const fake = await startFakeAnthropic({ script: scenario.model });
    try {
      const dir = await project('budget-planning', { '.github/crew.yml': 'budgets:\n  run: { cost_usd: 0.001 }\n' });
      const r = await crew(['run', 'Add a notes file'], { cwd: dir, fake, stdin: 'continue $5\n' });
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain('crew was still planning, so no task has started.');
      // Nothing to accept while planning: the prompt offers continue and abort only.
      expect(r.out).toContain('Reply with `continue`, `abort`');
      expect(fake.requests.filter((q) => q.role === 'intake')).toHaveLength(1);
      expect(r.out).toContain('Run 1: completed after 1 critic iteration.');
    } finally {
      await fake.close();
    }
  });

  it('stops on Ctrl-C with exit 130, and --resume finishes the run', async () => {
    const script = await demoScript();
    // The documentation task is slow, so the interrupt lands while it works.
    const docs = script.entries.find((e) => e.role === 'worker' && e.task === 't3')!;
    const quick = docs.replies[0]!;
    docs.replies[0] = { ...quick, delay_ms: 3_000_000 };
    const fake = await startFakeAnthropic({ script });
    try {
      const dir = await project('interrupt');
      let sent = false;
      const first = await crew(['run', 'Add a slugify function', ...DEMO_CRITERIA], {
        cwd: dir,
        fake,
        onOutput: (out, child) => {
          if (!sent && /✔ t2 /.test(out)) {
            sent = true;
            child.kill('SIGINT');
          }
        },
      });
      expect(first.code, first.out).toBe(130);
      expect(first.out).toContain('Run 1 interrupted; its work so far is saved. crew run --resume 1 continues it.');
      expect((await exec('git', ['-C', dir, 'worktree', 'list'])).stdout.trim().split('\n')).toHaveLength(1);
      const listed = await crew(['list'], { cwd: dir });
      expect(listed.out).toMatch(/^1 +interrupted /m);

      docs.replies[0] = quick;
      fake.setScript(script);
      const resumed = await crew(['run', '--resume'], { cwd: dir, fake });
      expect(resumed.code, resumed.out).toBe(0);
      expect(resumed.out).toContain('Run 1: completed');
      expect(await branchFile(dir, 'crew/local-1/result', 'README.md')).toContain('slugify');
      // Finished work was kept: t1 and t2 ran once; only the interrupted t3 ran again (its first request never got an answer).
      const firstTurns = (task: string) => fake.requests.filter((q) => q.role === 'worker' && q.task === task && q.turn === 0).length;
      expect(firstTurns('t1')).toBe(1);
      expect(firstTurns('t2')).toBe(1);
      expect(firstTurns('t3')).toBe(1);
    } finally {
      await fake.close();
    }
  });

  it('--provider bedrock: every model call goes to Bedrock, signed with the AWS credentials of your shell, and the run completes', async () => {
    const region = 'us-west-2';
    const session = awsSession(region);
    const fake = await startFakeAnthropic({ script: await demoScript(), platform: { kind: 'bedrock', region, credentials: [session.credentials] } });
    try {
      const dir = await project('bedrock');
      const r = await crew(['run', 'Add a slugify function', ...DEMO_CRITERIA, '--provider', 'bedrock'], {
        cwd: dir,
        env: { ...session.env, ANTHROPIC_BEDROCK_BASE_URL: fake.url },
      });
      expect(r.code, r.out).toBe(0);
      expect(r.out).toContain('Result branch: crew/local-1/result');
      expect(fake.requests.length).toBeGreaterThan(5);
      expect(fake.requests.every((q) => q.auth === 'sigv4' && q.platform?.kind === 'bedrock')).toBe(true);
      expect(fake.unscripted).toEqual([]);
    } finally {
      await fake.close();
    }
  }, 240_000);

  it("runs the README's keyless example: --scripted plays the demo scenario's replies", async () => {
    const dir = await project('scripted');
    const r = await crew(['run', 'Add a slugify function', ...DEMO_CRITERIA, '--scripted', join(PROJECT_ROOT, 'scenarios', 'demo.yaml')], { cwd: dir });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('model: scripted replies from');
    expect(await branchFile(dir, 'crew/local-1/result', 'src/slugify.js')).toContain('export function slugify');

    // A script with no reply for a request stops that agent with a message naming the missing reply.
    await writeFile(join(root, 'thin.yaml'), 'entries:\n  - role: intake\n    replies: []\n');
    const thin = await crew(['run', 'Add a slugify function', '--scripted', join(root, 'thin.yaml')], { cwd: dir });
    expect(thin.code).toBe(1);
    expect(thin.out).toContain('has no reply for intake attempt 1, turn 1');
    expect(thin.out).toContain('Run 2:');

    await writeFile(join(root, 'bad.yaml'), 'entries:\n  - role: intake\n    replies: [{ content: [] }]\n');
    const bad = await crew(['run', 'x', '--scripted', join(root, 'bad.yaml')], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('bad.yaml is not a valid script');
    expect(bad.out).toContain('entries.0.replies.0.content');
  });

  it('says what is wrong, with exit 2, for a missing key, a bad --project, bad arguments and invalid configuration', async () => {
    const dir = await project('bad-input');
    const noKey = await crew(['run', 'Add a slugify function'], { cwd: dir });
    expect(noKey.code).toBe(2);
    expect(noKey.out).toContain('Set ANTHROPIC_API_KEY');
    expect(noKey.out).toContain('ANTHROPIC_BASE_URL');

    const missing = await crew(['run', 'x', '--project', join(root, 'nowhere')], { cwd: dir, env: { ANTHROPIC_API_KEY: 'k' } });
    expect(missing.code).toBe(2);
    expect(missing.out).toContain(`--project ${join(root, 'nowhere')}: no such folder`);
    const notRepo = await crew(['list', '--project', root], { cwd: dir });
    expect(notRepo.code).toBe(2);
    expect(notRepo.out).toContain('is not inside a git repository');

    const noImage = await crew(['run', 'x', '--image', 'nowhere.png'], { cwd: dir, env: { ANTHROPIC_API_KEY: 'k' } });
    expect(noImage.code).toBe(2);
    expect(noImage.out).toContain('--image nowhere.png: there is no such file. Give the path of a PNG, JPEG, GIF or WebP image.');

    const badFlag = await crew(['run', 'x', '--max-iterations', 'many'], { cwd: dir });
    expect(badFlag.code).toBe(2);
    expect(badFlag.out).toContain("--max-iterations needs a positive whole number (got 'many')");

    const badConfig = await project('bad-config', { '.github/crew.yml': 'max_parallel: lots\nmax_retires: 2\n' });
    const cfg = await crew(['run', 'x'], { cwd: badConfig, env: { ANTHROPIC_API_KEY: 'k' } });
    expect(cfg.code).toBe(2);
    expect(cfg.out).toContain('.github/crew.yml is not valid');
    expect(cfg.out).toContain('`max_parallel`');
    expect(cfg.out).toContain('unknown key `max_retires`');
    expect(cfg.out).toContain('The run did not start.');

    await writeFile(join(dir, 'task.yaml'), 'task: Add slugify\ncriteria: [npm test passes]\nmax_iterations: 0\n');
    const taskFile = await crew(['run', '--config', 'task.yaml'], { cwd: dir, env: { ANTHROPIC_API_KEY: 'k' } });
    expect(taskFile.code).toBe(2);
    expect(taskFile.out).toMatch(/task\.yaml is not valid:\n- `max_iterations`: .*\(got 0\)/);
    for (const r of [noKey, missing, notRepo, badFlag, cfg, taskFile]) expect(r.out).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
    // Nothing was started by any of them.
    expect(existsSync(join(dir, '.crew', 'runs', '1'))).toBe(false);
  });
});
