import { z } from 'zod';
import type { TestResult } from '../types';
import { crewStream, relativeTo, recordsAs } from './common';

/** One of mocha's `pass`, `fail` and `pending` events as crew's reporter keeps it: the test's title path and file. */
const MochaEvent = z.object({
  outcome: z.enum(['passed', 'failed', 'skipped']),
  file: z.string().nullable(),
  titles: z.array(z.string()).min(1),
  hook: z.boolean().optional(),
});

/** Mocha. A failing hook is reported as mocha names it (`"before all" hook for "x"`); the tests it kept from running are missing. */
export function parseMocha(text: string, root: string): TestResult[] {
  const { records } = crewStream(text, 'mocha');
  return recordsAs(records, MochaEvent, "one of mocha's test events").map((e) => {
    return { runner: 'mocha', file: e.file ? relativeTo(root, e.file) : '(no file)', suite: e.titles.slice(0, -1), name: e.titles.at(-1)!, outcome: e.outcome };
  });
}
