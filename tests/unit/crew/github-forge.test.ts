import { Octokit } from '@octokit/core';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { GitHubForge, numberId, PullRequestsNotAllowed, restId } from '../../../src/adapters/github/forge';
import type { Log } from '../../../src/ports';
import { FakeGitHub } from '../../support/github/fake-github';
import { forgeOn } from '../../support/github/forge-on';
import { git } from '../../support/git-cli';
import { fakeGitHubForTest } from '../../support/github/for-test';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

const PERMISSION = 'GET /repos/{owner}/{repo}/collaborators/{username}/permission';

describe('GitHubForge against the fake GitHub', () => {
  let gh: FakeGitHub;
  let dir: string;
  let forge: GitHubForge;
  let people: Octokit;
  let issue: number;

  const makeForge = async (scopes: Parameters<FakeGitHub['actionsToken']>[0]) => {
    process.env.GITHUB_API_URL = gh.url;
    return forgeOn(gh, gh.actionsToken(scopes), log);
  };

  beforeEach(async () => {
    ({ gh, dir } = await fakeGitHubForTest({
      prefix: 'forge-',
      apiUrl: true,
      files: {
        'README.md': 'hi\n',
        '.github/workflows/crew.yml': 'on:\n  workflow_dispatch:\n    inputs:\n      issue: { required: true }\njobs: {}\n',
      },
    }));
    gh.addUser('maintainer', { permission: 'write' });
    gh.addUser('mallory', { permission: 'read' });
    people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    issue = (await people.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'T' })).data.number;
    forge = await makeForge({ contents: 'write', issues: 'write', 'pull-requests': 'write', actions: 'write' });
  });

  it('knows its login without GET /user, which a workflow token may not call', async () => {
    expect(await forge.botLogin()).toBe('github-actions[bot]');
    expect(gh.requests.filter((r) => r.route === 'GET /user')).toEqual([]);
  });

  it('reads permissions the way GitHub reports them', async () => {
    expect(await forge.permissionOf('maintainer')).toBe('write');
    expect(await forge.permissionOf('mallory')).toBe('read');
    expect(await forge.permissionOf(gh.owner)).toBe('admin');
  });

  it('asks about each person once per job, a failed answer included, so a run of reviews is no request storm', async () => {
    gh.addUser('keeper', { permission: 'maintain' });
    gh.addFaults({ route: PERMISSION, status: 404, times: 1 });
    await expect(forge.permissionOf('mallory')).rejects.toThrow();
    await expect(forge.permissionOf('Mallory')).rejects.toThrow();
    expect(await forge.permissionOf('keeper')).toBe('write'); // maintain is write in the legacy `permission`
    expect(await forge.permissionOf('keeper')).toBe('write');
    expect(gh.requests.filter((r) => r.route === PERMISSION).map((r) => r.path.split('/').at(-2))).toEqual(['mallory', 'keeper']);
  });

  it('finds its own marked comment among 150, and never one someone else wrote with the same marker', async () => {
    const marker = '<!-- crew:plan issue=1 run=1 -->';
    const mallory = new Octokit({ auth: gh.userToken('mallory'), baseUrl: gh.url });
    await mallory.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner: gh.owner,
      repo: gh.repoName,
      issue_number: issue,
      body: `${marker} spoofed`,
    });
    // Seeded directly: 148 comments through the API would trip GitHub's secondary rate limit, as the fake enforces.
    for (let i = 0; i < 148; i++) {
      const id = gh.nextId('comment');
      gh.comments.set(id, { id, issue, body: `comment ${i}`, user: 'maintainer', created_at: gh.now(), updated_at: gh.now(), reactions: [] });
    }
    expect(await forge.findComment(issue, marker, 'github-actions[bot]')).toBeUndefined();
    const mine = await forge.postComment(issue, `${marker} real`);
    expect(await forge.findComment(issue, marker, 'github-actions[bot]')).toEqual(mine);
    const pages = gh.requests.filter((r) => r.route === 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments');
    expect(pages.length).toBe(2 + 2); // 150 comments = two pages of 100, searched twice
  });

  it('redacts secrets from everything it posts: comments, edits, PR titles and bodies', async () => {
    const c = await forge.postComment(issue, `token ghp_${'a'.repeat(36)} leaked`);
    // The hidden key at the end lets a retry find a comment whose answer was lost (github-faults.test.ts).
    expect(gh.comments.get(c.id)!.body).toMatch(/^token \*\*\* leaked\n\n<!-- crew:post key=[0-9a-f]{12} -->$/);
    await forge.updateComment(c.id, `now sk-ant-api03-${'b'.repeat(20)}`);
    expect(gh.comments.get(c.id)!.body).toBe('now ***');
    const work = join(dir, 'work');
    await git(['clone', '--quiet', gh.repoDir, work]);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '--allow-empty', '-m', 'x'], { cwd: work });
    await git(['push', '--quiet', 'origin', 'HEAD:refs/heads/crew/1/r1/integration'], { cwd: work });
    const pr = await forge.createPull({
      title: 'Add AKIAIOSFODNN7EXAMPLE',
      body: `key xoxb-1234567890-abcdefghij`,
      head: 'crew/1/r1/integration',
      base: 'main',
    });
    expect([gh.issues.get(pr.number)!.title, gh.issues.get(pr.number)!.body]).toEqual(['Add ***', 'key ***']);
    await forge.updatePull(pr.number, { title: `t github_pat_${'c'.repeat(30)}`, body: 'b eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop' });
    expect([gh.issues.get(pr.number)!.title, gh.issues.get(pr.number)!.body]).toEqual(['t ***', 'b ***']);
  });

  it('opens a PR once: a second create finds the first', async () => {
    const work = join(dir, 'work');
    await git(['clone', '--quiet', gh.repoDir, work]);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '--allow-empty', '-m', 'x'], { cwd: work });
    await git(['push', '--quiet', 'origin', 'HEAD:refs/heads/crew/1/r1/integration'], { cwd: work });
    const input = { title: 'T', body: 'Closes #1', head: 'crew/1/r1/integration', base: 'main' };
    const first = await forge.createPull(input);
    const second = await forge.createPull(input);
    expect(second.number).toBe(first.number);
    expect(await forge.findOpenPull('crew/1/r1/integration', 'main')).toEqual(first);
    gh.settings.actions_can_create_pull_requests = false;
    await git(['push', '--quiet', 'origin', 'HEAD:refs/heads/crew/2/r1/integration'], { cwd: work });
    await expect(forge.createPull({ ...input, head: 'crew/2/r1/integration' })).rejects.toBeInstanceOf(PullRequestsNotAllowed);
  });

  it('reads review threads with whether each is resolved, and replies to a thread’s first comment only', async () => {
    const work = join(dir, 'work');
    await git(['clone', '--quiet', gh.repoDir, work]);
    await git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '--allow-empty', '-m', 'x'], { cwd: work });
    await git(['push', '--quiet', 'origin', 'HEAD:refs/heads/crew/1/r1/integration'], { cwd: work });
    const pr = await forge.createPull({ title: 'T', body: 'b', head: 'crew/1/r1/integration', base: 'main' });
    const line = (body: string) =>
      people.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', {
        owner: gh.owner,
        repo: gh.repoName,
        pull_number: pr.number,
        body,
        commit_id: pr.headSha,
        path: 'README.md',
        line: 1,
        side: 'RIGHT',
      });
    const first = (await line('Rename this')).data;
    const second = (await line('And this')).data;
    expect(second.id).toBeGreaterThan(2 ** 31);
    await people.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies', {
      owner: gh.owner,
      repo: gh.repoName,
      pull_number: pr.number,
      comment_id: first.id,
      body: 'Also here',
    });
    gh.reviewComments.find((c) => c.id === second.id)!.resolved = true;
    const threads = await forge.reviewThreads(pr.number);
    expect(threads.map((t) => [t.rootId, t.resolved, t.comments.map((c) => `${c.author.login}:${c.path}:${c.line}:${c.body}`)])).toEqual([
      [first.id, false, ['maintainer:README.md:1:Rename this', 'maintainer:README.md:1:Also here']],
      [second.id, true, ['maintainer:README.md:1:And this']],
    ]);
    expect(threads[0]!.comments[0]!.diffHunk).toBe('@@ -1,1 +1,1 @@\n+hi');
    // Resolution comes only from GraphQL; the query passed the schema check (not a violation), its ids past 2^31 read as fullDatabaseId.
    expect(gh.requests.filter((r) => r.route === 'POST /graphql').length).toBe(1);
    await forge.replyInThread(pr.number, numberId(first.id), 'Addressed in abc1234.');
    const replies = gh.reviewComments.filter((c) => c.in_reply_to === first.id);
    expect(replies.map((c) => [c.user, c.body])).toEqual([
      ['maintainer', 'Also here'],
      ['github-actions[bot]', 'Addressed in abc1234.'],
    ]);
    // GitHub refuses a reply to a reply.
    await expect(forge.replyInThread(pr.number, replies[0]!.id, 'no')).rejects.toThrow(/Not Found/);
  });

  it('without pull-requests: read, GitHub will not list review threads, and crew says so', async () => {
    const narrow = await makeForge({ contents: 'write', issues: 'write' });
    await expect(narrow.reviewThreads(issue)).rejects.toThrow();
  });

  it('lists the work legs a run started, and those still going in dispatched runs of its own workflow since a time', async () => {
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const now = Date.parse('2026-11-26T12:00:00Z');
    const run = (id: number, o: { event?: string; path?: string; status?: 'in_progress' | 'completed'; createdAt: number }) =>
      gh.recordWorkflowRun({
        id,
        event: o.event ?? 'workflow_dispatch',
        path: o.path ?? '.github/workflows/crew.yml',
        status: o.status ?? 'in_progress',
        createdAt: iso(o.createdAt),
      });
    let jobId = 500;
    const job = (runId: number, name: string, status: 'in_progress' | 'completed', conclusion: 'failure' | 'skipped' | null = null) =>
      gh.recordWorkflowJob({
        id: ++jobId,
        runId,
        name,
        headSha: '',
        headBranch: 'main',
        workflowName: 'crew',
        status,
        conclusion,
        startedAt: iso(now),
        completedAt: status === 'completed' ? iso(now) : null,
        steps: [],
        log: '',
      });
    run(11, { createdAt: now });
    job(11, 'work (t2)', 'in_progress');
    job(11, 'work (t3)', 'completed', 'failure');
    job(11, 'route', 'completed', 'skipped');
    run(12, { createdAt: now - 60 * 60_000 }); // before the claim
    job(12, 'work (t4)', 'in_progress');
    run(13, { createdAt: now, path: '.github/workflows/other.yml' }); // another workflow
    job(13, 'work (t5)', 'in_progress');
    run(14, { createdAt: now, event: 'issue_comment' }); // crew's, but not a dispatch
    job(14, 'work (t6)', 'in_progress');
    run(15, { createdAt: now, status: 'completed' });
    job(15, 'work (t7)', 'in_progress');
    // The short form: crew's jobs are called from the repository's job `crew`, and GitHub names them after it.
    run(16, { createdAt: now });
    job(16, 'crew / work (t8)', 'in_progress');
    job(16, 'crew / work (t9)', 'completed', 'failure');
    job(16, 'crew / route', 'completed', 'skipped');

    expect((await forge.workLegsStarted('11')).sort()).toEqual(['t2', 't3']);
    expect((await forge.workLegsStarted('16')).sort()).toEqual(['t8', 't9']);
    expect(await forge.workLegsStarted('99')).toEqual([]);
    expect((await forge.workLegsRunning(iso(now - 60_000))).sort()).toEqual(['t2', 't8']);
    const listed = gh.requests.filter((r) => r.route === 'GET /repos/{owner}/{repo}/actions/runs');
    expect(listed.map((r) => r.status)).toEqual([200]);
  });

  it('dispatches its own workflow, which the fake turns into an event', async () => {
    const events: string[] = [];
    gh.onEvent((e) => events.push(`${e.name}:${JSON.stringify(e.payload.inputs)}`));
    await forge.dispatch({ issue: '1' });
    expect(events).toEqual(['workflow_dispatch:{"issue":"1"}']);
  });

  it('fails with GitHub’s answer when the token lacks a permission', async () => {
    const weak = await makeForge({ issues: 'read' });
    await expect(weak.postComment(issue, 'x')).rejects.toThrow(/Resource not accessible by integration/);
  });
});

