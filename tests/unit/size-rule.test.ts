import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The size rule (#53): the files a newcomer reads first stay under 350 lines, and no function in src/ is over
 * 120. Each exception is named with its reason; the lead empties the list as the splits under way merge.
 */
const root = join(__dirname, '..', '..');
const MAX_FILE_LINES = 350;
const MAX_FUNCTION_LINES = 120;

/** The entries and the step context; src/cli/ is the successor of src/local/cli.ts (args.ts came whole from src/local/args.ts). */
const LIMITED_FILES = [
  'src/main.ts',
  'src/steps/context.ts',
  'src/steps/work.ts',
  'src/cli/index.ts',
  'src/cli/main.ts',
  'src/cli/run.ts',
  'src/cli/compose.ts',
  'src/cli/inspect.ts',
  'src/cli/eval.ts',
  'src/cli/doctor.ts',
  'src/cli/init.ts',
];

const FILE_EXCEPTIONS: Record<string, string> = {};

/** `file:function` → why it may be longer than MAX_FUNCTION_LINES for now. */
const FUNCTION_EXCEPTIONS: Record<string, string> = {};

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

/** A function's name as a person would search for it: its own, or the variable, property or class member it is. */
function nameOf(n: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  const own = n.name?.getText(sf);
  const parent = n.parent;
  const named =
    own ?? (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) ? parent.name.getText(sf) : undefined);
  const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  if (!named) return ts.isConstructorDeclaration(n) ? 'constructor' : `(anonymous at line ${line})`;
  return named;
}

/** Every function-like node with a body in src/, with its length in lines (its whole span, nested functions included). */
function functionLengths(): Array<{ key: string; lines: number }> {
  const out: Array<{ key: string; lines: number }> = [];
  for (const file of sources(join(root, 'src'))) {
    const rel = relative(root, file);
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      if (ts.isFunctionLike(n) && 'body' in n && n.body) {
        const lines = sf.getLineAndCharacterOfPosition(n.getEnd()).line - sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
        out.push({ key: `${rel}:${nameOf(n, sf)}`, lines });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

describe('the size rule', () => {
  const functions = functionLengths();

  it(`keeps every function in src/ at most ${MAX_FUNCTION_LINES} lines, but the named exceptions`, () => {
    const long = functions.filter((f) => f.lines > MAX_FUNCTION_LINES && !FUNCTION_EXCEPTIONS[f.key]).map((f) => `${f.key} (${f.lines} lines)`);
    expect(long).toEqual([]);
  });

  it(`keeps the entries, the step context and work.ts under ${MAX_FILE_LINES} lines, but the named exceptions`, () => {
    const long = LIMITED_FILES.map((f) => ({ f, lines: readFileSync(join(root, f), 'utf8').split('\n').length - 1 }))
      .filter(({ f, lines }) => lines >= MAX_FILE_LINES && !FILE_EXCEPTIONS[f])
      .map(({ f, lines }) => `${f} (${lines} lines)`);
    expect(long).toEqual([]);
  });

  it('lists no exception that no longer applies, so the list only shrinks', () => {
    const stale = [
      ...Object.keys(FUNCTION_EXCEPTIONS).filter((k) => !functions.some((f) => f.key === k && f.lines > MAX_FUNCTION_LINES)),
      ...Object.keys(FILE_EXCEPTIONS).filter((f) => readFileSync(join(root, f), 'utf8').split('\n').length - 1 < MAX_FILE_LINES),
    ];
    expect(stale).toEqual([]);
  });

  it('measures what it claims: a function of 121 lines is over the limit, one of 120 is not', () => {
    const body = (n: number) => `function f() {\n${'  x();\n'.repeat(n - 2)}}\n`;
    const measure = (text: string) => {
      const sf = ts.createSourceFile('f.ts', text, ts.ScriptTarget.Latest, true);
      const fn = sf.statements[0]!;
      return sf.getLineAndCharacterOfPosition(fn.getEnd()).line - sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line + 1;
    };
    expect(measure(body(121))).toBe(121);
    expect(measure(body(120))).toBe(120);
  });
});
