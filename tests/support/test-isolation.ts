import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * What a test file can do that a later file in the same process (vitest's `isolate: false`) would
 * inherit and nothing can undo between files: module mocks (a mocked module stays mocked, a cached
 * real one stays real), a reset module registry, spies, stubbed globals, fake timers. A file that
 * does any of these keeps a process of its own. Environment variables, the working directory and
 * the exit code are put back after every file (restore-process-state.ts).
 */
const MODULE_OR_GLOBAL_STATE = /\bvi\.(?:mock|doMock|unmock|doUnmock|resetModules|hoisted|spyOn|stubGlobal|useFakeTimers)\(/;

/** Whether a test file's source changes state that would leak into the next file run in the same process. */
export function leavesStateBehind(source: string): boolean {
  return MODULE_OR_GLOBAL_STATE.test(source);
}

/**
 * The unit test files that can share a worker process; the rest of tests/unit, and every scenario
 * file (tests/e2e), keep one process each. Paths are relative to `root`, with forward slashes.
 */
export function unitFilesSharingAProcess(root: string): string[] {
  const unit = join(root, 'tests', 'unit');
  return readdirSync(unit, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(unit, f))
    .filter((f) => !leavesStateBehind(readFileSync(f, 'utf8')))
    .map((f) => relative(root, f).split('\\').join('/'))
    .sort();
}
