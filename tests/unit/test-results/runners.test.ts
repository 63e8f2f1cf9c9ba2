import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSandbox, type CommandRunner } from '../../../src/sandbox/command-runner';
import { TestReports } from '../../../src/sandbox/test-reports/reports';
import { describeTest, readReports, type TestResult, type TestRun } from '../../../src/domain/test-results';
import { needToolchains } from '../../support/toolchains';

/**
 * Each runner crew reads, run for real in the sandbox (as the tool user, as in a critic job) on a
 * small project written here, through crew's hooks: the report it leaves is parsed, and the
 * identities and outcomes are the ones the tests in it have. Runners this machine lacks are skipped
 * with the reason (tests/support/toolchains.ts; CI installs them: .ci/run).
 */

const PROJECT_ROOT = join(__dirname, '..', '..', '..');
const exec = promisify(execFile);

let dir: string;
let workspace: string;
let sandbox: CommandRunner;
let reports: TestReports;

async function project(name: string, files: Record<string, string>, linkNodeModules = false): Promise<string> {
  const root = join(workspace, name);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  // crew's own packages, linked one by one into a node_modules of the project's own, where tools may write their caches.
  if (linkNodeModules) {
    await mkdir(join(root, 'node_modules'));
    for (const name of await readdir(join(PROJECT_ROOT, 'node_modules')))
      if (!name.startsWith('.') || name === '.bin') await symlink(join(PROJECT_ROOT, 'node_modules', name), join(root, 'node_modules', name));
  }
  await exec('chmod', ['-R', 'a+rwX', root]);
  return root;
}

async function run(cwd: string, command: string): Promise<{ exitCode: number; output: string; tests: TestRun }> {
  const r = await reports.open();
  const out = await sandbox.run(command, { cwd, timeoutMs: 120_000, maxOutputBytes: 200_000, env: r.env });
  return { exitCode: out.exitCode, output: out.output, tests: readReports(await reports.collect(r), cwd) };
}

