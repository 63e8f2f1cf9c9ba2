import type { Git } from './git-process';
import { assertBranchName, assertCrewRef, assertRevision as rev } from '../../domain/refs';
import type { Remote, WorkingCopy } from '../../ports';
import type { BranchTips } from './branch-tips';
import { isNonFastForward, pushRefusedByRule } from './git-client';

/** Pushes of one branch before giving up: each retry first rebases onto what another job pushed. */
const PUSH_ATTEMPTS = 3;

/**
 * The Remote port over a git URL (GitHub), through the working copy's own git client: fetched
 * branches land under `refs/remotes/origin/`. Only crew's code pushes, and only to crew/* branches.
 */
export class GitRemote implements Remote {
  constructor(
    private readonly git: Git,
    private readonly url: string,
    private readonly copy: Pick<WorkingCopy, 'isAncestor'>,
    /** The run's branch tips the job's state store last listed, when it shares them (see BranchTips). */
    private readonly tips?: BranchTips,
  ) {}

  tracking(branch: string): string {
    return `refs/remotes/origin/${branch}`;
  }

  async head(branch: string): Promise<string | undefined> {
    const out = await this.git.raw(['ls-remote', '--heads', this.url, `refs/heads/${assertBranchName(branch)}`]);
    return out.split(/\s+/)[0] || undefined;
  }

  async fetch(branches: string[]): Promise<{ missing: string[] }> {
    if (branches.length === 0) return { missing: [] };
    for (const b of branches) assertBranchName(b);
    const tips = new Map<string, string>();
    const heard = this.tips?.lookup(branches);
    if (heard) {
      // The state store listed these a moment ago, in the round trip that read the state.
      for (const [b, sha] of heard) if (sha) tips.set(b, rev(sha));
    } else {
      const out = await this.git.raw(['ls-remote', '--heads', this.url, ...branches.map((b) => `refs/heads/${b}`)]);
      for (const line of out.split('\n').filter(Boolean)) {
        const [sha, ref] = line.split('\t') as [string, string];
        tips.set(ref.replace(/^refs\/heads\//, ''), rev(sha));
      }
    }
    // The listing named each tip: a commit already here (this job pushed it) needs no round trip, and
    // the rest are fetched by id, which spares the fetch listing the refs again.
    const absent: string[] = [];
    for (const b of branches.filter((b) => tips.has(b))) {
      if ((await this.git.raw(['cat-file', '-t', tips.get(b)!]).catch(() => '')).trim() === 'commit') {
        await this.git.raw(['update-ref', this.tracking(b), tips.get(b)!]);
      } else absent.push(b);
    }
    if (absent.length) {
      await this.git.raw(['fetch', '--no-tags', '--quiet', this.url, ...absent.map((b) => `+${tips.get(b)!}:${this.tracking(b)}`)]);
    }
    return { missing: branches.filter((b) => !tips.has(b)) };
  }

  async fetchCommit(sha: string): Promise<void> {
    const have = await this.git.raw(['cat-file', '-t', rev(sha)]).catch(() => '');
    if (have.trim() !== 'commit') await this.git.raw(['fetch', '--no-tags', '--quiet', '--depth=1', this.url, sha]);
  }

  /**
   * Pushes HEAD without force. If the branch moved on the remote (another job pushed to
   * it, e.g. a worker restarted while the first still ran), this job's commits are
   * rebased onto the remote tip and pushed again, a bounded number of times. A rebase
   * that conflicts is undone and reported; nothing on the remote is ever overwritten.
   */
  async push(branch: string): Promise<void> {
    assertCrewRef(branch);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.git.raw(['push', '--quiet', this.url, `HEAD:refs/heads/${branch}`]);
        this.tips?.pushed(branch, (await this.git.raw(['rev-parse', 'HEAD'])).trim());
        return;
      } catch (e) {
        if (!isNonFastForward(e) || attempt >= PUSH_ATTEMPTS) throw pushRefusedByRule(e, branch) ?? e;
      }
      await this.git.raw(['fetch', '--no-tags', '--quiet', this.url, `+refs/heads/${branch}:refs/remotes/origin/${branch}`]);
      // --empty=keep: the attempt commit may change nothing, but its Crew-Result trailer must stay at the tip.
      // The outcome is read from the repository, not the exit (see GitWorkingCopy's tryMerge).
      let failure = '';
      await this.git
        .raw(['rebase', '--quiet', '--empty=keep', `refs/remotes/origin/${branch}`])
        .catch((e: unknown) => (failure = e instanceof Error ? e.message.split('\n')[0]! : String(e)));
      const conflicts = (await this.git.raw(['diff', '--name-only', '--diff-filter=U'])).split('\n').filter(Boolean);
      if (conflicts.length || failure || !(await this.copy.isAncestor(`refs/remotes/origin/${branch}`, 'HEAD'))) {
        await this.git.raw(['rebase', '--abort']).catch(() => undefined);
        throw new Error(
          `another job pushed to ${branch} while this one worked, and this job's commits do not rebase onto it${conflicts.length ? ` (conflicts in ${conflicts.join(', ')})` : failure ? ` (${failure})` : ''}. Nothing was overwritten.`,
        );
      }
    }
  }

  /** `--force-with-lease`: never a blind force push. */
  async pushReplacing(branch: string, expectedSha: string): Promise<void> {
    assertCrewRef(branch);
    await this.git
      .raw(['push', '--quiet', `--force-with-lease=refs/heads/${branch}:${expectedSha}`, this.url, `HEAD:refs/heads/${branch}`])
      .catch((e: unknown) => {
        throw pushRefusedByRule(e, branch) ?? e;
      });
  }
}
