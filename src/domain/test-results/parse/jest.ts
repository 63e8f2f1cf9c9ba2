import { z } from 'zod';
import type { TestResult } from '../types';
import { relativeTo, Unreadable } from './common';

/** The JSON jest writes with `--json --outputFile`, which vitest's `json` reporter writes too: the fields crew reads. */
const JestJson = z.object({
  testResults: z.array(
    z.object({
      name: z.string(),
      status: z.string().optional(),
      assertionResults: z.array(
        z.object({
          ancestorTitles: z.array(z.string()),
          title: z.string(),
          status: z.string(),
          location: z.object({ line: z.number().int() }).nullish(),
        }),
      ),
    }),
  ),
});

const STATUS: Record<string, TestResult['outcome'] | undefined> = {
  passed: 'passed',
  focused: 'passed',
  failed: 'failed',
  pending: 'skipped',
  skipped: 'skipped',
  todo: 'skipped',
  disabled: 'skipped',
};

/** jest and vitest. A test file that failed to run (it did not import, a hook threw) with no failing test in it is the file failing. */
export function parseJestJson(text: string, root: string, runner: 'jest' | 'vitest'): TestResult[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Unreadable('it is not JSON');
  }
  const parsed = JestJson.safeParse(json);
  if (!parsed.success)
    throw new Unreadable(`it is not ${runner}'s JSON report (${parsed.error.issues[0]?.path.join('.') || 'top'}: ${parsed.error.issues[0]?.message})`);
  const out: TestResult[] = [];
  for (const f of parsed.data.testResults) {
    const file = relativeTo(root, f.name);
    for (const a of f.assertionResults) {
      const outcome = STATUS[a.status];
      if (!outcome) throw new Unreadable(`a test in ${file} has a status crew does not know (${a.status})`);
      out.push({ runner, file, suite: a.ancestorTitles, name: a.title, outcome, ...(a.location?.line ? { line: a.location.line } : {}) });
    }
    if (f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed')) out.push({ runner, file, suite: [], name: '', outcome: 'failed' });
  }
  return out;
}
