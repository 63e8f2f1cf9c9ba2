import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_IDENTITY, git, tryGit } from '../git-cli';
import { ObjectReader } from './object-reader';

export type MergeMethod = 'merge' | 'squash' | 'rebase';

/** Who wrote or committed a commit, as git records it; `date` in UTC (`2026-01-01T00:00:00Z`). */
export interface GitPerson {
  name: string;
  email: string;
  date: string;
}

export interface GitCommit {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
  author: GitPerson;
  committer: GitPerson;
}

/** One file a diff changes, as `git diff --raw` and `--numstat` report it. */
export interface GitFileChange {
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed';
  filename: string;
  /** The old name of a renamed or copied file. */
  previousFilename?: string;
  /** The blob after the change, or, for a removed file, the blob that was removed. */
  blob: string;
  additions: number;
  deletions: number;
  /** The hunks (from the first `@@`), or undefined for a binary file or one with no hunks. */
  patch?: string;
}

// Fields of one commit, NUL-separated; %B last, since only it can hold newlines.
const COMMIT_FORMAT = '%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00';
const COMMIT_FIELDS = 10;

function utc(isoWithOffset: string): string {
  return new Date(isoWithOffset).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function parseCommits(out: string): GitCommit[] {
  const fields = out.split('\0');
  const commits: GitCommit[] = [];
  for (let i = 0; i + COMMIT_FIELDS <= fields.length; i += COMMIT_FIELDS) {
    const [sha, tree, parents, an, ae, ad, cn, ce, cd, message] = fields.slice(i, i + COMMIT_FIELDS) as string[];
    commits.push({
      // tformat ends each record with a newline, which the next record's first field starts with.
      sha: sha!.trim(),
      tree: tree!,
      parents: parents!.split(' ').filter(Boolean),
      // GitHub drops the newline git ends a message with.
      message: message!.replace(/\n+$/, ''),
      author: { name: an!, email: ae!, date: utc(ad!) },
      committer: { name: cn!, email: ce!, date: utc(cd!) },
    });
  }
  return commits;
}

const FILE_STATUS: Record<string, GitFileChange['status']> = { A: 'added', D: 'removed', M: 'modified', R: 'renamed', C: 'copied', T: 'changed' };

export interface MergeOutcome {
  ok: boolean;
  sha?: string;
  conflicts?: string[];
}

/**
 * GitHub refuses a push from a GitHub App (a workflow's GITHUB_TOKEN included) that
 * creates, changes or deletes a file under .github/workflows/, unless the App has the
 * `workflows` permission, which a GITHUB_TOKEN never has. The fake GitHub sets
 * FAKE_GITHUB_WORKFLOWS=deny for such pushes. GitHub reports the refusal as the ref's
 * "[remote rejected]" reason; here it arrives as a `remote:` line and "pre-receive hook declined".
 * FAKE_GITHUB_RULESET lists branch prefixes a repository ruleset that requires signed commits
 * covers (RepoSettings): it refuses pushing commits there, never a deletion, which pushes none.
 * FAKE_GITHUB_NO_DELETION lists those a ruleset with the "Restrict deletions" rule covers.
 * FAKE_GITHUB_PROTECTED lists branches under classic protection requiring pull requests: no push, no deletion.
 */
const PRE_RECEIVE = `#!/bin/sh
zero=0000000000000000000000000000000000000000
while read -r old new ref; do
  for prefix in $FAKE_GITHUB_RULESET; do
    [ "$new" = "$zero" ] && break
    case "$ref" in refs/heads/$prefix*)
      # GitHub's answer to a push a ruleset refuses (docs: "About rulesets", push rejections).
      printf 'error: GH013: Repository rule violations found for %s.\\n\\n- Commits must have verified signatures.\\n  Found 1 violation\\n' "$ref" >&2
      exit 1;;
    esac
  done
  for prefix in $FAKE_GITHUB_NO_DELETION; do
    [ "$new" = "$zero" ] || break
    case "$ref" in refs/heads/$prefix*)
      # A ruleset's deletion rule, as GitHub words it (git push --delete: "GH013 ... - Cannot delete this branch").
      printf 'error: GH013: Repository rule violations found for %s.\\n\\n- Cannot delete this branch\\n' "$ref" >&2
      exit 1;;
    esac
  done
  for branch in $FAKE_GITHUB_PROTECTED; do
    if [ "$ref" = "refs/heads/$branch" ]; then
      # A classic protection rule that requires pull requests (GitHub: GH006, "Protected branch update failed").
      printf 'error: GH006: Protected branch update failed for %s.\\nerror: Changes must be made through a pull request.\\n' "$ref" >&2
      exit 1
    fi
  done
  [ "$FAKE_GITHUB_WORKFLOWS" = deny ] || continue
  [ "$new" = "$zero" ] && continue
  if [ "$old" = "$zero" ]; then commits=$(git rev-list "$new" --not --all); else commits=$(git rev-list "$old..$new"); fi
  for c in $commits; do
    f=$(git diff-tree --no-commit-id --name-only -r --root "$c" -- .github/workflows | head -n 1)
    if [ -n "$f" ]; then
      printf 'refusing to allow a GitHub App to create or update workflow \`%s\` without \`workflows\` permission\\n' "$f" >&2
      exit 1
    fi
  done
done
exit 0
`;

/** Lists the refs a push changed ("old new ref" lines), for the fake's `push` events. */
const POST_RECEIVE = `#!/bin/sh
if [ -n "$FAKE_GITHUB_PUSH_LOG" ]; then cat > "$FAKE_GITHUB_PUSH_LOG"; else cat > /dev/null; fi
`;

/**
 * The fake GitHub's repository: a real bare git repository. Refs, branches,
 * file contents and merges are answered from it, so crew's git traffic and the
 * REST view of the same repository can never disagree.
 */
export class BareRepo {
  /** Ref and file reads, through one git process kept open (object-reader.ts). */
  private readonly objects: ObjectReader;

  constructor(
    readonly dir: string,
    readonly defaultBranch: string,
  ) {
    this.objects = new ObjectReader(dir);
  }

  /** Ends the git process kept open for reads; a later read starts another. */
  close(): void {
    this.objects.close();
  }

  static async create(dir: string, files: Record<string, string>, defaultBranch = 'main'): Promise<BareRepo> {
    await mkdir(dir, { recursive: true });
    await git(['init', '--bare', '--quiet', `--initial-branch=${defaultBranch}`, dir]);
    // http-backend refuses pushes unless receive-pack is enabled for authenticated users.
    // (Written straight into the config file: two fewer git processes per fake.)
    await appendFile(join(dir, 'config'), '[http]\n\treceivepack = true\n[uploadpack]\n\tallowReachableSHA1InWant = true\n[receive]\n\tautogc = false\n');
    await writeFile(join(dir, 'hooks', 'pre-receive'), PRE_RECEIVE, { mode: 0o755 });
    await writeFile(join(dir, 'hooks', 'post-receive'), POST_RECEIVE, { mode: 0o755 });
    const repo = new BareRepo(dir, defaultBranch);
    await repo.writeCommit({ branch: defaultBranch, files, message: 'Initial commit', date: Date.parse('2026-01-01T00:00:00Z') / 1000 });
    return repo;
  }

  /**
   * Commits files onto a branch in one `git fast-import`, with no working tree: the
   * commit starts from `from` (default: the branch's current tip, or nothing) and the
   * branch is moved to it, even if that is not a fast-forward. Returns the new sha.
   */
  async writeCommit(opts: {
    branch: string;
    files: Record<string, string>;
    message: string;
    from?: string;
    date?: number;
    identity?: { name: string; email: string };
  }): Promise<string> {
    const parent =
      opts.from !== undefined
        ? await this.resolve(opts.from.startsWith('refs/') || /^[0-9a-f]{40}$/.test(opts.from) ? opts.from : `refs/heads/${opts.from}`)
        : await this.branchSha(opts.branch);
    if (opts.from !== undefined && !parent) throw new Error(`writeCommit: ${opts.from} names no commit`);
    const who = opts.identity ?? { name: FIXTURE_IDENTITY.GIT_AUTHOR_NAME, email: FIXTURE_IDENTITY.GIT_AUTHOR_EMAIL };
    const when = `${Math.floor(opts.date ?? Date.now() / 1000)} +0000`;
    const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
    let stream = `commit refs/heads/${opts.branch}\nauthor ${who.name} <${who.email}> ${when}\ncommitter ${who.name} <${who.email}> ${when}\n`;
    stream += data(opts.message.endsWith('\n') ? opts.message : `${opts.message}\n`);
    if (parent) stream += `from ${parent}\n`;
    for (const [path, content] of Object.entries(opts.files)) {
      if (/[\n"]/.test(path)) throw new Error(`writeCommit: unsupported path ${JSON.stringify(path)}`);
      stream += `M 100644 inline ${path}\n${data(content)}`;
    }
    stream += 'done\n';
    await git(['fast-import', '--quiet', '--force', '--done'], { cwd: this.dir, input: stream });
    return (await this.branchSha(opts.branch))!;
  }

  private run(args: string[], env?: NodeJS.ProcessEnv) {
    return git(args, { cwd: this.dir, env });
  }

  /** The sha a fully qualified ref points at, or undefined. */
  async resolve(ref: string): Promise<string | undefined> {
    // As `git rev-parse --verify --quiet <ref>^{commit}` would answer.
    return (await this.objects.info(`${ref}^{commit}`))?.sha;
  }

  branchSha(branch: string): Promise<string | undefined> {
    return this.resolve(`refs/heads/${branch}`);
  }

  /** All refs under a prefix such as `refs/heads/crew/`, with their shas. */
  async listRefs(prefix = 'refs/'): Promise<Array<{ ref: string; sha: string }>> {
    const out = await this.run(['for-each-ref', '--format=%(refname) %(objectname)', prefix]);
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [ref, sha] = line.split(' ');
        return { ref: ref!, sha: sha! };
      });
  }

  async readFile(ref: string, path: string): Promise<string | undefined> {
    // A blob only, as `git cat-file blob` answers: `ref:dir` names a tree, which is no file.
    const object = await this.objects.contents(`${ref}:${path}`);
    return object?.type === 'blob' ? object.content!.toString('utf8') : undefined;
  }

  /** The blob sha of a file at a ref, as the contents API reports it. */
  async blobSha(ref: string, path: string): Promise<string | undefined> {
    // As `git rev-parse --verify --quiet <ref>:<path>` would answer.
    return (await this.objects.info(`${ref}:${path}`))?.sha;
  }

  async listFiles(ref: string): Promise<string[]> {
    const out = await this.run(['ls-tree', '-r', '--name-only', ref]);
    return out.split('\n').filter(Boolean);
  }

  async commitInfo(sha: string): Promise<{ message: string; parents: string[]; tree: string }> {
    const out = await this.run(['show', '-s', '--format=%T%n%P%n%B', sha]);
    const [tree, parents, ...message] = out.split('\n');
    return { tree: tree!, parents: parents ? parents.split(' ').filter(Boolean) : [], message: message.join('\n').trim() };
  }

  /** Files a head changes relative to its merge base with `base`, like a PR's "Files changed" tab. */
  async changedFiles(base: string, head: string): Promise<string[]> {
    return (await this.run(['diff', '--name-only', `${base}...${head}`])).split('\n').filter(Boolean);
  }

  /** The full messages of the commits head has that base does not, oldest first. */
  async commitMessages(base: string, head: string): Promise<string[]> {
    return (await this.run(['log', '--reverse', '--format=%B%x00', `${base}..${head}`]))
      .split('\0')
      .map((m) => m.trim())
      .filter(Boolean);
  }

  /** How many commits head has that base does not: a PR's commit count. */
  async countCommits(base: string, head: string): Promise<number> {
    return Number((await this.run(['rev-list', '--count', `${base}..${head}`])).trim());
  }

  /** Lines added and removed, and files changed, between the merge base and head. */
  async diffStat(base: string, head: string): Promise<{ additions: number; deletions: number; changedFiles: number }> {
    const out = await this.run(['diff', '--numstat', `${base}...${head}`]);
    let additions = 0;
    let deletions = 0;
    let changedFiles = 0;
    for (const line of out.split('\n').filter(Boolean)) {
      const [a, d] = line.split('\t');
      // Binary files show "-" for both counts.
      additions += Number(a) || 0;
      deletions += Number(d) || 0;
      changedFiles++;
    }
    return { additions, deletions, changedFiles };
  }

  /** The best common ancestor of two commits, or undefined when their histories are unrelated. */
  async mergeBase(a: string, b: string): Promise<string | undefined> {
    const r = await tryGit(['merge-base', a, b], { cwd: this.dir });
    if (r.code === 0) return r.stdout.trim();
    if (r.code === 1) return undefined;
    throw new Error(`git merge-base failed: ${r.stderr}`);
  }

  /** One commit's author, committer, message, tree and parents. */
  async readCommit(sha: string): Promise<GitCommit> {
    const [commit] = parseCommits(await this.run(['show', '-s', `--format=tformat:${COMMIT_FORMAT}`, sha, '--']));
    if (!commit) throw new Error(`readCommit: ${sha} is not a commit`);
    return commit;
  }

  /** The commits reachable from head but not from base (`git log base..head`), oldest first. */
  async commitsBetween(base: string, head: string): Promise<GitCommit[]> {
    // --date-order: by commit date, but never a parent before its children (reversed: after).
    return parseCommits(await this.run(['log', '--reverse', '--date-order', `--format=tformat:${COMMIT_FORMAT}`, `${base}..${head}`, '--']));
  }

  /** Files changed from one commit to another, with renames found, in git's order. */
  async diffFiles(from: string, to: string): Promise<GitFileChange[]> {
    const plain = ['--no-color', '--no-ext-diff', '--no-textconv', '-M'];
    const [raw, numstat, patch] = await Promise.all([
      this.run(['diff', '--raw', '-z', '--no-abbrev', ...plain, from, to, '--']),
      this.run(['diff', '--numstat', '-z', ...plain, from, to, '--']),
      this.run(['diff', ...plain, from, to, '--']),
    ]);
    // --raw -z: ":old-mode new-mode old-sha new-sha STATUS\0path\0" (and "\0new-path\0" for R and C).
    const changes: GitFileChange[] = [];
    const rawFields = raw.split('\0');
    for (let i = 0; i < rawFields.length && rawFields[i]!.startsWith(':');) {
      const [, , oldSha, newSha, code] = rawFields[i]!.slice(1).split(' ') as string[];
      const letter = code!.charAt(0);
      const status = FILE_STATUS[letter];
      if (!status) throw new Error(`git diff --raw: unexpected status ${code}`);
      const twoPaths = letter === 'R' || letter === 'C';
      const filename = twoPaths ? rawFields[i + 2]! : rawFields[i + 1]!;
      changes.push({
        status,
        filename,
        ...(twoPaths ? { previousFilename: rawFields[i + 1]! } : {}),
        blob: status === 'removed' ? oldSha! : newSha!,
        additions: 0,
        deletions: 0,
      });
      i += twoPaths ? 3 : 2;
    }
    // --numstat -z: "added\tdeleted\tpath\0", or "added\tdeleted\t\0old\0new\0" for a rename; "-" for binary.
    const statFields = numstat.split('\0');
    for (let i = 0, n = 0; i < statFields.length && n < changes.length; n++) {
      const [added, deleted, path] = statFields[i]!.split('\t');
      changes[n]!.additions = Number(added) || 0;
      changes[n]!.deletions = Number(deleted) || 0;
      i += path === '' ? 3 : 1;
    }
    // The full diff, one "diff --git" section per file in the same order; a hunk line never starts with "diff".
    const sections = patch.split(/^diff --git .*$/m).slice(1);
    sections.forEach((section, n) => {
      const hunks = section.indexOf('\n@@');
      if (hunks >= 0 && changes[n]) changes[n]!.patch = section.slice(hunks + 1).replace(/\n$/, '');
    });
    return changes;
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    const r = await tryGit(['merge-base', '--is-ancestor', ancestor, descendant], { cwd: this.dir });
    return r.code === 0;
  }

  /** Dry-run merge of head into base: whether it is clean, and which files conflict. */
  async canMerge(baseSha: string, headSha: string): Promise<{ clean: boolean; tree?: string; conflicts: string[] }> {
    const r = await tryGit(['merge-tree', '--write-tree', '--name-only', '--no-messages', baseSha, headSha], { cwd: this.dir });
    const lines = r.stdout.split('\n').filter(Boolean);
    if (r.code === 0) return { clean: true, tree: lines[0], conflicts: [] };
    if (r.code === 1) return { clean: false, conflicts: lines.slice(1) };
    throw new Error(`git merge-tree failed: ${r.stderr}`);
  }

  /**
   * GitHub's refs for pull request N: `refs/pull/N/head` at the head, and `refs/pull/N/merge`
   * at a test merge of the head into the base's tip (parents: base, head). No merge ref when
   * they conflict. Returns the merge commit.
   */
  async writePullRefs(number: number, base: string, headSha: string): Promise<string | undefined> {
    await this.run(['update-ref', `refs/pull/${number}/head`, headSha]);
    const baseSha = await this.branchSha(base);
    const m = baseSha ? await this.canMerge(baseSha, headSha) : { clean: false };
    if (!baseSha || !m.clean || !('tree' in m) || !m.tree) {
      await tryGit(['update-ref', '-d', `refs/pull/${number}/merge`], { cwd: this.dir });
      return undefined;
    }
    const who = { GIT_AUTHOR_NAME: 'GitHub', GIT_AUTHOR_EMAIL: 'noreply@github.com', GIT_COMMITTER_NAME: 'GitHub', GIT_COMMITTER_EMAIL: 'noreply@github.com' };
    const sha = (await this.run(['commit-tree', m.tree, '-p', baseSha, '-p', headSha, '-m', `Merge ${headSha} into ${baseSha}`], who)).trim();
    await this.run(['update-ref', `refs/pull/${number}/merge`, sha]);
    return sha;
  }

  /**
   * Merges head into the base branch the way GitHub's merge button does, and moves
   * the base ref only if it still points where we read it (a compare-and-swap).
   */
  async merge(opts: {
    base: string;
    headSha: string;
    method: MergeMethod;
    title: string;
    message: string;
    committer: { name: string; email: string };
    date: string;
  }): Promise<MergeOutcome> {
    const baseSha = await this.branchSha(opts.base);
    if (!baseSha) throw new Error(`base branch ${opts.base} does not exist`);
    const env = {
      GIT_AUTHOR_NAME: opts.committer.name,
      GIT_AUTHOR_EMAIL: opts.committer.email,
      GIT_COMMITTER_NAME: opts.committer.name,
      GIT_COMMITTER_EMAIL: opts.committer.email,
      GIT_AUTHOR_DATE: opts.date,
      GIT_COMMITTER_DATE: opts.date,
    };
    const text = opts.message ? `${opts.title}\n\n${opts.message}` : opts.title;
    let newSha: string;
    if (opts.method === 'rebase') {
      // Replays each commit onto the base in a throwaway worktree. (`merge-tree --merge-base`,
      // which could do this without one, needs git 2.40; Debian bookworm has 2.39.)
      // Like GitHub, the replayed commits keep their authors and get a new committer.
      const commits = (await this.run(['rev-list', '--reverse', `${baseSha}..${opts.headSha}`])).split('\n').filter(Boolean);
      const wt = await mkdtemp(join(tmpdir(), 'fake-gh-rebase-'));
      try {
        await this.run(['worktree', 'add', '--detach', '--quiet', wt, baseSha]);
        const committerEnv = {
          GIT_COMMITTER_NAME: env.GIT_COMMITTER_NAME,
          GIT_COMMITTER_EMAIL: env.GIT_COMMITTER_EMAIL,
          GIT_COMMITTER_DATE: env.GIT_COMMITTER_DATE,
        };
        for (const c of commits) {
          const r = await tryGit(['cherry-pick', '--allow-empty', '--keep-redundant-commits', c], { cwd: wt, env: committerEnv });
          if (r.code !== 0) return { ok: false, conflicts: [] };
        }
        newSha = (await git(['rev-parse', 'HEAD'], { cwd: wt })).trim();
      } finally {
        await tryGit(['worktree', 'remove', '--force', wt], { cwd: this.dir });
        await rm(wt, { recursive: true, force: true });
      }
    } else {
      const m = await this.canMerge(baseSha, opts.headSha);
      if (!m.clean || !m.tree) return { ok: false, conflicts: m.conflicts };
      const parents = opts.method === 'merge' ? ['-p', baseSha, '-p', opts.headSha] : ['-p', baseSha];
      newSha = (await this.run(['commit-tree', m.tree, ...parents, '-m', text], env)).trim();
    }
    const moved = await tryGit(['update-ref', `refs/heads/${opts.base}`, newSha, baseSha], { cwd: this.dir });
    if (moved.code !== 0) return { ok: false, conflicts: [] };
    return { ok: true, sha: newSha };
  }

  /**
   * The first workflow file changed by the commits a ref update brings in (`from..to`; for a new
   * ref, the commits no ref has yet), as the pre-receive hook judges pushes.
   */
  async workflowChangedBetween(from: string | undefined, to: string): Promise<string | undefined> {
    const range = from ? [`${from}..${to}`] : [to, '--not', '--all'];
    const commits = (await this.run(['rev-list', ...range])).split('\n').filter(Boolean);
    for (const c of commits) {
      const f = (await this.run(['diff-tree', '--no-commit-id', '--name-only', '-r', '--root', c, '--', '.github/workflows'])).split('\n').find(Boolean);
      if (f) return f;
    }
    return undefined;
  }

  /** Points a ref at a commit (made by the REST API, not a push: no hooks run, as on GitHub). */
  async setRef(ref: string, sha: string): Promise<void> {
    await this.run(['update-ref', ref, sha]);
  }

  async deleteRef(ref: string): Promise<void> {
    await this.run(['update-ref', '-d', ref]);
  }
}
