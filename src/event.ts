import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** The events crew acts on, parsed once from GITHUB_EVENT_PATH. */

export interface CommentEvent {
  kind: 'comment';
  defaultBranch?: string;
  action: string;
  /**
   * Where the words were written: a comment in the conversation (absent), the body of a submitted
   * review, or a review comment on a line. Only a conversation comment can be reacted to, edited or
   * re-read through the issue-comment endpoints.
   */
  via?: 'review' | 'review_comment';
  /** A submitted review's state as the webhook spells it (`approved`, `changes_requested`, `commented`). */
  reviewState?: string;
  issue: { number: number; title: string; body: string; isPull: boolean; labels: string[] };
  comment: { id: number; body: string; createdAt: string; author: { login: string; type: string } };
}

export interface DispatchEvent {
  kind: 'dispatch';
  defaultBranch?: string;
  inputs: Record<string, string>;
}

/**
 * A check suite completed, a review was submitted or a review comment written: the pull requests
 * it concerns, for the merge gate; and for a review or review comment, its words as a comment on
 * the pull request, for route (a `/crew` there counts like one in the conversation).
 */
export interface PullEvent {
  kind: 'pull';
  source: 'check_suite' | 'pull_request_review' | 'pull_request_review_comment' | 'workflow_run' | 'pull_request_target';
  /** The event's activity (`closed` for a `pull_request_target` crew listens to), and who caused it. */
  action?: string;
  sender?: string;
  defaultBranch?: string;
  pulls: Array<{ number: number; headRef: string }>;
  comment?: CommentEvent;
  /** A completed workflow run (`workflow_run`): what `fix_ci` reads of it. */
  ci?: CiRun;
}

/** A completed workflow run, as its `workflow_run` event names it. */
export interface CiRun {
  runId: number;
  /** The workflow's name (`CI`) and file. */
  workflow: string;
  path: string;
  conclusion: string | null;
  headBranch: string | null;
  headSha: string;
  /** `owner/name` of the repository the head is in (a fork's for a fork's pull request), or null when GitHub gives none. */
  headRepo: string | null;
  /** `owner/name` of this repository. */
  repo: string | null;
  url: string;
}

/** Someone labelled or assigned an issue: a run starts when it is crew's `trigger_label` or `trigger_assignee`. */
export interface IssueEvent {
  kind: 'issue';
  defaultBranch?: string;
  action: string;
  issue: { number: number; title: string; body: string; labels: string[]; updatedAt: string };
  /** Who labelled or assigned: only this person's access counts, never the issue's author's. */
  sender: { login: string; type: string };
  label?: string;
  assignee?: string;
}

export type CrewEvent = CommentEvent | DispatchEvent | PullEvent | IssueEvent;

const Repository = z.object({ default_branch: z.string().optional() }).optional();

/** What crew reads of an issue in any event that carries one (issue_comment, issues). */
const IssueFields = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullable().optional(),
  labels: z.array(z.object({ name: z.string() })).default([]),
});

const CommentPayload = z.object({
  action: z.string(),
  issue: IssueFields.extend({
    pull_request: z.unknown().optional(),
  }),
  repository: Repository,
  comment: z.object({
    id: z.number().int(),
    body: z.string().nullable(),
    created_at: z.string(),
    user: z.object({ login: z.string(), type: z.string() }),
  }),
});

const PullRef = z.object({ number: z.number().int(), head: z.object({ ref: z.string() }) });
const CheckSuitePayload = z.object({ check_suite: z.object({ pull_requests: z.array(PullRef).default([]) }), repository: Repository });
const Author = z.object({ login: z.string(), type: z.string() });
/** The reviewed pull request as route reads it: what a comment event's `issue` carries. */
const ReviewedPull = PullRef.extend({
  title: z.string(),
  body: z.string().nullable().optional(),
  labels: z.array(z.object({ name: z.string() })).default([]),
});
const ReviewPayload = z.object({
  action: z.string(),
  pull_request: ReviewedPull,
  review: z.object({
    id: z.number().int(),
    body: z.string().nullable().optional(),
    submitted_at: z.string().nullable().optional(),
    state: z.string().optional(),
    user: Author,
  }),
  repository: Repository,
});
const ReviewCommentPayload = z.object({
  action: z.string(),
  pull_request: ReviewedPull,
  comment: z.object({ id: z.number().int(), body: z.string(), created_at: z.string(), user: Author }),
  repository: Repository,
});
const WorkflowRunPayload = z.object({
  workflow_run: z.object({
    id: z.number().int(),
    name: z.string().nullable().optional(),
    path: z.string().default(''),
    conclusion: z.string().nullable(),
    head_branch: z.string().nullable(),
    head_sha: z.string(),
    html_url: z.string(),
    head_repository: z.object({ full_name: z.string() }).nullable().optional(),
    pull_requests: z.array(PullRef).default([]),
  }),
  /** The workflow's own record: its file, which older examples of the run leave out. */
  workflow: z.object({ path: z.string().optional() }).nullable().optional(),
  repository: z.object({ default_branch: z.string().optional(), full_name: z.string().optional() }).optional(),
});

