import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileDiff } from '../../../src/domain/diff';
import { findTampering } from '../../../src/domain/tamper';

/**
 * Golden files per test style (tests/golden/hollow-tests): `<style>.input.txt` is a test file a
 * task added, `<style>.expected.txt` the findings, one a line. The inputs are .txt so vitest does
 * not run them; the path the check sees is the style's usual one.
 */
const GOLDEN = join(__dirname, '..', '..', 'golden', 'hollow-tests');
const STYLES: Array<[string, string]> = [
  ['vitest', 'test/sum.test.ts'],
  ['mocha', 'test/sum.spec.js'],
  ['node-test', 'test/sum.test.mjs'],
  ['pytest', 'tests/test_calc.py'],
  ['go', 'calc/calc_test.go'],
];

const added = (path: string, text: string): FileDiff => ({
  path,
  status: 'added',
  binary: false,
  added: text.split('\n').map((t, i) => ({ line: i + 1, text: t })),
  removed: [],
});

describe('hollow and constant tests, per style (golden files)', () => {
  for (const [style, path] of STYLES) {
    it(`${style}: a test case that asserts nothing, or only constants, is a finding; one that asserts on the code is not`, () => {
      const text = readFileSync(join(GOLDEN, `${style}.input.txt`), 'utf8');
      const findings = findTampering([added(path, text)], { testFiles: { [path]: text } }).map((f) => `${f.rule}: ${f.evidence}`);
      expect(`${findings.join('\n')}\n`).toBe(readFileSync(join(GOLDEN, `${style}.expected.txt`), 'utf8'));
    });
  }

  it('only the test cases a change touched: an old hollow test the task left alone is not its finding', () => {
    const text = readFileSync(join(GOLDEN, 'vitest.input.txt'), 'utf8');
    const path = 'test/sum.test.ts';
    const changed: FileDiff = {
      path,
      status: 'modified',
      binary: false,
      added: [{ line: 5, text: '  expect(sum(2, 3)).toBe(5);' }],
      removed: [{ line: 5, text: '  expect(sum(2, 3)).toBe(6);' }],
    };
    expect(findTampering([changed], { testFiles: { [path]: text } })).toEqual([]);
    const touchedHollow: FileDiff = { ...changed, added: [{ line: 8, text: "test('negatives', () => {});" }], removed: [] };
    expect(findTampering([touchedHollow], { testFiles: { [path]: text } }).map((f) => f.rule)).toEqual(['hollow-test']);
    // Touching a case that was already hollow before the change is not the change's doing.
    expect(findTampering([touchedHollow], { testFiles: { [path]: text }, testFilesBefore: { [path]: text } })).toEqual([]);
  });

  it('a beforeEach or afterEach that asserts may check every case: no "asserts nothing" finding in that file', () => {
    const path = 'test/app.test.ts';
    const text =
      "afterEach(() => {\n  expect(console.error).not.toHaveBeenCalled();\n});\n\nit('renders', () => {\n  render(App);\n});\n\nit('is constant', () => expect(1).toBe(1));\n";
    expect(findTampering([added(path, text)], { testFiles: { [path]: text } }).map((f) => f.evidence)).toEqual([
      'test/app.test.ts:9 the test `is constant` asserts only constants, so it passes whatever the code does',
    ]);
  });
});
