import { readFileSync } from 'node:fs';

/** The seconds each test file took in a whole `npm test` (`npm run test:durations` rewrites it), read by the test order (slowest-first.ts). */
export const DURATIONS_FILE = 'tests/durations.json';
/** A scenario test not yet measured: about one scenario's worth, so it starts among the scenario tests. */
const UNLISTED_E2E_SECONDS = 40;

export function expectedSeconds(file: string, durations: Record<string, number>): number {
  return durations[file] ?? (file.startsWith('tests/e2e/') ? UNLISTED_E2E_SECONDS : 0);
}

export function readDurations(path: string): Record<string, number> {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { seconds: Record<string, number> }).seconds;
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}; run \`npm run test:durations\` after a whole \`npm test\` to write it`);
  }
}
