import type { ApprovingReview, CheckFact, MergeMethod } from './domain/merge-gate';
import type { BranchCommit, BranchTip } from './domain/retention';
import type { Read } from './domain/doctor';
import type { TextItem } from './domain/images';
/**
 * The narrow interfaces between crew's logic and the outside world, and the errors steps
 * recognise. Steps and agents take these as arguments; adapters (src/adapters/) implement them
 * for GitHub, git, the Anthropic API and local mode, and only the two entry points build
 * adapters: src/main.ts (the Action) and src/cli/main.ts (the `crew` command).
 */

import type { Usage } from './domain/run-state';
import type { Effort } from './domain/effort';
import type { AgentName } from './domain/trajectory';

// ---- Forge: issues, comments, pull requests, dispatches -------------------------------

export type RepoPermission = 'admin' | 'write' | 'read' | 'none';
export type Reaction = '+1' | '-1' | 'laugh' | 'confused' | 'heart' | 'hooray' | 'rocket' | 'eyes';

export interface CommentRef {
  id: number;
  url: string;
}

export interface CommentInfo {
  id: number;
  body: string;
  author: string;
  createdAt: string;
  updatedAt: string;
}

export interface PullRef {
  number: number;
  url: string;
  headSha: string;
}

export interface PullInfo {
  state: 'open' | 'closed';
  merged: boolean;
  headSha: string;
  headRef: string;
  /**
   * The head branch lives in another repository (a fork; also when that fork was deleted): told
   * apart by the API's head repository, never by the branch's name.
   */
  fromFork: boolean;
  /** The head repository's `owner/name`, or null when it was deleted. */
  headRepo: string | null;
  /** The branch the pull request goes into. */
  baseRef: string;
  /** Who merged it, and its merge commit; null while it is not merged (and where the forge does not say). */
  mergedBy?: { login: string; sha: string } | null;
}

/** One comment of a review thread on a pull request's diff, as GitHub has it (untrusted text). */
export interface ReviewComment {
  id: number;
  author: { login: string; type: string };
  body: string;
  path: string;
  /** The line on the diff's new side; null when the comment is outdated (its line is gone). */
  line: number | null;
  diffHunk: string;
  createdAt: string;
}

/** A review thread: its first comment (the one replies name), the replies in order, and whether a person resolved it. */
export interface ReviewThread {
  rootId: number;
  resolved: boolean;
  comments: ReviewComment[];
}

/** A failed job of a CI workflow run, as the Actions API describes it. */
export interface FailedJob {
  id: number;
  name: string;
  /** The job's page. */
  url: string;
  /** The first step that failed, when GitHub names one. */
  step: string | null;
}

/** A wait GitHub's rate limit imposed on this job: when, for how long (unscaled seconds), and on what. */
export interface RateLimitWait {
  at: string;
  seconds: number;
  kind: 'primary' | 'secondary';
  request: string;
}

/**
 * What only GitHub's forge does: reactions, review threads, a head's checks and approvals, merging, the
 * legs of earlier dispatches, a CI run's failed jobs and their logs. Optional on the Forge, as
 * CrewBranches is on the context: local mode has none of it, and each caller says what its absence means.
 */
