import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leavesStateBehind, unitFilesSharingAProcess } from '../support/test-isolation';

describe('which unit files share a worker process (vitest.config.ts)', () => {
  it('a file that mocks a module, spies, stubs a global or fakes timers keeps its own process; env writes and plain tests do not', () => {
    for (const src of [
      "vi.mock('../../src/x')",
      'vi.doMock("./y", () => ({}))',
      'vi.spyOn(console, "log")',
      "vi.stubGlobal('fetch', f)",
      'vi.useFakeTimers()',
      'vi.resetModules()',
      'const h = vi.hoisted(() => 1)',
    ])
      expect(leavesStateBehind(src), src).toBe(true);
    for (const src of ["vi.stubEnv('A', '1')", 'process.env.A = "1"', 'const f = vi.fn()', "it('mock the world', () => {})"])
      expect(leavesStateBehind(src), src).toBe(false);
  });

  it('lists tests/unit recursively, relative to the root, leaving out the files that keep their own process', () => {
    const root = mkdtempSync(join(tmpdir(), 'crew-isolation-'));
    try {
      mkdirSync(join(root, 'tests', 'unit', 'a'), { recursive: true });
      writeFileSync(join(root, 'tests', 'unit', 'plain.test.ts'), "it('x', () => {});\n");
      writeFileSync(join(root, 'tests', 'unit', 'a', 'mocks.test.ts'), "vi.mock('./m');\n");
      writeFileSync(join(root, 'tests', 'unit', 'a', 'env.test.ts'), "process.env.X = '1';\n");
      writeFileSync(join(root, 'tests', 'unit', 'a', 'helper.ts'), '');
      expect(unitFilesSharingAProcess(root)).toEqual(['tests/unit/a/env.test.ts', 'tests/unit/plain.test.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('no test file replaces process.env: a plain object there cuts the real environment off for every file sharing the process (restoreEnv)', () => {
    const root = join(import.meta.dirname, '..');
    const replacing = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => /\bprocess\.env\s*=(?!=)/.test(readFileSync(join(root, f), 'utf8')));
    expect(replacing).toEqual(['support/restore-process-state.ts']);
  });
});
