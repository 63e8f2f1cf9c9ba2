import { z } from 'zod';
import type { TestResult } from '../types';
import { crewStream, relativeTo, recordsAs } from './common';
import { leavesOnly } from './leaves';

/** One event of node's test runner as crew's reporter keeps it (node's `test:start`, `test:pass`, `test:fail`). */
const NodeEvent = z.object({
  type: z.enum(['test:start', 'test:pass', 'test:fail']),
  name: z.string(),
  nesting: z.number().int().min(0),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  skip: z.boolean(),
  todo: z.boolean(),
  kind: z.string().nullable(),
});

/**
 * Node's test runner. Its events come in the order the tests are defined (node's documentation of
 * `test:start` and `test:pass`), so the suite path of a result is the names of the tests started
 * around it in the same file. Suites and tests with subtests are left out: only the tests that
 * hold no others count. A file that failed before defining any test is reported under its own name.
 */
export function parseNode(text: string, root: string): TestResult[] {
  const { records } = crewStream(text, 'node');
  const stacks = new Map<string, string[]>();
  const out: Array<TestResult & { kind: string | null }> = [];
  for (const e of recordsAs(records, NodeEvent, "one of node's test events")) {
    const file = e.file ?? '';
    const stack = stacks.get(file) ?? [];
    stacks.set(file, stack);
    if (e.type === 'test:start') {
      stack.length = e.nesting;
      stack.push(e.name);
      continue;
    }
    const rel = file ? relativeTo(root, file) : '(no file)';
    const fileItself = e.nesting === 0 && file !== '' && (e.name === file || e.name === rel || file.endsWith(`/${e.name}`));
    // A file is reported as a test of its own only when it fails outside its tests; a file that ran (even with no tests in it) is no test.
    if (fileItself && e.type !== 'test:fail') continue;
    out.push({
      runner: 'node',
      file: rel,
      suite: stack.slice(0, e.nesting),
      name: fileItself ? '' : e.name,
      outcome: e.type === 'test:fail' ? 'failed' : e.skip || e.todo ? 'skipped' : 'passed',
      ...(e.line ? { line: e.line } : {}),
      kind: e.kind,
    });
  }
  return leavesOnly(out.filter((t) => t.kind !== 'suite')).map(({ kind: _, ...t }) => t);
}