export interface ForgeOnGitHub {
  react(commentId: number, reaction: Reaction): Promise<void>;
  /** Every review thread of a pull request, with whether it is resolved (REST lists the comments; only GraphQL says resolved). */
  reviewThreads(number: number): Promise<ReviewThread[]>;
  /** A reply in a review thread, to its first comment (GitHub refuses replies to replies). */
  replyInThread(number: number, rootId: number, body: string): Promise<void>;
  /** Check runs (latest per name) and commit statuses on a commit. */
  checksOn(sha: string): Promise<CheckFact[]>;
  /** Each reviewer's latest decisive review, where it approves, with the commit it approved (any head). */
  approvals(number: number): Promise<ApprovingReview[]>;
  mergeMethods(): Promise<{ merge: boolean; squash: boolean; rebase: boolean }>;
  /**
   * Whether GitHub deletes a pull request's head branch once it is merged (the repository's
   * "Automatically delete head branches", `delete_branch_on_merge`).
   */
  deletesHeadOnMerge(): Promise<boolean>;
  /** Merges only if the head is still `sha`; GitHub's refusal (405, 409, …) comes back as data. */
  mergePull(number: number, sha: string, method: MergeMethod): Promise<{ merged: true; sha: string } | { merged: false; status: number; message: string }>;
  /**
   * The workflow runs of crew's dispatches created since `since` and before run `runId` (a lower id)
   * with a `work (<task>)` job still going. A leg of a dispatch repeated with the same nonce (a retry
   * of a dispatch whose answer was lost) finds the first one's run here, and waits for it.
   */
  earlierWorkLegs(task: string, since: string, runId: string): Promise<string[]>;
  /** The failed jobs of a workflow run (at most `limit`, first failed first). Needs `actions: read`. */
  failedJobs(runId: number, limit: number): Promise<FailedJob[]>;
  /** A job's log as GitHub serves it (its end when it is long), or null when GitHub has none to give. Needs `actions: read`. */
  jobLog(jobId: number): Promise<string | null>;
}

/** Issues, comments, labels, pull requests and dispatches: what every forge does (GitHub, and local mode's at the terminal); ForgeOnGitHub's part where there is one. */
export interface Forge extends Partial<ForgeOnGitHub> {
  readonly repo: { owner: string; name: string };
  /** The login crew's comments carry, used to recognise its own comments. */
  botLogin(): Promise<string>;
  defaultBranch(): Promise<string>;
  /** The collaborator-permission check (never `author_association`); asked at most once per login per job. */
  permissionOf(login: string): Promise<RepoPermission>;
  /**
   * Posts a comment exactly once: it carries a hidden idempotency key, and after an
   * ambiguous failure (5xx, a dropped connection) crew looks for the key among its own
   * recent comments before posting again.
   */
  postComment(issue: number, body: string): Promise<CommentRef>;
  updateComment(id: number, body: string): Promise<void>;
  getComment(id: number): Promise<CommentInfo>;
  addLabel(issue: number, label: string): Promise<void>;
  /** Removes a label; a label that is not there is not an error. */
  removeLabel(issue: number, label: string): Promise<void>;
  /** Finds a comment carrying `marker` that `author` wrote, reading every page. */
  findComment(issue: number, marker: string, author: string): Promise<CommentRef | undefined>;
  findOpenPull(head: string, base: string): Promise<PullRef | undefined>;
  createPull(input: { title: string; body: string; head: string; base: string }): Promise<PullRef>;
  updatePull(number: number, input: { title?: string; body?: string }): Promise<void>;
  getPull(number: number): Promise<PullInfo>;
  /** Starts another run of crew's own workflow. */
  dispatch(inputs: Record<string, string>): Promise<void>;
  /** Whether a workflow run is still going: a task claimed by a finished run has no worker. */
  workflowRunActive(runId: string): Promise<boolean | undefined>;
  /**
   * The tasks whose `work` legs started in workflow run `runId` (the shipped workflow names a leg
   * `work (<task>)`). A dispatched run's claims stay `dispatch:<nonce>` while its legs work, so this
   * is how its advance job tells a leg that was lost from one that never started.
   */
  workLegsStarted(runId: string): Promise<string[]>;
  /**
   * The tasks with a `work` leg still going in a run of crew's dispatches created since `since`
   * (ISO time), whichever issue's: how `/crew resume` leaves a dispatched task to a worker that may
   * still hold it. Task ids repeat across issues, so a match may be another issue's task.
   */
  workLegsRunning(since: string): Promise<string[]>;
  /**
   * An image the issue shows (#36): its bytes, at most `maxBytes` of them (one more means too big).
   * `from` are the texts that show it: GitHub serves a private repository's upload only through the
   * signed URLs of those texts as it renders them (#47). No request for the file carries crew's
   * token. Rejects with a reason a person can read (`AttachmentRefused`).
   */
  attachment(url: string, maxBytes: number, from?: readonly TextItem[]): Promise<Uint8Array>;
  /** Every wait GitHub's rate limits imposed on this job so far. */
  rateLimitWaits(): readonly RateLimitWait[];
  /** A link to the current job's log, for failure comments. */
  runLink(): string;
  /**
   * The page of this workflow run's job called `name` ("work (t1)", "critic") that is still going:
   * a job's own log. Null when GitHub lists none (a renamed job; a token without `actions: read`).
   */
  jobLink?(name: string): Promise<string | null>;
  /** A link to a file on a branch, for folded reports. */
  blobLink(branch: string, path: string): string;
  branchLink(branch: string): string;
  commentLink(issue: number, id: number): string;
}

