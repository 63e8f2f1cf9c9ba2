/**
 * The search tool's answer: every match counted, the first ones shown, and the totals of what
 * was not shown, so a pattern with thousands of hits says how many there are and where. Pure:
 * the caller streams the matches in.
 */

export type SearchMode = 'lines' | 'files';

/** Lines shown at most in `lines` mode, and files in `files` mode. */
export const SHOWN_LINES = 100;
export const SHOWN_FILES = 200;
/** A matching line longer than this is cut (minified code would fill the answer). */
export const LINE_CHARS = 300;

const n = (x: number) => x.toLocaleString('en-US');
const plural = (x: number, one: string, many = `${one}s`) => `${n(x)} ${x === 1 ? one : many}`;

export class SearchTally {
  private readonly counts = new Map<string, number>();
  private readonly shown: string[] = [];
  private readonly shownFiles = new Set<string>();
  private shownBytes = 0;
  private total = 0;

  constructor(
    private readonly mode: SearchMode,
    /** Bytes of shown lines at most. */
    private readonly maxBytes: number,
  ) {}

  add(path: string, line: number, text: string): void {
    this.total++;
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
    if (this.mode !== 'lines' || this.shown.length >= SHOWN_LINES) return;
    const cut = text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}… [line cut at ${LINE_CHARS} of ${n(text.length)} characters]` : text;
    const entry = `${path}:${line}:${cut}`;
    const size = Buffer.byteLength(entry) + 1;
    if (this.shownBytes + size > this.maxBytes) return;
    this.shown.push(entry);
    this.shownFiles.add(path);
    this.shownBytes += size;
  }

  get matches(): number {
    return this.total;
  }

  /** The answer: a line of totals, the matches shown, and what was left out with how to narrow it. */
  render(what: string, stopped?: string): string {
    if (!this.total) return `no matches for ${what}${stopped ? ` (${stopped})` : ''}`;
    const files = this.counts.size;
    const totals = `${plural(this.total, 'matching line')} in ${plural(files, 'file')} for ${what}${stopped ? ` (${stopped}: the totals count what was searched until then)` : ''}`;
    if (this.mode === 'files') {
      const list = [...this.counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      const shown: string[] = [];
      let bytes = 0;
      for (const [path, count] of list) {
        const entry = `${path}: ${n(count)}`;
        if (shown.length >= SHOWN_FILES || bytes + entry.length + 1 > this.maxBytes) break;
        shown.push(entry);
        bytes += Buffer.byteLength(entry) + 1;
      }
      const rest = list.slice(shown.length);
      const more = rest.length
        ? [
            `… ${plural(
              rest.reduce((s, [, c]) => s + c, 0),
              'more matching line',
            )} in ${plural(rest.length, 'more file')}: narrow the search with path or glob.`,
          ]
        : [];
      return [`${totals}; files by matches:`, ...shown, ...more].join('\n');
    }
    const left = this.total - this.shown.length;
    const leftFiles = [...this.counts.keys()].filter((p) => !this.shownFiles.has(p)).length;
    const more = left
      ? [
          `… ${plural(left, 'more matching line')} not shown (${plural(leftFiles, 'file')} with none shown). Narrow the search with path or glob, or use mode "files" to see every file with its count.`,
        ]
      : [];
    return [`${totals}${left ? `; the first ${n(this.shown.length)} shown` : ''}:`, ...this.shown, ...more].join('\n');
  }
}
