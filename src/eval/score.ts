import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestResult, TestRun } from '../domain/test-results';
import type { Log } from '../ports';
import { homeEnv, type CommandRunner, type ProgramHome } from '../sandbox/command-runner';
import { TestReports } from '../sandbox/test-reports/reports';
import { parseConfig } from '../config/schema';
import { prepareTools } from '../toolbox/sandbox-setup';
import type { Instance } from './instances';
import { runWithReports } from '../toolbox/test-runs';
import { checkout, git } from './repos';

/**
 * Self-scoring, SWE-bench's way: the instance's test files (from `fix_commit`, or its
 * `test_patch`) on top of the prediction, `test_cmd` run with crew's test report hooks (#32), and
 * FAIL_TO_PASS / PASS_TO_PASS looked up by test identity. Resolved when every one of them passes.
 * The prediction is model-written code: setup and tests run in the sandbox, as the critic's do.
 */

export type Score =
  | { kind: 'resolved'; reason: string; failToPass: string[]; passToPass: number }
  | { kind: 'unresolved'; reason: string; failing: string[] }
  | { kind: 'unscorable'; reason: string };

/** How the suite and SWE-bench name a test: file, suites and name joined by `::` (pytest's node id). */
export const identityOf = (t: Pick<TestResult, 'file' | 'suite' | 'name'>): string => [t.file, ...t.suite, t.name].join('::');

export interface TestsOutcome {
  run: TestRun;
  /** null when it was stopped (its time ran out). */
  exitCode: number | null;
  output: string;
}

export interface ScoreOptions {
  log: Log;
  allowUnsandboxed: boolean;
  commandTimeoutSeconds: number;
  tempDir: string;
  unsandboxedOptIn: string;
}

/** Why an instance cannot be scored here, before anything runs; undefined when it can. */
export function unscorableBecause(inst: Instance): string | undefined {
  if (!inst.test_cmd) return 'the instance has no test_cmd, so crew cannot run its tests: score predictions with the official SWE-bench harness (docs/eval.md)';
  if (!inst.FAIL_TO_PASS.length) return 'the instance names no FAIL_TO_PASS test, so nothing can show the fix works';
  if (!inst.test_files?.length && !inst.test_patch)
    return 'the instance gives neither test_files (with fix_commit) nor test_patch: the tests that judge a fix are unknown';
  return undefined;
}

/** The tree to judge: the base, the patch, then the instance's test files over it. */
export async function prepareTree(bare: string, inst: Instance, patch: string, dir: string): Promise<string | undefined> {
  await checkout(bare, inst.base_commit, dir);
  if (patch.trim()) {
    const applied = await applyPatch(dir, patch);
    if (applied) return `the prediction does not apply to base_commit: ${applied}`;
  }
  return applyTests(dir, inst);
}

export async function applyTests(dir: string, inst: Instance): Promise<string | undefined> {
  if (inst.test_files?.length && inst.fix_commit) {
    for (const f of inst.test_files) {
      const r = await git(['checkout', inst.fix_commit, '--', f], dir).then(
        () => undefined,
        (e: Error) => e.message,
      );
      if (r) return `test file ${f} could not be taken from fix_commit: ${r}`;
    }
  }
  if (inst.test_patch?.trim()) {
    const r = await applyPatch(dir, inst.test_patch);
    if (r) return `test_patch does not apply over the prediction: ${r}`;
  }
  return undefined;
}

async function applyPatch(dir: string, patch: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn('git', ['apply', '--whitespace=nowarn', '-'], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) => resolve(e.message));
    child.on('close', (code) => resolve(code === 0 ? undefined : err.trim().split('\n').slice(0, 3).join(' ') || `git apply exited ${code}`));
    child.stdin.end(patch);
  });
}

/**
 * The sandbox, after the instance's setup (run inside it: the tree holds model-written code). On a
 * model-written tree, setup and the caller's commands get a home and temporary folder of their own
 * (`home`): the play's commands ran as the same tool user, and a file they left
 * in its shared home (`~/.npmrc`, Python's `usercustomize.py`) would change how the scoring goes (#46).
 */
