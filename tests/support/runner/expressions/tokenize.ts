import { ExpressionError } from './errors';
import { parseNumber } from './coerce';

export type Punct = '(' | ')' | '[' | ']' | ',' | '.' | '!' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&&' | '||';

export type Token =
  | { kind: 'literal'; value: null | boolean | number | string; text: string; pos: number }
  | { kind: 'identifier'; text: string; pos: number }
  | { kind: 'star'; text: '*'; pos: number }
  | { kind: 'punct'; text: Punct; pos: number }
  | { kind: 'end'; text: ''; pos: number };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const KEYWORDS: Record<string, null | boolean | number> = {
  true: true,
  false: false,
  null: null,
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
};

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v';
}

function isDelimiter(ch: string): boolean {
  return isWhitespace(ch) || "()[],.!<>=&|'".includes(ch);
}

/** Tokens after which `.` dereferences a value; anywhere else it can only start a number such as `.5`. */
function endsValue(token: Token | undefined): boolean {
  if (token === undefined) return false;
  if (token.kind === 'punct') return token.text === ')' || token.text === ']';
  return token.kind !== 'end';
}

export function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  const fail = (detail: string, pos: number): never => {
    throw new ExpressionError(detail, expr, pos + 1);
  };
  let i = 0;

  while (i < expr.length) {
    const ch = expr[i] as string;
    const start = i;
    const prev = tokens[tokens.length - 1];

    if (isWhitespace(ch)) {
      i++;
      continue;
    }

    if (ch === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= expr.length) fail(`Unclosed string literal: '${expr.slice(start)}'`, start);
        const c = expr[i] as string;
        if (c === "'") {
          if (expr[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += c;
        i++;
      }
      tokens.push({ kind: 'literal', value, text: expr.slice(start, i), pos: start });
      continue;
    }

    const two = expr.slice(i, i + 2);
    if (two === '<=' || two === '>=' || two === '==' || two === '!=' || two === '&&' || two === '||') {
      tokens.push({ kind: 'punct', text: two, pos: start });
      i += 2;
      continue;
    }
    if (ch === '=' || ch === '&' || ch === '|') fail(`Unexpected symbol: '${ch}'`, start);
    if (ch === '.' && (endsValue(prev) || !/[0-9]/.test(expr[i + 1] ?? ''))) {
      tokens.push({ kind: 'punct', text: '.', pos: start });
      i++;
      continue;
    }
    if ('()[],!<>'.includes(ch)) {
      tokens.push({ kind: 'punct', text: ch as Punct, pos: start });
      i++;
      continue;
    }

    // A "word" runs to the next delimiter; numbers may also contain dots (`1.5`, `-.5`, `1.2e-2`).
    const numeric = /[0-9+\-.]/.test(ch);
    while (i < expr.length) {
      const c = expr[i] as string;
      if (isDelimiter(c) && !(numeric && c === '.')) break;
      i++;
    }
    const word = expr.slice(start, i);
    const afterDot = prev?.kind === 'punct' && prev.text === '.';

    if (word === '*') {
      tokens.push({ kind: 'star', text: '*', pos: start });
    } else if (afterDot) {
      // Property names may collide with keywords: `foo.true`, `foo.null` are plain properties.
      if (!IDENTIFIER.test(word)) fail(`Unexpected symbol: '${word}'`, start);
      tokens.push({ kind: 'identifier', text: word, pos: start });
    } else if (Object.hasOwn(KEYWORDS, word)) {
      tokens.push({ kind: 'literal', value: KEYWORDS[word] as null | boolean | number, text: word, pos: start });
    } else if (IDENTIFIER.test(word)) {
      tokens.push({ kind: 'identifier', text: word, pos: start });
    } else {
      const n = numeric ? parseNumber(word) : Number.NaN;
      if (word.startsWith('${{')) {
        fail(`Unexpected symbol: '${word}' (expressions are given without \${{ }}; use interpolate() for templates)`, start);
      }
      if (Number.isNaN(n)) fail(`Unexpected symbol: '${word}'`, start);
      tokens.push({ kind: 'literal', value: n, text: word, pos: start });
    }
  }

  tokens.push({ kind: 'end', text: '', pos: expr.length });
  return tokens;
}
