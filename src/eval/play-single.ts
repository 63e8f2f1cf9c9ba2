import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { withEffort } from '../agents/effort';
import { workerCompaction } from '../agents/worker-compaction';
import { runWorker } from '../agents/worker';
import { CONFIG_PATH } from '../config/schema';
import type { Plan, PlanTask } from '../domain/plan';
import { localConfig } from '../config/local';
import { localTrajectories } from '../trajectory/files';
import { LOCAL_OPT_IN } from '../domain/local-runs';
import type { Log, Model } from '../ports';
import { prepareTools } from '../toolbox/sandbox-setup';
import { agentCommands } from '../toolbox/command-options';
import { promptTemplate } from '../templates';
import { fileAt, git as head, patchFrom } from './repos';
import type { Played, PlayInput } from './play';

/**
 * The single way: one agent on the whole problem. crew's worker (the coder persona) with the same
 * tools, model tier, sandbox and setup as the crew way's workers, the problem statement as its one
 * task; no intake, planner, plan review or critic, and no second attempt.
 */
export async function playSingle(p: PlayInput, loadModel: () => Promise<Model>, log: Log): Promise<Played> {
  const started = Date.now();
  const escalations: string[] = [];
  const sha = (await head(['rev-parse', 'HEAD'], p.dir)).trim();
  const budget = { tokens: p.budget.tokens, cost_usd: p.budget.costUsd };
  const config = localConfig(
    await fileAt(p.dir, sha, CONFIG_PATH),
    { setup: p.instance.setup ?? [], budgets: { run: budget, task: budget }, transcripts: 'full' },
    { allowUnsandboxed: p.allowUnsandboxed, ...(p.provider ? { provider: p.provider } : {}) },
    CONFIG_PATH,
  );
  const ctx = { repo: { dir: p.dir }, log, unsandboxedOptIn: LOCAL_OPT_IN };
  // The base commit is the repository's own code: setup runs as for a crew run's first job.
  const tools = await prepareTools(ctx, config, { trusted: true });
  // The proxy and the service bridges close with the play: crew eval plays many in one process.
  try {
    if (tools.setupFailure) return { kind: 'broken', reason: `setup failed: ${tools.setupFailure}`, ms: Date.now() - started, escalations };
    const model = await loadModel();
    const task: PlanTask = {
      id: 't1',
      title: p.instance.problem_statement.split('\n')[0]!.slice(0, 120),
      description: p.instance.problem_statement,
      persona: 'coder',
      tier: 'sonnet',
      dependsOn: [],
      files: [],
      criteria: [],
    };
    const plan: Plan = { summary: p.instance.problem_statement, criteria: [], tasks: [task] };
    const runDir = join(p.scratch, 'run');
    await mkdir(runDir, { recursive: true });
    const recorder = localTrajectories({
      runDir,
      run: 1,
      level: config.transcripts.keep,
      job: { step: 'work', label: 't1', id: 'single-t1' },
      warn: (m) => log.warn(m),
    });
    const template = (name: string) => promptTemplate(name, config, (path) => fileAt(p.dir, sha, path));
    const files = (await head(['ls-files', '-z'], p.dir)).split('\0').filter(Boolean);
    const run = await runWorker(
      withEffort(model, config.effort, 'worker'),
      {
        task,
        plan,
        attempt: 1,
        repoDir: p.dir,
        protectedPaths: config.protected_paths,
        maxTurns: config.worker_max_turns,
        maxOutputTokens: config.max_output_tokens.worker,
        modelId: config.models[task.tier],
        system: await template('worker_coder'),
        repoFiles: files,
        commands: agentCommands(tools, config),
        team: { running: async () => [], send: async () => undefined, inbox: async () => [] },
        limits: { tokens: p.budget.tokens, costUsd: p.budget.costUsd, deadline: started + p.budget.ms, now: () => Date.now() },
        compaction: workerCompaction(config, model, task.tier, () => template('summarizer')),
        memory: { attempts: [], lastFailure: null, knowledge: [], advice: [] },
        ...(p.signal ? { signal: p.signal } : {}),
      },
      log,
      recorder.start({ agent: 'worker', model: config.models[task.tier], task: 't1', attempt: 1 }),
    );
    if (run.reported?.feedback?.type === 'difficulty')
      // Its words stay in the trajectory: the results page carries no model text.
      escalations.push(`the agent reported a difficulty (${run.reported.feedback.impediment.category}); with no person there it ended with what it had`);
    return {
      kind: 'played',
      patch: await patchFrom(p.dir, p.instance.base_commit),
      ms: Date.now() - started,
      exitCode: null,
      phase: run.reported ? `reported ${run.reported.status}` : `stopped: ${run.stop}${run.error ? ` (${run.error})` : ''}`,
      verdict: null,
      tasks: 1,
      attempts: 1,
      runDir,
      escalations,
    };
  } finally {
    await tools.dispose();
  }
}