const table = (run: TestRun) => {
  if (run.kind !== 'known') throw new Error(`expected a known run, got ${run.kind}: ${run.why}`);
  return run.tests.map((t) => [describeTest(t), t.outcome]).sort(([a], [b]) => String(a).localeCompare(String(b)));
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crew-test-reports-'));
  workspace = join(dir, 'ws');
  await mkdir(workspace);
  const prepared = await prepareSandbox(workspace, dir);
  if (!('runner' in prepared)) throw new Error(`sandbox unavailable: ${prepared.reason}`);
  sandbox = prepared.runner;
  reports = await TestReports.prepare(join(dir, 'temp'), sandbox, workspace);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const JS_SUITE = (imports: string) => `${imports}
describe('outer', () => {
  describe('inner', () => {
    it('passes', () => {});
    it('fails', () => { throw new Error('no'); });
  });
  it.skip('is skipped', () => {});
});
it('twice', () => {});
it('twice', () => {});
`;

describe('test reports from each runner crew reads (#32)', () => {
  it("node --test through `npm test`: suites nest, skipped and todo count as skipped, duplicates are counted, a file that throws is the file failing; people still see node's spec output", async () => {
    const root = await project('node', {
      'package.json': JSON.stringify({ name: 'n', scripts: { test: 'node --test' } }),
      'test/a.test.js': `const { describe, it } = require('node:test');\n${JS_SUITE('')}it.todo('later');\n`,
      'test/b.test.js': "throw new Error('broken at load');\n",
      'test/c.test.js': '// no tests yet: a file that runs and defines none is no test\n',
    });
    const r = await run(root, 'npm test');
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain('✖ fails');
    expect(table(r.tests)).toEqual([
      ['test/a.test.js › later', 'skipped'],
      ['test/a.test.js › outer › inner › fails', 'failed'],
      ['test/a.test.js › outer › inner › passes', 'passed'],
      ['test/a.test.js › outer › is skipped', 'skipped'],
      ['test/a.test.js › twice', 'passed'],
      ['test/a.test.js › twice', 'passed'],
      ['test/b.test.js › (the file itself)', 'failed'],
    ]);
    expect((r.tests as { tests: TestResult[] }).tests.find((t) => t.name === 'later')!.line).toBe(12);
  }, 120_000);

  it('vitest (its json reporter, through a preload): ancestor titles are the suite path', async () => {
    const root = await project(
      'vitest',
      {
        'package.json': JSON.stringify({ name: 'v', type: 'module', scripts: { test: 'vitest run' } }),
        'test/a.test.js': JS_SUITE("import { describe, it } from 'vitest';"),
      },
      true,
    );
    const r = await run(root, 'npm test');
    expect(r.exitCode).toBe(1);
    expect(table(r.tests)).toEqual([
      ['test/a.test.js › outer › inner › fails', 'failed'],
      ['test/a.test.js › outer › inner › passes', 'passed'],
      ['test/a.test.js › outer › is skipped', 'skipped'],
      ['test/a.test.js › twice', 'passed'],
      ['test/a.test.js › twice', 'passed'],
    ]);
  }, 120_000);

  it('jest (--json --outputFile, through a preload), with each test’s line; a file that does not load is the file failing', async () => {
    const root = await project(
      'jest',
      {
        'package.json': JSON.stringify({ name: 'j', scripts: { test: 'jest' }, jest: { cacheDirectory: '.jest-cache' } }),
        'test/a.test.js': JS_SUITE(''),
        'test/b.test.js': "require('./missing');\ntest('never', () => {});\n",
      },
      true,
    );
    const r = await run(root, 'npm test');
    expect(r.exitCode).toBe(1);
    expect(table(r.tests)).toEqual([
      ['test/a.test.js › outer › inner › fails', 'failed'],
      ['test/a.test.js › outer › inner › passes', 'passed'],
      ['test/a.test.js › outer › is skipped', 'skipped'],
      ['test/a.test.js › twice', 'passed'],
      ['test/a.test.js › twice', 'passed'],
      ['test/b.test.js › (the file itself)', 'failed'],
    ]);
    expect((r.tests as { tests: TestResult[] }).tests.find((t) => t.name === 'passes')!.line).toBe(4);
  }, 120_000);

  it('mocha (crew’s reporter, through a preload, spec output for people): a failing hook is named as mocha names it', async () => {
    const root = await project(
      'mocha',
      {
        'package.json': JSON.stringify({ name: 'm', scripts: { test: 'mocha' } }),
        'test/a.spec.js': `${JS_SUITE('')}describe('hooked', () => { before(() => { throw new Error('x'); }); it('never runs', () => {}); });\n`,
      },
      true,
    );
    const r = await run(root, 'npm test');
    expect(r.exitCode).toBe(2);
    expect(r.output).toContain('passing');
    expect(table(r.tests)).toEqual([
      ['test/a.spec.js › hooked › "before all" hook for "never runs"', 'failed'],
      ['test/a.spec.js › outer › inner › fails', 'failed'],
      ['test/a.spec.js › outer › inner › passes', 'passed'],
      ['test/a.spec.js › outer › is skipped', 'skipped'],
      ['test/a.spec.js › twice', 'passed'],
      ['test/a.spec.js › twice', 'passed'],
    ]);
  }, 120_000);

  const PY_TESTS = `import unittest


class TestShapes(unittest.TestCase):
    def test_passes(self):
        self.assertEqual(1, 1)

    def test_fails(self):
        self.assertEqual(1, 2)

    @unittest.skip("later")
    def test_skipped(self):
        pass

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(1, 2)

    def test_subtests(self):
        for i in range(4):
            with self.subTest(i=i):
                self.assertLess(i, 2)
`;
  const PY_TABLE = (file: string) => [
    [`${file} › TestShapes › test_expected_failure`, 'skipped'],
    [`${file} › TestShapes › test_fails`, 'failed'],
    [`${file} › TestShapes › test_passes`, 'passed'],
    [`${file} › TestShapes › test_skipped`, 'skipped'],
    [`${file} › TestShapes › test_subtests`, 'failed'],
  ];

  it('python unittest (crew’s sitecustomize on PYTHONPATH): class and method; an expected failure is not a pass; failing subtests fail their test once', async (ctx) => {
    await needToolchains(ctx, 'python3');
    const root = await project('unittest', { 'tests/__init__.py': '', 'tests/test_shapes.py': PY_TESTS });
    const r = await run(root, 'python3 -m unittest');
    expect(r.exitCode).toBe(1);
    expect(table(r.tests)).toEqual(PY_TABLE('tests/test_shapes.py'));
  }, 120_000);

  it('pytest (its JUnit XML through PYTEST_ADDOPTS, set per process by crew’s sitecustomize): file, class, name and line', async (ctx) => {
    await needToolchains(ctx, 'pytest');
    const root = await project('pytest', {
      'tests/__init__.py': '',
      'tests/test_shapes.py': PY_TESTS,
      'tests/test_plain.py': 'def test_plain():\n    assert True\n',
    });
    const r = await run(root, 'python3 -m pytest -q -p no:cacheprovider');
    expect(r.exitCode).toBe(1);
    expect(table(r.tests)).toEqual([['tests/test_plain.py › test_plain', 'passed'], ...PY_TABLE('tests/test_shapes.py')]);
    expect((r.tests as { tests: TestResult[] }).tests.find((t) => t.name === 'test_plain')!.line).toBe(1);
  }, 120_000);

  it('go test (crew’s -exec program through GOFLAGS, go tool test2json): packages by folder, subtests count and the test holding them does not', async (ctx) => {
    await needToolchains(ctx, 'go');
    const root = await project('go', {
      'go.mod': 'module example.com/shapes\n\ngo 1.19\n',
      'shapes.go': 'package shapes\n\nfunc Area(w, h int) int { return w * h }\n',
      'shapes_test.go':
        'package shapes\n\nimport "testing"\n\nfunc TestArea(t *testing.T) { if Area(2, 3) != 6 { t.Fatal("area") } }\nfunc TestFails(t *testing.T) { t.Fatal("no") }\nfunc TestSkipped(t *testing.T) { t.Skip("later") }\nfunc TestTable(t *testing.T) {\n\tt.Run("small", func(t *testing.T) {})\n\tt.Run("large", func(t *testing.T) { t.Fail() })\n}\n',
      'inner/inner_test.go': 'package inner\n\nimport "testing"\n\nfunc TestInner(t *testing.T) {}\n',
    });
    const r = await run(root, 'go test ./...');
    expect(r.exitCode).toBe(1);
    expect(r.output).toContain('--- FAIL: TestFails');
    expect(table(r.tests)).toEqual([
      ['. › TestArea', 'passed'],
      ['. › TestFails', 'failed'],
      ['. › TestSkipped', 'skipped'],
      ['. › TestTable › large', 'failed'],
      ['. › TestTable › small', 'passed'],
      ['inner › TestInner', 'passed'],
    ]);
  }, 300_000);

  it('cargo test (crew’s target runner, libtest’s JSON): one report per test binary, named by its target; ignored tests are skipped', async (ctx) => {
    await needToolchains(ctx, 'cargo');
    const root = await project('cargo', {
      'Cargo.toml': '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs':
        'pub fn area(w: i32, h: i32) -> i32 { w * h }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn area_works() { assert_eq!(area(2, 3), 6); }\n    #[test]\n    fn fails() { assert_eq!(area(2, 3), 7); }\n    #[test]\n    #[ignore]\n    fn later() {}\n}\n',
      'tests/api.rs': '#[test]\nfn public_area() { assert_eq!(shapes::area(1, 1), 1); }\n',
    });
    const r = await run(root, 'cargo test --offline --no-fail-fast');
    expect(r.exitCode).toBe(101);
    expect(r.output).toContain('test tests::fails ... failed');
    expect(table(r.tests)).toEqual([
      ['api › public_area', 'passed'],
      ['shapes › tests › area_works', 'passed'],
      ['shapes › tests › fails', 'failed'],
      ['shapes › tests › later', 'skipped'],
    ]);
  }, 600_000);

  it('a command that reaches no runner crew knows: test identities unknown, and why', async () => {
    const root = await project('plain', { 'check.sh': 'exit 0\n' });
    const r = await run(root, 'sh check.sh');
    expect(r.tests).toEqual({ kind: 'unknown', why: expect.stringContaining('no test runner crew knows wrote a report') });
  });
});
