import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadScenario, PROJECT_ROOT, runScenario, type ScenarioResult } from './run-scenario';

/**
 * tests/scenarios/repository-cache.yaml (#51): two runs on one issue whose setup steps cache npm's cache
 * folder with actions/setup-node, played for its e2e test and for `npm run bench -- --setup-cache`.
 */
/** What the play left for the checks: each job's log by run, and every file the cache store holds. */
export interface CachePlay {
  r: ScenarioResult;
  jobs: Array<{ run: number; name: string; log: string }>;
  events: Array<{ kind: string; key: string; job: string; ms: number }>;
  stored: string[];
  /** What the workers' `cat node_modules/.deps-summary` showed, in order: the stand-in package manager's own count. */
  deps: string[];
}

/** Plays tests/scenarios/repository-cache.yaml (two runs on one issue) and keeps what the cache saw. */
export async function playCache(form: 'short' | 'full' = 'short'): Promise<CachePlay> {
  const { scenario, dir } = await loadScenario(join(PROJECT_ROOT, 'tests', 'scenarios', 'repository-cache.yaml'));
  scenario.workflow = form;
  const out: Omit<CachePlay, 'r'> = { jobs: [], events: [], stored: [], deps: [] };
  const r = await runScenario(scenario, {
    baseDir: dir,
    hooks: {
      beforeClose: async ({ runner, anthropic }) => {
        for (const q of anthropic.requests.filter((q) => q.role === 'worker')) {
          const said = /deps: \d+ from the cache, \d+ downloaded/.exec(JSON.stringify(q.body.messages.at(-1) ?? ''))?.[0];
          if (said && out.deps.at(-1) !== said) out.deps.push(said);
        }
        for (const [i, run] of runner.runs.entries()) for (const j of run.jobs) out.jobs.push({ run: i, name: j.name, log: j.log.join('\n') });
        out.events = [...runner.cache.events];
        const root = runner.cache.dir;
        const files = (await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile());
        out.stored = await Promise.all(
          files.map(async (e) => `${join(e.parentPath, e.name).slice(root.length)}: ${(await readFile(join(e.parentPath, e.name), 'utf8')).slice(0, 80)}`),
        );
      },
    },
  });
  return { r, ...out };
}

/** How long crew's `setup:` command took in a job, from its log (toolbox/sandbox-setup.ts). */
export const setupSeconds = (log: string) => Number(/setup: `node scripts\/deps\.mjs` done in ([0-9.]+) s/.exec(log)?.[1] ?? NaN);
