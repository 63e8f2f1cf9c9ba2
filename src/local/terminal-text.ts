import { COMMANDS } from '../domain/commands';
import { totalUsage, type RunView, type TaskStatus } from '../domain/run-state';

/**
 * crew's comments are written for GitHub. At a terminal the same text is shown with
 * the markup that only a browser renders taken out, and the `/crew …` commands it
 * suggests turned into what the person types here. Pure functions.
 */

/** A `/crew …` command as a local run takes it, from the command registry: at the prompt, as a `crew` command, or not at all (its line goes). */
export function localizeCommands(text: string, run: number): string {
  let out = text;
  for (const c of COMMANDS) {
    const name = `\`/crew ${c.kind}(?=[\\s\`])([^\`]*)\``;
    if (c.local.at === 'none') out = out.replace(new RegExp(`^.*${name}.*$\\n?`, 'gm'), '');
    else if (c.local.at === 'cli') out = out.replace(new RegExp(name, 'g'), `\`${c.local.line(run)}\``);
    else out = out.replace(new RegExp(name, 'g'), `\`${c.kind}$1\``);
  }
  return out.replace(/\bComment (`[^`]+`)/g, 'Type $1').replace(/\bcomment (`[^`]+`)/g, 'type $1');
}

export function markdownToTerminal(md: string, run: number): string {
  const text = md
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/```mermaid[\s\S]*?```\n?/g, '')
    .replace(/<details[^>]*>\s*<summary>([\s\S]*?)<\/summary>/g, '▸ $1')
    .replace(/<\/details>/g, '')
    .replace(/<\/?sub>/g, '')
    // Model text made inert for GitHub (text/inert.ts) reads as it was written at a terminal.
    .replace(/<code>(@[^<\n]*)<\/code>/g, '`$1`')
    .replace(/&lt;/g, '<')
    .replace(/> \[!(WARNING|NOTE|CAUTION|IMPORTANT)\]\n> /g, '⚠ ')
    .replace(/\[([^\]]+)\]\((#comment-\d+)\)/g, '$1')
    .replace(/\[`([^`]+)`\]\(([^)]+)\)/g, (_m, label: string, url: string) => (label === url ? label : `${label} (${url})`))
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_m, label: string, url: string) => (label === url ? label : `${label} (${url})`))
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/^#{1,6} /gm, '')
    .replace(/^- \[x\] /gm, '✔ ')
    .replace(/^- \[ \] /gm, '☐ ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return localWording(localizeCommands(text, run), run);
}

/**
 * What crew writes for GitHub, said as it is locally: a local run is issue N's only run,
 * so "run 1" is run N; there is a log file, not a workflow log; answers go to the prompt;
 * the result is a branch, and nothing is merged.
 */
function localWording(text: string, run: number): string {
  return text
    .replace(/\bissue #\d+ · run 1\b/g, `run ${run}`)
    .replace(/\brun 1 of issue #\d+/g, `run ${run}`)
    .replace(/\b([Rr])un 1\b/g, `$1un ${run}`)
    .replace(/Check the workflow log for details/g, 'See the log for details')
    .replace(/^Workflow log \(([^)]*)\)$/gm, 'Log: $1')
    .replace(/\bworkflow run \(([^)]*)\)/g, 'log ($1)')
    .replace(/Reply in a comment(?: \(or with `answer <text>`\))?[.;]?(?: Only people with write access can answer\.)?/g, 'Answer at the prompt.')
    .replace(/`auto_merge` is off in `\.github\/crew\.yml`, so a person merges it/g, 'local runs never merge: review the result branch and merge it yourself')
    .replace(/^Pull request: /gm, 'Result branch: ');
}

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
