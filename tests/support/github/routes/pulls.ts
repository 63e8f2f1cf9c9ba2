import { HttpError, notFound, validationFailed, type Route } from '../http-types';
import type { FakeGitHub } from '../fake-github';
import type { FakePull, FakeReview, FakeReviewComment, Principal } from '../model';
import { createIssue, eventPayload, findIssue } from './issues';
import { paginate } from './paginate';

function findPull(gh: FakeGitHub, n: string | number): FakePull {
  const p = gh.pulls.get(Number(n));
  if (!p) throw notFound();
  return p;
}

export async function headSha(gh: FakeGitHub, p: FakePull): Promise<string> {
  // A fork's branch is not a branch here: its head is the fork's commit (refs/pull/N/head).
  return p.frozenHeadSha ?? (p.fork ? p.fork.sha : await gh.repo.branchSha(p.head)) ?? '0'.repeat(40);
}

async function serializePull(gh: FakeGitHub, p: FakePull, full: boolean) {
  const issue = findIssue(gh, p.number);
  const [head, base] = await Promise.all([headSha(gh, p), (async () => p.frozenBaseSha ?? (await gh.repo.branchSha(p.base)) ?? '0'.repeat(40))()]);
  const repository = gh.serialize.repository(gh.settings, gh.defaultBranch, gh.createdAt);
  const labels = issue.labels.map((n) => gh.labelRecord(n));
  let extra;
  if (full) {
    // A head branch deleted under an open PR leaves nothing to compare.
    const gone = /^0{40}$/.test(head) || /^0{40}$/.test(base);
    const [m, stat, commits] = gone
      ? [{ clean: false }, { additions: 0, deletions: 0, changedFiles: 0 }, 0]
      : await Promise.all([p.merged_at ? { clean: true } : gh.repo.canMerge(base, head), gh.repo.diffStat(base, head), gh.repo.countCommits(base, head)]);
    const comments = [...gh.comments.values()].filter((c) => c.issue === p.number).length;
    extra = {
      mergeable: p.merged_at ? null : m.clean,
      mergeable_state: p.merged_at ? 'unknown' : m.clean ? 'clean' : 'dirty',
      counts: { commits, additions: stat.additions, deletions: stat.deletions, changed_files: stat.changedFiles, comments },
    };
  }
  return gh.serialize.pull(issue, p, head, base, repository, labels, gh.authorAssociation(issue.user), extra);
}

/**
 * GitHub closes issues that a merged PR's body links with closing keywords, when it merges into the
 * default branch. The keywords and forms are GitHub's documented ones ("Linking a pull request to an
 * issue using a keyword"): close(s|d), fix(es|ed), resolve(s|d), any case, with or without a colon,
 * before `#N`, `OWNER/REPOSITORY#N` or the issue's URL; only issues of this repository are closed here.
 */
/**
 * Closes the issues a text links with a closing keyword (close, closes, closed, fix, fixes, fixed,
 * resolve, resolves, resolved, a colon allowed, before #N, OWNER/REPOSITORY#N or the issue's URL).
 * GitHub Docs, "Linking a pull request to an issue": it reads them in a pull request's description
 * when the pull request targets the default branch, and in commit messages once the commits reach the
 * default branch; a merge brings its commits there.
 */
function closeLinkedIssues(gh: FakeGitHub, body: string | null) {
  const repo = `${gh.owner}/${gh.repoName}`.replace(/[.]/g, '\\.');
  const ref = `(?:#|${repo}#|https?://[^\\s/]+/${repo}/issues/)(\\d+)`;
  const re = new RegExp(`\\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\\s+${ref}\\b`, 'gi');
  for (const m of (body ?? '').matchAll(re)) {
    const issue = gh.issues.get(Number(m[1]));
    if (issue && !issue.isPull && issue.state === 'open') {
      issue.state = 'closed';
      issue.state_reason = 'completed';
      issue.closed_at = gh.now();
      issue.updated_at = issue.closed_at;
    }
  }
}

