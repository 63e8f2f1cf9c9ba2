/**
 * Merge conflicts as data: the hunks git left between its markers, so a resolver (or a
 * person) sees both sides with their line numbers. Pure.
 */

import { fence } from '../text/markdown';

export interface ConflictHunk {
  file: string;
  /** 1-based line of the `<<<<<<<` marker in the conflicted file. */
  line: number;
  ours: string;
  theirs: string;
}

const START = /^<{7}(?: |$)/;
const BASE = /^\|{7}(?: |$)/;
const MIDDLE = /^={7}$/;
const END = /^>{7}(?: |$)/;

export function conflictHunks(file: string, text: string): ConflictHunk[] {
  const hunks: ConflictHunk[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!START.test(lines[i]!)) continue;
    const ours: string[] = [];
    const theirs: string[] = [];
    let side: 'ours' | 'base' | 'theirs' = 'ours';
    let j = i + 1;
    for (; j < lines.length && !END.test(lines[j]!); j++) {
      const l = lines[j]!;
      if (BASE.test(l)) side = 'base';
      else if (MIDDLE.test(l)) side = 'theirs';
      else if (side === 'ours') ours.push(l);
      else if (side === 'theirs') theirs.push(l);
    }
    hunks.push({ file, line: i + 1, ours: ours.join('\n'), theirs: theirs.join('\n') });
    i = j;
  }
  return hunks;
}

/** True while any conflict marker line is left in the text. */
export function hasConflictMarkers(text: string): boolean {
  return text.split('\n').some((l) => START.test(l) || MIDDLE.test(l) || END.test(l));
}

/** The hunks as markdown for a comment or a prompt, each side fenced. */
export function renderHunks(hunks: ConflictHunk[], labels: { ours: string; theirs: string }, maxChars = 20_000): string {
  const out: string[] = [];
  for (const h of hunks) {
    out.push(`**${h.file}** line ${h.line}`, '', `${labels.ours}:`, fence(h.ours.slice(0, 3000)), `${labels.theirs}:`, fence(h.theirs.slice(0, 3000)), '');
  }
  const text = out.join('\n');
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n\n… (more hunks left out)` : text;
}
