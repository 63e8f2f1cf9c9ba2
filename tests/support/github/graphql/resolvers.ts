import { GraphQLError } from 'graphql';
import type { FakeGitHub } from '../fake-github';
import type { FakeComment, FakeIssue, FakePull, FakeReview, FakeReviewComment, Principal, Scope } from '../model';
import { headSha } from '../routes/pulls';

/**
 * The fake GitHub's own records (issues, pull requests, comments, reviews, review threads, labels,
 * users) seen as GitHub's GraphQL types. Each object here is a plain record of the fields the fake
 * models: a value, or a function of the field's arguments. `serve.ts` executes a query over them with
 * graphql-js, so any query GitHub's schema allows is answered from the same state REST serves; a
 * field the schema has and these records lack is a violation (the fake says it does not model it),
 * never a quiet null.
 */
export interface GraphqlContext {
  gh: FakeGitHub;
  principal: Principal;
}

/** A GraphQL object: `__typename` names its type where the schema asks for an interface or union (Node, Actor, …). */
export type Model = { __typename: string } & Record<string, unknown>;

interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** An error as GitHub words it, with GitHub's `type` (NOT_FOUND, FORBIDDEN): serve.ts puts it beside the message. */
export function githubError(type: string, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { type } });
}

const cursorOf = (i: number) => Buffer.from(`cursor:v2:${i}`).toString('base64');

function indexOf(cursor: string): number {
  const m = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!m) throw new GraphQLError(`\`${cursor}\` does not appear to be a valid cursor.`);
  return Number(m[1]);
}

/**
 * A connection over `items` in their order, paged by GraphQL's cursor rules (first/after,
 * last/before). GitHub's limits on first and last (present, 1 to 100) are checked before execution,
 * as GitHub checks them (limits.ts).
 */
function connection<T>(items: T[], args: PageArgs, node: (t: T) => Model): Record<string, unknown> {
  const floor = args.after ? indexOf(args.after) + 1 : 0;
  const ceiling = args.before ? Math.min(items.length, indexOf(args.before)) : items.length;
  let start = floor;
  let end = Math.max(floor, ceiling);
  if (typeof args.first === 'number') end = Math.min(end, start + args.first);
  if (typeof args.last === 'number') start = Math.max(start, end - args.last);
  const edges = items.slice(start, end).map((t, k) => ({ cursor: cursorOf(start + k), node: node(t) }));
  return {
    totalCount: items.length,
    nodes: edges.map((e) => e.node),
    edges,
    pageInfo: {
      hasNextPage: end < ceiling,
      hasPreviousPage: start > floor,
      startCursor: edges.length ? edges[0]!.cursor : null,
      endCursor: edges.length ? edges.at(-1)!.cursor : null,
    },
  };
}

/**
 * What a token may read. A workflow's or an app's token reads issues with `issues` and pull requests
 * with `pull-requests` (at least read); without it GitHub answers the field null with a FORBIDDEN
 * error, "Resource not accessible by integration". A person's token reads what the person can.
 */
function mayRead(principal: Principal, scope: Scope): void {
  if (principal.kind !== 'user' && !principal.scopes[scope]) throw githubError('FORBIDDEN', 'Resource not accessible by integration');
}

export class GraphqlModels {
  constructor(private readonly ctx: GraphqlContext) {}

  private get gh(): FakeGitHub {
    return this.ctx.gh;
  }

  private nodeId(kind: string, id: number): string {
    return this.gh.serialize.nodeId(kind, id);
  }

  /** The root of every query. */
  query(): Model {
    return {
      __typename: 'Query',
      viewer: () => this.actor(this.ctx.principal.login),
      repository: ({ owner, name }: { owner: string; name: string }) => {
        if (owner.toLowerCase() !== this.gh.owner.toLowerCase() || name.toLowerCase() !== this.gh.repoName.toLowerCase())
          throw githubError('NOT_FOUND', `Could not resolve to a Repository with the name '${owner}/${name}'.`);
        return this.repository();
      },
      user: ({ login }: { login: string }) => {
        const u = this.gh.users.get(login);
        if (!u || u.type !== 'User') throw githubError('NOT_FOUND', `Could not resolve to a User with the login of '${login}'.`);
        return this.actor(login);
      },
      node: ({ id }: { id: string }) => this.node(id),
      nodes: ({ ids }: { ids: string[] }) => ids.map((id) => this.node(id)),
    };
  }

