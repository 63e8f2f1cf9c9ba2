import { z } from 'zod';
import type { TestResult } from '../types';
import { crewStream, relativeTo, recordsAs } from './common';

/** One outcome unittest's TestResult was told of, as crew's sitecustomize keeps it. */
const UnittestRecord = z.object({
  id: z.string(),
  module: z.string(),
  cls: z.string(),
  method: z.string().nullable(),
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  outcome: z.enum(['passed', 'failed', 'skipped']),
  subtest: z.boolean().optional(),
});

/**
 * Python's unittest. A test is its file, its class and its method. What is not a test method (a
 * failing setUpClass, a module that did not import) is reported by the id unittest gives it.
 */
export function parseUnittest(text: string, root: string): TestResult[] {
  const { records } = crewStream(text, 'unittest');
  return recordsAs(records, UnittestRecord, 'a unittest outcome', 'record').map((r) => {
    const file = r.file ? relativeTo(root, r.file) : `${r.module.replace(/\./g, '/')}.py`;
    const method = r.method && r.method !== 'runTest' ? r.method : null;
    return {
      runner: 'unittest',
      file,
      suite: method ? [r.cls] : [],
      name: method ?? r.id,
      outcome: r.outcome,
      ...(r.line ? { line: r.line } : {}),
    };
  });
}
