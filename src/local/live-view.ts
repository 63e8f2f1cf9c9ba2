import type { RunView } from '../domain/run-state';
import { clock, headerLine, taskLines } from './terminal-text';

export interface Output {
  write(text: string): void;
}

/**
 * What the person sees while a local run works. On a terminal, a block of lines (the
 * header and one line per task, spinners on running tasks) is redrawn in place, and
 * messages scroll above it. In a log (not a TTY) there are no control characters at
 * all: a line is printed when a task or the run changes state, and messages as they come.
 */
export class LiveView {
  private view?: RunView;
  private drawn = 0;
  private frame = 0;
  private timer?: NodeJS.Timeout;
  private readonly seen = new Map<string, string>();
  private lastHeader = '';
  private readonly started = Date.now();

  constructor(
    private readonly out: Output,
    readonly tty: boolean,
    /** The terminal's width: a line that wraps would throw off the count of lines to redraw. */
    private readonly columns: () => number = () => process.stdout.columns || 100,
  ) {
    if (tty) {
      this.timer = setInterval(() => {
        this.frame++;
        this.redraw();
      }, 120);
      this.timer.unref();
    }
  }

  elapsed(): number {
    return Date.now() - this.started;
  }

  /** A new state of the run. */
  update(view: RunView): void {
    this.view = view;
    if (this.tty) return this.redraw();
    const stamp = `[${clock(this.elapsed())}]`;
    const phase = `${view.run.phase}:${view.run.review?.iteration ?? 0}`;
    if (phase !== this.lastHeader) {
      this.lastHeader = phase;
      this.out.write(`${stamp} ${headerLine(view, this.elapsed())}\n`);
    }
    for (const line of taskLines(view)) {
      if (this.seen.get(line.id) === line.key) continue;
      this.seen.set(line.id, line.key);
      this.out.write(`${stamp}${line.text}\n`);
    }
  }

  /** A message that scrolls above the live block. */
  message(text: string): void {
    this.clear();
    this.out.write(text.endsWith('\n') ? text : `${text}\n`);
    this.redraw();
  }

  /** Stops redrawing and leaves the final block on screen. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.tty && this.view) {
      this.clear();
      this.out.write(`${this.block(undefined).join('\n')}\n`);
      this.drawn = 0;
    }
  }

  /** Takes the live block off the screen (before a prompt, so it does not redraw over the answer). */
  pause(): void {
    this.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  resume(): void {
    if (!this.tty || this.timer) return;
    this.timer = setInterval(() => {
      this.frame++;
      this.redraw();
    }, 120);
    this.timer.unref();
    this.redraw();
  }

  private block(frame: number | undefined): string[] {
    if (!this.view) return [];
    const width = Math.max(20, this.columns() - 1);
    return [headerLine(this.view, this.elapsed()), ...taskLines(this.view, frame).map((l) => l.text)].map((l) =>
      [...l].length > width ? `${[...l].slice(0, width - 1).join('')}…` : l,
    );
  }

  private clear(): void {
    if (!this.tty || !this.drawn) return;
    this.out.write(`\x1b[${this.drawn}A\x1b[J`);
    this.drawn = 0;
  }

  private redraw(): void {
    if (!this.tty || !this.timer) return;
    const lines = this.block(this.frame);
    this.clear();
    if (!lines.length) return;
    this.out.write(`${lines.join('\n')}\n`);
    this.drawn = lines.length;
  }
}
