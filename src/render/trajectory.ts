import {
  agentRunLabel,
  oneLine,
  shortInput,
  totalsOf,
  type Trajectory,
  type TrajectoryTurn,
  type TrajectoryUsage,
  type TranscriptLevel,
} from '../domain/trajectory';
import { inert } from '../text/inert';
import { cell, codeSpan, details } from '../text/markdown';

/**
 * Trajectories for people: a turn in the job log (a collapsible group), the step summary's table
 * of agent runs, and a whole record at the terminal (`crew show`). Pure. Model and tool text is
 * untrusted: in markdown it goes through inert() or a code span, in a log or a terminal it is cut
 * to one line or stripped of control characters.
 */

const n = (x: number) => x.toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const usd = (x: number) => `$${x.toFixed(4)}`;
const tokens = (u: TrajectoryUsage) => u.input_tokens + u.output_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;

/** What a tool call touched, in a few words: its path, command, pattern or recipient. */
function target(input: unknown): string {
  const s = shortInput(input);
  return s.command ?? s.path ?? s.pattern ?? s.to ?? s.status ?? '';
}

/** A tool result in short form: exit code or ok/error, how long, and (when kept) its first line. */
function resultLine(r: TrajectoryTurn['tool_results'][number], withOutput: boolean): string {
  const head = r.timed_out ? 'timed out' : r.exit_code !== undefined ? `exit ${r.exit_code}` : r.is_error ? 'error' : 'ok';
  // run_command's result opens with the exit code, already said: its output starts on the next line.
  const output = r.exit_code !== undefined || r.timed_out ? (r.content ?? '').replace(/^.*\n?/, '') : r.content;
  const first = withOutput && output ? oneLine(output, 160) : '';
  return `${head} · ${secs(r.duration_ms)}${first ? ` · ${first}` : ''}`;
}

/** One step of a turn, as short lines: what the model said (full only), each tool it called and what came back. */
function turnSteps(
  t: TrajectoryTurn,
  level: TranscriptLevel,
): Array<{ kind: 'text' | 'thinking' | 'tool'; name?: string; arg?: string; text: string; result?: string }> {
  const full = level === 'full';
  const out: Array<{ kind: 'text' | 'thinking' | 'tool'; name?: string; arg?: string; text: string; result?: string }> = [];
  for (const b of t.content) {
    if (b.type === 'tool_use') {
      const r = t.tool_results.find((x) => x.tool_use_id === b.id);
      out.push({ kind: 'tool', name: b.name, arg: oneLine(target(b.input), 160), text: '', ...(r ? { result: resultLine(r, full) } : {}) });
    } else if (!full) continue;
    else if ('omitted_chars' in b) out.push({ kind: b.type, text: `(${n(b.omitted_chars)} characters not kept)` });
    else if (b.type === 'text') out.push({ kind: 'text', text: oneLine(b.text, 200) });
    else out.push({ kind: 'thinking', text: `(thinking, ${n(b.thinking.length + (b.cut ?? 0))} characters)` });
  }
  return out;
}

/** The title of a turn's group in the job log. */
export function turnTitle(r: Trajectory, t: TrajectoryTurn): string {
  const calls = t.content.filter((b) => b.type === 'tool_use').length;
  return `${agentRunLabel(r)} · turn ${t.turn} · ${calls} tool call${calls === 1 ? '' : 's'} · ${n(tokens(t.usage))} tokens · ${usd(t.usage.cost_usd)} · ${secs(t.duration_ms)} · ${t.stop_reason ?? 'no stop reason'}`;
}

/**
 * A turn's lines in the job log. Every line starts with a mark of crew's, never with `::`, so model
 * text cannot be read by the runner as a workflow command.
 */
export function turnLines(t: TrajectoryTurn, level: TranscriptLevel): string[] {
  const lines = turnSteps(t, level).flatMap((s) =>
    s.kind === 'tool' ? [`→ ${s.name}${s.arg ? ` ${s.arg}` : ''}`, ...(s.result ? [`  ← ${s.result}`] : [])] : [`${s.kind === 'text' ? '💬' : '💭'} ${s.text}`],
  );
  for (const note of t.notes ?? []) lines.push(`· ${oneLine(note, 200)}`);
  return lines;
}

