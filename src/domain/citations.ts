/**
 * The critic's evidence, held to the tree it judged. Evidence may cite a file (`src/a.ts`, in
 * backticks), a line or a range (`src/a.ts:5`, `src/a.ts:5-9`), and quote code in backticks
 * after such a citation. crew checks each citation against the committed tree: a file that is
 * not there, a line past its end, or a quote the cited lines do not contain makes the
 * evaluation not met. Pure: the caller reads the files.
 */
import { linesOf } from './file-window';

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
const CITATION_ONLY = new RegExp(String.raw`^${PATH}(?::\d+(?:-\d+)?)?$`);
const BACKTICKED_PATH = new RegExp(String.raw`\`(${PATH})\``, 'g');
/** A quote right after the citation: only spaces or a colon or dash between them. */
const QUOTE = /^\s*[:—–-]?\s*`([^`\n]+)`/;
/**
 * Extensions of files people cite. A name with a slash is a path whatever its extension; without
 * one, `JSON.parse`, `res.status` or `api.example.com` are code and hosts, not files.
 */
const FILE_EXTENSIONS = new Set(
  'js jsx mjs cjs ts tsx mts cts py pyi go rb rs java kt kts swift c h cc cpp hpp cs php scala sh bash zsh ps1 sql md mdx rst txt json jsonc yml yaml toml ini cfg conf xml html htm css scss sass less vue svelte graphql proto lock env gradle'.split(
    ' ',
  ),
);
const looksLikeFile = (path: string) => path.includes('/') || FILE_EXTENSIONS.has(path.slice(path.lastIndexOf('.') + 1).toLowerCase());

/** The citations in one piece of evidence, in order. URLs, code like `JSON.parse` and host names are not citations. */
export function citationsIn(evidence: string): Citation[] {
  const text = evidence.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, (url) => ' '.repeat(url.length));
  const out: Citation[] = [];
  for (const m of text.matchAll(LINED)) {
    if (!looksLikeFile(m[1]!)) continue;
    const from = Number(m[2]);
    const to = m[3] === undefined ? from : Number(m[3]);
    const quote = QUOTE.exec(text.slice(m.index! + m[0].length).replace(/^`/, ''))?.[1]?.trim();
    // A backticked citation after it is a citation of its own, not a quote of this one.
    out.push({ raw: m[0], path: normalise(m[1]!), from, to, ...(quote && !CITATION_ONLY.test(quote) ? { quote } : {}) });
  }
  for (const m of text.matchAll(BACKTICKED_PATH)) {
    const path = normalise(m[1]!);
    if (looksLikeFile(path) && !out.some((c) => c.path === path)) out.push({ raw: m[0], path });
  }
  return out;
}

const normalise = (path: string) => path.replace(/^\.\//, '');

/** Why a citation does not hold in a file (undefined: the file is not in the tree), or null when it does. */
export function citationProblem(c: Citation, text: string | undefined): string | null {
  if (text === undefined) return `${c.raw} cites ${c.path}, which is not in the tree crew judged`;
  if (c.from === undefined) return null;
  // Numbered as read_file numbers them (domain/file-window.ts), so a line the critic saw is the line checked.
  const lines = linesOf(text);
  const to = c.to ?? c.from;
  if (c.from < 1 || to < c.from) return `${c.raw} is not a line range`;
  if (to > lines.length) return `${c.raw} cites line ${to}, but ${c.path} has ${lines.length} line${lines.length === 1 ? '' : 's'}`;
  if (c.quote !== undefined) {
    // Spacing aside: a quote may space code differently from the file.
    const squash = (s: string) => s.replace(/\s+/g, '');
    const cited = lines.slice(c.from - 1, to);
    // An elided quote (`a(…) + b`) holds when its pieces appear in order.
    // A quote copied from read_file with its line number in front (`1500\tcode`) quotes the code.
    const numberedAs = /^(\d+)(?:\t|\s*→|:\s)\s*/.exec(c.quote);
    const quote = numberedAs && Number(numberedAs[1]) >= c.from && Number(numberedAs[1]) <= to ? c.quote.slice(numberedAs[0].length) : c.quote;
    const pieces = quote
      .split(/\.\.\.|…/)
      .map(squash)
      .filter(Boolean);
    const hay = squash(cited.join('\n'));
    let at = 0;
    const holds = pieces.every((p) => {
      const found = hay.indexOf(p, at);
      if (found < 0) return false;
      at = found + p.length;
      return true;
    });
    if (!holds) {
      return `${c.raw} does not contain \`${c.quote}\` (${c.from === to ? `line ${c.from} is` : `lines ${c.from}-${to} are`} \`${cited.join(' ').replace(/\s+/g, ' ').trim().slice(0, 120)}\`)`;
    }
  }
  return null;
}
