import { criticalPath } from '../../src/domain/plan';
import { costLines, costMarkdown } from './cost';
import { CHAIN, QUICK, TWELVE, WIDE } from './dags';
import type { BenchResults, MakespanFigure } from './results';
import type { WayName } from './ways';

/** Renders bench/results.json: the one-screen table, bench/results.md, and the figures in docs/PERFORMANCE.md. */

const WAYS: WayName[] = ['crew', 'seed', 'single'];
const WAY_LABEL: Record<WayName, string> = { crew: 'crew', seed: "seed's way", single: 'single agent' };
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const k = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(Math.round(n)));
const pct = (x: number) => `${Math.round(x * 100)}%`;
const x2 = (x: number) => `×${x.toFixed(2)}`;

export function machineLine(r: BenchResults): string {
  const m = r.machine;
  return `${m.cpus} × ${m.cpu}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}; load average ${m.loadAverage.map((l) => l.toFixed(1)).join(' ')} at the start`;
}

export function worldLine(r: BenchResults): string {
  return `time scale ${r.world.timeScale} (one minute of model time takes ${(60 * r.world.timeScale).toFixed(1)} s); model latency ${r.world.latency.perRequestMs} ms per request + ${r.world.latency.perOutputTokenMs} ms per output token, before scaling`;
}

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
}

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [pad(head, widths), ...rows.map((r) => pad(r, widths))];
}

const wayCell = (f: MakespanFigure, w: WayName) => (w === 'crew' ? s(f.ways.crew.makespanMs) : `${s(f.ways[w].makespanMs)} ${x2(f.ways[w].ratioToCrew)}`);

/**
 * Where crew's time went on the critical path: what its jobs there took against their scripted
 * work, and what passed between one job's end and the next one's start (negative: the next
 * job started before the previous one had finished posting).
 */
export function criticalChain(f: MakespanFigure, timeScale: number): { path: string[]; workMs: number; jobsMs: number; gapsMs: number } | undefined {
  const c = [TWELVE, WIDE, CHAIN, QUICK].find((x) => x.name === f.scenario);
  const spans = f.spans.crew;
  if (!c || c.tasks.some((t) => !spans[t.id])) return undefined;
  const work = (id: string) => c.tasks.find((t) => t.id === id)!.ms * timeScale;
  const { path } = criticalPath({ tasks: c.tasks.map((t) => ({ id: t.id, dependsOn: t.deps })) }, work);
  const jobsMs = path.reduce((sum, id) => sum + spans[id]!.end - spans[id]!.start, 0);
  const gapsMs = path.slice(1).reduce((sum, id, i) => sum + spans[id]!.start - spans[path[i]!]!.end, 0) + spans[path[0]!]!.start;
  return { path, workMs: path.reduce((sum, id) => sum + work(id), 0), jobsMs, gapsMs };
}

function chainSentence(f: MakespanFigure, r: BenchResults): string {
  const chain = criticalChain(f, r.world.timeScale);
  if (!chain) return `${f.scenario}: no critical chain to show.`;
  const over = chain.jobsMs - chain.workMs;
  const retries = chain.path.reduce((n, id) => n + (f.crewStateRetries?.[id] ?? 0), 0);
  const total = Object.values(f.crewStateRetries ?? {}).reduce((n, k) => n + k, 0);
  return `${f.scenario}: the jobs on its critical path (${chain.path.join(' → ')}) took ${s(chain.jobsMs)} for ${s(chain.workMs)} of work, ${s(over)} over it against s × o = ${s(f.steps * r.overhead.stepMs)}; ${s(chain.gapsMs)} passed before and between them. Those jobs redid ${retries} state write${retries === 1 ? '' : 's'} another job's write had beaten (${total} across all ${f.tasks} jobs).`;
}

