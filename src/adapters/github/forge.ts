import { randomBytes } from 'node:crypto';
import { systemClock } from '../../clock';
import type { CiRunFact } from '../../domain/ci-status';
import type { ApprovingReview, CheckFact, MergeMethod } from '../../domain/merge-gate';
import { workLegTask } from '../../domain/workflow-jobs';
import {
  PullRequestsNotAllowed,
  AttachmentRefused,
  type Clock,
  type CommentInfo,
  type CommentRef,
  type Forge,
  type Log,
  type PullInfo,
  type PullRef,
  type RateLimitWait,
  type FailedJob,
  type Reaction,
  type RepoPermission,
  type ReviewThread,
} from '../../ports';

export { PullRequestsNotAllowed };
import { BODY_LIMIT, POST_KEY_MARK } from '../../text/markdown';
import { redact } from '../../text/redact';
import { inertGit } from '../../text/inert';
import type { GitHubClient } from './octokit';
import { isAmbiguousFailure } from './request-policy';
import { fetchAttachment } from './attachments';
import { attachmentGuid, attachmentUrl, signedImageUrls, type TextItem } from '../../domain/images';

/** How much of a job log crew keeps in memory: its end, far more than the tail a follow-up is given. */
const MAX_LOG_CHARS = 1_000_000;

export interface GitHubForgeOptions {
  owner: string;
  repo: string;
  serverUrl: string;
  runId: string;
  /** The workflow file crew runs from, for dispatches (e.g. `crew.yml`). */
  workflowFile: string;
  /** The login from config (`bot_login`), which overrides any other way of knowing it; read when first needed. */
  configuredLogin?: () => Promise<string | undefined>;
  /** From the event payload, which saves a request per job. */
  defaultBranch?: string;
  /**
   * `personal`: a user's token (GET /user names it). `installation`: a `ghs_` token, which is
   * either the workflow's GITHUB_TOKEN or a GitHub App's; the prefix does not tell which.
   * `actions`: known to be the workflow's GITHUB_TOKEN.
   */
  tokenKind: 'actions' | 'installation' | 'personal';
  /** The waits the client's rate-limit handling recorded (createClient's onRateLimit). */
  rateLimitWaits?: () => readonly RateLimitWait[];
  clock?: Clock;
  /**
   * Whether crew's token reads this repository and no other: the workflow's GITHUB_TOKEN (GitHub's
   * docs, "Automatic token authentication"). Only then does crew follow the signed image links GitHub
   * renders for the token (#47: another private repository's upload would be signed too for a token
   * that reads it). Unset: known for `tokenKind: 'actions'` only.
   */
  tokenReadsOnlyThisRepository?: boolean;
}

/** How long one attachment may take to download. */
const ATTACHMENT_TIMEOUT_MS = 60_000;

/** Tries of one comment; between them crew checks whether the last one landed after all. */
const COMMENT_TRIES = 3;
/** How far back to look for a comment whose answer was lost: generous, for clock skew. */
const LANDED_WINDOW_MS = 10 * 60_000;

/** Safe to repeat after an ambiguous failure: the second request changes nothing, or GitHub refuses it (422). */
const REPEATABLE = { request: { idempotent: true } };

/** The hidden key that makes a comment findable after a lost answer; within GitHub's body limit. */
export function withIdempotencyKey(body: string, key: string): string {
  const mark = `\n\n${POST_KEY_MARK}${key} -->`;
  return `${body.length + mark.length > BODY_LIMIT ? body.slice(0, BODY_LIMIT - mark.length) : body}${mark}`;
}

/** A GraphQL `BigInt` (a string of digits) as the REST id it is; undefined when it is none or JSON numbers cannot hold it exactly. */
export function restId(value: string | null | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}

/**
 * A REST id as crew keeps it. @octokit/request reads a number past 2^53 as a BigInt (json-with-bigint), which
 * no GitHub id reaches yet; one that does stops here, named, rather than be rounded to another object's id.
 */
export function numberId(id: number | bigint): number {
  if (typeof id === 'number') return id;
  throw new Error(`GitHub sent the id ${id}, past the integers crew keeps exactly (2^53): crew needs an update to handle it`);
}

function status(e: unknown): number | undefined {
  return typeof e === 'object' && e !== null && 'status' in e ? Number((e as { status: unknown }).status) : undefined;
}

