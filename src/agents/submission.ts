import { z } from 'zod';
import type { Usage } from '../domain/run-state';
import type { AgentTrajectory, ImageBlock, Log, Model } from '../ports';
import { runToolLoop, type AgentTool } from './tool-loop';

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

/** Whom an agent asks and where its run goes: the same for every agent that answers through a tool. */
export interface AgentCall {
  model: Model;
  modelId: string;
  system: string;
  log: Log;
  trajectory?: AgentTrajectory;
}

export interface SubmissionRequest<S extends z.ZodType, T> extends AgentCall {
  firstMessage: string;
  /** Images shown before the first message's text (#36). */
  images?: ImageBlock[];
  tool: { name: string; description: string; schema: S };
  /** Checks beyond the schema; errors go back to the model verbatim. */
  check?: (input: z.infer<S>) => Check<T>;
  /**
   * Tools the agent may look around with before it answers (the planning roles' list, read and search),
   * for at most `turns` turns; the answer tool still ends it. The prompt should tell the model the allowance.
   */
  look?: { tools: AgentTool[]; turns: number };
}

/** The look tools, refusing once `turns` turns have passed, with a reason that asks for the answer. */
function allowance(look: { tools: AgentTool[]; turns: number }, answer: string, turnsSoFar: () => number): AgentTool[] {
  return look.tools.map((t) => ({
    ...t,
    run(input, facts) {
      if (turnsSoFar() > look.turns)
        throw new Error(
          `Your ${look.turns} turn${look.turns === 1 ? '' : 's'} of looking at the repository ${look.turns === 1 ? 'is' : 'are'} used up; answer now by calling ${answer}.`,
        );
      return t.run(input, facts);
    },
  }));
}

/** A tool input crew does not take: the problems go back to the model as a tool error, with what to do. */
export class NotAccepted extends Error {
  constructor(
    readonly problems: string[],
    tool: string,
  ) {
    super(`Not accepted:\n${problems.map((p) => `- ${p}`).join('\n')}\nFix these and call ${tool} again.`);
  }
}

/** What is wrong with an input its schema refused, field by field, as the model reads it. */
export function schemaProblems(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`);
}

/**
 * The final tool an agent answers through: the model is given its schema as JSON Schema, and
 * its input is checked against it. `accept` gets the parsed input and returns what the model
 * reads; it throws NotAccepted for checks beyond the schema. A refused input (schema or
 * `accept`) goes back to the model as a tool error naming every problem, and `rejected`
 * hears of it first.
 */
export function answerTool<S extends z.ZodType>(
  tool: { name: string; description: string; schema: S },
  accept: (input: z.output<S>) => string | Promise<string>,
  opts: { rejected?: (problems: string[]) => void } = {},
): AgentTool {
  return {
    final: true,
    spec: { name: tool.name, description: tool.description, input_schema: z.toJSONSchema(tool.schema, { io: 'input' }) as Record<string, unknown> },
    async run(raw) {
      try {
        const parsed = tool.schema.safeParse(raw);
        if (!parsed.success) throw new NotAccepted(schemaProblems(parsed.error), tool.name);
        return await accept(parsed.data);
      } catch (e) {
        if (e instanceof NotAccepted) opts.rejected?.(e.problems);
        throw e;
      }
    },
  };
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
  let turns = 0;
  const looking = req.look?.turns ?? 0;
  const outcome = await runToolLoop({
    model: req.model,
    modelId: req.modelId,
    system: req.system,
    log: req.log,
    firstMessage: req.firstMessage,
    ...(req.images?.length ? { images: req.images } : {}),
    maxTurns: looking + 1 + REASKS,
    ...(req.trajectory ? { trajectory: req.trajectory } : {}),
    nudge: `Answer by calling the ${req.tool.name} tool.`,
    ...(req.look ? { onTurn: (turn: number) => void (turns = turn) } : {}),
    // The look allowance adds turns, not answers: after 1 + REASKS refused answers the agent is not asked again.
    between: async () => (attempts > REASKS ? { stop: 'max_turns' } : {}),
    tools: [
      ...(req.look ? allowance(req.look, req.tool.name, () => turns) : []),
      answerTool(
        req.tool,
        (input) => {
          const checked: Check<T> = req.check ? req.check(input) : { ok: true, value: input as T };
          if (!checked.ok) throw new NotAccepted(checked.errors, req.tool.name);
          attempts++;
          value = checked.value;
          accepted = true;
          return 'Accepted.';
        },
        {
          rejected(problems) {
            attempts++;
            lastErrors = problems;
            req.log.info(`${req.tool.name} attempt ${attempts} rejected: ${problems.join('; ')}`);
          },
        },
      ),
    ],
  });
  if (accepted) return { value: value as T, usage: outcome.usage };
  if (attempts === 0) lastErrors = [`the model never called ${req.tool.name}`];
  throw new SubmissionRejected(req.tool.name, lastErrors, Math.max(attempts, 1), outcome.usage);
}
