import { inert } from './inert';

/** Small pure helpers for the markdown crew posts. */

/** GitHub rejects comment and PR bodies over 65,536 characters (crew counts UTF-8 bytes, to be safe either way). */
export const BODY_LIMIT = 65_536;

/** What crew adds to a comment after folding (the idempotency key, adapters/github/forge.ts) must still fit. */
export const KEY_ROOM = 64;

export function hiddenMarker(name: string, fields: Record<string, string | number> = {}): string {
  const attrs = Object.entries(fields)
    .map(([k, v]) => ` ${k}=${v}`)
    .join('');
  return `<!-- crew:${name}${attrs} -->`;
}

/**
 * A comment as a reader sees it where nothing hides HTML comments (a terminal): crew's markers
 * are machine data, each on a line of its own, so those lines are left out. The rest is shown as
 * it was written.
 */
export function withoutMarkerLines(body: string): string {
  const isMarker = (line: string) => (line.startsWith('<!-- crew:') || line.startsWith('<!-- /crew:')) && line.endsWith(' -->');
  return body
    .split('\n')
    .filter((line) => !isMarker(line))
    .join('\n');
}

export function markerPrefix(name: string): string {
  return `<!-- crew:${name}`;
}

/** The start of the hidden idempotency key on every comment crew posts (adapters/github/forge.ts). */
export const POST_KEY_MARK = '<!-- crew:post key=';

/** Whether a comment was posted by crew: people do not type its idempotency key (a quote reply copies no markup). */
export function postedByCrew(body: string): boolean {
  return body.includes(POST_KEY_MARK);
}

