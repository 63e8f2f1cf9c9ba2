import type { GitCommit, GitFileChange } from './bare-repo';
import type {
  FakeCheckRun,
  FakeComment,
  FakeRelease,
  FakeIssue,
  FakeLabel,
  FakePull,
  FakeReaction,
  FakeReview,
  FakeReviewComment,
  FakeStatus,
  FakeUser,
  RepoSettings,
} from './model';

/** Turns the fake's records into the JSON GitHub serves, field for field as its OpenAPI description requires. */
export class Serializer {
  constructor(
    private readonly api: string,
    private readonly web: string,
    readonly owner: string,
    readonly repo: string,
    readonly repoId: number,
    private readonly userOf: (login: string) => FakeUser,
    /** Like userOf, but undefined for a login the fake does not know. */
    private readonly findUser: (login: string) => FakeUser | undefined,
  ) {}

  get repoApi(): string {
    return `${this.api}/repos/${this.owner}/${this.repo}`;
  }
  get repoWeb(): string {
    return `${this.web}/${this.owner}/${this.repo}`;
  }

  nodeId(kind: string, id: number): string {
    return Buffer.from(`${kind}:${id}`).toString('base64').replace(/=+$/, '');
  }

  user(login: string) {
    const u = this.userOf(login);
    const url = `${this.api}/users/${encodeURIComponent(u.login)}`;
    return {
      login: u.login,
      id: u.id,
      node_id: this.nodeId(u.type, u.id),
      avatar_url: `${this.web}/avatars/u/${u.id}`,
      gravatar_id: '',
      url,
      html_url: `${this.web}/${u.type === 'Bot' ? 'apps/' + u.login.replace(/\[bot\]$/, '') : u.login}`,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
      type: u.type,
      user_view_type: 'public',
      site_admin: false,
    };
  }

  publicUser(login: string, createdAt: string) {
    const u = this.userOf(login);
    return {
      ...this.user(login),
      name: u.name,
      company: null,
      blog: '',
      location: null,
      email: null,
      hireable: null,
      bio: null,
      twitter_username: null,
      public_repos: 1,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: createdAt,
      updated_at: createdAt,
    };
  }