// ---- Repo: the job's working copy, and the remote it fetches from and pushes to ----------

export interface CommitResult {
  sha: string;
  changedFiles: string[];
  empty: boolean;
}

export interface MergeResult {
  ok: boolean;
  conflicts: string[];
}

/** The change between two commits, read as committed; over the size limit the text is cut and `truncated` says so. */
export interface UnifiedDiff {
  text: string;
  truncated: boolean;
  /** The whole diff's size in bytes, cut or not. */
  bytes: number;
}

/**
 * The job's working copy: what is checked out, and the commits, merges and diffs made in it.
 * Revisions are commit shas, or what `Remote.tracking` names for a fetched branch.
 */
export interface WorkingCopy {
  readonly dir: string;
  head(): Promise<string>;
  /** Points the working tree at `start` for work on `branch` (which moves only when crew pushes it). */
  checkoutNew(branch: string, start: string): Promise<void>;
  /** Points the working tree at a commit with no branch: for looking, never for pushing. */
  checkoutDetached(start: string): Promise<void>;
  /** Merges `rev` into HEAD; a conflict leaves the working tree as it was. */
  merge(rev: string, message: string): Promise<MergeResult>;
  /** Like merge, but a conflict is left in the working tree for a resolver; the conflicted files are listed. */
  mergeKeepingConflicts(rev: string, message: string): Promise<MergeResult>;
  abortMerge(): Promise<void>;
  /** Concludes a merge whose conflicts were resolved in the working tree; returns the new head. */
  commitMerge(message: string): Promise<string>;
  /** Commits every change in the working tree; with nothing changed, no commit unless `allowEmpty`. */
  commitAll(message: string, opts?: { allowEmpty?: boolean }): Promise<CommitResult>;
  /**
   * Undoes what the working tree changed since HEAD on the paths `select` picks: a tracked
   * file gets its HEAD content back, a new one is removed. Returns the paths it undid.
   */
  restorePaths(select: (path: string) => boolean): Promise<string[]>;
  /** Keeps files that exist now but are not tracked (setup output such as node_modules) out of every later commit. */
  excludeUntracked(): Promise<string[]>;
  /** Files that differ between `from` and the working tree, new files included. */
  changedSince(from: string): Promise<string[]>;
  /** `git diff --stat` of the working tree (staged, untracked files included) against `from`: what an attempt has changed so far. */
  workingDiffStat(from: string): Promise<string>;
  /** Files that differ between two commits. */
  diffFiles(from: string, to?: string): Promise<string[]>;
  /**
   * The change between two commits as a zero-context unified diff, read the way the commits hold
   * it (the tree's attributes decide nothing, no configured program runs), cut at `maxBytes`.
   */
  unifiedDiff(from: string, to?: string, maxBytes?: number): Promise<UnifiedDiff>;
  /** A short per-file summary of the change between two commits, for people. */
  diffStat(from: string, to?: string): Promise<string>;
  commitMessage(rev: string): Promise<string>;
  isAncestor(ancestor: string, descendant: string): Promise<boolean>;
  listFiles(): Promise<string[]>;
  readFileAt(rev: string, path: string): Promise<string | undefined>;
  /** The text files among `paths` as committed at `rev`, those of at most `maxBytes`; binary and missing files are left out. */
  readFilesAt(rev: string, paths: string[], maxBytes: number): Promise<Map<string, string>>;
  /**
   * Writes the files commit `rev` tracks into the empty folder `dir` (no .git, nothing untracked or
   * ignored), readable by everyone and writable by crew's own user only.
   */
  exportCommit(rev: string, dir: string): Promise<void>;
  /**
   * A checkout of commit `rev` of its own in the empty folder `dir` (#46): a repository with HEAD
   * detached at it that borrows this one's objects and holds nothing else of it (no config, remote,
   * credentials, hooks, ignored or untracked files). No program from any configuration runs.
   */
  checkoutCopy(rev: string, dir: string): Promise<void>;
}

