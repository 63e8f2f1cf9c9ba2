import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { localRunOfPath, localStatePath } from '../../domain/local-runs';
import type { RunFolders, StateSnapshot, StateTx } from '../../ports';
import { readTree } from '../files/read-tree';

/**
 * The run state of local runs, as plain files: `.crew/runs/<N>/` holds what the
 * `crew/state` branch holds under `issue-<N>/run-1/` on GitHub, in the same layout.
 *
 * One process runs a local run, so writes are serialised in memory; a lock folder
 * keeps a second `crew` process on the same run out. A write first lands in a
 * journal, so a process killed half way through a write is completed (never half
 * applied) the next time the run is read.
 */

const JOURNAL = '.journal.json';
const VERSION = '.version';
const LOCK = '.lock';
const AUDIT = '.audit.log';
const NOT_STATE = new Set(['crew.log', 'history.jsonl']);

interface Journal {
  writes: Record<string, string>;
  removes: string[];
  version: number;
  message: string;
}

export class LocalStateError extends Error {}

/** A state path → its local run and the path in that run's folder (domain/local-runs.ts); anything else is refused. */
function toLocal(statePath: string): { run: number; rest: string } {
  const local = localRunOfPath(statePath);
  if ('error' in local) throw new LocalStateError(local.error);
  return local;
}

export class LocalStateStore implements RunFolders {
  private readonly queues = new Map<number, Promise<unknown>>();
  private readonly listeners = new Set<(run: number, snapshot: StateSnapshot) => void>();

  constructor(readonly root: string) {}

  runDir(run: number): string {
    return join(this.root, String(run));
  }

