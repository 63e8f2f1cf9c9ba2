import { resolve } from 'node:path';
import { loadScenario, runScenario } from './run-scenario';

const USAGE = 'usage: npm run scenario -- <scenario.yaml> [--out DIR]';

async function main(argv: string[]): Promise<number> {
  const args = [...argv];
  let out = '.scenario-out';
  const files: string[] = [];
  while (args.length) {
    const a = args.shift()!;
    if (a === '--out') {
      const v = args.shift();
      if (!v) {
        console.error(`--out needs a folder.\n${USAGE}`);
        return 2;
      }
      out = v;
    } else if (a === '-h' || a === '--help') {
      console.log(USAGE);
      return 0;
    } else files.push(a);
  }
  if (files.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  let loaded;
  try {
    loaded = await loadScenario(files[0]!);
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  const outDir = resolve(out);
  const result = await runScenario(loaded.scenario, { baseDir: loaded.dir, outDir });
  const failed = result.jobs.filter((j) => j.result === 'failure');
  console.log(`scenario '${result.scenario}' finished in ${(result.wallMs / 1000).toFixed(1)} s`);
  console.log(
    `  jobs: ${result.jobs.length} (${failed.length} failed) · PRs: ${result.pulls.length} · crew REST requests: ${result.github.crew.total} (${result.github.crew.writes} writes) · model requests: ${result.model.requests}`,
  );
  if (result.github.violations.length) console.log(`  OpenAPI violations: ${result.github.violations.length} (see result.json)`);
  if (result.runnerErrors.length) console.log(`  runner errors: ${result.runnerErrors.length} (see result.json)`);
  console.log(`  result: ${outDir}/result.json · job logs: ${outDir}/logs/ · repository: ${outDir}/repo.git`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.stack : String(e));
    process.exit(1);
  },
);
