import { describe, expect, it } from 'vitest';
import { DEFINITION_LANGUAGES, definitionIn, definitionLanguage } from '../../../src/domain/definitions';
import { outline } from '../../../src/domain/outline';
import { definitionsOf } from '../../../src/domain/repo-map';

/**
 * One table of definition patterns (domain/definitions.ts) for read_file's outline and the repository
 * map. Each language has a sample with every form either of them recognised before they shared it: a
 * line and the name it defines (null where the line names none, as a Rust `impl`).
 */
const SAMPLES: Record<string, { path: string; lines: Array<[string, string | null]> }> = {
  'TypeScript/JavaScript': {
    path: 'src/a.ts',
    lines: [
      ['export async function go() {}', 'go'],
      ['function* steps() {}', 'steps'],
      ['export default abstract class Box<T> {}', 'Box'],
      ['export interface Port {}', 'Port'],
      ['export type Id = string;', 'Id'],
      ['export declare namespace Tools {', 'Tools'],
      ['const enum Kind {', 'Kind'],
      ['export const limit = 3;', 'limit'],
      ['const run = async (x: number): Promise<number> => x;', 'run'],
      ['let handler: Handler = function () {', 'handler'],
      ['const DEFINITIONS: Array<{ a: string }> = [', 'DEFINITIONS'],
      ['  async load(path: string): Promise<void> {', 'load'],
    ],
  },
  Python: {
    path: 'pkg/m.py',
    lines: [
      ['MAX_READ = 5', 'MAX_READ'],
      ['class Expr(Basic):', 'Expr'],
      ['    def simplify(self):', 'simplify'],
      ['async def fetch():', 'fetch'],
    ],
  },
  Go: {
    path: 'server.go',
    lines: [
      ['func (s *Server) Serve() error {', 'Serve'],
      ['type Server struct {', 'Server'],
      ['\tHandler interface {', 'Handler'],
      ['var ErrClosed = errors.New("closed")', 'ErrClosed'],
      ['const maxConns = 10', 'maxConns'],
    ],
  },
  Rust: {
    path: 'src/lib.rs',
    lines: [
      ['pub(crate) async fn parse() {}', 'parse'],
      ['pub struct Token;', 'Token'],
      ['mod tests {', 'tests'],
      ['pub static MAX_DEPTH: usize = 8;', 'MAX_DEPTH'],
      ['macro_rules! ensure {', 'ensure'],
      ['impl<T> Display for Token<T> {', null],
    ],
  },
  Ruby: {
    path: 'lib/box.rb',
    lines: [
      ['module Storage', 'Storage'],
      ['  class Box < Base', 'Box'],
      ['    def self.open?(path)', 'open?'],
      ['    def size', 'size'],
    ],
  },
  'Java/Kotlin/C#': {
    path: 'src/Main.java',
    lines: [
      ['public final class Main {', 'Main'],
      ['    public static List<String> names(int n) {', 'names'],
      ['    private suspend fun <T : Comparable<T>> sorted(xs: List<T>) =', 'sorted'],
    ],
  },
  Markdown: {
    path: 'docs/guide.md',
    lines: [['## Getting started', 'Getting started']],
  },
};

describe('one table of definition patterns, for the outline and the repository map', () => {
  it('has a sample for every language, and every pattern finds a definition in its sample', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(DEFINITION_LANGUAGES.map((l) => l.language).sort());
    for (const language of DEFINITION_LANGUAGES) {
      const sample = SAMPLES[language.language]!;
      expect(definitionLanguage(sample.path), sample.path).toBe(language);
      for (const p of language.patterns)
        expect(
          sample.lines.some(([line]) => p.test(line)),
          `${language.language}: ${p}`,
        ).toBe(true);
      for (const [line, name] of sample.lines) expect(definitionIn(language, line), line).toEqual(name === null ? {} : { name });
    }
  });

  it("the outline shows every sample's definition line, and the map lists every named one of a code language (Markdown's headings are the outline's only)", () => {
    for (const language of DEFINITION_LANGUAGES) {
      const { path, lines } = SAMPLES[language.language]!;
      const text = lines.map(([line]) => line);
      const shown = outline(path, text)!.split('\n').slice(1);
      expect(shown, language.language).toHaveLength(text.length);
      expect(definitionsOf(path, text.join('\n')).map((d) => d.name)).toEqual(
        language.headings ? [] : lines.flatMap(([, name]) => (name === null ? [] : [name])),
      );
    }
  });

  it('a line that defines nothing is no definition', () => {
    const plain: Array<[string, string]> = [
      ['a.ts', '  if (ready) {'],
      ['a.ts', '  const local = 1;'],
      ['m.py', 'x = 1'],
      ['m.go', 'package x'],
      ['lib.rs', 'let x = 1;'],
      ['b.rb', '  puts "def"'],
      ['M.java', '    return names(3);'],
      ['guide.md', 'Not a #heading'],
    ];
    for (const [path, line] of plain) expect(definitionIn(definitionLanguage(path)!, line), `${path}: ${line}`).toBeUndefined();
  });
});
