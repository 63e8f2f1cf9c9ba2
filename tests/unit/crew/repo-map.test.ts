import { describe, expect, it } from 'vitest';
import { definitionsOf, filesToRead, mentionsIn, rankFiles, repositoryMap } from '../../../src/domain/repo-map';
import { repositoryScripts } from '../../../src/domain/repo-scripts';

/** 460 asset and doc files that sort before `src/`, as SymPy's `.github`, `bin`, `data` and `doc/` do. */
const clutter = [
  ...Array.from({ length: 200 }, (_, i) => `assets/img-${String(i).padStart(3, '0')}.png`),
  ...Array.from({ length: 200 }, (_, i) => `docs/page-${String(i).padStart(3, '0')}.md`),
  ...Array.from({ length: 60 }, (_, i) => `.github/ISSUE_TEMPLATE/t-${String(i).padStart(2, '0')}.md`),
];
const source: Record<string, string> = {
  'src/index.ts':
    "import { slugify } from './text/slug';\nimport { parseConfig } from './config';\nexport function main(): void {\n  parseConfig(slugify('x'));\n}\n",
  'src/text/slug.ts': 'export function slugify(s: string): string {\n  return s.toLowerCase();\n}\n',
  'src/config.ts':
    "import { slugify } from './text/slug';\nexport interface Config { name: string }\nexport function parseConfig(s: string): Config {\n  return { name: slugify(s) };\n}\n",
  'src/unused.ts': 'export const lonely = 1;\n',
  'tests/slug.test.ts': "import { slugify } from '../src/text/slug';\ntest('slug', () => slugify('A'));\n",
};
const files = [...clutter, ...Object.keys(source), 'package.json', 'README.md'].sort();
const contents = new Map(Object.entries(source));

describe('definitions by language', () => {
  it('finds functions, classes, types and constants in TS/JS, Python, Go and Rust, with their lines', () => {
    const ts = definitionsOf(
      'a.ts',
      'export async function go() {}\nclass Box<T> {}\nexport type Id = string;\nexport interface Port {}\nexport const LIMIT = 3;\nconst run = async (x) => x;\n  const local = 1;\n',
    );
    expect(ts.map((d) => [d.name, d.line])).toEqual([
      ['go', 1],
      ['Box', 2],
      ['Id', 3],
      ['Port', 4],
      ['LIMIT', 5],
      ['run', 6],
    ]);
    expect(definitionsOf('m.py', 'MAX_READ = 5\nclass Expr(Basic):\n    def simplify(self):\n        pass\nasync def fetch():\n').map((d) => d.name)).toEqual([
      'MAX_READ',
      'Expr',
      'simplify',
      'fetch',
    ]);
    expect(definitionsOf('m.go', 'package x\nfunc (s *Server) Serve() error {\ntype Server struct {\nfunc New() *Server {\n').map((d) => d.name)).toEqual([
      'Serve',
      'Server',
      'New',
    ]);
    expect(
      definitionsOf('lib.rs', 'pub fn parse() {}\npub(crate) struct Token;\nenum Kind {}\nimpl Token {\n    pub async fn next(&self) {}\n').map((d) => d.name),
    ).toEqual(['parse', 'Token', 'Kind', 'next']);
    expect(definitionsOf('notes.md', 'function notCode() {}')).toEqual([]);
    expect(definitionsOf('a.ts', 'export function f() {}')[0]).toEqual({ name: 'f', line: 1, text: 'export function f() {}' });
  });
});

describe('what the request names', () => {
  it('paths, path tails, paths without their extension, dotted modules and bare file names', () => {
    const fs = [
      'sympy/core/expr.py',
      'sympy/core/__init__.py',
      'src/text/slug.ts',
      'lib/index.ts',
      'a/index.ts',
      'b/index.ts',
      'c/index.ts',
      'd/index.ts',
      'README.md',
    ];
    const m = mentionsIn('Fix `core/expr.py` and sympy.core, see src/text/slug, README.md and index.ts', fs);
    expect([...m.paths].sort()).toEqual(['README.md', 'src/text/slug.ts', 'sympy/core/__init__.py', 'sympy/core/expr.py']);
    expect(m.words.has('expr')).toBe(true);
  });
});