const IssuesPayload = z.object({
  action: z.string(),
  issue: IssueFields.extend({ updated_at: z.string() }),
  label: z.object({ name: z.string() }).optional(),
  assignee: z.object({ login: z.string() }).nullable().optional(),
  sender: z.object({ login: z.string(), type: z.string() }),
  repository: Repository,
});

/** A pull request's activity (`pull_request_target`): crew reads which pull request, and its head branch and repository. */
const PullRequestPayload = z.object({
  action: z.string(),
  pull_request: z.object({
    number: z.number().int(),
    head: z.object({ ref: z.string(), repo: z.object({ full_name: z.string() }).nullable().optional() }),
  }),
  sender: z.object({ login: z.string() }).optional(),
  repository: z.object({ default_branch: z.string().optional(), full_name: z.string().optional() }).optional(),
});

const DispatchPayload = z.object({ inputs: z.record(z.string(), z.unknown()).nullable().optional(), repository: Repository });

export class UnsupportedEvent extends Error {}

/**
 * Whether the event's repository is public (its payload's `repository.private` is false). Anyone can
 * read a public repository's job logs, and any signed-in user download its artifacts. A payload that
 * does not say counts as public: crew then keeps less, never more.
 */
export function publicRepository(path = process.env.GITHUB_EVENT_PATH ?? ''): boolean {
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { repository?: { private?: unknown } };
    return raw.repository?.private !== true;
  } catch {
    return true;
  }
}

/** Each event crew runs on, and how its payload becomes a CrewEvent. */
const READERS: Record<string, (raw: unknown, name: string) => CrewEvent> = {
  issue_comment: commentEvent,
  issues: issuesEvent,
  workflow_dispatch: dispatchEvent,
  check_suite: checksEvent,
  workflow_run: checksEvent,
  pull_request_review: reviewEvent,
  pull_request_review_comment: reviewEvent,
  pull_request_target: pullTargetEvent,
};

