import { mkdirSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Git } from './git-process';
import { assertCrewRef, assertRevision, issueBranchFolder, runBranchFolder, STATE_BRANCH } from '../../domain/refs';
import { readTree } from '../files/read-tree';
import {
  BranchMoved,
  DeletionsRefused,
  type Clock,
  type Freshness,
  type Log,
  type StateSnapshot,
  type StateStore,
  type StateTx,
  type WriteOptions,
} from '../../ports';
import type { BranchTips } from './branch-tips';
import { TreeFingerprint } from './tree-fingerprint';
import { gitClient, isNonFastForward, pushRefusedByRule, ruleViolation, THROWAWAY_CHECKOUT, withMessageFile } from './git-client';

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
  private readonly git: Git;
  private ready?: Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The commit checked out, when this store put it there; unset whenever that is not known (saves
   * asking git for it on every read, which a job does dozens of times).
   */
  private head?: string;
  /**
   * When (performance.now()) `head` was last known to be the remote tip: this store's own ls-remote
   * said so, or its own push put it there. A read that may be that old answers without a round trip.
   */
  private seenAt?: number;
  /**
   * Whether other jobs left the branch alone the last time this store asked GitHub (the tip was the
   * one it knew, or it knew none yet). A write starts from a tip seen earlier only then: where
   * others are writing, that tip is likely gone, and asking first costs less than a lost push.
   */
  private quiet = true;
  /**
   * When this store last heard that the branch does not exist yet (a repository's first run), and
   * has written nothing since: the tip it "saw" is none. A write from there is still a
   * compare-and-swap: a push of a first commit onto a branch someone else created is refused.
   */
  private absentSeenAt?: number;
  /**
   * The work tree as it was when this store last knew it to match HEAD (its own checkout or commit, or a clean
   * `git status`): while it still holds, nothing changed the files behind the store's back, and git need not be asked.
   */
  private clean?: TreeFingerprint;

  constructor(
    private readonly dir: string,
    private readonly remoteUrl: string,
    token: string,
    private readonly clock: Clock,
    private readonly log: Log,
    /** Where the run's branch tips this store's ls-remote lists go, for the job's fetches (see BranchTips). */
    private readonly tips?: BranchTips,
    /**
     * The object folder of the job's checkout, whose commits a write can carry (WriteOptions.carry).
     * Only the push that carries one reads it (GIT_ALTERNATE_OBJECT_DIRECTORIES for that command):
     * the checkout holds a model's files, so the state's own reads never take objects from there.
     */
    carryFrom?: string,
  ) {
    mkdirSync(dir, { recursive: true });
    this.git = gitClient(dir, token, undefined, THROWAWAY_CHECKOUT);
    // From the same client: its drivers were listed once (driverOverrides, a git process of its own).
    this.carrier = carryFrom ? this.git.env('GIT_ALTERNATE_OBJECT_DIRECTORIES', carryFrom) : undefined;
    this.statusGit = this.git.env('GIT_OPTIONAL_LOCKS', '0');
  }

  private readonly carrier?: Git;
  private readonly statusGit: Git;

  get carriesBranches(): boolean {
    return this.carrier !== undefined;
  }

  readonly deletesBranches = true;

  private init(): Promise<void> {
    this.ready ??= this.git.raw(['init', '--quiet']).then(() => undefined);
    return this.ready;
  }

  /**
   * Moves the work tree to the remote tip; false when the state branch does not exist yet. For a
   * run's folder (`issue-N/run-k/`) or an issue's (`issue-N/`), the same ls-remote lists their branches (BranchTips).
   */
  private async syncToTip(fresh: Freshness = {}, prefix = '', afterLostPush = false): Promise<boolean> {
    await this.init();
    if (afterLostPush && (await this.fetchTipByName(true))) return true;
    // A first read that needs no branch listing: by name. No branch yet fails the fetch, and the listing says so.
    const knowsNoTip = !this.head && this.absentSeenAt === undefined;
    if (knowsNoTip && fresh.withoutBranches && !this.tips?.wantedBranches().length && (await this.fetchTipByName(false))) return true;
    // The tip this store last saw, if the caller accepts one that old and nothing touched the tree since.
    const age = this.seenAt === undefined ? Infinity : performance.now() - this.seenAt;
    if (this.head && age <= (fresh.seenWithinMs ?? 0) && (await this.unchanged(this.head))) return true;
    // Only a store that heard the branch is absent may answer so without asking: one that never asked, or
    // whose own commit did not land (a refused push leaves it checked out here), knows nothing of GitHub's tip.
    if (
      !this.head &&
      this.absentSeenAt !== undefined &&
      performance.now() - this.absentSeenAt <= (fresh.seenWithinMs ?? 0) &&
      (await this.unchanged(undefined))
    )
      return false;
    const asked = performance.now();
    const tip = await this.remoteTip(prefix, asked);
    this.quiet = !this.head || tip === this.head;
    // The remembered head saves asking git for it; the tree is still checked on every read, since
    // a read must never return (or a write commit) files that something else changed.
    if (tip && tip === this.head && (await this.unchanged(this.head))) {
      this.seenAt = asked;
      return true;
    }
    this.forget();
    if (!tip) {
      this.clean = undefined;
      await this.git.raw(['checkout', '--quiet', '--orphan', `orphan-${Date.now()}`]).catch(() => undefined);
      await this.git.raw(['rm', '-rfq', '--cached', '--ignore-unmatch', '.']);
      await this.clearWorkTree();
      this.absentSeenAt = asked;
      return false;
    }
    // Already there (our own last write, or an unchanged tip): one round trip instead of a fetch.
    const head = (await this.git.raw(['rev-parse', '--verify', '--quiet', 'HEAD']).catch(() => '')).trim();
    if (head === tip && (await this.unchanged(tip))) {
      this.saw(tip, asked);
      return true;
    }
    await this.git.raw(['fetch', '--quiet', '--no-tags', '--depth=1', this.remoteUrl, `+${tip}:${TRACKING}`]);
    await this.checkOutTracking(tip, asked);
    return true;
  }

  /**
   * The state fetched by name, one round trip fewer than a listing and a fetch by id (#31 §4); but it lists
   * no run branches. After a lost push (`stale`) the tip is known to have moved, so a listing would only
   * name the commit to fetch next; the write that won may have moved run branches too, so the job's
   * earlier listings are dropped (BranchTips): its next fetch of a branch asks GitHub. False when the
   * fetch failed (no such branch): the caller asks.
   */
  private async fetchTipByName(stale: boolean): Promise<boolean> {
    const asked = performance.now();
    const fetched = await this.git.raw(['fetch', '--quiet', '--no-tags', '--depth=1', this.remoteUrl, `+refs/heads/${STATE_BRANCH}:${TRACKING}`]).then(
      () => true,
      () => false,
    );
    if (stale) this.tips?.forgetListings();
    this.forget();
    if (!fetched) return false;
    await this.checkOutTracking((await this.git.raw(['rev-parse', '--verify', TRACKING])).trim(), asked);
    return true;
  }

  private async checkOutTracking(tip: string, asked: number): Promise<void> {
    this.clean = undefined;
    await this.git.raw(['checkout', '--quiet', '--force', '-B', 'state', TRACKING]);
    // Ignored files too (-x): a read takes every file of the tree, so none may stay that the commit lacks.
    await this.git.raw(['clean', '-fdxq']);
    // No fingerprint here: a change between git writing the files and a walk of them would be trusted from then on.
    // The next read asks git status once (unchanged), whose fingerprint is taken before git looks.
    this.saw(tip, asked);
  }

  /**
   * Whether the work tree and index are still those of commit `head` (undefined: no commit yet): no file was changed
   * behind the store's back (a read must never return, nor a write commit, such a file). `git status` (a process) only
   * when the tree's fingerprint no longer holds; the fingerprint is taken before git looks, so a change while it looks
   * shows next time. git is asked for HEAD's commit in the same process (a commit made in the checkout moves work
   * tree, index and HEAD together, and leaves status empty), and for every file, untracked or ignored, whatever the
   * checkout's own exclude list or `status.showUntrackedFiles` say: a read takes every file of the tree.
   */
  private async unchanged(head: string | undefined): Promise<boolean> {
    if (await this.clean?.holds()) return true;
    const seen = await TreeFingerprint.take(this.dir);
    // Without optional locks git status leaves the index as it is, so the fingerprint just taken still holds.
    const said = (await this.statusGit.raw(['status', '--porcelain=v2', '--branch', '--untracked-files=all', '--ignored'])).split('\n').filter(Boolean);
    const clean = said.includes(`# branch.oid ${head ?? '(initial)'}`) && said.every((line) => line.startsWith('# '));
    this.clean = clean ? seen : undefined;
    return clean;
  }

  /**
   * Pushes the carried commit to its branch, with `refs` (the state's own commit) in the same
   * atomic push: GitHub takes every ref or none (its receive-pack reports the `atomic` capability
   * and commits the refs in one transaction: github/spokes-receive-pack#18; the offline world's
   * git receive-pack does the same). A server without it fails the push with git's "does not
   * support --atomic push", which the job shows. A rejection of the branch itself (another push
   * moved it) is BranchMoved; any other rejection is the state's, and the caller's retry handles it.
   */
  private async pushCarried(carry: NonNullable<WriteOptions['carry']>, refs: string[]): Promise<void> {
    const target = `refs/heads/${carry.branch}`;
    try {
      await this.carrier!.raw(['push', '--quiet', '--atomic', this.remoteUrl, `${carry.sha}:${target}`, ...refs]);
    } catch (e) {
      const refused = pushRefusedByRule(e, carry.branch);
      if (refused) throw refused;
      const text = String(e instanceof Error ? e.message : e);
      // git names the ref that failed an atomic push; alone, the branch is the only one there is.
      if (isNonFastForward(e) && (refs.length === 0 || text.includes(`atomic push failed for ref ${target}.`))) throw new BranchMoved(carry.branch);
      throw e;
    }
    this.tips?.pushed(carry.branch, carry.sha);
  }

  /**
   * The state's commit and the deletions in one atomic push (see pushCarried for GitHub's `atomic`),
   * each deletion leased to the commit crew looked at. Only the state ref losing the race is the
   * caller's retry; anything that refuses a deletion (a lease that failed, a rule, a permission) is
   * DeletionsRefused, for the caller's own way of deleting, which tells each branch's outcome apart.
   */
  private async pushDeleting(deleting: NonNullable<WriteOptions['deleting']>): Promise<void> {
    const leases = deleting.map((d) => `--force-with-lease=refs/heads/${d.branch}:${d.sha}`);
    try {
      await this.git.raw([
        'push',
        '--quiet',
        '--atomic',
        ...leases,
        this.remoteUrl,
        ...deleting.map((d) => `:refs/heads/${d.branch}`),
        `HEAD:refs/heads/${STATE_BRANCH}`,
      ]);
    } catch (e) {
      const text = String(e instanceof Error ? e.message : e);
      const deletionRefused = /stale info/.test(text) || ruleViolation(text) !== undefined || /\b403\b|Permission to \S+ denied/i.test(text);
      // Only the state ref losing the race is left: the caller reads again and retries, deletions and all.
      if (!deletionRefused && isNonFastForward(e)) throw e;
      throw new DeletionsRefused(text.trim().split('\n').slice(-2).join(' ').slice(0, 300));
    }
  }

  /** The state branch's tip on GitHub (undefined: no branch yet), and the run's branches in the same listing. */
  private async remoteTip(prefix: string, asked: number): Promise<string | undefined> {
    // A run's folder lists that run's branches; an issue's (the merge and cleanup jobs read it) every run's of the issue.
    const run = /^issue-(\d+)\/(?:run-(\d+)\/)?$/.exec(prefix);
    const folder = this.tips && run ? (run[2] ? runBranchFolder(Number(run[1]), Number(run[2])) : issueBranchFolder(Number(run[1]))) : undefined;
    const wanted = this.tips?.wantedBranches() ?? [];
    const patterns = [`refs/heads/${STATE_BRANCH}`, ...(folder ? [`refs/heads/${folder}*`] : []), ...wanted.map((b) => `refs/heads/${b}`)];
    const listed = new Map<string, string>();
    for (const line of (await this.git.raw(['ls-remote', '--heads', this.remoteUrl, ...patterns])).split('\n')) {
      const [sha, ref] = line.split('\t');
      if (sha && ref?.startsWith('refs/heads/')) listed.set(ref.slice('refs/heads/'.length), sha);
    }
    if (folder) this.tips!.heard(folder, new Map([...listed].filter(([b]) => b.startsWith(folder))), asked);
    for (const b of wanted) this.tips!.heardBranch(b, listed.get(b), asked);
    return listed.get(STATE_BRANCH);
  }

  private saw(tip: string, at: number): void {
    this.head = tip;
    this.seenAt = at;
    this.absentSeenAt = undefined;
  }

  private forget(): void {
    this.head = undefined;
    this.seenAt = undefined;
    this.absentSeenAt = undefined;
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

  load(prefix: string, fresh?: Freshness): Promise<StateSnapshot> {
    return this.serial(async () => {
      await this.syncToTip(fresh, prefix);
      return this.snapshot(prefix, await this.readTree(prefix));
    });
  }

  loadRuns(pick: (path: string) => boolean, fresh?: Freshness): Promise<StateSnapshot> {
    return this.serial(async () => {
      await this.syncToTip(fresh);
      // Only run folders, and only the files asked for: never git's own folder, never a whole tree.
      const skip = (path: string, isDir: boolean) => (isDir ? path === '.git' || !/^issue-\d+(\/run-\d+(\/|$)|$)/.test(path) : !pick(path));
      return this.snapshot('', await readTree(this.dir, '', skip));
    });
  }

  private async snapshot(prefix: string, files: Map<string, string>): Promise<StateSnapshot> {
    const version = this.head ?? ((await this.git.raw(['rev-parse', '--verify', '--quiet', 'HEAD']).catch(() => '')).trim() || 'none');
    return {
      version,
      ...(this.head && this.seenAt !== undefined ? { confirmedAt: this.seenAt } : {}),
      read: (path) => files.get(path),
      list: (p) => [...files.keys()].filter((k) => k.startsWith(p)).sort(),
    };
  }

  update<T>(prefix: string, message: string, mutate: (tx: StateTx) => T, options: WriteOptions = {}): Promise<{ value: T; snapshot: StateSnapshot }> {
    const { carry, deleting, ...fresh } = options;
    return this.serial(async () => {
      if (carry && !this.carrier) throw new Error('this state store was not given a checkout to carry branches from');
      if (carry) {
        assertCrewRef(carry.branch);
        assertRevision(carry.sha);
      }
      if (carry && deleting?.length) throw new Error('a state write carries a branch or deletes branches, not both');
      for (const d of deleting ?? []) {
        if (assertCrewRef(d.branch) === STATE_BRANCH) throw new Error(`refusing to delete ${STATE_BRANCH}: it holds every run's state`);
        assertRevision(d.sha);
      }
      const started = performance.now();
      for (let attempt = 1; ; attempt++) {
        // Only the first try may start from a tip seen earlier: after a lost push, the remote is asked.
        // A write is a compare-and-swap, so it never lands on a tip that moved: asking first would only
        // spare a lost push, which is worth a round trip only where others are writing (#31 §4).
        const tried = performance.now();
        await this.syncToTip(attempt === 1 && this.quiet ? { seenWithinMs: Infinity, ...fresh } : {}, prefix, attempt > 1);
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
        if (changed.length === 0) {
          // Nothing to record, but the carried work is pushed all the same: nothing a job did is lost.
          if (carry) await this.pushCarried(carry, []);
          return { value, snapshot: await this.snapshot(prefix, files) };
        }
        this.forget();
        this.clean = undefined;
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
        // The tree as git will commit it, and again once committed: a file changed between (after git read it) would be
        // baked into the fingerprint the next reads trust, so then the next read asks git instead.
        const written = await TreeFingerprint.take(this.dir);
        await this.git.raw(['add', '-A']);
        await withMessageFile(message, (m) => this.git.raw(['commit', '--quiet', '--no-verify', ...m]));
        const committed = await TreeFingerprint.take(this.dir);
        this.clean = written && committed?.sameWorkTree(written) ? committed : undefined;
        try {
          this.log.checkpoint('state-write');
          const pushed = performance.now();
          if (carry) await this.pushCarried(carry, [`HEAD:refs/heads/${STATE_BRANCH}`]);
          else if (deleting?.length) await this.pushDeleting(deleting);
          else await this.git.raw(['push', '--quiet', this.remoteUrl, `HEAD:refs/heads/${STATE_BRANCH}`]);
          // The write has landed: not knowing the commit only costs the next read one more question.
          const head = (await this.git.raw(['rev-parse', '--verify', '--quiet', 'HEAD']).catch(() => '')).trim();
          if (head) this.saw(head, pushed);
          return { value, snapshot: await this.snapshot(prefix, files) };
        } catch (e) {
          if (e instanceof BranchMoved || e instanceof DeletionsRefused) throw e;
          const refused = pushRefusedByRule(e, STATE_BRANCH);
          if (refused) throw refused;
          if (!isNonFastForward(e)) throw e;
          const elapsed = performance.now() - started;
          if (attempt >= MIN_ATTEMPTS && elapsed >= KEEP_TRYING_MS) {
            throw new Error(
              `could not write ${STATE_BRANCH} after ${attempt} attempts in ${Math.round(elapsed / 60_000)} minutes: other jobs kept moving it. Re-run the failed job from the Actions tab to try again.`,
            );
          }
          this.quiet = false;
          // Full jitter spreads writers that collided, so the next round mostly does not. The
          // window grows with the attempts and with how long this attempt took (read, commit,
          // push): writers collide when their attempts overlap, so a window shorter than one
          // attempt hardly separates them. That part is measured in real time and waited in real
          // time, as no time scale shrinks git; the rest is a platform wait, scaled.
          const window = Math.min(3000, 100 * 2 ** Math.min(attempt, 10));
          const overlap = (performance.now() - tried) * Math.min(2 ** (attempt - 1), 8);
          const wait = Math.random() * window;
          const apart = Math.random() * overlap;
          this.log.info(`${STATE_BRANCH} moved under us (attempt ${attempt}); retrying in ~${Math.round(apart + wait)}ms`);
          await new Promise((resolve) => setTimeout(resolve, apart));
          await this.clock.sleep(wait);
        }
      }
    });
  }
}