describe('the ranked repository map', () => {
  it('with 460 asset and doc files sorting before src/, names the source files, counts every top-level folder and says what it left out', () => {
    const map = repositoryMap({ files, contents, focus: 'Make the slugs shorter', budgetChars: 3000 });
    expect(map.length).toBeLessThanOrEqual(3000);
    for (const f of ['src/index.ts', 'src/text/slug.ts', 'src/config.ts']) expect(map).toContain(f);
    expect(map).toContain('Every top-level folder, with its file count: .github/ (60), assets/ (200), docs/ (200), src/ (4), tests/ (1), 2 at the root.');
    expect(map).toMatch(/Left out to keep the map short: \d+ more files \(\d+ in (assets|docs|\.github)\/.*\)\. list_files, search and read_file show them\./);
    // No png crowds out code: every file listed before the first asset is code or a manifest.
    const listed = map
      .split('\n\n')[1]!
      .split('\n')
      .filter((l) => !l.startsWith(' '));
    expect(listed.slice(0, 6)).toEqual(['src/text/slug.ts', 'src/config.ts', 'src/index.ts', 'src/unused.ts', 'package.json', 'tests/slug.test.ts']);
  });

  it('puts the file the request names first, then the files whose definitions the rest use', () => {
    const ranked = rankFiles({ files, contents, focus: 'The bug is in src/config.ts' }).map((r) => r.path);
    expect(ranked[0]).toBe('src/config.ts');
    // slugify is used by three files, `lonely` by none.
    expect(ranked.indexOf('src/text/slug.ts')).toBeLessThan(ranked.indexOf('src/unused.ts'));
    expect(ranked.indexOf('src/unused.ts')).toBeLessThan(ranked.indexOf('assets/img-000.png'));
    const map = repositoryMap({ files, contents, focus: 'The bug is in src/config.ts', budgetChars: 2000 });
    expect(map).toContain(
      'src/config.ts   (named in the request)\n  2│ export interface Config { name: string }\n  3│ export function parseConfig(s: string): Config {',
    );
  });

  it('an identifier the request names ranks the file that defines it first', () => {
    const ranked = rankFiles({ files, contents, focus: 'Rename `parseConfig` to readConfig' });
    expect(ranked[0]!.path).toBe('src/config.ts');
    expect(ranked[0]!.named).toBe(true);
    expect(ranked[0]!.defs[0]!.name).toBe('parseConfig');
  });

  it('keeps to a tiny budget with the header and the note, and an empty repository says so', () => {
    const map = repositoryMap({ files, contents, focus: '', budgetChars: 800 });
    expect(map.length).toBeLessThanOrEqual(800);
    expect(map).toContain('Left out to keep the map short:');
    expect(repositoryMap({ files: [], contents: new Map(), focus: 'x', budgetChars: 800 })).toContain('(empty repository)');
  });

  it('reads the named files first, then source from every top-level folder in turn', () => {
    const fs = [...Array.from({ length: 50 }, (_, i) => `big/m${i}.py`), 'dist/bundle.js', 'small/a.go', 'small/deep/b.go', 'docs/x.md', 'lib/named.rs'];
    const picked = filesToRead(fs, 'see lib/named.rs', 4);
    expect(picked[0]).toBe('lib/named.rs');
    expect(picked).toContain('small/a.go');
    expect(picked).not.toContain('docs/x.md');
    expect(picked).not.toContain('dist/bundle.js');
    expect(picked).toHaveLength(4);
  });
});

describe("the repository's scripts", () => {
  const root = (texts: Record<string, string>, extra: string[] = []) => ({ names: [...Object.keys(texts), ...extra], read: (n: string) => texts[n] });

  it('lists package.json scripts, Makefile targets, pyproject scripts and tool sections, Cargo and go', () => {
    const lines = repositoryScripts(
      root(
        {
          'package.json': JSON.stringify({ scripts: { test: 'vitest run', 'test:unit': 'vitest run tests/unit', lint: 'eslint .' } }),
          Makefile: '.PHONY: check\ncheck: lint\n\tnpm run lint\nbuild docs:\n\techo\nVAR := 1\n%.o: %.c\n',
          'pyproject.toml':
            '[project]\nname = "x"\n[project.scripts]\nxcli = "x.cli:main"\n[tool.pytest.ini_options]\naddopts = "-q"\n[tool.ruff]\nline-length = 100\n',
          'Cargo.toml': '[package]\nname = "x"\n[[bin]]\nname = "xtool"\n',
          'go.mod': 'module example.com/x\n\ngo 1.22\n',
        },
        ['package-lock.json'],
      ),
    );
    expect(lines).toContain('package.json scripts (run with `npm run <name>`, or the package manager below):');
    expect(lines).toContain('  test:unit: vitest run tests/unit');
    expect(lines).toContain('Makefile targets (run with `make <target>`): check, build, docs');
    expect(lines).toContain('pyproject.toml: tool sections for pytest, ruff; scripts:');
    expect(lines).toContain('  [project.scripts] xcli = "x.cli:main"');
    expect(lines).toContain('Cargo.toml (cargo build, cargo test; binaries: "xtool")');
    expect(lines).toContain('go.mod (module example.com/x): go build ./..., go test ./...');
    expect(lines.find((l) => l.startsWith('Checks that would run from these:'))).toContain('`npm test`');
  });

  it('is empty for a repository with none of those files', () => {
    expect(repositoryScripts(root({ 'README.md': '# x' }))).toEqual([]);
  });
});
