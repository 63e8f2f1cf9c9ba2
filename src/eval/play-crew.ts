import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import YAML from 'yaml';
import { attemptsUsed } from '../domain/attempts';
import { runsDir } from '../domain/local-runs';
import { git } from './repos';
import type { Played, PlayInput } from './play';

/** Where the person's reply would go: crew's questions get "decide yourself" (no person is there). */
export const DECIDE = 'decide yourself';

/**
 * The task file the crew way hands `crew run --config`: the problem, the instance's setup, the
 * budgets, full transcripts, and for `crew-best-of-N` the crew.yml key `attempts.parallel: N` (#50),
 * checked by crew's own config schema like any key of the file. `attempts.max: N` with it: the schema
 * refuses a `parallel` over `max` (default 3), and a task the planner marks hard gets `max`, so the
 * way is N attempts of every task, no more and no fewer.
 */
export function crewTaskFile(p: Pick<PlayInput, 'instance' | 'budget' | 'parallelAttempts'>): Record<string, unknown> {
  const budget = { tokens: p.budget.tokens, cost_usd: p.budget.costUsd };
  return {
    task: p.instance.problem_statement,
    setup: p.instance.setup ?? [],
    budgets: { run: budget, task: budget },
    transcripts: 'full',
    ...(p.parallelAttempts ? { attempts: { parallel: p.parallelAttempts, max: p.parallelAttempts } } : {}),
  };
}

/**
 * The crew way: `crew run` in local mode on a checkout at base_commit, a process of its own (so a
 * crashing instance takes only itself down, and a killed eval leaves a run `--resume` continues).
 * Its prompts are answered as a person would not be there to: a question with "decide yourself",
 * a plan waiting for approval with approve; anything else leaves the run waiting.
 */
export async function playCrew(p: PlayInput): Promise<Played> {
  const resuming = existsSync(join(runsDir(p.dir), '1', 'run.json'));
  const taskFile = join(p.scratch, 'task.yaml');
  await writeFile(taskFile, YAML.stringify(crewTaskFile(p)));
  const args = [
    p.cli,
    'run',
    ...(resuming ? ['--resume', '1'] : ['--config', taskFile]),
    '--project',
    p.dir,
    '--allow-setup',
    ...(p.scripted ? ['--scripted', p.scripted] : []),
    ...(p.allowUnsandboxed ? ['--allow-unsandboxed'] : []),
    ...(p.provider ? ['--provider', p.provider] : []),
    ...(p.maxIterations ? ['--max-iterations', String(p.maxIterations)] : []),
  ];
  const escalations: string[] = [];
  const started = Date.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: p.dir, env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let pending = '';
    const timer = setTimeout(() => {
      escalations.push(`stopped at the wall-time budget (${Math.round(p.budget.ms / 60_000)} min)`);
      child.kill('SIGINT');
    }, p.budget.ms);
    p.signal?.addEventListener('abort', () => child.kill('SIGINT'), { once: true });
    const onText = (d: Buffer) => {
      const text = d.toString();
      out += text;
      if (out.length > 200_000) out = out.slice(-100_000);
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('Your answer (finish with an empty line):')) {
          escalations.push(`a question was answered "${DECIDE}"`);
          child.stdin.write(`${DECIDE}\n\n`);
        } else if (line.startsWith('Reply with ')) {
          if (line.includes('`approve`')) {
            escalations.push('the plan was approved (no person is there to review it)');
            child.stdin.write('approve\n');
          } else if (line.includes('`answer')) {
            escalations.push(`an escalation was answered "${DECIDE}"`);
            child.stdin.write(`answer ${DECIDE}\n`);
          } else {
            escalations.push(
              `crew asked for ${line.slice('Reply with '.length).replace(/:$/, '')}; the eval does not choose for a person, so the run ended waiting`,
            );
            child.stdin.end();
          }
        }
      }
    };
    child.stdout.on('data', onText);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve({ code: c, output: out });
    });
  });
  const ms = Date.now() - started;
  if (code === 2 || !existsSync(join(runsDir(p.dir), '1', 'run.json')))
    return { kind: 'broken', reason: `crew run did not start (exit ${code}): ${tail(output)}`, ms, escalations, log: output };
  const view = await p.readRun(p.dir, 1);
  const result = 'refs/heads/crew/local-1/result';
  const hasResult = await git(['rev-parse', '--verify', '--quiet', result], p.dir).then(
    () => true,
    () => false,
  );
  const patch = hasResult
    ? await git(['diff', '--binary', '--no-color', '--no-ext-diff', p.instance.base_commit, result, '--', '.', ':(exclude).crew'], p.dir)
    : '';
  const tasks = view ? [...view.tasks.values()] : [];
  return {
    kind: 'played',
    patch,
    ms,
    exitCode: code,
    phase: view?.run.phase ?? 'unknown',
    verdict: view?.run.review?.verdict ?? null,
    tasks: tasks.length,
    // Every parallel attempt (#50) counts: a best-of-N way used N attempts of a task, not 1.
    attempts: tasks.reduce((n, t) => n + attemptsUsed(t), 0),
    runDir: join(runsDir(p.dir), '1'),
    escalations,
    log: output,
  };
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-4).join(' / ').slice(-600);
}
