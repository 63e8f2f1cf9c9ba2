/**
 * The context window of each model, in input tokens, from Anthropic's model pages
 * (platform.claude.com/docs/en/about-claude/models/overview and each model's overview, 2026): the
 * Claude 5 and 5.5 families (Opus, Sonnet, Haiku 5.5, Fable, Mythos) take 1M tokens; Claude 4.x
 * models 200k (Sonnet's 1M is a beta crew does not ask for). A model crew does not know is taken
 * at 200k, the smallest window of a current model: compacting early costs a summary, too late a
 * refused request. `context_budget` in .github/crew.yml sets a smaller one.
 */
const WINDOWS: Array<[RegExp, number]> = [
  [/claude-(opus|sonnet|haiku|fable|mythos)-5(?![\d])/, 1_000_000],
  [/claude-(opus|sonnet|haiku)-4/, 200_000],
];

export const DEFAULT_CONTEXT_WINDOW = 200_000;

export function contextWindow(model: string): number {
  return WINDOWS.find(([match]) => match.test(model))?.[1] ?? DEFAULT_CONTEXT_WINDOW;
}
