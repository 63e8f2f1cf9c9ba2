/**
 * How long a listing of a run's branches stays good for a fetch: 30 s of real time, the few steps
 * of crew's own between reading the state and fetching (no time scale shrinks those, so neither
 * does it shrink this). A task's dependencies do not move while it runs, and its own branch moves
 * only under a second worker of the same task, whose push this job's push then rebases onto
 * (GitRemote.push), so a listing that old cannot mislead a fetch.
 */
const GOOD_FOR_MS = 30_000;

/**
 * What one job last heard from GitHub about the tips of a run's branches. The state store's
 * ls-remote lists the run's folder of branches (`crew/N/rk/`) along with `crew/state`, in the same
 * round trip, and the remote's fetch takes the tips from here instead of asking again.
 */
export class BranchTips {
  private readonly folders = new Map<string, { at: number; tips: Map<string, string> }>();
  /** Single branches (not folders) a listing was asked to carry, and what it said of them. */
  private readonly wanted = new Set<string>();
  private readonly single = new Map<string, { at: number; sha: string | undefined }>();

  /** A branch the job will ask the head of: the state store's next listing names it too. */
  want(branch: string): void {
    this.wanted.add(branch);
  }

  /** The branches the next listing is to carry besides the state and the run's folder. */
  wantedBranches(): string[] {
    return [...this.wanted];
  }

  /** What a listing said of a wanted branch (undefined: no such branch). */
  heardBranch(branch: string, sha: string | undefined, at: number): void {
    this.wanted.delete(branch);
    this.single.set(branch, { at, sha });
  }

  /** A wanted branch's head as listed recently enough; undefined when GitHub must be asked. */
  headOf(branch: string): { sha: string | undefined } | undefined {
    const heard = this.single.get(branch);
    return heard && performance.now() - heard.at <= GOOD_FOR_MS ? { sha: heard.sha } : undefined;
  }

  /** A listing of every branch under `folder` (branch name → commit), asked for at `at` (performance.now()). */
  heard(folder: string, tips: Map<string, string>, at: number): void {
    this.folders.set(folder, { at, tips });
  }

  /**
   * The tips of `branches` (absent: no such branch) when each lies in a folder listed recently
   * enough; undefined when any does not, and GitHub must be asked.
   */
  lookup(branches: string[]): Map<string, string | undefined> | undefined {
    const out = new Map<string, string | undefined>();
    for (const b of branches) {
      const folder = this.folderOf(b);
      const listed = folder === undefined ? undefined : this.folders.get(folder);
      if (!listed || performance.now() - listed.at > GOOD_FOR_MS) return undefined;
      out.set(b, listed.tips.get(b));
    }
    return out;
  }

  /**
   * The branches under each of `folders` as this job's listings said, however long ago; undefined when
   * a folder lies in none. Only for branches nobody creates any more (an ended run's), whose deletion is
   * leased to the commit listed: a branch that moved or went since fails its lease, and is looked at again.
   */
  listedUnder(folders: readonly string[]): Array<{ branch: string; sha: string }> | undefined {
    const out: Array<{ branch: string; sha: string }> = [];
    for (const f of folders) {
      const listing = this.newestCovering(f);
      if (!listing) return undefined;
      for (const [branch, sha] of listing.tips) if (branch.startsWith(f)) out.push({ branch, sha });
    }
    return out;
  }

  /** What this job heard may be out of date (another job's write won a race): its next fetches ask GitHub. */
  forgetListings(): void {
    this.folders.clear();
    this.single.clear();
  }

  /** This job's own push moved a branch: every listing that covers it says so from now on. */
  pushed(branch: string, sha: string): void {
    this.single.delete(branch);
    for (const [folder, listing] of this.folders) if (branch.startsWith(folder)) listing.tips.set(branch, sha);
  }

  private folderOf(branch: string): string | undefined {
    return [...this.folders].filter(([f]) => branch.startsWith(f)).sort(([, a], [, b]) => b.at - a.at)[0]?.[0];
  }

  /** The newest listing of a folder that holds `folder` (an issue's `crew/N/` holds its runs' `crew/N/rk/`). */
  private newestCovering(folder: string): { at: number; tips: Map<string, string> } | undefined {
    const f = this.folderOf(folder);
    return f === undefined ? undefined : this.folders.get(f);
  }
}