export function details(summary: string, body: string, open = false): string {
  return `<details${open ? ' open' : ''}><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

/** Escapes a value for a table cell. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Keeps text inside one code fence even if it contains backticks. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/** Inline code that holds any one-line text, backticks included (a name crew did not choose, such as a file's). */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r?\n/g, ' ');
  const ticks = '`'.repeat(Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  const pad = /^`|`$|^ .* $/.test(flat) ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Tracks, line by line, whether a code fence or <details> element is open. */
class OpenTracker {
  fence: string | null = null;
  details = 0;
  line(line: string): void {
    const f = FENCE.exec(line)?.[1];
    if (this.fence !== null) {
      if (f && f[0] === this.fence[0] && f.length >= this.fence.length && line.trim() === f) this.fence = null;
    } else if (f) this.fence = f;
    else this.details = Math.max(0, this.details + (line.match(/<details[\s>]/g)?.length ?? 0) - (line.match(/<\/details>/g)?.length ?? 0));
  }
  get inside(): boolean {
    return this.fence !== null || this.details > 0;
  }
}

function openConstructs(text: string): { fence: string | null; details: number } {
  const t = new OpenTracker();
  for (const line of text.split('\n')) t.line(line);
  return { fence: t.fence, details: t.details };
}

/** Closes whatever fence or <details> a cut left open, so the rest of the body renders as written. */
function closeOpen(text: string): string {
  const open = openConstructs(text);
  return `${text}${open.fence ? `\n${open.fence}` : ''}${'\n\n</details>'.repeat(open.details)}`;
}

/** The first `max` characters of `text`, cut at a line break, with nothing left open. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  return closeOpen(text.slice(0, cut > max / 2 ? cut : max));
}

const QUOTE = /^ {0,3}>/;
/** Lines that start a block of their own, so they end a quoted paragraph instead of continuing it. */
const NEW_BLOCK = /^ {0,3}(?:[-+*] |\d{1,9}[.)] |#{1,6}(?:\s|$)|(?:`{3,}|~{3,})|(?:[-*_] *){3,}$)/;

/**
 * What a person wrote themselves: block quotes left out, as GitHub renders them. A quote is
 * every line starting with `>`, and the plain lines a quoted paragraph runs on into without
 * a `>` of their own (a "lazy continuation"), up to a blank line or a new block. Lines in a
 * code fence are code, not quotes.
 */
export function withoutQuotes(body: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let quotedParagraph = false;
  for (const line of body.split(/\r?\n/)) {
    const f = FENCE.exec(line)?.[1];
    if (fence !== null) {
      out.push(line);
      if (f && f[0] === fence[0] && f.length >= fence.length && line.trim() === f) fence = null;
      continue;
    }
    if (QUOTE.test(line)) {
      quotedParagraph = line.replace(QUOTE, '').trim() !== '';
      continue;
    }
    if (quotedParagraph && line.trim() !== '' && !NEW_BLOCK.test(line)) continue;
    quotedParagraph = false;
    if (f) fence = f;
    out.push(line);
  }
  return out.join('\n').trim();
}

/**
 * Top-level blocks of a markdown body, split at blank lines, never inside a code fence, a
 * <details> element or a section crew marks with `<!-- crew:x -->` … `<!-- /crew:x -->`.
 */
export function markdownBlocks(body: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let open = new OpenTracker();
  let section: string | null = null;
  for (const line of body.split('\n')) {
    if (!open.inside && section === null && line.trim() === '') {
      if (current.length) blocks.push(current.join('\n'));
      current = [];
      open = new OpenTracker();
      continue;
    }
    current.push(line);
    open.line(line);
    const start = /^<!-- crew:([\w-]+) -->$/.exec(line.trim());
    if (section === null && start && body.includes(`<!-- /crew:${start[1]} -->`)) section = start[1]!;
    else if (section !== null && line.trim() === `<!-- /crew:${section} -->`) section = null;
  }
  if (current.length) blocks.push(current.join('\n'));
  return blocks;
}

/** A block folded into <details>: its summary kept, its text shortened, a link to all of it. */
function foldBlock(block: string, link: string, max: number): string {
  const details = /^<details[^>]*>\s*<summary>([\s\S]*?)<\/summary>\n?([\s\S]*?)<\/details>\s*$/.exec(block);
  // The first line lost its tags (a mention crew had made inert among them), so it is made inert again for the <summary>.
  const summary = details
    ? details[1]!.trim()
    : inert(
        block
          .split('\n')[0]!
          .replace(/^#+\s*/, '')
          .replace(/<[^>]*>/g, '')
          .slice(0, 100),
        'html',
      ) || 'Section';
  const inner = details ? details[2]!.trim() : block;
  return `<details><summary>${summary} (shortened)</summary>\n\n${shorten(inner, max)}\n\n…shortened to fit GitHub's limit: [the full text](${link}).\n\n</details>`;
}

/** A block that must stay: crew's markers and sections, and the closing keyword. */
const KEEP = /<!-- \/?crew:[\w-]+|\b(?:Closes|Fixes|Resolves) #\d+/;

/**
 * Fits a body under GitHub's 65,536-character limit by folding, not truncating. The
 * longest sections are shortened into <details> with a link to the full text; if that is
 * not enough they are left out with a note. The head (the first block), the tail (the
 * last two blocks, e.g. the commands or footer), crew's marked sections (the Merge section,
 * hidden markers) and the closing keyword are kept; no fence or <details> is left open.
 */
export function capBody(body: string, fullTextLink: string, limit = BODY_LIMIT): string {
  // GitHub does not say whether its limit counts UTF-16 units or bytes. UTF-8 bytes are never fewer,
  // so a body fits in bytes, whichever it is: a run on a Japanese issue must not get a 422.
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
  let room = limit;
  let out = capUnits(body, fullTextLink, room);
  while (bytes(out) > limit && room > 2000) {
    // Scale by the bytes each character takes in what came out; one less than that keeps it shrinking.
    room = Math.max(2000, Math.min(room - 1, Math.floor((out.length * limit) / bytes(out))));
    out = capUnits(body, fullTextLink, room);
  }
  return out;
}

function capUnits(body: string, fullTextLink: string, limit: number): string {
  if (body.length <= limit) return body;
  const blocks = markdownBlocks(body);
  const kept = blocks.map((b, i) => i === 0 || i >= blocks.length - 2 || KEEP.test(b));
  const total = () => blocks.reduce((n, b) => n + b.length + 2, 0);
  const byLength = (which: (i: number) => boolean) =>
    blocks
      .map((b, i) => [b.length, i] as const)
      .filter(([, i]) => which(i))
      .sort((a, b) => b[0] - a[0])
      .map(([, i]) => i);
  // 1. Fold the longest sections, then the kept ones that are not markers, until it fits.
  for (const pass of [(i: number) => !kept[i], (i: number) => kept[i]! && !/<!-- \/?crew:/.test(blocks[i]!)]) {
    for (const i of byLength(pass)) {
      if (total() <= limit) break;
      const size = Math.max(400, Math.min(2000, blocks[i]!.length - (total() - limit) - 200));
      if (blocks[i]!.length <= size + 300) continue;
      blocks[i] = foldBlock(blocks[i]!, fullTextLink, size);
    }
  }
  // 2. Still too long (very many sections): leave the longest foldable ones out with a note.
  for (const i of byLength((i) => !kept[i])) {
    if (total() <= limit) break;
    blocks[i] = `<sub>…a section is left out here to fit GitHub's limit: [the full text](${fullTextLink}).</sub>`;
  }
  const out = blocks.join('\n\n');
  if (out.length <= limit) return out;
  // 3. Only marked sections of enormous size are left: cut, keeping the last block (footer or markers).
  const last = blocks.at(-1)!.length < limit / 4 ? `\n\n${blocks.at(-1)}` : '';
  const note = `\n\n…the rest is cut to fit GitHub's ${limit.toLocaleString('en-US')}-character limit. [Read the full text](${fullTextLink}).`;
  return `${shorten(out.slice(0, out.length - last.length), limit - note.length - last.length - 200)}${note}${last}`;
}

export function progressBar(done: number, total: number, width = 20): string {
  const filled = total === 0 ? 0 : Math.round((done / total) * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${done}/${total}`;
}
