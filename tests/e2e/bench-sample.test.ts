import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';

const run = promisify(execFile);

// The quick sample keeps `npm run bench` from rotting; its figures are not judged here
// (targets live in docs/PERFORMANCE.md), only that it measures a finished run.
describe('npm run bench -- --quick', () => {
  it('runs the bundled action over a calibration chain and a small DAG and prints a row for each', async () => {
    const { stdout } = await run(join(PROJECT_ROOT, 'node_modules/.bin/tsx'), ['scripts/bench.ts', '--quick'], { cwd: PROJECT_ROOT, timeout: 240_000 });
    const cellsOf = (prefix: string) => {
      const row = stdout.split('\n').find((l) => l.startsWith(`| ${prefix}`));
      expect(row, stdout).toBeDefined();
      return row!.split('|').map((c) => c.trim());
    };
    const overhead = Number(/Per-step overhead, measured on the chain: (\d+) ms/.exec(stdout)?.[1]);
    expect(overhead).toBeGreaterThan(0);
    const chain = cellsOf('5-task chain (calibration)');
    const diamond = cellsOf('3-task diamond (quick)');
    // Columns: scenario, tasks, max_parallel, makespan, critical path, lead+tail, ideal, ratio, ideal (measured), ratio, waves, waves (measured), REST.
    expect(Number(chain[5])).toBe(500);
    expect(Number(chain[10])).toBeGreaterThan(0);
    expect(Number(diamond[5])).toBe(300);
    for (const cells of [chain, diamond]) {
      const [makespan, criticalPath, ideal] = [Number(cells[4]), Number(cells[5]), Number(cells[7])];
      expect(makespan).toBeGreaterThan(criticalPath);
      expect(ideal).toBeGreaterThan(criticalPath);
      expect(Number(cells[8])).toBeGreaterThan(0);
      expect(Number(cells[11])).toBeGreaterThan(0);
      expect(Number(cells[12])).toBeGreaterThan(0);
    }
  }, 300_000);
});