  repository(
    settings: RepoSettings,
    defaultBranch: string,
    createdAt: string,
    permissions?: { admin: boolean; maintain: boolean; push: boolean; triage: boolean; pull: boolean },
  ) {
    const url = this.repoApi;
    return {
      id: this.repoId,
      node_id: this.nodeId('Repository', this.repoId),
      name: this.repo,
      full_name: `${this.owner}/${this.repo}`,
      private: settings.private,
      owner: this.user(this.owner),
      html_url: this.repoWeb,
      description: null,
      fork: false,
      url,
      archive_url: `${url}/{archive_format}{/ref}`,
      assignees_url: `${url}/assignees{/user}`,
      blobs_url: `${url}/git/blobs{/sha}`,
      branches_url: `${url}/branches{/branch}`,
      collaborators_url: `${url}/collaborators{/collaborator}`,
      comments_url: `${url}/comments{/number}`,
      commits_url: `${url}/commits{/sha}`,
      compare_url: `${url}/compare/{base}...{head}`,
      contents_url: `${url}/contents/{+path}`,
      contributors_url: `${url}/contributors`,
      deployments_url: `${url}/deployments`,
      downloads_url: `${url}/downloads`,
      events_url: `${url}/events`,
      forks_url: `${url}/forks`,
      git_commits_url: `${url}/git/commits{/sha}`,
      git_refs_url: `${url}/git/refs{/sha}`,
      git_tags_url: `${url}/git/tags{/sha}`,
      git_url: `git:${this.repoWeb.replace(/^https?:/, '')}.git`,
      issue_comment_url: `${url}/issues/comments{/number}`,
      issue_events_url: `${url}/issues/events{/number}`,
      issues_url: `${url}/issues{/number}`,
      keys_url: `${url}/keys{/key_id}`,
      labels_url: `${url}/labels{/name}`,
      languages_url: `${url}/languages`,
      merges_url: `${url}/merges`,
      milestones_url: `${url}/milestones{/number}`,
      notifications_url: `${url}/notifications{?since,all,participating}`,
      pulls_url: `${url}/pulls{/number}`,
      releases_url: `${url}/releases{/id}`,
      ssh_url: `git@127.0.0.1:${this.owner}/${this.repo}.git`,
      stargazers_url: `${url}/stargazers`,
      statuses_url: `${url}/statuses/{sha}`,
      subscribers_url: `${url}/subscribers`,
      subscription_url: `${url}/subscription`,
      tags_url: `${url}/tags`,
      teams_url: `${url}/teams`,
      trees_url: `${url}/git/trees{/sha}`,
      clone_url: `${this.repoWeb}.git`,
      mirror_url: null,
      hooks_url: `${url}/hooks`,
      svn_url: this.repoWeb,
      homepage: null,
      language: null,
      forks_count: 0,
      forks: 0,
      stargazers_count: 0,
      watchers_count: 0,
      watchers: 0,
      size: 1,
      default_branch: defaultBranch,
      open_issues_count: 0,
      open_issues: 0,
      is_template: false,
      topics: [],
      has_issues: true,
      has_projects: false,
      has_wiki: false,
      has_pages: false,
      has_downloads: true,
      has_discussions: false,
      archived: false,
      disabled: false,
      visibility: settings.private ? 'private' : 'public',
      pushed_at: createdAt,
      created_at: createdAt,
      updated_at: createdAt,
      ...(permissions ? { permissions } : {}),
      allow_rebase_merge: settings.allow_rebase_merge,
      allow_squash_merge: settings.allow_squash_merge,
      allow_merge_commit: settings.allow_merge_commit,
      allow_auto_merge: false,
      delete_branch_on_merge: settings.delete_branch_on_merge,
      allow_update_branch: false,
      allow_forking: true,
      web_commit_signoff_required: false,
      subscribers_count: 0,
      network_count: 0,
      license: null,
    };
  }

  label(l: FakeLabel) {
    return {
      id: l.id,
      node_id: this.nodeId('Label', l.id),
      url: `${this.repoApi}/labels/${encodeURIComponent(l.name)}`,
      name: l.name,
      description: l.description,
      color: l.color,
      default: false,
    };
  }

  reactionRollup(reactions: FakeReaction[], url: string) {
    const count = (c: string) => reactions.filter((r) => r.content === c).length;
    return {
      url,
      total_count: reactions.length,
      '+1': count('+1'),
      '-1': count('-1'),
      laugh: count('laugh'),
      confused: count('confused'),
      heart: count('heart'),
      hooray: count('hooray'),
      eyes: count('eyes'),
      rocket: count('rocket'),
    };
  }

  reaction(r: FakeReaction) {
    return { id: r.id, node_id: this.nodeId('Reaction', r.id), user: this.user(r.user), content: r.content, created_at: r.created_at };
  }

  issue(i: FakeIssue, labels: FakeLabel[], commentCount: number, authorAssociation: string, pull?: { merged_at: string | null }) {
    const url = `${this.repoApi}/issues/${i.number}`;
    return {
      id: i.id,
      node_id: this.nodeId('Issue', i.id),
      url,
      repository_url: this.repoApi,
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: `${this.repoWeb}/${i.isPull ? 'pull' : 'issues'}/${i.number}`,
      number: i.number,
      state: i.state,
      state_reason: i.state_reason,
      title: i.title,
      body: i.body,
      user: this.user(i.user),
      labels: labels.map((l) => this.label(l)),
      assignee: i.assignees[0] ? this.user(i.assignees[0]) : null,
      assignees: i.assignees.map((a) => this.user(a)),
      milestone: null,
      locked: i.locked,
      active_lock_reason: null,
      comments: commentCount,
      ...(pull
        ? {
            pull_request: {
              url: `${this.repoApi}/pulls/${i.number}`,
              html_url: `${this.repoWeb}/pull/${i.number}`,
              diff_url: `${this.repoWeb}/pull/${i.number}.diff`,
              patch_url: `${this.repoWeb}/pull/${i.number}.patch`,
              merged_at: pull.merged_at,
            },
          }
        : {}),
      closed_at: i.closed_at,
      created_at: i.created_at,
      updated_at: i.updated_at,
      closed_by: null,
      author_association: authorAssociation,
      reactions: this.reactionRollup(i.reactions, `${url}/reactions`),
      timeline_url: `${url}/timeline`,
      performed_via_github_app: null,
    };
  }