/**
 * Where branches live between jobs (GitHub, or the person's own repository in local mode), as
 * seen from the job's working copy: what is there, bringing it in, and crew's pushes.
 */
export interface Remote {
  /** The revision the working copy knows a fetched branch by. */
  tracking(branch: string): string;
  /** The commit `branch` points at on the remote; undefined when there is no such branch. */
  head(branch: string): Promise<string | undefined>;
  /**
   * `head(branch)` will be asked soon: GitHub's next answer about crew/state lists it too, in the
   * same round trip (#31 §4). Optional: a remote without that listing just asks when head() does.
   */
  expectHead?(branch: string): void;
  /** Fetches branches from the remote; missing ones are reported, not fatal. */
  fetch(branches: string[]): Promise<{ missing: string[] }>;
  /** Makes a commit known to the working copy (a shallow checkout may predate it). */
  fetchCommit(sha: string): Promise<void>;
  /**
   * Pushes the working copy's HEAD to a `crew/*` branch (any other name is refused), never by
   * force: if another job pushed first, crew's commits go on top of it or the push fails.
   */
  push(branch: string): Promise<void>;
  /** Replaces a crew branch only if it still points at `expectedSha` (a compare-and-swap). */
  pushReplacing(branch: string, expectedSha: string): Promise<void>;
}

// ---- crew's branches on GitHub, for cleaning up after runs ------------------------------

/** What became of one branch crew asked GitHub to delete. */
export type BranchDeletion =
  | { branch: string; outcome: 'deleted' }
  /** It was gone already (someone deleted it, or GitHub's "Automatically delete head branches" did). */
  | { branch: string; outcome: 'gone' }
  /** It no longer pointed at the commit crew looked at (someone pushed): nothing was deleted. */
  | { branch: string; outcome: 'moved'; sha: string }
  /** GitHub refused (a ruleset or branch protection, or the token's permissions): why, and what to change. */
  | { branch: string; outcome: 'refused'; reason: string };

/**
 * What `crew doctor` reads of a repository on GitHub: settings a job's token may not see (then a Read
 * with the status, never a throw), the rules a branch name would meet, and files on the default branch.
 */
export interface RepositorySettings {
  repository(): Promise<{ fullName: string; webUrl: string; defaultBranch: string }>;
  actionsPermissions(): Promise<Read<{ enabled: boolean }>>;
  workflowPermissions(): Promise<Read<{ defaultPermissions: 'read' | 'write'; canCreatePullRequests: boolean }>>;
  /** The types of the active rules a branch of this name would meet (it need not exist). */
  branchRules(branch: string): Promise<Read<string[]>>;
  /**
   * Classic protection on an existing branch: 'absent' when there is no such branch, 'unreadable' when
   * GitHub calls it protected but this token may not read the rule (it may be a ruleset's).
   */
  branchProtected(branch: string): Promise<Read<boolean | 'absent' | 'unreadable'>>;
  /** A file on the default branch; null when there is none. */
  defaultBranchFile(path: string): Promise<Read<string | null>>;
  /** Whether the repository has an Actions secret of this name (never its value). */
  secretExists(name: string): Promise<Read<boolean>>;
}

/**
 * crew's branches on GitHub, as cleaning up after runs needs them (GitHub only: a local run's
 * branches live in the person's repository and stay there).
 */