  /** The one repository the fake serves. */
  repository(): Model {
    const gh = this.gh;
    return {
      __typename: 'Repository',
      id: this.nodeId('Repository', gh.repoId),
      databaseId: gh.repoId,
      name: gh.repoName,
      nameWithOwner: `${gh.owner}/${gh.repoName}`,
      owner: () => this.actor(gh.owner),
      url: gh.serialize.repoWeb,
      isPrivate: gh.settings.private,
      visibility: gh.settings.private ? 'PRIVATE' : 'PUBLIC',
      createdAt: gh.createdAt,
      defaultBranchRef: async () => {
        const sha = await gh.repo.branchSha(gh.defaultBranch);
        return sha ? { __typename: 'Ref', name: gh.defaultBranch, prefix: 'refs/heads/', target: { __typename: 'Commit', oid: sha } } : null;
      },
      issue: ({ number }: { number: number }) => {
        mayRead(this.ctx.principal, 'issues');
        const i = gh.issues.get(number);
        if (!i || i.isPull) throw githubError('NOT_FOUND', `Could not resolve to an Issue with the number of ${number}.`);
        return this.issue(i);
      },
      pullRequest: ({ number }: { number: number }) => {
        mayRead(this.ctx.principal, 'pull-requests');
        const p = gh.pulls.get(number);
        if (!p) throw githubError('NOT_FOUND', `Could not resolve to a PullRequest with the number of ${number}.`);
        return this.pull(p);
      },
      issueOrPullRequest: ({ number }: { number: number }) => {
        const p = gh.pulls.get(number);
        mayRead(this.ctx.principal, p ? 'pull-requests' : 'issues');
        const i = gh.issues.get(number);
        if (!i) throw githubError('NOT_FOUND', `Could not resolve to an issue or pull request with the number of ${number}.`);
        return p ? this.pull(p) : this.issue(i);
      },
      issues: (args: PageArgs & { states?: string[] | null }) => {
        mayRead(this.ctx.principal, 'issues');
        const all = [...gh.issues.values()].filter((i) => !i.isPull && (!args.states || args.states.includes(i.state.toUpperCase())));
        return connection(
          all.sort((a, b) => a.number - b.number),
          args,
          (i) => this.issue(i),
        );
      },
      pullRequests: (args: PageArgs & { states?: string[] | null; headRefName?: string | null; baseRefName?: string | null }) => {
        mayRead(this.ctx.principal, 'pull-requests');
        const all = [...gh.pulls.values()].filter(
          (p) =>
            (!args.states || args.states.includes(this.pullState(p))) &&
            (args.headRefName == null || p.head === args.headRefName) &&
            (args.baseRefName == null || p.base === args.baseRefName),
        );
        return connection(
          all.sort((a, b) => a.number - b.number),
          args,
          (p) => this.pull(p),
        );
      },
    };
  }

  /**
   * A user or a bot. The fake spells a bot's login as REST does (`github-actions[bot]`); crew reads
   * no author over GraphQL, and `viewer { login }` has always been answered so here.
   */
  actor(login: string): Model | null {
    const u = this.gh.users.get(login);
    if (!u) return null;
    const rest = this.gh.serialize.user(login);
    return {
      __typename: u.type,
      id: this.nodeId(u.type, u.id),
      databaseId: u.id,
      login: u.login,
      ...(u.type === 'User' ? { name: u.name } : {}),
      url: rest.html_url,
      avatarUrl: () => rest.avatar_url,
    };
  }