/**
 * A pull request's review threads, resolved or not (GraphQL only: REST does not say). Each thread is
 * known by its first comment's `fullDatabaseId`, the REST id: GitHub's comment ids are past 2^31,
 * and `databaseId` is an `Int` (32 bits), which GitHub answers with a field error for such an id.
 */
const REVIEW_THREADS_QUERY = `query($owner: String!, $name: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes { isResolved comments(first: 1) { nodes { fullDatabaseId } } }
      }
    }
  }
}`;

/** Who the token is: answers installation tokens too, which GET /user refuses. */
const VIEWER_QUERY = 'query { viewer { login } }';

/** Every GraphQL document crew sends, by name: tests validate each against GitHub's schema. */
export const GRAPHQL_QUERIES = { REVIEW_THREADS_QUERY, VIEWER_QUERY };

interface ThreadsPage {
  repository: {
    pullRequest: {
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: Array<{ isResolved: boolean; comments: { nodes: Array<{ fullDatabaseId: string | null }> } }>;
      };
    } | null;
  } | null;
}

/** The Forge port over GitHub's REST API. Everything it posts passes secret redaction. */
export class GitHubForge implements Forge {
  readonly repo: { owner: string; name: string };
  private cachedDefaultBranch?: string;
  private cachedLogin?: string;
  /** GET /repos, asked once per job: the default branch and the merge settings come from the same answer. */
  private repository?: ReturnType<GitHubForge['readRepository']>;
  /** One answer per login per job, failures included: a job never asks twice about the same person. */
  private readonly permissions = new Map<string, Promise<RepoPermission>>();

  constructor(
    private readonly gh: GitHubClient,
    private readonly opts: GitHubForgeOptions,
    private readonly log: Log,
  ) {
    this.repo = { owner: opts.owner, name: opts.repo };
    this.cachedDefaultBranch = opts.defaultBranch;
  }

  private get base() {
    return { owner: this.opts.owner, repo: this.opts.repo };
  }

  /**
   * The login crew's comments carry: `bot_login` from config; else the author GitHub gave
   * something this process wrote (the 👀 reaction every command gets, a comment); else
   * GET /user for a personal token. Installation tokens get 403 from GET /user, and a
   * GitHub App's is indistinguishable from GITHUB_TOKEN by its prefix, so GraphQL's
   * `viewer`, which answers both, names the bot.
   */
  async botLogin(): Promise<string> {
    const configured = await this.opts.configuredLogin?.();
    if (configured) return configured;
    if (this.cachedLogin) return this.cachedLogin;
    if (this.opts.tokenKind === 'actions') return (this.cachedLogin = 'github-actions[bot]');
    if (this.opts.tokenKind === 'personal') {
      const { data } = await this.gh.request('GET /user');
      return (this.cachedLogin = data.login);
    }
    try {
      const { viewer } = await this.gh.graphql<{ viewer: { login: string } }>(VIEWER_QUERY);
      return (this.cachedLogin = viewer.login);
    } catch (e) {
      this.log.warn(
        `could not ask GitHub which account this token is (${(e as Error).message}); assuming github-actions[bot]. With a GitHub App token, set bot_login in .github/crew.yml.`,
      );
      return (this.cachedLogin = 'github-actions[bot]');
    }
  }

  /** What GitHub says wrote something for this token is crew's login; no request needed later. */
  private learnLogin(user: { login: string } | null | undefined): void {
    if (user?.login) this.cachedLogin ??= user.login;
  }

  async defaultBranch(): Promise<string> {
    this.cachedDefaultBranch ??= (await this.repositoryOnce()).default_branch;
    return this.cachedDefaultBranch;
  }

  private async readRepository() {
    return (await this.gh.request('GET /repos/{owner}/{repo}', this.base)).data;
  }

  /** The repository's settings, read once per job (a failed read is asked again). */
  private repositoryOnce(): ReturnType<GitHubForge['readRepository']> {
    this.repository ??= this.readRepository().catch((e: unknown) => {
      this.repository = undefined;
      throw e;
    });
    return this.repository;
  }

