/**
 * `effort` per role (`.github/crew.yml`), sent as the API's `output_config.effort`
 * (platform.claude.com/docs/en/build-with-claude/effort): how many tokens, thinking included, a model
 * spends on a reply. `low`, `medium` and `high` on every model that takes the parameter; `xhigh` and
 * `max` only on some (the page's levels table). A model that does not take it answers 400.
 */
export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = (typeof EFFORT_LEVELS)[number];

/** Who asks: the planning agents (intake, decomposer, plan reviewer, the leader's re-planning), and each other agent. */
export const EFFORT_ROLES = ['planner', 'worker', 'critic', 'resolver', 'retrospector', 'summarizer'] as const;
export type EffortRole = (typeof EFFORT_ROLES)[number];

/**
 * What a role asks for when `effort` leaves it unset, on a model known to take the parameter: the
 * worker and the critic at `high` (the 5.5 family's Opus and Haiku default to `medium`, and a worker's
 * long agentic task is what `high` is for); the rest at the model's own default (nothing is sent).
 */
export const DEFAULT_EFFORT: Partial<Record<EffortRole, Effort>> = { worker: 'high', critic: 'high' };

/** The models the effort page lists, by the Claude API's id (a platform's prefix and suffix dropped), with the levels each takes. */
const ALL = EFFORT_LEVELS;
const LEVELS: Array<[RegExp, readonly Effort[]]> = [
  [/claude-opus-4-5/, ['low', 'medium', 'high']],
  [/claude-(opus|sonnet)-4-6/, ['low', 'medium', 'high', 'max']],
  [/claude-(opus-4-7|opus-4-8|opus-5|sonnet-5|opus-5-5|sonnet-5-5|haiku-5-5|fable-5|mythos-5)(?![-\d])/, ALL],
];

/** The levels `model` takes, or undefined for a model crew does not know to take the parameter. */
export function effortLevels(model: string): readonly Effort[] | undefined {
  return LEVELS.find(([match]) => match.test(model))?.[1];
}

/**
 * The effort to send for `role` on `model`: the configured one whatever the model (a person who set it
 * hears the API's answer if the model refuses it), else the role's default where the model takes it.
 */
export function effortFor(configured: Partial<Record<EffortRole, Effort>>, role: EffortRole, model: string): Effort | undefined {
  const set = configured[role];
  if (set) return set;
  const fallback = DEFAULT_EFFORT[role];
  return fallback && effortLevels(model)?.includes(fallback) ? fallback : undefined;
}