/** The step summary's table: one row per agent run of the job and their total, then (full) each run's turns folded. */
export function agentRunsSummary(records: readonly Trajectory[], level: TranscriptLevel, kept: string | null): string {
  if (!records.length) return '';
  const total = totalsOf(records);
  const row = (label: string, turns: number, u: TrajectoryUsage, ms: number, stop: string) =>
    `| ${label} | ${n(turns)} | ${n(u.input_tokens)} | ${n(u.output_tokens)} | ${n(u.cache_read_input_tokens)} | ${n(u.cache_creation_input_tokens)} | ${usd(u.cost_usd)} | ${secs(ms)} | ${stop} |`;
  const lines = [
    '### Agent runs',
    '',
    '| Agent run | Turns | Input tokens | Output tokens | Cache read | Cache write | Cost | Duration | Stop |',
    '|---|--:|--:|--:|--:|--:|--:|--:|---|',
    ...records.map((r) =>
      row(
        `${cell(agentRunLabel(r))} (${codeSpan(r.model)})`,
        r.num_turns,
        r.usage,
        r.duration_ms,
        `${r.stop}${r.error ? `: ${inert(cell(oneLine(r.error, 200)))}` : ''}`,
      ),
    ),
    row('**Total**', total.turns, total.usage, total.durationMs, ''),
    '',
    level === 'none'
      ? 'No trajectories were kept (`transcripts: none`): these numbers are all this job keeps of its agent runs.'
      : kept
        ? `Each agent run's trajectory (${level === 'summary' ? 'numbers and tool calls, no model text' : 'every turn, tool call and result'}): ${kept}.`
        : '',
  ];
  if (level === 'full') for (const r of records) lines.push('', details(inert(agentRunLabel(r), 'html'), turnsMarkdown(r)));
  return lines.join('\n').trimEnd() + '\n';
}

/** A run's turns as a markdown list: model text inert, tool targets in code spans. */
function turnsMarkdown(r: Trajectory): string {
  const MAX = 80;
  const out: string[] = [];
  for (const t of r.turns.slice(0, MAX)) {
    const steps = turnSteps(t, 'full').map((s) =>
      s.kind === 'tool'
        ? `→ ${codeSpan(s.name!)}${s.arg ? ` ${codeSpan(s.arg)}` : ''}${s.result ? ` ← ${codeSpan(s.result)}` : ''}`
        : s.kind === 'text'
          ? inert(cell(s.text))
          : s.text,
    );
    out.push(`${t.turn}. ${usd(t.usage.cost_usd)}, ${secs(t.duration_ms)}: ${steps.join('; ') || '(no content)'}`);
  }
  if (r.turns.length > MAX) out.push(`\n… and ${r.turns.length - MAX} more turns in the trajectory file.`);
  return out.join('\n');
}

/** Text from a model or a tool, safe to print at a terminal: no escape sequences or other control characters. */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '');
}

/** A record at the terminal: its header, then each turn with the model's words, every tool call, its exit code and output. */
export function terminalTrajectory(r: Trajectory): string[] {
  const out = [
    `${agentRunLabel(r)} · ${r.model} · ${r.stop}${r.error ? ` (${terminalSafe(oneLine(r.error, 200))})` : ''} · ${r.num_turns} turns · ${n(tokens(r.usage))} tokens · ${usd(r.usage.cost_usd)} · ${secs(r.duration_ms)}`,
  ];
  if (r.transcripts === 'summary') out.push('  (kept as a summary: tool calls and numbers, no model text or output)');
  const indent = (text: string, pad: string) =>
    terminalSafe(text)
      .split('\n')
      .map((l) => `${pad}${l}`);
  for (const t of r.turns) {
    out.push(
      '',
      `turn ${t.turn} · ${t.stop_reason ?? 'no stop reason'} · ${n(t.usage.input_tokens)} in / ${n(t.usage.output_tokens)} out · ${usd(t.usage.cost_usd)} · ${secs(t.duration_ms)}`,
    );
    for (const b of t.content) {
      if (b.type === 'tool_use') {
        const res = t.tool_results.find((x) => x.tool_use_id === b.id);
        const arg = target(b.input);
        out.push(`  → ${b.name}${arg ? ` ${terminalSafe(oneLine(arg, 200))}` : ''}`);
        if (res) {
          out.push(`    ← ${resultLine(res, false)}`);
          if (res.content) out.push(...indent(res.content.split('\n').slice(0, 12).join('\n'), '      '));
        }
      } else if ('omitted_chars' in b) out.push(`  (${b.type}: ${n(b.omitted_chars)} characters not kept)`);
      else if (b.type === 'text') out.push(...indent(b.text, '  │ '));
      else out.push(`  (thinking: ${n(b.thinking.length)} characters)`);
    }
    for (const note of t.notes ?? []) out.push(`  · ${terminalSafe(note)}`);
  }
  for (const c of r.compactions) out.push('', `compaction after turn ${c.after_turn} · ${usd(c.usage.cost_usd)} · ${secs(c.duration_ms)}`);
  return out;
}
