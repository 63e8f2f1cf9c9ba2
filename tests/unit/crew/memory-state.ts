import type { StateSnapshot, StateStore, StateTx } from '../../../src/ports';

/** crew/state in memory: each update is atomic, as the git store's compare-and-swap makes it. */
export class MemoryState implements StateStore {
  readonly files = new Map<string, string>();
  private version = 0;
  tx(): StateTx {
    return {
      read: (p) => this.files.get(p),
      write: (p, c) => void this.files.set(p, c),
      remove: (p) => void this.files.delete(p),
      list: (pre) => [...this.files.keys()].filter((k) => k.startsWith(pre)),
    };
  }
  async load(): Promise<StateSnapshot> {
    const snap = new Map(this.files);
    return { version: String(this.version), read: (p) => snap.get(p), list: (pre) => [...snap.keys()].filter((k) => k.startsWith(pre)) };
  }
  async update<T>(_prefix: string, _message: string, mutate: (tx: StateTx) => T) {
    const value = mutate(this.tx());
    this.version++;
    return { value, snapshot: await this.load() };
  }
  async loadRuns(pick: (path: string) => boolean): Promise<StateSnapshot> {
    const snap = new Map([...this.files].filter(([p]) => pick(p)));
    return { version: String(this.version), read: (p) => snap.get(p), list: (pre) => [...snap.keys()].filter((k) => k.startsWith(pre)) };
  }
}

/** crew/state in memory with the store's rule that a mutation changing nothing commits nothing; counts commits. */
export class CountingState implements StateStore {
  readonly files = new Map<string, string>();
  commits = 0;
  private snap(files: Map<string, string>): StateSnapshot {
    const copy = new Map(files);
    return { version: String(this.commits), read: (p) => copy.get(p), list: (pre) => [...copy.keys()].filter((k) => k.startsWith(pre)).sort() };
  }
  async load(prefix: string) {
    return this.snap(new Map([...this.files].filter(([p]) => p.startsWith(prefix))));
  }
  async loadRuns(pick: (path: string) => boolean) {
    return this.snap(new Map([...this.files].filter(([p]) => pick(p))));
  }
  async update<T>(_prefix: string, _message: string, mutate: (tx: StateTx) => T) {
    const writes = new Map<string, string | null>();
    const tx: StateTx = {
      read: (p) => (writes.has(p) ? (writes.get(p) ?? undefined) : this.files.get(p)),
      write: (p, c) => void writes.set(p, c),
      remove: (p) => void writes.set(p, null),
      list: (pre) => [...new Set([...this.files.keys(), ...writes.keys()])].filter((k) => k.startsWith(pre) && writes.get(k) !== null).sort(),
    };
    const value = mutate(tx);
    const changed = [...writes].filter(([p, c]) => (c === null ? this.files.has(p) : this.files.get(p) !== c));
    if (changed.length) {
      this.commits++;
      for (const [p, c] of changed) c === null ? this.files.delete(p) : this.files.set(p, c);
    }
    return { value, snapshot: this.snap(this.files) };
  }
}
