import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRepo } from '../../../src/adapters/git/git-repo';
import type { Criterion } from '../../../src/domain/criteria';
import type { TestRun } from '../../../src/domain/test-results';
import { runTests } from '../../../src/eval/score';
import type { StepContext } from '../../../src/steps/context';
import { UnsandboxedRunner } from '../../../src/sandbox/command-runner';
import { TestReports } from '../../../src/sandbox/test-reports/reports';
import { baseRuns } from '../../../src/steps/test-runs';
import { runWithReports, testCommand } from '../../../src/toolbox/test-runs';
import { view } from '../crew/run-fixtures';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';

/**
 * One way to run tests with reports (#53 item 3): the critic (its head's run in the checkout, and its
 * base's run, baseRuns, in a checkout, home and temporary folder of its own, #46) and eval's scoring
 * (runTests, in the home sandboxFor makes) run every case here, and each gets the same result:
 * node's reporter clash retried, a command's own PYTHONPATH kept after the hooks', NO_COLOR unset,
 * one output cap, secrets redacted.
 */

const root = mkdtempSync(join(tmpdir(), 'crew-run-with-reports-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dir: string;
let baseSha: string;
let runner: UnsandboxedRunner;
let sharedHome: string;
let reports: TestReports;
let ctx: StepContext;

const NODE_TEST = `const { test } = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.equal(1 + 1, 2));
`;
const PY_TEST = `import unittest
from calc import add

class AddTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 3)
`;

beforeAll(async () => {
  dir = join(root, 'repo');
  mkdirSync(join(dir, 'test'), { recursive: true });
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'tests'));
  writeFileSync(join(dir, 'test/add.test.js'), NODE_TEST);
  writeFileSync(join(dir, 'src/calc.py'), 'def add(a, b):\n    return a + b\n');
  writeFileSync(join(dir, 'tests/__init__.py'), '');
  writeFileSync(join(dir, 'tests/test_calc.py'), PY_TEST);
  await git(['init', '-q', '-b', 'main'], { cwd: dir });
  await git(['add', '-A'], { cwd: dir });
  await git(['commit', '-qm', 'base'], { cwd: dir, env: FIXTURE_IDENTITY });
  baseSha = (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  sharedHome = join(root, 'home');
  mkdirSync(sharedHome);
  // What a head's tests may leave in the tool user's shared home: the base's run and eval's scoring never see it.
  writeFileSync(join(sharedHome, 'planted'), 'from the head');
  runner = new UnsandboxedRunner(sharedHome);
  reports = await TestReports.prepare(join(root, 'tmp'), runner, dir);
  const { repo } = gitRepo(dir, 'https://github.invalid/o/r.git', '');
  ctx = {
    repo,
    state: { load: async () => ({ version: '1', read: () => undefined, list: () => [] }) },
    clock: { now: () => new Date('2026-12-01T00:00:00Z') },
    log: { info: () => undefined, warn: () => undefined, checkpoint: () => undefined },
  } as unknown as StepContext;
}, 120_000);

afterAll(async () => reports?.dispose());

interface Ran {
  exitCode: number | null;
  output: string;
  tests: TestRun;
}

const TIMEOUT_MS = 60_000;

/** The callers, each running `command` as it does in crew. */
const callers: Record<string, (command: string) => Promise<Ran>> = {
  // critic.ts: each command criterion on the head, in the job's checkout, with the job's report hooks.
  'critic (head)': (command) => runWithReports(runner, reports, command, { cwd: dir, timeoutMs: TIMEOUT_MS }),
  // The base's run (#32, #46): its own checkout of the base commit in a fresh home; kept as its output's tail.
  'critic (base)': async (command) => {
    const c: Criterion = { id: 'c1', text: 'the tests pass', kind: 'command', command };
    const v = view(['success'], { base: { branch: 'main', sha: baseSha } });
    const { runs } = await baseRuns(ctx, v, [c], {
      runner,
      reports,
      headSha: 'f'.repeat(40),
      timeoutMs: TIMEOUT_MS,
      setup: { commands: [], network: undefined, where: 'on the base' },
    });
    return runs.get('c1')!;
  },
  // eval's scoring: test_cmd in the scored tree, in the home of its own sandboxFor gives a model-written tree.
  'eval (scoring)': async (command) => {
    const home = await runner.programHome();
    try {
      const r = await runTests(dir, runner, command, { commandTimeoutSeconds: TIMEOUT_MS / 1000, tempDir: join(root, 'eval-tmp') }, home);
      return { exitCode: r.exitCode, output: r.output, tests: r.run };
    } finally {
      await home.dispose();
    }
  },
};

async function everyCaller(command: string): Promise<Record<string, Ran>> {
  const out: Record<string, Ran> = {};
  for (const [name, run] of Object.entries(callers)) out[name] = await run(command);
  return out;
}

const names = (t: TestRun) => (t.kind === 'known' ? t.tests.map((x) => `${x.runner} ${x.file}::${[...x.suite, x.name].join('::')} ${x.outcome}`) : []);

describe('the critic and eval run tests with reports the same way (#53)', () => {
  it("a command that gives node's runner a reporter of its own runs again without crew's: it passes, and node's tests are unknown with the reason", async () => {
    const r = await everyCaller('node --test --test-reporter=spec');
    for (const [name, x] of Object.entries(r)) {
      expect(x.exitCode, name).toBe(0);
      expect(x.tests, name).toMatchObject({ kind: 'unknown', why: expect.stringContaining('--test-reporter of its own') });
    }
  }, 120_000);

  it("a command that sets PYTHONPATH itself keeps the hooks' folder after its own: its tests are read", async () => {
    const r = await everyCaller('PYTHONPATH=src python3 -m unittest discover -s tests -t .');
    for (const [name, x] of Object.entries(r)) {
      expect(x.exitCode, name).toBe(0);
      expect(x.tests.kind, name).toBe('known');
      expect(names(x.tests), name).toEqual(['unittest tests/test_calc.py::AddTest::test_add passed']);
    }
  }, 120_000);

  it("runs without crew's NO_COLOR (a suite that tests its colours reads it)", async () => {
    const r = await everyCaller(`node -e "process.exit('NO_COLOR' in process.env ? 3 : 0)"`);
    for (const [name, x] of Object.entries(r)) expect(x.exitCode, name).toBe(0);
  }, 120_000);

  it('caps what a command prints the same way: head and tail kept, the same bytes for every caller', async () => {
    const r = await everyCaller(`node -e "for (let i = 0; i < 3000; i++) console.log('line ' + String(i).padStart(4, '0') + ' ' + 'x'.repeat(40))"`);
    const head = r['critic (head)']!.output;
    // More than eval kept before, less than everything (3000 × 50 bytes).
    expect(Buffer.byteLength(head)).toBeGreaterThan(25_000);
    expect(Buffer.byteLength(head)).toBeLessThan(40_000);
    expect(head).toContain('line 0000 ');
    expect(head).toContain('line 2999 ');
    expect(r['eval (scoring)']!.output).toBe(head);
    // The base keeps the tail of the same output.
    expect(head.trimEnd().endsWith(r['critic (base)']!.output)).toBe(true);
  }, 120_000);

  it('redacts a token the command prints', async () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    const r = await everyCaller(`node -e "console.log('token: ' + process.argv[1])" ${token}`);
    for (const [name, x] of Object.entries(r)) {
      expect(x.output, name).toContain('token: ');
      expect(x.output, name).not.toContain(token);
    }
  }, 120_000);

  it("the base's run and eval's scoring have a home and temporary folder of their own (#46), the base a checkout of its own too", async () => {
    const r = await everyCaller(
      `node -e "const fs = require('fs'); console.log(JSON.stringify({ home: process.env.HOME, tmp: process.env.TMPDIR, cwd: process.cwd(), planted: fs.existsSync(process.env.HOME + '/planted') }))"`,
    );
    const seen = (name: string) => JSON.parse(r[name]!.output.trim().split('\n').pop()!) as { home: string; tmp: string; cwd: string; planted: boolean };
    for (const name of ['critic (base)', 'eval (scoring)']) {
      const s = seen(name);
      expect(s.home, name).not.toBe(sharedHome);
      expect(s.planted, name).toBe(false);
      expect(s.tmp, name).not.toBe('/tmp');
      expect(s.tmp.startsWith(s.home) || s.tmp.includes('crew-program-homes'), name).toBe(true);
    }
    expect(seen('critic (base)').cwd).not.toBe(dir);
    // The head runs where the work ran: the job's checkout and the tool user's home.
    expect(seen('critic (head)')).toMatchObject({ home: sharedHome, planted: true });
  }, 120_000);

  it("writes the command line it runs: NO_COLOR unset, the command's own PYTHONPATH in front of the hooks' (none left empty)", () => {
    expect(testCommand('FOO=1 PYTHONPATH=src python3 -m unittest')).toBe(
      'unset NO_COLOR; FOO=1 PYTHONPATH=src${PYTHONPATH:+:"$PYTHONPATH"} python3 -m unittest',
    );
    expect(testCommand('npx vitest run')).toBe('unset NO_COLOR; npx vitest run');
  });
});
