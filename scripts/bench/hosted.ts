import { Octokit } from '@octokit/core';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FIXTURE_IDENTITY, git } from '../../tests/support/git-cli';
import { FakeGitHub } from '../../tests/support/github/fake-github';
import { notePath, noteContent, SPEC, SPEC_PATH } from '../../tests/support/scenario/dag-scenario';

/**
 * What the baselines ask of GitHub. A single agent is claude-code-action; the seed's way
 * (claude-crew) is a Claude Code plugin, so on GitHub it runs inside the same action. Both are
 * played here against the fake GitHub with Octokit and git over loopback, and counted by the fake
 * exactly as crew's requests are: requests made with the workflow's GITHUB_TOKEN.
 *
 * The sequence is claude-code-action's in tag mode, for a comment on an issue, with `github_token`
 * given (as crew's workflow gives its own), read from that action's source:
 * - prepare: the commenter's permission, the commenter's user record (a human check), the
 *   tracking comment, the issue and its comments and the commenter's name (two GraphQL queries,
 *   counted, not sent: the fake serves only crew's one query), the repository (its default
 *   branch) and the base branch's ref; then git: ls-remote, a shallow fetch, a local branch;
 * - while the agent works, its prompt asks it to update the tracking comment with each finished
 *   task, besides the checklist itself and the two set-up items: tasks + 3 comment edits;
 *   commits are pushed with git;
 * - the last step: the tracking comment, the branch, a compare against the base (for the
 *   "Create a PR" link), and the final edit of the comment.
 * It opens no pull request: the person who asked follows the link. crew opens, reviews and
 * merges one, which is part of what its own count pays for.
 */

export interface HostedRequests {
  /** REST requests with the workflow's token. */
  total: number;
  writes: number;
  /** GraphQL queries the design sends (not REST; a separate rate limit). */
  graphql: number;
  /** git over HTTPS: checkout, fetch, push. */
  git: number;
}

/** Two GraphQL queries: the issue with its comments, and the commenter's display name. */
const GRAPHQL_QUERIES = 2;
/** Tracking-comment edits besides one per task: the checklist, and the two set-up items ticked. */
const EDITS_BEYOND_TASKS = 3;

export async function hostedRequests(tasks: number): Promise<HostedRequests> {
  const dir = await mkdtemp(join(tmpdir(), 'crew-bench-hosted-'));
  const gh = await FakeGitHub.start({ root: join(dir, 'gh'), files: { 'README.md': '# widgets\n', [SPEC_PATH]: SPEC } });
  try {
    gh.addUser('maintainer', { permission: 'write' });
    const person = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    const repo = { owner: gh.owner, repo: gh.repoName };
    const issue = (await person.request('POST /repos/{owner}/{repo}/issues', { ...repo, title: 'Write the notes', body: 'Write every note.' })).data.number;
    await person.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repo, issue_number: issue, body: '@claude please do this' });

    const token = gh.actionsToken({ contents: 'write', issues: 'write', 'pull-requests': 'write' });
    const action = new Octokit({ auth: token, baseUrl: gh.url });
    const header = `http.extraheader=AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
    const work = join(dir, 'work');
    const g = (args: string[]) => git(['-c', header, ...args], { cwd: work, env: FIXTURE_IDENTITY });

    // actions/checkout, before the action starts.
    await git(['-c', header, 'clone', '--quiet', '--depth=1', gh.cloneUrl, work], { env: FIXTURE_IDENTITY });

    // Prepare.
    await action.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', { ...repo, username: 'maintainer' });
    await action.request('GET /users/{username}', { username: 'maintainer' });
    const tracking = (
      await action.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repo, issue_number: issue, body: 'Claude Code is working…' })
    ).data.id;
    const base = (await action.request('GET /repos/{owner}/{repo}', repo)).data.default_branch;
    await action.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...repo, ref: `heads/${base}` });
    const branch = `claude/issue-${issue}-bench`;
    await g(['ls-remote', '--quiet', 'origin', `refs/heads/${base}`]);
    await g(['fetch', '--quiet', '--depth=1', 'origin', base]);
    await g(['checkout', '--quiet', '-b', branch]);

    // The agent's work: a commit per task, the tracking comment kept current.
    const edit = (body: string) => action.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repo, comment_id: tracking, body });
    for (let k = 0; k < EDITS_BEYOND_TASKS; k++) await edit(`Claude Code is working… (${k + 1})`);
    for (let t = 1; t <= tasks; t++) {
      const id = `t${t}`;
      const file = join(work, notePath(id));
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, noteContent(id));
      await g(['add', '-A']);
      await g(['commit', '--quiet', '-m', `Write ${notePath(id)}`]);
      await edit(`- [x] ${id}`);
    }
    await g(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);

    // The last step.
    await action.request('GET /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...repo, comment_id: tracking });
    await action.request('GET /repos/{owner}/{repo}/branches/{branch}', { ...repo, branch });
    await action.request('GET /repos/{owner}/{repo}/compare/{basehead}', { ...repo, basehead: `${base}...${branch}` });
    await edit('Claude finished. [Create a PR](…)');

    if (gh.violations.length) throw new Error(`hosted baseline: the fake GitHub saw violations: ${gh.violations.slice(0, 3).join('; ')}`);
    const counts = gh.requestCounts('actions');
    return { total: counts.total, writes: counts.writes, graphql: GRAPHQL_QUERIES, git: gh.gitRequests.length };
  } finally {
    await gh.close();
    await rm(dir, { recursive: true, force: true });
  }
}
