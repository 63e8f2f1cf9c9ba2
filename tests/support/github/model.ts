/** The fake GitHub's data: plain records, shaped after GitHub's own objects. */

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';
/** `workflows` exists only for GitHub Apps: a workflow's GITHUB_TOKEN can never have it. */
/**
 * `administration` and `secrets` are a GitHub App's or fine-grained token's permissions only: a workflow's
 * `permissions:` block has no such keys, so GITHUB_TOKEN never holds them (docs: "Permissions for the GITHUB_TOKEN").
 */
export type Scope = 'contents' | 'issues' | 'pull-requests' | 'actions' | 'checks' | 'statuses' | 'metadata' | 'workflows' | 'administration' | 'secrets';
/** `triage` and `admin` apply to people only: what a token's scopes grant is read or write. */
export type Access = 'read' | 'triage' | 'write' | 'admin' | 'none';
export type Scopes = Partial<Record<Scope, Access>>;

export interface FakeUser {
  login: string;
  id: number;
  type: 'User' | 'Bot';
  name: string | null;
}

/**
 * Which job a workflow's GITHUB_TOKEN belongs to, and the step that job is on. GitHub mints one
 * token per job, so every request made with it is that job's; the offline runner keeps `step`
 * current (a job's steps run one at a time), and the fake puts each request down to both.
 */
export interface JobTag {
  job: string;
  step?: string;
}

/** Who a token speaks for. `actions` is a workflow's GITHUB_TOKEN; `app` a GitHub App installation token. */
export type Principal =
  | { kind: 'user'; login: string }
  | { kind: 'actions'; login: string; scopes: Scopes; runId?: number; tag?: JobTag }
  | { kind: 'app'; login: string; scopes: Scopes };

export interface FakeLabel {
  id: number;
  name: string;
  color: string;
  description: string | null;
}

export interface FakeReaction {
  id: number;
  content: string;
  user: string;
  created_at: string;
}

export interface FakeIssue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  user: string;
  state: 'open' | 'closed';
  state_reason: 'completed' | 'not_planned' | 'reopened' | null;
  labels: string[];
  assignees: string[];
  locked: boolean;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  isPull: boolean;
  reactions: FakeReaction[];
}

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  user: string;
  created_at: string;
  updated_at: string;
  reactions: FakeReaction[];
}

export interface FakePull {
  number: number;
  id: number;
  head: string;
  base: string;
  draft: boolean;
  merged_at: string | null;
  merge_commit_sha: string | null;
  merged_by: string | null;
  /** The head sha when the PR was closed or merged; open PRs follow their branch. */
  frozenHeadSha: string | null;
  /** The base branch's sha when the PR was closed or merged, so its commit counts stay put. */
  frozenBaseSha?: string | null;
  /**
   * A pull request from a fork: the fork's owner and its head commit. As on GitHub, the fork's
   * commits are reachable in this repository only through `refs/pull/N/head`; `head` is the fork's branch.
   */
  fork?: { owner: string; sha: string };
}

/** A comment on a line of a pull request's diff (GitHub's "review comment"). */
export interface FakeReviewComment {
  id: number;
  pull: number;
  /** The review it belongs to: a single comment makes a review of its own, as on GitHub. */
  review: number;
  user: string;
  body: string;
  path: string;
  line: number;
  commit_id: string;
  created_at: string;
  updated_at: string;
  /** The diff hunk GitHub shows with the comment (the lines above and at `line`). */
  diff_hunk: string;
  /** A reply names the thread's first comment (GitHub's `in_reply_to_id`); the first comment has none. */
  in_reply_to?: number;
  /** Whether a person resolved the thread: kept on the thread's first comment (GitHub serves it over GraphQL only). */
  resolved?: boolean;
}

export interface FakeReview {
  id: number;
  pull: number;
  user: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';
  body: string;
  commit_id: string;
  submitted_at: string;
}

export interface FakeCheckRun {
  id: number;
  head_sha: string;
  name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required' | null;
  started_at: string;
  completed_at: string | null;
  app: string;
  /** A workflow job's check run links to the job (`…/actions/runs/<run>/job/<job>`), as GitHub Actions' do. */
  details_url?: string;
}

export interface FakeRelease {
  id: number;
  tag_name: string;
  target_commitish: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
  /** The login that created it. */
  author: string;
  created_at: string;
  published_at: string | null;
}

