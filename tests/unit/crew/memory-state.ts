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
