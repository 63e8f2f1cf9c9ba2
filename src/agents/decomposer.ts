import { notLoadedNote } from '../domain/images';
import type { Criterion } from '../domain/criteria';
import { describeCriterion } from '../domain/criteria';
import { checkPlan, planBoundsProblems, ProposedPlanSchema, type Plan } from '../domain/plan';
import type { Usage } from '../domain/run-state';
import type { ImageBlock } from '../ports';

/** An image an agent is shown: the block, its id and its line for the prompt. */
export interface AgentImage {
  id: string;
  line: string;
  block: ImageBlock;
}
import { askForSubmission, type AgentCall } from './submission';
import { eyesSection, type Eyes } from './read-only-tools';

export interface DecomposeInput {
  title: string;
  body: string;
  task: string;
  criteria: Criterion[];
  answers: string;
  /** The repository map for this request and the read-only tools (#48). */
  eyes: Eyes;
  maxTasks: number;
  /** 2 for a first plan (one small task skips the decomposer); 1 where a single task is fine (re-planning, revising a one-task plan). */
  minTasks?: number;
  /** Globs no task may plan to touch (config `protected_paths`). */
  protectedPaths: string[];
  /** Questions the maintainer left open after crew's last round of questions. */
  openQuestions?: string[];
  /** A plan to improve, with what was wrong with it (reviewer findings or a maintainer's feedback). */
  revise?: { plan: Plan; feedback: string };
  /** The request's images, shown to the planner; a task lists the ones its worker needs (#36). */
  images?: AgentImage[];
  /** The recorded images that could not be loaded again for this job (#36): named, so the planner knows it has not seen them. */
  imagesNotLoaded?: string[];
}

export async function decompose(call: AgentCall, input: DecomposeInput): Promise<{ plan: Plan; usage: Usage }> {
  const firstMessage = [
    `Request: ${input.title}`,
    '',
    input.body || '(the issue has no description)',
    '',
    `What is asked, restated: ${input.task}`,
    '',
    'Done criteria for the whole request (the critic checks these; give each task its own criteria too):',
    ...input.criteria.map((c) => `- ${c.id}: ${describeCriterion(c)}`),
    ...(input.answers ? ['', 'Answers the maintainer gave to earlier questions:', input.answers] : []),
    ...(input.openQuestions?.length
      ? [
          '',
          'Questions still open (crew asked as often as it may; plan without the answers, and state in the summary what you assumed for each):',
          ...input.openQuestions.map((q, i) => `${i + 1}. ${q}`),
        ]
      : []),
    ...eyesSection(input.eyes, 'submit_plan'),
    '',
    ...(input.images?.length
      ? [
          '',
          "The request's images, shown above in this order. A task whose worker must see one lists its id in `images`:",
          ...input.images.map((i) => `- ${i.line}`),
        ]
      : []),
    ...notLoadedNote(input.imagesNotLoaded),
    '',
    `Plan ${(input.minTasks ?? 1) > 1 ? `at least ${input.minTasks} and ` : ''}at most ${input.maxTasks} tasks. No task may touch these protected paths: ${input.protectedPaths.join(', ') || '(none)'}.`,
    ...(input.revise
      ? ['', 'Revise this earlier plan:', '```json', JSON.stringify(input.revise.plan.tasks, null, 1), '```', 'What must change:', input.revise.feedback]
      : []),
  ].join('\n');
  const { value, usage } = await askForSubmission({
    ...call,
    firstMessage,
    images: input.images?.map((i) => i.block),
    ...(input.eyes.look ? { look: input.eyes.look } : {}),
    tool: { name: 'submit_plan', description: 'Submit the plan. crew checks it and answers with the problems if it is not valid.', schema: ProposedPlanSchema },
    check(raw) {
      const checked = checkPlan(raw, input.criteria);
      if (!checked.ok) return checked;
      const errors = planBoundsProblems(checked.plan, {
        minTasks: input.minTasks ?? 1,
        maxTasks: input.maxTasks,
        protectedPaths: input.protectedPaths,
        images: input.images?.map((i) => i.id) ?? [],
      });
      return errors.length ? { ok: false, errors } : { ok: true, value: checked.plan };
    },
  });
  return { plan: value, usage };
}
