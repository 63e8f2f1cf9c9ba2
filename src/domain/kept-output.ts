/**
 * Long output kept as its head and its tail, streamed: a bounded head, a ring of the latest
 * chunks for the tail, and a count of everything in between. A test run's failures and totals
 * come last, its command line and set-up first; the middle is what can go. Pure: the caller
 * feeds the chunks.
 */

/** Of a cap, the share kept from the head; the tail gets the rest (it holds the verdict). */
const HEAD_SHARE = 1 / 3;

export interface KeptOutput {
  text: string;
  /** The whole output's size, cut or not. */
  bytes: number;
  lines: number;
  /** What was left out of the middle, when anything was. */
  cut?: { bytes: number; lines: number };
}

const NEWLINE = 0x0a;

function countLines(buf: Buffer): number {
  let n = 0;
  for (let at = buf.indexOf(NEWLINE); at >= 0; at = buf.indexOf(NEWLINE, at + 1)) n++;
  return n;
}

/** Lines of a text as people count them: a last line without a newline counts too. */
const linesOf = (bytes: number, newlines: number, endsWithNewline: boolean) => (bytes === 0 ? 0 : newlines + (endsWithNewline ? 0 : 1));

export class OutputKeeper {
  private readonly headMax: number;
  private readonly tailMax: number;
  private head: Buffer[] = [];
  private headSize = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private bytes = 0;
  private newlines = 0;
  private last = 0;

  /** `max`: bytes of output kept in all, a third from the head and the rest from the tail. */
  constructor(max: number) {
    this.headMax = Math.floor(max * HEAD_SHARE);
    this.tailMax = max - this.headMax;
  }

  push(chunk: Buffer | string): void {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (!buf.length) return;
    this.bytes += buf.length;
    this.newlines += countLines(buf);
    this.last = buf[buf.length - 1]!;
    if (this.headSize < this.headMax) {
      const take = buf.subarray(0, this.headMax - this.headSize);
      this.head.push(take);
      this.headSize += take.length;
      buf = buf.subarray(take.length);
      if (!buf.length) return;
    }
    this.tail.push(buf);
    this.tailSize += buf.length;
    // Drop whole chunks from the front while what stays still covers the tail.
    while (this.tail.length > 1 && this.tailSize - this.tail[0]!.length >= this.tailMax) this.tailSize -= this.tail.shift()!.length;
  }

  /** Everything kept, with one note where the middle was cut, saying exactly how much. */
  result(): KeptOutput {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    const lines = linesOf(this.bytes, this.newlines, this.last === NEWLINE);
    if (this.bytes <= this.headMax + this.tailMax) return { text: Buffer.concat([head, tail]).toString('utf8'), bytes: this.bytes, lines };
    tail = tail.subarray(Math.max(0, tail.length - this.tailMax));
    // Cut at line ends, so no line (and no UTF-8 character) is shown in part.
    const headEnd = head.lastIndexOf(NEWLINE);
    const keptHead = headEnd >= 0 ? head.subarray(0, headEnd + 1) : head;
    const tailStart = tail.indexOf(NEWLINE);
    const keptTail = tailStart >= 0 && tailStart < tail.length - 1 ? tail.subarray(tailStart + 1) : tail;
    const cutBytes = this.bytes - keptHead.length - keptTail.length;
    const cutLines = this.newlines - countLines(keptHead) - countLines(keptTail);
    const shownHead = countLines(keptHead);
    const shownTail = lines - shownHead - cutLines;
    const note =
      `…[${cutLines.toLocaleString('en-US')} lines (${cutBytes.toLocaleString('en-US')} bytes) cut from the middle: ` +
      `the output had ${lines.toLocaleString('en-US')} lines (${this.bytes.toLocaleString('en-US')} bytes); ` +
      `shown are the first ${shownHead.toLocaleString('en-US')} and the last ${shownTail.toLocaleString('en-US')}]…\n`;
    return {
      text: `${keptHead.toString('utf8')}${keptHead.length && !keptHead.toString('utf8').endsWith('\n') ? '\n' : ''}${note}${keptTail.toString('utf8')}`,
      bytes: this.bytes,
      lines,
      cut: { bytes: cutBytes, lines: cutLines },
    };
  }
}

/** A whole text kept the same way: its head and its tail within `max` bytes. */
export function keepEnds(text: string, max: number): KeptOutput {
  const k = new OutputKeeper(max);
  k.push(text);
  return k.result();
}