export async function sandboxFor(
  dir: string,
  inst: Instance,
  o: ScoreOptions,
  trusted: boolean,
): Promise<{ runner: CommandRunner; home?: ProgramHome; dispose(): Promise<void> } | { failure: string }> {
  const ctx = { repo: { dir }, log: o.log, unsandboxedOptIn: o.unsandboxedOptIn };
  const prepared = await prepareTools(
    ctx,
    // The instance's setup reaches what a repository's setup reaches on GitHub: the default allowlist (registries, GitHub).
    {
      setup: inst.setup ?? [],
      command_timeout_seconds: o.commandTimeoutSeconds,
      allow_unsandboxed: o.allowUnsandboxed,
      network: parseConfig(undefined).network,
    },
    { trusted, ownHome: !trusted },
  );
  if (prepared.setupFailure || !prepared.runner) {
    await prepared.dispose();
    return {
      failure: prepared.setupFailure ? `setup failed: ${prepared.setupFailure}` : `no sandbox to run the tests in: ${prepared.warning ?? 'none started'}`,
    };
  }
  // The caller disposes: the proxy, the service bridges and the home (prepareTools).
  return { runner: prepared.runner, ...(prepared.home ? { home: prepared.home } : {}), dispose: prepared.dispose };
}

/** Runs the instance's tests once with crew's hooks, as the critic runs a command criterion (runWithReports); what the runners reported, by identity. */
export async function runTests(
  dir: string,
  runner: CommandRunner,
  command: string,
  o: Pick<ScoreOptions, 'commandTimeoutSeconds' | 'tempDir'>,
  /** The home it runs with, when it has one of its own (sandboxFor). */
  home?: ProgramHome,
): Promise<TestsOutcome> {
  await mkdir(o.tempDir, { recursive: true });
  const reports = await TestReports.prepare(join(o.tempDir, 'reports'), runner, dir);
  try {
    const r = await runWithReports(runner, reports, command, {
      cwd: dir,
      timeoutMs: o.commandTimeoutSeconds * 1000,
      ...(home ? { env: homeEnv(home) } : {}),
    });
    return { run: r.tests, exitCode: r.exitCode, output: r.output };
  } finally {
    await reports.dispose();
  }
}

/**
 * The outcome of each named test in a run. pytest's report gives a test inherited from a mixin the
 * file that defines it and its class's dotted path, where SWE-bench's node id names the module that
 * collects it: that module's name is tried too, and a name still not found is looked up by its
 * suites and name when exactly one test of the run has them.
 */
export function outcomesByName(tests: TestResult[], names: string[]): Map<string, 'passed' | 'failed' | 'missing'> {
  const exact = new Map<string, TestResult[]>();
  const bySuite = new Map<string, TestResult[]>();
  const push = (m: Map<string, TestResult[]>, k: string, t: TestResult) => m.set(k, [...(m.get(k) ?? []), t]);
  for (const t of tests) {
    push(exact, identityOf(t), t);
    push(bySuite, [...t.suite, t.name].join('::'), t);
    // Where the class's module is not the file, the report keeps the dotted class path (tests.test_ttl.TTLCacheTest).
    const dotted = t.runner === 'pytest' ? /^((?:[A-Za-z_][A-Za-z0-9_]*\.)+)([A-Za-z_][A-Za-z0-9_]*)$/.exec(t.suite[0] ?? '') : null;
    if (dotted) push(exact, [`${dotted[1]!.slice(0, -1).replace(/\./g, '/')}.py`, dotted[2], ...t.suite.slice(1), t.name].join('::'), t);
    // A doctest run by unittest is reported under doctest.py with its dotted id (pkg.module.name);
    // the suite's unittest identity reads that id as <pkg/module path>.py::<class>::<name>.
    const parts = t.runner === 'unittest' && t.file.startsWith('/') && !t.suite.length ? t.name.split('.') : [];
    if (parts.length >= 3) push(exact, [`${parts.slice(0, -2).join('/')}.py`, ...parts.slice(-2)].join('::'), t);
  }
  const out = new Map<string, 'passed' | 'failed' | 'missing'>();
  for (const id of names) {
    const rest = id.includes('::') ? id.slice(id.indexOf('::') + 2) : id;
    const loose = bySuite.get(rest);
    const found = exact.get(id) ?? (loose?.length === 1 ? loose : undefined);
    // A test reported more than once passes only when every report of it passed.
    out.set(id, !found ? 'missing' : found.every((t) => t.outcome === 'passed') ? 'passed' : 'failed');
  }
  return out;
}

