import type { ExprValue } from './types';

export type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export function kindOf(value: ExprValue | undefined): Kind {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    default:
      return 'object';
  }
}

export function isPrimitive(value: ExprValue | undefined): value is null | boolean | number | string {
  const kind = kindOf(value);
  return kind !== 'array' && kind !== 'object';
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * GitHub's string → number rule: surrounding whitespace is ignored, the empty string is 0, and besides
 * JSON-style decimals it accepts a leading `+`, `0x` hex, `0o` octal, `Infinity` and `NaN`. Anything else
 * is NaN.
 */
export function parseNumber(text: string): number {
  const s = text.trim();
  if (s === '') return 0;
  if (/^0x[0-9a-f]+$/i.test(s)) return Number.parseInt(s.slice(2), 16);
  if (/^0o[0-7]+$/i.test(s)) return Number.parseInt(s.slice(2), 8);
  if (/^[+-]?Infinity$/.test(s)) return s.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (DECIMAL.test(s)) return Number(s);
  return Number.NaN;
}

export function toNumber(value: ExprValue | undefined): number {
  switch (kindOf(value)) {
    case 'null':
      return 0;
    case 'boolean':
      return value ? 1 : 0;
    case 'number':
      return value as number;
    case 'string':
      return parseNumber(value as string);
    default:
      return Number.NaN;
  }
}

export function isTruthy(value: ExprValue | undefined): boolean {
  switch (kindOf(value)) {
    case 'null':
      return false;
    case 'boolean':
      return value as boolean;
    case 'number':
      return value !== 0 && !Number.isNaN(value);
    case 'string':
      return value !== '';
    default:
      return true;
  }
}

/** Numbers print with at most 15 significant digits, as GitHub's runner does (0.84551240822557006 → "0.84551240822557"). */
export function numberToString(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return String(Number(n.toPrecision(15)));
}

export function toStr(value: ExprValue | undefined): string {
  switch (kindOf(value)) {
    case 'null':
      return '';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return numberToString(value as number);
    case 'string':
      return value as string;
    case 'array':
      return 'Array';
    default:
      return 'Object';
  }
}

/**
 * Case folding for comparisons: per-character simple uppercasing. Characters whose uppercase form is not a
 * single character (ß → SS) stay as they are, and dotless ı / long ſ are not folded onto ASCII I / S — GitHub
 * compares with an ordinal ignore-case rule that keeps `'ı' != 'I'`.
 */
export function foldCase(s: string): string {
  let out = '';
  for (const ch of s) {
    if (ch === '\u0131' || ch === '\u017f') {
      out += ch;
      continue;
    }
    const upper = ch.toUpperCase();
    out += [...upper].length === 1 ? upper : ch;
  }
  return out;
}

export function looseEquals(left: ExprValue | undefined, right: ExprValue | undefined): boolean {
  const lk = kindOf(left);
  const rk = kindOf(right);
  if (lk === rk) {
    switch (lk) {
      case 'null':
        return true;
      case 'string':
        return foldCase(left as string) === foldCase(right as string);
      case 'number':
      case 'boolean':
        return left === right;
      default:
        return left === right;
    }
  }
  return toNumber(left) === toNumber(right);
}

/** -1 / 0 / 1, or undefined when the operands cannot be ordered (NaN, or two arrays/objects). */
export function compare(left: ExprValue | undefined, right: ExprValue | undefined): -1 | 0 | 1 | undefined {
  const lk = kindOf(left);
  const rk = kindOf(right);
  if (lk === rk) {
    if (lk === 'null') return 0;
    if (lk === 'array' || lk === 'object') return undefined;
    if (lk === 'string') {
      const a = foldCase(left as string);
      const b = foldCase(right as string);
      return a < b ? -1 : a > b ? 1 : 0;
    }
  }
  const a = toNumber(left);
  const b = toNumber(right);
  if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
  return a < b ? -1 : a > b ? 1 : 0;
}