/** The one-screen summary `npm run bench` prints. */
export function terminalTable(r: BenchResults): string {
  const lines: string[] = [];
  lines.push(`crew benchmark${r.quick ? ' (quick sample)' : ''}: ${machineLine(r)}`);
  lines.push(`offline world: ${worldLine(r)}`);
  lines.push(`o (per-step overhead of a crew job, ${r.overhead.measuredOn}): ${s(r.overhead.stepMs)}`);
  for (const m of r.remeasured ?? []) lines.push(`${WAY_LABEL[m.way]} measured again ${m.at.slice(0, 16)}: ${m.why}`);
  lines.push('');
  lines.push('Makespan, first task start to last task end (× = that way ÷ crew)');
  lines.push(
    ...table(
      ['scenario', 'crew', "seed's way", 'single agent', 'crit. path', 'crew÷CP', 'target', 'crew÷(CP+s·o)'],
      r.makespan.map((f) => [
        `${f.scenario} (P=${f.maxParallel})`,
        wayCell(f, 'crew'),
        wayCell(f, 'seed'),
        wayCell(f, 'single'),
        s(f.criticalPathMs),
        f.ways.crew.ratioToCriticalPath.toFixed(2),
        `≤ ${s(f.targetMs)}`,
        `${f.crewRatioToBound.toFixed(2)} ${f.meetsTarget ? 'ok' : 'MISSED'}`,
      ]),
    ),
  );
  lines.push('');
  const fit = r.requests.fit;
  const hfit = r.requests.hostedFit;
  const growth =
    r.requests.runs.length > 1
      ? `; crew ≈ ${fit.perRun.toFixed(1)} + ${fit.perTask.toFixed(2)} per task, baselines ≈ ${hfit.perRun.toFixed(1)} + ${hfit.perTask.toFixed(2)}`
      : '';
  lines.push(`GitHub REST requests per run, target ≤ 3 per task + 15${growth}`);
  lines.push(
    ...table(
      ['run', 'tasks', 'crew (writes)', 'budget', 'runs/hour', "seed's way & single agent (writes)", 'git crew/them'],
      r.requests.runs.map((q) => [
        q.scenario,
        String(q.tasks),
        `${q.rest} (${q.writes})`,
        String(q.budget),
        String(q.runsPerHour),
        `${q.hosted.rest} (${q.hosted.writes}) ${x2(q.hosted.ratioToCrew)} +${q.hosted.graphql} GraphQL`,
        `${q.git}/${q.hosted.git}`,
      ]),
    ),
  );
  lines.push('');
  const t = r.tokens;
  lines.push(`Model input tokens (uncached + cache read + cache write), ${t.scenario}`);
  lines.push(
    ...table(
      ['', ...WAYS.map((w) => WAY_LABEL[w])],
      [
        ['per task', ...WAYS.map((w) => `${k(t.ways[w].perTask)}${w === 'crew' ? '' : ` ${x2(t.ways[w].perTask / t.ways.crew.perTask)}`}`)],
        ['orchestration (target 0)', ...WAYS.map((w) => k(t.ways[w].orchestration))],
        ['cache share', ...WAYS.map((w) => pct(t.ways[w].cacheShare))],
      ],
    ),
  );
  const lt = (w: WayName) => r.longTask.find((l) => l.way === w)!;
  lines.push(`A ${lt('crew').workTurns}-turn task: input per turn (target ≤ 100k) and cache share (target ≥ 70%)`);
  lines.push(
    ...table(
      ['', ...WAYS.map((w) => WAY_LABEL[w])],
      [
        [
          'largest turn',
          ...WAYS.map((w) => `${k(lt(w).largestTurnInput)}${w === 'crew' ? '' : ` ${x2(lt(w).largestTurnInput / lt('crew').largestTurnInput)}`}`),
        ],
        ['mean turn', ...WAYS.map((w) => `${k(lt(w).meanTurnInput)}${w === 'crew' ? '' : ` ${x2(lt(w).meanTurnInput / lt('crew').meanTurnInput)}`}`)],
        ['cache share', ...WAYS.map((w) => pct(lt(w).cacheShare))],
      ],
    ),
  );
  lines.push('');
  lines.push(
    `Cold start: node dist/index.js to its first network request ${r.coldStart.crewMs} ms, node -e "" ${r.coldStart.nodeMs} ms (medians of ${r.coldStart.runs}); bundle ${(r.bundle.entryBytes / 1e6).toFixed(2)} MB (dist/ ${(r.bundle.totalBytes / 1e6).toFixed(2)} MB)`,
  );
  lines.push(`Run-state writes: ${r.stateWrites.map((w) => `${w.writers} writer${w.writers > 1 ? 's' : ''} ${w.perSecond}/s (${w.lost} lost)`).join(', ')}`);
  lines.push(...costLines(r.cost ?? []));
  lines.push(`(${s(r.tookMs)})`);
  return lines.join('\n');
}

