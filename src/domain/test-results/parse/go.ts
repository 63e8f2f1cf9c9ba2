import { z } from 'zod';
import type { TestResult } from '../types';
import { crewStream, recordsAs, relativeTo, Unreadable } from './common';
import { leavesOnly } from './leaves';

/** An event of `go tool test2json` (go's own documentation of `go test -json`). */
const GoEvent = z.object({ Action: z.string(), Test: z.string().optional(), Package: z.string().optional() }).passthrough();

/**
 * go test, through crew's `-exec` hook: one report per test binary, that is per package, named
 * by its folder. Subtests (`TestX/case`) count; a test that has subtests does not. A package that
 * failed outside any test (TestMain, a panic at init) is reported as its folder failing.
 */
export function parseGo(text: string, root: string): TestResult[] {
  const { header, records } = crewStream(text, 'go');
  if (typeof header.dir !== 'string') throw new Unreadable('its header names no package folder');
  const file = relativeTo(root, header.dir);
  const out: TestResult[] = [];
  let packageFailed = false;
  for (const e of recordsAs(records, GoEvent, 'a test2json event')) {
    const outcome = e.Action === 'pass' ? 'passed' : e.Action === 'fail' ? 'failed' : e.Action === 'skip' ? 'skipped' : undefined;
    if (!outcome) continue;
    if (!e.Test) {
      packageFailed ||= outcome === 'failed';
      continue;
    }
    const path = e.Test.split('/');
    out.push({ runner: 'go', file, suite: path.slice(0, -1), name: path.at(-1)!, outcome });
  }
  const tests = leavesOnly(out);
  if (packageFailed && !tests.some((t) => t.outcome === 'failed')) tests.push({ runner: 'go', file, suite: [], name: '', outcome: 'failed' });
  return tests;
}
