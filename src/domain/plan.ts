import { z } from 'zod';
import { CriterionSchema, type Criterion } from './criteria';
import { globMatch } from './glob';
import { taskId, text, type Stored } from './stored-shape';

/** The plan: what the decomposer proposes, checked and normalised into crew's own shape. Pure. */

export const PERSONAS = ['coder', 'researcher', 'writer', 'reviewer', 'default'] as const;
export const TIERS = ['haiku', 'sonnet', 'opus'] as const;
export type Persona = (typeof PERSONAS)[number];
export type Tier = (typeof TIERS)[number];

export const MAX_TASKS = 50;

/** What the model submits through the `submit_plan` tool. Its ids are its own; crew renames them. */
export const ProposedPlanSchema = z.object({
  summary: z.string().trim().min(1).describe('One paragraph: what the change is and why.'),
  tasks: z
    .array(
      z.object({
        id: z.string().trim().min(1).describe('Your short id for the task, used in depends_on.'),
        title: z.string().trim().min(1).max(120),
        description: z.string().trim().min(1).describe('What the worker must do, precisely enough to do it alone.'),
        persona: z.enum(PERSONAS),
        model: z.enum(TIERS).describe('Model tier: haiku for simple edits, sonnet by default, opus for hard reasoning.'),
        depends_on: z.array(z.string()).default([]),
        files: z.array(z.string()).default([]).describe('Files the task expects to create or change.'),
        criteria: z.array(z.string().trim().min(1)).default([]).describe("The task's own done criteria: observable results a reviewer can check."),
        images: z
          .array(z.string())
          .default([])
          .describe("Ids of the request's images (image-1, …) the worker must see to do the task; the worker sees no others."),
        hard: z
          .boolean()
          .optional()
          .describe(
            'true only for a task hard enough that several independent attempts are worth their cost: crew runs up to its ceiling of attempts side by side and keeps the one the tests favour.',
          ),
      }),
    )
    .min(1)
    .max(MAX_TASKS),
});
export type ProposedPlan = z.infer<typeof ProposedPlanSchema>;

/** A task of the plan, as plan.json keeps it: crew's own ids (t1, t2, …), never the model's. */
export const PlanTaskSchema = z.looseObject({
  id: taskId,
  title: text,
  description: text,
  persona: z.enum(PERSONAS),
  tier: z.enum(TIERS),
  dependsOn: z.array(taskId),
  files: z.array(text),
  criteria: z.array(text),
  /** The request's images the worker is shown (ids from run.json's `images`, #36). */
  images: z.array(text).optional(),
  /** The planner marked it hard: it gets the run's ceiling of parallel attempts (#50). */
  hard: z.boolean().optional(),
});
export type PlanTask = Stored<typeof PlanTaskSchema>;

/** plan.json: the checked plan. */
export const PlanSchema = z.looseObject({
  summary: text,
  /** The run's done criteria, from intake (and config); the critic judges these. */
  criteria: z.array(CriterionSchema),
  tasks: z.array(PlanTaskSchema),
  /** Questions crew asked as often as it may and still has no answer to; the plan goes ahead on stated assumptions. */
  openQuestions: z.array(text).optional(),
});
export type Plan = Stored<typeof PlanSchema>;

export type PlanCheck = { ok: true; plan: Plan } | { ok: false; errors: string[] };

function zodErrors(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(plan)'}: ${i.message}`);
}

/**
 * Validates a proposed plan and maps the model's ids to `t1`, `t2`, … in the order
 * given. Task ids end up in branch names, file paths and Mermaid node ids, so they
 * are never taken from the model.
 */
export function checkPlan(input: unknown, criteria: Criterion[] = []): PlanCheck {
  const parsed = ProposedPlanSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: zodErrors(parsed.error) };
  const proposed = parsed.data;
  const errors: string[] = [];
  const idMap = new Map<string, string>();
  proposed.tasks.forEach((t, i) => {
    if (idMap.has(t.id)) errors.push(`tasks.${i}.id: '${t.id}' is used by more than one task`);
    else idMap.set(t.id, `t${i + 1}`);
  });
  const tasks: PlanTask[] = proposed.tasks.map((t, i) => {
    const deps: string[] = [];
    for (const d of t.depends_on) {
      const mapped = idMap.get(d);
      if (!mapped) errors.push(`tasks.${i}.depends_on: '${d}' is not the id of any task`);
      else if (mapped === `t${i + 1}`) errors.push(`tasks.${i}.depends_on: task '${t.id}' depends on itself`);
      else if (!deps.includes(mapped)) deps.push(mapped);
    }
    return {
      id: `t${i + 1}`,
      title: t.title,
      description: t.description,
      persona: t.persona,
      tier: t.model,
      dependsOn: deps,
      files: t.files,
      criteria: t.criteria,
      ...(t.images.length ? { images: [...new Set(t.images)] } : {}),
      ...(t.hard ? { hard: true } : {}),
    };
  });
  if (errors.length) return { ok: false, errors };
  const cycle = findCycle(tasks);
  if (cycle) {
    const back = new Map([...idMap].map(([k, v]) => [v, k]));
    return { ok: false, errors: [`depends_on: the tasks form a cycle: ${cycle.map((id) => back.get(id)).join(' → ')}`] };
  }
  return { ok: true, plan: { summary: proposed.summary, criteria, tasks } };
}

