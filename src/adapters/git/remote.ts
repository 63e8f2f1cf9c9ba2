import type { Git } from './git-process';
import { assertBranchName, assertCrewRef, assertRevision as rev, STATE_BRANCH } from '../../domain/refs';
import type { BranchTip } from '../../domain/retention';
import type { BranchDeletion, Remote, WorkingCopy } from '../../ports';
import type { BranchTips } from './branch-tips';
import { isNonFastForward, pushRefusedByRule, ruleViolation } from './git-client';

/** A run's folder of branches, `crew/<issue>/r<run>/`, checked: nothing else is listed by folder. */
function runFolder(folder: string): string {
  if (!/^crew\/\d+\/r\d+\/$/.test(folder)) throw new Error(`refusing to list '${folder}': crew lists only a run's folder of branches, crew/<issue>/r<run>/`);
  return folder;
}

/** Pushes of one branch before giving up: each retry first rebases onto what another job pushed. */
const PUSH_ATTEMPTS = 3;

/**
 * The Remote port over a git URL (GitHub), through the working copy's own git client: fetched
 * branches land under `refs/remotes/origin/`. Only crew's code pushes, and only to crew/* branches.
 */
export class GitRemote implements Remote {
  /** Commits fetchCommit found or fetched. */
  private readonly present = new Set<string>();

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

  expectHead(branch: string): void {
    this.tips?.want(assertBranchName(branch));
  }

  async head(branch: string): Promise<string | undefined> {
    const heard = this.tips?.headOf(branch);
    if (heard) return heard.sha;
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
    // A commit once here stays for the job (a job's checkout runs no gc: THROWAWAY_CHECKOUT), so the steps that each
    // make sure of the run's base ask git once.
    if (this.present.has(rev(sha))) return;
    const have = await this.git.raw(['cat-file', '-t', sha]).catch(() => '');
    if (have.trim() !== 'commit') await this.git.raw(['fetch', '--no-tags', '--quiet', '--depth=1', this.url, sha]);
    this.present.add(sha);
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

  /** crew's branches under `folders` as this job's state reads listed them (BranchTips.listedUnder); undefined where none did. */
  listedBranches(folders: readonly string[]): BranchTip[] | undefined {
    return this.tips?.listedUnder(folders);
  }

  /**
   * Every branch under `crew/` on the remote, in one listing; or only those in `folders` (`crew/N/rK/`). Always
   * asked now, never from BranchTips: merging may have deleted the head branch ("Automatically delete head branches").
   */
  async crewBranches(folders?: readonly string[]): Promise<BranchTip[]> {
    const patterns = folders?.length ? folders.map((f) => `refs/heads/${runFolder(f)}*`) : ['refs/heads/crew/*'];
    const out = await this.git.raw(['ls-remote', '--heads', this.url, ...patterns]);
    return out
      .split('\n')
      .map((line) => line.split('\t') as [string, string | undefined])
      .filter(([sha, ref]) => ref?.startsWith('refs/heads/crew/') && /^[0-9a-f]{40,64}$/.test(sha))
      .map(([sha, ref]) => ({ branch: ref!.slice('refs/heads/'.length), sha }));
  }

  /**
   * Deletes crew's branches in one push, each leased to the commit crew looked at
   * (`--force-with-lease=<ref>:<sha>` with an empty source): a branch someone pushed to since is left
   * as it is. Never crew/state, and only names crew gives its branches. Per branch, what happened; a
   * rule or a permission that refuses the push is an outcome, any other failure throws.
   */
  async deleteBranches(tips: readonly BranchTip[]): Promise<BranchDeletion[]> {
    if (!tips.length) return [];
    for (const t of tips) {
      if (assertCrewRef(t.branch) === STATE_BRANCH) throw new Error(`refusing to delete ${STATE_BRANCH}: it holds every run's state`);
      rev(t.sha);
    }
    const args = [
      'push',
      '--porcelain',
      ...tips.map((t) => `--force-with-lease=refs/heads/${t.branch}:${t.sha}`),
      this.url,
      ...tips.map((t) => `:refs/heads/${t.branch}`),
    ];
    let text: string;
    try {
      text = await this.git.raw(args);
    } catch (e) {
      text = String(e instanceof Error ? e.message : e);
    }
    // --porcelain: one line per ref, "<flag>\t<from>:<to>\t<summary>"; "-" deleted, "!" rejected.
    const status = new Map<string, { ok: boolean; summary: string }>();
    for (const line of text.split('\n')) {
      const m = /^([-!=*+ ])\t[^\t]*:refs\/heads\/([^\t]+)\t(.*)$/.exec(line);
      if (m) status.set(m[2]!, { ok: m[1] === '-' || m[1] === '=', summary: m[3]! });
    }
    const rule = ruleViolation(text);
    const permission = /\b403\b|Permission to \S+ denied|Write access to repository not granted/i.test(text);
    const stale: BranchTip[] = [];
    const out: BranchDeletion[] = [];
    for (const t of tips) {
      const s = status.get(t.branch);
      if (s?.ok) out.push({ branch: t.branch, outcome: 'deleted' });
      else if (s && /stale info/.test(s.summary)) stale.push(t);
      else if (rule !== undefined) out.push({ branch: t.branch, outcome: 'refused', reason: `a repository ruleset or branch protection refused it (${rule})` });
      else if (permission || (s && /remote rejected/.test(s.summary)))
        out.push({
          branch: t.branch,
          outcome: 'refused',
          reason: permission
            ? 'the token crew uses may not push to the repository (the job needs `contents: write`)'
            : `GitHub rejected it (${s!.summary.slice(0, 200)})`,
        });
      else throw new Error(`crew could not delete ${t.branch}: ${text.trim().split('\n').slice(-3).join(' ').slice(0, 400)}`);
    }
    // A lease that failed: the branch is gone, or someone pushed to it since crew looked.
    if (stale.length) {
      const now = new Map((await this.crewBranches()).map((b) => [b.branch, b.sha]));
      for (const t of stale) {
        const sha = now.get(t.branch);
        out.push(sha === undefined ? { branch: t.branch, outcome: 'gone' } : { branch: t.branch, outcome: 'moved', sha });
      }
    }
    return out;
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
