/**
 * The critic's evidence, held to the tree it judged. Evidence may cite a file (`src/a.ts`, in
 * backticks), a line or a range (`src/a.ts:5`, `src/a.ts:5-9`), and quote code in backticks
 * after such a citation. crew checks each citation against the committed tree: a file that is
 * not there, a line past its end, or a quote the cited lines do not contain makes the
 * evaluation not met. Pure: the caller reads the files.
 */

export interface Citation {
  /** As written in the evidence, for messages. */
  raw: string;
  path: string;
  from?: number;
  to?: number;
  /** Code quoted in backticks right after the citation. */
  quote?: string;
}

// A path: segments of word characters, dots and dashes, the last with a letter-led extension.
const PATH = String.raw`(?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]*`;
const LINED = new RegExp(String.raw`(?<![\w/.:@-])(${PATH}):(\d+)(?:-(\d+))?(?![\w])`, 'g');
const BACKTICKED_PATH = new RegExp(String.raw`\`(${PATH})\``, 'g');
// A quote in the same clause as the citation: no `;` or sentence end between them.
const QUOTE = /^[^`;\n]{0,80}?`([^`\n]+)`/;
const WHOLE_PATH = new RegExp(`^${PATH}$`);

/** The citations in one piece of evidence, in order. URLs are not citations. */
export function citationsIn(evidence: string): Citation[] {
  const text = evidence.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, (url) => ' '.repeat(url.length));
  const out: Citation[] = [];
  for (const m of text.matchAll(LINED)) {
    const from = Number(m[2]);
    const to = m[3] === undefined ? from : Number(m[3]);
    const after = text.slice(m.index! + m[0].length).replace(/^`/, '');
    const gap = QUOTE.exec(after);
    const quote = gap && !/\.\s/.test(gap[0]) && !WHOLE_PATH.test(gap[1]!.trim()) ? gap[1]!.trim() : undefined;
    out.push({ raw: m[0], path: normalise(m[1]!), from, to, ...(quote ? { quote } : {}) });
  }
  for (const m of text.matchAll(BACKTICKED_PATH)) {
    const path = normalise(m[1]!);
    if (!out.some((c) => c.path === path)) out.push({ raw: m[0], path });
  }
  return out;
}

const normalise = (path: string) => path.replace(/^\.\//, '');

/** Why a citation does not hold in a file (undefined: the file is not in the tree), or null when it does. */
export function citationProblem(c: Citation, text: string | undefined): string | null {
  if (text === undefined) return `${c.raw} cites ${c.path}, which is not in the tree crew judged`;
  if (c.from === undefined) return null;
  const lines = text.replace(/\n$/, '').split('\n');
  const to = c.to ?? c.from;
  if (c.from < 1 || to < c.from) return `${c.raw} is not a line range`;
  if (to > lines.length) return `${c.raw} cites line ${to}, but ${c.path} has ${lines.length} line${lines.length === 1 ? '' : 's'}`;
  if (c.quote !== undefined) {
    // Spacing aside: a quote may space code differently from the file.
    const squash = (s: string) => s.replace(/\s+/g, '');
    const cited = lines.slice(c.from - 1, to);
    if (!squash(cited.join('\n')).includes(squash(c.quote))) {
      return `${c.raw} does not contain \`${c.quote}\` (${c.from === to ? `line ${c.from} is` : `lines ${c.from}-${to} are`} \`${cited.join(' ').replace(/\s+/g, ' ').trim().slice(0, 120)}\`)`;
    }
  }
  return null;
}