export interface FakeStatus {
  id: number;
  sha: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  context: string;
  description: string | null;
  target_url: string | null;
  creator: string;
  created_at: string;
  updated_at: string;
}

export interface RepoSettings {
  private: boolean;
  allow_merge_commit: boolean;
  allow_squash_merge: boolean;
  allow_rebase_merge: boolean;
  delete_branch_on_merge: boolean;
  /** "Allow GitHub Actions to create and approve pull requests" in the repository's Actions settings. */
  actions_can_create_pull_requests: boolean;
  /**
   * Branch-name prefixes (e.g. `crew/`) a repository ruleset closes to pushes, such as one that
   * requires signed commits: GitHub refuses such a push with GH013 (see bare-repo.ts).
   */
  ruleset_branch_prefixes: string[];
  /**
   * Branch-name prefixes a repository ruleset with the "Restrict deletions" rule covers: GitHub
   * refuses deleting such a branch, over git with GH013 ("Cannot delete this branch") and over REST
   * with 422 (see bare-repo.ts and DELETE git/refs).
   */
  ruleset_deletion_prefixes: string[];
  /** Settings → Actions → General, "Actions permissions": off means no workflow runs at all (GET actions/permissions `enabled`). */
  actions_enabled: boolean;
  /** "Workflow permissions": what GITHUB_TOKEN holds in a job that declares no `permissions:` (GitHub's default for new repositories is read). */
  default_workflow_permissions: 'read' | 'write';
  /**
   * Branches (exact names) under a classic branch protection rule that requires pull requests: GitHub refuses a
   * push of commits to them, and their deletion, with GH006 "Protected branch update failed" (see bare-repo.ts).
   */
  protected_branches: string[];
  /** The names of the repository's Actions secrets (GET actions/secrets/{name} never shows a value). */
  secrets: string[];
}

export const DEFAULT_REPO_SETTINGS: RepoSettings = {
  private: true,
  allow_merge_commit: true,
  allow_squash_merge: true,
  allow_rebase_merge: true,
  delete_branch_on_merge: false,
  actions_can_create_pull_requests: true,
  ruleset_branch_prefixes: [],
  ruleset_deletion_prefixes: [],
  actions_enabled: true,
  default_workflow_permissions: 'read',
  protected_branches: [],
  secrets: [],
};

const PERMISSION_RANK: Record<Permission, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

export function atLeast(p: Permission, needed: Permission): boolean {
  return PERMISSION_RANK[p] >= PERMISSION_RANK[needed];
}

/** What `GET …/collaborators/{u}/permission` reports: maintain reads as write, triage as read. */
export function legacyPermission(p: Permission): 'admin' | 'write' | 'read' | 'none' {
  if (p === 'admin') return 'admin';
  if (p === 'maintain' || p === 'write') return 'write';
  if (p === 'triage' || p === 'read') return 'read';
  return 'none';
}

export const ACTIONS_BOT: FakeUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot', name: null };

export interface FakeWorkflowRun {
  id: number;
  runNumber: number;
  /** The workflow's `name:` (its file path when it has none), as GitHub names runs and `workflow_run` filters them. */
  name: string;
  path: string;
  event: string;
  actor: string;
  headSha: string;
  headBranch: string;
  /** A fork's owner, when the run is for that fork's pull request: its head repository is the fork. */
  headOwner?: string;
  status: 'queued' | 'in_progress' | 'completed';
  /** `startup_failure`: GitHub refused the run before any job (an invalid call of a reusable workflow, e.g. its permissions). */
  conclusion: 'success' | 'failure' | 'cancelled' | 'startup_failure' | null;
  /** GitHub's run_attempt: 1, and one more for each re-run (which keeps the run's id). */
  runAttempt?: number;
  createdAt: string;
  updatedAt: string;
}

/** One job of a workflow run (a matrix leg is a job of its own): its id is its check run's, as on GitHub. */
export interface FakeWorkflowJob {
  id: number;
  runId: number;
  /** The run attempt the job ran in (1 unless the run was re-run). */
  runAttempt?: number;
  name: string;
  headSha: string;
  headBranch: string;
  workflowName: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: 'success' | 'failure' | 'cancelled' | 'skipped' | null;
  startedAt: string;
  completedAt: string | null;
  steps: Array<{ name: string; conclusion: 'success' | 'failure' | 'cancelled' | 'skipped'; number: number }>;
  /** The job's log as GitHub serves it: a timestamp on every line, each step's lines after its `##[group]Run …`. */
  log: string;
}