function mergeAllowed(gh: FakeGitHub, method: string): string | undefined {
  const s = gh.settings;
  if (method === 'merge' && !s.allow_merge_commit) return 'Merge commits are not allowed on this repository.';
  if (method === 'squash' && !s.allow_squash_merge) return 'Squash merges are not allowed on this repository.';
  if (method === 'rebase' && !s.allow_rebase_merge) return 'Rebase merges are not allowed on this repository.';
  return undefined;
}

function committerOf(gh: FakeGitHub, principal: Principal) {
  const u = gh.user(principal.login);
  return { name: u.name ?? u.login, email: `${u.id}+${u.login}@users.noreply.github.com` };
}

/** A line comment as asked (body, path, line on the new side), checked against the file at `head`. */
async function lineComment(
  gh: FakeGitHub,
  head: string,
  c: Record<string, unknown>,
  refuse: (field: 'body' | 'path' | 'line', code: 'missing_field' | 'invalid') => Error = (field, code) =>
    validationFailed('PullRequestReviewComment', field, code),
): Promise<{ body: string; path: string; line: number; text: string[] }> {
  if (typeof c.body !== 'string' || !c.body) throw refuse('body', 'missing_field');
  if (typeof c.path !== 'string') throw refuse('path', 'missing_field');
  const line = typeof c.line === 'number' ? c.line : undefined;
  if (line === undefined) throw refuse('line', 'missing_field');
  const text = await gh.repo.readFile(head, c.path);
  // GitHub answers 422 for a line outside the diff; the fake accepts any line of the file at the head.
  if (text === undefined || line < 1 || line > text.split('\n').length) throw refuse('line', 'invalid');
  return { body: c.body, path: c.path, line, text: text.split('\n') };
}

function addLineComment(
  gh: FakeGitHub,
  p: FakePull,
  principal: Principal,
  review: FakeReview,
  c: Awaited<ReturnType<typeof lineComment>>,
  commitId: string,
  now: string,
): FakeReviewComment {
  const comment: FakeReviewComment = {
    id: gh.nextId('reviewComment'),
    pull: p.number,
    review: review.id,
    user: principal.login,
    body: c.body,
    path: c.path,
    line: c.line,
    commit_id: commitId,
    created_at: now,
    updated_at: now,
    diff_hunk: `@@ -${c.line},1 +${c.line},1 @@\n+${c.text[c.line - 1] ?? ''}`,
  };
  gh.reviewComments.push(comment);
  return comment;
}

/** A review comment made on its own is a one-comment review of its own: `COMMENTED`, with no body. */
function singleCommentReview(gh: FakeGitHub, p: FakePull, principal: Principal, commitId: string, now: string): FakeReview {
  const review: FakeReview = {
    id: gh.nextId('review'),
    pull: p.number,
    user: principal.login,
    state: 'COMMENTED',
    body: '',
    commit_id: commitId,
    submitted_at: now,
  };
  gh.reviews.push(review);
  return review;
}

/**
 * A review comment made on its own (not in a pending review): GitHub sends the comment's event and
 * the event of the one-comment review it makes (a `commented` review with no body).
 */
async function emitSingleComment(
  gh: FakeGitHub,
  principal: Principal,
  p: FakePull,
  review: FakeReview,
  json: ReturnType<FakeGitHub['serialize']['reviewComment']>,
) {
  const pull = await serializePull(gh, p, false);
  gh.emit(
    principal,
    'pull_request_review_comment',
    eventPayload(gh, 'pull_request_review_comment.created', principal.login, { action: 'created', comment: json, pull_request: pull }),
  );
  gh.emit(
    principal,
    'pull_request_review',
    eventPayload(gh, 'pull_request_review.submitted', principal.login, {
      action: 'submitted',
      review: { ...gh.serialize.review(review, gh.authorAssociation(principal.login)), body: null, state: 'commented' },
      pull_request: pull,
    }),
  );
}

