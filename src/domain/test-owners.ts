import { isTestFile } from './tamper';
import { testOfKey } from './test-results/types';

/**
 * Who owns a test that already failed on the base (#50): a command criterion that fails the
 * same way before and after crew's changes is no task's fault, but when the issue asks for it
 * to pass, a task whose files are the code that test exercises is the one to fix it. The code a
 * test exercises is what it imports, resolved to repository files, and what those import in
 * turn. Pure rules, no model; the critic's localisation (steps/localise.ts) reads the files.
 */

/** A task as ownership reads it: the files the plan names for it, the files it changed, and its words. */
export interface OwnableTask {
  id: string;
  files: string[];
  changedFiles: string[];
  /** Its title, description and criteria: a task meant to fix a test usually names it. */
  text: string;
}

export interface TestOwners {
  /** The tasks that go back, in plan order. Empty: no task owns the failure. */
  tasks: string[];
  /** The failing test files. */
  tests: string[];
  /** The code those tests exercise that the owners' files hold. */
  code: string[];
}

/** How many imports deep the code under test is followed: far enough through an index that re-exports, not the whole repository. */
export const IMPORT_DEPTH = 3;

const JS_SOURCE = /\.[cm]?[jt]sx?$/i;
const JS_IMPORT = [
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\bvi\.mock\s*\(\s*['"]([^'"]+)['"]/g,
];
const JS_EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];

/** The module names a file imports, as written (relative or not). JavaScript/TypeScript and Python; other languages: none. */
export function importsOf(path: string, text: string): string[] {
  const out = new Set<string>();
  if (JS_SOURCE.test(path)) {
    for (const re of JS_IMPORT) for (const m of text.matchAll(re)) out.add(m[1]!);
  } else if (/\.py$/i.test(path)) {
    for (const m of text.matchAll(/^\s*from\s+(\.*[\w.]*)\s+import\s+([\w\s,()*]+)/gm)) {
      out.add(m[1]!);
      // `from . import mean` and `from pkg import module`: the names may be modules themselves.
      for (const name of m[2]!.replace(/[()]/g, '').split(',')) {
        const n = name
          .trim()
          .split(/\s+as\s+/)[0]!
          .trim();
        if (/^\w+$/.test(n)) out.add(m[1]!.endsWith('.') ? `${m[1]}${n}` : `${m[1]}.${n}`);
      }
    }
    for (const m of text.matchAll(/^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)/gm)) for (const n of m[1]!.split(',')) out.add(n.trim());
  }
  return [...out];
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

function join(dir: string, rel: string): string | undefined {
  const parts = dir ? dir.split('/') : [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!parts.length) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

/** The repository file an import names, or undefined (a package, a missing file, a language not read here). */
export function resolveImport(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  if (JS_SOURCE.test(from)) {
    if (!spec.startsWith('.')) return undefined;
    const target = join(dirOf(from), spec);
    if (target === undefined) return undefined;
    // TypeScript's ESM style writes `./mean.js` for `./mean.ts`.
    const stem = target.replace(/\.[cm]?js$/, '');
    const candidates = [target, ...JS_EXTENSIONS.map((e) => stem + e), ...JS_EXTENSIONS.map((e) => `${target}/index${e}`)];
    return candidates.find((c) => files.has(c));
  }
  if (/\.py$/i.test(from)) {
    const dots = /^\.*/.exec(spec)![0].length;
    const rest = spec.slice(dots).split('.').filter(Boolean).join('/');
    let bases: string[];
    if (dots) {
      let dir: string | undefined = dirOf(from);
      for (let i = 1; i < dots && dir !== undefined; i++) dir = dir ? dirOf(dir) : undefined;
      if (dir === undefined) return undefined;
      bases = [dir];
    } else bases = ['', 'src', dirOf(from)];
    for (const b of bases) {
      const p = [b, rest].filter(Boolean).join('/');
      if (!p) continue;
      const hit = [`${p}.py`, `${p}/__init__.py`].find((c) => files.has(c));
      if (hit) return hit;
    }
  }
  return undefined;
}

/** The files the given ones import, and what those import, up to `depth` steps (the given files included). */
export function reachable(from: string[], read: (path: string) => string | undefined, files: ReadonlySet<string>, depth = IMPORT_DEPTH): string[] {
  const seen = new Set<string>(from);
  let frontier = [...from];
  for (let d = 0; d < depth && frontier.length; d++) {
    const next: string[] = [];
    for (const f of frontier) {
      const text = read(f);
      if (text === undefined) continue;
      for (const spec of importsOf(f, text)) {
        const hit = resolveImport(f, spec, files);
        if (hit && !seen.has(hit)) (seen.add(hit), next.push(hit));
      }
    }
    frontier = next;
  }
  return [...seen];
}

/**
 * The code the given tests exercise: what they reach through imports, test files left out (a
 * helper under test/ is not the code). A Go test exercises its package: the other Go files of its folder.
 */
export function codeUnderTest(tests: string[], read: (path: string) => string | undefined, files: ReadonlySet<string>, depth = IMPORT_DEPTH): string[] {
  const out = new Set(reachable(tests, read, files, depth));
  for (const t of tests) if (t.endsWith('_test.go')) for (const f of files) if (dirOf(f) === dirOf(t) && f.endsWith('.go')) out.add(f);
  return [...out].filter((f) => !isTestFile(f)).sort();
}

const mentions = (text: string, path: string) => new RegExp(`(^|[^\\w./-])${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/-]|\\.\\w)`).test(text);

/**
 * The tasks that own tests failing before crew's changes: those whose files (named in the plan
 * or changed) hold code the tests exercise. When some of them also name a failing test (the task
 * meant to fix it), only those: a task that merely touched an index the test imports through is
 * not the one the issue gave the test to. A task that only added tests never owns one.
 */
export function ownersOf(tasks: OwnableTask[], tests: string[], code: string[]): TestOwners {
  const inCode = new Set(code);
  const held = tasks.map((t) => ({ t, hits: [...new Set([...t.files, ...t.changedFiles])].filter((f) => inCode.has(f)).sort() })).filter((x) => x.hits.length);
  const naming = held.filter((x) => tests.some((f) => mentions(x.t.text, f) || x.t.files.includes(f)));
  const chosen = naming.length ? naming : held;
  return { tasks: chosen.map((x) => x.t.id), tests: [...tests].sort(), code: [...new Set(chosen.flatMap((x) => x.hits))].sort() };
}

/** The failing test files from test identities (testKey strings), or, when the runner reported none, the repository's test files its output names. */
export function failingTestFiles(keys: string[] | undefined, output: string, files: ReadonlySet<string>): string[] {
  if (keys?.length) {
    const named = new Set(keys.map((k) => testOfKey(k).file));
    // A Go test's identity names its package's folder: the folder's test files.
    return [...files].filter((f) => named.has(f) || (isTestFile(f) && named.has(dirOf(f)))).sort();
  }
  return [...files].filter((f) => isTestFile(f) && mentions(output, f)).sort();
}
