/**
 * The definition lines of each language crew reads code in, by line patterns (no parser): one table
 * for read_file's outline (outline.ts) and the repository map (repo-map.ts), so the two never drift.
 * A pattern's first group is the defined name, where the line names one (a Rust `impl` block shows in
 * an outline, but defines no name for the map). A definition written unusually may be missed.
 */
export interface DefinitionLanguage {
  /** As an outline names it. */
  language: string;
  extensions: readonly string[];
  patterns: readonly RegExp[];
  /** Prose, not code: the outline shows its headings; the map ranks it as a document. */
  headings?: true;
}

const JS_NAME = '([A-Za-z_$][\\w$]*)';

export const DEFINITION_LANGUAGES: readonly DefinitionLanguage[] = [
  {
    language: 'TypeScript/JavaScript',
    extensions: ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'],
    patterns: [
      new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:async\\s+)?function\\s*\\*?\\s*${JS_NAME}`),
      new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:abstract\\s+)?class\\s+${JS_NAME}`),
      new RegExp(`^\\s*(?:export\\s+)?(?:declare\\s+)?(?:const\\s+)?(?:interface|type|enum|namespace)\\s+${JS_NAME}`),
      new RegExp(`^\\s*export\\s+(?:declare\\s+)?(?:const|let|var)\\s+${JS_NAME}`),
      new RegExp(`^(?:const|let|var)\\s+${JS_NAME}\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=]+)?=>|[A-Za-z_$][\\w$]*\\s*=>)`),
      /^(?:const|let|var)\s+([A-Z][\w$]*)\s*(?::[^=]+)?=/,
      // A method in a class body: indented name, parameters, an opening brace; not a keyword.
      /^\s+(?:(?:public|private|protected|static|readonly|override|abstract|async|get|set)\s+)*(?!(?:if|for|while|switch|catch|return|function|else|do|try|with)\b)([\w$]+)\s*(?:<[^>]*>)?\([^;]*\)\s*(?::\s*[^={;]+)?\{\s*$/,
    ],
  },
  {
    language: 'Python',
    extensions: ['py', 'pyi'],
    patterns: [/^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/, /^\s*class\s+([A-Za-z_]\w*)/, /^([A-Z][A-Z0-9_]+)\s*(?::[^=]+)?=/],
  },
  {
    language: 'Go',
    extensions: ['go'],
    patterns: [
      /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/,
      /^type\s+([A-Za-z_]\w*)/,
      /^\s+([A-Z]\w*)\s+(?:struct|interface)\b/,
      /^(?:var|const)\s+([A-Za-z_]\w*)/,
    ],
  },
  {
    language: 'Rust',
    extensions: ['rs'],
    patterns: [
      /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)/,
      /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|trait|union|type|mod)\s+([A-Za-z_]\w*)/,
      /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+([A-Z_][A-Z0-9_]*)/,
      /^\s*macro_rules!\s*([A-Za-z_]\w*)/,
      /^\s*(?:unsafe\s+)?impl\b/,
    ],
  },
  {
    language: 'Ruby',
    extensions: ['rb'],
    patterns: [/^\s*def\s+(?:self\.)?([\w.?!=]+)/, /^\s*(?:class|module)\s+([A-Z]\w*)/],
  },
  {
    language: 'Java/Kotlin/C#',
    extensions: ['java', 'kt', 'kts', 'cs'],
    patterns: [
      /^\s*(?:(?:public|private|protected|internal|static|final|abstract|sealed|open|data|partial)\s+)*(?:class|interface|enum|record|object|struct)\s+(\w+)/,
      /^\s*(?:(?:public|private|protected|internal|static|final|abstract|override|suspend|async|virtual|synchronized)\s+)+[\w<>[\],.? ]*?\s*(\w+)\s*\([^;]*$/,
      /^\s*(?:(?:private|public|internal|override|suspend)\s+)*fun\s+(?:<[^(]*>\s*)?([\w.]+)/,
    ],
  },
  {
    language: 'Markdown',
    extensions: ['md', 'markdown', 'mdx'],
    patterns: [/^#{1,6}\s+(\S.*)/],
    headings: true,
  },
];

/** The table's entry for a path, by its extension; undefined for a language crew does not read. */
export function definitionLanguage(path: string): DefinitionLanguage | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot < 0) return undefined;
  const ext = base.slice(dot + 1).toLowerCase();
  return DEFINITION_LANGUAGES.find((d) => d.extensions.includes(ext));
}

/** Whether a line defines something, and the name it defines when it names one (the first pattern that matches decides). */
export function definitionIn(language: DefinitionLanguage, line: string): { name?: string } | undefined {
  for (const p of language.patterns) {
    const m = p.exec(line);
    if (m) return m[1] ? { name: m[1] } : {};
  }
  return undefined;
}