/**
 * GitHub sends `pull_request` (action `closed`) when a pull request is closed, merged or not
 * (`pull_request.merged` says which); workflows on `pull_request` and on `pull_request_target` both
 * listen to it. Like every event, one caused by a workflow's GITHUB_TOKEN starts no run (emit).
 */
async function emitClosed(gh: FakeGitHub, principal: Principal, p: FakePull) {
  const pull = await serializePull(gh, p, true);
  gh.emit(principal, 'pull_request', eventPayload(gh, 'pull_request.closed', principal.login, { action: 'closed', number: p.number, pull_request: pull }));
}

export const pullRoutes: Record<string, Route> = {
  'POST /repos/{owner}/{repo}/pulls': {
    scope: 'pull-requests',
    access: 'write',
    creates: true,
    async handle({ gh, principal, body }) {
      if (principal.kind === 'actions' && !gh.settings.actions_can_create_pull_requests) {
        throw new HttpError(403, 'GitHub Actions is not permitted to create or approve pull requests.');
      }
      if (typeof body.title !== 'string' || !body.title) throw validationFailed('PullRequest', 'title', 'missing_field');
      const head = String(body.head ?? '').replace(new RegExp(`^${gh.owner}:`), '');
      const base = String(body.base ?? '');
      const headSha = await gh.repo.branchSha(head);
      const baseSha = await gh.repo.branchSha(base);
      if (!headSha) throw validationFailed('PullRequest', 'head', 'invalid');
      if (!baseSha) throw validationFailed('PullRequest', 'base', 'invalid');
      const open = [...gh.pulls.values()].find((p) => p.head === head && p.base === base && gh.issues.get(p.number)?.state === 'open');
      if (open) throw validationFailed('PullRequest', '', 'custom', `A pull request already exists for ${gh.owner}:${head}.`);
      if (await gh.repo.isAncestor(headSha, baseSha)) throw validationFailed('PullRequest', '', 'custom', `No commits between ${base} and ${head}`);
      const issue = createIssue(gh, principal, { title: body.title, body: body.body ?? null, isPull: true });
      const pull: FakePull = {
        number: issue.number,
        id: gh.nextId('pull'),
        head,
        base,
        draft: !!body.draft,
        merged_at: null,
        merge_commit_sha: null,
        merged_by: null,
        frozenHeadSha: null,
      };
      gh.pulls.set(pull.number, pull);
      const json = await serializePull(gh, pull, true);
      return { status: 201, body: json, headers: { location: json.url } };
    },
  },
  'GET /repos/{owner}/{repo}/pulls': {
    scope: 'pull-requests',
    access: 'read',
    async handle({ gh, url }) {
      const state = url.searchParams.get('state') ?? 'open';
      const head = url.searchParams.get('head');
      const base = url.searchParams.get('base');
      const all = [...gh.pulls.values()].filter((p) => {
        const issue = gh.issues.get(p.number)!;
        if (state !== 'all' && issue.state !== state) return false;
        if (head && `${p.fork?.owner ?? gh.owner}:${p.head}` !== head) return false;
        if (base && p.base !== base) return false;
        return true;
      });
      all.sort((a, b) => b.number - a.number);
      const jsons = await Promise.all(all.map((p) => serializePull(gh, p, false)));
      return paginate(jsons, url, (j) => j);
    },
  },
  'GET /repos/{owner}/{repo}/pulls/{pull_number}': {
    scope: 'pull-requests',
    access: 'read',
    handle: async ({ gh, params }) => ({ status: 200, body: await serializePull(gh, findPull(gh, params.pull_number!), true) }),
  },
  'PATCH /repos/{owner}/{repo}/pulls/{pull_number}': {
    scope: 'pull-requests',
    access: 'write',
    async handle({ gh, principal, params, body }) {
      const p = findPull(gh, params.pull_number!);
      const issue = findIssue(gh, p.number);
      if (typeof body.title === 'string') issue.title = body.title;
      if (typeof body.body === 'string') issue.body = body.body;
      if (typeof body.base === 'string') {
        if (!(await gh.repo.branchSha(body.base))) throw validationFailed('PullRequest', 'base', 'invalid');
        p.base = body.base;
      }
      let closed = false;
      if (body.state === 'closed' && issue.state === 'open') {
        p.frozenHeadSha = await headSha(gh, p);
        p.frozenBaseSha = (await gh.repo.branchSha(p.base)) ?? null;
        issue.state = 'closed';
        issue.closed_at = gh.now();
        closed = true;
      } else if (body.state === 'open' && issue.state === 'closed' && !p.merged_at) {
        p.frozenHeadSha = null;
        p.frozenBaseSha = null;
        issue.state = 'open';
        issue.closed_at = null;
      }
      issue.updated_at = gh.now();
      if (closed) await emitClosed(gh, principal, p);
      return { status: 200, body: await serializePull(gh, p, true) };
    },
  },
  'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge': {
    scope: 'contents',
    access: 'write',
    async handle({ gh, principal, params, body }) {
      const p = findPull(gh, params.pull_number!);
      const issue = findIssue(gh, p.number);
      if (p.merged_at || issue.state !== 'open') throw new HttpError(405, 'Pull Request is not mergeable');
      const method = String(body.merge_method ?? 'merge');
      if (!['merge', 'squash', 'rebase'].includes(method)) throw validationFailed('PullRequest', 'merge_method', 'invalid');
      const notAllowed = mergeAllowed(gh, method);
      if (notAllowed) throw new HttpError(405, notAllowed);
      const head = await headSha(gh, p);
      if (/^0{40}$/.test(head)) throw new HttpError(405, 'Pull Request is not mergeable');
      if (body.sha !== undefined && body.sha !== head) throw new HttpError(409, 'Head branch was modified. Review and try the merge again.');
      // GitHub's default messages: a merge commit names the PR and its branch; a squash
      // commit takes the PR title with its number, and lists the squashed commits.
      const baseSha = (await gh.repo.branchSha(p.base)) ?? head;
      const defaultTitle = method === 'squash' ? `${issue.title} (#${p.number})` : `Merge pull request #${p.number} from ${gh.owner}/${p.head}`;
      // The squashed commits are listed with their whole messages, bodies too.
      const landing = await gh.repo.commitMessages(baseSha, head);
      const defaultMessage = method === 'squash' ? landing.map((m) => `* ${m}`).join('\n\n') : issue.title;
      const title = typeof body.commit_title === 'string' ? body.commit_title : defaultTitle;
      const message = typeof body.commit_message === 'string' ? body.commit_message : defaultMessage;
      const out = await gh.repo.merge({
        base: p.base,
        headSha: head,
        method: method as 'merge' | 'squash' | 'rebase',
        title,
        message,
        committer: committerOf(gh, principal),
        date: gh.now(),
      });
      if (!out.ok) throw new HttpError(405, 'Pull Request is not mergeable');
      const now = gh.now();
      p.merged_at = now;
      p.merge_commit_sha = out.sha!;
      p.merged_by = principal.login;
      p.frozenHeadSha = head;
      p.frozenBaseSha = baseSha;
      issue.state = 'closed';
      issue.closed_at = now;
      issue.updated_at = now;
      if (p.base === gh.defaultBranch) {
        closeLinkedIssues(gh, issue.body);
        // What now sits on the default branch: the squash commit alone, the rebased commits, or the commits and the merge commit.
        const messages = method === 'squash' ? [`${title}\n\n${message}`] : [...landing, ...(method === 'merge' ? [`${title}\n\n${message}`] : [])];
        for (const m of messages) closeLinkedIssues(gh, m);
      }
      if (gh.settings.delete_branch_on_merge) await gh.repo.deleteRef(`refs/heads/${p.head}`);
      await emitClosed(gh, principal, p);
      return { status: 200, body: { sha: out.sha!, merged: true, message: 'Pull Request successfully merged' } };
    },
  },
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews': {
    scope: 'pull-requests',
    access: 'read',
    handle({ gh, params, url }) {
      const p = findPull(gh, params.pull_number!);
      return paginate(
        gh.reviews.filter((r) => r.pull === p.number),
        url,
        (r) => gh.serialize.review(r, gh.authorAssociation(r.user)),
      );
    },
  },
  'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews': {
    scope: 'pull-requests',
    access: 'write',
    // A person needs only read access to review, approvals included: "anyone with read access
    // can review and comment on the changes it proposes", and "in public repositories, any user
    // can submit reviews that approve or request changes" (GitHub Docs, "About pull request
    // reviews"). Such an approval is recorded; only GitHub's required reviews ignore it.
    userAccess: 'read',
    creates: true,
    async handle({ gh, principal, params, body }) {
      const p = findPull(gh, params.pull_number!);
      const issue = findIssue(gh, p.number);
      if (principal.kind === 'actions' && body.event === 'APPROVE' && !gh.settings.actions_can_create_pull_requests) {
        throw new HttpError(403, 'GitHub Actions is not permitted to create or approve pull requests.');
      }
      if (issue.user === principal.login && (body.event === 'APPROVE' || body.event === 'REQUEST_CHANGES')) {
        // This endpoint's 422 lists its errors as plain strings.
        const verb = body.event === 'APPROVE' ? 'approve' : 'request changes on';
        throw new HttpError(422, 'Unprocessable Entity', { errors: [`Can not ${verb} your own pull request`] });
      }
      const states: Record<string, FakeReview['state']> = { APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED' };
      const state = states[String(body.event)] ?? 'PENDING';
      const head = await headSha(gh, p);
      // Line comments made with the review (`comments`): all are checked before any is kept, as one request.
      const asked = Array.isArray(body.comments) ? (body.comments as Array<Record<string, unknown>>) : [];
      const drafts = [];
      // This endpoint's 422 lists its errors as plain strings (its OpenAPI response), GitHub's "Line could not be resolved".
      const refuse = (field: string) =>
        new HttpError(422, 'Unprocessable Entity', { errors: [`${field[0]!.toUpperCase()}${field.slice(1)} could not be resolved`] });
      for (const c of asked) drafts.push(await lineComment(gh, head, c, refuse));
      const review: FakeReview = {
        id: gh.nextId('review'),
        pull: p.number,
        user: principal.login,
        state,
        body: body.body ?? '',
        commit_id: body.commit_id ?? head,
        submitted_at: gh.now(),
      };
      gh.reviews.push(review);
      const comments = drafts.map((d) => addLineComment(gh, p, principal, review, d, review.commit_id, review.submitted_at));
      const reviewJson = gh.serialize.review(review, gh.authorAssociation(principal.login));
      // A submitted review's line comments each send `pull_request_review_comment` (created), as a
      // single comment does; bots that follow both events report one per comment of a review
      // (progval/Supybot-plugins#308, Kibibit/achievibit#78). A pending review sends nothing yet.
      if (state !== 'PENDING')
        for (const c of comments) {
          const json = gh.serialize.reviewComment(c, gh.authorAssociation(principal.login));
          gh.emit(
            principal,
            'pull_request_review_comment',
            eventPayload(gh, 'pull_request_review_comment.created', principal.login, {
              action: 'created',
              comment: json,
              pull_request: await serializePull(gh, p, false),
            }),
          );
        }
      // The webhook spells review states in lower case ("approved"); the REST API in upper case.
      gh.emit(
        principal,
        'pull_request_review',
        eventPayload(gh, 'pull_request_review.submitted', principal.login, {
          action: 'submitted',
          review: { ...reviewJson, state: review.state.toLowerCase() },
          pull_request: await serializePull(gh, p, false),
        }),
      );
      return { status: 200, body: reviewJson };
    },
  },
  /**
   * A single comment on a line of the diff. GitHub makes it a review of its own (state COMMENTED,
   * no body), so it sends `pull_request_review` (submitted) as well as `pull_request_review_comment`
   * (created): the webhook examples show the pair, the comment's `pull_request_review_id` naming the
   * review whose body is null. GitHub's docs do not say so in words; people who consume the events
   * report the pair for a single comment and for a reply: kubernetes/test-infra#2477 ("commenting on
   * a review gives two events"), dolphin-emu/sadm#69 ("a review event in addition to a review comment
   * event when someone replies to an earlier comment or adds a single comment"), and
   * github/github-mcp-server#540 (a reply made through the API fires `pull_request_review.submitted`
   * with state `commented`). Only `line` (on the new side) is served; `position` is deprecated.
   */
  'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments': {
    scope: 'pull-requests',
    access: 'write',
    // Anyone who can read the repository can comment on a pull request's lines (GitHub Docs, "About pull request reviews").
    userAccess: 'read',
    creates: true,
    async handle({ gh, principal, params, body }) {
      const p = findPull(gh, params.pull_number!);
      const head = await headSha(gh, p);
      const draft = await lineComment(gh, head, body);
      const now = gh.now();
      const review = singleCommentReview(gh, p, principal, head, now);
      const comment = addLineComment(gh, p, principal, review, draft, typeof body.commit_id === 'string' ? body.commit_id : head, now);
      const json = gh.serialize.reviewComment(comment, gh.authorAssociation(principal.login));
      await emitSingleComment(gh, principal, p, review, json);
      return { status: 201, body: json, headers: { location: json.url } };
    },
  },
  /** The pull request's review comments, replies included, in ascending order by id (GitHub's default). */
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments': {
    scope: 'pull-requests',
    access: 'read',
    handle({ gh, params, url }) {
      const p = findPull(gh, params.pull_number!);
      return paginate(
        gh.reviewComments.filter((c) => c.pull === p.number).sort((a, b) => a.id - b.id),
        url,
        (c) => gh.serialize.reviewComment(c, gh.authorAssociation(c.user)),
      );
    },
  },
  /**
   * A reply in a review thread. "This must be the ID of a top-level review comment, not a reply to
   * that comment. Replies to replies are not supported." (GitHub Docs, REST "Create a reply for a
   * review comment"): the fake answers a reply to a reply with 404, as to an unknown comment. The
   * reply takes the thread's path, line and hunk.
   */
  'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies': {
    scope: 'pull-requests',
    access: 'write',
    userAccess: 'read',
    creates: true,
    async handle({ gh, principal, params, body }) {
      const p = findPull(gh, params.pull_number!);
      const root = gh.reviewComments.find((c) => c.id === Number(params.comment_id) && c.pull === p.number);
      if (!root || root.in_reply_to !== undefined) throw notFound();
      if (typeof body.body !== 'string' || !body.body) throw validationFailed('PullRequestReviewComment', 'body', 'missing_field');
      const now = gh.now();
      const review = singleCommentReview(gh, p, principal, root.commit_id, now);
      const reply: FakeReviewComment = {
        id: gh.nextId('reviewComment'),
        pull: p.number,
        review: review.id,
        user: principal.login,
        body: body.body,
        path: root.path,
        line: root.line,
        commit_id: root.commit_id,
        created_at: now,
        updated_at: now,
        diff_hunk: root.diff_hunk,
        in_reply_to: root.id,
      };
      gh.reviewComments.push(reply);
      const json = gh.serialize.reviewComment(reply, gh.authorAssociation(principal.login));
      // A reply is a single comment with a review of its own, so GitHub sends that review's event too
      // (kubernetes/test-infra#2477, dolphin-emu/sadm#69, github/github-mcp-server#540; see the single comment above).
      await emitSingleComment(gh, principal, p, review, json);
      return { status: 201, body: json, headers: { location: json.url } };
    },
  },
};
