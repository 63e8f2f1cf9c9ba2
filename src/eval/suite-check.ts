import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Log } from '../ports';
import { UnsandboxedRunner } from '../sandbox/command-runner';
import type { Instance } from './instances';
import { CloneCache, checkout, mirrorOf } from './repos';
import { applyTests, outcomesByName, runTests, sandboxFor, type ScoreOptions, type TestsOutcome } from './score';

/**
 * `npm run eval:check`: the suite's facts checked against the repositories themselves. Each
 * base checks out; with the instance's test files from fix_commit, FAIL_TO_PASS does not pass at
 * base_commit and passes at fix_commit, and PASS_TO_PASS passes at both. Where a repository has
 * no mirror here and the network is not to be used, the instance is skipped with the reason.
 */

export type Check = { id: string; kind: 'held' } | { id: string; kind: 'failed'; problems: string[] } | { id: string; kind: 'skipped'; reason: string };

/** The mirrors folder: CREW_EVAL_MIRRORS, else the nearest `.mirror` folder above the project (kept outside it). */
export function findMirrors(project: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CREW_EVAL_MIRRORS) return resolve(env.CREW_EVAL_MIRRORS);
  for (let dir = dirname(resolve(project)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.mirror'))) return join(dir, '.mirror');
    if (dirname(dir) === dir) return undefined;
  }
}

export async function checkInstance(
  inst: Instance,
  o: { cache: CloneCache; mirrors: string | undefined; network: boolean; work: string; score: ScoreOptions },
): Promise<Check> {
  const id = inst.instance_id;
  if (!inst.fix_commit || !inst.test_cmd || !inst.test_files?.length)
    return { id, kind: 'failed', problems: ['it needs fix_commit, test_cmd and test_files to be checked'] };
  if (!mirrorOf(inst.repo, o.mirrors) && !o.network)
    return {
      id,
      kind: 'skipped',
      reason: `no mirror of ${inst.repo} in ${o.mirrors ?? '(no mirrors folder: set CREW_EVAL_MIRRORS)'}; run with --network to clone it from GitHub`,
    };
  const bare = await o.cache.bare(inst.repo, [inst.base_commit, inst.fix_commit]);
  const problems: string[] = [];
  const at = async (which: 'base' | 'fix'): Promise<TestsOutcome | undefined> => {
    const dir = join(o.work, id, which);
    await checkout(bare, which === 'base' ? inst.base_commit : inst.fix_commit!, dir);
    if (which === 'base') {
      const bad = await applyTests(dir, inst);
      if (bad) return void problems.push(bad);
    }
    const box = await sandboxFor(dir, inst, o.score, true);
    if ('failure' in box) return void problems.push(`at ${which}_commit: ${box.failure}`);
    // Only the setup needed the sandbox: upstream's own code at its own commits is checked the way the suite
    // was verified, as this user, with loopback (some suites serve on localhost, which the sandbox's network namespace has down).
    await box.dispose();
    return runTests(dir, new UnsandboxedRunner(join(o.work, 'home')), inst.test_cmd!, o.score);
  };
  const base = await at('base');
  const fix = await at('fix');
  for (const [which, run] of [
    ['base', base],
    ['fix', fix],
  ] as const) {
    if (!run) continue;
    if (run.run.kind !== 'known') {
      problems.push(`at ${which}_commit the results could not be read: ${run.run.why} (exit ${run.exitCode}): ${run.output.slice(-400)}`);
      continue;
    }
    const named = outcomesByName(run.run.tests, [...inst.FAIL_TO_PASS, ...inst.PASS_TO_PASS]);
    const passed = new Set([...named].filter(([, v]) => v === 'passed').map(([k]) => k));
    const list = (ids: string[]) => `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}`;
    const p2p = inst.PASS_TO_PASS.filter((t) => !passed.has(t));
    if (p2p.length) problems.push(`at ${which}_commit ${p2p.length} PASS_TO_PASS tests do not pass: ${list(p2p)}`);
    const f2p = which === 'base' ? inst.FAIL_TO_PASS.filter((t) => passed.has(t)) : inst.FAIL_TO_PASS.filter((t) => !passed.has(t));
    if (f2p.length) problems.push(`at ${which}_commit ${f2p.length} FAIL_TO_PASS tests ${which === 'base' ? 'already pass' : 'do not pass'}: ${list(f2p)}`);
  }
  return problems.length ? { id, kind: 'failed', problems } : { id, kind: 'held' };
}

export const silentLog = (say: (m: string) => void): Log => ({ info: () => undefined, warn: say, checkpoint: () => undefined });
