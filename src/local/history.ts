import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Judgment } from '../domain/judgment';
import { LOCAL_RUN } from '../domain/local-runs';
import { isTerminal, totalUsage } from '../domain/run-state';
import type { StateSnapshot } from '../ports';
import { parseJson, paths, readView } from '../state/run-files';

/**
 * endless8's history: `history.jsonl` in the run's folder, one record per line, appended
 * after every iteration (a `summary` of what the tasks did and the critic's `judgment`)
 * and once at the end (`final`), so a crash loses nothing that was decided.
 */

export type HistoryRecord =
  | {
      type: 'summary';
      iteration: number;
      at: string;
      tasks: Array<{ id: string; title: string; status: string; attempts: number; summary: string | null; error: string | null }>;
    }
  | {
      type: 'judgment';
      iteration: number;
      at: string;
      verdict: 'PASS' | 'FAIL';
      reason: string;
      next_action: string;
      criteria: Array<{ id: string; text: string; met: boolean | null; confidence: number; evidence: string[] }>;
      adversarial: Array<{ rule: string; evidence: string }>;
    }
  | { type: 'final'; at: string; status: string; iterations: number; tokens: number; cost_usd: number };

export function historyRecords(snap: StateSnapshot, run: number, recorded: Set<string>): HistoryRecord[] {
  const view = readView(snap, run, LOCAL_RUN);
  if (!view?.plan) return [];
  const out: HistoryRecord[] = [];
  const iterations = view.run.review?.iteration ?? 0;
  for (let i = 1; i <= iterations; i++) {
    if (recorded.has(`judgment:${i}`)) continue;
    const j = parseJson<Judgment>(snap, paths.judgment(run, LOCAL_RUN, i));
    if (!j) continue;
    out.push({
      type: 'summary',
      iteration: i,
      at: j.at,
      tasks: view.plan.tasks.map((t) => {
        const rec = view.tasks.get(t.id);
        return {
          id: t.id,
          title: t.title,
          status: rec?.status ?? 'pending',
          attempts: rec?.attempts ?? 0,
          summary: rec?.summary ?? null,
          error: rec?.error ?? null,
        };
      }),
    });
    out.push({
      type: 'judgment',
      iteration: i,
      at: j.at,
      verdict: j.verdict,
      reason: j.overallReason,
      next_action: j.suggestedNextAction,
      criteria: j.evaluations.map((e) => ({ id: e.criterion, text: e.text, met: e.met, confidence: e.confidence, evidence: e.evidence })),
      adversarial: j.adversarial.map((f) => ({ rule: f.rule, evidence: f.evidence })),
    });
  }
  if (isTerminal(view.run.phase) && !recorded.has('final')) {
    const u = totalUsage(view);
    out.push({
      type: 'final',
      at: view.run.updatedAt,
      status: view.run.phase.toLowerCase(),
      iterations,
      tokens: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens,
      cost_usd: u.costUsd,
    });
  }
  return out;
}

const chains = new Map<string, Promise<void>>();

/** Appends what is new since the last record; serialised per run, and idempotent across sessions. */
export function appendHistory(runDir: string, snap: StateSnapshot, run: number): Promise<void> {
  const file = join(runDir, 'history.jsonl');
  const next = (chains.get(file) ?? Promise.resolve()).then(async () => {
    const text = await readFile(file, 'utf8').catch(() => '');
    const recorded = new Set<string>();
    for (const line of text.split('\n').filter(Boolean)) {
      const r = JSON.parse(line) as HistoryRecord;
      recorded.add(r.type === 'final' ? 'final' : `${r.type}:${r.iteration}`);
    }
    const fresh = historyRecords(snap, run, recorded);
    if (fresh.length) await appendFile(file, fresh.map((r) => `${JSON.stringify(r)}\n`).join(''));
  });
  chains.set(
    file,
    next.catch(() => undefined),
  );
  return next;
}
