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
  /** JavaScript: the test function's first parameter, whose method calls assert (`t.is`, `t.equal`). */
  param?: string;
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
/** A test given as a function defined elsewhere (`it('adds', checkAdd)`): its body is not here to judge. */
const JS_REFERENCE = /^\s*,\s*[A-Za-z_$][\w$.]*\s*[,)]/;
/** The test function's first parameter (`t` of ava, tap and node:test), whose methods assert. */
const JS_PARAM = /^\s*,\s*(?:async\s*)?(?:function\s*\w*\s*)?\(?\s*([A-Za-z_$][\w$]*)/;
/** Python's triple quotes: lines inside such a string belong to the body whatever their indentation. */
const TRIPLE = /"{3}|'{3}/g;

export function testCasesIn(path: string, text: string): TestCase[] {
  const style = testStyle(path);
  const out: TestCase[] = [];
  if (style === 'js') {
    for (const m of text.matchAll(JS_CASE)) {
      // The call's own parenthesis: the one before the name (after `.each(…)`, if any).
      const open = text.lastIndexOf('(', m.index! + m[0].length - m[2]!.length - 2);
      const end = closing(text, open);
      const afterName = m.index! + m[0].length;
      const next = text.slice(afterName, afterName + 200);
      if (end < 0 || JS_REFERENCE.test(next)) continue;
      const param = JS_PARAM.exec(next)?.[1];
      out.push({
        name: m[2]!,
        startLine: lineAt(text, m.index!),
        endLine: lineAt(text, end - 1),
        body: text.slice(afterName, end),
        ...(param && !['done', 'async', 'function'].includes(param) ? { param } : {}),
      });
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
      // A fixture named test_… is not a test.
      if (/@pytest\.fixture\b/.test(lines.slice(Math.max(0, start - 4), start - 1).join('\n'))) continue;
      const indent = m[1]!.length;
      // The signature may span lines (black puts each parameter on its own): it ends at its bracket.
      const sigEnd = closing(text, m.index! + m[0].length - 1);
      if (sigEnd < 0) continue;
      const bodyStart = lineAt(text, sigEnd - 1);
      let end = bodyStart;
      let inString: string | undefined;
      // The body: every following line indented deeper, blank, or inside a triple-quoted string.
      for (let n = bodyStart; n < lines.length; n++) {
        const l = lines[n]!;
        const wasInString = inString;
        for (const q of l.match(TRIPLE) ?? []) inString = inString === q ? undefined : (inString ?? q);
        if (!wasInString) {
          if (l.trim() === '') continue;
          if (l.length - l.trimStart().length <= indent) break;
        }
        end = n + 1;
      }
      out.push({
        name: m[2]!,
        startLine: start,
        endLine: end,
        body: lines
          .slice(bodyStart - 1, end)
          .join('\n')
          .slice(sigEnd - (text.lastIndexOf('\n', sigEnd - 1) + 1)),
      });
    }
  }
  return out;
}

/** Calls that assert, in each style: call syntax, so `const expected = 1` or the word in a name is not one. */
const ASSERTS: Record<Style, RegExp> = {
  js: /\b(?:expect\w*|assert\w*)\s*[.(]|\.should\b|\b(?:check|verify|ensure)\w*\s*\(|\bfail\s*\(|\b(?:screen\.)?(?:get|getAll|find|findAll)By\w+\s*\(/,
  python: /^\s*assert\b|\bself\.(?:assert\w+|fail)\s*\(|\bpytest\.(?:raises|warns|fail)\b|\b(?:assert|check|verify)_?\w*\s*\(/m,
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
/** String contents blanked, keeping their length so positions hold: a word inside a string is not a call. */
const blankStrings = (code: string) =>
  code.replace(/(['"])((?:\\.|(?!\1)[^\\\n])*)\1/g, (_m, q: string, inner: string) => `${q}${' '.repeat(inner.length)}${q}`);

export type HollowKind = 'no-assertion' | 'constant-only';

/** Whether a test case checks nothing, or only constants; undefined when it asserts on something real. */
export function hollowness(style: Style, body: string, param?: string): HollowKind | undefined {
  const code = body.replace(COMMENT[style], '');
  const scan = blankStrings(code);
  const asserts = param ? new RegExp(`${ASSERTS[style].source}|\\b${param.replace(/\$/g, '\\$')}\\.\\w+\\s*\\(`, ASSERTS[style].flags) : ASSERTS[style];
  if (!asserts.test(scan)) return 'no-assertion';
  const codeLines = code.split('\n');
  const asserting = scan
    .split('\n')
    .map((l, n) => {
      const at = l.search(asserts);
      return at < 0 ? undefined : codeLines[n]!.slice(at).trim();
    })
    .filter((l): l is string => l !== undefined);
  if (asserting.every((l) => CONSTANT[style].test(l))) return 'constant-only';
  return undefined;
}

/** Whether the file's `beforeEach`/`afterEach` hooks assert: then every test in it may be checked there. */
export function hooksAssert(path: string, text: string): boolean {
  if (testStyle(path) !== 'js') return false;
  for (const m of text.matchAll(/\b(?:beforeEach|afterEach)\s*\(/g)) {
    const end = closing(text, m.index! + m[0].length - 1);
    if (end > 0 && ASSERTS.js.test(blankStrings(text.slice(m.index!, end)))) return true;
  }
  return false;
}
