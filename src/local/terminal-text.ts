import { totalUsage, type RunView, type TaskStatus } from '../domain/run-state';

/**
 * The live view's lines: the header and one line per task, from the run's state. crew's comments
 * need nothing here: the steps word and mark them up for the terminal as they write them
 * (domain/surface.ts). Pure functions.
 */

const ICON: Record<TaskStatus, string> = {
  pending: '·',
  running: '▸',
  retrying: '↻',
  success: '✔',
  partial: '◐',
  failure: '✘',
  timeout: '⧗',
  blocked: '⊘',
};

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

function compact(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

const PHASE: Record<string, string> = {
  PLANNING: 'planning',
  AWAITING_APPROVAL: 'waiting for approval',
  EXECUTING: 'working',
  INTEGRATING: 'integrating',
  REVIEWING: 'reviewing',
  COMPLETED: 'done',
  ESCALATING: 'waiting for you',
  INTERRUPTED: 'interrupted',
  FAILED: 'failed',
  ABORTED: 'aborted',
};

/** The header line: run, phase, elapsed time, tokens and cost. */
export function headerLine(view: RunView, elapsedMs: number): string {
  const u = totalUsage(view);
  const iteration = view.run.review?.iteration ? ` · critic iteration ${view.run.review.iteration}` : '';
  return `crew · run ${view.run.issue} · ${PHASE[view.run.phase]}${iteration} · ${clock(elapsedMs)} · ${compact(u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens)} in / ${compact(u.outputTokens)} out tokens · $${u.costUsd.toFixed(2)}`;
}

export interface TaskLine {
  id: string;
  text: string;
  /** What changes when the task moves on: a non-TTY log prints a line only then. */
  key: string;
}

/** One line per task; `frame` animates the spinner of running tasks (TTY only). */
export function taskLines(view: RunView, frame?: number): TaskLine[] {
  const plan = view.plan;
  if (!plan) return [];
  const width = Math.min(40, Math.max(...plan.tasks.map((t) => t.title.length)));
  return plan.tasks.map((t) => {
    const rec = view.tasks.get(t.id);
    const status = rec?.status ?? 'pending';
    const active = status === 'running' || status === 'retrying';
    const icon = active && frame !== undefined ? SPINNER[frame % SPINNER.length]! : ICON[status];
    const title = t.title.length > width ? `${t.title.slice(0, width - 1)}…` : t.title.padEnd(width);
    const attempts = rec?.attempts ? ` · attempt ${rec.attempts}` : '';
    const tokens = rec && rec.usage.outputTokens ? ` · ${compact(rec.usage.inputTokens + rec.usage.cacheReadTokens + rec.usage.cacheWriteTokens)} tokens` : '';
    const deps = t.dependsOn.length ? ` ← ${t.dependsOn.join(',')}` : '';
    return {
      id: t.id,
      text: `  ${icon} ${t.id.padEnd(3)} ${title}  ${`${t.persona}/${rec?.tierOverride ?? t.tier}`.padEnd(16)} ${status.padEnd(8)}${attempts}${tokens}${deps}`,
      key: `${status}:${rec?.attempts ?? 0}`,
    };
  });
}
