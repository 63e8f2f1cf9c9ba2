import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'forks',
    // Scenario tests mostly wait on child processes and loopback I/O, so more workers than cores pay off.
    maxWorkers: 4,
    testTimeout: 360_000,
    hookTimeout: 360_000,
    reporters: ['default'],
    // One knob for every platform wait (retry-after, backoff, throttling gaps, cancellation) in the offline world.
    env: { CREW_TIME_SCALE: '0.01' },
  },
});
