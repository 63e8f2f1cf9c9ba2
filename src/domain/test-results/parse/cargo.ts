import { z } from 'zod';
import type { TestResult } from '../types';
import { crewStream, recordsAs, Unreadable } from './common';

/** libtest's JSON events (`--format json`): one per suite start and end, one per test start and end. */
const LibtestEvent = z.union([
  z.object({ type: z.literal('suite'), event: z.string() }).passthrough(),
  z.object({ type: z.literal('test'), event: z.string(), name: z.string() }).passthrough(),
  z.object({ type: z.literal('bench') }).passthrough(),
]);

const OUTCOME: Record<string, TestResult['outcome'] | undefined> = { ok: 'passed', failed: 'failed', ignored: 'skipped' };

/**
 * cargo test, through crew's target runner: one report per test binary, named by its target
 * (`mylib` for the library's unit tests, `api` for tests/api.rs) without cargo's hash. A test is
 * its module path and name. Doc tests are run by rustdoc, not by the runner, and are not counted.
 */
export function parseCargo(text: string): TestResult[] {
  const { header, records } = crewStream(text, 'cargo');
  if (typeof header.binary !== 'string') throw new Unreadable('its header names no test binary');
  const file = header.binary.replace(/-[0-9a-f]{16}$/, '');
  const out: TestResult[] = [];
  let finished = false;
  for (const e of recordsAs(records, LibtestEvent, 'a libtest event')) {
    if (e.type === 'suite') finished ||= e.event !== 'started';
    if (e.type !== 'test') continue;
    const outcome = OUTCOME[e.event as string];
    if (!outcome) continue;
    const path = (e.name as string).split('::');
    out.push({ runner: 'cargo', file, suite: path.slice(0, -1), name: path.at(-1)!, outcome });
  }
  if (!finished) throw new Unreadable('the test binary stopped before libtest reported the end of its suite');
  return out;
}