function mdTable(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

/** The figures as Markdown tables: bench/results.md, and the generated part of docs/PERFORMANCE.md. */
export function figuresMarkdown(r: BenchResults, heading = '##'): string {
  const out: string[] = [];
  out.push(`Measured by \`npm run bench\` on ${r.generated.slice(0, 10)}: ${machineLine(r)}. Offline world: ${worldLine(r)}.`, '');
  for (const m of r.remeasured ?? [])
    out.push(
      `The ${WAY_LABEL[m.way]}'s figures were measured again on ${m.at.slice(0, 10)} (load average ${m.loadAverage.map((l) => l.toFixed(1)).join(' ')}), crew's kept: ${m.why}.`,
      '',
    );
  out.push(`${heading} Makespan`, '');
  out.push(
    `From the first task's start to the last task's end. o = ${s(r.overhead.stepMs)}, crew's overhead per step (${r.overhead.measuredOn}), as long as ${Math.round(r.overhead.stepMs / r.world.timeScale / 1000)} s of model time at this time scale. The target is crew ≤ 1.10 × (critical path + s × o), s = tasks on the critical path. The critical path is the longest chain of scripted work; the work bound is (all scripted work + n × o) ÷ max_parallel.`,
    '',
  );
  out.push(
    ...mdTable(
      [
        'Scenario',
        'Tasks',
        'max_parallel',
        'Critical path (s steps)',
        'Work bound',
        'crew',
        "seed's way",
        'single agent',
        'crew ÷ critical path',
        'Target',
        'crew ÷ (CP + s·o)',
        'crew end to end',
      ],
      r.makespan.map((f) => [
        f.scenario,
        String(f.tasks),
        String(f.maxParallel),
        `${s(f.criticalPathMs)} (${f.steps})`,
        s(f.workBoundMs),
        s(f.ways.crew.makespanMs),
        `${s(f.ways.seed.makespanMs)} (${x2(f.ways.seed.ratioToCrew)}, ÷CP ${f.ways.seed.ratioToCriticalPath.toFixed(2)})`,
        `${s(f.ways.single.makespanMs)} (${x2(f.ways.single.ratioToCrew)}, ÷CP ${f.ways.single.ratioToCriticalPath.toFixed(2)})`,
        f.ways.crew.ratioToCriticalPath.toFixed(2),
        `≤ ${s(f.targetMs)}`,
        `**${f.crewRatioToBound.toFixed(2)}** ${f.meetsTarget ? 'met' : 'missed'}`,
        s(f.crewEndToEndMs),
      ]),
    ),
    '',
  );
  out.push(
    "Where crew's time went on each critical path (a job holds its start, checkout, state writes, model latency and dispatch; the time before and between the jobs is scheduling):",
    '',
  );
  for (const f of r.makespan) out.push(`- ${chainSentence(f, r)}${f.meetsTarget ? '' : ' Target missed.'}`);
  out.push('');
  out.push(`${heading} GitHub requests`, '');
  out.push(
    `REST requests per run with the workflow's token (git smart-HTTP counted apart). crew's grow ≈ ${r.requests.fit.perRun.toFixed(1)} + ${r.requests.fit.perTask.toFixed(2)} per task. ` +
      `The baselines are measured hosted on GitHub the only way they can be, inside claude-code-action (the seed's way is a Claude Code plugin), so both make the same requests: ≈ ${r.requests.hostedFit.perRun.toFixed(1)} + ${r.requests.hostedFit.perTask.toFixed(2)} per task, plus GraphQL queries, and they open no pull request (scripts/bench/hosted.ts lists the sequence and its source).`,
    '',
  );
  out.push(
    ...mdTable(
      [
        'Run',
        'Tasks',
        'crew REST',
        'of which writes',
        'Budget 3 × tasks + 15',
        'crew runs an hour under 1,000',
        "seed's way and single agent REST (writes)",
        '÷ crew',
        'their GraphQL',
        'git requests crew / them',
      ],
      r.requests.runs.map((q) => [
        q.scenario,
        String(q.tasks),
        String(q.rest),
        String(q.writes),
        String(q.budget),
        String(q.runsPerHour),
        `${q.hosted.rest} (${q.hosted.writes})`,
        q.hosted.ratioToCrew.toFixed(2),
        String(q.hosted.graphql),
        `${q.git} / ${q.hosted.git}`,
      ]),
    ),
    '',
  );
  const t = r.tokens;
  out.push(`${heading} Model tokens`, '');
  out.push(`Input tokens (uncached + read from the cache + written to it), ${t.scenario}:`, '');
  out.push(
    ...mdTable(
      ['', ...WAYS.map((w) => WAY_LABEL[w])],
      [
        ['Per task', ...WAYS.map((w) => `${k(t.ways[w].perTask)}${w === 'crew' ? '' : ` (${x2(t.ways[w].perTask / t.ways.crew.perTask)})`}`)],
        ['Orchestration', ...WAYS.map((w) => k(t.ways[w].orchestration))],
        ['Share read from the cache', ...WAYS.map((w) => pct(t.ways[w].cacheShare))],
      ],
    ),
    '',
  );
  const lt = (w: WayName) => r.longTask.find((l) => l.way === w)!;
  out.push(`One ${lt('crew').workTurns}-turn task (each turn reads a file of about 2,500 tokens, then one more turn reports):`, '');
  out.push(
    ...mdTable(
      ['', ...WAYS.map((w) => WAY_LABEL[w])],
      [
        ['Largest turn input', ...WAYS.map((w) => k(lt(w).largestTurnInput))],
        ['Mean turn input', ...WAYS.map((w) => k(lt(w).meanTurnInput))],
        ['Share read from the cache', ...WAYS.map((w) => pct(lt(w).cacheShare))],
        ['Compactions', ...WAYS.map((w) => String(lt(w).compactions))],
        ['All input tokens', ...WAYS.map((w) => k(lt(w).total.input + lt(w).total.cacheRead + lt(w).total.cacheWrite))],
      ],
    ),
    '',
  );
  out.push(...costMarkdown(r.cost ?? [], heading));
  out.push(`${heading} Start, size and state`, '');
  out.push(
    ...mdTable(
      ['What', 'Figure'],
      [
        [`\`node dist/index.js\` (route step) until its first network request, median of ${r.coldStart.runs}`, `${r.coldStart.crewMs} ms`],
        [`\`node -e ""\`, same runs`, `${r.coldStart.nodeMs} ms`],
        ['dist/index.js', `${(r.bundle.entryBytes / 1e6).toFixed(2)} MB`],
        ['dist/, every file', `${(r.bundle.totalBytes / 1e6).toFixed(2)} MB`],
        ...r.stateWrites.map((w) => [
          `Run-state writes, ${w.writers} concurrent writer${w.writers > 1 ? 's' : ''} (${w.writes} writes to one counter)`,
          `${w.perSecond} writes/s, ${w.lost} lost`,
        ]),
      ],
    ),
  );
  return out.join('\n');
}

export function resultsMarkdown(r: BenchResults): string {
  return ['# Benchmark results', '', '<!-- Written by `npm run bench` from bench/results.json. Do not edit by hand. -->', '', figuresMarkdown(r), ''].join(
    '\n',
  );
}

const START = '<!-- bench:start (written by `npm run bench` from bench/results.json; do not edit by hand) -->';
const END = '<!-- bench:end -->';

/** Replaces the generated figures in docs/PERFORMANCE.md, keeping the prose around them. */
export function withFigures(doc: string, r: BenchResults): string {
  const at = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (at < 0 || end < at) throw new Error(`docs/PERFORMANCE.md has no ${START} … ${END} block to write the figures into`);
  return `${doc.slice(0, at + START.length)}\n${figuresMarkdown(r, '###')}\n${doc.slice(end)}`;
}
