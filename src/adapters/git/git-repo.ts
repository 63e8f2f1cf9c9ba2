import { statSync } from 'node:fs';
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SimpleGit } from 'simple-git';
import { DIFF_LIMIT_BYTES } from '../../domain/diff';
import { assertBranchName, assertCrewRef, assertRevision as rev } from '../../domain/refs';
import type { CommitResult, MergeResult, Repo } from '../../ports';
import { gitClient, isNonFastForward, pushRefusedByRule, readFileAtCommit, withMessageFile, type GitIdentity, type GitPin } from './git-client';

/** Pushes of one branch before giving up: each retry first rebases onto what another job pushed. */
const PUSH_ATTEMPTS = 3;

/**
 * Diff options that show every file's bytes as committed, whatever the repository's attributes or
 * configuration say: every file as text, no textconv or external diff program, git's own a/ b/
 * prefixes and whole-tree paths (a person's `diff.noprefix` or `diff.relative` would change them).
 */
const AS_COMMITTED = ['--no-color', '--text', '--no-textconv', '--no-ext-diff', '--no-renames', '--no-relative', '--src-prefix=a/', '--dst-prefix=b/'];

/** The Repo port over the job's checkout. Only crew's code pushes, and only to crew/* branches. */
export class GitRepo implements Repo {
  protected readonly git: SimpleGit;

  constructor(
    readonly dir: string,
    private readonly remoteUrl: string,
    token: string,
    identity?: GitIdentity,
    extraConfig?: Record<string, string>,
    pin: GitPin | undefined = checkoutPin(dir),
  ) {
    this.git = gitClient(dir, token, identity, extraConfig, pin);
  }

  /** The local name of a remote branch once fetched. */
  tracking(branch: string): string {
    return `refs/remotes/origin/${branch}`;
  }

  async remoteSha(branch: string): Promise<string | undefined> {
    const out = await this.git.raw(['ls-remote', '--heads', this.remoteUrl, `refs/heads/${assertBranchName(branch)}`]);
    return out.split(/\s+/)[0] || undefined;
  }

