import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { parseAllDocuments } from 'yaml';
import { ownPath, ownProgram } from '../sandbox/own-programs';

/**
 * Whether a text still parses, for the languages crew recognises: JSON and YAML here, in crew's
 * process; JavaScript and TypeScript in a child of crew's own node (`node --check` for a module, `vm`
 * compiling CommonJS without running it, `module.stripTypeScriptTypes` first for TypeScript where node
 * has it); Python with `python3 -I -S`
 * (isolated: no site, no user or environment paths, no current folder on the path) reading the text
 * on stdin and calling `ast.parse`. Each only parses: no code of the repository runs, and the
 * programs read nothing but stdin. A language without a checker here, or a checker missing on the
 * machine, gives `undefined`.
 */
export type SyntaxResult = { ok: true } | { ok: false; line?: number; message: string };

export interface SyntaxCheck {
  language: string;
  check(text: string): Promise<SyntaxResult | undefined>;
}

const CHECK_MS = 10_000;

function runChecker(cmd: string | undefined, args: string[], text: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    if (!cmd) return resolve(undefined);
    const child = spawn(cmd, args, { cwd: tmpdir(), env: { PATH: ownPath() }, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), CHECK_MS);
    child.stdout.on('data', (d: Buffer) => void (out.length < 10_000 && (out += d.toString())));
    child.on('error', () => (clearTimeout(timer), resolve(undefined)));
    child.on('close', (code) => (clearTimeout(timer), resolve(code === 0 ? out : undefined)));
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
  });
}

function parsed(out: string | undefined): SyntaxResult | undefined {
  if (out === undefined) return undefined;
  try {
    const r = JSON.parse(out) as { skip?: boolean; line?: number | null; message?: string };
    if (r.skip) return undefined;
    if (r.message === undefined) return { ok: true };
    return { ok: false, message: r.message, ...(typeof r.line === 'number' && r.line > 0 ? { line: r.line } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * Run by crew's node with the text on stdin. A module first, then CommonJS (a function body, so a
 * top-level return parses): a file parses if either does; the module's error is the one told.
 * TypeScript has its types stripped first (the positions stay).
 */
const NODE_CHECK = String.raw`
const vm = require('node:vm');
const mod = require('node:module');
const kind = process.argv[1];
let src = require('node:fs').readFileSync(0, 'utf8');
const lineOf = (e) => { const m = /^[^\n]*?:(\d+)\r?\n/.exec(String(e && e.stack)); return m ? Number(m[1]) : null; };
const say = (o) => { process.stdout.write(JSON.stringify(o)); process.exit(0); };
if (kind === 'ts') {
  if (typeof mod.stripTypeScriptTypes !== 'function') say({ skip: true });
  try { src = mod.stripTypeScriptTypes(src); }
  catch (e) {
    if (e && e.code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX') { try { src = mod.stripTypeScriptTypes(src, { mode: 'transform' }); } catch (e2) { say({ line: lineOf(e2), message: String(e2.message) }); } }
    else say({ line: lineOf(e), message: String(e && e.message) });
  }
}
// A module first (node --check reads stdin and names the line), then CommonJS, wrapped in a function as node does.
const asModule = require('node:child_process').spawnSync(process.execPath, ['--no-warnings', '--check', '--input-type=module', '-'], { input: src, encoding: 'utf8', env: {}, timeout: 8000 });
if (kind !== 'cjs' && asModule.status === 0) say({});
try {
  new vm.Script('(function (exports, require, module, __filename, __dirname) {' + src + '\n})', { filename: 'file' });
  say({});
} catch (e) {
  if (kind === 'cjs') say({ line: lineOf(e), message: e.name + ': ' + e.message });
}
const err = String(asModule.stderr || '');
const line = /\[stdin\]:(\d+)/.exec(err);
const message = /^\w*Error: .*$/m.exec(err);
say({ line: line ? Number(line[1]) : null, message: message ? message[0] : err.trim().split('\n')[0] || 'does not parse' });
`;

const PYTHON_CHECK = [
  'import ast, json, sys',
  'try:',
  '    ast.parse(sys.stdin.buffer.read())',
  '    print("{}")',
  'except SyntaxError as e:',
  '    print(json.dumps({"line": e.lineno, "message": "%s: %s" % (type(e).__name__, e.msg)}))',
  'except (ValueError, RecursionError, MemoryError) as e:',
  '    print(json.dumps({"message": "%s: %s" % (type(e).__name__, e)}))',
].join('\n');

function nodeCheck(kind: 'js' | 'cjs' | 'ts'): SyntaxCheck['check'] {
  return async (text) => parsed(await runChecker(process.execPath, ['--no-warnings', '-e', NODE_CHECK, kind], text));
}

const json: SyntaxCheck = {
  language: 'JSON',
  async check(text) {
    try {
      JSON.parse(text);
      return { ok: true };
    } catch (e) {
      const message = (e as Error).message;
      const at = /position (\d+)/.exec(message);
      const line = /line (\d+)/.exec(message)?.[1] ?? (at ? String(text.slice(0, Number(at[1])).split('\n').length) : undefined);
      return { ok: false, message: `SyntaxError: ${message}`, ...(line ? { line: Number(line) } : {}) };
    }
  },
};

const yaml: SyntaxCheck = {
  language: 'YAML',
  async check(text) {
    const error = parseAllDocuments(text)
      .flatMap((d) => ('errors' in d ? d.errors : []))
      .at(0);
    if (!error) return { ok: true };
    const line = error.linePos?.[0]?.line;
    return { ok: false, message: `${error.code}: ${error.message.split('\n')[0]}`, ...(line ? { line } : {}) };
  },
};

/** The check for a path's language, if crew has one. */
export function syntaxCheckFor(path: string): SyntaxCheck | undefined {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (path.lastIndexOf('.') < 0) return undefined;
  switch (ext) {
    case 'js':
    case 'mjs':
      return { language: 'JavaScript', check: nodeCheck('js') };
    case 'cjs':
      return { language: 'JavaScript', check: nodeCheck('cjs') };
    case 'ts':
    case 'mts':
    case 'cts':
      return { language: 'TypeScript', check: nodeCheck('ts') };
    case 'py':
    case 'pyi':
      return { language: 'Python', check: async (text) => parsed(await runChecker(ownProgram('python3'), ['-I', '-S', '-c', PYTHON_CHECK], text)) };
    case 'json':
      return json;
    case 'yml':
    case 'yaml':
      return yaml;
    default:
      return undefined;
  }
}
