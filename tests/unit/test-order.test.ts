import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DURATIONS_FILE, expectedSeconds } from '../support/test-durations';
const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

describe('the test order (tests/support/slowest-first.ts, test-durations.ts)', () => {
  const durations = { 'tests/e2e/long.test.ts': 300, 'tests/unit/slow.test.ts': 50 };

  it('takes a listed file’s seconds; an unlisted scenario file counts as one scenario, an unlisted unit file as nothing', () => {
    expect(expectedSeconds('tests/e2e/long.test.ts', durations)).toBe(300);
    expect(expectedSeconds('tests/unit/slow.test.ts', durations)).toBe(50);
    expect(expectedSeconds('tests/e2e/new.test.ts', durations)).toBe(40);
    expect(expectedSeconds('tests/unit/new.test.ts', durations)).toBe(0);
  });

  it('reads tests/durations.json: whole seconds per file, longest first', () => {
    const { seconds } = JSON.parse(readFileSync(join(PROJECT_ROOT, DURATIONS_FILE), 'utf8')) as { seconds: Record<string, number> };
    const values = Object.values(seconds);
    expect(values.length).toBeGreaterThan(0);
    expect(values.every((v) => Number.isInteger(v) && v > 0)).toBe(true);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(Object.keys(seconds).every((f) => f.startsWith('tests/') && f.endsWith('.test.ts'))).toBe(true);
  });
});
