import { describe, expect, it } from 'vitest';
import { evaluate, evaluateIf, evaluateValue, ExpressionError, interpolate, type ExprContext } from '../../support/runner/expressions';

const ok = { success: () => true, failure: () => false, cancelled: () => false };

function errorOf(run: () => unknown): ExpressionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return error as ExpressionError;
  }
  throw new Error('expected an ExpressionError');
}

const ctx: ExprContext = { github: { event: {} }, foo: { bar: 1 } };

describe('ExpressionError messages name the expression and a 1-based position', () => {
  it.each([
    ['unknown function', 'github.x && frobnicate(1)', "Unrecognized function: 'frobnicate'", 13],
    ['unknown named value', '1 == nope.x', "Unrecognized named-value: 'nope'", 6],
    ['unclosed string', "github.ref == 'refs/heads", "Unclosed string literal: ''refs/heads'", 15],
    ['double quotes', 'github.ref == "main"', `Unexpected symbol: '"main"'`, 15],
    ['single =', "github.ref = 'x'", "Unexpected symbol: '='", 12],
    ['single &', 'true & false', "Unexpected symbol: '&'", 6],
    ['dangling operator', 'true &&', "Unexpected end of expression: 'true &&'", 7],
    ['unbalanced paren', '(true', "Unexpected end of expression: '(true'", 5],
    ['extra paren', 'true)', "Unexpected symbol: ')'", 5],
    ['two values', 'true false', "Unexpected symbol: 'false'", 6],
    ['bad property name', 'foo.b@r', "Unexpected symbol: 'b@r'", 5],
    ['numeric property name', 'foo.1', "Unexpected symbol: '1'", 5],
    ['property after index', 'foo[1].2', "Unexpected symbol: '2'", 8],
    ['bad number', '12abc', "Unexpected symbol: '12abc'", 1],
    ['empty call argument', "format('{0}',)", "Unexpected symbol: ')'", 14],
    ['too few arguments', "contains('a')", "Too few parameters supplied (expected at least 2, got 1): 'contains'", 1],
    ['too many arguments', 'join(1, 2, 3)', "Too many parameters supplied (expected at most 2, got 3): 'join'", 1],
    ['no arguments', 'toJSON()', "Too few parameters supplied (expected at least 1, got 0): 'toJSON'", 1],
    ['wildcard misuse', '1 * 2', "Unexpected symbol: '*'", 3],
  ])('%s: %s', (_label, expr, detail, position) => {
    const error = errorOf(() => evaluate(expr, ctx));
    expect(error.detail).toBe(detail);
    expect(error.expression).toBe(expr);
    expect(error.position).toBe(position);
    expect(error.message).toBe(`${detail}. Located at position ${position} within expression: ${expr}`);
  });

  it('an empty expression', () => {
    expect(errorOf(() => evaluate('   ', ctx)).message).toMatch(/^Expected an expression/);
    expect(errorOf(() => interpolate('a ${{ }} b', ctx)).message).toMatch(/^Expected an expression/);
  });

  it('hints when evaluate() is handed a ${{ }} template', () => {
    expect(errorOf(() => evaluate('${{ github.ref }}', ctx)).detail).toMatch(/expressions are given without \$\{\{ \}\}/);
  });

  it('unknown names are reported even when short-circuited away', () => {
    expect(errorOf(() => evaluate('false && nope', ctx)).detail).toBe("Unrecognized named-value: 'nope'");
  });

  it('evaluation errors point at the function call', () => {
    const error = errorOf(() => evaluate("github.event && fromJSON('{')", ctx));
    expect(error.position).toBe(17);
    expect(error.detail).toMatch(/^Error from function 'fromJSON'/);
  });

  it('errors inside ${{ }} name the inner expression', () => {
    const error = errorOf(() => interpolate('echo ${{ github.event.x }} ${{ nope(1) }}', ctx));
    expect(error.message).toBe("Unrecognized function: 'nope'. Located at position 2 within expression:  nope(1) ");
  });

  it('an unclosed ${{ names the whole template', () => {
    for (const run of [
      () => interpolate('echo ${{ github.ref', ctx),
      () => evaluateValue({ a: 'x ${{ 1 }} ${{ 2' }, ctx),
      () => evaluateIf("${{ 'a }}'", ctx, ok),
    ]) {
      const error = errorOf(run);
      expect(error.detail).toMatch(/^Unclosed expression/);
    }
    expect(errorOf(() => interpolate('echo ${{ github.ref', ctx)).message).toBe(
      "Unclosed expression: an unescaped '${{' was found but the closing '}}' was not. Located at position 6 within expression: echo ${{ github.ref",
    );
  });

  it('evaluateIf surfaces syntax errors instead of guessing', () => {
    expect(errorOf(() => evaluateIf("github.ref == 'x", ctx, ok)).detail).toMatch(/^Unclosed string literal/);
  });

  it('is an Error with name ExpressionError', () => {
    const error = errorOf(() => evaluate('(', ctx));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ExpressionError');
  });
});
