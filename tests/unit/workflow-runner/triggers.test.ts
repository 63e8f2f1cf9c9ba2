import { afterEach, describe, expect, it } from 'vitest';
import { Octokit } from '@octokit/core';
import { git } from '../../support/git-cli';
import { OUT, job, startWorld, workflow, writeAction, type World } from './helpers';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const COMMENT_ECHO = `name: on-created
on:
  issue_comment:
    types: [created]
jobs:
  echo:
    runs-on: ubuntu-latest
    outputs:
      body: \${{ github.event.comment.body }}
      action: \${{ github.event.action }}
    steps:
      - run: echo "seen"
`;

const ANY_COMMENT = `name: on-any
on: issue_comment
jobs:
  echo:
    runs-on: ubuntu-latest
    outputs:
      action: \${{ github.event.action }}
      number: \${{ github.run_number }}
    steps:
      - run: echo "seen"
`;

const PUSH_ONLY = `name: on-push
on:
  push:
    branches: [main]
jobs:
  never:
    runs-on: ubuntu-latest
    steps:
      - run: echo "must not run"
`;

describe('which workflows an event starts', () => {
  it('runs only the workflows that listen to the event, and honours `types`', async () => {
    world = await startWorld({
      files: {
        'README.md': '# widgets\n',
        '.github/workflows/created.yml': COMMENT_ECHO,
        '.github/workflows/any.yml': ANY_COMMENT,
        '.github/workflows/push.yml': PUSH_ONLY,
        '.github/workflows/notes.txt': 'not a workflow file',
        '.github/workflows/broken.yml': 'on: issue_comment\njobs:\n  x:\n    runs-on: ubuntu-latest\n',
      },
    });
    const { gh, runner } = world;
    world.gh.addUser('alice', { permission: 'write' });
    const alice = world.as('alice');
    const { data: issue } = await alice.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'a bug' });
    await runner.idle();
    expect(runner.runs).toHaveLength(0); // nothing listens to `issues`

    const { data: comment } = await alice.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner: gh.owner,
      repo: gh.repoName,
      issue_number: issue.number,
      body: 'first words',
    });
    await runner.idle();
    expect(runner.runs.map((r) => `${r.event}.${r.action}`).sort()).toEqual(['issue_comment.created', 'issue_comment.created']);
    const created = runner.runs.find((r) => job(r, 'echo').outputs.body !== undefined)!;
    expect(job(created, 'echo').outputs).toEqual({ body: 'first words', action: 'created' });
    expect(runner.runs.every((r) => r.actor === 'alice' && r.status === 'completed')).toBe(true);

    await alice.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
      owner: gh.owner,
      repo: gh.repoName,
      comment_id: comment.id,
      body: 'second thoughts',
    });
    await runner.idle();
    // Only the workflow without `types` reacts to `edited`.
    expect(runner.runs).toHaveLength(3);
    const edited = runner.runs[2]!;
    expect(edited.action).toBe('edited');
    // run_number counts the runs of each workflow on its own.
    expect(job(edited, 'echo').outputs).toEqual({ action: 'edited', number: '2' });
    expect(runner.runs.map((r) => `${r.workflow}#${r.number}`).sort()).toEqual([
      '.github/workflows/any.yml#1',
      '.github/workflows/any.yml#2',
      '.github/workflows/created.yml#1',
    ]);
    expect(runner.runs.flatMap((r) => r.jobs.map((j) => j.id))).not.toContain('never');
    // A broken workflow file fails on its own (reported for each event); the other workflows still run.
    expect(runner.errors.length).toBeGreaterThan(0);
    for (const e of runner.errors) expect(e).toContain('.github/workflows/broken.yml: jobs.x.steps must be a list');
    expect(world.gh.violations).toEqual([]);
  });

  it('gives steps the event payload at GITHUB_EVENT_PATH and the GITHUB_* variables', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/created.yml': COMMENT_ECHO.replace('      - run: echo "seen"', '      - id: probe\n        uses: someone/probe@v1').replace(
          'body: ${{ github.event.comment.body }}',
          'body: ${{ steps.probe.outputs.body }}\n      env: ${{ steps.probe.outputs.env }}',
        ),
      },
      actions: async (dir) => ({
        probe: await writeAction(
          dir,
          'probe',
          `${OUT}
import { readFileSync } from 'node:fs';
const event = JSON.parse(readFileSync(process.env.GITHUB_EVENT_PATH, 'utf8'));
out('body', event.comment.body + ' on #' + event.issue.number + ' by ' + event.sender.login);
const names = ['GITHUB_EVENT_NAME', 'GITHUB_JOB', 'GITHUB_REF', 'GITHUB_REPOSITORY', 'GITHUB_ACTOR', 'GITHUB_ACTIONS', 'CI'];
out('env', names.map((n) => n + '=' + process.env[n]).join(' '));
`,
        ),
      }),
    });
    const { gh } = world;
    const { data: issue } = await world.owner.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'x' });
    await world.owner.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner: gh.owner,
      repo: gh.repoName,
      issue_number: issue.number,
      body: '/crew go',
    });
    await world.settle();
    const echo = job(world.runner.runs[0]!, 'echo');
    expect(echo.result).toBe('success');
    expect(echo.outputs.body).toBe(`/crew go on #${issue.number} by acme`);
    expect(echo.outputs.env).toBe(
      'GITHUB_EVENT_NAME=issue_comment GITHUB_JOB=echo GITHUB_REF=refs/heads/main GITHUB_REPOSITORY=acme/widgets GITHUB_ACTOR=acme GITHUB_ACTIONS=true CI=true',
    );
  });
});