export interface CrewBranches {
  /**
   * Every branch under `crew/` with the commit it points at, in one listing; with `folders`, only
   * the branches of those runs (`crew/N/rK/`).
   */
  list(folders?: readonly string[]): Promise<BranchTip[]>;
  /**
   * The branches of those runs' folders as this job's state reads already listed them, however long
   * ago (no request); undefined when a folder was not listed. Only for runs that have ended, whose
   * branches crew no longer creates, and only for deletions leased to the commits listed.
   */
  listed(folders: readonly string[]): BranchTip[] | undefined;
  /**
   * The commits `sha` has that the branch `base` has not, with who made each, oldest first; `complete`
   * is false when there were more than crew reads (it then treats the branch as not only its own).
   * Undefined when GitHub knows no such branch (a person's branch a run was based on, deleted since).
   */
  commitsBeyond(base: string, sha: string): Promise<{ commits: BranchCommit[]; complete: boolean } | undefined>;
  /**
   * Deletes each branch only if it still points at the given commit (a compare-and-swap, never a blind
   * delete), all in one request; says per branch what happened. Never throws for a refusal.
   */
  delete(tips: readonly BranchTip[]): Promise<BranchDeletion[]>;
}

// ---- State: the crew/state branch -----------------------------------------------------

export interface StateTx {
  read(path: string): string | undefined;
  write(path: string, content: string): void;
  remove(path: string): void;
  list(prefix: string): string[];
}

export interface StateSnapshot {
  /** An opaque version (a commit sha for git, a counter locally). */
  version: string;
  /**
   * When the remote last said this version was its tip (performance.now()), where the store has a
   * remote: a read answered from a tip seen earlier carries that earlier time. Undefined locally.
   */
  confirmedAt?: number;
  read(path: string): string | undefined;
  list(prefix: string): string[];
}

/**
 * How recent a state read must be. By default a read asks the remote for the tip first (one round
 * trip on GitHub). `seenWithinMs` lets the store answer from the tip it last read or wrote itself,
 * when it saw that tip no longer ago than this (real milliseconds; Infinity: whenever it has one).
 * For reads whose staleness costs nothing: a write is a compare-and-swap whatever it started from.
 */
export interface Freshness {
  seenWithinMs?: number;
  /**
   * The caller needs no listing of the run's branches from this read (BranchTips): a store that holds
   * no tip yet then fetches the state by name, one round trip fewer than a listing and a fetch by id.
   */
  withoutBranches?: boolean;
}

/**
 * A read any tip this job saw will do: for reads whose answer only shapes what the job does next,
 * where a write acting on it is a compare-and-swap anyway, or a fresh read follows. A job's first
 * read asks GitHub whatever it passes, since it has seen no tip yet.
 */
export const SEEN: Freshness = { seenWithinMs: Infinity };

/**
 * A state write's options: how fresh a tip its first try may start from, and a branch to carry.
 * `carry` pushes a commit of the job's checkout to `branch` in the same push as the write's own
 * commit, atomically (both land, or neither): one round trip for a task's work and its record.
 * Only where the store `carriesBranches`; if another push moved `branch` first, nothing lands and
 * the write throws BranchMoved, so the caller pushes the branch its own way and writes again.
 */
export interface WriteOptions extends Freshness {
  carry?: { branch: string; sha: string };
  /**
   * crew branches to delete in the same atomic push as the write, each leased to the commit crew
   * looked at (#31 §4): all of them and the write land, or nothing does. Only where the store
   * `deletesBranches`; a lease that failed or any refusal of a deletion throws DeletionsRefused, so
   * the caller deletes them its own way (which tells each branch's outcome apart) and writes again.
   */
  deleting?: ReadonlyArray<{ branch: string; sha: string }>;
}

/** A deletion carried by a state write (WriteOptions.deleting) was refused: neither the deletions nor the write landed. */
export class DeletionsRefused extends Error {
  constructor(readonly reason: string) {
    super(`GitHub refused deleting crew's branches in the state write's push (${reason}); nothing was pushed`);
  }
}

/** A carried branch (WriteOptions) had moved on the remote: neither it nor the state write landed. */
export class BranchMoved extends Error {
  constructor(readonly branch: string) {
    super(`${branch} moved on the remote before this job's push; nothing was pushed`);
  }
}

