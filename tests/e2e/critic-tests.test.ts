import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Judgment } from '../../src/domain/judgment';
import type { RunRecord } from '../../src/domain/run-state';
import type { ScriptEntry } from '../support/anthropic/script';
import { needToolchains, programForToolUser } from '../support/toolchains';
import { sharedWithSandbox } from '../support/sandbox/shared-dir';
import { crewComments, expectFaithful, play } from './helpers';

/**
 * The critic counts tests by identity (#32): each scenario has a fixture of its own, and its command
 * criterion runs for real in the sandbox, where crew's hooks make the runner report its tests.
 */

type Hooks = NonNullable<Parameters<typeof play>[1]>['hooks'];
type Edit = NonNullable<Parameters<typeof play>[1]>['edit'];

/** The run's judgments, its base, the files under test-results/ on crew/state, and how often each task's worker started. */
let criticPrompt = '';

async function played(name: string, edit?: Edit, keepCriticPrompt = false) {
  const got = { judgments: [] as Judgment[], base: '', baseFiles: [] as string[], starts: new Map<string, number>() };
  const hooks: Hooks = {
    beforeClose: async ({ gh, anthropic }) => {
      const read = (path: string) => gh.repo.readFile('refs/heads/crew/state', path);
      for (let i = 1; i <= 5; i++) {
        const text = await read(`issue-1/run-1/judgments/judgment_${i}.json`);
        if (text) got.judgments.push(JSON.parse(text) as Judgment);
      }
      got.base = (JSON.parse((await read('issue-1/run-1/run.json'))!) as RunRecord).base.sha;
      for (const c of ['c1', 'c2']) if (await read(`issue-1/run-1/test-results/base_${c}.json`)) got.baseFiles.push(c);
      for (const q of anthropic.requests) if (q.role === 'worker' && q.turn === 0) got.starts.set(q.task!, (got.starts.get(q.task!) ?? 0) + 1);
      if (keepCriticPrompt) criticPrompt = JSON.stringify(anthropic.requests.find((q) => q.role === 'critic' && q.turn === 0)?.body.messages[0] ?? '');
    },
  };
  const r = await play(name, { hooks, ...(edit ? { edit } : {}) });
  expectFaithful(r);
  return { r, ...got };
}

/**
 * A real library and its own unittest suite, from the tool user's Python: textwrap.py and its
 * test/test_textwrap.py (importing `wraptext` instead).
 */
async function pythonLibrary(): Promise<{ module: string; tests: string }> {
  const { stdout } = await promisify(execFile)(programForToolUser('python3')!, [
    '-I',
    '-c',
    'import textwrap, test.test_textwrap as t; print(textwrap.__file__); print(t.__file__)',
  ]);
  const [module, tests] = stdout.trim().split('\n');
  const text = await readFile(tests!, 'utf8');
  expect(text, `${tests} imports textwrap`).toContain('from textwrap import');
  return { module: await readFile(module!, 'utf8'), tests: text.replace('from textwrap import', 'from wraptext import') };
}

const PROJECT_ROOT = join(__dirname, '..', '..');
/** A setup command that gives a fixture crew's own node_modules (vitest among them), linked package by package into a folder of its own where tools may write. */
const LINK_NODE_MODULES = `mkdir -p node_modules && for p in '${join(PROJECT_ROOT, 'node_modules')}'/* '${join(PROJECT_ROOT, 'node_modules')}'/.bin; do ln -sfn "$p" node_modules/; done`;

const report = (r: Awaited<ReturnType<typeof play>>) => r.pulls[0]?.comments.find((c) => c.body.includes('## crew report'))?.body ?? '';

