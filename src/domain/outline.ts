import { definitionIn, definitionLanguage } from './definitions';

/**
 * An outline of a source file: its definitions (functions, classes, types, methods) with their
 * line numbers, found by the patterns per language of definitions.ts. read_file shows it with the first
 * window of a file too large to show whole, so the model can page to what it needs. Not a
 * parser: a definition written unusually may be missed, and that costs only a page turn.
 */

/** Definitions shown at most, and bytes. */
export const OUTLINE_ENTRIES = 200;
export const OUTLINE_BYTES = 8000;
const ENTRY_CHARS = 120;

/** The outline of a file as lines `  <line>: <the definition line>`, capped; undefined for a language crew does not know. */
export function outline(path: string, lines: string[]): string | undefined {
  const defs = definitionLanguage(path);
  if (!defs) return undefined;
  const { language } = defs;
  const width = String(lines.length).length;
  const entries: string[] = [];
  let found = 0;
  let bytes = 0;
  // A `# comment` inside a fenced code block of a Markdown file is not a heading.
  let fenced = false;
  for (const [i, line] of lines.entries()) {
    if (defs.headings && /^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || line.length > 1000 || !definitionIn(defs, line)) continue;
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
    `Outline of the file (${defs.headings ? `${language} headings` : `${language} definitions found by pattern`}, line: text):`,
    ...entries,
    ...(more ? [`… ${more} more definitions; search for a name to find its line.`] : []),
  ].join('\n');
}
