import { describe, expect, it } from 'vitest';
import { codeUnderTest, failingTestFiles, importsOf, ownersOf, resolveImport, type OwnableTask } from '../../../src/domain/test-owners';
import { testKey } from '../../../src/domain/test-results';

const repo: Record<string, string> = {
  'src/index.js': "export { sum } from './sum.js';\nexport { mean } from './mean.js';\nexport { square } from './square.js';\n",
  'src/mean.js': "import { sum } from './sum.js';\nexport function mean(xs) { return sum(...xs) / xs.length; }\n",
  'src/sum.js': 'export function sum(...xs) { return xs.reduce((a, b) => a + b, 0); }\n',
  'src/square.js': 'export const square = (n) => n * n;\n',
  'src/util/index.ts': "export * from '../sum.js';\n",
  'test/helpers.js': "export { mean } from '../src/mean.js';\n",
  'test/rounding.test.js': "import { test } from 'node:test';\nimport { mean } from '../src/index.js';\n",
  'test/direct.test.js': "import assert from 'node:assert';\nconst { mean } = require('../src/mean');\n",
  'test/via-helper.test.js': "import { mean } from './helpers.js';\n",
  'README.md': '# mathkit\n',
  'pkg/stats/__init__.py': '',
  'pkg/stats/median.py': 'from .sorting import ordered\n',
  'pkg/stats/sorting.py': 'def ordered(xs): return sorted(xs)\n',
  'tests/test_median.py': 'import pytest\nfrom pkg.stats import median\n',
  'calc/add.go': 'package calc\n',
  'calc/add_test.go': 'package calc\n',
};
const files = new Set(Object.keys(repo));
const read = (p: string) => repo[p];

describe('what a test imports, resolved to repository files', () => {
  it('JavaScript/TypeScript: import, export from, require and dynamic import; packages are not repository files', () => {
    expect(importsOf('src/index.js', repo['src/index.js']!)).toEqual(['./sum.js', './mean.js', './square.js']);
    expect(importsOf('test/direct.test.js', repo['test/direct.test.js']!)).toEqual(['node:assert', '../src/mean']);
    expect(importsOf('a.ts', "const m = await import('./m');\nimport './side-effect';")).toEqual(['./side-effect', './m']);
    expect(resolveImport('test/direct.test.js', '../src/mean', files)).toBe('src/mean.js');
    expect(resolveImport('test/rounding.test.js', 'node:test', files)).toBeUndefined();
    expect(resolveImport('test/x.test.ts', '../src/util', files)).toBe('src/util/index.ts');
    expect(resolveImport('test/x.test.js', '../../outside.js', files)).toBeUndefined();
  });
  it('Python: absolute and relative modules, and names that are modules', () => {
    expect(importsOf('tests/test_median.py', repo['tests/test_median.py']!)).toEqual(['pkg.stats', 'pkg.stats.median', 'pytest']);
    expect(resolveImport('tests/test_median.py', 'pkg.stats.median', files)).toBe('pkg/stats/median.py');
    expect(resolveImport('tests/test_median.py', 'pkg.stats', files)).toBe('pkg/stats/__init__.py');
    expect(resolveImport('pkg/stats/median.py', '.sorting', files)).toBe('pkg/stats/sorting.py');
  });
  it('the code under test follows imports through an index and a test helper, and leaves test files out', () => {
    expect(codeUnderTest(['test/rounding.test.js'], read, files)).toEqual(['src/index.js', 'src/mean.js', 'src/square.js', 'src/sum.js']);
    expect(codeUnderTest(['test/via-helper.test.js'], read, files)).toEqual(['src/mean.js', 'src/sum.js']);
    expect(codeUnderTest(['test/direct.test.js'], read, files, 1)).toEqual(['src/mean.js']);
    expect(codeUnderTest(['tests/test_median.py'], read, files)).toEqual(['pkg/stats/__init__.py', 'pkg/stats/median.py', 'pkg/stats/sorting.py']);
    // A Go test exercises its package.
    expect(codeUnderTest(['calc/add_test.go'], read, files)).toEqual(['calc/add.go']);
  });
});

describe('who owns a test that failed before crew (#50)', () => {
  const task = (id: string, files: string[], text = '', changedFiles: string[] = []): OwnableTask => ({ id, files, changedFiles, text });
  const code = codeUnderTest(['test/rounding.test.js'], read, files);
  it('the task whose files are the code the test exercises; a task that only added tests, or documentation, never', () => {
    const tasks = [task('fix', ['src/mean.js']), task('tests', [], '', ['test/square.test.js']), task('docs', ['README.md'])];
    expect(ownersOf(tasks, ['test/rounding.test.js'], code)).toEqual({ tasks: ['fix'], tests: ['test/rounding.test.js'], code: ['src/mean.js'] });
  });
  it('the files a task changed count as well as the ones the plan named (a first attempt that strayed)', () => {
    expect(ownersOf([task('fix', ['src/other.js'], '', ['src/sum.js'])], ['test/rounding.test.js'], code).tasks).toEqual(['fix']);
  });
  it('of several holding the code, the ones that name the failing test: touching the index it imports through is not owning it', () => {
    const tasks = [task('square', ['src/square.js', 'src/index.js']), task('fix', ['src/mean.js'], 'Make test/rounding.test.js pass: round the mean')];
    expect(ownersOf(tasks, ['test/rounding.test.js'], code).tasks).toEqual(['fix']);
    // Nobody names it: everyone holding the code goes back, in plan order.
    expect(ownersOf([tasks[0]!, task('fix', ['src/mean.js'])], ['test/rounding.test.js'], code).tasks).toEqual(['square', 'fix']);
    // A longer path that merely contains the test's is not a mention of it.
    expect(ownersOf([tasks[0]!, task('x', ['src/mean.js'], 'see test/rounding.test.js.snap')], ['test/rounding.test.js'], code).tasks).toEqual(['square', 'x']);
    expect(ownersOf([tasks[0]!, task('x', ['src/mean.js'], 'fix test/rounding.test.js.')], ['test/rounding.test.js'], code).tasks).toEqual(['x']);
  });
  it('no task holds the code: no owner', () => {
    expect(
      ownersOf([task('docs', ['README.md']), task('square', ['src/square.js'])], ['test/direct.test.js'], codeUnderTest(['test/direct.test.js'], read, files))
        .tasks,
    ).toEqual([]);
  });
  it('the failing test files come from the reported identities, else from the test files the output names', () => {
    const keys = [testKey({ file: 'test/rounding.test.js', suite: [], name: 'mean rounds' }), testKey({ file: 'calc', suite: [], name: 'TestAdd' })];
    expect(failingTestFiles(keys, '', files)).toEqual(['calc/add_test.go', 'test/rounding.test.js']);
    expect(failingTestFiles(undefined, 'not ok 1 - mean rounds\n  at test/rounding.test.js:7:10', files)).toEqual(['test/rounding.test.js']);
    expect(failingTestFiles([], 'nothing named', files)).toEqual([]);
  });
});
