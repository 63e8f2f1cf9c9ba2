import { readFile, rename, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { isoSeconds } from '../../clock';
import { pathInRunFolder } from '../../domain/local-runs';
import { AttachmentRefused } from '../../ports';
import { readImageFile } from './image-file';
import type { CommentInfo, CommentRef, LocalForgeHooks, PullInfo, PullRef, RateLimitWait, RepoPermission, TerminalForge } from '../../ports';

/**
 * The Forge port without GitHub (none of ForgeOnGitHub: no reactions, reviews, checks, merges or CI logs): the run's "issue" is the request typed at the terminal,
 * crew's comments are kept in `.crew/runs/<N>/.forge.json` and shown to the person at
 * the terminal, and the "pull request" is the result branch. Nothing leaves the machine:
 * there is no merge, no check and no dispatch over the network (dispatches start the
 * next jobs in this process).
 */

export const LOCAL_BOT = 'crew';

interface StoredComment extends CommentInfo {
  issue: number;
}

interface StoredPull {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
}

interface ForgeData {
  nextComment: number;
  comments: StoredComment[];
  labels: string[];
  pulls: StoredPull[];
}

export class LocalForge implements TerminalForge {
  readonly repo: { owner: string; name: string };
  private data?: Promise<ForgeData>;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly runDir: string,
    private readonly project: string,
    private readonly baseBranch: string,
    private readonly hooks: LocalForgeHooks & {
      /** The commit a branch points at, for the "pull request" view. */
      branchSha(branch: string): Promise<string>;
      /** The `file://` URLs of the images the person gave with `--image`: the only files crew reads as images (#46). */
      images: readonly string[];
    },
  ) {
    this.repo = { owner: 'local', name: project.split('/').filter(Boolean).pop() ?? 'repo' };
  }

  private get file(): string {
    return join(this.runDir, '.forge.json');
  }

  /** Read once; only a missing file is a fresh start (anything else must not be overwritten with nothing). */
  private load(): Promise<ForgeData> {
    this.data ??= readFile(this.file, 'utf8').then(
      (text) => JSON.parse(text) as ForgeData,
      (e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') return { nextComment: 1, comments: [], labels: [], pulls: [] };
        throw new Error(`cannot read ${this.file}: ${e.message}`);
      },
    );
    return this.data;
  }

  /** Writes are queued so parallel jobs never interleave two versions of the file. */
  private save(): Promise<void> {
    const next = this.writing
      .catch(() => undefined)
      .then(async () => {
        await mkdir(dirname(this.file), { recursive: true });
        await writeFile(`${this.file}.tmp`, JSON.stringify(await this.load(), null, 2));
        await rename(`${this.file}.tmp`, this.file);
      });
    this.writing = next;
    return next;
  }

  async botLogin(): Promise<string> {
    return LOCAL_BOT;
  }

  async defaultBranch(): Promise<string> {
    return this.baseBranch;
  }

  async permissionOf(): Promise<RepoPermission> {
    // Whoever runs crew in their own checkout owns it.
    return 'admin';
  }

  /** A comment by the person at the terminal (their answers and commands), so replies can be checked like on GitHub. */
  async addPersonComment(issue: number, author: string, body: string): Promise<CommentInfo> {
    return this.add(issue, author, body);
  }

  private async add(issue: number, author: string, body: string): Promise<StoredComment> {
    const data = await this.load();
    const now = isoSeconds(new Date());
    const comment: StoredComment = { id: data.nextComment++, issue, body, author, createdAt: now, updatedAt: now };
    data.comments.push(comment);
    await this.save();
    return comment;
  }

  async postComment(issue: number, body: string): Promise<CommentRef> {
    const c = await this.add(issue, LOCAL_BOT, body);
    this.hooks.onComment?.({ ...c, edited: false });
    return { id: c.id, url: this.commentLink(issue, c.id) };
  }

  async updateComment(id: number, body: string): Promise<void> {
    const data = await this.load();
    const c = data.comments.find((x) => x.id === id);
    if (!c) throw new Error(`comment ${id} does not exist`);
    if (c.body === body) return;
    c.body = body;
    c.updatedAt = isoSeconds(new Date());
    await this.save();
    this.hooks.onComment?.({ ...c, edited: true });
  }

  async getComment(id: number): Promise<CommentInfo> {
    const c = (await this.load()).comments.find((x) => x.id === id);
    if (!c) throw new Error(`comment ${id} does not exist`);
    return { id: c.id, body: c.body, author: c.author, createdAt: c.createdAt, updatedAt: c.updatedAt };
  }

  async comments(): Promise<CommentInfo[]> {
    return (await this.load()).comments.map(({ issue: _issue, ...c }) => c);
  }

  async addLabel(_issue: number, label: string): Promise<void> {
    const data = await this.load();
    if (!data.labels.includes(label)) data.labels.push(label);
    await this.save();
  }

  async removeLabel(_issue: number, label: string): Promise<void> {
    const data = await this.load();
    data.labels = data.labels.filter((l) => l !== label);
    await this.save();
  }

  async findComment(issue: number, marker: string, author: string): Promise<CommentRef | undefined> {
    const c = (await this.load()).comments.find((x) => x.issue === issue && x.author === author && x.body.includes(marker));
    return c && { id: c.id, url: this.commentLink(issue, c.id) };
  }

  async findOpenPull(head: string, base: string): Promise<PullRef | undefined> {
    const p = (await this.load()).pulls.find((x) => x.head === head && x.base === base);
    return p && { number: p.number, url: this.branchLink(p.head), headSha: await this.hooks.branchSha(p.head) };
  }

  /** The local "pull request" is the result branch with the summary crew wrote for it. */
  async createPull(input: { title: string; body: string; head: string; base: string }): Promise<PullRef> {
    const data = await this.load();
    const number = data.pulls.length + 1;
    data.pulls.push({ number, ...input });
    await this.save();
    return { number, url: this.branchLink(input.head), headSha: await this.hooks.branchSha(input.head) };
  }

  async updatePull(number: number, input: { title?: string; body?: string }): Promise<void> {
    const data = await this.load();
    const p = data.pulls.find((x) => x.number === number);
    if (!p) throw new Error(`result ${number} does not exist`);
    Object.assign(p, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
    await this.save();
  }

  async pull(number: number): Promise<StoredPull | undefined> {
    return (await this.load()).pulls.find((x) => x.number === number);
  }

  async getPull(number: number): Promise<PullInfo> {
    const p = await this.pull(number);
    if (!p) throw new Error(`result ${number} does not exist`);
    return { state: 'open', merged: false, headRef: p.head, headSha: await this.hooks.branchSha(p.head), headRepo: null, fromFork: false, baseRef: p.base };
  }

  async dispatch(inputs: Record<string, string>): Promise<void> {
    this.hooks.dispatch(inputs);
  }

  async workflowRunActive(runId: string): Promise<boolean> {
    return this.hooks.workflowRunActive(runId);
  }

  async workLegsStarted(runId: string): Promise<string[]> {
    return this.hooks.workLegsStarted(runId);
  }

  /** Locally every workflow run is this process's: `since` narrows nothing. */
  async workLegsRunning(_since: string): Promise<string[]> {
    return this.hooks.workLegsRunning();
  }

  /**
   * Locally the images are files the person named (`crew run --image FILE`), as `file://` URLs. Any other
   * URL in the request's text (a task file from elsewhere, a pasted text) names a file the person did not
   * choose to show: it is not read.
   */
  async attachment(url: string, maxBytes: number): Promise<Uint8Array> {
    if (!this.hooks.images.includes(url)) throw new AttachmentRefused('locally crew reads only the files given with --image, and this one was not');
    return readImageFile(url, maxBytes);
  }

  /** No GitHub, no rate limits. */
  rateLimitWaits(): readonly RateLimitWait[] {
    return [];
  }

  runLink(): string {
    return this.links.run;
  }

  blobLink(_branch: string, path: string): string {
    return this.links.stateFile(path);
  }

  branchLink(branch: string): string {
    return this.links.branch(branch);
  }

  commentLink(issue: number, id: number): string {
    return this.links.comment(issue, id);
  }

  private get links(): LocalLinks {
    return localLinks(this.project, this.runDir);
  }
}

export interface LocalLinks {
  /** The run's log, where GitHub has the workflow run. */
  run: string;
  /** A file of the run's state, where GitHub has the crew/state branch: the file in the run's folder. */
  stateFile(path: string): string;
  branch(branch: string): string;
  comment(issue: number, id: number): string;
}

/**
 * What the local forge's links are, relative to the project: the log and the run's files in
 * `.crew/runs/<N>/`, branches by name, comments by number. `crew status` shows the same ones.
 */
export function localLinks(project: string, runDir: string): LocalLinks {
  return {
    run: relative(project, join(runDir, 'crew.log')),
    stateFile: (path) => relative(project, join(runDir, pathInRunFolder(path))) || '.',
    branch: (branch) => branch,
    comment: (_issue, id) => `#comment-${id}`,
  };
}
