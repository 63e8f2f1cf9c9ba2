import { execFile } from 'node:child_process';
import { appendFile, copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join, resolve } from 'node:path';
import type { Git } from './git-process';
import { DIFF_LIMIT_BYTES } from '../../domain/diff';
import { assertCrewRef, assertRevision as rev } from '../../domain/refs';
import type { CommitResult, MergeResult, UnifiedDiff, WorkingCopy } from '../../ports';
import { readFileAtCommit, withMessageFile } from './git-client';
import { ownGit, ownPath, requiredProgram } from '../../sandbox/own-programs';

/**
 * Diff options that show every file's bytes as committed, whatever the repository's attributes or
 * configuration say: every file as text, no textconv or external diff program, git's own a/ b/
 * prefixes and whole-tree paths (a person's `diff.noprefix` or `diff.relative` would change them).
 */
const AS_COMMITTED = ['--no-color', '--text', '--no-textconv', '--no-ext-diff', '--no-renames', '--no-relative', '--src-prefix=a/', '--dst-prefix=b/'];

const run = promisify(execFile);

/** A full commit id (SHA-1 or SHA-256), which names one commit for good; an abbreviation could come to name another. */
const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** readFileAt keeps files up to this size: the config and instruction files it is asked for again; a large file is read each time. */
const KEEP_FILE_CHARS = 256 * 1024;

/** The WorkingCopy port over the job's checkout, through crew's hardened git client (git-client.ts). */
export class GitWorkingCopy implements WorkingCopy {
  /** Files read at a commit id (readFileAt), by `<id>\0<path>`; undefined: that commit has no such file. */
  private readonly filesAtCommits = new Map<string, string | undefined>();

  constructor(
    readonly dir: string,
    protected readonly git: Git,
  ) {}

  async checkoutNew(branch: string, start: string): Promise<void> {
    await this.git.raw(['checkout', '--quiet', '--force', '-B', assertCrewRef(branch), rev(start)]);
    await this.git.raw(['clean', '-fdq']);
  }

  async checkoutDetached(start: string): Promise<void> {
    await this.git.raw(['checkout', '--quiet', '--force', '--detach', rev(start)]);
    await this.git.raw(['clean', '-fdq']);
  }

  async merge(ref: string, message: string): Promise<MergeResult> {
    const result = await this.tryMerge(ref, message);
    if (!result.ok) await this.abortMerge();
    return result;
  }

  async mergeKeepingConflicts(ref: string, message: string): Promise<MergeResult> {
    const result = await this.tryMerge(ref, message);
    if (!result.ok && !result.conflicts.length) await this.abortMerge();
    return result;
  }

  /**
   * The outcome is read from the repository, not from git's exit: a conflicted merge exits 1
   * with its report on stdout, which crew's git (GitProcess) resolves as success.
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

  /** Stages everything to compare. */
  async changedSince(from: string): Promise<string[]> {
    await this.git.raw(['add', '-A']);
    return (await this.git.raw(['diff', '--cached', '--name-only', rev(from)])).split('\n').filter(Boolean);
  }

  /** Stages everything to compare, as changedSince does. */
  async workingDiffStat(from: string): Promise<string> {
    await this.git.raw(['add', '-A']);
    return (await this.git.raw(['-c', 'core.quotePath=false', 'diff', '--cached', '--stat=120', ...AS_COMMITTED, rev(from)])).trim();
  }

  async commitMessage(ref: string): Promise<string> {
    return this.git.raw(['log', '-1', '--format=%B', rev(ref)]);
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    // Not `merge-base --is-ancestor`: it answers by exit code alone, and crew's git (GitProcess) resolves a
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
    // A commit id names the same tree for good, so its file (or its absence) is asked once per job: the
    // instruction files are looked up for every agent's prompt. A branch or HEAD moves, and is asked each time.
    if (!COMMIT_ID.test(ref)) return readFileAtCommit(this.git, ref, path);
    const key = `${ref}\0${path}`;
    if (this.filesAtCommits.has(key)) return this.filesAtCommits.get(key);
    const text = await readFileAtCommit(this.git, ref, path);
    if (text === undefined || text.length <= KEEP_FILE_CHARS) this.filesAtCommits.set(key, text);
    return text;
  }