/** The event this job runs for (GITHUB_EVENT_NAME and its payload); one crew does not handle is an UnsupportedEvent naming it. */
export function readEvent(name = process.env.GITHUB_EVENT_NAME ?? '', path = process.env.GITHUB_EVENT_PATH ?? ''): CrewEvent {
  const read = Object.hasOwn(READERS, name) ? READERS[name] : undefined;
  if (!read) {
    throw new UnsupportedEvent(
      `crew runs on issue_comment, issues, workflow_dispatch, check_suite, pull_request_review, pull_request_review_comment, workflow_run and pull_request_target events, not '${name || '(none)'}'. Use the workflow from crew's README.`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UnsupportedEvent(`could not read the event payload at GITHUB_EVENT_PATH ('${path}'): ${(e as Error).message}`);
  }
  return read(raw, name);
}

function dispatchEvent(raw: unknown): CrewEvent {
  const p = DispatchPayload.parse(raw);
  return {
    kind: 'dispatch',
    defaultBranch: p.repository?.default_branch,
    inputs: Object.fromEntries(Object.entries(p.inputs ?? {}).map(([k, v]) => [k, String(v)])),
  };
}

function issuesEvent(raw: unknown, name: string): CrewEvent {
  const d = parsePayload(IssuesPayload, raw, name);
  return {
    kind: 'issue',
    defaultBranch: d.repository?.default_branch,
    action: d.action,
    issue: { ...issueOf(d.issue), updatedAt: d.issue.updated_at },
    sender: { login: d.sender.login, type: d.sender.type },
    ...(d.label ? { label: d.label.name } : {}),
    ...(d.assignee ? { assignee: d.assignee.login } : {}),
  };
}

function pullTargetEvent(raw: unknown, name: string): CrewEvent {
  const d = parsePayload(PullRequestPayload, raw, name);
  const pr = d.pull_request;
  // A fork's pull request can name its branch like crew's: only one whose head is in this repository is crew's.
  const ours = pr.head.repo?.full_name !== undefined && pr.head.repo.full_name === d.repository?.full_name;
  return {
    kind: 'pull',
    source: 'pull_request_target',
    action: d.action,
    ...(d.sender ? { sender: d.sender.login } : {}),
    defaultBranch: d.repository?.default_branch,
    pulls: ours ? [{ number: pr.number, headRef: pr.head.ref }] : [],
  };
}

function reviewEvent(raw: unknown, name: string): CrewEvent {
  const isReview = name === 'pull_request_review';
  const d = isReview ? parsePayload(ReviewPayload, raw, name) : parsePayload(ReviewCommentPayload, raw, name);
  const said =
    'review' in d
      ? { id: d.review.id, body: d.review.body ?? '', createdAt: d.review.submitted_at ?? '', user: d.review.user }
      : { id: d.comment.id, body: d.comment.body, createdAt: d.comment.created_at, user: d.comment.user };
  const pr = d.pull_request;
  return {
    kind: 'pull',
    source: isReview ? 'pull_request_review' : 'pull_request_review_comment',
    defaultBranch: d.repository?.default_branch,
    pulls: [{ number: pr.number, headRef: pr.head.ref }],
    comment: {
      kind: 'comment',
      defaultBranch: d.repository?.default_branch,
      // A submitted review is a new review, as a created comment is a new comment.
      action: d.action === 'submitted' ? 'created' : d.action,
      via: isReview ? 'review' : 'review_comment',
      ...('review' in d && d.review.state ? { reviewState: d.review.state.toLowerCase() } : {}),
      issue: { ...issueOf(pr), isPull: true },
      comment: { id: said.id, body: said.body, createdAt: said.createdAt, author: { login: said.user.login, type: said.user.type } },
    },
  };
}

function checksEvent(raw: unknown, name: string): CrewEvent {
  const isSuite = name === 'check_suite';
  const d = parsePayload<z.infer<typeof CheckSuitePayload | typeof WorkflowRunPayload>>(isSuite ? CheckSuitePayload : WorkflowRunPayload, raw, name);
  const pulls = 'check_suite' in d ? d.check_suite.pull_requests : d.workflow_run.pull_requests;
  const event: PullEvent = {
    kind: 'pull',
    source: isSuite ? 'check_suite' : 'workflow_run',
    defaultBranch: d.repository?.default_branch,
    pulls: pulls.map((x) => ({ number: x.number, headRef: x.head.ref })),
  };
  if ('workflow_run' in d) {
    const r = d.workflow_run;
    event.ci = {
      runId: r.id,
      workflow: r.name ?? (r.path || d.workflow?.path || ''),
      path: r.path || d.workflow?.path || '',
      conclusion: r.conclusion,
      headBranch: r.head_branch,
      headSha: r.head_sha,
      headRepo: r.head_repository?.full_name ?? null,
      repo: (d.repository as { full_name?: string } | undefined)?.full_name ?? null,
      url: r.html_url,
    };
  }
  return event;
}

function commentEvent(raw: unknown): CrewEvent {
  const d = parsePayload(CommentPayload, raw, 'issue_comment');
  return {
    kind: 'comment',
    defaultBranch: d.repository?.default_branch,
    action: d.action,
    issue: { ...issueOf(d.issue), isPull: d.issue.pull_request !== undefined && d.issue.pull_request !== null },
    comment: {
      id: d.comment.id,
      body: d.comment.body ?? '',
      createdAt: d.comment.created_at,
      author: { login: d.comment.user.login, type: d.comment.user.type },
    },
  };
}

function parsePayload<T>(schema: z.ZodType<T>, raw: unknown, name: string): T {
  const p = schema.safeParse(raw);
  if (!p.success) throw new UnsupportedEvent(`the ${name} payload is missing fields crew needs: ${p.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  return p.data;
}

function issueOf(i: { number: number; title: string; body?: string | null; labels: Array<{ name: string }> }) {
  return { number: i.number, title: i.title, body: i.body ?? '', labels: i.labels.map((l) => l.name) };
}