  /** Called after every write, with the run's new state (the live progress view listens). */
  onChange(listener: (run: number, snapshot: StateSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads take their turn with this process's writes and hold the lock, so none sees a write half applied. */
  load(prefix: string): Promise<StateSnapshot> {
    const { run } = toLocal(prefix);
    return this.serially(run, async () => {
      await this.recover(run);
      return this.snapshot(run, await this.readAll(run), await this.version(run));
    });
  }

  /**
   * The chosen files of every run folder, read as they are: a run another crew process is writing
   * may show its last whole write (each file is renamed into place), and none is locked or repaired.
   */
  async loadRuns(pick: (path: string) => boolean): Promise<StateSnapshot> {
    const runs = (await readdir(this.root, { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isDirectory() && /^[1-9][0-9]*$/.test(e.name))
      .map((e) => Number(e.name));
    const files = new Map<string, string>();
    for (const run of runs) {
      const skip = (path: string, isDir: boolean) =>
        path.split('/').some((part) => part.startsWith('.')) ||
        path.endsWith('.crew-tmp') ||
        NOT_STATE.has(path) ||
        (!isDir && !pick(localStatePath(run, path)));
      for (const [path, text] of await readTree(this.runDir(run), '', skip)) files.set(localStatePath(run, path), text);
    }
    return this.snapshot(0, files, 0);
  }

  private serially<T>(run: number, fn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(run) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.withLock(run, fn));
    this.queues.set(run, next);
    return next;
  }

  update<T>(prefix: string, message: string, mutate: (tx: StateTx) => T): Promise<{ value: T; snapshot: StateSnapshot }> {
    const { run } = toLocal(prefix);
    return this.serially(run, () => this.apply(run, message, mutate));
  }

  private async apply<T>(run: number, message: string, mutate: (tx: StateTx) => T): Promise<{ value: T; snapshot: StateSnapshot }> {
    await this.recover(run);
    const files = await this.readAll(run);
    const writes = new Map<string, string>();
    const removes = new Set<string>();
    // Like the state branch's writes, a transaction stays inside its own run: a bad path is refused
    // now, never recorded in the journal, where replaying it would fail every later read.
    const inRun = (p: string) => {
      if (toLocal(p).run !== run) throw new LocalStateError(`state write outside run ${run}: ${p}`);
    };
    const tx: StateTx = {
      read: (p) => (removes.has(p) ? undefined : (writes.get(p) ?? files.get(p))),
      write: (p, content) => {
        inRun(p);
        removes.delete(p);
        writes.set(p, content);
      },
      remove: (p) => {
        inRun(p);
        writes.delete(p);
        removes.add(p);
      },
      list: (pre) => [...new Set([...files.keys(), ...writes.keys()])].filter((p) => p.startsWith(pre) && !removes.has(p)).sort(),
    };
    const value = mutate(tx);
    const changed = [...writes].some(([p, c]) => files.get(p) !== c) || [...removes].some((p) => files.has(p));
    let version = await this.version(run);
    if (changed) {
      version += 1;
      const journal: Journal = { writes: Object.fromEntries(writes), removes: [...removes], version, message };
      const dir = this.runDir(run);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${JOURNAL}.tmp`), JSON.stringify(journal));
      await rename(join(dir, `${JOURNAL}.tmp`), join(dir, JOURNAL));
      await this.replay(run, journal);
      for (const [p, c] of writes) files.set(p, c);
      for (const p of removes) files.delete(p);
    }
    const snapshot = this.snapshot(run, files, version);
    if (changed) for (const l of this.listeners) l(run, snapshot);
    return { value, snapshot };
  }

  /** Applies a journal's writes; safe to repeat, which is what makes a killed write recoverable. */
  private async replay(run: number, j: Journal): Promise<void> {
    const dir = this.runDir(run);
    for (const [p, content] of Object.entries(j.writes)) {
      const file = join(dir, toLocal(p).rest);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(`${file}.crew-tmp`, content);
      await rename(`${file}.crew-tmp`, file);
    }
    for (const p of j.removes) await rm(join(dir, toLocal(p).rest), { force: true });
    await writeFile(join(dir, VERSION), `${j.version}\n`);
    await appendFile(join(dir, AUDIT), `${new Date().toISOString()} v${j.version} ${j.message.replace(/\s+/g, ' ')}\n`);
    await rm(join(dir, JOURNAL), { force: true });
  }

  /** Finishes a write a killed process left half done. */
  private async recover(run: number): Promise<void> {
    const file = join(this.runDir(run), JOURNAL);
    if (!existsSync(file)) return;
    let journal: Journal;
    try {
      journal = JSON.parse(await readFile(file, 'utf8')) as Journal;
    } catch {
      // The journal is renamed into place whole, so an unreadable one was never committed to.
      await rm(file, { force: true });
      return;
    }
    await this.replay(run, journal);
  }

  private async version(run: number): Promise<number> {
    const text = await readFile(join(this.runDir(run), VERSION), 'utf8').catch(() => '0');
    return Number(text.trim()) || 0;
  }

  private async readAll(run: number): Promise<Map<string, string>> {
    // Dot files are the store's own bookkeeping (version, journal, lock, audit log); the log and the
    // history sit beside the state for people, and are not part of it.
    const skip = (path: string) => path.split('/').some((part) => part.startsWith('.')) || path.endsWith('.crew-tmp') || NOT_STATE.has(path);
    const files = await readTree(this.runDir(run), '', skip);
    return new Map([...files].map(([path, text]) => [localStatePath(run, path), text]));
  }

  private snapshot(run: number, files: Map<string, string>, version: number): StateSnapshot {
    const copy = new Map(files);
    return {
      version: `${run}:${version}`,
      read: (p) => copy.get(p),
      list: (pre) => [...copy.keys()].filter((p) => p.startsWith(pre)).sort(),
    };
  }

  /** A lock folder: another crew process working on the same run waits, and a dead holder's lock is taken over. */
  private async withLock<T>(run: number, fn: () => Promise<T>): Promise<T> {
    const dir = this.runDir(run);
    await mkdir(dir, { recursive: true });
    const lock = join(dir, LOCK);
    for (let i = 0; ; i++) {
      try {
        await mkdir(lock);
        await writeFile(join(lock, 'pid'), String(process.pid));
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const holder = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => ''));
        if (holder && !processAlive(holder)) await rm(lock, { recursive: true, force: true });
        else if (i > 2000) throw new LocalStateError(`run ${run} is locked by process ${holder || '(unknown)'}; if no crew is running, delete ${lock}`);
        else await new Promise((r) => setTimeout(r, 5));
      }
    }
    try {
      return await fn();
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

/** Whether a process is still running (one we may not signal counts as running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