const CHAIN = `name: chain
on:
  workflow_dispatch:
    inputs:
      depth:
        required: true
permissions:
  actions: write
jobs:
  hop:
    runs-on: ubuntu-latest
    outputs:
      depth: \${{ inputs.depth }}
      via-event: \${{ github.event.inputs.depth }}
      status: \${{ steps.d.outputs.status }}
    steps:
      - id: d
        uses: someone/dispatcher@v1
        with:
          depth: \${{ inputs.depth }}
`;

describe('workflow_dispatch', () => {
  it('starts a new run when a job dispatches, and idle() waits for runs started by runs', async () => {
    world = await startWorld({
      files: { '.github/workflows/chain.yml': CHAIN },
      actions: async (dir) => ({
        dispatcher: await writeAction(
          dir,
          'dispatcher',
          `${OUT}
const depth = Number(process.env.INPUT_DEPTH);
if (depth < 2) {
  const url = process.env.GITHUB_API_URL + '/repos/' + process.env.GITHUB_REPOSITORY + '/actions/workflows/chain.yml/dispatches';
  const r = await fetch(url, {
    method: 'POST',
    headers: { authorization: 'Bearer ' + process.env.INPUT_TOKEN, 'content-type': 'application/json', accept: 'application/vnd.github+json' },
    body: JSON.stringify({ ref: 'main', inputs: { depth: String(depth + 1) } }),
  });
  out('status', String(r.status));
}
// Linger, so a runner that stopped waiting early would see this run unfinished.
await new Promise((r) => setTimeout(r, 250));
`,
          { depth: undefined, token: '${{ github.token }}' },
        ),
      }),
    });
    await world.dispatch('chain.yml', { depth: '0' });
    await world.runner.idle();
    const { runs } = world.runner;
    expect(runs).toHaveLength(3);
    expect(runs.every((r) => r.status === 'completed' && r.event === 'workflow_dispatch')).toBe(true);
    expect(runs.map((r) => job(r, 'hop').outputs)).toEqual([
      { depth: '0', 'via-event': '0', status: '204' },
      { depth: '1', 'via-event': '1', status: '204' },
      { depth: '2', 'via-event': '2', status: '' },
    ]);
    expect(runs.map((r) => r.actor)).toEqual(['acme', 'github-actions[bot]', 'github-actions[bot]']);
    expect(world.runner.errors).toEqual([]);
    expect(world.gh.violations).toEqual([]);
  });

  it('runs only the dispatched workflow, and a token without actions: write cannot dispatch', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/chain.yml': CHAIN.replace('actions: write', 'actions: read'),
        '.github/workflows/other.yml': workflow('  other:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo other\n'),
      },
      actions: async (dir) => ({
        dispatcher: await writeAction(
          dir,
          'dispatcher',
          `${OUT}
const url = process.env.GITHUB_API_URL + '/repos/' + process.env.GITHUB_REPOSITORY + '/actions/workflows/chain.yml/dispatches';
const r = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer ' + process.env.INPUT_TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ ref: 'main', inputs: { depth: '9' } }) });
out('status', String(r.status));
`,
          { depth: undefined, token: '${{ github.token }}' },
        ),
      }),
    });
    await world.dispatch('chain.yml', { depth: '0' });
    await world.settle({ denials: true });
    expect(world.runner.runs).toHaveLength(1);
    expect(job(world.runner.runs[0]!, 'hop').outputs.status).toBe('403');
  });

  it('does not start runs for events a job causes with its GITHUB_TOKEN (other than dispatch)', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/comment.yml': workflow(`  speak:
    runs-on: ubuntu-latest
    permissions:
      issues: write
    steps:
      - run: |
          curl -sf -X POST -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \\
            -d '{"body":"from the job"}' "$GITHUB_API_URL/repos/$GITHUB_REPOSITORY/issues/1/comments" > /dev/null
        env:
          TOKEN: \${{ secrets.GITHUB_TOKEN }}
`),
        '.github/workflows/listen.yml': ANY_COMMENT,
      },
    });
    const { gh } = world;
    await world.owner.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'x' });
    await world.dispatch('comment.yml');
    await world.settle();
    expect(job(world.runner.runs[0]!, 'speak').result).toBe('success');
    expect([...gh.comments.values()].map((c) => `${c.user}: ${c.body}`)).toEqual(['github-actions[bot]: from the job']);
    expect(world.runner.runs).toHaveLength(1);
  });
});

const REVIEW_PROBE = `name: on-review
on:
  pull_request_review:
    types: [submitted]
permissions:
  checks: read
jobs:
  look:
    runs-on: ubuntu-latest
    outputs:
      env: \${{ steps.probe.outputs.env }}
      own: \${{ steps.probe.outputs.own }}
    steps:
      - id: probe
        uses: someone/probe@v1
        with:
          token: \${{ github.token }}
`;

const PUSH_ANY = `name: on-any-push
on: push
jobs:
  ci:
    runs-on: ubuntu-latest
    steps:
      - run: echo "CI on $GITHUB_REF at $GITHUB_SHA"
`;

describe('GitHub-side facts the runner plays', () => {
  it('a review starts a run on refs/pull/N/merge (the test merge of head into base), and each job is a check run on the PR head, in progress while it runs', async () => {
    world = await startWorld({
      files: { 'README.md': '# widgets\n', '.github/workflows/review.yml': REVIEW_PROBE },
      actions: async (dir) => ({
        probe: await writeAction(
          dir,
          'probe',
          `${OUT}
const names = ['GITHUB_EVENT_NAME', 'GITHUB_REF', 'GITHUB_REF_NAME', 'GITHUB_SHA', 'GITHUB_HEAD_REF', 'GITHUB_BASE_REF'];
out('env', names.map((n) => n + '=' + process.env[n]).join(' '));
const event = JSON.parse((await import('node:fs')).readFileSync(process.env.GITHUB_EVENT_PATH, 'utf8'));
const res = await fetch(process.env.GITHUB_API_URL + '/repos/' + process.env.GITHUB_REPOSITORY + '/commits/' + event.pull_request.head.sha + '/check-runs', { headers: { authorization: 'Bearer ' + process.env.INPUT_TOKEN } });
const runs = (await res.json()).check_runs;
const own = runs.find((r) => r.details_url.includes('/actions/runs/' + process.env.GITHUB_RUN_ID + '/job/'));
out('own', own ? own.name + ' ' + own.status + ' ' + own.app.slug : 'none');
`,
          { token: undefined },
        ),
      }),
    });
    const { gh } = world;
    gh.addUser('alice', { permission: 'write' });
    const head = await gh.repo.writeCommit({ branch: 'feature', files: { 'NOTES.md': 'notes\n' }, message: 'Add notes', from: 'main' });
    const base = (await gh.repo.branchSha('main'))!;
    const { data: pr } = await world.owner.request('POST /repos/{owner}/{repo}/pulls', {
      owner: gh.owner,
      repo: gh.repoName,
      head: 'feature',
      base: 'main',
      title: 'Notes',
    });
    await world
      .as('alice')
      .request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { owner: gh.owner, repo: gh.repoName, pull_number: pr.number, event: 'APPROVE' });
    await world.settle();
    const merge = (await gh.repo.resolve(`refs/pull/${pr.number}/merge`))!;
    expect((await gh.repo.commitInfo(merge)).parents).toEqual([base, head]);
    expect(await gh.repo.resolve(`refs/pull/${pr.number}/head`)).toBe(head);
    const look = job(world.runner.runs[0]!, 'look');
    expect(look.outputs.env).toBe(
      `GITHUB_EVENT_NAME=pull_request_review GITHUB_REF=refs/pull/${pr.number}/merge GITHUB_REF_NAME=${pr.number}/merge GITHUB_SHA=${merge} GITHUB_HEAD_REF=feature GITHUB_BASE_REF=main`,
    );
    expect(look.outputs.own).toBe('look in_progress github-actions');
    const checks = gh.checkRuns.filter((c) => c.head_sha === head);
    expect(checks.map((c) => [c.name, c.status, c.conclusion, c.app])).toEqual([['look', 'completed', 'success', 'github-actions[bot]']]);
  });

  it('a closed pull request starts `pull_request_target` workflows in the default branch’s context, even when it conflicts; `pull_request` ones need a clean merge', async () => {
    const probe = (trigger: string) => `name: on-${trigger}
on:
  ${trigger}:
    types: [closed]
jobs:
  look:
    runs-on: ubuntu-latest
    outputs:
      env: \${{ steps.probe.outputs.env }}
      merged: \${{ github.event.pull_request.merged }}
    steps:
      - id: probe
        uses: someone/probe@v1
`;
    world = await startWorld({
      files: {
        'README.md': '# widgets\n',
        '.github/workflows/target.yml': probe('pull_request_target'),
        '.github/workflows/pull.yml': probe('pull_request'),
      },
      actions: async (dir) => ({
        probe: await writeAction(
          dir,
          'probe',
          `${OUT}
const names = ['GITHUB_EVENT_NAME', 'GITHUB_REF', 'GITHUB_SHA', 'GITHUB_HEAD_REF', 'GITHUB_BASE_REF'];
out('env', names.map((n) => n + '=' + process.env[n]).join(' '));
`,
        ),
      }),
    });
    const { gh } = world;
    gh.addUser('alice', { permission: 'write' });
    // The pull request and main both change README.md: they conflict.
    await gh.repo.writeCommit({ branch: 'feature', files: { 'README.md': '# feature\n' }, message: 'feature', from: 'main' });
    const main = await gh.repo.writeCommit({ branch: 'main', files: { 'README.md': '# main\n' }, message: 'main moves on' });
    const { data: pr } = await world.owner.request('POST /repos/{owner}/{repo}/pulls', {
      owner: gh.owner,
      repo: gh.repoName,
      head: 'feature',
      base: 'main',
      title: 'Feature',
    });
    await world
      .as('alice')
      .request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { owner: gh.owner, repo: gh.repoName, pull_number: pr.number, state: 'closed' });
    await world.settle();
    expect(world.runner.runs.map((r) => `${r.workflow}:${r.event}:${r.action}`)).toEqual(['.github/workflows/target.yml:pull_request_target:closed']);
    const look = job(world.runner.runs[0]!, 'look');
    expect(look.outputs.env).toBe(
      `GITHUB_EVENT_NAME=pull_request_target GITHUB_REF=refs/heads/main GITHUB_SHA=${main} GITHUB_HEAD_REF=feature GITHUB_BASE_REF=main`,
    );
    expect(look.outputs.merged).toBe('false');

    // A clean pull request merged by a person starts both, and says it was merged.
    await gh.repo.writeCommit({ branch: 'clean', files: { 'NOTES.md': 'notes\n' }, message: 'notes', from: 'main' });
    const { data: second } = await world.owner.request('POST /repos/{owner}/{repo}/pulls', {
      owner: gh.owner,
      repo: gh.repoName,
      head: 'clean',
      base: 'main',
      title: 'Notes',
    });
    await world.as('alice').request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { owner: gh.owner, repo: gh.repoName, pull_number: second.number });
    await world.settle();
    const later = world.runner.runs.slice(1);
    expect(later.map((r) => `${r.workflow}:${r.event}`).sort()).toEqual([
      '.github/workflows/pull.yml:pull_request',
      '.github/workflows/target.yml:pull_request_target',
    ]);
    expect(later.map((r) => job(r, 'look').outputs.merged)).toEqual(['true', 'true']);

    // Closed with a workflow's GITHUB_TOKEN: no run, as for every event that token causes.
    await gh.repo.writeCommit({ branch: 'third', files: { 'C.md': 'c\n' }, message: 'c', from: 'main' });
    const { data: third } = await world.owner.request('POST /repos/{owner}/{repo}/pulls', {
      owner: gh.owner,
      repo: gh.repoName,
      head: 'third',
      base: 'main',
      title: 'C',
    });
    const bot = new Octokit({ auth: gh.actionsToken({ 'pull-requests': 'write' }), baseUrl: gh.url });
    await bot.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { owner: gh.owner, repo: gh.repoName, pull_number: third.number, state: 'closed' });
    await world.settle();
    expect(world.runner.runs).toHaveLength(3);
  });

  it('a push by a person fires `push` with the workflows of the pushed commit and honours `branches`; a workflow token’s push starts nothing', async () => {
    world = await startWorld({
      files: { 'README.md': '# widgets\n', '.github/workflows/main-only.yml': PUSH_ONLY, '.github/workflows/any.yml': PUSH_ANY },
      actions: async (dir) => ({
        pusher: await writeAction(
          dir,
          'pusher',
          `import { execFileSync } from 'node:child_process';
const auth = 'AUTHORIZATION: basic ' + Buffer.from('x-access-token:' + process.env.INPUT_TOKEN).toString('base64');
const git = (...a) => execFileSync('git', ['-c', 'http.extraheader=' + auth, ...a], { cwd: process.env.GITHUB_WORKSPACE });
git('init', '-q', '.'); git('fetch', '-q', process.env.GITHUB_SERVER_URL + '/' + process.env.GITHUB_REPOSITORY + '.git', 'main');
git('push', '-q', process.env.GITHUB_SERVER_URL + '/' + process.env.GITHUB_REPOSITORY + '.git', 'FETCH_HEAD:refs/heads/from-the-token');
`,
          { token: undefined },
        ),
      }),
    });
    const { gh } = world;
    const person = gh.userToken(gh.owner);
    const clone = `${world.dir}/clone`;
    const auth = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${person}`).toString('base64')}`;
    await git(['-c', `http.extraheader=${auth}`, 'clone', '-q', gh.cloneUrl, clone]);
    await git(['-c', 'user.name=acme', '-c', 'user.email=acme@example.com', 'commit', '-q', '--allow-empty', '-m', 'feature work'], { cwd: clone });
    await git(['-c', `http.extraheader=${auth}`, 'push', '-q', 'origin', 'HEAD:refs/heads/feature'], { cwd: clone });
    await world.settle();
    expect(world.runner.runs.map((r) => [r.workflow, r.event, r.actor])).toEqual([['.github/workflows/any.yml', 'push', 'acme']]);
    const pushedTo = (await gh.repo.branchSha('feature'))!;
    expect(world.runner.runs[0]!.headSha).toBe(pushedTo);

    // The same push made with a job's GITHUB_TOKEN fires nothing.
    const before = world.runner.runs.length;
    const tokenWorkflow = `name: token-push\non: workflow_dispatch\npermissions:\n  contents: write\njobs:\n  push:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: someone/pusher@v1\n        with:\n          token: \${{ github.token }}\n`;
    await gh.repo.writeCommit({ branch: 'main', files: { '.github/workflows/token.yml': tokenWorkflow }, message: 'token workflow' });
    await world.dispatch('token.yml');
    await world.settle();
    expect(await gh.repo.branchSha('from-the-token')).toBeDefined();
    expect(world.runner.runs.slice(before).map((r) => r.workflow)).toEqual(['.github/workflows/token.yml']);
  });
});

describe('timeout-minutes', () => {
  it('a job that runs past its timeout-minutes is cancelled and fails, with GitHub’s annotation; one within it succeeds', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/slow.yml': workflow(`  slow:
    runs-on: ubuntu-latest
    timeout-minutes: 1
    steps:
      - run: sleep 30
  quick:
    runs-on: ubuntu-latest
    timeout-minutes: 1
    steps:
      - run: echo done
`),
      },
      // One minute is 0.6 s of real time.
      jobTimeScale: 0.01,
    });
    await world.dispatch('slow.yml');
    await world.settle();
    const run = world.runner.runs[0]!;
    expect(job(run, 'slow').result).toBe('failure');
    expect(job(run, 'slow').annotations.map((a) => a.message)).toContain(
      'The job running on runner fake-runner has exceeded the maximum execution time of 1 minutes.',
    );
    expect(job(run, 'quick').result).toBe('success');
    expect(world.gh.checkRuns.map((c) => [c.name, c.conclusion]).sort()).toEqual([
      ['quick', 'success'],
      ['slow', 'failure'],
    ]);
  });
});
