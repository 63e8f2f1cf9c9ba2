/**
 * Hollow and constant tests (#18): a test case a change added or touched that asserts nothing,
 * or asserts only constants (`expect(1).toBe(1)`, `assert True`), passes whatever the code does.
 * Test cases are found per style in the whole file as the change left it: JavaScript and
 * TypeScript runners (`it`/`test` calls: vitest, jest, mocha, node:test), pytest and unittest
 * (`def test_…`), and Go's `testing` (`func TestX(t *testing.T)`). Heuristic, like the other
 * tamper checks: a test that asserts through a helper counts when the helper's name says so
 * (`check…`, `verify…`, `expect…`) or, in Go, when it is handed `t`.
 */

export interface TestCase {
  name: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The case's text without its name, so a name like "asserts" is not an assertion. */
  body: string;
}

type Style = 'js' | 'python' | 'go';

export function testStyle(path: string): Style | undefined {
  if (/\.[cm]?[jt]sx?$/.test(path)) return 'js';
  if (/\.py$/.test(path)) return 'python';
  if (/_test\.go$/.test(path)) return 'go';
  return undefined;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The index just past the bracket that closes the one at `open`, skipping strings and comments; -1 when it never closes. */
function closing(text: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 1;
    else if (c === '"' || c === "'" || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (pairs[c]) stack.push(pairs[c]!);
    else if (c === stack.at(-1)) {
      stack.pop();
      if (!stack.length) return i + 1;
    }
  }
  return -1;
}

const JS_CASE = /(?<![\w.$])(?:it|test)(?:\.(?:concurrent|each\s*\([^)]*\)|only))?\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
const GO_CASE = /^func\s+(Test\w*)\s*\(\s*\w+\s+\*testing\.T\s*\)\s*\{/gm;
const PY_CASE = /^([ \t]*)(?:async\s+)?def\s+(test\w*)\s*\(/gm;

export function testCasesIn(path: string, text: string): TestCase[] {
  const style = testStyle(path);
  const out: TestCase[] = [];
  if (style === 'js') {
    for (const m of text.matchAll(JS_CASE)) {
      // The call's own parenthesis: the one before the name (after `.each(…)`, if any).
      const open = text.lastIndexOf('(', m.index! + m[0].length - m[2]!.length - 2);
      const end = closing(text, open);
      if (end < 0) continue;
      const afterName = m.index! + m[0].length;
      out.push({ name: m[2]!, startLine: lineAt(text, m.index!), endLine: lineAt(text, end - 1), body: text.slice(afterName, end) });
    }
  } else if (style === 'go') {
    for (const m of text.matchAll(GO_CASE)) {
      const open = m.index! + m[0].length - 1;
      const end = closing(text, open);
      if (end < 0) continue;
      out.push({ name: m[1]!, startLine: lineAt(text, m.index!), endLine: lineAt(text, end - 1), body: text.slice(open, end) });
    }
  } else if (style === 'python') {
    const lines = text.split('\n');
    for (const m of text.matchAll(PY_CASE)) {
      const start = lineAt(text, m.index!);
      const indent = m[1]!.length;
      let end = start;
      // The signature may span lines; the body is every following line indented deeper (or blank).
      for (let n = start; n < lines.length; n++) {
        const l = lines[n]!;
        if (l.trim() === '') continue;
        if (l.length - l.trimStart().length <= indent) break;
        end = n + 1;
      }
      out.push({
        name: m[2]!,
        startLine: start,
        endLine: end,
        body: lines
          .slice(start - 1, end)
          .join('\n')
          .replace(/^[^(]*\(/, '('),
      });
    }
  }
  return out;
}

const ASSERTS: Record<Style, RegExp> = {
  js: /\b(?:expect\w*|assert\w*|should)\b|\.should\b|\bt\.(?:assert|plan|is|not|deepEqual|true|false|throws|snapshot)\b|\b(?:check|verify|ensure)\w*\s*\(|\bfail\s*\(/,
  python: /^\s*assert\b|\bself\.(?:assert\w+|fail)\b|\bpytest\.(?:raises|warns|fail)\b|\b(?:assert|check|verify)_?\w*\s*\(/m,
  go: /\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow|Run)\b|\b(?:assert|require)\.\w+|\b(?:check|verify|expect)\w*\s*\(|\(\s*t\s*[,)]/,
};

const LIT = String.raw`(?:-?\d+(?:\.\d+)?|true|false|True|False|null|undefined|None|nil|'[^'\n]*'|"[^"\n]*")`;
/** An assertion on literals alone, matched from where the assertion starts to the end of its line. */
const END = String.raw`[\s;)}\]]*$`;
const CONSTANT: Record<Style, RegExp> = {
  js: new RegExp(String.raw`^(?:expect\(\s*${LIT}\s*\)(?:\.not)?\.\w+\(\s*(?:${LIT})?\s*\)|assert(?:\.\w+)?\(\s*${LIT}(?:\s*,\s*${LIT})*\s*\))${END}`),
  python: new RegExp(String.raw`^(?:assert\s+${LIT}(?:\s*(?:==|!=|is not|is)\s*${LIT})?(?:\s*,.*)?|self\.assert\w+\(\s*${LIT}(?:\s*,\s*${LIT})*\s*\))${END}`),
  go: new RegExp(String.raw`^(?:assert|require)\.\w+\(\s*t\s*,\s*${LIT}(?:\s*,\s*${LIT})*\s*\)${END}`),
};
const COMMENT: Record<Style, RegExp> = { js: /\/\/[^\n]*|\/\*[\s\S]*?\*\//g, go: /\/\/[^\n]*|\/\*[\s\S]*?\*\//g, python: /#[^\n]*/g };

export type HollowKind = 'no-assertion' | 'constant-only';

/** Whether a test case checks nothing, or only constants; undefined when it asserts on something real. */
export function hollowness(style: Style, body: string): HollowKind | undefined {
  const code = body.replace(COMMENT[style], '');
  if (!ASSERTS[style].test(code)) return 'no-assertion';
  const asserting = code
    .split('\n')
    .map((l) => l.search(ASSERTS[style]))
    .map((at, n) => (at < 0 ? undefined : code.split('\n')[n]!.slice(at).trim()))
    .filter((l): l is string => l !== undefined);
  if (asserting.every((l) => CONSTANT[style].test(l))) return 'constant-only';
  return undefined;
}