  /**
   * Two git commands whatever the number of files (one per file would be two each, one at a time):
   * `ls-tree -l` for the sizes, then `grep -I` with an empty pattern, which prints every line of
   * every text file as `<ref>:<path>\0<line>`. Paths are literal pathspecs, never pathspec magic.
   */
  async readFilesAt(ref: string, paths: string[], maxBytes: number): Promise<Map<string, string>> {
    const at = rev(ref);
    const out = new Map<string, string>();
    if (!paths.length) return out;
    const specs = paths.map((p) => `:(literal)${p}`);
    const listed = await this.git.raw(['ls-tree', '-r', '-l', '-z', at, '--', ...specs]);
    const small = listed
      .split('\0')
      .map((entry) => /^\d+ blob [0-9a-f]+ +(\d+)\t(.*)$/s.exec(entry))
      .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) <= maxBytes)
      .map((m) => m[2]!);
    if (!small.length) return out;
    // Exit 1 with nothing printed (every file binary or empty) resolves as no output. Options pinned against grep.* settings.
    const text = await this.git.raw([
      'grep',
      '-z',
      '-I',
      '--no-color',
      '--no-line-number',
      '--no-column',
      '-e',
      '',
      at,
      '--',
      ...small.map((p) => `:(literal)${p}`),
    ]);
    const lines = new Map<string, string[]>();
    for (const record of text.split('\n')) {
      const nul = record.indexOf('\0');
      if (nul < 0) continue;
      const path = record.slice(at.length + 1, nul);
      (lines.get(path) ?? lines.set(path, []).get(path)!).push(record.slice(nul + 1));
    }
    for (const [path, l] of lines) out.set(path, l.join('\n'));
    return out;
  }

  /**
   * Through `git archive` (no worktree: its `.git` file would lead a program in `dir` to this
   * checkout's .git/config), unpacked without owners, then made read-only for everyone but crew's user.
   */
  async exportCommit(ref: string, dir: string): Promise<void> {
    const tar = `${dir}.tar`;
    try {
      await this.git.raw(['archive', '--format=tar', '-o', tar, rev(ref)]);
      await run(requiredProgram('tar'), ['-x', '--no-same-owner', '--no-same-permissions', '-f', tar, '-C', dir], { env: { ...process.env, PATH: ownPath() } });
    } finally {
      await rm(tar, { force: true });
    }
    // `! -type l`: chmod follows symbolic links, and the commit may hold one pointing anywhere.
    // find runs chmod by PATH: only the folders crew takes its own programs from.
    await run(requiredProgram('find'), [dir, '!', '-type', 'l', '-exec', 'chmod', 'u+rwX,go=rX', '{}', '+'], { env: { ...process.env, PATH: ownPath() } });
  }

  /**
   * Through `git init` in `dir` and git's alternates (`objects/info/alternates` naming this repository's
   * objects; its `shallow` list copied, so history reads as it does here), then a checkout there. That
   * git reads no configuration but the new repository's own (no system or global file), so no filter,
   * hook or other program a configuration names runs, whatever the tree's attributes ask for.
   */
  async checkoutCopy(ref: string, dir: string): Promise<void> {
    const sha = (await this.git.raw(['rev-parse', '--verify', `${rev(ref)}^{commit}`])).trim();
    const common = resolve(this.dir, (await this.git.raw(['rev-parse', '--git-common-dir'])).trim());
    const env = {
      PATH: ownPath(),
      LANG: 'C.UTF-8',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
    };
    await run(ownGit(), ['init', '--quiet', '--template=', dir], { env });
    await mkdir(join(dir, '.git', 'objects', 'info'), { recursive: true });
    await writeFile(join(dir, '.git', 'objects', 'info', 'alternates'), `${join(common, 'objects')}\n`);
    await copyFile(join(common, 'shallow'), join(dir, '.git', 'shallow')).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
    await run(ownGit(), ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', sha], { cwd: dir, env });
  }

  /** Through the checkout's own `.git/info/exclude`. */
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
  async unifiedDiff(from: string, to = 'HEAD', maxBytes = DIFF_LIMIT_BYTES): Promise<UnifiedDiff> {
    const text = await this.git.raw(['-c', 'core.quotePath=false', 'diff', ...AS_COMMITTED, '-U0', rev(from), rev(to)]);
    const bytes = Buffer.byteLength(text);
    return bytes > maxBytes ? { text: Buffer.from(text).subarray(0, maxBytes).toString('utf8'), truncated: true, bytes } : { text, truncated: false, bytes };
  }

  async diffStat(from: string, to = 'HEAD'): Promise<string> {
    return (await this.git.raw(['-c', 'core.quotePath=false', 'diff', '--stat=120', ...AS_COMMITTED, rev(from), rev(to)])).trim();
  }
}