  async fetch(branches: string[]): Promise<{ missing: string[] }> {
    if (branches.length === 0) return { missing: [] };
    const out = await this.git.raw(['ls-remote', '--heads', this.remoteUrl, ...branches.map((b) => `refs/heads/${assertBranchName(b)}`)]);
    const present = new Set(
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[1]!.replace(/^refs\/heads\//, '')),
    );
    const have = branches.filter((b) => present.has(b));
    if (have.length) {
      await this.git.raw(['fetch', '--no-tags', '--quiet', this.remoteUrl, ...have.map((b) => `+refs/heads/${b}:refs/remotes/origin/${b}`)]);
    }
    return { missing: branches.filter((b) => !present.has(b)) };
  }

  /** Makes a commit known locally (the checkout is shallow and may predate it). */
  async fetchCommit(sha: string): Promise<void> {
    const have = await this.git.raw(['cat-file', '-t', rev(sha)]).catch(() => '');
    if (have.trim() !== 'commit') await this.git.raw(['fetch', '--no-tags', '--quiet', '--depth=1', this.remoteUrl, sha]);
  }

  async checkoutNew(branch: string, start: string): Promise<void> {
    await this.git.raw(['checkout', '--quiet', '--force', '-B', assertCrewRef(branch), rev(start)]);
    await this.git.raw(['clean', '-fdq']);
  }

  /** Points the working tree at a commit with no branch: for looking, never for pushing. */
  async checkoutDetached(start: string): Promise<void> {
    await this.git.raw(['checkout', '--quiet', '--force', '--detach', rev(start)]);
    await this.git.raw(['clean', '-fdq']);
  }

  async merge(ref: string, message: string): Promise<MergeResult> {
    const result = await this.tryMerge(ref, message);
    if (!result.ok) await this.abortMerge();
    return result;
  }

  /** Like merge, but a conflict is left in the working tree for a resolver; the conflicted files are listed. */
  async mergeKeepingConflicts(ref: string, message: string): Promise<MergeResult> {
    const result = await this.tryMerge(ref, message);
    if (!result.ok && !result.conflicts.length) await this.abortMerge();
    return result;
  }

  /**
   * The outcome is read from the repository, not from git's exit: a conflicted merge exits 1
   * with its report on stdout, which simple-git resolves as success.
   */
  private async tryMerge(ref: string, message: string): Promise<MergeResult> {
    const target = rev(ref); // a hostile ref throws here, not as a failed merge
    let failed = false;
    await withMessageFile(message, (m) => this.git.raw(['merge', '--no-ff', '--no-edit', ...m, target]).catch(() => (failed = true)));
    const conflicts = (await this.git.raw(['diff', '--name-only', '--diff-filter=U'])).split('\n').filter(Boolean);
    if (conflicts.length) return { ok: false, conflicts };
    if (failed || !(await this.isAncestor(ref, 'HEAD'))) return { ok: false, conflicts: [] };
    return { ok: true, conflicts: [] };
  }

  async abortMerge(): Promise<void> {
    await this.git.raw(['merge', '--abort']).catch(() => undefined);
  }

  /** Concludes a merge whose conflicts were resolved in the working tree. */
  async commitMerge(message: string): Promise<string> {
    await this.git.raw(['add', '-A']);
    await withMessageFile(message, (m) => this.git.raw(['commit', '--quiet', '--no-verify', ...m]));
    return this.head();
  }

  async commitAll(message: string, opts: { allowEmpty?: boolean } = {}): Promise<CommitResult> {
    await this.git.raw(['add', '-A']);
    const changed = (await this.git.raw(['diff', '--cached', '--name-only'])).split('\n').filter(Boolean);
    if (changed.length === 0 && !opts.allowEmpty) return { sha: await this.head(), changedFiles: [], empty: true };
    await withMessageFile(message, (m) => this.git.raw(['commit', '--quiet', '--no-verify', ...(changed.length ? [] : ['--allow-empty']), ...m]));
    return { sha: await this.head(), changedFiles: changed, empty: changed.length === 0 };
  }

  /**
   * Undoes what the working tree changed since HEAD on the paths `select` picks: a tracked
   * file gets its HEAD content back, a new one is removed. Returns the paths it undid.
   */
  async restorePaths(select: (path: string) => boolean): Promise<string[]> {
    await this.git.raw(['add', '-A']);
    const changed = (await this.git.raw(['diff', '--cached', '--name-only', '--no-renames', '-z', 'HEAD'])).split('\0').filter(Boolean);
    const hits = changed.filter(select);
    if (!hits.length) return [];
    const literal = ['--literal-pathspecs'];
    const tracked = new Set((await this.git.raw([...literal, 'ls-tree', '-r', '-z', '--name-only', 'HEAD', '--', ...hits])).split('\0').filter(Boolean));
    const restore = hits.filter((p) => tracked.has(p));
    const remove = hits.filter((p) => !tracked.has(p));
    if (remove.length) {
      await this.git.raw([...literal, 'rm', '-q', '-r', '--cached', '-f', '--', ...remove]);
      // git never tracks a path below a link, so these parents are real folders; rm does not follow a link it removes.
      for (const p of remove) await rm(join(this.dir, p), { force: true, recursive: true });
    }
    if (restore.length) await this.git.raw([...literal, 'checkout', 'HEAD', '--', ...restore]);
    return hits;
  }

  /** Files that differ between `from` and the working tree, new files included (stages everything). */
  async changedSince(from: string): Promise<string[]> {
    await this.git.raw(['add', '-A']);
    return (await this.git.raw(['diff', '--cached', '--name-only', rev(from)])).split('\n').filter(Boolean);
  }

  async commitMessage(ref: string): Promise<string> {
    return this.git.raw(['log', '-1', '--format=%B', rev(ref)]);
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
        await this.git.raw(['push', '--quiet', this.remoteUrl, `HEAD:refs/heads/${branch}`]);
        return;
      } catch (e) {
        if (!isNonFastForward(e) || attempt >= PUSH_ATTEMPTS) throw pushRefusedByRule(e, branch) ?? e;
      }
      await this.git.raw(['fetch', '--no-tags', '--quiet', this.remoteUrl, `+refs/heads/${branch}:refs/remotes/origin/${branch}`]);
      // --empty=keep: the attempt commit may change nothing, but its Crew-Result trailer must stay at the tip.
      // The outcome is read from the repository, not the exit (see tryMerge).
      let failure = '';
      await this.git
        .raw(['rebase', '--quiet', '--empty=keep', `refs/remotes/origin/${branch}`])
        .catch((e: unknown) => (failure = e instanceof Error ? e.message.split('\n')[0]! : String(e)));
      const conflicts = (await this.git.raw(['diff', '--name-only', '--diff-filter=U'])).split('\n').filter(Boolean);
      if (conflicts.length || failure || !(await this.isAncestor(`refs/remotes/origin/${branch}`, 'HEAD'))) {
        await this.git.raw(['rebase', '--abort']).catch(() => undefined);
        throw new Error(
          `another job pushed to ${branch} while this one worked, and this job's commits do not rebase onto it${conflicts.length ? ` (conflicts in ${conflicts.join(', ')})` : failure ? ` (${failure})` : ''}. Nothing was overwritten.`,
        );
      }
    }
  }

  /**
   * Replaces a crew branch only if it still points where we last saw it: a
   * compare-and-swap (`--force-with-lease`), never a blind force push.
   */
  async pushReplacing(branch: string, expectedSha: string): Promise<void> {
    assertCrewRef(branch);
    await this.git
      .raw(['push', '--quiet', `--force-with-lease=refs/heads/${branch}:${expectedSha}`, this.remoteUrl, `HEAD:refs/heads/${branch}`])
      .catch((e: unknown) => {
        throw pushRefusedByRule(e, branch) ?? e;
      });
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    // Not `merge-base --is-ancestor`: it answers by exit code alone, and simple-git resolves a
    // non-zero exit that prints nothing, which read every commit as an ancestor.
    rev(ancestor);
    rev(descendant);
    try {
      const [a, base] = await Promise.all([
        this.git.raw(['rev-parse', '--verify', `${ancestor}^{commit}`]),
        this.git.raw(['merge-base', ancestor, descendant]),
      ]);
      return a.trim() !== '' && a.trim() === base.trim();
    } catch {
      return false;
    }
  }

  async head(): Promise<string> {
    return (await this.git.raw(['rev-parse', 'HEAD'])).trim();
  }

  async listFiles(): Promise<string[]> {
    return (await this.git.raw(['ls-files'])).split('\n').filter(Boolean);
  }

  async readFileAt(ref: string, path: string): Promise<string | undefined> {
    rev(ref);
    return readFileAtCommit(this.git, ref, path);
  }

  /** Keeps files that exist now but git does not track (setup output such as node_modules) out of every later commit. */
  async excludeUntracked(): Promise<string[]> {
    const untracked = (await this.git.raw(['ls-files', '--others', '--exclude-standard', '--directory'])).split('\n').filter(Boolean);
    if (untracked.length)
      await appendFile(join(this.dir, '.git', 'info', 'exclude'), `\n# crew: output of the setup commands\n${untracked.map((p) => `/${p}`).join('\n')}\n`);
    return untracked;
  }

  async diffFiles(from: string, to = 'HEAD'): Promise<string[]> {
    return (await this.git.raw(['diff', '--name-only', rev(from), rev(to)])).split('\n').filter(Boolean);
  }

  /**
   * The change between two commits as a zero-context unified diff, for the critic's checks, read the
   * way the commits hold it: the tree's `.gitattributes` decide nothing here (`-diff`, `binary` and
   * `diff=<driver>` would show a deleted test as "Binary files differ", and a textconv program would
   * rewrite what the checks read), and no configured program runs. Over `maxBytes` the text is cut
   * and `truncated` says so; `bytes` is the whole size.
   */
  async unifiedDiff(from: string, to = 'HEAD', maxBytes = DIFF_LIMIT_BYTES): Promise<{ text: string; truncated: boolean; bytes: number }> {
    const text = await this.git.raw(['-c', 'core.quotePath=false', 'diff', ...AS_COMMITTED, '-U0', rev(from), rev(to)]);
    const bytes = Buffer.byteLength(text);
    return bytes > maxBytes ? { text: Buffer.from(text).subarray(0, maxBytes).toString('utf8'), truncated: true, bytes } : { text, truncated: false, bytes };
  }

  async diffStat(from: string, to = 'HEAD'): Promise<string> {
    return (await this.git.raw(['-c', 'core.quotePath=false', 'diff', '--stat=120', ...AS_COMMITTED, rev(from), rev(to)])).trim();
  }
}

/** A checkout's own `.git` folder, pinned as it is when crew starts (see GitPin); none for anything else. */
function checkoutPin(dir: string): GitPin | undefined {
  const gitDir = join(dir, '.git');
  try {
    return statSync(gitDir).isDirectory() ? { gitDir, workTree: dir } : undefined;
  } catch {
    return undefined;
  }
}