  comment(c: FakeComment, authorAssociation: string) {
    const url = `${this.repoApi}/issues/comments/${c.id}`;
    return {
      id: c.id,
      node_id: this.nodeId('IssueComment', c.id),
      url,
      html_url: `${this.repoWeb}/issues/${c.issue}#issuecomment-${c.id}`,
      body: c.body,
      user: this.user(c.user),
      created_at: c.created_at,
      updated_at: c.updated_at,
      issue_url: `${this.repoApi}/issues/${c.issue}`,
      author_association: authorAssociation,
      performed_via_github_app: null,
      reactions: this.reactionRollup(c.reactions, `${url}/reactions`),
    };
  }

  branchRef(branch: string, sha: string, repository: unknown, owner = this.owner) {
    return { label: `${owner}:${branch}`, ref: branch, sha, user: this.user(owner), repo: repository };
  }

  /** `owner`'s fork of this repository: the same object under another owner, with `fork: true`. */
  forkRepository(base: Record<string, unknown>, owner: string) {
    const id = this.repoId + 1 + [...owner].reduce((n, c) => n + c.charCodeAt(0), 0);
    const api = `${this.api}/repos/${owner}/${this.repo}`;
    return {
      ...base,
      id,
      node_id: this.nodeId('Repository', id),
      full_name: `${owner}/${this.repo}`,
      owner: this.user(owner),
      html_url: `${this.web}/${owner}/${this.repo}`,
      url: api,
      fork: true,
    };
  }

  reviewComment(c: FakeReviewComment, authorAssociation: string) {
    const url = `${this.repoApi}/pulls/comments/${c.id}`;
    const html = `${this.repoWeb}/pull/${c.pull}#discussion_r${c.id}`;
    const pull = `${this.repoApi}/pulls/${c.pull}`;
    return {
      url,
      pull_request_review_id: c.review,
      id: c.id,
      node_id: this.nodeId('PullRequestReviewComment', c.id),
      diff_hunk: c.diff_hunk,
      path: c.path,
      commit_id: c.commit_id,
      original_commit_id: c.commit_id,
      user: this.user(c.user),
      body: c.body,
      created_at: c.created_at,
      updated_at: c.updated_at,
      html_url: html,
      pull_request_url: pull,
      author_association: authorAssociation,
      _links: { self: { href: url }, html: { href: html }, pull_request: { href: pull } },
      line: c.line,
      original_line: c.line,
      side: 'RIGHT',
      subject_type: 'line',
      ...(c.in_reply_to !== undefined ? { in_reply_to_id: c.in_reply_to } : {}),
    };
  }

