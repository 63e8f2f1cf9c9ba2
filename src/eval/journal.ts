import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EvalResult } from './results';
import type { Way } from './play';

/**
 * The resume journal: `journal.jsonl` in the output folder, one line when an instance starts
 * one way and one when it is done (with its result). A rerun skips what is done; what was
 * started and not done is played on (the crew way resumes its run) or again (the single way).
 */

type Line = { event: 'start'; instance_id: string; way: Way; at: string } | { event: 'done'; at: string; result: EvalResult };

export const journalFile = (out: string) => join(out, 'journal.jsonl');
export const key = (id: string, way: Way) => `${id}\u0000${way}`;

export async function readJournal(out: string): Promise<{ done: Map<string, EvalResult>; started: Set<string> }> {
  const text = await readFile(journalFile(out), 'utf8').catch(() => '');
  const done = new Map<string, EvalResult>();
  const started = new Set<string>();
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    let line: Line;
    try {
      line = JSON.parse(l) as Line;
    } catch {
      // A line cut short by a kill is the last one: the instance it was writing is played on.
      if (i < text.split('\n').length - 2) throw new Error(`${journalFile(out)} line ${i + 1} is not JSON; fix or delete that line, then run crew eval again`);
      return;
    }
    if (line.event === 'start') started.add(key(line.instance_id, line.way));
    else done.set(key(line.result.instance_id, line.result.way), line.result);
  });
  return { done, started };
}

export async function journalStart(out: string, id: string, way: Way): Promise<void> {
  await appendFile(journalFile(out), `${JSON.stringify({ event: 'start', instance_id: id, way, at: new Date().toISOString() })}\n`);
}

export async function journalDone(out: string, result: EvalResult): Promise<void> {
  await appendFile(journalFile(out), `${JSON.stringify({ event: 'done', at: new Date().toISOString(), result })}\n`);
}