  /** The fields an issue and a pull request share (GitHub's Issue and PullRequest both carry them). */
  private issueLike(i: FakeIssue, kind: 'Issue' | 'PullRequest', id: number): Model {
    const gh = this.gh;
    return {
      __typename: kind,
      id: this.nodeId(kind, id),
      databaseId: id,
      fullDatabaseId: id,
      number: i.number,
      title: i.title,
      body: i.body ?? '',
      closed: i.state === 'closed',
      closedAt: i.closed_at,
      createdAt: i.created_at,
      updatedAt: i.updated_at,
      locked: i.locked,
      url: `${gh.serialize.repoWeb}/${kind === 'Issue' ? 'issues' : 'pull'}/${i.number}`,
      author: () => this.actor(i.user),
      repository: () => this.repository(),
      labels: (args: PageArgs) =>
        connection(
          i.labels.map((n) => gh.labelRecord(n)),
          args,
          (l) => ({ __typename: 'Label', id: this.nodeId('Label', l.id), name: l.name, color: l.color, description: l.description }),
        ),
      comments: (args: PageArgs) =>
        connection(
          [...gh.comments.values()].filter((c) => c.issue === i.number).sort((a, b) => a.id - b.id),
          args,
          (c) => this.issueComment(c),
        ),
    };
  }

  issue(i: FakeIssue): Model {
    return {
      ...this.issueLike(i, 'Issue', i.id),
      state: i.state.toUpperCase(),
      stateReason: i.state_reason?.toUpperCase() ?? null,
    };
  }

  private pullState(p: FakePull): string {
    return p.merged_at ? 'MERGED' : (this.gh.issues.get(p.number)?.state.toUpperCase() ?? 'OPEN');
  }

  pull(p: FakePull): Model {
    const gh = this.gh;
    const i = gh.issues.get(p.number)!;
    return {
      ...this.issueLike(i, 'PullRequest', p.id),
      state: this.pullState(p),
      isDraft: p.draft,
      merged: p.merged_at !== null,
      mergedAt: p.merged_at,
      headRefName: p.head,
      baseRefName: p.base,
      headRefOid: () => headSha(gh, p),
      baseRefOid: async () => p.frozenBaseSha ?? (await gh.repo.branchSha(p.base)) ?? '0'.repeat(40),
      reviews: (args: PageArgs & { states?: string[] | null; author?: string | null }) =>
        connection(
          gh.reviews.filter((r) => r.pull === p.number && (!args.states || args.states.includes(r.state)) && (args.author == null || r.user === args.author)),
          args,
          (r) => this.review(r),
        ),
      // One thread per top-level review comment (a reply names its thread's first comment), oldest first.
      reviewThreads: (args: PageArgs) =>
        connection(
          gh.reviewComments.filter((c) => c.pull === p.number && c.in_reply_to === undefined).sort((a, b) => a.id - b.id),
          args,
          (c) => this.thread(c),
        ),
    };
  }

  issueComment(c: FakeComment): Model {
    return {
      __typename: 'IssueComment',
      id: this.nodeId('IssueComment', c.id),
      databaseId: c.id,
      fullDatabaseId: c.id,
      body: c.body,
      createdAt: c.created_at,
      updatedAt: c.updated_at,
      url: `${this.gh.serialize.repoWeb}/issues/${c.issue}#issuecomment-${c.id}`,
      isMinimized: false,
      author: () => this.actor(c.user),
      pullRequest: () => {
        const p = this.gh.pulls.get(c.issue);
        return p ? this.pull(p) : null;
      },
    };
  }

  review(r: FakeReview): Model {
    return {
      __typename: 'PullRequestReview',
      id: this.nodeId('PullRequestReview', r.id),
      databaseId: r.id,
      fullDatabaseId: r.id,
      state: r.state,
      body: r.body,
      submittedAt: r.state === 'PENDING' ? null : r.submitted_at,
      createdAt: r.submitted_at,
      url: `${this.gh.serialize.repoWeb}/pull/${r.pull}#pullrequestreview-${r.id}`,
      author: () => this.actor(r.user),
      pullRequest: () => this.pull(this.gh.pulls.get(r.pull)!),
      comments: (args: PageArgs) =>
        connection(
          this.gh.reviewComments.filter((c) => c.review === r.id).sort((a, b) => a.id - b.id),
          args,
          (c) => this.reviewComment(c),
        ),
    };
  }

