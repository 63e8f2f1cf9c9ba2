import { notLoadedNote } from '../domain/images';
import { z } from 'zod';
import { commandProblem, droppedCriteria, vagueness, type Criterion } from '../domain/criteria';
import { PERSONAS, TIERS, type Persona, type Tier } from '../domain/plan';
import type { Usage } from '../domain/run-state';
import { askForSubmission, type AgentCall } from './submission';
import type { AgentImage } from './decomposer';
import { eyesSection, type Eyes } from './read-only-tools';

/** What intake makes of an issue: the task, its done criteria, and what must be asked first. */
export interface Intake {
  task: string;
  criteria: Criterion[];
  questions: string[];
  /** Set when the request is one small task: planning skips the decomposer (claude-crew's phase skipping). */
  single: { title: string; persona: Persona; tier: Tier } | null;
}

const IntakeSchema = z.object({
  task: z.string().trim().min(1).describe('The request restated in one or two sentences.'),
  criteria: z
    .array(
      z.object({
        text: z.string().trim().min(1).describe('The criterion as a statement that is either true or false.'),
        kind: z
          .enum(['command', 'semantic'])
          .describe('command: a shell command decides it (exit 0 met, 1 not met, 2+ error); semantic: judged from evidence.'),
        command: z.string().optional().describe('For command criteria: the command to run, one line.'),
        restates: z
          .int()
          .positive()
          .optional()
          .describe("When this is one of the issue's own criteria (reworded, or made a command): its number in the list crew gave you."),
      }),
    )
    .min(1)
    .describe('Done criteria: every one the issue states (reworded if need be), plus any you add; proposed ones when it states none.'),
  questions: z
    .array(z.string().trim().min(1))
    .default([])
    .describe('Clarifying questions, only for criteria or requirements that cannot be checked as written.'),
  single_task: z.boolean().describe('True when one worker can do the whole request as a single small task.'),
  persona: z.enum(PERSONAS).optional().describe('For a single task: the persona to use.'),
  model: z.enum(TIERS).optional().describe('For a single task: the model tier.'),
});

export interface IntakeInput {
  title: string;
  body: string;
  stated: string[];
  answers: string;
  /**
   * A follow-up run: the pull request's criteria so far. They stay as they are and are judged
   * again, so intake writes only the new ones, for the stated items (the feedback and review comments).
   */
  kept?: Criterion[];
  /** The request's images (#36), shown before the text. */
  images?: AgentImage[];
  /** The recorded images that could not be loaded again for this job (#36): named, so intake knows it has not seen them. */
  imagesNotLoaded?: string[];
  /** The repository map and the read-only tools (#48). */
  eyes?: Eyes;
  /** The repository's scripts (domain/repo-scripts.ts), read before command criteria are written (#48). */
  scripts?: string[];
}

export async function runIntake(call: AgentCall, input: IntakeInput): Promise<{ intake: Intake; usage: Usage }> {
  const firstMessage = [
    `Issue: ${input.title}`,
    '',
    input.body || '(no description)',
    '',
    ...(input.kept?.length
      ? [
          `This is a follow-up on crew's open pull request. Its done criteria so far stay exactly as they are and will be judged again; do not repeat them. Write only the new criteria the follow-up needs.\n${input.kept.map((c) => `- ${c.id}: ${c.text}${c.command ? ` (\`${c.command}\`)` : ''}`).join('\n')}`,
          '',
        ]
      : []),
    input.stated.length
      ? `The issue states these done criteria. Keep every one: you may reword it or make it a command, and then give its number as \`restates\`.\n${input.stated.map((s, i) => `${i + 1}. ${s}`).join('\n')}`
      : 'The issue states no done criteria; propose checkable ones.',
    ...(input.answers ? ['', 'The maintainer already answered these questions:', input.answers] : []),
    ...(input.images?.length ? ['', "The request's images, shown above in this order:", ...input.images.map((i) => `- ${i.line}`)] : []),
    ...notLoadedNote(input.imagesNotLoaded),
    ...(input.scripts
      ? [
          '',
          '## Scripts the repository has',
          input.scripts.length
            ? 'A command criterion should run one of these where one fits (the sandbox has what setup installs):'
            : 'crew found no package.json scripts, Makefile, pyproject.toml, Cargo.toml or go.mod at the root: look before you name a command.',
          ...input.scripts,
        ]
      : []),
    ...eyesSection(input.eyes, 'submit_intake'),
  ].join('\n');
  const { value, usage } = await askForSubmission({
    ...call,
    firstMessage,
    images: input.images?.map((i) => i.block),
    ...(input.eyes?.look ? { look: input.eyes.look } : {}),
    tool: { name: 'submit_intake', description: 'Submit the restated task, its done criteria and any clarifying questions.', schema: IntakeSchema },
    check(raw) {
      const errors: string[] = [];
      raw.criteria.forEach((c, i) => {
        if (c.kind === 'command') {
          const p = commandProblem(c.command);
          if (p) errors.push(`criteria.${i}: a command criterion needs a runnable command: ${p}`);
        }
        if (c.restates !== undefined && c.restates > input.stated.length)
          errors.push(`criteria.${i}.restates: the issue states ${input.stated.length || 'no'} criteria, so there is no number ${c.restates}`);
      });
      // The issue's own criteria are the maintainer's definition of done: intake may reword them, never drop them.
      for (const d of droppedCriteria(input.stated, raw.criteria))
        errors.push(`criteria: the issue's criterion ${d.n} ("${d.text}") is missing; keep it (reworded or as a command if you like) and set restates: ${d.n}`);
      if (raw.single_task && (!raw.persona || !raw.model)) errors.push('single_task: give the persona and model for the single task');
      return errors.length ? { ok: false, errors } : { ok: true, value: raw };
    },
  });
  const criteria: Criterion[] = value.criteria.map((c, i) => ({
    id: `c${i + 1}`,
    text: c.text,
    kind: c.kind,
    ...(c.kind === 'command' ? { command: c.command!.trim() } : {}),
  }));
  // Vague criteria the model did not ask about still get a question, after an answer too (an answer that
  // left a criterion unmeasurable gets asked about again, within planning's question rounds). Only semantic
  // criteria: a command criterion is decided by its exit code, however its text reads.
  const questions = [...value.questions];
  for (const c of criteria) {
    const why = c.kind === 'semantic' ? vagueness(c.text) : undefined;
    if (why && !questions.some((q) => q.toLowerCase().includes(c.text.toLowerCase().slice(0, 24)))) {
      questions.push(`"${c.text}" cannot be checked as written (${why}). What result would show it is met — for example a command that exits 0, or a number?`);
    }
  }
  return {
    intake: {
      task: value.task,
      criteria,
      questions,
      single: value.single_task ? { title: input.title.slice(0, 120), persona: value.persona!, tier: value.model! } : null,
    },
    usage,
  };
}