export interface StateStore {
  /** Whether update() can carry a branch (WriteOptions.carry). */
  readonly carriesBranches?: boolean;
  /** Whether update() can delete branches in its push (WriteOptions.deleting). */
  readonly deletesBranches?: boolean;
  load(prefix: string, fresh?: Freshness): Promise<StateSnapshot>;
  /**
   * Applies `mutate` atomically: on a concurrent write it reloads and calls `mutate`
   * again, so `mutate` must be a pure function of what it reads. A mutation that
   * writes nothing commits nothing. The first try starts from the tip the store last saw, when
   * other jobs were quiet the last time it asked (or from one no older than `fresh` allows): a
   * tip that moved since only makes the push lose, and the mutation is applied again on the new one.
   */
  update<T>(prefix: string, message: string, mutate: (tx: StateTx) => T, options?: WriteOptions): Promise<{ value: T; snapshot: StateSnapshot }>;
  /**
   * The files of every run on the store (`issue-<N>/run-<k>/…`) whose path `pick` accepts, read
   * once: what earlier runs of the repository cost, for an estimate. Nothing else is read.
   */
  loadRuns(pick: (path: string) => boolean, fresh?: Freshness): Promise<StateSnapshot>;
}

// ---- Model: the Anthropic Messages API -----------------------------------------------

export type TextBlock = { type: 'text'; text: string };
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
export type ToolResultBlock = { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };
/**
 * Thinking blocks come back from current models between tool calls; the API requires
 * them to be sent back unchanged with the tool_use they precede, so crew treats them as opaque.
 */
export type ThinkingBlock = { type: 'thinking' | 'redacted_thinking'; [field: string]: unknown };
/** An image the model sees (#36): only in the first user message, always checked first (domain/images.ts). */
export type ImageBlock = { type: 'image'; source: { type: 'base64'; media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; data: string } };
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock | ImageBlock;

export interface Message {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export interface ToolSpec {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  system: string;
  tools: ToolSpec[];
  messages: Message[];
  maxTokens: number;
  /** `output_config.effort`; absent, the model's own default (domain/effort.ts). */
  effort?: Effort;
  /** Aborts the request (and any wait before a retry): the job is being cancelled. */
  signal?: AbortSignal;
}

export interface ModelReply {
  content: Array<TextBlock | ToolUseBlock | ThinkingBlock>;
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded' | null;
  usage: Usage;
}

export interface Model {
  /** Rejects with `Interrupted` when `request.signal` aborts. */
  complete(request: ModelRequest): Promise<ModelReply>;
}

/** The job is being cancelled: what was in flight stopped, and nothing after it ran. */
export class Interrupted extends Error {
  constructor(what: string) {
    super(`${what} was interrupted: the workflow run is being cancelled`);
  }
}

// ---- Trajectories: what each agent run did ---------------------------------------------------

/** Facts a tool reports about its call beyond the text the model reads (run_command: the exit code). */
export interface ToolFacts {
  exitCode?: number | null;
  timedOut?: boolean;
}

/** Who an agent run is: the step names it when it starts the agent. */
export interface AgentRunMeta {
  agent: AgentName;
  model: string;
  task?: string;
  attempt?: number;
  /** The critic's iteration, the planner's round. */
  iteration?: number;
}

/**
 * The record of one agent run, fed by the tool loop as it goes (docs/trajectories.md). Never
 * throws: a recorder that fails costs the record, not the agent's work.
 */
export interface AgentTrajectory {
  /** One model reply, before its tools run. */
  reply(turn: number, r: { model: string; startedAt: number; durationMs: number; reply: ModelReply }): void;
  /** One tool call's result, as the model reads it. */
  toolResult(turn: number, r: { use: ToolUseBlock; content: string; isError: boolean; durationMs: number; facts?: ToolFacts }): void;
  /** The turn's tools have all run (or it ran none): the turn is complete. */
  turnDone(turn: number): void;
  /** Something crew did to the turn (results cut to fit, a reply cut off). */
  note(turn: number, text: string): void;
  /** Compaction's summarizer call after `afterTurn`: its cost belongs to this run. */
  compaction(afterTurn: number, c: { startedAt: number; durationMs: number; usage: Usage; summary: string }): void;
  /** The loop ended; called once. */
  end(o: { stop: string; error?: string }): void;
}

/** Where a job's agent runs are recorded: the job log, the step summary, artifacts (GitHub) or the run folder (local). */
export interface Trajectories {
  start(meta: AgentRunMeta): AgentTrajectory;
  /**
   * Publishes the agent runs that ended since the last call (an artifact on GitHub, files locally),
   * named by `label`; where a person finds them, or null when nothing was kept.
   */
  publish(label: string): Promise<string | null>;
}

// ---- Clock and log ------------------------------------------------------------------------

export interface Clock {
  now(): Date;
  /** Waits `ms` of platform time, scaled in tests by CREW_TIME_SCALE. */
  sleep(ms: number): Promise<void>;
}

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  /** A named point the test runner can kill a job at. */
  checkpoint(name: string): void;
}

