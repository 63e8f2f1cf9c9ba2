/**
 * What edit_file answers: on success the changed region, numbered, with a few lines around it;
 * on a miss, the nearest text in the file (first the same text spaced differently, then the most
 * similar run of lines) with its line numbers; with several matches, the line of each. Pure.
 */
import { linesOf } from './file-window';

/** Lines of context shown around a change or a near match. */
const CONTEXT = 3;
/** Changed regions shown after a replace_all; the rest are counted. */
const REGIONS = 5;
/** Lines of one region shown at most. */
const REGION_LINES = 60;
/** A run of lines this similar (0..1, by character pairs) is named as the nearest match. */
const SIMILAR = 0.5;
/** Comparisons at most when looking for the nearest match (file lines × lines of old_string). */
const COMPARISONS = 400_000;

const n = (x: number) => x.toLocaleString('en-US');

/** The 1-based line a character offset is on. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** Every offset where `needle` occurs, without overlaps (as a replacement would use them). */
export function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

/** Lines from..to (1-based, clamped) of `lines`, numbered as read_file numbers them. */
export function numbered(lines: string[], from: number, to: number): string[] {
  const a = Math.max(1, from);
  const b = Math.min(lines.length, to);
  const width = String(b).length;
  return Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => `${String(a + i).padStart(width)}\t${shortened(lines[a + i - 1]!.replace(/\r$/, ''))}`);
}

/** A line of an answer longer than this is cut (a minified file would fill it). */
const SHOWN_LINE_CHARS = 500;
const shortened = (line: string) => (line.length > SHOWN_LINE_CHARS ? `${line.slice(0, SHOWN_LINE_CHARS)}… [line cut: ${n(line.length)} characters]` : line);

/** A near match shows at most this many of its lines. */
const MATCH_LINES = 30;

/** Lines a..b numbered, at most MATCH_LINES of them, with a count of the rest. */
function excerpt(lines: string[], a: number, b: number): string {
  const last = Math.min(b, a + MATCH_LINES - 1);
  return [...numbered(lines, a, last), ...(b > last ? [`… (${n(b - last)} more lines; read_file shows them)`] : [])].join('\n');
}

const listLines = (ls: number[]) => (ls.length === 1 ? `line ${ls[0]}` : `lines ${ls.slice(0, -1).join(', ')} and ${ls.at(-1)}`);

/** The answer to an edit that matched more than once without replace_all. */
export function severalMatches(path: string, text: string, at: number[]): string {
  const ls = at.map((o) => lineAt(text, o));
  const shown = ls.slice(0, 20);
  return `old_string occurs ${at.length} times in ${path}, at ${listLines(shown)}${ls.length > shown.length ? ` (and ${ls.length - shown.length} more)` : ''}. Include more of the surrounding lines in old_string so it matches once, or set replace_all to true to change every one.`;
}

/**
 * The regions a replacement changed, in the new text: for each replaced offset (in the old text),
 * the new lines with CONTEXT lines around, numbered in the new file.
 */
export function changedRegions(oldText: string, at: number[], oldString: string, newString: string): string {
  const newText = applyAt(oldText, at, oldString, newString);
  const lines = linesOf(newText);
  const newLines = newString === '' ? 0 : newString.split('\n').length - (newString.endsWith('\n') ? 1 : 0);
  const regions: Array<[number, number]> = [];
  let shift = 0;
  for (const o of at) {
    const first = lineAt(newText, o + shift);
    const last = Math.max(first, first + newLines - 1);
    regions.push([first, last]);
    shift += newString.length - oldString.length;
  }
  // Regions that touch are shown as one.
  const merged: Array<[number, number]> = [];
  for (const [a, b] of regions) {
    const prev = merged.at(-1);
    if (prev && a - CONTEXT <= prev[1] + CONTEXT + 1) prev[1] = Math.max(prev[1], b);
    else merged.push([a, b]);
  }
  const shown = merged.slice(0, REGIONS).map(([a, b]) => {
    const from = a - CONTEXT;
    const to = Math.min(b + CONTEXT, from + REGION_LINES - 1);
    const body = numbered(lines, from, to);
    return `${b + CONTEXT > to ? `${body.join('\n')}\n… (${n(b + CONTEXT - to)} more changed lines; read_file shows them)` : body.join('\n')}`;
  });
  const more = merged.length - shown.length;
  return [
    ...shown.flatMap((s, i) => (i ? ['…', s] : [s])),
    ...(more ? [`… and ${more} more changed region${more === 1 ? '' : 's'} (search for the new text to see them)`] : []),
  ].join('\n');
}

