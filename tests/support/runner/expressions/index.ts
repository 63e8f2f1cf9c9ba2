import { isTruthy, toStr } from './coerce';
import { evaluateParsed, usesStatusFunction } from './evaluate-ast';
import { parseExpression, type ParsedExpression } from './parse';
import { singleExpression, splitTemplate } from './template';
import type { ExprContext, ExprValue, StatusFunctions } from './types';

export { ExpressionError } from './errors';
export type { ExprContext, ExprValue, StatusFunctions } from './types';

/** Evaluates a bare expression (no `${{ }}`). Status functions throw unless `status` is given. */
export function evaluate(expr: string, ctx: ExprContext, status?: StatusFunctions): ExprValue {
  return evaluateParsed(parseExpression(expr), ctx, status);
}

/**
 * Evaluates a job/step `if:` the way GitHub does:
 * - missing → `success()`;
 * - no `${{` → the whole value is an expression;
 * - exactly one `${{ expr }}` and nothing else → that expression;
 * - anything else (`${{ false }} && x`, or spaces/newlines around the braces) is string interpolation, whose
 *   result is a non-empty string and therefore true — the documented pitfall, reproduced on purpose;
 * - unless a status function appears somewhere, the condition is `success() && (…)`.
 */
export function evaluateIf(cond: string | boolean | undefined, ctx: ExprContext, status: StatusFunctions): boolean {
  if (cond === undefined || cond === null) return status.success();
  const text = String(cond);

  let parts: ParsedExpression[];
  let value: () => ExprValue;
  const single = singleExpression(text);
  if (single !== undefined) {
    const parsed = parseExpression(single);
    parts = [parsed];
    value = () => evaluateParsed(parsed, ctx, status);
  } else if (text.includes('${{')) {
    const segments = splitTemplate(text).map((s) => (s.kind === 'text' ? s : parseExpression(s.source)));
    parts = segments.filter((s): s is ParsedExpression => 'root' in s);
    value = () => segments.map((s) => ('root' in s ? toStr(evaluateParsed(s, ctx, status)) : s.text)).join('');
  } else {
    const parsed = parseExpression(text);
    parts = [parsed];
    value = () => evaluateParsed(parsed, ctx, status);
  }

  if (!parts.some((p) => usesStatusFunction(p)) && !status.success()) return false;
  return isTruthy(value());
}

/** Replaces every `${{ … }}` with the string form of its value (null → '', arrays → 'Array', objects → 'Object'). */
export function interpolate(template: string, ctx: ExprContext, status?: StatusFunctions): string {
  if (!template.includes('${{')) return template;
  return splitTemplate(template)
    .map((s) => (s.kind === 'text' ? s.text : toStr(evaluate(s.source, ctx, status))))
    .join('');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Deeply evaluates a YAML value (matrix, with, env, outputs). A string that is exactly one `${{ expr }}` keeps
 * the expression's type (`task: ${{ fromJSON(x) }}` gives an array); other strings are interpolated; keys and
 * non-string scalars are left alone.
 */
export function evaluateValue(value: unknown, ctx: ExprContext, status?: StatusFunctions): unknown {
  if (typeof value === 'string') {
    const single = singleExpression(value);
    if (single !== undefined) return evaluate(single, ctx, status);
    return interpolate(value, ctx, status);
  }
  if (Array.isArray(value)) return value.map((item) => evaluateValue(item, ctx, status));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = evaluateValue(item, ctx, status);
    return out;
  }
  return value;
}
