import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './tests/support/slowest-first.js';
import ToolchainSummary from './tests/support/toolchain-summary.js';
import { unitFilesSharingAProcess } from './tests/support/test-isolation.js';

// Unit files share their worker processes (isolate: false): a process and a fresh module graph per
// file cost a third of tests/unit's CPU (docs/PERFORMANCE.md, "Test time"). A file that mocks modules
// or stubs globals keeps a process of its own (test-isolation.ts), as does every scenario file.
const shared = unitFilesSharingAProcess(import.meta.dirname);

export default defineConfig({
  test: {
    pool: 'forks',
    // Scenario tests wait on child processes and loopback I/O: one scenario keeps about 0.6 of a core busy, so on
    // this 2-core machine 3 workers left a third of it idle (844 s wall, 1.5 cores used) and 4 fill it (636 s, all
    // passing; docs/PERFORMANCE.md, "Test time").
    maxWorkers: 4,
    // The longest files first, from tests/durations.json, so the suite does not end waiting on one long file (slowest-first.ts).
    sequence: { sequencer: SlowestFirst },
    testTimeout: 360_000,
    hookTimeout: 360_000,
    // After the default one, so its line (the tests skipped for want of go, cargo or pytest, #45) ends the run.
    reporters: ['default', new ToolchainSummary()],
    // One knob for every platform wait (retry-after, backoff, throttling gaps, cancellation) in the offline world.
    env: { CREW_TIME_SCALE: '0.01', NODE_COMPILE_CACHE: resolve('node_modules/.cache/crew-test-compile-cache') },
    projects: [
      { extends: true, test: { name: 'own-process', include: ['tests/**/*.test.ts'], exclude: shared } },
      {
        extends: true,
        test: { name: 'shared-process', include: shared, isolate: false, setupFiles: ['tests/support/restore-process-state.ts'], unstubEnvs: true },
      },
    ],
  },
});
