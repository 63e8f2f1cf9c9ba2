import { mkdtempSync, rmSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../../src/domain/diff';
import {
  adversarialChecks,
  commandEvaluation,
  criteriaDigest,
  rerunAdvice,
  runOutcome,
  semanticEvaluation,
  tasksToRerun,
  verdictOf,
  type Evaluation,
  type Judgment,
} from '../../../src/domain/judgment';
import { findTampering, isTestFile } from '../../../src/domain/tamper';
import type { Localisation } from '../../../src/domain/localisation';
import { testKey } from '../../../src/domain/test-results';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';
import { plan, view } from './run-fixtures';

const [c1, c2] = plan.criteria as [(typeof plan.criteria)[number], (typeof plan.criteria)[number]];
const tasks = new Set(['t1', 't2', 't3']);

describe('command criteria: exit 0 met, exit 1 not met, anything else an error', () => {
  it.each([
    [0, false, true],
    [1, false, false],
    [2, false, null],
    [127, false, null],
    [null, false, null],
    [0, true, null],
  ] as const)('exit %s (timed out: %s) → met %s', (exitCode, timedOut, met) => {
    const e = commandEvaluation(c1, { exitCode, timedOut, output: 'line 1\nline 2\n' });
    expect(e.met).toBe(met);
    expect(e.evidence[0]).toContain('`npm test`');
    expect(e.evidence[1]).toBe('line 1\nline 2');
    if (met === null) expect(e.error).toMatch(timedOut ? /timed out/ : /could not check/);
  });
});

describe('semantic criteria: the model is held to the evidence rules', () => {
  it('met with evidence and confidence stands', () => {
    const e = semanticEvaluation(c2, { criterion: 'c2', met: true, evidence: ['README.md:12 `slugify(text)`'], confidence: 0.9, tasks: [] }, tasks);
    expect(e).toMatchObject({ met: true, confidence: 0.9, evidence: ['README.md:12 `slugify(text)`'] });
  });
  it('a PASS without evidence is a FAIL', () => {
    const e = semanticEvaluation(c2, { criterion: 'c2', met: true, evidence: ['  '], confidence: 1 }, tasks);
    expect(e.met).toBe(false);
    expect(e.evidence.join()).toContain('without any evidence');
  });
  it('a PASS below the confidence floor is a FAIL', () => {
    expect(semanticEvaluation(c2, { criterion: 'c2', met: true, evidence: ['x'], confidence: 0.49 }, tasks).met).toBe(false);
    expect(semanticEvaluation(c2, { criterion: 'c2', met: true, evidence: ['x'], confidence: 0.5 }, tasks).met).toBe(true);
  });
  it('a criterion the model skipped is not met; tasks it names that do not exist are dropped', () => {
    expect(semanticEvaluation(c2, undefined, tasks).met).toBe(false);
    expect(semanticEvaluation(c2, { criterion: 'c2', met: false, evidence: ['no'], confidence: 1, tasks: ['t3', 'nope'] }, tasks).tasks).toEqual(['t3']);
  });
});

const met = (criterion: string, tasksBehind: string[] = []): Evaluation => ({
  criterion,
  text: criterion,
  kind: 'semantic',
  met: true,
  evidence: ['e'],
  confidence: 1,
  tasks: tasksBehind,
});
const notMet = (criterion: string, tasksBehind: string[] = [], evidence = ['e']): Evaluation => ({
  ...met(criterion),
  met: false,
  evidence,
  tasks: tasksBehind,
});
const judgment = (evaluations: Evaluation[], adversarial: Judgment['adversarial'] = []): Judgment => ({
  iteration: 1,
  headSha: 'b'.repeat(40),
  verdict: verdictOf(evaluations, adversarial),
  evaluations,
  adversarial,
  overallReason: 'because',
  suggestedNextAction: 'fix it',
  at: '2026-11-22T00:00:00Z',
});

describe('the verdict', () => {
  it('PASS only when every criterion is met and nothing adversarial was found', () => {
    expect(verdictOf([met('c1'), met('c2')], [])).toBe('PASS');
    expect(verdictOf([met('c1'), notMet('c2')], [])).toBe('FAIL');
    expect(verdictOf([met('c1'), { ...met('c2'), met: null }], [])).toBe('FAIL');
    expect(verdictOf([met('c1')], [{ rule: 'deleted-test', evidence: 'x', file: 'test/a.test.js' }])).toBe('FAIL');
    expect(verdictOf([], [])).toBe('FAIL');
  });
  it('a lifecycle script is for a person to look at: alone, it does not fail the verdict', () => {
    const lifecycle = { rule: 'lifecycle-script-changed' as const, evidence: 'adds postinstall', file: 'package.json' };
    expect(verdictOf([met('c1')], [lifecycle])).toBe('PASS');
    expect(verdictOf([met('c1')], [lifecycle, { rule: 'deleted-test', evidence: 'x', file: 'test/a.test.js' }])).toBe('FAIL');
  });
  it('the criteria digest changes with any criterion, and not with order of keys', () => {
    const d = criteriaDigest(plan.criteria);
    expect(criteriaDigest(plan.criteria.map((c) => ({ ...c })))).toBe(d);
    expect(criteriaDigest([{ ...c1, command: 'true' }, c2])).not.toBe(d);
    expect(criteriaDigest([c1])).not.toBe(d);
  });
});

describe('which tasks go back after a FAIL', () => {
  const v = view(['success', 'success', 'success']);
  v.tasks.get('t1')!.changedFiles = ['src/slugify.js'];
  v.tasks.get('t2')!.changedFiles = ['test/slugify.test.js'];
  v.tasks.get('t3')!.changedFiles = ['README.md'];
  it('the tasks the critic named', () => {
    expect(tasksToRerun(judgment([met('c1'), notMet('c2', ['t3'])]), v)).toEqual(['t3']);
  });
  it('for a finding, the tasks that changed its file', () => {
    expect(tasksToRerun(judgment([met('c1')], [{ rule: 'skipped-test', evidence: 'x', file: 'test/slugify.test.js' }]), v)).toEqual(['t2']);
  });
  it('else the tasks whose files the evidence mentions, else the tasks nothing builds on', () => {
    expect(tasksToRerun(judgment([notMet('c1', [], ['src/slugify.js:3 throws'])]), v)).toEqual(['t1']);
    expect(tasksToRerun(judgment([notMet('c1', [], ['no file named'])]), v)).toEqual(['t2', 't3']);
  });
  const commandFailed = (tasksBehind: string[], output: string): Evaluation => ({
    ...notMet('c1', tasksBehind, ['`npm test` exited with 1', output]),
    kind: 'command',
  });
  it('a failed command: the tasks whose files its output names, whatever the critic guessed', () => {
    // The critic blamed the tests and the README; the output names the code the tests call.
    expect(tasksToRerun(judgment([commandFailed(['t2', 't3'], 'TypeError at slugify (src/slugify.js:3:9)')]), v)).toEqual(['t1']);
    // Nothing named in the output: the critic's attribution stands.
    expect(tasksToRerun(judgment([commandFailed(['t2'], 'Error: 1 test failed')]), v)).toEqual(['t2']);
    // A stack through the test into the code: the code threw, so its task goes back, not the caller's.
    const stack = 'TypeError: x\n    at slugify (src/slugify.js:3:34)\n    at test/slugify.test.js:10:16';
    expect(tasksToRerun(judgment([commandFailed([], stack)]), v)).toEqual(['t1']);
    // Only the test named: the test's task.
    expect(tasksToRerun(judgment([commandFailed(['t1'], 'AssertionError at test/slugify.test.js:10:16')]), v)).toEqual(['t2']);
  });
  it('a failed command that points nowhere never sends back a task that changed documentation only', () => {
    expect(tasksToRerun(judgment([commandFailed([], 'Error: 1 test failed')]), v)).toEqual(['t2']);
  });
  const localised = (outcome: Localisation['outcome'], runs: Localisation['runs'] = []): Localisation => ({
    criterion: 'c1',
    command: 'npm test',
    runs,
    outcome,
  });
  it('localisation decides over the output and the critic: the convicted tasks go back, with the output that convicts them', () => {
    const runs: Localisation['runs'] = [
      { site: { kind: 'alone', task: 't3' }, exitCode: 1, timedOut: false, output: 'README doctest: expected 3', verdict: 'fails' },
    ];
    const j = { ...judgment([commandFailed(['t1'], 'at src/slugify.js:3')]), localisation: [localised({ kind: 'tasks', tasks: ['t3'], how: 'alone' }, runs)] };
    expect(tasksToRerun(j, v)).toEqual(['t3']);
    const advice = rerunAdvice({ ...j, iteration: 1, headSha: 'h', verdict: 'FAIL', overallReason: 'x', suggestedNextAction: '', at: '' } as Judgment, 't3');
    expect(advice).toContain("on this task's branch alone, and it fails (exit 1)");
    expect(advice).toContain('README doctest: expected 3');
  });
  it('a failure that was there before crew: no task goes back, unless a person asks for another round', () => {
    const j = { ...judgment([commandFailed(['t1'], 'at src/slugify.js:3')]), localisation: [localised({ kind: 'before' })] };
    expect(tasksToRerun(j, v)).toEqual([]);
    expect(tasksToRerun(j, v, { blameBefore: true })).toEqual(['t1']);
    // Another criterion that is the work's fault still sends its task back.
    const both = { ...j, evaluations: [...j.evaluations, notMet('c2', ['t3'])] };
    expect(tasksToRerun(both, v)).toEqual(['t3']);
  });
  it('a failure already on the base that a task owns (#50): that task alone goes back, with the output; the others never do', () => {
    const runs: Localisation['runs'] = [
      {
        site: { kind: 'base' },
        exitCode: 1,
        timedOut: false,
        output: '  expected a-b',
        verdict: 'fails',
        failingTests: [testKey({ file: 'test/dashes.test.js', suite: ['slugify'], name: 'keeps dashes' })],
      },
    ];
    const owners = { tasks: ['t1'], tests: ['test/dashes.test.js'], code: ['src/slugify.js'] };
    const j = { ...judgment([commandFailed(['t2', 't3'], 'not ok 1 - slugify keeps dashes')]), localisation: [localised({ kind: 'before', owners }, runs)] };
    expect(tasksToRerun(j, v)).toEqual(['t1']);
    const full = { ...j, iteration: 1, headSha: 'h', verdict: 'FAIL', overallReason: 'x', suggestedNextAction: '', at: '' } as Judgment;
    const advice = rerunAdvice(full, 't1');
    expect(advice).toContain("This failure was there before crew's changes");
    expect(advice).toContain('(failing: test/dashes.test.js › slugify › keeps dashes)');
    expect(advice).toContain("test/dashes.test.js, and it exercises code in this task's files (src/slugify.js)");
    expect(advice).toContain('expected a-b');
    // Another task's advice does not hold the criterion it does not own.
    expect(rerunAdvice(full, 't3')).not.toContain('- c1');
    // An owner the plan replaced is not sent back: nobody owns it then.
    const replaced = view(['success', 'success', 'success']);
    replaced.tasks.get('t1')!.replacedBy = ['t9'];
    expect(tasksToRerun(j, replaced)).toEqual([]);
  });
  it('undecided localisation falls back to the output and the critic', () => {
    const j = { ...judgment([commandFailed(['t2'], 'Error: 1 test failed')]), localisation: [localised({ kind: 'undecided', why: 'x' })] };
    expect(tasksToRerun(j, v)).toEqual(['t2']);
  });
  it('the advice a task gets holds only its criteria, the findings and the next step', () => {
    const j = judgment([notMet('c1', ['t1']), notMet('c2', ['t3'])]);
    expect(rerunAdvice(j, 't3')).toContain('c2');
    expect(rerunAdvice(j, 't3')).not.toContain('- c1');
    expect(rerunAdvice(j, 't3')).toContain('Suggested next step: fix it');
    expect(rerunAdvice(j)).toContain('- c1');
  });
});

describe("the run's outcome", () => {
  it('success/GREEN on PASS with every task done; partial when accepted; failure otherwise', () => {
    expect(runOutcome(view(['success', 'success', 'success']), judgment([met('c1'), met('c2')]), false)).toEqual({
      status: 'success',
      quality: 'GREEN',
      completeness: 100,
      failedTasks: [],
    });
    expect(runOutcome(view(['success', 'success', 'success']), judgment([met('c1'), notMet('c2')]), true)).toMatchObject({
      status: 'partial',
      quality: 'RED',
      completeness: 50,
    });
    expect(runOutcome(view(['success', 'failure', 'success']), judgment([notMet('c1'), notMet('c2')]), false)).toMatchObject({
      status: 'failure',
      quality: 'RED',
      completeness: 0,
      failedTasks: ['t2'],
    });
  });
});

describe('tampering, found in a real git diff', () => {
  const root = mkdtempSync(join(tmpdir(), 'crew-tamper-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let dir = root;
  const env = { ...FIXTURE_IDENTITY };
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  async function diffAfter(change: () => void): Promise<string> {
    dir = mkdtempSync(join(root, 'repo-'));
    await git(['init', '-q', '-b', 'main'], { cwd: dir });
    write('src/a.js', 'export const a = 1;\n');
    write('test/a.test.js', "import { a } from '../src/a.js';\nit('is one', () => {\n  expect(a).toBe(1);\n  expect(a + 1).toBe(2);\n});\n");
    write('test/b.test.js', "it('b', () => {\n  expect(2).toEqual(2);\n});\n");
    write('package.json', '{\n  "name": "x",\n  "scripts": {\n    "test": "node --test"\n  }\n}\n');
    await git(['add', '-A'], { cwd: dir });
    await git(['commit', '-qm', 'base', '--allow-empty'], { cwd: dir, env });
    change();
    await git(['add', '-A'], { cwd: dir });
    await git(['commit', '-qm', 'change', '--allow-empty'], { cwd: dir, env });
    return git(['diff', '--no-color', '--no-renames', '-U0', 'HEAD~1', 'HEAD'], { cwd: dir });
  }

  it('a deleted test file', async () => {
    const found = findTampering(parseUnifiedDiff(await diffAfter(() => unlinkSync(join(dir, 'test/b.test.js')))));
    expect(found).toEqual([{ rule: 'deleted-test', file: 'test/b.test.js', evidence: 'the test file test/b.test.js was deleted (3 lines)' }]);
  });
  it('a skipped test, with its file and line', async () => {
    const found = findTampering(
      parseUnifiedDiff(
        await diffAfter(() =>
          write('test/a.test.js', "import { a } from '../src/a.js';\nit.skip('is one', () => {\n  expect(a).toBe(1);\n  expect(a + 1).toBe(2);\n});\n"),
        ),
      ),
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: 'skipped-test', file: 'test/a.test.js', line: 2 });
  });
  it('assertions loosened to toBeTruthy()', async () => {
    const found = findTampering(
      parseUnifiedDiff(
        await diffAfter(() =>
          write('test/a.test.js', "import { a } from '../src/a.js';\nit('is one', () => {\n  expect(a).toBeTruthy();\n  expect(a + 1).toBeTruthy();\n});\n"),
        ),
      ),
    );
    expect(found).toHaveLength(1);
    expect(found[0]!.rule).toBe('weakened-assertions');
    expect(found[0]!.evidence).toContain('2 assertion(s) fewer in test/a.test.js, 2 replaced by a weaker check');
  });
  it('new tests and changes outside test files are not findings', async () => {
    const diff = await diffAfter(() => {
      write('src/a.js', 'export const a = 1; // it.skip( in a comment of a source file\n');
      write('test/c.test.js', "it('c', () => {\n  expect(3).toBe(3);\n});\n");
    });
    expect(findTampering(parseUnifiedDiff(diff))).toEqual([]);
  });
  it('exact matchers swapped for looser ones, with as many assertions as before', async () => {
    const found = findTampering(
      parseUnifiedDiff(
        await diffAfter(() =>
          write(
            'test/a.test.js',
            "import { a } from '../src/a.js';\nit('is one', () => {\n  expect(a).toBeGreaterThan(0);\n  expect({ v: a + 1 }).toMatchObject({});\n});\n",
          ),
        ),
      ),
    );
    expect(found).toEqual([
      {
        rule: 'loosened-matcher',
        file: 'test/a.test.js',
        line: 3,
        evidence: 'test/a.test.js:3 checks less than before: `expect(a).toBe(1);` became `expect(a).toBeGreaterThan(0);`',
      },
    ]);
  });
  it('the test script changed so `npm test` checks less, or removed', async () => {
    const changed = findTampering(
      parseUnifiedDiff(await diffAfter(() => write('package.json', '{\n  "name": "x",\n  "scripts": {\n    "test": "node --test || true"\n  }\n}\n'))),
    );
    expect(changed).toEqual([
      {
        rule: 'test-command-changed',
        file: 'package.json',
        line: 4,
        evidence: 'package.json:4 changes the test script from `node --test` to `node --test || true`',
      },
    ]);
    const removed = findTampering(parseUnifiedDiff(await diffAfter(() => write('package.json', '{\n  "name": "x",\n  "scripts": {}\n}\n'))));
    expect(removed).toEqual([{ rule: 'test-command-changed', file: 'package.json', evidence: 'package.json removes the test script `node --test`' }]);
  });
  it("the runner's config leaves tests out", async () => {
    const found = findTampering(
      parseUnifiedDiff(await diffAfter(() => write('vitest.config.ts', "export default { test: { exclude: ['test/a.test.js'] } };\n"))),
    );
    expect(found).toEqual([
      {
        rule: 'runner-config-weakened',
        file: 'vitest.config.ts',
        line: 1,
        evidence: "vitest.config.ts:1 changes which tests run: `export default { test: { exclude: ['test/a.test.js'] } };`",
      },
    ]);
    const jest = findTampering(
      parseUnifiedDiff(
        await diffAfter(() =>
          write('package.json', '{\n  "name": "x",\n  "scripts": {\n    "test": "node --test"\n  },\n  "jest": { "testPathIgnorePatterns": ["test/a"] }\n}\n'),
        ),
      ),
    );
    expect(jest.map((f) => [f.rule, f.line])).toEqual([['runner-config-weakened', 6]]);
  });
  it('a new dependency or a new package with its own test script is not a finding', async () => {
    const diff = await diffAfter(() => {
      write('package.json', '{\n  "name": "x",\n  "scripts": {\n    "test": "node --test"\n  },\n  "dependencies": { "slug": "1.0.0" }\n}\n');
      write('packages/y/package.json', '{\n  "scripts": { "test": "node --test" }\n}\n');
    });
    expect(findTampering(parseUnifiedDiff(diff))).toEqual([]);
  });
  it('the criteria-changed check: criteria edited after the plan review passed them fail the verdict', () => {
    const reviewed = criteriaDigest(plan.criteria);
    expect(adversarialChecks(plan.criteria, reviewed, [])).toEqual([]);
    const edited = plan.criteria.map((c) => (c.id === 'c1' ? { ...c, command: 'true' } : c));
    expect(adversarialChecks(edited, reviewed, [])).toEqual([
      {
        rule: 'criteria-changed',
        evidence: `the done criteria in plan.json (digest ${criteriaDigest(edited)}) differ from the ones the plan review passed (digest ${reviewed})`,
      },
    ]);
    // A run planned before digests were kept has nothing to compare against.
    expect(adversarialChecks(edited, null, [])).toEqual([]);
  });
  it('knows test files across languages', () => {
    for (const p of ['test/a.js', 'src/a.test.ts', 'pkg/a_test.go', 'tests/test_a.py', 'spec/a_spec.rb', 'src/FooTest.java', '__tests__/x.js'])
      expect(isTestFile(p)).toBe(true);
    for (const p of ['src/a.js', 'README.md', 'src/testing.js', 'contest/a.js']) expect(isTestFile(p)).toBe(false);
  });
});
