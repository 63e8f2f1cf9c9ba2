import { loadavg } from 'node:os';
import { playCache, setupSeconds } from '../../tests/support/scenario/repository-cache';

/**
 * Setup time per work job with and without a dependency cache (#51): tests/scenarios/repository-cache.yaml,
 * two runs on one issue whose setup steps run actions/setup-node with `cache: npm` (the offline runner's
 * stand-in, tests/support/runner/setup-actions.ts). crew's `setup:` is a stand-in package manager that
 * downloads each of 40 dependencies (60 ms each, as from a registry) into npm's cache folder unless it is
 * there. The first run's work job finds no cache; the second restores the entry the first saved.
 */
export interface SetupCacheFigure {
  measuredAt: string;
  loadAverage: number[];
  /** Per work job: the cache step's restore (0 on a miss), crew's `setup:` command, and the two together, seconds. */
  withoutCache: SetupJob;
  withCache: SetupJob;
  /**
   * crew's `setup:` in each run's critic job, on the model-written tree inside the sandbox, seconds: it starts from a
   * copy of the cache the job restored (sandbox/home-caches.ts), so it downloads only what the model's change added.
   */
  criticSetupS?: number[];
}

interface SetupJob {
  restoreS: number;
  setupS: number;
  totalS: number;
  deps: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export async function measureSetupCache(): Promise<SetupCacheFigure> {
  const measuredAt = new Date().toISOString();
  const loadAverage = loadavg().map(round2);
  const played = await playCache();
  const work = played.jobs.filter((j) => /work/.test(j.name) && j.log.includes('setup ('));
  if (work.length !== 2 || played.deps.length !== 2) throw new Error(`the cache scenario ran ${work.length} work jobs with setup (2 expected)`);
  const restores = played.events.filter((e) => e.kind === 'restore' && /work/.test(e.job));
  const job = (i: number, restoreMs: number): SetupJob => {
    const setupS = setupSeconds(work[i]!.log);
    return { restoreS: round2(restoreMs / 1000), setupS, totalS: round2(restoreMs / 1000 + setupS), deps: played.deps[i]! };
  };
  const criticSetupS = played.jobs.filter((j) => /critic/.test(j.name) && j.log.includes('setup (on a model-written tree')).map((j) => setupSeconds(j.log));
  return { measuredAt, loadAverage, withoutCache: job(0, 0), withCache: job(1, restores[0]?.ms ?? Number.NaN), criticSetupS };
}

export function setupCacheLine(f: SetupCacheFigure): string {
  const critic = f.criticSetupS?.length ? `; the critic's sandboxed setup on the model-written tree (41 dependencies): ${f.criticSetupS.join(' s, ')} s` : '';
  return `Setup per work job (40 dependencies): ${f.withoutCache.totalS} s without a cache, ${f.withCache.totalS} s with the one the previous run saved (restore ${f.withCache.restoreS} s)${critic}`;
}

export function setupCacheMarkdown(f: SetupCacheFigure, heading: string): string[] {
  const row = (name: string, j: SetupJob) => `| ${name} | ${j.restoreS} | ${j.setupS} | ${j.totalS} | ${j.deps} |`;
  return [
    `${heading} Dependency caches between runs`,
    '',
    `Measured on ${f.measuredAt.slice(0, 10)}, load average ${f.loadAverage.join(' ')} at the start, with \`npm run bench -- --setup-cache\` (#51). Two runs on one issue of \`tests/scenarios/repository-cache.yaml\`: the repository's setup steps run actions/setup-node with \`cache: npm\` (the offline runner's stand-in restores and saves \`~/.npm\` as the action does, keyed by the lockfile), and crew's \`setup:\` is a stand-in package manager that downloads each of 40 dependencies (60 ms each, standing in for a registry) unless npm's cache folder holds it. The figures are seconds per work job; a real \`npm ci\` saves more or less depending on the registry and the packages.`,
    '',
    '| Work job | Cache restore (s) | crew `setup:` (s) | Setup (s) | What setup did |',
    '|---|---|---|---|---|',
    row('First run: no cache yet', f.withoutCache),
    row("Second run: the first run's cache", f.withCache),
    '',
    ...(f.criticSetupS?.length
      ? [
          `crew's \`setup:\` in each run's critic job, on the model-written tree inside the sandbox (41 dependencies), starting from a copy of the cache the job restored: ${f.criticSetupS.join(' s, ')} s.`,
          '',
        ]
      : []),
  ];
}