  permissionOf(login: string): Promise<RepoPermission> {
    const key = login.toLowerCase();
    let answer = this.permissions.get(key);
    if (!answer) {
      // `permission` is the legacy level: maintain reads as write, triage as read.
      answer = this.gh.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', { ...this.base, username: login }).then(({ data }) => {
        const p = data.permission;
        return p === 'admin' || p === 'write' || p === 'read' ? p : 'none';
      });
      this.permissions.set(key, answer);
    }
    return answer;
  }

  async react(commentId: number, reaction: Reaction): Promise<void> {
    // A second identical reaction is answered with the first, so a retry adds nothing.
    const { data } = await this.gh.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
      ...this.base,
      comment_id: commentId,
      content: reaction,
      ...REPEATABLE,
    });
    this.learnLogin(data.user);
  }

  async postComment(issue: number, body: string): Promise<CommentRef> {
    const key = randomBytes(6).toString('hex');
    const text = withIdempotencyKey(redact(body), key);
    const clock = this.opts.clock ?? systemClock;
    const since = new Date(clock.now().getTime() - LANDED_WINDOW_MS).toISOString();
    for (let attempt = 1; ; attempt++) {
      try {
        const { data } = await this.gh.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...this.base, issue_number: issue, body: text });
        this.learnLogin(data.user);
        return { id: numberId(data.id), url: data.html_url };
      } catch (e) {
        if (!isAmbiguousFailure(e)) throw e;
        // The comment may have been created and only the answer lost: find it by its key before posting again.
        const landed = await this.findRecentComment(issue, `${POST_KEY_MARK}${key} -->`, since);
        if (landed) {
          this.log.info(`the comment on #${issue} had landed although GitHub's answer was lost; not posting it again`);
          return landed;
        }
        if (attempt >= COMMENT_TRIES) throw e;
        this.log.warn(
          `posting a comment on #${issue} failed (${e instanceof Error ? e.message : String(e)}); it did not land, so crew posts it again (try ${attempt + 1} of ${COMMENT_TRIES})`,
        );
        await clock.sleep(1000 * 2 ** (attempt - 1));
      }
    }
  }

  /** Only comments updated since `since`, so a busy issue costs a page, not its whole history. */
  private async findRecentComment(issue: number, marker: string, since: string): Promise<CommentRef | undefined> {
    const me = await this.botLogin();
    for await (const page of this.gh.paginate.iterator('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...this.base,
      issue_number: issue,
      since,
      per_page: 100,
    })) {
      const hit = page.data.find((c) => c.user?.login === me && (c.body ?? '').includes(marker));
      if (hit) return { id: hit.id, url: hit.html_url };
    }
    return undefined;
  }

  async updateComment(id: number, body: string): Promise<void> {
    await this.gh.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...this.base, comment_id: id, body: redact(body) });
  }

  async getComment(id: number): Promise<CommentInfo> {
    const { data } = await this.gh.request('GET /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...this.base, comment_id: id });
    return { id: numberId(data.id), body: data.body ?? '', author: data.user?.login ?? '', createdAt: data.created_at, updatedAt: data.updated_at };
  }

  async addLabel(issue: number, label: string): Promise<void> {
    await this.gh.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { ...this.base, issue_number: issue, labels: [label], ...REPEATABLE });
  }

  async removeLabel(issue: number, label: string): Promise<void> {
    try {
      await this.gh.request('DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', { ...this.base, issue_number: issue, name: label });
    } catch (e) {
      if (status(e) !== 404) throw e;
    }
  }

  async findComment(issue: number, marker: string, author: string): Promise<CommentRef | undefined> {
    // Only a comment crew itself wrote counts: anyone can paste the marker into theirs.
    for await (const page of this.gh.paginate.iterator('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...this.base,
      issue_number: issue,
      per_page: 100,
    })) {
      const hit = page.data.find((c) => c.user?.login === author && (c.body ?? '').includes(marker));
      if (hit) return { id: hit.id, url: hit.html_url };
    }
    return undefined;
  }

  async findOpenPull(head: string, base: string): Promise<PullRef | undefined> {
    const { data } = await this.gh.request('GET /repos/{owner}/{repo}/pulls', {
      ...this.base,
      head: `${this.opts.owner}:${head}`,
      base,
      state: 'open',
      per_page: 10,
    });
    const pr = data[0];
    return pr ? { number: pr.number, url: pr.html_url, headSha: pr.head.sha } : undefined;
  }

  async createPull(input: { title: string; body: string; head: string; base: string }): Promise<PullRef> {
    try {
      // Repeatable: if a lost answer hid a PR that was created, the repeat gets 422 and finds it below.
      // A title reaches the merge commit's message, so it is inert like the commits (an issue's title or a model's words).
      const { data } = await this.gh.request('POST /repos/{owner}/{repo}/pulls', {
        ...this.base,
        ...input,
        title: inertGit(redact(input.title)),
        body: redact(input.body),
        ...REPEATABLE,
      });
      return { number: data.number, url: data.html_url, headSha: data.head.sha };
    } catch (e) {
      if (status(e) === 422) {
        // Created by an earlier attempt whose answer was lost: find it instead of failing.
        const existing = await this.findOpenPull(input.head, input.base);
        if (existing) return existing;
      }
      if (status(e) === 403 && /not permitted to create or approve pull requests/i.test(String((e as Error).message))) {
        throw new PullRequestsNotAllowed();
      }
      throw e;
    }
  }

  async updatePull(number: number, input: { title?: string; body?: string }): Promise<void> {
    await this.gh.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
      ...this.base,
      pull_number: number,
      ...(input.title !== undefined ? { title: inertGit(redact(input.title)) } : {}),
      ...(input.body !== undefined ? { body: redact(input.body) } : {}),
    });
  }

  async getPull(number: number): Promise<PullInfo> {
    const { data } = await this.gh.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...this.base, pull_number: number });
    const headRepo = data.head.repo?.full_name ?? null;
    return {
      state: data.state === 'open' ? 'open' : 'closed',
      merged: data.merged,
      headSha: data.head.sha,
      headRef: data.head.ref,
      headRepo,
      fromFork: headRepo === null || headRepo.toLowerCase() !== data.base.repo.full_name.toLowerCase(),
      baseRef: data.base.ref,
      mergedBy: data.merged && data.merged_by && data.merge_commit_sha ? { login: data.merged_by.login, sha: data.merge_commit_sha } : null,
    };
  }

  /**
   * The review comments (REST, every page) grouped into threads by `in_reply_to_id`, and each
   * thread's `isResolved`, which only GraphQL serves (`reviewThreads`, keyed here by the first
   * comment's `fullDatabaseId`, the REST id). A thread GraphQL does not list counts as unresolved.
   */
  async reviewThreads(number: number): Promise<ReviewThread[]> {
    const comments = await this.gh.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/comments', { ...this.base, pull_number: number, per_page: 100 });
    const resolved = new Set<number>();
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const answer: ThreadsPage = await this.gh.graphql<ThreadsPage>(REVIEW_THREADS_QUERY, { owner: this.opts.owner, name: this.opts.repo, number, cursor });
      const threads = answer.repository?.pullRequest?.reviewThreads;
      if (!threads) throw new Error(`GitHub did not list the review threads of #${number}`);
      for (const t of threads.nodes) {
        if (!t.isResolved) continue;
        const first = restId(t.comments.nodes[0]?.fullDatabaseId);
        if (first !== undefined) resolved.add(first);
        else
          this.log.warn(
            `GitHub named a resolved review thread's first comment ${String(t.comments.nodes[0]?.fullDatabaseId)}, which is no REST id; that thread counts as unresolved`,
          );
      }
      if (!threads.pageInfo.hasNextPage) break;
      cursor = threads.pageInfo.endCursor;
    }
    const threads = new Map<number, ReviewThread>();
    for (const c of [...comments].sort((a, b) => a.id - b.id)) {
      const rootId = c.in_reply_to_id ?? c.id;
      let t = threads.get(rootId);
      if (!t) threads.set(rootId, (t = { rootId, resolved: resolved.has(rootId), comments: [] }));
      t.comments.push({
        id: c.id,
        author: { login: c.user.login, type: c.user.type },
        body: c.body,
        path: c.path,
        line: c.line ?? null,
        diffHunk: c.diff_hunk,
        createdAt: c.created_at,
      });
    }
    return [...threads.values()];
  }

  async replyInThread(number: number, rootId: number, body: string): Promise<void> {
    await this.gh.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies', {
      ...this.base,
      pull_number: number,
      comment_id: rootId,
      body: redact(body),
    });
  }

  /**
   * The checks on a commit, without crew's own jobs. On GitHub every job is a check run on its
   * run's head, and a run started by a review has the pull request's head: counted, the merge
   * job's own in-progress check would make it wait for itself, and nothing would start it again.
   * A GitHub Actions job of another workflow comes with its run as GitHub tells it now (its
   * workflow's name, link, status and conclusion of its latest attempt), read once per run and reading.
   */
  async checksOn(sha: string): Promise<CheckFact[]> {
    // filter=all, then the newest of each name among the rest: with GitHub's default (latest), a
    // crew job named like one of your checks (`merge`) would hide that check before it was left out.
    const refused = (e: unknown): never => {
      // A workflow copied before a job needed them: say which permissions, not only GitHub's 403.
      if (status(e) === 403)
        throw new Error(
          `GitHub refused to list the checks on ${sha.slice(0, 7)} (403: ${e instanceof Error ? e.message : String(e)}): give this job \`checks: read\` and \`statuses: read\`, as the README's workflow does`,
        );
      throw e;
    };
    // The check runs and the statuses are independent reads, and so are the workflow runs behind the checks: asked at once.
    const [runs, { data: combined }] = await Promise.all([
      this.gh.paginate('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...this.base, ref: sha, filter: 'all', per_page: 100 }).catch(refused),
      this.gh.request('GET /repos/{owner}/{repo}/commits/{ref}/status', { ...this.base, ref: sha, per_page: 100 }).catch(refused),
    ]);
    // One look-up per workflow run in this reading: its checks share it. Not kept for the next reading, which must see the run's status then.
    const reading = new Map<number, Promise<{ crew: boolean; run?: CiRunFact }>>();
    const owners = await Promise.all(runs.map((r) => this.actionsRunOf(r, reading)));
    const ours = new Set<string>();
    const newest = new Map<string, { check: (typeof runs)[number]; run?: CiRunFact }>();
    for (const [i, r] of runs.entries()) {
      const { crew, run } = owners[i]!;
      if (crew) ours.add(r.name);
      else if (!newest.has(r.name) || newest.get(r.name)!.check.id < r.id) newest.set(r.name, { check: r, ...(run ? { run } : {}) });
    }
    if (ours.size) this.log.info(`not counting crew's own jobs on ${sha.slice(0, 7)}: ${[...ours].join(', ')}`);
    return [
      ...[...newest.values()].map(({ check, run }) => ({ name: check.name, status: check.status, conclusion: check.conclusion, ...(run ? { run } : {}) })),
      ...combined.statuses.map((s) => ({ name: s.context, status: s.state, conclusion: null })),
    ];
  }

  /** Workflow runs known to be crew's: a run's workflow file never changes, so these need no second request. */
  private readonly crewRuns = new Set<number>();

  /**
   * A GitHub Actions check run links to its job (`…/actions/runs/<run>/job/<id>`). This run's
   * own jobs need no request; another run's is crew's when that run's workflow file is crew's
   * (the merge job's `actions: read`). When GitHub will not say, the check counts: waiting is safe.
   * Another workflow's run is read afresh in each reading (`reading`): a status kept from an earlier
   * one would show a run that has since failed as still going, and its failure would be left to a
   * `workflow_run` event that has already come (a run's end looking at CI, steps/ci-status.ts).
   */
  private actionsRunOf(
    r: { app?: { slug?: string } | null; details_url?: string | null },
    reading: Map<number, Promise<{ crew: boolean; run?: CiRunFact }>>,
  ): Promise<{ crew: boolean; run?: CiRunFact }> {
    const run = /\/actions\/runs\/(\d+)\/job\//.exec(r.details_url ?? '')?.[1];
    if (r.app?.slug !== 'github-actions' || !run) return Promise.resolve({ crew: false });
    if (run === this.opts.runId || this.crewRuns.has(Number(run))) return Promise.resolve({ crew: true });
    let known = reading.get(Number(run));
    if (!known) {
      known = this.gh.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}', { ...this.base, run_id: Number(run) }).then(
        ({ data }) => ({
          crew: data.path.replace(/@.*$/, '') === `.github/workflows/${this.opts.workflowFile}`,
          run: {
            id: numberId(data.id),
            workflow: data.name ?? data.path,
            path: data.path,
            url: data.html_url,
            status: data.status ?? 'completed',
            conclusion: data.conclusion,
            headSha: data.head_sha,
            headBranch: data.head_branch,
            headRepo: data.head_repository?.full_name ?? null,
          },
        }),
        (e: unknown) => {
          this.log.warn(
            `could not tell whether workflow run ${run} is crew's (${e instanceof Error ? e.message : String(e)}), so its checks count; give the merge job \`actions: read\` as the README's workflow does`,
          );
          return { crew: false };
        },
      );
      reading.set(Number(run), known);
      void known.then(({ crew }) => crew && this.crewRuns.add(Number(run)));
    }
    return known;
  }

  async approvals(number: number): Promise<ApprovingReview[]> {
    const reviews = await this.gh.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { ...this.base, pull_number: number, per_page: 100 });
    // A reviewer's latest decisive review counts; comments alone change nothing.
    const latest = new Map<string, { state: string; review: ApprovingReview }>();
    for (const r of reviews) {
      if (r.user && r.state !== 'COMMENTED' && r.state !== 'PENDING')
        latest.set(r.user.login, { state: r.state, review: { login: r.user.login, commit: r.commit_id, bot: r.user.type !== 'User' } });
    }
    return [...latest.values()].filter((r) => r.state === 'APPROVED').map((r) => r.review);
  }

  async deletesHeadOnMerge(): Promise<boolean> {
    return (await this.repositoryOnce()).delete_branch_on_merge === true;
  }

  async mergeMethods(): Promise<{ merge: boolean; squash: boolean; rebase: boolean }> {
    const data = await this.repositoryOnce();
    return { merge: data.allow_merge_commit !== false, squash: data.allow_squash_merge !== false, rebase: data.allow_rebase_merge !== false };
  }

  async mergePull(
    number: number,
    sha: string,
    method: MergeMethod,
  ): Promise<{ merged: true; sha: string } | { merged: false; status: number; message: string }> {
    try {
      const { data } = await this.gh.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {
        ...this.base,
        pull_number: number,
        sha,
        merge_method: method,
      });
      return { merged: true, sha: data.sha };
    } catch (e) {
      const code = status(e);
      if (code === 405 || code === 409 || code === 422 || code === 403)
        return { merged: false, status: code, message: e instanceof Error ? e.message : String(e) };
      throw e;
    }
  }

  async dispatch(inputs: Record<string, string>): Promise<void> {
    const ref = await this.defaultBranch();
    this.log.info(`dispatching ${this.opts.workflowFile} on ${ref} with ${JSON.stringify(inputs)}`);
    // Repeatable: a repeated dispatch carries the same claim nonce, and only the first job to present it starts the tasks.
    await this.gh.request('POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
      ...this.base,
      workflow_id: this.opts.workflowFile,
      ref,
      inputs,
      ...REPEATABLE,
    });
  }

  async workflowRunActive(runId: string): Promise<boolean | undefined> {
    if (!/^\d+$/.test(runId)) return undefined;
    try {
      const { data } = await this.gh.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}', { ...this.base, run_id: Number(runId) });
      return data.status !== 'completed';
    } catch (e) {
      if (status(e) === 404) return false;
      throw e;
    }
  }

  async workLegsStarted(runId: string): Promise<string[]> {
    if (!/^\d+$/.test(runId)) return [];
    const jobs = await this.gh
      .paginate('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { ...this.base, run_id: Number(runId), filter: 'latest', per_page: 100 })
      .catch((e: unknown) => {
        if (status(e) === 404) return []; // no such run: it started nothing
        throw e;
      });
    return jobs.filter((j) => j.started_at && j.conclusion !== 'skipped').flatMap((j) => workLegTask(j.name));
  }

  async earlierWorkLegs(task: string, since: string, runId: string): Promise<string[]> {
    if (!/^\d+$/.test(runId)) return [];
    const runs = (await this.dispatchedRunsSince(since)).filter((r) => r.id < Number(runId));
    const going = await Promise.all(runs.map(async (r) => ((await this.legsGoing(r.id)).includes(task) ? [String(r.id)] : [])));
    return going.flat();
  }

  /** In-progress runs of crew's own workflow started by a dispatch, created since `since`. */
  private async dispatchedRunsSince(since: string) {
    // Queued runs have no legs yet, and a leg that starts after this look finds its claim taken afresh.
    const runs = await this.gh.paginate('GET /repos/{owner}/{repo}/actions/runs', {
      ...this.base,
      event: 'workflow_dispatch',
      status: 'in_progress',
      per_page: 100,
    });
    // `created` takes a range in the search syntax by the REST docs, but GitHub's OpenAPI description says
    // date-time: the runs in progress are few, so the time is compared here.
    return runs.filter((r) => r.path.replace(/@.*$/, '') === `.github/workflows/${this.opts.workflowFile}` && Date.parse(r.created_at) >= Date.parse(since));
  }

  /** The tasks of a run's `work` legs that have not completed. */
  private async legsGoing(runId: number): Promise<string[]> {
    const jobs = await this.gh.paginate('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', {
      ...this.base,
      run_id: runId,
      filter: 'latest',
      per_page: 100,
    });
    return jobs.filter((j) => j.status !== 'completed').flatMap((j) => workLegTask(j.name));
  }

  async workLegsRunning(since: string): Promise<string[]> {
    const legs = await Promise.all((await this.dispatchedRunsSince(since)).map((r) => this.legsGoing(r.id)));
    return [...new Set(legs.flat())];
  }

  async failedJobs(runId: number, limit: number): Promise<FailedJob[]> {
    const jobs = await this.gh.paginate('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', {
      ...this.base,
      run_id: runId,
      filter: 'latest',
      per_page: 100,
    });
    return jobs
      .filter((j) => j.conclusion === 'failure' || j.conclusion === 'timed_out')
      .slice(0, limit)
      .map((j) => ({
        id: j.id,
        name: j.name,
        url: j.html_url ?? `${this.opts.serverUrl}/${this.opts.owner}/${this.opts.repo}/actions/runs/${runId}/job/${j.id}`,
        step: j.steps?.find((s) => s.conclusion === 'failure')?.name ?? null,
      }));
  }

  /**
   * `GET …/actions/jobs/{id}/logs` answers 302 with a short-lived link to the log on another host.
   * Octokit's fetch (undici) follows it and, the link being another origin, drops the Authorization
   * header (fetch spec, HTTP-redirect fetch step 13), so crew's token never reaches the log host;
   * the fake GitHub refuses a log request that carries one.
   */
  async jobLog(jobId: number): Promise<string | null> {
    try {
      const { data } = await this.gh.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { ...this.base, job_id: jobId });
      const text = typeof data === 'string' ? data : data instanceof ArrayBuffer ? new TextDecoder().decode(data) : String(data);
      return text.length > MAX_LOG_CHARS ? text.slice(-MAX_LOG_CHARS) : text;
    } catch (e) {
      // Logs expire (90 days by default), and a job that never started has none: the feedback says so.
      this.log.warn(`could not read the log of job ${jobId}: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
  }

  async jobLink(name: string): Promise<string | null> {
    if (!/^\d+$/.test(this.opts.runId)) return null;
    try {
      const jobs = await this.gh.paginate('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', {
        ...this.base,
        run_id: Number(this.opts.runId),
        filter: 'latest',
        per_page: 100,
      });
      // The short form's jobs are the caller job's: GitHub names them `<caller job> / work (t1)`.
      const mine = jobs.filter((j) => (j.name === name || j.name.endsWith(` / ${name}`)) && j.status !== 'completed');
      // Two legs of one name (a matrix with a repeated value) cannot be told apart: no link rather than a wrong one.
      if (mine.length !== 1) return null;
      return mine[0]!.html_url ?? `${this.opts.serverUrl}/${this.opts.owner}/${this.opts.repo}/actions/runs/${this.opts.runId}/job/${mine[0]!.id}`;
    } catch (e) {
      this.log.info(`could not find this job's page in the run's jobs: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
  }

  async attachment(url: string, maxBytes: number, from: readonly TextItem[] = []): Promise<Uint8Array> {
    // Somebody else's server would learn who reads the issue, and when: crew fetches GitHub's own uploads only.
    const kind = attachmentUrl(url, this.opts.serverUrl, { owner: this.opts.owner, name: this.opts.repo });
    if (!kind.ok) throw new AttachmentRefused(kind.reason);
    const fetchOpts = (notFound: (status: number) => string) => ({ serverUrl: this.opts.serverUrl, maxBytes, timeoutMs: ATTACHMENT_TIMEOUT_MS, notFound });
    if (kind.kind === 'signed')
      return fetchAttachment(
        url,
        fetchOpts((s) => `GitHub answered ${s}: the signed link has expired, or the file is gone`),
      );
    // GitHub renders the text for crew's token, and signs every upload that token reads: a token
    // that reads other repositories too would get another private repository's image signed when
    // the issue's author pastes its URL. So only a token that reads this repository alone follows
    // the signed links; any other gets what anyone gets (a public repository's upload).
    const scoped = this.opts.tokenReadsOnlyThisRepository ?? this.opts.tokenKind === 'actions';
    const guid = attachmentGuid(url);
    if (scoped && guid)
      for (const item of from) {
        // A job that runs past a link's five minutes asks for the text again once.
        for (let fresh = false; ; fresh = true) {
          const signed = (await this.renderedImages(item, fresh)).get(guid);
          if (!signed) break;
          try {
            return await fetchAttachment(
              signed,
              fetchOpts((s) => `GitHub's storage answered ${s} to a fresh signed link (the file is gone)`),
            );
          } catch (e) {
            if (!(e instanceof AttachmentRefused) || e.status === undefined || fresh) throw e;
          }
        }
      }
    return fetchAttachment(
      url,
      fetchOpts((s) =>
        scoped
          ? `GitHub answered ${s}: it is gone, or in a private repository and not among the images GitHub shows crew's token in the text it came from`
          : `GitHub answered ${s} to a request without credentials (it is private, or gone). For a private repository's images crew follows the signed links GitHub renders for its token only when that token reads this repository alone: the workflow's GITHUB_TOKEN (the github_token input's default)`,
      ),
    );
  }

  private readonly rendered = new Map<string, Promise<Map<string, string>>>();

  /**
   * The signed image URLs of a text as GitHub renders it for crew's token (the `full` media type's
   * `body_html`), by upload GUID; read once per job unless `fresh`. A failed read is logged and
   * shows none: the image is then asked for as anyone would, and refused with GitHub's answer.
   */
  private renderedImages(item: TextItem, fresh: boolean): Promise<Map<string, string>> {
    const key = JSON.stringify(item);
    if (fresh || !this.rendered.has(key)) {
      const full = { ...this.base, mediaType: { format: 'full' } };
      const read = async (): Promise<string[]> => {
        switch (item.kind) {
          case 'issue':
            return [(await this.gh.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...full, issue_number: item.number })).data.body_html ?? ''];
          case 'comment':
            return [(await this.gh.request('GET /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...full, comment_id: item.id })).data.body_html ?? ''];
          case 'reviews':
            return (await this.gh.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { ...full, pull_number: item.pull, per_page: 100 })).map(
              (r) => r.body_html ?? '',
            );
          case 'review-comments':
            return (await this.gh.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/comments', { ...full, pull_number: item.pull, per_page: 100 })).map(
              (c) => c.body_html ?? '',
            );
        }
      };
      this.rendered.set(
        key,
        read().then(
          (html) => signedImageUrls(html.join('\n'), this.opts.serverUrl),
          (e: unknown) => {
            this.log.warn(`could not read the ${item.kind} text to find its images' signed links: ${e instanceof Error ? e.message : String(e)}`);
            return new Map<string, string>();
          },
        ),
      );
    }
    return this.rendered.get(key)!;
  }

  rateLimitWaits(): readonly RateLimitWait[] {
    return this.opts.rateLimitWaits?.() ?? [];
  }

  runLink(): string {
    return `${this.opts.serverUrl}/${this.opts.owner}/${this.opts.repo}/actions/runs/${this.opts.runId}`;
  }

  blobLink(branch: string, path: string): string {
    return `${this.opts.serverUrl}/${this.opts.owner}/${this.opts.repo}/blob/${branch}/${path}`;
  }

  commentLink(issue: number, id: number): string {
    return `${this.opts.serverUrl}/${this.opts.owner}/${this.opts.repo}/issues/${issue}#issuecomment-${id}`;
  }

  branchLink(branch: string): string {
    return `${this.opts.serverUrl}/${this.opts.owner}/${this.opts.repo}/tree/${branch}`;
  }
}
