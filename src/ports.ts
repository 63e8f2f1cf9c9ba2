import type { ApprovingReview, CheckFact, MergeMethod } from './domain/merge-gate';
/**
 * The narrow interfaces between crew's logic and the outside world. Steps and agents
 * take these as arguments; adapters implement them for GitHub, git, the Anthropic API
 * and (later) the local terminal.
 */

import type { Usage } from './domain/run-state';

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
}

/** A wait GitHub's rate limit imposed on this job: when, for how long (unscaled seconds), and on what. */
export interface RateLimitWait {
  at: string;
  seconds: number;
  kind: 'primary' | 'secondary';
  request: string;
}

export interface Forge {
  readonly repo: { owner: string; name: string };
  /** The login crew's comments carry, used to recognise its own comments. */
  botLogin(): Promise<string>;
  defaultBranch(): Promise<string>;
  /** The collaborator-permission check (never `author_association`); asked at most once per login per job. */
  permissionOf(login: string): Promise<RepoPermission>;
  react(commentId: number, reaction: Reaction): Promise<void>;
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
  /** Check runs (latest per name) and commit statuses on a commit. */
  checksOn(sha: string): Promise<CheckFact[]>;
  /** Each reviewer's latest decisive review, where it approves, with the commit it approved (any head). */
  approvals(number: number): Promise<ApprovingReview[]>;
  mergeMethods(): Promise<{ merge: boolean; squash: boolean; rebase: boolean }>;
  /** Merges only if the head is still `sha`; GitHub's refusal (405, 409, …) comes back as data. */
  mergePull(number: number, sha: string, method: MergeMethod): Promise<{ merged: true; sha: string } | { merged: false; status: number; message: string }>;
  /** Starts another run of crew's own workflow. */
  dispatch(inputs: Record<string, string>): Promise<void>;
  /** Whether a workflow run is still going: a task claimed by a finished run has no worker. */
  workflowRunActive(runId: string): Promise<boolean | undefined>;
  /** Every wait GitHub's rate limits imposed on this job so far. */
  rateLimitWaits(): readonly RateLimitWait[];
  /** A link to the current job's log, for failure comments. */
  runLink(): string;
  /** A link to a file on a branch, for folded reports. */
  blobLink(branch: string, path: string): string;
  branchLink(branch: string): string;
  commentLink(issue: number, id: number): string;
}

// ---- Repo: git in the job's checkout ---------------------------------------------------

export interface CommitResult {
  sha: string;
  changedFiles: string[];
  empty: boolean;
}

export interface MergeResult {
  ok: boolean;
  conflicts: string[];
}

export interface Repo {
  readonly dir: string;
  /** Fetches branches from the remote; missing ones are reported, not fatal. */
  fetch(branches: string[]): Promise<{ missing: string[] }>;
  remoteSha(branch: string): Promise<string | undefined>;
  /** Points the working tree at a new local branch starting from `start`. */
  checkoutNew(branch: string, start: string): Promise<void>;
  merge(ref: string, message: string): Promise<MergeResult>;
  commitAll(message: string, opts?: { allowEmpty?: boolean }): Promise<CommitResult>;
  /** Pushes HEAD to a `crew/*` branch; refuses any other name. */
  push(branch: string): Promise<void>;
  head(): Promise<string>;
  listFiles(): Promise<string[]>;
  readFileAt(ref: string, path: string): Promise<string | undefined>;
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
  read(path: string): string | undefined;
  list(prefix: string): string[];
}

export interface StateStore {
  load(prefix: string): Promise<StateSnapshot>;
  /**
   * Applies `mutate` atomically: on a concurrent write it reloads and calls `mutate`
   * again, so `mutate` must be a pure function of what it reads. A mutation that
   * writes nothing commits nothing.
   */
  update<T>(prefix: string, message: string, mutate: (tx: StateTx) => T): Promise<{ value: T; snapshot: StateSnapshot }>;
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
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock;

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

/** The model's API refused a request for good (not worth retrying): what it said, for the failure comment. */
export class ModelError extends Error {
  constructor(
    message: string,
    /** Who failed to answer: "the Anthropic API", "Amazon Bedrock (us-east-1)", "Vertex AI (…)". */
    readonly service = 'the Anthropic API',
  ) {
    super(message);
  }
}

/** GitHub refused to let crew open a pull request with this token. */
export class PullRequestsNotAllowed extends Error {
  constructor() {
    super(
      'GitHub refused to let this workflow open a pull request. Turn on "Allow GitHub Actions to create and approve pull requests" under Settings → Actions → General, or give crew a GitHub App or personal token through the `github_token` input.',
    );
  }
}
