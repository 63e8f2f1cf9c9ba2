import { mkdirSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SimpleGit } from 'simple-git';
import { STATE_BRANCH } from '../../domain/refs';
import { readTree } from '../files/read-tree';
import type { Clock, Log, StateSnapshot, StateStore, StateTx } from '../../ports';
import { gitClient, isNonFastForward, pushRefusedByRule, THROWAWAY_CHECKOUT, withMessageFile } from './git-client';

/**
 * A rejected push means another job's write landed, so the branch as a whole is making progress
 * and losing again is no reason to stop. A count alone gave up on a busy machine (or a busy
 * GitHub), where one attempt's fetch and push take longer than the jittered wait, so a writer can
 * lose 40 times in a row while 20 others finish. So we stop only after both many attempts and a
 * long time, measured on the wall clock: it bounds our own work, not a platform wait.
 */
const MIN_ATTEMPTS = 40;
/** Under the shortest job limit in the shipped workflow (merge: 10 minutes), so the message is seen. */
const KEEP_TRYING_MS = 8 * 60_000;
const TRACKING = 'refs/remotes/origin/crew-state';

/**
 * The run state on the `crew/state` branch. Every write is a compare-and-swap: a
 * commit on the tip we read, pushed without force. If another job moved the tip
 * first the push is rejected, and we fetch, re-apply the mutation and try again.
 */
export class GitStateStore implements StateStore {
  private readonly git: SimpleGit;
  private ready?: Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The commit checked out, when this store put it there; unset whenever that is not known (saves
   * asking git for it on every read, which a job does dozens of times).
   */
  private head?: string;

  constructor(
    private readonly dir: string,
    private readonly remoteUrl: string,
    token: string,
    private readonly clock: Clock,
    private readonly log: Log,
  ) {
    mkdirSync(dir, { recursive: true });
    this.git = gitClient(dir, token, undefined, THROWAWAY_CHECKOUT);
  }

  private init(): Promise<void> {
    this.ready ??= this.git.raw(['init', '--quiet']).then(() => undefined);
    return this.ready;
  }

  /** Moves the work tree to the remote tip; false when the state branch does not exist yet. */
  private async syncToTip(): Promise<boolean> {
    await this.init();
    const tip = (await this.git.raw(['ls-remote', this.remoteUrl, `refs/heads/${STATE_BRANCH}`])).split(/\s/)[0];
    // The remembered head saves asking git for it; the tree is still checked on every read, since
    // a read must never return (or a write commit) files that something else changed.
    if (tip && tip === this.head && !(await this.git.raw(['status', '--porcelain'])).trim()) return true;
    this.head = undefined;
    if (!tip) {
      await this.git.raw(['checkout', '--quiet', '--orphan', `orphan-${Date.now()}`]).catch(() => undefined);
      await this.git.raw(['rm', '-rfq', '--cached', '--ignore-unmatch', '.']);
      await this.clearWorkTree();
      return false;
    }
    // Already there (our own last write, or an unchanged tip): one round trip instead of a fetch.
    const head = (await this.git.raw(['rev-parse', '--verify', '--quiet', 'HEAD']).catch(() => '')).trim();
    if (head === tip && !(await this.git.raw(['status', '--porcelain'])).trim()) {
      this.head = tip;
      return true;
    }
    await this.git.raw(['fetch', '--quiet', '--no-tags', '--depth=1', this.remoteUrl, `+${tip}:${TRACKING}`]);
    await this.git.raw(['checkout', '--quiet', '--force', '-B', 'state', TRACKING]);
    await this.git.raw(['clean', '-fdq']);
    this.head = tip;
    return true;
  }

  private async clearWorkTree(): Promise<void> {
    for (const entry of await readdir(this.dir)) {
      if (entry !== '.git') await rm(join(this.dir, entry), { recursive: true, force: true });
    }
  }