/** An attachment crew could not fetch: why, in words for the plan comment. */
export class AttachmentRefused extends Error {
  constructor(
    message: string,
    /** The HTTP status that refused it, when a server did (a signed link that expired answers so). */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The model's API refused a request for good (not worth retrying): what it said, for the failure comment. */
export class ModelError extends Error {
  constructor(
    message: string,
    /** Who failed to answer: "the Anthropic API", "Amazon Bedrock (us-east-1)", "Vertex AI (…)". */
    readonly service = 'the Anthropic API',
    /**
     * Set when the service was overloaded or rate-limited past its retries (the limit it hit, e.g.
     * "overloaded (529 overloaded_error)"): the one failure that `fallback_provider` takes over from.
     */
    readonly limit?: string,
  ) {
    super(message);
  }
}

/** A job's model calls moved from the primary provider to `fallback_provider`: who, when, and why. */
export interface ModelFailover {
  at: string;
  /** The primary, as messages name it: "the Anthropic API", "Amazon Bedrock (us-east-1)". */
  from: string;
  /** The fallback, named the same way. */
  to: string;
  /** The limit the primary hit past its retries: "overloaded (529 overloaded_error)". */
  reason: string;
}

/** GitHub refused to let crew open a pull request with this token. */
export class PullRequestsNotAllowed extends Error {
  constructor() {
    super(
      'GitHub refused to let this workflow open a pull request. Turn on "Allow GitHub Actions to create and approve pull requests" under Settings → Actions → General, or give crew a GitHub App or personal token through the `github_token` input.',
    );
  }
}

// ---- Local mode: the `crew` command on the person's machine --------------------------------

/** What the local Forge tells the engine, and asks of it. */
export interface LocalForgeHooks {
  /** A comment crew (or the person) posted, or crew edited; the terminal shows what matters. */
  onComment?(comment: CommentInfo & { edited: boolean }): void;
  dispatch(inputs: Record<string, string>): void;
  workflowRunActive(runId: string): boolean;
  workLegsStarted(runId: string): string[];
  workLegsRunning(): string[];
}

/** The Forge at the terminal: the person's replies are comments too, so they are checked as on GitHub. */
export interface TerminalForge extends Forge {
  addPersonComment(issue: number, author: string, body: string): Promise<CommentInfo>;
}

/** The StateStore over `.crew/runs/`: one folder per run, and a word each time a run's state changes. */
export interface RunFolders extends StateStore {
  runDir(run: number): string;
  /** Calls `listener` after every write; returns a function that stops it. */
  onChange(listener: (run: number, snapshot: StateSnapshot) => void): () => void;
}

/** One job's working copy of the person's repository, with the branches crew "pushes" there. */
export interface JobCheckout {
  repo: WorkingCopy;
  remote: Remote;
  /** Removes the working copy; the branches it pushed stay. */
  dispose(): Promise<void>;
}

/** The adapters local mode's engine works through, built by the CLI's entry point over the person's repository. */
export interface LocalAdapters {
  readonly state: RunFolders;
  /** The Forge for one run, kept in `runDir`; its "default branch" is the run's base branch. */
  forge(runDir: string, baseBranch: string, hooks: LocalForgeHooks): TerminalForge;
  /** A fresh working copy for one job in `dir`, at `start`. */
  checkout(dir: string, start: string): Promise<JobCheckout>;
  /** A file as committed at `sha` in the person's repository. */
  fileAt(sha: string, path: string): Promise<string | undefined>;
}