/**
 * What the decomposer's plan must also satisfy beyond its shape: a task count within
 * bounds (a plan from the decomposer has at least 2 tasks; one small task skips it), and
 * no task planning to touch a protected path. Errors name the model's own task index.
 */
export function planBoundsProblems(
  plan: Pick<Plan, 'tasks'>,
  bounds: { minTasks: number; maxTasks: number; protectedPaths: string[]; images?: string[] },
): string[] {
  const errors: string[] = [];
  plan.tasks.forEach((t, i) => {
    for (const img of t.images ?? [])
      if (!bounds.images?.includes(img))
        errors.push(`tasks.${i}.images: ${img} is not one of the request's images (${bounds.images?.length ? bounds.images.join(', ') : 'it has none'})`);
  });
  const n = plan.tasks.length;
  if (n > bounds.maxTasks) errors.push(`tasks: ${n} tasks is more than the limit of ${bounds.maxTasks}; merge related work into fewer tasks`);
  if (n < bounds.minTasks)
    errors.push(
      `tasks: a plan needs at least ${bounds.minTasks} tasks (a request one task can do skips planning); split the work, for example into the change and its tests or docs`,
    );
  plan.tasks.forEach((t, i) => {
    for (const f of t.files) {
      const hit = bounds.protectedPaths.find((p) => globMatch(p, f.replace(/^\.\//, '')));
      if (hit) errors.push(`tasks.${i}.files: ${f} is protected (${hit}); no task may change it, so leave it to people and plan without it`);
    }
  });
  return errors;
}

/** A dependency cycle as a closed path of ids (first id repeated at the end), or undefined. */
export function findCycle(tasks: Array<Pick<PlanTask, 'id' | 'dependsOn'>>): string[] | undefined {
  const deps = new Map(tasks.map((t) => [t.id, t.dependsOn]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const d of deps.get(id) ?? []) {
      const c = visit(d);
      if (c) return c;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const t of tasks) {
    const c = visit(t.id);
    if (c) return c;
  }
  return undefined;
}

/** Waves as the seed groups them: wave n holds the tasks whose dependencies all sit in earlier waves. */
export function waves(plan: { tasks: ReadonlyArray<Pick<PlanTask, 'id' | 'dependsOn'>> }): string[][] {
  const level = new Map<string, number>();
  const byId = new Map(plan.tasks.map((t) => [t.id, t]));
  const depth = (id: string): number => {
    const known = level.get(id);
    if (known !== undefined) return known;
    const deps = byId.get(id)?.dependsOn ?? [];
    const d = deps.length ? 1 + Math.max(...deps.map(depth)) : 0;
    level.set(id, d);
    return d;
  };
  const out: string[][] = [];
  for (const t of plan.tasks) (out[depth(t.id)] ??= []).push(t.id);
  return out;
}

/** The longest dependency chain by estimated duration (1 per task unless given): the lower bound on makespan. */
export function criticalPath(
  plan: { tasks: ReadonlyArray<Pick<PlanTask, 'id' | 'dependsOn'>> },
  duration: (id: string) => number = () => 1,
): { length: number; path: string[] } {
  const byId = new Map(plan.tasks.map((t) => [t.id, t]));
  const best = new Map<string, { length: number; path: string[] }>();
  const longest = (id: string): { length: number; path: string[] } => {
    const known = best.get(id);
    if (known) return known;
    let bestDep = { length: 0, path: [] as string[] };
    for (const d of byId.get(id)?.dependsOn ?? []) {
      const c = longest(d);
      if (c.length > bestDep.length) bestDep = c;
    }
    const r = { length: bestDep.length + duration(id), path: [...bestDep.path, id] };
    best.set(id, r);
    return r;
  };
  let result = { length: 0, path: [] as string[] };
  for (const t of plan.tasks) {
    const c = longest(t.id);
    if (c.length > result.length) result = c;
  }
  return result;
}

/**
 * For each task, how many tasks the longest chain starting at it holds (itself included):
 * 1 for a task nothing depends on. Durations are unknown before a task runs, so this is
 * the scheduler's measure of how much a task holds up.
 */
export function chainAhead(plan: { tasks: ReadonlyArray<Pick<PlanTask, 'id' | 'dependsOn'>> }): Map<string, number> {
  const dependents = new Map<string, string[]>(plan.tasks.map((t) => [t.id, []]));
  for (const t of plan.tasks) for (const d of t.dependsOn) dependents.get(d)?.push(t.id);
  const ahead = new Map<string, number>();
  const measure = (id: string): number => {
    const known = ahead.get(id);
    if (known !== undefined) return known;
    const n = 1 + Math.max(0, ...(dependents.get(id) ?? []).map(measure));
    ahead.set(id, n);
    return n;
  };
  for (const t of plan.tasks) measure(t.id);
  return ahead;
}

/** Dependencies first, stable otherwise: the order to merge task branches in. */
export function topologicalOrder(plan: { tasks: ReadonlyArray<Pick<PlanTask, 'id' | 'dependsOn'>> }): string[] {
  return waves(plan).flat();
}
