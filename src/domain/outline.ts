/**
 * An outline of a source file: its definitions (functions, classes, types, methods) with their
 * line numbers, found by regular expressions per language. read_file shows it with the first
 * window of a file too large to show whole, so the model can page to what it needs. Not a
 * parser: a definition written unusually may be missed, and that costs only a page turn.
 */

/** The definition lines of each language crew outlines; the line itself is shown, so no capture is needed. */
const DEFINITIONS: Array<{ language: string; extensions: string[]; patterns: RegExp[] }> = [
  {
    language: 'TypeScript/JavaScript',
    extensions: ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'],
    patterns: [
      /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*[\w$]+/,
      /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+[\w$]+/,
      /^\s*(?:export\s+)?(?:declare\s+)?(?:interface|type|enum|namespace)\s+[\w$]+/,
      /^(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)/,
      /^(?:export\s+)?(?:const|let|var)\s+[A-Z][\w$]*\s*(?::[^=]+)?=/,
      // A method in a class body: indented name, parameters, an opening brace; not a keyword.
      /^\s+(?:(?:public|private|protected|static|readonly|override|abstract|async|get|set)\s+)*(?!(?:if|for|while|switch|catch|return|function|else|do|try|with)\b)[\w$]+\s*(?:<[^>]*>)?\([^;]*\)\s*(?::\s*[^={;]+)?\{\s*$/,
    ],
  },
  {
    language: 'Python',
    extensions: ['py', 'pyi'],
    patterns: [/^\s*(?:async\s+)?def\s+\w+/, /^\s*class\s+\w+/],
  },
  {
    language: 'Go',
    extensions: ['go'],
    patterns: [/^func\s+(?:\([^)]*\)\s*)?\w+/, /^type\s+\w+/],
  },
  {
    language: 'Rust',
    extensions: ['rs'],
    patterns: [
      /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+\w+/,
      /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|trait|union|mod|type)\s+\w+/,
      /^\s*(?:unsafe\s+)?impl\b/,
    ],
  },
  {
    language: 'Ruby',
    extensions: ['rb'],
    patterns: [/^\s*def\s+[\w.?!=]+/, /^\s*(?:class|module)\s+[A-Z]\w*/],
  },
  {
    language: 'Java/Kotlin/C#',
    extensions: ['java', 'kt', 'kts', 'cs'],
    patterns: [
      /^\s*(?:(?:public|private|protected|internal|static|final|abstract|sealed|open|data|partial)\s+)*(?:class|interface|enum|record|object|struct)\s+\w+/,
      /^\s*(?:(?:public|private|protected|internal|static|final|abstract|override|suspend|async|virtual|synchronized)\s+)+[\w<>[\],.? ]*\s*\w+\s*\([^;]*$/,
      /^\s*(?:(?:private|public|internal|override|suspend)\s+)*fun\s+[\w.<>]+/,
    ],
  },
  {
    language: 'Markdown',
    extensions: ['md', 'markdown', 'mdx'],
    patterns: [/^#{1,6}\s+\S/],
  },
];

/** Definitions shown at most, and bytes. */
export const OUTLINE_ENTRIES = 200;
export const OUTLINE_BYTES = 8000;
const ENTRY_CHARS = 120;

/** The language crew can outline for a path, if any. */
export function outlineLanguage(path: string): string | undefined {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return DEFINITIONS.find((d) => d.extensions.includes(ext))?.language;
}

/** The outline of a file as lines `  <line>: <the definition line>`, capped; undefined for a language crew does not know. */
export function outline(path: string, lines: string[]): string | undefined {
  const language = outlineLanguage(path);
  const defs = DEFINITIONS.find((d) => d.language === language);
  if (!defs) return undefined;
  const width = String(lines.length).length;
  const entries: string[] = [];
  let found = 0;
  let bytes = 0;
  // A `# comment` inside a fenced code block of a Markdown file is not a heading.
  let fenced = false;
  for (const [i, line] of lines.entries()) {
    if (language === 'Markdown' && /^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || line.length > 1000 || !defs.patterns.some((p) => p.test(line))) continue;
    found++;
    const indent = Math.min(line.length - line.trimStart().length, 8);
    const text = line.trim();
    const entry = `${String(i + 1).padStart(width)}: ${' '.repeat(indent)}${text.length > ENTRY_CHARS ? `${text.slice(0, ENTRY_CHARS)}…` : text}`;
    if (entries.length < OUTLINE_ENTRIES && bytes + entry.length + 1 <= OUTLINE_BYTES) {
      entries.push(entry);
      bytes += Buffer.byteLength(entry) + 1;
    }
  }
  if (!found) return undefined;
  const more = found - entries.length;
  return [
    `Outline of the file (${language === 'Markdown' ? 'Markdown headings' : `${language} definitions found by pattern`}, line: text):`,
    ...entries,
    ...(more ? [`… ${more} more definitions; search for a name to find its line.`] : []),
  ].join('\n');
}