  private readTree(prefix: string): Promise<Map<string, string>> {
    return readTree(this.dir, prefix);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  load(prefix: string): Promise<StateSnapshot> {
    return this.serial(async () => {
      await this.syncToTip();
      return this.snapshot(prefix, await this.readTree(prefix));
    });
  }

  loadRuns(pick: (path: string) => boolean): Promise<StateSnapshot> {
    return this.serial(async () => {
      await this.syncToTip();
      // Only run folders, and only the files asked for: never git's own folder, never a whole tree.
      const skip = (path: string, isDir: boolean) => (isDir ? path === '.git' || !/^issue-\d+(\/run-\d+(\/|$)|$)/.test(path) : !pick(path));
      return this.snapshot('', await readTree(this.dir, '', skip));
    });
  }

  private async snapshot(prefix: string, files: Map<string, string>): Promise<StateSnapshot> {
    const version = this.head ?? ((await this.git.raw(['rev-parse', '--verify', '--quiet', 'HEAD']).catch(() => '')).trim() || 'none');
    return {
      version,
      read: (path) => files.get(path),
      list: (p) => [...files.keys()].filter((k) => k.startsWith(p)).sort(),
    };
  }

  update<T>(prefix: string, message: string, mutate: (tx: StateTx) => T): Promise<{ value: T; snapshot: StateSnapshot }> {
    return this.serial(async () => {
      const started = performance.now();
      for (let attempt = 1; ; attempt++) {
        await this.syncToTip();
        const files = await this.readTree(prefix);
        const writes = new Map<string, string | null>();
        const inPrefix = (path: string) => {
          if (!path.startsWith(prefix)) throw new Error(`state write outside ${prefix}: ${path}`);
          return path;
        };
        const tx: StateTx = {
          read: (path) => (writes.has(path) ? (writes.get(path) ?? undefined) : files.get(path)),
          write: (path, content) => void writes.set(inPrefix(path), content),
          remove: (path) => void writes.set(inPrefix(path), null),
          list: (p) =>
            [...new Set([...files.keys(), ...writes.keys()])].filter((k) => k.startsWith(p) && (writes.has(k) ? writes.get(k) !== null : true)).sort(),
        };
        const value = mutate(tx);
        const changed = [...writes].filter(([path, content]) => (content === null ? files.has(path) : files.get(path) !== content));
        if (changed.length === 0) return { value, snapshot: await this.snapshot(prefix, files) };
        this.head = undefined;
        for (const [path, content] of changed) {
          const full = join(this.dir, path);
          if (content === null) {
            await rm(full, { force: true });
            files.delete(path);
          } else {
            await mkdir(dirname(full), { recursive: true });
            await writeFile(full, content);
            files.set(path, content);
          }
        }
        await this.git.raw(['add', '-A']);
        await withMessageFile(message, (m) => this.git.raw(['commit', '--quiet', '--no-verify', ...m]));
        try {
          this.log.checkpoint('state-write');
          await this.git.raw(['push', '--quiet', this.remoteUrl, `HEAD:refs/heads/${STATE_BRANCH}`]);
          // The write has landed: not knowing the commit only costs the next read one more question.
          this.head = (await this.git.raw(['rev-parse', '--verify', '--quiet', 'HEAD']).catch(() => '')).trim() || undefined;
          return { value, snapshot: await this.snapshot(prefix, files) };
        } catch (e) {
          const refused = pushRefusedByRule(e, STATE_BRANCH);
          if (refused) throw refused;
          if (!isNonFastForward(e)) throw e;
          const elapsed = performance.now() - started;
          if (attempt >= MIN_ATTEMPTS && elapsed >= KEEP_TRYING_MS) {
            throw new Error(
              `could not write ${STATE_BRANCH} after ${attempt} attempts in ${Math.round(elapsed / 60_000)} minutes: other jobs kept moving it. Re-run the failed job from the Actions tab to try again.`,
            );
          }
          // Full jitter spreads writers that collided, so the next round mostly does not.
          const wait = Math.random() * Math.min(3000, 100 * 2 ** Math.min(attempt, 10));
          this.log.info(`${STATE_BRANCH} moved under us (attempt ${attempt}); retrying in ~${Math.round(wait)}ms`);
          await this.clock.sleep(wait);
        }
      }
    });
  }
}
