import type { z } from 'zod';
import type { Runner } from '../types';

/** A report crew cannot read whole: the run it came from is undecided, never a pass. */
export class Unreadable extends Error {}

/** A path the runner reported, relative to the checkout when it is inside it (runs of one criterion happen in different folders). */
export function relativeTo(root: string, file: string): string {
  const r = root.replace(/\/+$/, '');
  if (file === r) return '.';
  if (file.startsWith(`${r}/`)) return file.slice(r.length + 1);
  return file.replace(/^\.\//, '');
}

/** Every line of a JSON-lines file, parsed; a line that is not JSON makes the whole file unreadable. */
export function jsonLines(text: string): unknown[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new Unreadable(`line ${i + 1} is not JSON`);
    }
  });
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * A report one of crew's hooks wrote: a header line naming the runner, the runner's records, and an
 * end line written only after the runner finished. No end line: the run was cut short.
 */
export function crewStream(text: string, runner: Runner): { header: Record<string, unknown>; records: unknown[]; end: Record<string, unknown> } {
  const lines = jsonLines(text);
  const header = lines[0];
  if (!isRecord(header) || header.crew !== 'test-report' || header.runner !== runner || header.version !== 1)
    throw new Unreadable(`it does not start with crew's header for ${runner}`);
  const end = lines.at(-1);
  if (lines.length < 2 || !isRecord(end) || end.end !== true) throw new Unreadable('it stops before the runner finished (no end line)');
  return { header, records: lines.slice(1, -1), end };
}

/** Each record read by `schema`; the first that does not fit makes the file unreadable ("event 3 is not a libtest event"). */
export function recordsAs<S extends z.ZodType>(records: unknown[], schema: S, what: string, noun = 'event'): z.output<S>[] {
  return records.map((raw, i) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new Unreadable(`${noun} ${i + 1} is not ${what}`);
    return parsed.data;
  });
}
