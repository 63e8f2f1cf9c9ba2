/**
 * A unified diff (`git diff -U0 --no-renames`) as data: per file, whether it was added,
 * changed or deleted, and the lines added and removed with their line numbers. Pure.
 */

/** The most of a diff the critic's test-tampering checks read; past it they fail closed. */
export const DIFF_LIMIT_BYTES = 5_000_000;

export interface DiffLine {
  /** Line number in the new file (added lines) or the old file (removed lines). */
  line: number;
  text: string;
}

export interface FileDiff {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  added: DiffLine[];
  removed: DiffLine[];
  binary: boolean;
}

const unquote = (p: string) => (p.startsWith('"') && p.endsWith('"') ? p.slice(1, -1).replace(/\\(.)/g, '$1') : p);

export function parseUnifiedDiff(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  let file: FileDiff | undefined;
  let oldLine = 0;
  let newLine = 0;
  for (const raw of text.split('\n')) {
    if (raw.startsWith('diff --git ')) {
      const m = /^diff --git (?:"?a\/(.+?)"?) (?:"?b\/(.+?)"?)$/.exec(raw);
      file = { path: unquote(m?.[2] ?? m?.[1] ?? raw.slice(11)), status: 'modified', added: [], removed: [], binary: false };
      files.push(file);
      continue;
    }
    if (!file) continue;
    if (raw.startsWith('new file mode')) file.status = 'added';
    else if (raw.startsWith('deleted file mode')) file.status = 'deleted';
    else if (raw.startsWith('Binary files ')) file.binary = true;
    else if (raw.startsWith('+++ ') || raw.startsWith('--- ')) {
      const p = raw.slice(4);
      if (raw.startsWith('--- ') && p !== '/dev/null' && file.status === 'deleted') file.path = unquote(p).replace(/^a\//, '');
    } else if (raw.startsWith('@@')) {
      const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
      oldLine = Number(m?.[1] ?? 0);
      newLine = Number(m?.[2] ?? 0);
    } else if (raw.startsWith('+')) file.added.push({ line: newLine++, text: raw.slice(1) });
    else if (raw.startsWith('-')) file.removed.push({ line: oldLine++, text: raw.slice(1) });
    else if (raw.startsWith(' ')) {
      oldLine++;
      newLine++;
    }
  }
  return files;
}
