/**
 * `npm run soak`: first the soak test files at full size (CREW_SOAK=1, tests/support/soak.ts): the
 * contention tests (20 jobs writing the state branch at once, 5 workers × 20 messages) and every
 * case of the kill-and-resume tables (tests/e2e/resume.test.ts, tests/e2e/chain.test.ts), of which
 * `npm test` runs a sample. Then the sweep: kills the demo run at every checkpoint of every job, in
 * both of GitHub's ways (a cancelled run, a lost runner), resumes it, and checks that each ends
 * exactly as an uninterrupted run does. `npm test` runs a sample of the sweep.
 * `npm run soak -- <job> [checkpoint]` runs only that part of the sweep.
 */
import { loadScenario, PROJECT_ROOT, runScenario } from '../tests/support/scenario/run-scenario';
import { outcomeOf, type Outcome } from '../tests/support/scenario/outcome';
import type { Scenario } from '../tests/support/scenario/schema';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const CHECKPOINTS: Record<string, string[]> = {
  route: ['run-created', 'plan-comment-sent', 'plan-comment-posted', 'plan-recorded', 'state-write'],
  work: ['work-started', 'worker-turn', 'task-pushed', 'task-recorded', 'state-write'],
  advance: ['integrated', 'state-write'],
  critic: ['judged', 'pr-opened', 'report-posted', 'state-write'],
};
/** Run at full size with CREW_SOAK=1; `npm test` runs them smaller, or a sample of their cases (tests/support/soak.ts). */
const SOAK_TESTS = ['tests/unit/crew/state-store.test.ts', 'tests/unit/crew/inbox.test.ts', 'tests/e2e/resume.test.ts', 'tests/e2e/chain.test.ts'];
const LEGS: Record<string, Array<Record<string, string> | undefined>> = {
  route: [undefined],
  work: [{ task: 't1' }, { task: 't2' }, { task: 't3' }],
  advance: [undefined],
  critic: [undefined],
};

async function play(edit?: (s: Scenario) => void): Promise<{ outcome: Outcome; killed: number; problems: string[] }> {
  const { scenario, dir } = await loadScenario(join(PROJECT_ROOT, 'scenarios', 'demo.yaml'));
  edit?.(scenario);
  let outcome: Outcome | undefined;
  const result = await runScenario(scenario, { baseDir: dir, hooks: { beforeClose: async ({ gh, result: r }) => void (outcome = await outcomeOf(gh, r)) } });
  const problems = [...result.github.violations, ...result.runnerErrors, ...result.model.unscripted.map((u) => `unscripted model request: ${u}`)];
  return { outcome: outcome!, killed: result.jobs.filter((j) => j.killedAt).length, problems };
}

/** Where an interrupted run's outcome first differs from the baseline, for the person reading the sweep. */
function firstDifference(want: unknown, got: unknown, path = 'outcome'): string {
  if (isDeepStrictEqual(want, got)) return '';
  if (Array.isArray(want) && Array.isArray(got)) {
    if (want.length !== got.length)
      return `${path}: ${want.length} entries expected, ${got.length} found${got.length > want.length ? `; extra: ${JSON.stringify(got.find((g) => !want.some((w) => isDeepStrictEqual(w, g))))?.slice(0, 400)}` : ''}`;
    const i = want.findIndex((w, k) => !isDeepStrictEqual(w, got[k]));
    return firstDifference(want[i], got[i], `${path}[${i}]`);
  }
  if (want && got && typeof want === 'object' && typeof got === 'object') {
    const keys = [...new Set([...Object.keys(want), ...Object.keys(got)])];
    const k = keys.find((key) => !isDeepStrictEqual((want as Record<string, unknown>)[key], (got as Record<string, unknown>)[key]))!;
    return firstDifference((want as Record<string, unknown>)[k], (got as Record<string, unknown>)[k], `${path}.${k}`);
  }
  if (typeof want === 'string' && typeof got === 'string') {
    let i = 0;
    while (want[i] === got[i]) i++;
    const around = (t: string) => JSON.stringify(t.slice(Math.max(0, i - 80), i + 160));
    return `${path}, from character ${i}:\n  expected …${around(want)}\n  found    …${around(got)}`;
  }
  const show = (v: unknown) => JSON.stringify(v)?.slice(0, 600);
  return `${path}:\n  expected ${show(want)}\n  found    ${show(got)}`;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');

async function main() {
  const [only, onlyPoint] = process.argv.slice(2);
  // A mistyped job or checkpoint would sweep nothing and report "0 of 0": say so instead.
  if (only && !CHECKPOINTS[only]) return usage(`no job '${only}'; the jobs are ${Object.keys(CHECKPOINTS).join(', ')}`);
  if (only && onlyPoint && !CHECKPOINTS[only]!.includes(onlyPoint))
    return usage(`${only} has no checkpoint '${onlyPoint}'; it has ${CHECKPOINTS[only]!.join(', ')}`);
  if (!only) {
    const full = spawnSync('npx', ['vitest', 'run', ...SOAK_TESTS], {
      cwd: PROJECT_ROOT,
      stdio: 'inherit',
      env: { ...process.env, CREW_SOAK: '1' },
    });
    if (full.status !== 0) {
      console.error('the soak tests failed at full size (output above); the sweep did not run.');
      process.exit(1);
    }
  }
  const baseline = await play();
  // Comparing with a baseline that itself went wrong would prove nothing.
  if (baseline.problems.length) {
    console.error(`the uninterrupted run went wrong, so there is nothing to compare with:\n${baseline.problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  const rows: string[] = [];
  let failures = 0;
  for (const [job, points] of Object.entries(CHECKPOINTS)) {
    if (only && job !== only) continue;
    for (const checkpoint of points) {
      if (onlyPoint && checkpoint !== onlyPoint) continue;
      for (const matrix of LEGS[job]!) {
        for (const mode of ['cancel', 'lost'] as const) {
          const label = `${job}${matrix ? ` (${matrix.task})` : ''} @ ${checkpoint} [${mode}]`;
          const started = Date.now();
          const run = await play((s) => {
            // By the task the job works on, not its matrix leg: a work job that runs a chain takes t2 up itself.
            s.kill.push({ job, checkpoint, mode, times: 1, ...(matrix ? { task: matrix.task! } : {}) });
            s.timeline.push({ comment: '/crew resume', author: 'maintainer', unless_crew_said: '✅ Done' }, { wait: 'idle' });
          });
          const same = isDeepStrictEqual(run.outcome, baseline.outcome) && run.problems.length === 0;
          if (!same) failures++;
          rows.push(
            `${same ? 'ok  ' : 'FAIL'}  ${label.padEnd(44)} killed ${run.killed}  ${((Date.now() - started) / 1000).toFixed(1)} s${run.problems.length ? `  ${run.problems[0]}` : ''}`,
          );
          console.log(rows.at(-1));
          if (!same && !run.problems.length) console.log(indent(firstDifference(baseline.outcome, run.outcome)));
        }
      }
    }
  }
  console.log(`\n${rows.length - failures} of ${rows.length} interrupted runs ended exactly like the uninterrupted one.`);
  process.exit(failures ? 1 : 0);
}

function usage(problem: string): never {
  console.error(`npm run soak -- [job [checkpoint]]: ${problem}.`);
  process.exit(2);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : String(e));
  process.exit(1);
});