describe("the merge gate's checks leave out crew's own jobs", () => {
  let gh: FakeGitHub;
  beforeEach(async () => {
    ({ gh } = await fakeGitHubForTest({ prefix: 'forge-checks-', apiUrl: true }));
  });

  it('its own run’s jobs without a request, other runs of crew.yml by their path, and your checks stay, a same-named one included', async () => {
    const sha = (await gh.repo.branchSha('main'))!;
    gh.recordWorkflowRun({ id: 2, path: '.github/workflows/crew.yml', headSha: sha, status: 'in_progress' });
    gh.recordWorkflowRun({ id: 3, name: 'CI', path: '.github/workflows/ci.yml', headSha: sha, headBranch: 'main', status: 'in_progress' });
    gh.recordJobCheckRun({ runId: 1, headSha: sha, name: 'merge', conclusion: null });
    gh.recordJobCheckRun({ runId: 2, headSha: sha, name: 'merge', conclusion: 'failure' });
    gh.recordJobCheckRun({ runId: 3, headSha: sha, name: 'test', conclusion: null });
    const ci = new Octokit({ auth: gh.appToken('ci', { checks: 'write' }), baseUrl: gh.url });
    // A check of yours named like a crew job, older than crew's: GitHub's `latest` filter would hide it.
    await ci.request('POST /repos/{owner}/{repo}/check-runs', {
      owner: gh.owner,
      repo: gh.repoName,
      name: 'merge',
      head_sha: sha,
      status: 'completed',
      conclusion: 'success',
    });
    gh.recordJobCheckRun({ runId: 1, headSha: sha, name: 'merge', conclusion: null });
    const forge = forgeOn(gh, gh.actionsToken({ checks: 'read', statuses: 'read', actions: 'read' }), log, { runId: '1' });
    const checks = await forge.checksOn(sha);
    expect(checks.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'merge', status: 'completed', conclusion: 'success' },
      {
        name: 'test',
        status: 'in_progress',
        conclusion: null,
        // A GitHub Actions job of another workflow comes with its run as GitHub tells it: the merge gate names and links it, fix_ci reads it.
        run: {
          id: 3,
          workflow: 'CI',
          path: '.github/workflows/ci.yml',
          url: `${gh.url}/${gh.owner}/${gh.repoName}/actions/runs/3`,
          status: 'in_progress',
          conclusion: null,
          headSha: sha,
          headBranch: 'main',
          headRepo: `${gh.owner}/${gh.repoName}`,
        },
      },
    ]);
    // One look-up per other run, none for its own.
    expect(gh.requests.filter((r) => r.route === 'GET /repos/{owner}/{repo}/actions/runs/{run_id}').length).toBe(2);
  });

  it('each reading tells a run as GitHub tells it then: a CI run read while going is read again once it has failed; crew’s own runs are looked up once', async () => {
    const sha = (await gh.repo.branchSha('main'))!;
    gh.recordWorkflowRun({ id: 2, path: '.github/workflows/crew.yml', headSha: sha, status: 'in_progress' });
    gh.recordWorkflowRun({ id: 3, name: 'CI', path: '.github/workflows/ci.yml', headSha: sha, headBranch: 'main', status: 'in_progress' });
    gh.recordJobCheckRun({ runId: 2, headSha: sha, name: 'merge', conclusion: null });
    const lint = gh.recordJobCheckRun({ runId: 3, headSha: sha, name: 'lint', conclusion: null });
    const forge = forgeOn(gh, gh.actionsToken({ checks: 'read', statuses: 'read', actions: 'read' }), log, { runId: '1' });
    const runOf = async () => (await forge.checksOn(sha)).map((c) => ({ name: c.name, status: c.run?.status, conclusion: c.run?.conclusion }));
    expect(await runOf()).toEqual([{ name: 'lint', status: 'in_progress', conclusion: null }]);
    // CI fails, and the same job (a run's end, after its merge gate waited for it) reads the head's checks again.
    gh.recordJobCheckRun({ runId: 3, headSha: sha, name: 'lint', conclusion: 'failure', id: lint });
    gh.recordWorkflowRun({ id: 3, status: 'completed', conclusion: 'failure' });
    expect(await runOf()).toEqual([{ name: 'lint', status: 'completed', conclusion: 'failure' }]);
    const lookUps = gh.requests.filter((r) => r.route === 'GET /repos/{owner}/{repo}/actions/runs/{run_id}').map((r) => r.path);
    expect(lookUps.filter((u) => u.endsWith('/actions/runs/3'))).toHaveLength(2);
    expect(lookUps.filter((u) => u.endsWith('/actions/runs/2'))).toHaveLength(1);
  });

  it('without checks: read (a workflow copied before the job needed it), the refusal names the permissions to add', async () => {
    const sha = (await gh.repo.branchSha('main'))!;
    const forge = forgeOn(gh, gh.actionsToken({ contents: 'write', actions: 'write' }), log, { runId: '1' });
    await expect(forge.checksOn(sha)).rejects.toThrow(
      /^GitHub refused to list the checks on [0-9a-f]{7} \(403: .*\): give this job `checks: read` and `statuses: read`, as the README's workflow does$/,
    );
    gh.violations.length = 0; // the 403 is GitHub's answer to a token without checks: read
  });

  it('without actions: read, another run’s jobs count (waiting is safe) and crew says what to give the merge job', async () => {
    const sha = (await gh.repo.branchSha('main'))!;
    gh.recordWorkflowRun({ id: 2, path: '.github/workflows/crew.yml', headSha: sha, status: 'in_progress' });
    gh.recordJobCheckRun({ runId: 2, headSha: sha, name: 'merge', conclusion: null });
    const warnings: string[] = [];
    const forge = forgeOn(gh, gh.actionsToken({ checks: 'read', statuses: 'read' }), { ...log, warn: (m) => void warnings.push(m) }, { runId: '1' });
    expect(await forge.checksOn(sha)).toEqual([{ name: 'merge', status: 'in_progress', conclusion: null }]);
    expect(warnings.join('\n')).toMatch(/could not tell whether workflow run 2 is crew's .*give the merge job `actions: read`/);
    gh.violations.length = 0; // the 403 is GitHub's answer to a token without actions: read
  });
});

describe('restId', () => {
  it('reads a GraphQL BigInt as a REST id only when it is digits a JSON number holds exactly', () => {
    expect(restId('2300000001')).toBe(2_300_000_001);
    expect(restId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect([restId('9007199254740993'), restId('-1'), restId('1e9'), restId(''), restId(null), restId(undefined)]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
