import { z } from 'zod';
import { checkPlan, ProposedPlanSchema, type Plan } from '../domain/plan';
import type { Usage } from '../domain/run-state';
import type { Log, Model } from '../ports';
import { loadTemplate } from '../templates';
import { runToolLoop } from './tool-loop';

/** The model's plan failed the checks on every try; `errors` is what was wrong the last time. */
export class PlanRejected extends Error {
  constructor(
    readonly errors: string[],
    readonly attempts: number,
    readonly usage: Usage,
  ) {
    super(`the decomposer's plan failed validation ${attempts} times`);
  }
}

export interface DecomposeInput {
  title: string;
  body: string;
  files: string[];
  maxTasks: number;
}

/** How many times crew asks again after an invalid plan. */
export const PLAN_REASKS = 2;

const MAX_FILES_SHOWN = 400;

export async function decompose(model: Model, modelId: string, input: DecomposeInput, log: Log): Promise<{ plan: Plan; usage: Usage }> {
  const system = await loadTemplate('decomposer');
  let plan: Plan | undefined;
  let lastErrors: string[] = [];
  let attempts = 0;
  const files = input.files.slice(0, MAX_FILES_SHOWN);
  const firstMessage = [
    `Request: ${input.title}`,
    '',
    input.body || '(the issue has no description)',
    '',
    `Repository files${input.files.length > files.length ? ` (first ${files.length} of ${input.files.length})` : ''}:`,
    files.join('\n') || '(empty repository)',
    '',
    `Plan at most ${input.maxTasks} tasks.`,
  ].join('\n');
  const outcome = await runToolLoop({
    model,
    modelId,
    system,
    log,
    firstMessage,
    maxTurns: 1 + PLAN_REASKS,
    nudge: 'Submit the plan by calling the submit_plan tool.',
    tools: [
      {
        final: true,
        spec: {
          name: 'submit_plan',
          description: 'Submit the plan. crew checks it and answers with the problems if it is not valid.',
          input_schema: z.toJSONSchema(ProposedPlanSchema, { io: 'input' }) as Record<string, unknown>,
        },
        run(raw) {
          attempts++;
          const checked = checkPlan(raw);
          const errors = checked.ok ? (checked.plan.tasks.length > input.maxTasks ? [`tasks: ${checked.plan.tasks.length} tasks is more than the limit of ${input.maxTasks}`] : []) : checked.errors;
          if (errors.length) {
            lastErrors = errors;
            log.info(`plan attempt ${attempts} rejected: ${errors.join('; ')}`);
            throw new Error(`The plan is not valid:\n${errors.map((e) => `- ${e}`).join('\n')}\nFix these and call submit_plan again.`);
          }
          plan = (checked as { ok: true; plan: Plan }).plan;
          return `Plan accepted: ${plan.tasks.length} tasks.`;
        },
      },
    ],
  });
  if (plan) return { plan, usage: outcome.usage };
  if (attempts === 0) lastErrors = ['the model never called submit_plan'];
  throw new PlanRejected(lastErrors, Math.max(attempts, 1), outcome.usage);
}
