import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';

const run = promisify(execFile);

// The quick sample keeps `npm run bench` from rotting; its figures are not judged here
// (targets live in docs/PERFORMANCE.md), only that it measures a finished run.
describe('npm run bench -- --quick', () => {
  it('runs the bundled action over a 5-task chain and prints a scheduling row', async () => {
    const { stdout } = await run(join(PROJECT_ROOT, 'node_modules/.bin/tsx'), ['scripts/bench.ts', '--quick'], { cwd: PROJECT_ROOT, timeout: 180_000 });
    const row = stdout.split('\n').find((l) => l.startsWith('| 5-task chain (quick)'));
    expect(row, stdout).toBeDefined();
    const cells = row!.split('|').map((c) => c.trim());
    const makespan = Number(cells[3]);
    const criticalPath = Number(cells[4]);
    const ratio = Number(cells[6]);
    // A chain cannot finish before its critical path, and the ratio must be a real measurement.
    expect(makespan).toBeGreaterThanOrEqual(criticalPath);
    expect(criticalPath).toBe(500);
    expect(Number.isFinite(ratio) && ratio > 0).toBe(true);
  }, 200_000);
});