/** A name from a run's report (which model-written code can shape) as inert code text on one line. */
const quoted = (name: string) => `\`${name.replace(/[`\r\n]/g, ' ').slice(0, 200)}\``;

/** FAIL_TO_PASS and PASS_TO_PASS against one run: resolved only when every one of them passed. */
export function judge(inst: Instance, outcome: TestsOutcome): Score {
  if (outcome.run.kind !== 'known')
    return { kind: 'unscorable', reason: `the test run's results could not be read: ${outcome.run.why} (test_cmd exited ${outcome.exitCode})` };
  const named = outcomesByName(outcome.run.tests, [...inst.FAIL_TO_PASS, ...inst.PASS_TO_PASS]);
  const passed = new Set([...named].filter(([, v]) => v === 'passed').map(([k]) => k));
  const reported = new Set([...named].filter(([, v]) => v !== 'missing').map(([k]) => k));
  const all = new Set(outcome.run.tests.map(identityOf));
  const why = (id: string) => `${id} (${reported.has(id) ? 'failed' : 'not run'})`;
  const f2p = inst.FAIL_TO_PASS.filter((id) => !passed.has(id));
  const p2p = inst.PASS_TO_PASS.filter((id) => !passed.has(id));
  if (!f2p.length && !p2p.length)
    return {
      kind: 'resolved',
      reason: `all ${inst.FAIL_TO_PASS.length} FAIL_TO_PASS and ${inst.PASS_TO_PASS.length} PASS_TO_PASS tests pass`,
      failToPass: inst.FAIL_TO_PASS,
      passToPass: inst.PASS_TO_PASS.length,
    };
  const parts = [
    f2p.length ? `FAIL_TO_PASS ${f2p.length} of ${inst.FAIL_TO_PASS.length} still not passing: ${f2p.slice(0, 5).map(why).join(', ')}` : '',
    p2p.length ? `PASS_TO_PASS ${p2p.length} of ${inst.PASS_TO_PASS.length} broken: ${p2p.slice(0, 5).map(why).join(', ')}` : '',
  ].filter(Boolean);
  // A test the run never reported is usually a naming mismatch: show how this runner names tests.
  const seen =
    [...f2p, ...p2p].some((id) => !reported.has(id)) && all.size
      ? `; the run reported ${all.size} tests, such as ${[...all].slice(0, 3).map(quoted).join(', ')}`
      : '';
  return { kind: 'unresolved', reason: `${parts.join('; ')}${seen}`, failing: [...f2p, ...p2p] };
}

/** Scores one prediction in `dir` (a scratch folder of its own). */
export async function scorePrediction(bare: string, inst: Instance, patch: string, dir: string, o: ScoreOptions): Promise<Score> {
  const cannot = unscorableBecause(inst);
  if (cannot) return { kind: 'unscorable', reason: cannot };
  const treeProblem = await prepareTree(bare, inst, patch, dir);
  if (treeProblem)
    return patch.trim() && treeProblem.startsWith('the prediction')
      ? { kind: 'unresolved', reason: treeProblem, failing: [] }
      : { kind: 'unscorable', reason: treeProblem };
  const box = await sandboxFor(dir, inst, o, false);
  if ('failure' in box) return { kind: 'unscorable', reason: box.failure };
  try {
    return judge(inst, await runTests(dir, box.runner, inst.test_cmd!, o, box.home));
  } finally {
    await box.dispose();
  }
}
