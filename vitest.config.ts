import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './tests/support/slowest-first.js';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'forks',
    // Scenario tests wait on child processes and loopback I/O, so one more worker than cores pays off; more than that only slows
    // every job down (each scenario costs ~10 CPU-seconds, about one core while it runs) and stretches the timing scenarios rely on.
    maxWorkers: 3,
    // The longest files first, from tests/durations.json, so the suite does not end waiting on one long file (slowest-first.ts).
    sequence: { sequencer: SlowestFirst },
    testTimeout: 360_000,
    hookTimeout: 360_000,
    reporters: ['default'],
    // One knob for every platform wait (retry-after, backoff, throttling gaps, cancellation) in the offline world.
    env: { CREW_TIME_SCALE: '0.01', NODE_COMPILE_CACHE: resolve('node_modules/.cache/crew-test-compile-cache') },
  },
});