let runsDir: string;
beforeAll(async () => {
  // Every run of `npm test` (in the sandbox too) appends to a file here.
  runsDir = await sharedWithSandbox('crew-test-runs');
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

describe('the critic counts tests by identity (#32)', () => {
  it("node --test, the base already failing one test: the task that only adds passing tests is not blamed (TAP renumbers, the failing test is the base's), only the task that broke median goes back, by the tests that convict it; the base runs once across both judgments", async () => {
    const log = join(runsDir, 'tally.log');
    // Every run of `npm test`, wherever crew runs it, appends the commit it ran on.
    const recorder = `require('node:fs').appendFileSync(${JSON.stringify(log)}, require('node:child_process').execFileSync('git', ['rev-parse', 'HEAD']));\n`;
    const { r, judgments, base, baseFiles, starts } = await played('critic-tests-localise', (s) => {
      const pkg = {
        name: 'tally',
        version: '1.0.0',
        type: 'module',
        main: 'src/index.js',
        scripts: { test: 'node tools/record-run.cjs && node --test --test-reporter=tap --test-reporter-destination=stdout' },
      };
      s.repo.files = { ...s.repo.files, 'tools/record-run.cjs': recorder, 'package.json': `${JSON.stringify(pkg, null, 2)}\n` };
    });
    expect(judgments.map((j) => j.verdict)).toEqual(['FAIL', 'PASS']);
    const [l] = judgments[0]!.localisation!;
    expect(l!.outcome).toEqual({ kind: 'tasks', tasks: ['t1'], how: 'alone' });
    expect(l!.runs.map((x) => [x.site.kind === 'base' ? 'base' : x.site.task, x.exitCode, x.verdict, x.convicting ?? []])).toEqual([
      ['base', 1, 'fails', []],
      ['t1', 1, 'fails', ['test/median.test.js › median of an odd list is the middle value', 'test/median.test.js › median sorts numbers as numbers']],
      ['t2', 1, 'as-before', []],
    ]);
    expect(Object.fromEntries(starts)).toEqual({ t1: 2, t2: 1 });
    // The base ran once for the run: the second judgment and localisation read it from crew/state.
    const ran = (await readFile(log, 'utf8')).trim().split('\n');
    expect(ran.filter((sha) => sha === base)).toHaveLength(1);
    expect(baseFiles).toEqual(['c1']);
    expect(judgments[1]!.tests).toEqual([
      expect.objectContaining({ criterion: 'c1', state: 'compared', counts: expect.objectContaining({ passed: 7, fixed: 3, lost: 0, failing: 0 }) }),
    ]);
    const sendBack = crewComments(r).find((c) => c.body.startsWith("**crew's critic** judged run 1 FAIL"))!;
    expect(sendBack.body).toContain('sends t1 back');
    expect(sendBack.body).toContain("| t2 | npm test on t2's branch alone on the base | 1 | fails, as on the base (the same tests) |");
    expect(sendBack.body).toContain("| t1 | npm test on t1's branch alone on the base | 1 | fails: test/median.test.js › median of an odd list");
    expect(report(r)).toContain('- `npm test`: 7 passed, 3 fixed, 0 lost, 0 skipped as on the base');
    expect(report(r)).toContain('`test/a-mode.test.js › mode is the most frequent number`');
  }, 360_000);

  it('Python unittest on a real library (textwrap and its own suite), an existing test class switched off in a way no diff pattern lists: FAIL, naming the three lost tests', async (ctx) => {
    await needToolchains(ctx, 'python3-testsuite');
    const lib = await pythonLibrary();
    const { r, judgments } = await played('critic-tests-unittest', (s) => {
      s.repo.files = { ...s.repo.files, 'wraptext.py': lib.module, 'tests/test_wraptext.py': lib.tests };
    });
    expect(judgments).toHaveLength(1);
    const j = judgments[0]!;
    expect(j.evaluations.map((e) => e.met)).toEqual([true]); // the suite passes: the class no longer runs
    expect(j.verdict).toBe('FAIL');
    // No pattern of the diff checks saw it; the runs did.
    expect(j.adversarial.map((f) => f.rule)).toEqual(['lost-test', 'lost-test', 'lost-test']);
    const lost = ['test_break_long', 'test_max_lines_long', 'test_nobreak_long'].map((t) => `tests/test_wraptext.py › LongWordTestCase › ${t}`);
    expect(j.tests![0]!.lost.map((l) => [l.test, l.now, l.line, l.lineOn])).toEqual(lost.map((t) => [t, 'missing', expect.any(Number), 'head']));
    expect(j.tests![0]!.counts).toMatchObject({ lost: 3, fixed: 0, failing: 0 });
    const ask = crewComments(r).find((c) => c.body.startsWith('**crew needs a decision**'))!;
    for (const t of lost)
      expect(ask.body).toContain(`- lost-test: \`python3 -m unittest\`: ${t} passed on the base and is missing on the head (it did not run)`);
    expect(ask.body).toMatch(/- `python3 -m unittest`: \d+ passed, 0 fixed, 3 lost, 0 skipped as on the base/);
    expect(r.pulls).toEqual([]);
  }, 360_000);

  it('pytest, a conftest.py hook that deselects tests: FAIL, naming the deselected test', async (ctx) => {
    await needToolchains(ctx, 'pytest');
    const { r, judgments } = await played('critic-tests-pytest');
    expect(judgments).toHaveLength(1);
    const j = judgments[0]!;
    expect(j.evaluations.map((e) => e.met)).toEqual([true]); // pytest passes: the test was deselected
    expect(j.verdict).toBe('FAIL');
    const lost = j.adversarial.filter((f) => f.rule === 'lost-test');
    expect(lost).toEqual([
      {
        rule: 'lost-test',
        file: 'tests/test_slugs.py',
        evidence: '`python3 -m pytest -q`: tests/test_slugs.py › test_unicode_letters_kept passed on the base and is missing on the head (it did not run)',
      },
    ]);
    expect(j.tests![0]!.counts).toMatchObject({ passed: 3, fixed: 1, lost: 1 });
    const ask = crewComments(r).find((c) => c.body.startsWith('**crew needs a decision**'))!;
    expect(ask.body).toContain('- `python3 -m pytest -q`: 3 passed, 1 fixed, 1 lost, 0 skipped as on the base');
    expect(ask.body).toContain('❌ lost: `tests/test_slugs.py › test_unicode_letters_kept`: passed on the base and is missing on the head (it did not run)');
    expect(r.pulls).toEqual([]);
  }, 360_000);

  it('vitest, a configuration change that leaves a test file out: FAIL, naming its tests', async () => {
    const { r, judgments } = await played('critic-tests-vitest', (s) => {
      s.config = `${s.config ?? ''}setup:\n  - ${JSON.stringify(LINK_NODE_MODULES)}\n`;
    });
    expect(judgments).toHaveLength(1);
    const j = judgments[0]!;
    expect(j.evaluations.map((e) => e.met)).toEqual([true]); // npm test passes: the file no longer runs
    expect(j.verdict).toBe('FAIL');
    expect(j.adversarial.filter((f) => f.rule === 'lost-test').map((f) => f.evidence)).toEqual([
      '`npm test`: test/luminance.test.js › luminance › is 0 for black passed on the base and is missing on the head (it did not run)',
      '`npm test`: test/luminance.test.js › luminance › is 1 for white passed on the base and is missing on the head (it did not run)',
    ]);
    expect(j.tests![0]!.counts).toMatchObject({ passed: 2, fixed: 1, lost: 2 });
    const ask = crewComments(r).find((c) => c.body.startsWith('**crew needs a decision**'))!;
    expect(ask.body).toContain('- `npm test`: 2 passed, 1 fixed, 2 lost, 0 skipped as on the base');
    expect(r.pulls).toEqual([]);
  }, 360_000);

  it('a test renamed without change: the critic model calls it a rename, naming both tests; crew checks them against its lists and passes', async () => {
    const { r, judgments } = await played('critic-tests-rename', undefined, true);
    expect(judgments.map((j) => j.verdict)).toEqual(['PASS']);
    const j = judgments[0]!;
    expect(j.adversarial).toEqual([]);
    expect(j.tests![0]).toMatchObject({
      state: 'compared',
      renamed: [{ from: 'test/greet.test.js › greets by name', to: 'test/greet.test.js › greets a person by name' }],
      counts: { passed: 3, fixed: 2, lost: 0 },
    });
    // The critic was shown the lost test and the new ones it may name.
    expect(criticPrompt).toContain('- test/greet.test.js › greets by name');
    expect(criticPrompt).toContain('- test/greet.test.js › takes a greeting word');
    expect(r.pulls).toHaveLength(1);
    expect(report(r)).toContain('- `npm test`: 3 passed, 2 fixed, 0 lost, 1 renamed, 0 skipped as on the base');
    expect(report(r)).toContain(
      'renamed (the critic named its replacement): `test/greet.test.js › greets by name` → `test/greet.test.js › greets a person by name`',
    );
  }, 360_000);

  it("a forged report: conftest.py stops pytest writing its own and writes one at crew's path claiming every test passed; the runs are fooled, the diff check is not: FAIL, never PASS", async (ctx) => {
    await needToolchains(ctx, 'pytest');
    const { r, judgments } = await played('critic-tests-forged');
    expect(judgments).toHaveLength(1);
    const j = judgments[0]!;
    expect(j.verdict).toBe('FAIL');
    // The forged report names the deselected test as passing, so the runs show nothing lost…
    expect(j.tests![0]).toMatchObject({ state: 'compared', counts: { lost: 0 } });
    // …but the change reached for the report, and that is a finding.
    expect(j.adversarial.map((f) => [f.rule, f.file])).toContainEqual(['test-report-tampering', 'conftest.py']);
    expect(j.adversarial.find((f) => f.rule === 'test-report-tampering')!.evidence).toContain('PYTEST_ADDOPTS');
    expect(r.pulls).toEqual([]);
  }, 360_000);

  it('a missing report: conftest.py only stops pytest writing its JUnit XML; the base wrote one and the head did not, which is a finding: FAIL, never PASS', async (ctx) => {
    await needToolchains(ctx, 'pytest');
    const { r, judgments } = await played('critic-tests-forged', (s) => {
      const worker = (s.model as { entries: ScriptEntry[] }).entries.find((e) => e.role === 'worker')!;
      const calls = (worker.replies[0] as { content: Array<{ name?: string; input?: { path?: string; content?: string } }> }).content;
      calls.find((c) => c.input?.path === 'conftest.py')!.input!.content = 'def pytest_configure(config):\n    config.option.xmlpath = None\n';
    });
    const j = judgments[0]!;
    expect(j.verdict).toBe('FAIL');
    expect(j.tests![0]).toMatchObject({ state: 'missing', missingReports: ['pytest'] });
    expect(j.adversarial.filter((f) => f.rule === 'test-report-missing').map((f) => f.evidence)).toEqual([
      '`python3 -m pytest -q` wrote no pytest report on the head, though it did on the base: the change keeps the runner, or its report, from running, so crew cannot see which tests ran',
    ]);
    const ask = crewComments(r).find((c) => c.body.startsWith('**crew needs a decision**'))!;
    expect(ask.body).toContain('test-report-missing');
    expect(r.pulls).toEqual([]);
  }, 360_000);

  it('go test: the report shows the counts by test identity (subtests count; the new test is fixed)', async (ctx) => {
    await needToolchains(ctx, 'go');
    const { r, judgments } = await played('critic-tests-go');
    expect(judgments.map((j) => j.verdict)).toEqual(['PASS']);
    expect(judgments[0]!.tests![0]).toMatchObject({ state: 'compared', counts: { passed: 4, fixed: 1, lost: 0 }, fixed: ['. › TestMin'] });
    expect(report(r)).toContain('- `go test ./...`: 4 passed, 1 fixed, 0 lost, 0 skipped as on the base');
  }, 360_000);

  it('cargo test: the report shows the counts by test identity (the ignored test is skipped as on the base; the new test is fixed)', async (ctx) => {
    await needToolchains(ctx, 'cargo');
    const { r, judgments } = await played('critic-tests-cargo');
    expect(judgments.map((j) => j.verdict)).toEqual(['PASS']);
    expect(judgments[0]!.tests![0]).toMatchObject({
      state: 'compared',
      counts: { passed: 2, fixed: 1, lost: 0, skippedAsBefore: 1 },
      fixed: ['rscalc › tests › subtracts'],
    });
    expect(report(r)).toContain('- `cargo test`: 2 passed, 1 fixed, 0 lost, 1 skipped as on the base');
  }, 360_000);
});
