import { describe, expect, it } from 'vitest';
import { evaluate, interpolate, type ExprContext } from '../../support/runner/expressions';

const ev = (expr: string, ctx: ExprContext = {}) => evaluate(expr, ctx);

describe('loose equality: mismatched types are compared as numbers', () => {
  it.each([
    // null → 0
    ['null == 0', true],
    ["null == ''", true],
    ['null == false', true],
    ['null == null', true],
    // boolean → 1 / 0
    ['true == 1', true],
    ['false == 0', true],
    ["true == 'true'", false],
    ["true == '1'", true],
    // string → number (JSON number syntax, plus hex/octal, trimmed; '' is 0; otherwise NaN)
    ["'' == 0", true],
    ["' 123456.789 ' == 123456.789", true],
    ["' +123456.789 ' == 123456.789", true],
    ["' 0xff ' == 255", true],
    ["' 0o10 ' == 8", true],
    ["' Infinity ' == Infinity", true],
    ["'1e3' == 1000", true],
    ["'abc' == 0", false],
    ["'abc' != 0", true],
    // NaN is never equal to anything, itself included
    ['NaN == NaN', false],
    ['NaN != NaN', true],
    ["' NaN ' == NaN", false],
    // same-type numbers, including -0
    ['-0 == 0', true],
    ['0.1 == 0.10', true],
  ])('%s → %s', (expr, expected) => {
    expect(ev(expr)).toBe(expected);
  });

  it('arrays and objects coerce to NaN, so they never equal a primitive', () => {
    const ctx = { arr: [], obj: {} };
    expect(ev('arr == 0', ctx)).toBe(false);
    expect(ev("obj == ''", ctx)).toBe(false);
    expect(ev('arr != 0', ctx)).toBe(true);
    expect(ev('obj == null', ctx)).toBe(false);
  });

  it('arrays and objects are equal only to the same instance', () => {
    const shared = { a: 1 };
    const ctx = { x: shared, y: shared, z: { a: 1 }, l1: [1], l2: [1] };
    expect(ev('x == y', ctx)).toBe(true);
    expect(ev('x == z', ctx)).toBe(false);
    expect(ev('l1 == l2', ctx)).toBe(false);
    expect(ev('l1 == l1', ctx)).toBe(true);
    expect(ev("fromJSON('{}') == fromJSON('{}')")).toBe(false);
  });
});

describe('string comparison ignores case', () => {
  it.each([
    ["'abc' == 'ABC'", true],
    ["'abcdefghijklmnopqrstuvwxyz' == 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'", true],
    ["'Bot' != 'bot'", false],
    ["'ü' == 'Ü'", true],
    ["'ς' == 'Σ'", true],
    ["'АБВ' == 'абв'", true],
    ["'i' == 'İ'", false],
    ["'ı' == 'I'", false],
    ["'abc' < 'DEF'", true],
    ["'a' < '['", true],
    ["'A' < '['", true],
    ["'abc' <= 'ABC'", true],
    ["'abc' >= 'ABC'", true],
    ["'b' > 'A'", true],
  ])('%s → %s', (expr, expected) => {
    expect(ev(expr)).toBe(expected);
  });
});

describe('relational operators', () => {
  it.each([
    ['1 < 2', true],
    ['1.001 < 1.002', true],
    ['false < true', true],
    ['true <= true', true],
    ['null < 1', true],
    ['null < 0', false],
    ['null <= null', true],
    ['-1 < null', true],
    ["'' < null", false],
    ["'-1' < false", true],
    ["0 < ' 1 '", true],
    ["1 < ' 1 '", false],
    ["true < '2'", true],
    ['false < Infinity', true],
    ['-Infinity < false', true],
  ])('%s → %s', (expr, expected) => {
    expect(ev(expr)).toBe(expected);
  });

  it('anything involving NaN is false', () => {
    for (const op of ['<', '<=', '>', '>=']) {
      expect(ev(`NaN ${op} 1`)).toBe(false);
      expect(ev(`1 ${op} NaN`)).toBe(false);
      expect(ev(`'abc' ${op} 1`)).toBe(false);
      expect(ev(`false ${op} NaN`)).toBe(false);
    }
  });

  it('arrays and objects cannot be ordered', () => {
    const ctx = { arr: [], obj: {}, other: [] };
    for (const op of ['<', '<=', '>', '>=']) {
      expect(ev(`arr ${op} other`, ctx)).toBe(false);
      expect(ev(`0 ${op} obj`, ctx)).toBe(false);
      expect(ev(`null ${op} arr`, ctx)).toBe(false);
    }
    for (const op of ['<', '>']) {
      expect(ev(`arr ${op} arr`, ctx)).toBe(false);
      expect(ev(`obj ${op} obj`, ctx)).toBe(false);
    }
  });

  it('<= and >= are "equal, or less/greater", so the same instance is <= and >= itself (as GitHub\'s runner defines them)', () => {
    const ctx = { arr: [], obj: {} };
    for (const op of ['<=', '>=']) {
      expect(ev(`arr ${op} arr`, ctx)).toBe(true);
      expect(ev(`obj ${op} obj`, ctx)).toBe(true);
      expect(ev(`fromJSON('[]') ${op} fromJSON('[]')`)).toBe(false);
    }
    expect(ev("'abc' <= 'ABC'")).toBe(true);
    expect(ev('NaN <= NaN')).toBe(false);
  });
});

describe('truthiness', () => {
  it.each([
    ['false', false],
    ['0', false],
    ['-0', false],
    ["''", false],
    ['null', false],
    ['NaN', false],
    ['true', true],
    ['1', true],
    ['-1', true],
    ["'false'", true],
    ["'0'", true],
    ["' '", true],
    ['Infinity', true],
  ])('%s is %s', (expr, expected) => {
    expect(ev(`!!(${expr})`)).toBe(expected);
  });

  it('empty arrays and objects are truthy', () => {
    expect(ev('!!arr && !!obj', { arr: [], obj: {} })).toBe(true);
  });
});

describe('string conversion (as used by interpolation and format)', () => {
  const s = (expr: string, ctx: ExprContext = {}) => interpolate(`\${{ ${expr} }}`, ctx);

  it.each([
    ['null', ''],
    ['true', 'true'],
    ['false', 'false'],
    ['1', '1'],
    ['-0', '0'],
    ['0.0', '0'],
    ['-2.0', '-2'],
    ['.5', '0.5'],
    ['1.2e-2', '0.012'],
    ['123456.789', '123456.789'],
    ['0.84551240822557006', '0.84551240822557'],
    ['0xff', '255'],
    ['Infinity', 'Infinity'],
    ['-Infinity', '-Infinity'],
    ['NaN', 'NaN'],
    ["'text'", 'text'],
  ])('%s → %j', (expr, expected) => {
    expect(s(expr)).toBe(expected);
  });

  it("arrays become 'Array' and objects 'Object'", () => {
    expect(s('a', { a: [1, 2, 3] })).toBe('Array');
    expect(s('o', { o: { a: 1 } })).toBe('Object');
    expect(s('github', { github: {} })).toBe('Object');
  });
});
