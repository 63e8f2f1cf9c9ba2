import type { Runner, TestResult, TestRun } from './types';
import { Unreadable } from './parse/common';
import { parseNode } from './parse/node';
import { parseMocha } from './parse/mocha';
import { parseUnittest } from './parse/unittest';
import { parseGo } from './parse/go';
import { parseCargo } from './parse/cargo';
import { parseJunit } from './parse/junit';
import { parseJestJson } from './parse/jest';

/** A file found in a run's report folder. `text` is absent when it was not read (too large, not a regular file): `problem` says why. */
export interface ReportFile {
  name: string;
  bytes: number;
  text?: string;
  problem?: string;
}

/** The largest report crew reads, and the most it reads from one run: a larger one is unreadable, never skipped. */
export const MAX_REPORT_BYTES = 16 * 1024 * 1024;
export const MAX_REPORTS_BYTES = 64 * 1024 * 1024;
/** More files than any honest run writes (one per test process): the folder is not what crew's hooks made. */
export const MAX_REPORT_FILES = 2000;

/** Which runner wrote a file, from the name crew's hooks give it (`<runner>-<pid>-<ms>.<ext>`). */
const NAME = /^(node|mocha|unittest|go|cargo|pytest|vitest|jest)-[0-9]+-[0-9]+(?:-[0-9]+)?\.(jsonl|xml|json)$/;
const EXT: Record<Runner, string> = {
  node: 'jsonl',
  mocha: 'jsonl',
  unittest: 'jsonl',
  go: 'jsonl',
  cargo: 'jsonl',
  pytest: 'xml',
  vitest: 'json',
  jest: 'json',
};

function parseOne(runner: Runner, text: string, root: string): TestResult[] {
  switch (runner) {
    case 'node':
      return parseNode(text, root);
    case 'mocha':
      return parseMocha(text, root);
    case 'unittest':
      return parseUnittest(text, root);
    case 'go':
      return parseGo(text, root);
    case 'cargo':
      return parseCargo(text);
    case 'pytest':
      return parseJunit(text, 'pytest');
    case 'vitest':
    case 'jest':
      return parseJestJson(text, root, runner);
  }
}

/**
 * The tests one run of a command reported, from every file in its report folder. `root` is the
 * checkout the command ran in (reports name files absolutely; identities are relative). No file:
 * unknown. Any file crew cannot read whole, did not ask for, or too much in all: unreadable.
 */
export function readReports(files: ReportFile[], root: string): TestRun {
  if (!files.length)
    return {
      kind: 'unknown',
      why: 'no test runner crew knows wrote a report (crew asks node --test, vitest, jest, mocha, pytest, unittest, go test and cargo test for one)',
    };
  if (files.length > MAX_REPORT_FILES)
    return { kind: 'unreadable', why: `the report folder holds ${files.length} files, more than the ${MAX_REPORT_FILES} crew reads` };
  const total = files.reduce((n, f) => n + f.bytes, 0);
  if (total > MAX_REPORTS_BYTES)
    return { kind: 'unreadable', why: `the reports add up to ${total} bytes, over the ${MAX_REPORTS_BYTES} crew reads from one run` };
  const tests: TestResult[] = [];
  const runners = new Set<Runner>();
  for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
    const m = NAME.exec(f.name);
    if (!m || EXT[m[1] as Runner] !== m[2])
      return { kind: 'unreadable', why: `the report folder holds ${JSON.stringify(f.name.slice(0, 80))}, which crew did not ask any runner for` };
    if (f.problem || f.text === undefined) return { kind: 'unreadable', why: `${f.name}: ${f.problem ?? 'it could not be read'}` };
    if (f.bytes > MAX_REPORT_BYTES) return { kind: 'unreadable', why: `${f.name} is ${f.bytes} bytes, over the ${MAX_REPORT_BYTES} crew reads` };
    const runner = m[1] as Runner;
    try {
      tests.push(...parseOne(runner, f.text, root));
    } catch (e) {
      if (e instanceof Unreadable) return { kind: 'unreadable', why: `${f.name} (${runner}): ${e.message}` };
      throw e;
    }
    runners.add(runner);
  }
  return { kind: 'known', runners: [...runners].sort(), tests };
}
