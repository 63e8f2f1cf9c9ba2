import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { PlatformProfile } from '../latency';
import { scaledMs, sleep, timeScale } from '../time';
import { BareRepo } from './bare-repo';
import { gitRequestPeek, matchGitRoute, serveGit, type CachedGitResponse, type GitRequestKind } from './git-http';
import { HttpError, type RouteResponse } from './http-types';
import {
  ACTIONS_BOT,
  DEFAULT_REPO_SETTINGS,
  atLeast,
  type FakeCheckRun,
  type FakeRelease,
  type FakeComment,
  type FakeIssue,
  type FakeLabel,
  type FakePull,
  type FakeReview,
  type FakeReviewComment,
  type FakeStatus,
  type FakeUser,
  type FakeWorkflowRun,
  type FakeWorkflowJob,
  type JobTag,
  type Access,
  type Permission,
  type Principal,
  type RepoSettings,
  type Scopes,
} from './model';
import { matchOperation, validateRequest, validateResponse, webhookExample } from './reference';
import { ROUTES } from './routes/index';
import { createIssue } from './routes/issues';
import { answerGraphql } from './graphql/serve';
import { serializeWorkflowRun } from './routes/actions';
import { Serializer } from './serialize';
import { FakeAttachments } from './attachments';
import { BODY_ROUTES, bodyFormat, withBodyFormat } from './media-types';

export interface FakeGitHubOptions {
  /** Scales the rate-limit windows (an hour, a minute); defaults to CREW_TIME_SCALE. */
  timeScale?: number;
  owner?: string;
  repo?: string;
  /** Folder holding the bare repository (`<root>/<owner>/<repo>.git`). */
  root: string;
  files: Record<string, string>;
  defaultBranch?: string;
  settings?: Partial<RepoSettings>;
  /** Time each request takes before it is answered (before the time scale); none by default. */
  latency?: Pick<PlatformProfile, 'restMs' | 'graphqlMs' | 'gitMs'>;
}

export interface RecordedRequest {
  seq: number;
  method: string;
  route: string;
  path: string;
  status: number;
  principal: Principal['kind'] | 'anonymous';
  login: string | null;
  write: boolean;
  at: number;
  /** The workflow job whose GITHUB_TOKEN made it, and the step it was on (JobTag); none for other tokens. */
  job?: string;
  step?: string;
}

export interface RecordedGitRequest {
  seq: number;
  service: 'upload-pack' | 'receive-pack';
  at: number;
  phase: string;
  login: string | null;
  status: number;
  /** What the round trip was for (git-http.ts, gitRequestKind). */
  kind: GitRequestKind;
  /** A push's refs, from the commands at the start of its body. */
  refs?: string[];
  /** The workflow job whose GITHUB_TOKEN made it, and the step it was on (JobTag); none for other tokens. */
  job?: string;
  step?: string;
}

export interface GitHubEvent {
  name: string;
  payload: Record<string, unknown>;
  /** The principal whose action caused the event (for the runner's actor). */
  actor: string;
}

/**
 * A fault to inject: matched by route key (`POST /repos/{owner}/{repo}/issues/{issue_number}/comments`)
 * or `*`, served instead of the real answer `times` times.
 */
export interface GitHubFault {
  route: string;
  status: number;
  times?: number;
  kind?: 'primary-rate-limit' | 'secondary-rate-limit' | 'server-error' | 'drop' | 'plain';
  retryAfterSeconds?: number;
  /** For a primary rate limit: `x-ratelimit-reset` this many (platform) seconds from now, instead of the window's end. */
  resetInSeconds?: number;
  /** Apply the fault after the request has taken effect (a write that succeeded but whose answer was lost). */
  afterEffect?: boolean;
  /** Only requests by this kind of principal (e.g. `actions`, crew's workflow token); any by default. */
  principal?: Principal['kind'];
  message?: string;
}

/** A request held back until a condition holds (FakeGitHub.holdRequest). */
interface RequestHold {
  route: string;
  body?: RegExp;
  until: () => boolean;
  timeoutMs: number;
  what: string;
  taken: boolean;
  released?: boolean;
}

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Checks a response against the OpenAPI description. GitHub's description lists
 * only some of the client errors each endpoint can give (any endpoint can answer
 * 401, 403, 404 or 422), so an undocumented 4xx/5xx is checked against GitHub's
 * common error body instead of being reported; an undocumented success still is.
 */
