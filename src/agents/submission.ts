import { z } from 'zod';
import type { Usage } from '../domain/run-state';
import type { Log, Model } from '../ports';
import { runToolLoop } from './tool-loop';

/** The model's submission failed the checks on every try; `errors` is what was wrong the last time. */
export class SubmissionRejected extends Error {
  constructor(
    readonly tool: string,
    readonly errors: string[],
    readonly attempts: number,
    readonly usage: Usage,
  ) {
    super(`the ${tool} submission failed validation ${attempts} time${attempts === 1 ? '' : 's'}`);
  }
}

/** How many times crew asks again after an invalid submission. */
export const REASKS = 2;

export type Check<T> = { ok: true; value: T } | { ok: false; errors: string[] };

export interface SubmissionRequest<S extends z.ZodType, T> {
  model: Model;
  modelId: string;
  system: string;
  firstMessage: string;
  log: Log;
  tool: { name: string; description: string; schema: S };
  /** Checks beyond the schema; errors go back to the model verbatim. */
  check?: (input: z.infer<S>) => Check<T>;
}

/**
 * Asks an agent for one structured answer through a tool. An invalid answer goes
 * back as an `is_error` tool result with the exact problems, at most twice; crew
 * never forces the tool (current models reject forced tool_choice), it nudges.
 */
export async function askForSubmission<S extends z.ZodType, T = z.infer<S>>(req: SubmissionRequest<S, T>): Promise<{ value: T; usage: Usage }> {
  let value: T | undefined;
  let accepted = false;
  let lastErrors: string[] = [];
  let attempts = 0;
  const outcome = await runToolLoop({
    model: req.model,
    modelId: req.modelId,
    system: req.system,
    log: req.log,
    firstMessage: req.firstMessage,
    maxTurns: 1 + REASKS,
    nudge: `Answer by calling the ${req.tool.name} tool.`,
    tools: [
      {
        final: true,
        spec: {
          name: req.tool.name,
          description: req.tool.description,
          input_schema: z.toJSONSchema(req.tool.schema, { io: 'input' }) as Record<string, unknown>,
        },
        run(raw) {
          attempts++;
          const parsed = req.tool.schema.safeParse(raw);
          const checked: Check<T> = !parsed.success
            ? { ok: false, errors: parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`) }
            : req.check
              ? req.check(parsed.data)
              : { ok: true, value: parsed.data as T };
          if (!checked.ok) {
            lastErrors = checked.errors;
            req.log.info(`${req.tool.name} attempt ${attempts} rejected: ${checked.errors.join('; ')}`);
            throw new Error(`Not accepted:\n${checked.errors.map((e) => `- ${e}`).join('\n')}\nFix these and call ${req.tool.name} again.`);
          }
          value = checked.value;
          accepted = true;
          return 'Accepted.';
        },
      },
    ],
  });
  if (accepted) return { value: value as T, usage: outcome.usage };
  if (attempts === 0) lastErrors = [`the model never called ${req.tool.name}`];
  throw new SubmissionRejected(req.tool.name, lastErrors, Math.max(attempts, 1), outcome.usage);
}
