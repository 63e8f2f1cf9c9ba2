import { join } from 'node:path';
import { expect } from 'vitest';
import { loadScenario, PROJECT_ROOT, runScenario, type ScenarioHooks, type ScenarioResult } from '../support/scenario/run-scenario';

/** Plays a scenario file from tests/scenarios (or a path from the project root) through dist/ and the shipped workflow. */
export async function play(
  name: string,
  opts: { edit?: (s: Awaited<ReturnType<typeof loadScenario>>['scenario']) => void; hooks?: ScenarioHooks; env?: Record<string, string> } = {},
): Promise<ScenarioResult> {
  const file = name.includes('/') ? join(PROJECT_ROOT, name) : join(PROJECT_ROOT, 'tests', 'scenarios', `${name}.yaml`);
  const { scenario, dir } = await loadScenario(file);
  opts.edit?.(scenario);
  // CREW_SCENARIO_OUT=<dir> keeps each scenario's result.json and job logs for debugging a test.
  const outDir = process.env.CREW_SCENARIO_OUT ? join(process.env.CREW_SCENARIO_OUT, scenario.name) : undefined;
  return runScenario(scenario, { baseDir: dir, hooks: opts.hooks, ...(outDir ? { outDir } : {}), ...(opts.env ? { env: opts.env } : {}) });
}

/** What every scenario must satisfy: the fakes saw only valid traffic and the runner had no internal errors. */
export function expectFaithful(r: ScenarioResult): void {
  expect(r.github.violations).toEqual([]);
  expect(r.runnerErrors).toEqual([]);
  expect(r.artifacts.violations).toEqual([]);
  expect(r.model.unscripted).toEqual([]);
}

export const crewComments = (r: ScenarioResult) => r.issue.comments.filter((c) => c.author === r.crewLogin);

/** A comment as a reader sees it: without the idempotency key crew adds to every comment it posts. */
export const shown = (body: string) => body.replace(/\n\n<!-- crew:post key=[0-9a-f]+ -->$/, '');

/**
 * Plays a scenario whose timeline's third step is a person's answer to crew's question, with `answer` in
 * its place; `seen` is what `look` found in the world just before that answer.
 */
export async function playAnswer<T>(
  name: string,
  answer: string,
  look: (gh: Parameters<NonNullable<ScenarioHooks['onStep']>>[2]) => Promise<T>,
  beforeClose?: ScenarioHooks['beforeClose'],
): Promise<{ r: ScenarioResult; seen: T }> {
  let seen: T | undefined;
  const r = await play(name, {
    edit: (s) => {
      (s.timeline[2] as { comment: string }).comment = answer;
    },
    hooks: {
      onStep: async (_step, index, gh) => {
        if (index === 2) seen = await look(gh);
      },
      ...(beforeClose ? { beforeClose } : {}),
    },
  });
  expectFaithful(r);
  return { r, seen: seen as T };
}