/** `text` with `oldString` at each offset replaced by `newString` (taken literally: no `$&`). */
export function applyAt(text: string, at: number[], oldString: string, newString: string): string {
  let out = '';
  let from = 0;
  for (const o of at) {
    out += text.slice(from, o) + newString;
    from = o + oldString.length;
  }
  return out + text.slice(from);
}

const squash = (s: string) => s.replace(/\s+/g, '');

function pairs(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const p = s.slice(i, i + 2);
    m.set(p, (m.get(p) ?? 0) + 1);
  }
  return m;
}

/**
 * Similarity of two texts by their character pairs, spacing ignored: the mean of Sørensen–Dice
 * and the share of the wanted text's pairs the other holds (a short old_string inside a long line).
 */
function similarity(a: Map<string, number>, aSize: number, b: string): number {
  const bs = squash(b);
  if (aSize === 0 || bs.length < 2) return 0;
  const bp = pairs(bs);
  let common = 0;
  for (const [p, c] of bp) common += Math.min(c, a.get(p) ?? 0);
  return ((2 * common) / (aSize + bs.length - 1) + common / aSize) / 2;
}

/** What a miss answers: the same text spaced differently, else the most similar run of lines, else a hint. */
export function nearestMatch(path: string, text: string, oldString: string): string {
  const lines = linesOf(text);
  const want = linesOf(oldString).filter((l, i, a) => l.trim() !== '' || (i > 0 && i < a.length - 1));
  const k = Math.max(1, want.length);
  const target = squash(want.join('\n'));
  const miss = `old_string was not found in ${path}.`;
  if (!target) return `${miss} It holds only white space; include the text you want to change.`;
  // Spacing aside: where the file without its white space holds the text without its own.
  const squashed = lines.map(squash);
  // ends[i]: where line i+1 ends in the squashed text, to find a character's line by binary search.
  const ends: number[] = [];
  for (const sq of squashed) ends.push((ends.at(-1) ?? 0) + sq.length);
  const lineOfChar = (at: number) => {
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! > at) hi = mid;
      else lo = mid + 1;
    }
    return lo + 1;
  };
  const found = squashed.join('').indexOf(target);
  if (found >= 0) {
    const a = lineOfChar(found);
    const b = lineOfChar(found + target.length - 1);
    return `${miss} The same text, spaced differently (indentation, spaces or line breaks), is at lines ${a}-${b}:\n${excerpt(lines, a, b)}\nCopy old_string from these lines exactly, white space included.`;
  }
  // The most similar run of k lines, within a bounded number of comparisons.
  const tp = pairs(target);
  const step = Math.max(1, Math.ceil((lines.length * k) / COMPARISONS));
  let best = { at: -1, score: 0 };
  for (let i = 0; i + k <= lines.length; i += step) {
    const score = similarity(tp, target.length - 1, lines.slice(i, i + k).join('\n'));
    if (score > best.score) best = { at: i, score };
  }
  if (best.at < 0 || best.score < SIMILAR) return `${miss} No part of the file is close to it: read the file (read_file) and copy the text exactly.`;
  return `${miss} The closest text (${Math.round(best.score * 100)}% alike) is at lines ${best.at + 1}-${best.at + k}:\n${excerpt(lines, best.at + 1 - (k === 1 ? 1 : 0), best.at + k + (k === 1 ? 1 : 0))}\nIf that is the place, copy old_string from it exactly, white space included.`;
}