function checkResponse(key: string, status: number, body: unknown): string[] {
  const errors = validateResponse(key, status, body);
  if (status < 400 || errors.length !== 1 || !errors[0]!.startsWith(`status ${status} is not documented`)) return errors;
  const problems: string[] = [];
  const b = body as Record<string, unknown> | null;
  if (typeof b !== 'object' || b === null) return [`body: an error needs GitHub's error object; got ${JSON.stringify(body)}`];
  if (typeof b.message !== 'string') problems.push('body/message: an error needs a message string');
  if (typeof b.documentation_url !== 'string') problems.push('body/documentation_url: an error needs a documentation_url string');
  if (
    b.errors !== undefined &&
    !(
      Array.isArray(b.errors) &&
      b.errors.every((e) => typeof e === 'string' || (typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string'))
    )
  ) {
    problems.push('body/errors: each error needs a code');
  }
  return problems;
}
const HOUR_MS = 3_600_000;

/** The job (and its step, now) a request's token belongs to, for the request's record. */
function jobOf(principal: Principal | undefined): { job?: string; step?: string } {
  const tag = principal?.kind === 'actions' ? principal.tag : undefined;
  return tag ? { job: tag.job, ...(tag.step === undefined ? {} : { step: tag.step }) } : {};
}

/**
 * A stand-in for github.com and api.github.com on one loopback port: REST for the
 * endpoints crew uses, git smart-HTTP for clones and pushes, and the events that
 * start workflow runs. Every response is checked against GitHub's OpenAPI description.
 */
export class FakeGitHub {
  readonly owner: string;
  readonly repoName: string;
  readonly repoId = 700_000_001;
  readonly createdAt = '2026-01-01T00:00:00Z';
  settings: RepoSettings;
  readonly timeScale: number;
  readonly latency: FakeGitHubOptions['latency'];
  /** Requests the latency profile held up, by kind, and the time it added (scaled). */
  readonly delays = { rest: 0, graphql: 0, git: 0, ms: 0 };
  url = '';
  /**
   * The web server's URL jobs get as GITHUB_SERVER_URL: the same fake under a `.localhost` name,
   * which resolves to loopback (RFC 6761; curl, so git, resolves it itself). On github.com the
   * server's host is not the API's either, and @actions/artifact refuses to run against a server
   * it takes for GitHub Enterprise Server (any host but github.com, *.ghe.com and *.localhost).
   */
  get serverUrl(): string {
    return this.url.replace('//127.0.0.1:', '//github.localhost:');
  }
  repo!: BareRepo;
  serialize!: Serializer;

  readonly users = new Map<string, FakeUser>();
  readonly permissions = new Map<string, Permission>();
  readonly tokens = new Map<string, Principal>();
  /** Every token ever issued, revoked ones included: what leak tests look for. */
  readonly issuedTokens: string[] = [];
  readonly issues = new Map<number, FakeIssue>();
  readonly comments = new Map<number, FakeComment>();
  readonly pulls = new Map<number, FakePull>();
  readonly reviews: FakeReview[] = [];
  readonly reviewComments: FakeReviewComment[] = [];
  readonly checkRuns: FakeCheckRun[] = [];
  readonly releases = new Map<number, FakeRelease>();
  readonly statuses: FakeStatus[] = [];
  readonly labels = new Map<string, FakeLabel>();
  readonly workflowRuns = new Map<number, FakeWorkflowRun>();
  /** Jobs of workflow runs by id (their check runs' ids), with their logs. */
  readonly workflowJobs = new Map<number, FakeWorkflowJob>();
  /**
   * Where `GET …/actions/jobs/{id}/logs` redirects: another origin (its own port), like GitHub's log
   * storage, serving a link only for a minute. Every request it got, and whether it carried an
   * Authorization header (a token sent to another host), for tests to check.
   */
  logHost = '';
  /** Files pasted into issues (#36): the asset URLs this host serves and their storage host (attachments.ts). */
  readonly attachments: FakeAttachments;
  readonly logDownloads: Array<{ jobId: number; status: number; authorization: boolean }> = [];
  private readonly logLinks = new Map<string, { jobId: number; expires: number }>();
  private logServer?: Server;

  readonly requests: RecordedRequest[] = [];
  readonly gitRequests: RecordedGitRequest[] = [];
  /** upload-pack's protocol v2 capability list, per repository and protocol header (see git-http.ts). */
  private readonly gitCapabilities = new Map<string, CachedGitResponse>();
  /** Ref advertisements, by request and the refs they were made from (see git-http.ts). */
  private readonly gitAdvertisements = new Map<string, CachedGitResponse>();
  /** How many times the fake has started `git http-backend`: what it could not answer from memory. */
  gitBackendRuns = 0;
  /** Every way the fake or its clients strayed from GitHub's OpenAPI description. Tests expect it empty. */
  readonly violations: string[] = [];
  readonly faults: GitHubFault[] = [];
  /** Requests held back until a condition holds (`holdRequest`). */
  private holds: RequestHold[] = [];

  private server?: Server;
  private seq = 0;
  /**
   * Where each kind of id starts: in GitHub's present ranges, past 2^31 (GraphQL's `Int`) for
   * issues, pull requests, comments, reviews, review comments, check runs and jobs (a job's id is
   * its check run's), so a client that keeps one in 32 bits fails here as on GitHub.
   */
  private ids = {
    issueId: 3_400_000_000,
    comment: 2_200_000_000,
    reaction: 150_000_000,
    pull: 2_800_000_000,
    review: 3_300_000_000,
    reviewComment: 2_300_000_000,
    check: 30_000_000_000,
    status: 40_000_000_000,
    label: 5_000_000_000,
    release: 260_000_000,
    user: 100,
  };
  private listeners: Array<(e: GitHubEvent) => void> = [];
  private windows = new Map<string, { start: number; used: number }>();
  private creates = new Map<string, number[]>();

  private constructor(private readonly opts: FakeGitHubOptions) {
    this.owner = opts.owner ?? 'acme';
    this.repoName = opts.repo ?? 'widgets';
    this.settings = { ...DEFAULT_REPO_SETTINGS, ...opts.settings };
    this.timeScale = opts.timeScale ?? timeScale();
    // Pasted files live on the web server's host, as on github.com (GITHUB_SERVER_URL's, not the API's).
    this.attachments = new FakeAttachments(
      () => this.serverUrl,
      this.timeScale,
      (login) => this.user(login).id,
    );
    this.latency = opts.latency;
    this.users.set(ACTIONS_BOT.login, ACTIONS_BOT);
    this.addUser(this.owner, { permission: 'admin' });
  }

  static async start(opts: FakeGitHubOptions): Promise<FakeGitHub> {
    const gh = new FakeGitHub(opts);
    gh.repo = await BareRepo.create(gh.repoDir, opts.files, opts.defaultBranch ?? 'main');
    gh.server = createServer((req, res) => void gh.handle(req, res));
    await new Promise<void>((resolve) => gh.server!.listen(0, '127.0.0.1', resolve));
    gh.url = `http://127.0.0.1:${(gh.server.address() as AddressInfo).port}`;
    gh.logServer = createServer((req, res) => gh.serveLog(req, res));
    await new Promise<void>((resolve) => gh.logServer!.listen(0, '127.0.0.1', resolve));
    gh.logHost = `http://127.0.0.1:${(gh.logServer.address() as AddressInfo).port}`;
    await gh.attachments.start();
    gh.serialize = new Serializer(
      gh.url,
      gh.url,
      gh.owner,
      gh.repoName,
      gh.repoId,
      (login) => gh.user(login),
      (login) => gh.users.get(login),
    );
    return gh;
  }

  async close(): Promise<void> {
    await this.attachments.close();
    await new Promise<void>((resolve) => {
      if (!this.logServer) return resolve();
      this.logServer.closeAllConnections();
      this.logServer.close(() => resolve());
    });
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
    this.repo?.close();
  }

  get repoDir(): string {
    return `${this.opts.root}/${this.owner}/${this.repoName}.git`;
  }

  get cloneUrl(): string {
    return `${this.url}/${this.owner}/${this.repoName}.git`;
  }

  get defaultBranch(): string {
    return this.repo.defaultBranch;
  }

  // ---- people and tokens ----------------------------------------------------------

  addUser(login: string, opts: { type?: 'User' | 'Bot'; permission?: Permission; name?: string } = {}): FakeUser {
    const user: FakeUser = { login, id: ++this.ids.user, type: opts.type ?? 'User', name: opts.name ?? null };
    this.users.set(login, user);
    this.permissions.set(login, opts.permission ?? 'read');
    return user;
  }

  user(login: string): FakeUser {
    const u = this.users.get(login);
    if (!u) throw new Error(`fake GitHub: unknown user ${login}`);
    return u;
  }

  permissionOf(login: string): Permission {
    return this.permissions.get(login) ?? 'none';
  }

  /** A personal token acting as `login`. */
  userToken(login: string): string {
    this.user(login);
    const token = `ghp_${randomBytes(18).toString('hex')}`;
    this.issuedTokens.push(token);
    this.tokens.set(token, { kind: 'user', login });
    return token;
  }

  /**
   * A workflow job's GITHUB_TOKEN, limited to the job's `permissions:`. With a tag, every request
   * made with it is recorded as that job's (and the tag's step at the time).
   */
  actionsToken(scopes: Scopes, runId?: number, tag?: JobTag): string {
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    this.issuedTokens.push(token);
    this.tokens.set(token, { kind: 'actions', login: ACTIONS_BOT.login, scopes: { metadata: 'read', ...scopes }, runId, ...(tag ? { tag } : {}) });
    return token;
  }

  appToken(appSlug: string, scopes: Scopes): string {
    const login = `${appSlug}[bot]`;
    if (!this.users.has(login)) this.addUser(login, { type: 'Bot', permission: 'write' });
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    this.issuedTokens.push(token);
    this.tokens.set(token, { kind: 'app', login, scopes: { metadata: 'read', ...scopes } });
    return token;
  }

  revokeToken(token: string): void {
    this.tokens.delete(token);
  }

  authorAssociation(login: string): string {
    if (login === this.owner) return 'OWNER';
    const p = this.permissionOf(login);
    return atLeast(p, 'triage') ? 'COLLABORATOR' : 'NONE';
  }

  // ---- ids, time and events ---------------------------------------------------------

  nextId(kind: keyof FakeGitHub['ids']): number {
    return ++this.ids[kind];
  }

  nextNumber(): number {
    return this.issues.size + 1;
  }

  now(): string {
    return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  onEvent(listener: (e: GitHubEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /**
   * Emits a webhook-style event. Events caused by a workflow's GITHUB_TOKEN start no
   * workflow runs on GitHub, except workflow_dispatch; the fake keeps that rule.
   */
  emit(principal: Principal, name: string, payload: Record<string, unknown>): void {
    if (principal.kind === 'actions' && name !== 'workflow_dispatch') return;
    for (const l of this.listeners) l({ name, payload, actor: principal.login });
  }

  /**
   * `owner` forks this repository, commits `files` on `branch` there and opens a pull request into
   * `base`. The fork is not served (only this repository is); its commit lives here under
   * `refs/pull/N/head`, as GitHub keeps a fork's pull request head in the base repository.
   */
  async openForkPull(o: { owner: string; branch: string; base: string; title: string; body: string; files: Record<string, string> }): Promise<FakePull> {
    const scratch = `fork-scratch/${randomBytes(4).toString('hex')}`;
    const sha = await this.repo.writeCommit({
      branch: scratch,
      files: o.files,
      message: `Work on ${o.branch}`,
      from: o.base,
      identity: { name: o.owner, email: `${o.owner}@users.noreply.github.com` },
    });
    const issue = createIssue(this, { kind: 'user', login: o.owner }, { title: o.title, body: o.body, isPull: true });
    await this.repo.setRef(`refs/pull/${issue.number}/head`, sha);
    await this.repo.deleteRef(`refs/heads/${scratch}`);
    const pull: FakePull = {
      number: issue.number,
      id: this.nextId('pull'),
      head: o.branch,
      base: o.base,
      draft: false,
      merged_at: null,
      merge_commit_sha: null,
      merged_by: null,
      frozenHeadSha: null,
      fork: { owner: o.owner, sha },
    };
    this.pulls.set(pull.number, pull);
    return pull;
  }

  labelRecord(name: string): FakeLabel {
    let l = this.labels.get(name.toLowerCase());
    if (!l) {
      l = { id: this.nextId('label'), name, color: 'ededed', description: null };
      this.labels.set(name.toLowerCase(), l);
    }
    return l;
  }

  /**
   * A workflow job's check run (GitHub Actions' app): created in progress (`conclusion: null`) or
   * completed at once (a skipped job), and completed later by passing the `id` it returned.
   * Suites from GitHub Actions fire no check_suite run (emit drops the workflow token's events).
   */
  recordJobCheckRun(c: { runId: number; headSha: string; name: string; conclusion: FakeCheckRun['conclusion']; id?: number }): number {
    const now = this.now();
    const existing = c.id === undefined ? undefined : this.checkRuns.find((r) => r.id === c.id);
    if (existing) {
      Object.assign(existing, { status: 'completed', conclusion: c.conclusion, completed_at: now });
      return existing.id;
    }
    const id = this.nextId('check');
    this.checkRuns.push({
      id,
      head_sha: c.headSha,
      name: c.name,
      status: c.conclusion ? 'completed' : 'in_progress',
      conclusion: c.conclusion,
      started_at: now,
      completed_at: c.conclusion ? now : null,
      app: ACTIONS_BOT.login,
      details_url: `${this.serialize.repoWeb}/actions/runs/${c.runId}/job/${id}`,
    });
    return id;
  }

  /** The workflow runner reports its runs here, as GitHub's own records of them. */
  recordWorkflowRun(update: Partial<FakeWorkflowRun> & { id: number }): void {
    const now = this.now();
    const prev = this.workflowRuns.get(update.id);
    this.workflowRuns.set(update.id, {
      runNumber: 1,
      name: 'crew',
      path: '',
      event: '',
      actor: this.owner,
      headSha: '',
      headBranch: this.defaultBranch,
      status: 'queued',
      conclusion: null,
      createdAt: now,
      ...prev,
      ...update,
      updatedAt: now,
    } as FakeWorkflowRun);
  }

  /** The workflow runner reports each job as it ends: its steps and its log, as GitHub keeps them. */
  recordWorkflowJob(job: FakeWorkflowJob): void {
    this.workflowJobs.set(job.id, job);
  }

  /**
   * A short-lived link to a job's log on the log host. GitHub: "Gets a redirect URL to download a
   * plain text file of logs for a workflow job. This link expires after 1 minute." (REST docs,
   * "Download job logs for a workflow run"). The minute is time-scaled.
   */
  jobLogLink(jobId: number): string {
    const sig = randomBytes(12).toString('hex');
    this.logLinks.set(sig, { jobId, expires: Date.now() + scaledMs(60_000, this.timeScale) });
    return `${this.logHost}/job-logs/${jobId}?sig=${sig}`;
  }

  /**
   * The log host. It knows nothing of GitHub's tokens: the link's signature is the only credential,
   * and a request that also carries an Authorization header is refused, as storage that
   * authenticates by signed URL refuses a second scheme, so a client that forwards crew's token
   * across the redirect fails here instead of passing unnoticed.
   */
  private serveLog(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.logHost);
    const jobId = Number(/^\/job-logs\/(\d+)$/.exec(url.pathname)?.[1] ?? NaN);
    const link = this.logLinks.get(url.searchParams.get('sig') ?? '');
    const authorization = req.headers.authorization !== undefined;
    const answer = (status: number, body: string, type = 'application/xml') => {
      this.logDownloads.push({ jobId, status, authorization });
      res.statusCode = status;
      res.setHeader('content-type', type);
      res.end(body);
    };
    if (authorization) return answer(400, '<Error><Code>InvalidAuthenticationInfo</Code></Error>');
    if (!link || link.jobId !== jobId) return answer(403, '<Error><Code>AuthenticationFailed</Code></Error>');
    if (Date.now() > link.expires) return answer(403, '<Error><Code>AuthenticationFailed</Code><Message>Signed expiry time has passed</Message></Error>');
    const job = this.workflowJobs.get(jobId);
    if (!job) return answer(404, '<Error><Code>BlobNotFound</Code></Error>');
    answer(200, job.log, 'text/plain; charset=utf-8');
  }

  /**
   * GitHub Actions sends `workflow_run` when a run completes, for every workflow. It is not an event a
   * token caused, so the GITHUB_TOKEN rule of `emit` does not drop it; GitHub stops chains of it
   * after three levels (docs: "Events that trigger workflows", workflow_run), which the runner's
   * `workflows:` filter keeps crew's own workflow out of in the first place.
   */
  async workflowRunCompleted(id: number): Promise<void> {
    const run = this.workflowRuns.get(id);
    if (!run || run.status !== 'completed') return;
    const example = webhookExample('workflow_run.completed') as Record<string, unknown> & { workflow: Record<string, unknown> };
    delete example.installation;
    delete example.organization;
    const pulls = [];
    for (const p of this.pulls.values()) {
      // Only pull requests from this repository are listed (a fork's head is not a branch here).
      if (p.fork || p.head !== run.headBranch || this.issues.get(p.number)?.state !== 'open') continue;
      pulls.push({
        url: `${this.serialize.repoApi}/pulls/${p.number}`,
        id: p.id,
        number: p.number,
        head: { ref: p.head, sha: run.headSha, repo: { id: this.repoId, url: this.serialize.repoApi, name: this.repoName } },
        base: { ref: p.base, sha: (await this.repo.branchSha(p.base)) ?? '', repo: { id: this.repoId, url: this.serialize.repoApi, name: this.repoName } },
      });
    }
    const serialized = await serializeWorkflowRun(this, run);
    const payload = {
      ...example,
      action: 'completed',
      workflow: { ...example.workflow, id: 1, name: run.name, path: run.path, url: `${this.serialize.repoApi}/actions/workflows/1` },
      workflow_run: { ...(example.workflow_run as Record<string, unknown>), ...serialized, pull_requests: pulls },
      repository: this.serialize.repository(this.settings, this.defaultBranch, this.createdAt),
      sender: this.serialize.user(run.actor),
    };
    for (const l of this.listeners) l({ name: 'workflow_run', payload, actor: run.actor });
  }

  /**
   * Holds back the next request to `route` (whose body matches `body`, when given) until `until()`
   * holds, unanswered, as a slow link would: a test's way to let other jobs act at a chosen point of
   * one job's work (e.g. CI completing while crew writes its report). It is not a fault: the request
   * is then served as usual. A condition that still fails after `timeoutMs` (real time) is a violation.
   */
  holdRequest(h: { route: string; body?: RegExp; until: () => boolean; timeoutMs: number; what: string }): void {
    this.holds.push({ ...h, taken: false });
  }

  /** Holds still waiting for a request, or for their condition. */
  get pendingHolds(): string[] {
    return this.holds.filter((h) => !h.released).map((h) => h.what);
  }

  private async held(key: string, raw: string): Promise<void> {
    const hold = this.holds.find((h) => !h.taken && h.route === key && (!h.body || h.body.test(raw)));
    if (!hold) return;
    hold.taken = true;
    // Real time: what it waits for is jobs, whose process starts and git no time scale shrinks.
    const deadline = Date.now() + hold.timeoutMs;
    while (!hold.until()) {
      if (Date.now() > deadline) {
        this.violations.push(`held ${key} (${hold.what}) for ${hold.timeoutMs} ms and its condition never held; served it anyway`);
        break;
      }
      await sleep(20);
    }
    hold.released = true;
  }

  addFaults(...faults: GitHubFault[]): void {
    this.faults.push(...faults.map((f) => ({ times: 1, ...f })));
  }

  // ---- HTTP ------------------------------------------------------------------------------

  private principalFor(req: IncomingMessage): Principal | undefined {
    const auth = req.headers.authorization;
    if (!auth) return undefined;
    const [scheme, value = ''] = auth.split(/\s+/, 2);
    let token = value;
    if (scheme?.toLowerCase() === 'basic') token = Buffer.from(value, 'base64').toString('utf8').split(':').slice(1).join(':');
    return this.tokens.get(token);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    try {
      const gitRoute = matchGitRoute(url.pathname, url.searchParams);
      const kind = gitRoute ? 'git' : url.pathname === '/graphql' ? 'graphql' : 'rest';
      const delay = scaledMs(this.latency?.[`${kind}Ms`] ?? 0, this.timeScale);
      if (delay) {
        this.delays[kind]++;
        this.delays.ms += delay;
        await sleep(delay);
      }
      if (gitRoute) return await this.handleGit(req, res, url, gitRoute);
      if (FakeAttachments.matches(url.pathname))
        // A public repository's file for anyone; a private one's for no API client, token or not.
        return this.attachments.serveAsset(res, url.pathname, req.headers.authorization !== undefined, (f) =>
          f.elsewhere ? f.elsewhere.public : !this.settings.private,
        );
      if (url.pathname === '/graphql') return await this.handleGraphql(req, res);
      await this.handleApi(req, res, url);
    } catch (e) {
      const message = e instanceof Error ? (e.stack ?? e.message) : String(e);
      this.violations.push(`fake GitHub crashed on ${req.method} ${url.pathname}: ${message}`);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end(JSON.stringify({ message: 'fake GitHub internal error' }));
      }
    }
  }

  private async handleGit(req: IncomingMessage, res: ServerResponse, url: URL, route: NonNullable<ReturnType<typeof matchGitRoute>>) {
    const principal = this.principalFor(req);
    const at = Date.now();
    const seq = ++this.seq;
    // The body is watched on its way to the backend, only to say what the request was for.
    const peek = gitRequestPeek(req, route);
    const record = (status: number) => {
      this.gitRequests.push({
        at,
        seq,
        service: route.service,
        phase: route.rest,
        login: principal?.login ?? null,
        status,
        ...peek.describe(),
        ...jobOf(principal),
      });
    };
    if (route.owner !== this.owner || route.repo !== this.repoName) {
      res.statusCode = 404;
      res.end('Repository not found.');
      return record(404);
    }
    const needed = route.service === 'receive-pack' ? 'write' : 'read';
    if (!principal) {
      // Git only sends credentials after a 401 challenge, like GitHub's private repos.
      res.statusCode = 401;
      res.setHeader('WWW-Authenticate', 'Basic realm="GitHub"');
      res.end();
      return record(401);
    }
    if (!this.allows(principal, 'contents', needed)) {
      res.statusCode = 403;
      res.end(`Permission to ${this.owner}/${this.repoName}.git denied to ${principal.login}.`);
      return record(403);
    }
    // A push by anyone but a workflow's GITHUB_TOKEN fires `push` (emit drops the token's own):
    // the post-receive hook lists the refs this push changed.
    const pushLog = route.rest === 'git-receive-pack' && principal.kind !== 'actions' ? join(dirname(this.repoDir), `push-${++this.seq}.txt`) : undefined;
    const status = await serveGit(req, res, {
      projectRoot: dirname(dirname(this.repoDir)),
      pathInfo: `/${this.owner}/${this.repoName}.git/${route.rest}`,
      query: url.search.replace(/^\?/, ''),
      remoteUser: principal.login,
      capabilities: this.gitCapabilities,
      advertisements: { gitDir: this.repoDir, answers: this.gitAdvertisements },
      onBackendRun: () => void this.gitBackendRuns++,
      peek: peek.onChunk,
      // Read by the repository's pre-receive hook (see bare-repo.ts).
      extraEnv: {
        FAKE_GITHUB_WORKFLOWS: principal.kind === 'actions' || (principal.kind === 'app' && principal.scopes.workflows !== 'write') ? 'deny' : 'allow',
        FAKE_GITHUB_RULESET: this.settings.ruleset_branch_prefixes.join(' '),
        FAKE_GITHUB_NO_DELETION: this.settings.ruleset_deletion_prefixes.join(' '),
        FAKE_GITHUB_PROTECTED: this.settings.protected_branches.join(' '),
        ...(pushLog ? { FAKE_GITHUB_PUSH_LOG: pushLog } : {}),
      },
      ...(pushLog
        ? {
            beforeEnd: () =>
              this.emitPushes(principal, pushLog).catch(
                (e: unknown) => void this.violations.push(`fake GitHub could not emit push events: ${e instanceof Error ? e.stack : String(e)}`),
              ),
          }
        : {}),
    });
    record(status);
  }

  /** One `push` event per ref a push changed, shaped after GitHub's webhook example. */
  private async emitPushes(principal: Principal, logFile: string): Promise<void> {
    const lines = await readFile(logFile, 'utf8').catch(() => '');
    await rm(logFile, { force: true });
    for (const line of lines.split('\n').filter(Boolean)) {
      const [before, after, ref] = line.split(' ') as [string, string, string];
      await this.emitPush(principal, before, after, ref);
    }
  }

  /** A person's push made outside git's HTTP (a scenario's commit written straight into the repository) fires `push` as one over git would. */
  async pushedBy(login: string, ref: string, before: string | null, after: string): Promise<void> {
    this.user(login);
    await this.emitPush({ kind: 'user', login }, before ?? '0'.repeat(40), after, ref);
  }

  /** One `push` event, shaped after GitHub's webhook example. */
  private async emitPush(principal: Principal, before: string, after: string, ref: string): Promise<void> {
    const zero = '0'.repeat(40);
    const example = webhookExample('push') as Record<string, unknown> & { head_commit: Record<string, unknown> };
    const who = { name: principal.login, email: `${principal.login}@users.noreply.github.com` };
    const head =
      after === zero
        ? null
        : {
            ...example.head_commit,
            id: after,
            url: `${this.serialize.repoWeb}/commit/${after}`,
            author: { ...who, username: principal.login },
            committer: { ...who, username: principal.login },
            added: [],
            removed: [],
            modified: [],
          };
    this.emit(principal, 'push', {
      ...example,
      ref,
      before,
      after,
      created: before === zero,
      deleted: after === zero,
      forced: before !== zero && after !== zero && !(await this.repo.isAncestor(before, after)),
      base_ref: null,
      compare: `${this.serialize.repoWeb}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
      commits: head ? [head] : [],
      head_commit: head,
      repository: this.serialize.repository(this.settings, this.defaultBranch, this.createdAt),
      pusher: who,
      sender: this.serialize.user(principal.login),
    });
  }

  /** Whether a principal may use a route; mirrors fine-grained GITHUB_TOKEN scopes and collaborator roles. */
  allows(principal: Principal, scope: keyof Scopes | Array<keyof Scopes>, access: Access, userAccess: Access = access): boolean {
    if (principal.kind === 'user') {
      if (userAccess === 'none') return true;
      const p = this.permissionOf(principal.login);
      if (userAccess === 'read') return atLeast(p, 'read') || !this.settings.private;
      if (userAccess === 'triage') return atLeast(p, 'triage');
      if (userAccess === 'admin') return atLeast(p, 'admin');
      return atLeast(p, 'write');
    }
    if (access === 'none') return true;
    const scopes = Array.isArray(scope) ? scope : [scope];
    return scopes.some((s) => {
      const granted = principal.scopes[s] ?? 'none';
      return access === 'read' ? granted === 'read' || granted === 'write' : granted === 'write';
    });
  }

  private async readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let buf = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') buf = gunzipSync(buf);
    return buf.toString('utf8');
  }

  /**
   * Who a rate limit counts against. Every workflow run's GITHUB_TOKEN shares one budget:
   * GitHub allows 1,000 requests an hour per repository, not per run.
   */
  private rateKey(principal: Principal | undefined): string {
    return principal ? (principal.kind === 'actions' ? 'actions' : principal.login) : 'anonymous';
  }

  /** The principal's primary rate-limit window: 1,000 an hour for a GITHUB_TOKEN, 5,000 for people. */
  rateWindow(principal: Principal | undefined, count = false): { limit: number; used: number; reset: number } {
    const key = this.rateKey(principal);
    const limit = principal?.kind === 'actions' ? 1000 : principal ? 5000 : 60;
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || now - w.start > scaledMs(HOUR_MS, this.timeScale)) {
      w = { start: now, used: 0 };
      this.windows.set(key, w);
    }
    if (count) w.used++;
    return { limit, used: w.used, reset: Math.ceil((w.start + scaledMs(HOUR_MS, this.timeScale)) / 1000) };
  }

  private rateHeaders(principal: Principal | undefined, count: boolean): Record<string, string> {
    const w = this.rateWindow(principal, count);
    return {
      'x-ratelimit-limit': String(w.limit),
      'x-ratelimit-remaining': String(Math.max(0, w.limit - w.used)),
      'x-ratelimit-reset': String(w.reset),
      'x-ratelimit-used': String(w.used),
      'x-ratelimit-resource': 'core',
    };
  }

  private takeFault(routeKey: string, afterEffect: boolean, principal: Principal): GitHubFault | undefined {
    const f = this.faults.find(
      (x) =>
        (x.route === routeKey || x.route === '*') && (x.times ?? 1) > 0 && !!x.afterEffect === afterEffect && (!x.principal || x.principal === principal.kind),
    );
    if (f) f.times = (f.times ?? 1) - 1;
    return f;
  }

  private faultResponse(f: GitHubFault, headers: Record<string, string>): RouteResponse {
    const h = { ...headers };
    if (f.retryAfterSeconds !== undefined) h['retry-after'] = String(f.retryAfterSeconds);
    if (f.kind === 'primary-rate-limit') {
      h['x-ratelimit-remaining'] = '0';
      if (f.resetInSeconds !== undefined) h['x-ratelimit-reset'] = String(Math.ceil(Date.now() / 1000 + f.resetInSeconds));
      return {
        status: f.status,
        headers: h,
        body: {
          message: f.message ?? 'API rate limit exceeded for installation.',
          documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
        },
      };
    }
    if (f.kind === 'secondary-rate-limit') {
      return {
        status: f.status,
        headers: h,
        body: {
          message: f.message ?? 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        },
      };
    }
    return { status: f.status, headers: h, body: { message: f.message ?? 'Server Error', documentation_url: 'https://docs.github.com/rest' } };
  }

  /**
   * GitHub's GraphQL endpoint: every query is parsed, validated against GitHub's published schema
   * and executed over the fake's state (graphql/serve.ts). A query GitHub would refuse, or one that
   * asks for a field the fake does not model, is a violation that fails the test.
   */
  private async handleGraphql(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await this.readBody(req);
    const principal = this.principalFor(req);
    const recorded: RecordedRequest = {
      seq: ++this.seq,
      method: req.method ?? 'POST',
      route: 'POST /graphql',
      path: '/graphql',
      status: 200,
      principal: principal?.kind ?? 'anonymous',
      login: principal?.login ?? null,
      write: false,
      at: Date.now(),
      ...jobOf(principal),
    };
    this.requests.push(recorded);
    const send = (status: number, body: unknown) => {
      recorded.status = status;
      res.statusCode = status;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/graphql' });
    if (!principal)
      return send(401, {
        message: 'This endpoint requires you to be authenticated.',
        documentation_url: 'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql',
      });
    const answer = await answerGraphql(this, principal, raw);
    this.violations.push(...answer.violations);
    send(answer.status, answer.body);
  }

  private async handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const raw = await this.readBody(req);
    const op = matchOperation(method, url.pathname);
    if (op) await this.held(op.key, raw);
    const principal = this.principalFor(req);
    const write = WRITE_METHODS.has(method);
    const recorded: RecordedRequest = {
      seq: ++this.seq,
      method,
      route: op?.key ?? `${method} ${url.pathname}`,
      path: url.pathname,
      status: 0,
      principal: principal?.kind ?? 'anonymous',
      login: principal?.login ?? null,
      write,
      at: Date.now(),
      ...jobOf(principal),
    };
    this.requests.push(recorded);
    const send = (r: RouteResponse, validate = true) => {
      recorded.status = r.status;
      if (validate && op) {
        for (const err of checkResponse(op.key, r.status, r.body ?? null)) this.violations.push(`response ${op.key} ${r.status}: ${err}`);
      }
      res.statusCode = r.status;
      res.setHeader('x-github-api-version-selected', '2022-11-28');
      res.setHeader('x-github-request-id', `FAKE:${recorded.seq}`);
      for (const [k, v] of Object.entries(r.headers ?? {})) res.setHeader(k, v);
      if (r.body === undefined || r.status === 204) {
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(r.body));
    };

    const route = op ? ROUTES[op.key] : undefined;
    if (!op || !route) {
      this.violations.push(`request to a route the fake does not serve: ${method} ${url.pathname}`);
      return send({ status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } }, false);
    }
    const isRateLimitRoute = op.key === 'GET /rate_limit';
    const headers = this.rateHeaders(principal, !isRateLimitRoute);
    const error = (e: HttpError) =>
      send({
        status: e.status,
        headers: { ...headers, ...e.headers },
        body: { message: e.message, documentation_url: `https://docs.github.com/rest`, ...e.extra },
      });

    const repoRoute = op.params.owner !== undefined;
    if (repoRoute && (op.params.owner !== this.owner || op.params.repo !== this.repoName)) return error(new HttpError(404, 'Not Found'));
    if (!principal) {
      // A token GitHub does not know is refused outright; a request with no token at all
      // cannot see a private repository, and GitHub answers 404 so as not to reveal it exists.
      if (req.headers.authorization) return error(new HttpError(401, 'Bad credentials'));
      if (repoRoute && this.settings.private) return error(new HttpError(404, 'Not Found'));
      return error(new HttpError(401, 'Requires authentication'));
    }
    if (repoRoute && principal.kind === 'user' && this.settings.private && this.permissionOf(principal.login) === 'none')
      return error(new HttpError(404, 'Not Found'));
    if (!this.allows(principal, route.scope, route.access, route.userAccess)) return error(new HttpError(403, 'Resource not accessible by integration'));
    if (!isRateLimitRoute && headers['x-ratelimit-remaining'] === '0' && Number(headers['x-ratelimit-used']) > Number(headers['x-ratelimit-limit'])) {
      const who = principal.kind === 'user' ? `user ID ${this.user(principal.login).id}` : 'installation';
      return send(
        this.faultResponse({ route: op.key, status: 403, kind: 'primary-rate-limit', message: `API rate limit exceeded for ${who}.` }, headers),
        false,
      );
    }

    const before = this.takeFault(op.key, false, principal);
    if (before) {
      if (before.kind === 'drop') {
        recorded.status = -1;
        req.socket.destroy();
        return;
      }
      return send(this.faultResponse(before, headers), false);
    }
    if (route.creates && this.overSecondaryLimit(principal)) {
      return send(this.faultResponse({ route: op.key, status: 403, kind: 'secondary-rate-limit', retryAfterSeconds: 60 }, headers), false);
    }

    let body: unknown = undefined;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return error(new HttpError(400, 'Problems parsing JSON'));
      }
    }
    const query: Record<string, string> = {};
    url.searchParams.forEach((v, k) => (query[k] = v));
    for (const err of validateRequest(op.key, { query, body, params: op.params })) this.violations.push(`request ${op.key}: ${err}`);

    let result: RouteResponse;
    try {
      result = await route.handle({ gh: this, principal, params: op.params, query: url.searchParams, body: body ?? {}, url });
    } catch (e) {
      if (e instanceof HttpError) return error(e);
      throw e;
    }
    const format = bodyFormat(req.headers.accept);
    if (format !== 'raw' && BODY_ROUTES.has(op.key) && result.status < 300)
      result = { ...result, body: withBodyFormat(result.body, format, (u) => this.renderedImage(u, principal)) };
    const after = this.takeFault(op.key, true, principal);
    if (after) {
      if (after.kind === 'drop') {
        recorded.status = -1;
        req.socket.destroy();
        return;
      }
      return send(this.faultResponse(after, headers), false);
    }
    send({ ...result, headers: { ...headers, ...result.headers } });
  }

  /**
   * An image's `src` in a body rendered for `principal` (media-types.ts): an attachment it may read
   * (this repository's, which it is reading; another's only when public or when it reads that one:
   * never the workflow's token) as a fresh signed URL, anything else as written.
   */
  private renderedImage(url: string, principal: Principal): string {
    const uuid = this.attachments.uuidOf(url);
    const elsewhere = uuid ? this.attachments.files.get(uuid)!.elsewhere : undefined;
    const reads = !elsewhere || elsewhere.public || (principal.kind !== 'actions' && elsewhere.readers.includes(principal.login));
    return uuid && reads ? this.attachments.sign(uuid) : url;
  }

  /** GitHub allows about 80 content-creating requests a minute per identity. */
  /** The clock of the secondary rate limit's windows; tests move it instead of waiting an hour. */
  limitClock: () => number = Date.now;

  /**
   * GitHub's secondary limits on content-creating requests: no more than 80 a minute and no more
   * than 500 an hour (docs: "Rate limits for the REST API", "About secondary rate limits").
   */
  private overSecondaryLimit(principal: Principal): boolean {
    const key = this.rateKey(principal);
    const now = this.limitClock();
    const lastHour = (this.creates.get(key) ?? []).filter((t) => now - t < scaledMs(HOUR_MS, this.timeScale));
    lastHour.push(now);
    this.creates.set(key, lastHour);
    const lastMinute = lastHour.filter((t) => now - t < scaledMs(60_000, this.timeScale)).length;
    return lastMinute > 80 || lastHour.length > 500;
  }

  // ---- conveniences for scenarios and tests ---------------------------------------------

  /** Counts of REST requests per route, with writes apart, for one kind of principal. */
  requestCounts(kind?: Principal['kind']): { total: number; writes: number; byRoute: Record<string, number> } {
    const rs = this.requests.filter((r) => !kind || r.principal === kind);
    const byRoute: Record<string, number> = {};
    for (const r of rs) byRoute[r.route] = (byRoute[r.route] ?? 0) + 1;
    return { total: rs.length, writes: rs.filter((r) => r.write).length, byRoute };
  }
}
