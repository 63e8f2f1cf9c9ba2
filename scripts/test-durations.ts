/**
 * `npm run test:durations`: after a whole `npm test`, writes how long each test file took (from
 * vitest's own results cache) to tests/durations.json, which the test order reads
 * (tests/support/slowest-first.ts). Files under a second are left out; they run last anyway.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DURATIONS_FILE } from '../tests/support/test-durations';

const root = join(import.meta.dirname, '..');
const cacheRoot = join(root, 'node_modules', '.vite', 'vitest');
const caches = existsSync(cacheRoot)
  ? readdirSync(cacheRoot)
      .map((d) => join(cacheRoot, d, 'results.json'))
      .filter(existsSync)
  : [];
if (!caches.length) {
  console.error(`no vitest results in ${cacheRoot}: run \`npm test\` first, then this.`);
  process.exit(1);
}
const seconds: Record<string, number> = {};
for (const cache of caches) {
  const { results } = JSON.parse(readFileSync(cache, 'utf8')) as { results: Array<[string, { duration: number }]> };
  for (const [key, { duration }] of results) {
    const file = key.slice(key.indexOf(':') + 1);
    if (existsSync(join(root, file)) && duration >= 1000) seconds[file] = Math.round(duration / 1000);
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
writeFileSync(
  join(root, DURATIONS_FILE),
  `${JSON.stringify({ about: 'Seconds each test file took in a whole npm test; the test order starts the longest first. Rewrite with npm run test:durations.', seconds: sorted }, null, 2)}\n`,
);
console.log(`${DURATIONS_FILE}: ${Object.keys(sorted).length} files of a second or more.`);
