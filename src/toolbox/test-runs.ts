import { readReports, type TestRun } from '../domain/test-results';
import type { CommandRunner } from '../sandbox/command-runner';
import type { TestReports } from '../sandbox/test-reports/reports';
import { redact } from '../text/redact';
import { MAX_OUTPUT_BYTES } from './command-options';

/** One run of a command with crew's report hooks: what people see (exit code, output) and what the runner reported about its tests. */
export interface CommandRun {
  exitCode: number | null;
  timedOut: boolean;
  /** What it printed, capped at MAX_OUTPUT_BYTES (head and tail kept) and redacted. */
  output: string;
  tests: TestRun;
}

/** What node prints when a command line's own `--test-reporter` (with no destination) meets the one crew puts in NODE_OPTIONS. */
const NODE_REPORTER_CLASH = "must match the number of specified '--test-reporter-destination'";

/**
 * The command line as it runs with the hooks' variables in its environment. A command that sets
 * PYTHONPATH itself (`PYTHONPATH=src python -m …`) keeps the hooks' folder after its own, or Python
 * would never load them. crew's tool environment sets NO_COLOR for the agents' output; a suite that
 * tests its colours reads it, and CI does not set it, so tests run without it.
 */
export function testCommand(command: string): string {
  const kept = command.replace(
    /^(\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*?)PYTHONPATH=(\S*)/,
    (_m, pre: string, val: string) => `${pre}PYTHONPATH=${val}\${PYTHONPATH:+:"$PYTHONPATH"}`,
  );
  return `unset NO_COLOR; ${kept}`;
}

/**
 * Runs a command with crew's report hooks (sandbox/test-reports) and reads what the runners
 * reported: the one way the critic (head, base, localisation, candidates, re-runs) and eval's
 * scoring run tests. A command that gives node's runner a reporter of its own without a destination
 * cannot take crew's as well (node refuses the pair): it runs again without it, and node's tests are
 * unknown. Where it runs is the caller's: `cwd` and `env` (a home and temporary folder of its own for
 * a base or a scored tree, #46).
 */
export async function runWithReports(
  runner: CommandRunner,
  reports: TestReports | undefined,
  command: string,
  /** `env`: variables for this run besides the hooks' (a home of its own, #46). */
  opts: { cwd: string; timeoutMs: number; env?: Record<string, string> },
): Promise<CommandRun> {
  const line = testCommand(command);
  const base = { cwd: opts.cwd, timeoutMs: opts.timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES };
  if (!reports) {
    const r = await runner.run(line, { ...base, ...(opts.env ? { env: opts.env } : {}) });
    return {
      exitCode: r.exitCode,
      timedOut: r.timedOut,
      output: redact(r.output),
      tests: { kind: 'unknown', why: 'crew could not set up its report hooks in this job' },
    };
  }
  // The hooks and report folders may lie outside the sandbox's own places (eval keeps them in its temp folder).
  const see = reports.places();
  let folder = await reports.open();
  let r = await runner.run(line, { ...base, env: { ...opts.env, ...folder.env }, see });
  let files = await reports.collect(folder);
  let clash = false;
  if (r.exitCode !== 0 && r.output.includes(NODE_REPORTER_CLASH) && !files.some((f) => f.name.startsWith('node-'))) {
    clash = true;
    folder = await reports.open({ node: false });
    r = await runner.run(line, { ...base, env: { ...opts.env, ...folder.env }, see });
    files = await reports.collect(folder);
  }
  let tests = readReports(files, opts.cwd);
  if (clash && tests.kind === 'unknown')
    tests = {
      kind: 'unknown',
      why: "the command gives node's test runner a --test-reporter of its own with no destination, which node does not let crew add to",
    };
  return { exitCode: r.exitCode, timedOut: r.timedOut, output: redact(r.output), tests };
}
