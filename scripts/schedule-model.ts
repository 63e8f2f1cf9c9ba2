/**
 * Ideal schedules the benchmark compares crew's measured makespan with. Every task
 * costs its model time plus a fixed per-step overhead (job start, checkout, state
 * writes, the dispatch hop), measured on a chain where no scheduling choice exists.
 */

export interface ModelTask {
  id: string;
  deps: string[];
  ms: number;
}

/**
 * An ideal list scheduler: a task starts the moment its dependencies are done and a
 * slot is free (at most `maxParallel` at once), longest remaining path first. With
 * enough slots this is the critical path of (model time + overhead).
 */
export function idealMakespan(tasks: ModelTask[], overheadMs: number, maxParallel: number): number {
  const cost = (t: ModelTask) => t.ms + overheadMs;
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const children = new Map<string, string[]>(tasks.map((t) => [t.id, []]));
  for (const t of tasks) for (const d of t.deps) children.get(d)!.push(t.id);
  const tail = new Map<string, number>();
  const remaining = (id: string): number => {
    const known = tail.get(id);
    if (known !== undefined) return known;
    const r = cost(byId.get(id)!) + Math.max(0, ...children.get(id)!.map(remaining));
    tail.set(id, r);
    return r;
  };
  const finish = new Map<string, number>();
  const running: Array<{ id: string; end: number }> = [];
  let now = 0;
  while (finish.size < tasks.length) {
    const ready = tasks
      .filter((t) => !finish.has(t.id) && !running.some((r) => r.id === t.id) && t.deps.every((d) => (finish.get(d) ?? Infinity) <= now))
      .sort((a, b) => remaining(b.id) - remaining(a.id));
    while (running.length < maxParallel && ready.length) {
      const t = ready.shift()!;
      running.push({ id: t.id, end: now + cost(t) });
    }
    if (!running.length) throw new Error('the task graph has a cycle or a missing dependency');
    running.sort((a, b) => a.end - b.end);
    const done = running.shift()!;
    now = done.end;
    finish.set(done.id, now);
    // Everything else that ends at the same moment frees its slot now too.
    while (running.length && running[0]!.end === now) finish.set(running.shift()!.id, now);
  }
  return now;
}

/** The same tasks run wave by wave: a wave starts only when the whole previous wave is done. */
export function waveBarrierMakespan(tasks: ModelTask[], overheadMs: number, maxParallel: number): number {
  const level = new Map<string, number>();
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const depth = (id: string): number => {
    const known = level.get(id);
    if (known !== undefined) return known;
    const deps = byId.get(id)!.deps;
    const d = deps.length ? 1 + Math.max(...deps.map(depth)) : 0;
    level.set(id, d);
    return d;
  };
  const waves: ModelTask[][] = [];
  for (const t of tasks) (waves[depth(t.id)] ??= []).push(t);
  let total = 0;
  for (const wave of waves) total += idealMakespan(wave.map((t) => ({ ...t, deps: [] })), overheadMs, maxParallel);
  return total;
}
