/**
 * A window of a text file as read_file shows it: numbered lines (1-based, as the critic's
 * citations count them in domain/citations.ts), a header saying "lines a-b of N" and how to read
 * on, long lines cut with a note, and for a file too large to show whole, an outline of its
 * definitions with the first window. Pure.
 */
import { outline } from './outline';

/** A window holds at most this many lines, and this many bytes of numbered text, whichever comes first. */
export const WINDOW_LINES = 2000;
export const WINDOW_BYTES = 25_000;
/** A longer line is cut, with a note. */
export const LINE_CHARS = 2000;

const n = (x: number) => x.toLocaleString('en-US');

/** The lines of a text as the citations count them: a final newline ends the last line, it does not start another. */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\r?\n$/, '').split('\n');
}

export interface WindowRequest {
  /** 1-based first line; 1 by default. */
  start?: number;
  /** How many lines; WINDOW_LINES by default (and at most). */
  limit?: number;
}

/** The numbered window of `text` the request asks for, with its header; an error message (thrown) for a start past the end. */
export function fileWindow(path: string, text: string, req: WindowRequest = {}): string {
  const lines = linesOf(text);
  const total = lines.length;
  if (!total) return `${path}: the file is empty`;
  const start = req.start ?? 1;
  if (start > total) throw new Error(`start_line ${start} is past the end: ${path} has ${n(total)} line${total === 1 ? '' : 's'}`);
  const want = Math.min(req.limit ?? WINDOW_LINES, WINDOW_LINES);
  const last = Math.min(total, start + want - 1);
  const width = String(last).length;
  const shown: string[] = [];
  let bytes = 0;
  let cutLines = 0;
  for (let i = start; i <= last; i++) {
    let line = lines[i - 1]!.replace(/\r$/, '');
    if (line.length > LINE_CHARS) {
      line = `${line.slice(0, LINE_CHARS)}… [line cut: ${n(LINE_CHARS)} of ${n(line.length)} characters shown]`;
      cutLines++;
    }
    const entry = `${String(i).padStart(width)}\t${line}`;
    const size = Buffer.byteLength(entry) + 1;
    if (shown.length && bytes + size > WINDOW_BYTES) break;
    shown.push(entry);
    bytes += size;
  }
  const end = start + shown.length - 1;
  const whole = start === 1 && end === total;
  const stoppedByBytes = end < last;
  const header = whole
    ? `${path}: lines 1-${n(total)} of ${n(total)} (the whole file)`
    : `${path}: lines ${start}-${end} of ${n(total)}${stoppedByBytes ? ` (the window stops at ${n(WINDOW_BYTES)} bytes)` : ''}.${
        end < total ? ` To read on, call read_file with start_line ${end + 1}.` : ''
      }`;
  const notes = cutLines
    ? [
        `(${cutLines} line${cutLines === 1 ? ' was' : 's were'} longer than ${n(LINE_CHARS)} characters and cut: use run_command with cut or sed to see the rest)`,
      ]
    : [];
  // The outline comes with a first look at a file that does not fit, so the model can page to what it needs.
  const map = !whole && req.start === undefined ? outline(path, lines) : undefined;
  return [header, ...(map ? [map, ''] : []), ...shown, ...notes].join('\n');
}