  pull(
    issue: FakeIssue,
    p: FakePull,
    headSha: string,
    baseSha: string,
    repository: unknown,
    labels: FakeLabel[],
    authorAssociation: string,
    extra?: {
      mergeable: boolean | null;
      mergeable_state: string;
      counts: { commits: number; additions: number; deletions: number; changed_files: number; comments: number };
    },
  ) {
    const url = `${this.repoApi}/pulls/${p.number}`;
    const html = `${this.repoWeb}/pull/${p.number}`;
    const link = (href: string) => ({ href });
    return {
      url,
      id: p.id,
      node_id: this.nodeId('PullRequest', p.id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: `${this.repoApi}/issues/${p.number}`,
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${this.repoApi}/pulls/comments{/number}`,
      comments_url: `${this.repoApi}/issues/${p.number}/comments`,
      statuses_url: `${this.repoApi}/statuses/${headSha}`,
      number: p.number,
      state: issue.state,
      locked: issue.locked,
      title: issue.title,
      user: this.user(issue.user),
      body: issue.body,
      labels: labels.map((l) => this.label(l)),
      milestone: null,
      active_lock_reason: null,
      created_at: issue.created_at,
      updated_at: issue.updated_at,
      closed_at: issue.closed_at,
      merged_at: p.merged_at,
      merge_commit_sha: p.merge_commit_sha,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      head: p.fork
        ? this.branchRef(p.head, headSha, this.forkRepository(repository as Record<string, unknown>, p.fork.owner), p.fork.owner)
        : this.branchRef(p.head, headSha, repository),
      base: this.branchRef(p.base, baseSha, repository),
      _links: {
        self: link(url),
        html: link(html),
        issue: link(`${this.repoApi}/issues/${p.number}`),
        comments: link(`${this.repoApi}/issues/${p.number}/comments`),
        review_comments: link(`${url}/comments`),
        review_comment: link(`${this.repoApi}/pulls/comments{/number}`),
        commits: link(`${url}/commits`),
        statuses: link(`${this.repoApi}/statuses/${headSha}`),
      },
      author_association: authorAssociation,
      auto_merge: null,
      draft: p.draft,
      ...(extra
        ? {
            merged: p.merged_at !== null,
            mergeable: extra.mergeable,
            rebaseable: extra.mergeable,
            mergeable_state: extra.mergeable_state,
            merged_by: p.merged_by ? this.user(p.merged_by) : null,
            comments: extra.counts.comments,
            review_comments: 0,
            maintainer_can_modify: false,
            commits: extra.counts.commits,
            additions: extra.counts.additions,
            deletions: extra.counts.deletions,
            changed_files: extra.counts.changed_files,
          }
        : {}),
    };
  }

  review(r: FakeReview, authorAssociation: string) {
    const html = `${this.repoWeb}/pull/${r.pull}#pullrequestreview-${r.id}`;
    return {
      id: r.id,
      node_id: this.nodeId('PullRequestReview', r.id),
      user: this.user(r.user),
      body: r.body,
      state: r.state,
      html_url: html,
      pull_request_url: `${this.repoApi}/pulls/${r.pull}`,
      _links: { html: { href: html }, pull_request: { href: `${this.repoApi}/pulls/${r.pull}` } },
      submitted_at: r.submitted_at,
      commit_id: r.commit_id,
      author_association: authorAssociation,
    };
  }

  checkRun(c: FakeCheckRun) {
    const url = `${this.repoApi}/check-runs/${c.id}`;
    return {
      id: c.id,
      head_sha: c.head_sha,
      node_id: this.nodeId('CheckRun', c.id),
      external_id: '',
      url,
      html_url: `${this.repoWeb}/runs/${c.id}`,
      details_url: c.details_url ?? `${this.repoWeb}/runs/${c.id}`,
      status: c.status,
      conclusion: c.conclusion,
      started_at: c.started_at,
      completed_at: c.completed_at,
      output: { title: null, summary: null, text: null, annotations_count: 0, annotations_url: `${url}/annotations` },
      name: c.name,
      check_suite: { id: c.id },
      app: this.app(c.app),
      pull_requests: [],
    };
  }

  /** The GitHub App behind a check run, named after its bot login (`github-actions[bot]` → github-actions). */
  app(botLogin: string) {
    const slug = botLogin.replace(/\[bot\]$/, '');
    const id = [...slug].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 1_000_000, 7) + 15_000;
    return {
      id,
      slug,
      node_id: this.nodeId('Integration', id),
      owner: this.user(this.owner),
      name: slug === 'github-actions' ? 'GitHub Actions' : slug,
      description: null,
      external_url: `${this.web}/apps/${slug}`,
      html_url: `${this.web}/apps/${slug}`,
      created_at: '2018-07-30T09:30:17Z',
      updated_at: '2024-04-10T20:33:16Z',
      permissions: { checks: 'write', metadata: 'read' },
      events: [],
    };
  }

  status(s: FakeStatus) {
    return {
      url: `${this.repoApi}/statuses/${s.sha}`,
      avatar_url: null,
      id: s.id,
      node_id: this.nodeId('StatusContext', s.id),
      state: s.state,
      description: s.description,
      target_url: s.target_url,
      context: s.context,
      created_at: s.created_at,
      updated_at: s.updated_at,
      creator: this.user(s.creator),
    };
  }

  /**
   * The account GitHub links a commit's author or committer to. GitHub goes by the
   * email; the fake knows only no-reply addresses (`41898282+github-actions[bot]@users.noreply.github.com`,
   * what its merge button commits with), and gives null for any other, as GitHub does for an unknown email.
   */
  private commitUser(email: string) {
    const m = /^(?:(\d+)\+)?([^@]+)@users\.noreply\.github\.com$/i.exec(email);
    const u = m ? this.findUser(m[2]!) : undefined;
    if (!u || (m![1] !== undefined && Number(m![1]) !== u.id)) return null;
    return this.user(u.login);
  }

  /** A commit as GitHub's REST API describes it (the `commit` schema), without its files and stats. */
  commit(c: GitCommit) {
    const url = `${this.repoApi}/commits/${c.sha}`;
    return {
      url,
      sha: c.sha,
      node_id: Buffer.from(`06:Commit${this.repoId}:${c.sha}`).toString('base64'),
      html_url: `${this.repoWeb}/commit/${c.sha}`,
      comments_url: `${url}/comments`,
      commit: {
        url: `${this.repoApi}/git/commits/${c.sha}`,
        author: { ...c.author },
        committer: { ...c.committer },
        message: c.message,
        tree: { sha: c.tree, url: `${this.repoApi}/git/trees/${c.tree}` },
        comment_count: 0,
        verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
      },
      author: this.commitUser(c.author.email),
      committer: this.commitUser(c.committer.email),
      parents: c.parents.map((p) => ({ sha: p, url: `${this.repoApi}/commits/${p}`, html_url: `${this.repoWeb}/commit/${p}` })),
    };
  }

  /**
   * One entry of a comparison's `files` (the `diff-entry` schema). Links name the file at
   * `ref`: the head commit, or for a removed file the commit it was removed from.
   */
  diffEntry(f: GitFileChange, ref: string) {
    const path = f.filename.split('/').map(encodeURIComponent).join('/');
    return {
      sha: f.blob,
      filename: f.filename,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
      changes: f.additions + f.deletions,
      blob_url: `${this.repoWeb}/blob/${ref}/${path}`,
      raw_url: `${this.repoWeb}/raw/${ref}/${path}`,
      contents_url: `${this.repoApi}/contents/${path}?ref=${ref}`,
      ...(f.patch !== undefined ? { patch: f.patch } : {}),
      ...(f.previousFilename !== undefined ? { previous_filename: f.previousFilename } : {}),
    };
  }

  release(r: FakeRelease) {
    const url = `${this.repoApi}/releases/${r.id}`;
    return {
      url,
      html_url: `${this.repoWeb}/releases/tag/${encodeURIComponent(r.tag_name)}`,
      assets_url: `${url}/assets`,
      upload_url: `${this.api.replace('://', '://uploads.')}/repos/${this.owner}/${this.repo}/releases/${r.id}/assets{?name,label}`,
      tarball_url: `${this.repoApi}/tarball/${encodeURIComponent(r.tag_name)}`,
      zipball_url: `${this.repoApi}/zipball/${encodeURIComponent(r.tag_name)}`,
      id: r.id,
      node_id: this.nodeId('Release', r.id),
      tag_name: r.tag_name,
      target_commitish: r.target_commitish,
      name: r.name,
      body: r.body,
      draft: r.draft,
      prerelease: r.prerelease,
      immutable: false,
      created_at: r.created_at,
      published_at: r.published_at,
      updated_at: r.created_at,
      author: this.user(r.author),
      assets: [],
    };
  }

  gitRef(ref: string, sha: string) {
    return {
      ref,
      node_id: this.nodeId('Ref', ref.length),
      url: `${this.repoApi}/git/${ref}`,
      object: { type: 'commit', sha, url: `${this.repoApi}/git/commits/${sha}` },
    };
  }
}
