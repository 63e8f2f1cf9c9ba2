import type { Score } from './score';
import type { Way } from './play';

/** One instance played one way: what it cost, what the agents left and how it scored. */
export interface EvalResult {
  instance_id: string;
  way: Way;
  /** played: the way ran to its end; broken: the instance could not be played (the reason says why). */
  status: 'played' | 'broken';
  reason?: string;
  score: Score | null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
    tokens: number;
    cost_usd: number;
  };
  wall_seconds: number;
  turns: number;
  tasks: number;
  attempts: number;
  /** The critic's last verdict (crew way), null where there was none. */
  critic_verdict: 'PASS' | 'FAIL' | null;
  /** How the run ended: its phase (crew), or how the agent stopped (single). */
  ended: string;
  /** Questions and escalations, and what the eval answered for the absent person. */
  escalations: string[];
  /** The trajectories, relative to the output folder. */
  trajectories: string[];
  /** What crew printed while it played (crew way), relative to the output folder. */
  logs: string[];
  patch_bytes: number;
}

export interface WayTotals {
  way: Way;
  instances: number;
  resolved: number;
  unresolved: number;
  unscorable: number;
  broken: number;
  tokens: number;
  cost_usd: number;
  wall_seconds: number;
  /** Resolved of those scored (resolved + not), 0 when none was. */
  resolve_rate: number;
  /** What the way cost in all, per instance it resolved (the price of one fix); null when it resolved none. */
  cost_per_resolved_usd: number | null;
}

export function totals(results: EvalResult[], ways: readonly Way[]): WayTotals[] {
  return ways.map((way) => {
    const rs = results.filter((r) => r.way === way);
    const count = (k: string) => rs.filter((r) => r.score?.kind === k).length;
    const resolved = count('resolved');
    const unresolved = count('unresolved');
    const cost = rs.reduce((n, r) => n + r.usage.cost_usd, 0);
    return {
      way,
      instances: rs.length,
      resolved,
      unresolved,
      unscorable: count('unscorable'),
      broken: rs.filter((r) => r.status === 'broken').length,
      tokens: rs.reduce((n, r) => n + r.usage.tokens, 0),
      cost_usd: round6(cost),
      wall_seconds: round1(rs.reduce((n, r) => n + r.wall_seconds, 0)),
      resolve_rate: resolved + unresolved ? resolved / (resolved + unresolved) : 0,
      cost_per_resolved_usd: resolved ? round6(cost / resolved) : null,
    };
  });
}

export const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
export const round1 = (n: number) => Math.round(n * 10) / 10;

/** The cost per resolved instance as results.md and the chart show it. */
export const perResolved = (t: Pick<WayTotals, 'cost_per_resolved_usd'>): string =>
  t.cost_per_resolved_usd === null ? '—' : t.cost_per_resolved_usd.toFixed(4);

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const outcome = (r: EvalResult) => (r.status === 'broken' ? 'broken' : (r.score?.kind ?? '—'));

/** results.md: the totals per way, the chart, then every instance and way with its reason and links. */
export function resultsMarkdown(results: EvalResult[], ways: readonly Way[], meta: { instances: string; model: string }): string {
  const lines = [
    '# crew eval results',
    '',
    `Instances: ${meta.instances} · model: ${meta.model}`,
    '',
    '| Way | Instances | Resolved | Not resolved | Unscorable | Broken | Resolve rate | Tokens | Cost (USD) | Cost per resolved (USD) | Wall time (s) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...totals(results, ways).map(
      (t) =>
        `| ${t.way} | ${t.instances} | ${t.resolved} | ${t.unresolved} | ${t.unscorable} | ${t.broken} | ${(t.resolve_rate * 100).toFixed(1)}% | ${t.tokens} | ${t.cost_usd.toFixed(4)} | ${perResolved(t)} | ${t.wall_seconds.toFixed(1)} |`,
    ),
    '',
    '![Resolve rate against cost](chart.svg)',
    '',
    'Resolve rate counts the instances scored here (resolved or not); unscorable ones go to the official harness with the predictions files. Cost per resolved is all the way cost (every instance, broken and unscorable ones too) over the instances it resolved; — where it resolved none.',
    '',
    '| Instance | Way | Outcome | Reason | Tokens | Cost (USD) | Wall (s) | Turns | Tasks | Attempts | Critic | Ended | Trajectories and log |',
    '|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---|---|',
    ...results.map(
      (r) =>
        `| ${cell(r.instance_id)} | ${r.way} | ${outcome(r)} | ${cell(r.reason ?? r.score?.reason ?? '')} | ${r.usage.tokens} | ${r.usage.cost_usd.toFixed(4)} | ${r.wall_seconds.toFixed(1)} | ${r.turns} | ${r.tasks} | ${r.attempts} | ${r.critic_verdict ?? '—'} | ${cell(r.ended)} | ${[...r.trajectories, ...r.logs].map((t) => `[${t.split('/').pop()}](${t})`).join(' ') || '—'} |`,
    ),
  ];
  const asked = results.filter((r) => r.escalations.length);
  if (asked.length) {
    lines.push('', '## Questions and escalations, answered for the absent person', '');
    for (const r of asked) for (const e of r.escalations) lines.push(`- ${r.instance_id} (${r.way}): ${e}`);
  }
  return `${lines.join('\n')}\n`;
}
