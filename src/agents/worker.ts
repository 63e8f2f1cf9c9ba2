import type { Plan, PlanTask } from '../domain/plan';
import type { Usage } from '../domain/run-state';
import type { Log, Model } from '../ports';
import { describeCriterion } from '../domain/criteria';
import { PathJail } from './path-jail';
import { runToolLoop } from './tool-loop';
import { workspaceTools } from './workspace-tools';

export type WorkerStatus = 'success' | 'partial' | 'failure' | 'timeout';

export interface WorkerReport {
  status: WorkerStatus;
  summary: string;
  details: string;
  turns: number;
  usage: Usage;
  /** Counted from the tool stream, never taken from the model's word. */
  toolCalls: Record<string, number>;
  written: string[];
}

export interface WorkerInput {
  task: PlanTask;
  plan: Plan;
  attempt: number;
  repoDir: string;
  protectedPaths: string[];
  maxTurns: number;
  modelId: string;
  /** The persona's system prompt (worker_<persona>, or the repository's override). */
  system: string;
}

const REPORT_SCHEMA = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['success', 'partial', 'failure'], description: 'success: the task is done; partial: part of it; failure: could not do it' },
    summary: { type: 'string', description: 'Two to five sentences: what you changed and why.' },
    details: { type: 'string', description: 'Optional markdown: notes, findings, anything the reviewer should know.' },
  },
  required: ['status', 'summary'],
};

/** Runs one task's agent in the checkout and reports what happened. */
export async function runWorker(model: Model, input: WorkerInput, log: Log): Promise<WorkerReport> {
  const system = input.system;
  const jail = new PathJail(input.repoDir, input.protectedPaths);
  const written = new Set<string>();
  let reported: { status: WorkerStatus; summary: string; details: string } | undefined;
  const others = input.plan.tasks.filter((t) => t.id !== input.task.id).map((t) => `- ${t.id}: ${t.title}`);
  const firstMessage = [
    `Task: ${input.task.id}`,
    `Attempt: ${input.attempt}`,
    '',
    `# ${input.task.title}`,
    '',
    input.task.description,
    '',
    input.task.files.length ? `Files this task expects to touch: ${input.task.files.join(', ')}` : '',
    '',
    'This task is done when:',
    ...input.task.criteria.map((c) => `- ${c}`),
    '',
    '## The whole request, for context',
    input.plan.summary,
    '',
    'Done criteria for the whole request:',
    ...input.plan.criteria.map((c) => `- ${describeCriterion(c)}`),
    '',
    others.length ? `Other workers handle these tasks; do not do them:\n${others.join('\n')}` : '',
  ]
    .filter((l, i, a) => !(l === '' && a[i - 1] === ''))
    .join('\n');
  const outcome = await runToolLoop({
    model,
    modelId: input.modelId,
    system,
    log,
    firstMessage,
    maxTurns: input.maxTurns,
    nudge: 'If you are finished, call report_result with your status and summary.',
    tools: [
      ...workspaceTools(jail, (p) => written.add(p)),
      {
        final: true,
        spec: { name: 'report_result', description: 'Report the outcome of your task. Call it once, at the end.', input_schema: REPORT_SCHEMA },
        run(raw) {
          const r = (raw ?? {}) as Record<string, unknown>;
          const status = r.status;
          if (status !== 'success' && status !== 'partial' && status !== 'failure') throw new Error("status must be 'success', 'partial' or 'failure'");
          if (typeof r.summary !== 'string' || r.summary.trim() === '') throw new Error('summary must be a non-empty string');
          reported = { status, summary: r.summary.trim(), details: typeof r.details === 'string' ? r.details.trim() : '' };
          return 'Reported. crew will commit and push your changes.';
        },
      },
    ],
  });
  const base = { turns: outcome.turns, usage: outcome.usage, toolCalls: outcome.toolCalls, written: [...written].sort() };
  if (reported) return { ...reported, ...base };
  if (outcome.stop === 'max_turns') {
    return { status: 'timeout', summary: `The worker reached the limit of ${input.maxTurns} turns before reporting.`, details: '', ...base };
  }
  return { status: 'failure', summary: 'The worker stopped without calling report_result.', details: '', ...base };
}