  /** A review thread, known by its first comment; `isResolved` is kept there (model.ts). */
  thread(root: FakeReviewComment): Model {
    const resolved = root.resolved === true;
    return {
      __typename: 'PullRequestReviewThread',
      id: this.nodeId('PullRequestReviewThread', root.id),
      isResolved: resolved,
      isCollapsed: resolved,
      isOutdated: false,
      path: root.path,
      line: root.line,
      originalLine: root.line,
      diffSide: 'RIGHT',
      subjectType: 'LINE',
      pullRequest: () => this.pull(this.gh.pulls.get(root.pull)!),
      comments: (args: PageArgs) =>
        connection(
          this.gh.reviewComments.filter((c) => c.id === root.id || c.in_reply_to === root.id).sort((a, b) => a.id - b.id),
          args,
          (c) => this.reviewComment(c),
        ),
    };
  }

  reviewComment(c: FakeReviewComment): Model {
    const gh = this.gh;
    return {
      __typename: 'PullRequestReviewComment',
      id: this.nodeId('PullRequestReviewComment', c.id),
      databaseId: c.id,
      fullDatabaseId: c.id,
      body: c.body,
      path: c.path,
      line: c.line,
      originalLine: c.line,
      diffHunk: c.diff_hunk,
      createdAt: c.created_at,
      updatedAt: c.updated_at,
      url: `${gh.serialize.repoWeb}/pull/${c.pull}#discussion_r${c.id}`,
      outdated: false,
      state: 'SUBMITTED',
      author: () => this.actor(c.user),
      replyTo: () => {
        const root = c.in_reply_to === undefined ? undefined : gh.reviewComments.find((x) => x.id === c.in_reply_to);
        return root ? this.reviewComment(root) : null;
      },
      pullRequest: () => this.pull(gh.pulls.get(c.pull)!),
      pullRequestReview: () => {
        const r = gh.reviews.find((x) => x.id === c.review);
        return r ? this.review(r) : null;
      },
    };
  }

  /** `node(id)`: the ids these records hand out (the REST `node_id`s) lead back to them. */
  node(id: string): Model | null {
    const m = /^([A-Za-z]+):(\d+)$/.exec(Buffer.from(id, 'base64').toString('utf8'));
    const notFound = () => githubError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
    if (!m) throw notFound();
    const [kind, n] = [m[1]!, Number(m[2])];
    const gh = this.gh;
    const found = (() => {
      switch (kind) {
        case 'Repository':
          return n === gh.repoId ? this.repository() : null;
        case 'User':
        case 'Bot': {
          const u = [...gh.users.values()].find((x) => x.id === n && x.type === kind);
          return u ? this.actor(u.login) : null;
        }
        case 'Issue': {
          const i = [...gh.issues.values()].find((x) => x.id === n && !x.isPull);
          if (i) mayRead(this.ctx.principal, 'issues');
          return i ? this.issue(i) : null;
        }
        case 'PullRequest': {
          const p = [...gh.pulls.values()].find((x) => x.id === n);
          if (p) mayRead(this.ctx.principal, 'pull-requests');
          return p ? this.pull(p) : null;
        }
        case 'IssueComment': {
          const c = gh.comments.get(n);
          if (c) mayRead(this.ctx.principal, gh.pulls.has(c.issue) ? 'pull-requests' : 'issues');
          return c ? this.issueComment(c) : null;
        }
        case 'PullRequestReview': {
          const r = gh.reviews.find((x) => x.id === n);
          if (r) mayRead(this.ctx.principal, 'pull-requests');
          return r ? this.review(r) : null;
        }
        case 'PullRequestReviewComment':
        case 'PullRequestReviewThread': {
          const c = gh.reviewComments.find((x) => x.id === n && (kind === 'PullRequestReviewComment' || x.in_reply_to === undefined));
          if (c) mayRead(this.ctx.principal, 'pull-requests');
          return c ? (kind === 'PullRequestReviewThread' ? this.thread(c) : this.reviewComment(c)) : null;
        }
        default:
          return null;
      }
    })();
    if (!found) throw notFound();
    return found;
  }
}
