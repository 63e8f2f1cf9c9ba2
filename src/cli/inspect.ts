// `crew list`, `crew status` and `crew show`: what the runs in .crew/runs/ hold, read and shown, never changed.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { localLinks } from '../adapters/local/forge';
import { LocalStateStore, processAlive } from '../adapters/local/state-store';
import { LOCAL_RUN, localStatePrefix, runsDir } from '../domain/local-runs';
import { isTerminal } from '../domain/run-state';
import { terminalSurface } from '../domain/surface';
import { agentRunLabel } from '../domain/trajectory';
import type { Output } from '../local/live-view';
import { clock } from '../local/terminal-text';
import { UsageError, runNumbersOf, type Project } from '../local/workspace';
import { renderPlanComment } from '../render/plan-comment';
import { terminalTrajectory } from '../render/trajectory';
import { readRun, readView } from '../state/run-files';
import { withoutMarkerLines } from '../text/markdown';
import { readTrajectories, trajectoriesDir } from '../trajectory/files';
import type { Command } from './args';

/** A run whose crew process is gone while it was working (stopped at once, or the machine went down). */
async function orphaned(store: LocalStateStore, n: number, phase: string): Promise<boolean> {
  if (isTerminal(phase as never) || ['ESCALATING', 'AWAITING_APPROVAL', 'INTERRUPTED'].includes(phase)) return false;
  const holder = Number(await readFile(join(store.runDir(n), '.session'), 'utf8').catch(() => ''));
  return !holder || !processAlive(holder);
}

export async function list(project: Project, out: Output): Promise<number> {
  const numbers = await runNumbersOf(project.dir);
  if (!numbers.length) {
    out.write(`No crew runs in ${project.dir} yet. Start one with crew run "task" --criteria "…".\n`);
    return 0;
  }
  const store = new LocalStateStore(runsDir(project.dir));
  const rows = [['RUN', 'STATUS', 'ITERATIONS', 'DATE', 'TASK']];
  for (const n of numbers) {
    const rec = readRun(await store.load(localStatePrefix(n)), n, LOCAL_RUN);
    if (!rec) {
      rows.push([String(n), 'not started', '0', '', '']);
      continue;
    }
    const state =
      rec.phase === 'ESCALATING' || rec.phase === 'AWAITING_APPROVAL'
        ? 'waiting for you'
        : (await orphaned(store, n, rec.phase))
          ? 'stopped (--resume continues)'
          : rec.phase.toLowerCase();
    rows.push([String(n), state, String(rec.review?.iteration ?? 0), rec.createdAt.replace('T', ' ').replace(/:\d\dZ$/, 'Z'), rec.title.slice(0, 60)]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) out.write(`${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}\n`);
  return 0;
}

export async function status(project: Project, run: number | undefined, out: Output): Promise<number> {
  const numbers = await runNumbersOf(project.dir);
  const n = run ?? numbers.at(-1);
  if (n === undefined) {
    out.write(`No crew runs in ${project.dir} yet.\n`);
    return 0;
  }
  if (!numbers.includes(n)) throw new UsageError(`there is no run ${n} (runs: ${numbers.join(', ') || 'none'}).`);
  const store = new LocalStateStore(runsDir(project.dir));
  const view = readView(await store.load(localStatePrefix(n)), n, LOCAL_RUN);
  if (!view) {
    out.write(`Run ${n} stopped before it was recorded.\n`);
    return 0;
  }
  const links = localLinks(project.dir, store.runDir(n));
  const text = withoutMarkerLines(renderPlanComment(view, links, terminalSurface(n, { stopped: await orphaned(store, n, view.run.phase) })));
  out.write(`${text}\n`);
  if (!isTerminal(view.run.phase)) out.write(`\nLast change ${clock(Date.now() - Date.parse(view.run.updatedAt))} ago.\n`);
  if (existsSync(trajectoriesDir(store.runDir(n))))
    out.write(`\nWhat the agents did: crew show ${n} (the records are in ${trajectoriesDir(store.runDir(n))}).\n`);
  return 0;
}

/** `crew show`: a run's trajectories, each turn with the model's words, its tool calls, exit codes and cost; `--json` prints them as kept. */
export async function show(project: Project, c: Extract<Command, { kind: 'show' }>, out: Output): Promise<number> {
  const numbers = await runNumbersOf(project.dir);
  const n = c.run ?? numbers.at(-1);
  if (n === undefined) {
    out.write(`No crew runs in ${project.dir} yet.\n`);
    return 0;
  }
  if (!numbers.includes(n)) throw new UsageError(`there is no run ${n} (runs: ${numbers.join(', ') || 'none'}).`);
  let all;
  try {
    all = readTrajectories(new LocalStateStore(runsDir(project.dir)).runDir(n));
  } catch (e) {
    out.write(`crew: ${(e as Error).message}\n`);
    return 1;
  }
  if (!all.length) {
    out.write(`Run ${n} kept no trajectories (with transcripts: none crew keeps none, and runs of an older crew have none).\n`);
    return 1;
  }
  const picked = all.filter(
    ({ record: r }) =>
      (c.task === undefined || r.task === c.task) && (c.attempt === undefined || r.attempt === c.attempt) && (c.agent === undefined || r.agent === c.agent),
  );
  if (!picked.length) {
    const asked = [c.agent, c.task, c.attempt === undefined ? undefined : `attempt ${c.attempt}`].filter(Boolean).join(' ');
    out.write(`No agent run of run ${n} is ${asked}. It has: ${[...new Set(all.map(({ record }) => agentRunLabel(record)))].join('; ')}.\n`);
    return 1;
  }
  if (c.json) {
    for (const p of picked) out.write(`${p.line}\n`);
    return 0;
  }
  picked.forEach(({ record }, i) => out.write(`${i ? '\n' : ''}${terminalTrajectory(record).join('\n')}\n`));
  return 0;
}
