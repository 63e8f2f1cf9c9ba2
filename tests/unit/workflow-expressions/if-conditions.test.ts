import { describe, expect, it } from 'vitest';
import { evaluateIf, type ExprContext, type StatusFunctions } from '../../support/runner/expressions';

const succeeded: StatusFunctions = { success: () => true, failure: () => false, cancelled: () => false };
const failed: StatusFunctions = { success: () => false, failure: () => true, cancelled: () => false };
const cancelled: StatusFunctions = { success: () => false, failure: () => false, cancelled: () => true };

const ctx: ExprContext = {
  github: { event_name: 'push', ref: 'refs/heads/main' },
  env: { EMPTY: '' },
};

describe('evaluateIf', () => {
  it('a missing if means success()', () => {
    expect(evaluateIf(undefined, ctx, succeeded)).toBe(true);
    expect(evaluateIf(undefined, ctx, failed)).toBe(false);
    expect(evaluateIf(undefined, ctx, cancelled)).toBe(false);
  });

  it('accepts the expression with or without ${{ }}', () => {
    expect(evaluateIf("github.event_name == 'push'", ctx, succeeded)).toBe(true);
    expect(evaluateIf("${{ github.event_name == 'push' }}", ctx, succeeded)).toBe(true);
    expect(evaluateIf("${{github.event_name == 'pull_request'}}", ctx, succeeded)).toBe(false);
    expect(evaluateIf("github.event_name == 'pull_request'", ctx, succeeded)).toBe(false);
  });

  it('YAML booleans work', () => {
    expect(evaluateIf(true, ctx, succeeded)).toBe(true);
    expect(evaluateIf(false, ctx, succeeded)).toBe(false);
  });

  it('coerces the result to a boolean', () => {
    expect(evaluateIf('env.EMPTY', ctx, succeeded)).toBe(false);
    expect(evaluateIf('github.ref', ctx, succeeded)).toBe(true);
    expect(evaluateIf('env.MISSING', ctx, succeeded)).toBe(false);
    expect(evaluateIf("${{ 'false' }}", ctx, succeeded)).toBe(true);
  });

  it('without a status function the condition is wrapped as success() && (…)', () => {
    expect(evaluateIf('true', ctx, failed)).toBe(false);
    expect(evaluateIf('${{ true }}', ctx, cancelled)).toBe(false);
    expect(evaluateIf("github.event_name == 'push'", ctx, failed)).toBe(false);
  });

  it('the implicit success() short-circuits, so the expression is not even evaluated', () => {
    expect(evaluateIf("fromJSON('')", ctx, failed)).toBe(false);
    expect(() => evaluateIf("fromJSON('')", ctx, succeeded)).toThrow(/fromJSON/);
  });

  it('always() / failure() / cancelled() replace the implicit success()', () => {
    expect(evaluateIf('always()', ctx, failed)).toBe(true);
    expect(evaluateIf('${{ always() }}', ctx, cancelled)).toBe(true);
    expect(evaluateIf('failure()', ctx, failed)).toBe(true);
    expect(evaluateIf('failure()', ctx, succeeded)).toBe(false);
    expect(evaluateIf('cancelled()', ctx, cancelled)).toBe(true);
    expect(evaluateIf("always() && github.event_name == 'push'", ctx, failed)).toBe(true);
    expect(evaluateIf("failure() || github.event_name == 'push'", ctx, failed)).toBe(true);
    expect(evaluateIf("!cancelled() && github.event_name == 'push'", ctx, failed)).toBe(true);
    expect(evaluateIf('success() || failure()', ctx, failed)).toBe(true);
  });

  it('a status function nested anywhere counts, even inside a function argument', () => {
    expect(evaluateIf("contains(format('{0}', always()), 'true')", ctx, failed)).toBe(true);
  });

  describe('the documented pitfall: text around ${{ }} makes the if a (truthy) string', () => {
    it('${{ false }} && x is the string "false && x", hence true', () => {
      expect(evaluateIf('${{ false }} && x', ctx, succeeded)).toBe(true);
    });

    it('a comparison outside the braces is not evaluated either', () => {
      expect(evaluateIf("${{ github.event_name }} == 'pull_request'", ctx, succeeded)).toBe(true);
      expect(evaluateIf("github.ref == 'refs/heads/${{ env.EMPTY }}'", ctx, succeeded)).toBe(true);
    });

    it('surrounding whitespace (e.g. from a YAML block scalar) also triggers it', () => {
      expect(evaluateIf('${{ false }}\n', ctx, succeeded)).toBe(true);
      expect(evaluateIf(' ${{ false }}', ctx, succeeded)).toBe(true);
    });

    it('two adjacent expressions are interpolated too', () => {
      expect(evaluateIf('${{ false }}${{ false }}', ctx, succeeded)).toBe(true);
      expect(evaluateIf("${{ '' }}${{ null }}", ctx, succeeded)).toBe(false);
    });

    it('still gets the implicit success() wrapper', () => {
      expect(evaluateIf('${{ false }} && x', ctx, failed)).toBe(false);
      expect(evaluateIf('${{ always() }} && x', ctx, failed)).toBe(true);
    });
  });
});
