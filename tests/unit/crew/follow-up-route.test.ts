import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Octokit } from '@octokit/core';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { parseConfig } from '../../../src/config/schema';
import { GITHUB } from '../../../src/domain/surface';
import { readEvent, type CrewEvent } from '../../../src/event';
import type { Log } from '../../../src/ports';
import { paths, readRun, writeRun } from '../../../src/state/run-files';
import type { StepContext } from '../../../src/steps/context';
import { route } from '../../../src/steps/route';
import { FakeGitHub, type GitHubEvent } from '../../support/github/fake-github';
import { fakeGitHubForTest } from '../../support/github/for-test';
import { forgeOn } from '../../support/github/forge-on';
import { MemoryState } from './memory-state';
import { plan, view } from './run-fixtures';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';

/**
 * The route job's follow-up paths against the fake GitHub, with crew/state in memory: a `/crew`
 * on crew's own pull request (in the conversation or as a single review comment), refused while a
 * run of the issue is active, and refused on a closed pull request. Events are the fake's own
 * webhook payloads, read by crew's event parser. Planning itself is the e2e scenarios' part.
 */
describe('route: follow-ups on crew’s own pull request', () => {
  let gh: FakeGitHub;
  let people: Octokit;
  let state: MemoryState;
  let pull: number;
  let planCommentId: number;
  const events: GitHubEvent[] = [];
  const infos: string[] = [];
  const log: Log = { info: (m) => void infos.push(m), warn: (m) => void infos.push(m), checkpoint: () => undefined };
  /** Thrown where planning would begin: what comes after the run is created is not this test's. */
  const PLANNING = new Error('planning starts here');

  beforeEach(async () => {
    ({ gh } = await fakeGitHubForTest({ prefix: 'follow-up-route-', apiUrl: true }));
    gh.addUser('maintainer', { permission: 'write' });
    events.length = 0;
    infos.length = 0;
    gh.onEvent((e) => void events.push(e));
    people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    const issue = (
      await people.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'Add shout', body: 'Add a shout function.' })
    ).data.number;
    expect(issue).toBe(1);
    await gh.repo.writeCommit({
      branch: 'crew/1/r1/integration',
      from: 'main',
      files: { 'src/index.js': 'export const shout = (t) => t.toUpperCase();\n' },
      message: 'crew: t1',
    });
    pull = (
      await people.request('POST /repos/{owner}/{repo}/pulls', {
        owner: gh.owner,
        repo: gh.repoName,
        title: 'Add shout',
        head: 'crew/1/r1/integration',
        base: 'main',
      })
    ).data.number;
    state = new MemoryState();
    // Run 1 of issue #1 is done: its plan comment on the issue, its pull request, its plan.
    planCommentId = (await forgeOn(gh, gh.actionsToken({ issues: 'write' }), log).postComment(1, '<!-- crew:plan issue=1 run=1 -->run 1')).id;
    await state.update('issue-1/', 'run 1', (tx) => {
      writeRun(
        tx,
        {
          ...view([]).run,
          issue: 1,
          run: 1,
          phase: 'COMPLETED',
          planCommentId,
          pr: { number: pull, url: `${gh.url}/${gh.owner}/${gh.repoName}/pull/${pull}`, reportCommentId: null },
        },
        '2026-11-21T00:05:00Z',
      );
      tx.write(paths.planJson(1, 1), JSON.stringify(plan));
      tx.write(paths.requestJson(1, 1), JSON.stringify({ title: 'Add shout', body: 'Add a shout function.' }));
    });
  });

  /** A route job for `event` (a webhook the fake sent), with a token as the shipped workflow's route job holds. */
  async function routeJob(event: GitHubEvent): Promise<{ ctx: StepContext; run: Promise<void> }> {
    const dir = await mkdtemp(join(tmpdir(), 'follow-up-event-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'event.json'), JSON.stringify(event.payload));
    const parsed: CrewEvent = readEvent(event.name, join(dir, 'event.json'));
    let models = 0;
    const ctx = withPlanCommentSync({
      event: parsed,
      forge: forgeOn(gh, gh.actionsToken({ contents: 'read', issues: 'write', 'pull-requests': 'write' }), log),
      state,
      log,
      surface: GITHUB,
      runId: '900',
      clock: { now: () => new Date('2026-11-21T01:00:00Z') },
      config: async () => parseConfig(''),
      // startRun checks a model can be made; the next call is planning's.
      model: () => {
        if (models++ > 0) throw PLANNING;
        return {};
      },
      output: () => undefined,
      settings: { step: 'route' },
    } as unknown as StepContext);
    return { ctx, run: route(ctx) };
  }
  const lastEvent = (name: string) => events.filter((e) => e.name === name).at(-1)!;
  const crewSaidOn = (n: number) =>
    [...gh.comments.values()].filter((c) => c.issue === n && c.user !== 'maintainer').map((c) => c.body.replace(/\n\n<!-- crew:post key=[0-9a-f]+ -->$/, ''));

  it('a single review comment starting with /crew starts a follow-up; the note is on the pull request and the issue keeps one plan comment', async () => {
    const head = (await gh.repo.branchSha('crew/1/r1/integration'))!;
    const before = events.length;
    await people.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', {
      owner: gh.owner,
      repo: gh.repoName,
      pull_number: pull,
      body: '/crew fix trim the text before upper-casing it',
      path: 'src/index.js',
      line: 1,
      commit_id: head,
    });
    // GitHub sends both events for one line comment; the workflow starts route for the review comment.
    expect(events.slice(before).map((e) => e.name)).toEqual(['pull_request_review_comment', 'pull_request_review']);
    const { run } = await routeJob(lastEvent('pull_request_review_comment'));
    await expect(run).rejects.toBe(PLANNING);

    const snap = await state.load();
    const run2 = readRun(snap, 1, 2)!;
    expect(run2.phase).toBe('PLANNING');
    expect(run2.trigger).toMatchObject({ how: 'review_comment', workflowRunId: '900' });
    expect(run2.followUp).toMatchObject({ pull, k: 1, fromRun: 1, branch: 'crew/1/r1/integration', source: 'review', crewHead: null });
    expect(run2.base).toEqual({ branch: 'main', sha: head });
    const material = JSON.parse(snap.read(paths.followUp(1, 2))!) as { feedback: string; threads: Array<{ comments: Array<{ body: string }> }> };
    expect(material.feedback).toBe('trim the text before upper-casing it');
    // The comment is also an unresolved thread by a writer: intake reads its words (after the command) there too.
    expect(material.threads.map((t) => t.comments.map((c) => c.body))).toEqual([['trim the text before upper-casing it']]);
    // One live plan comment: run 1's, now run 2's, and the note on the pull request links it.
    expect(run2.planCommentId).toBe(planCommentId);
    expect(readRun(snap, 1, 1)!.planCommentPassedTo).toBe(2);
    expect(gh.comments.get(planCommentId)!.body).toMatch(/^<!-- crew:plan issue=1 run=2 -->/);
    expect(crewSaidOn(1)).toHaveLength(1);
    const [note] = crewSaidOn(pull);
    expect(note).toMatch(
      /^crew starts follow-up 1 on this pull request \(run 2 of #1\), asked by @maintainer: your words and 1 unresolved review thread become/,
    );
    expect(note).toContain(`#issuecomment-${planCommentId}`);

    // The review GitHub sends with it has no body: were route started for it, it starts nothing more.
    const review = await routeJob(lastEvent('pull_request_review'));
    await review.run;
    expect(readRun(await state.load(), 1, 3)).toBeUndefined();
    expect(infos).toContain('the review is not a /crew command; nothing to do');
  });

  it('a follow-up asked for while a run of the issue is active is refused with a comment on the pull request; nothing is created', async () => {
    const other = (await forgeOn(gh, gh.actionsToken({ issues: 'write' }), log).postComment(1, '<!-- crew:plan issue=1 run=2 -->run 2')).id;
    await state.update('issue-1/', 'run 2', (tx) => {
      writeRun(tx, { ...view([]).run, issue: 1, run: 2, phase: 'EXECUTING', planCommentId: other, pr: null }, '2026-11-21T00:06:00Z');
    });
    await people.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner: gh.owner,
      repo: gh.repoName,
      issue_number: pull,
      body: '/crew fix rename the option to --dry-run',
    });
    const { run } = await routeJob(lastEvent('issue_comment'));
    await run;

    expect(crewSaidOn(pull)).toEqual([
      `crew is still working on issue #1 (run 2, executing), so this follow-up did not start: two runs on one branch would push over each other. Follow it in [the plan comment](${gh.url}/${gh.owner}/${gh.repoName}/issues/1#issuecomment-${other}), then ask again once it has finished; your review comments stay unresolved, so the next follow-up reads them.`,
    ]);
    const snap = await state.load();
    expect(readRun(snap, 1, 3)).toBeUndefined();
    expect(readRun(snap, 1, 1)!.planCommentPassedTo).toBeNull();
    expect(gh.comments.get(planCommentId)!.body).toMatch(/^<!-- crew:plan issue=1 run=1 -->run 1\n/);
  });

  it('/crew fix on a closed crew pull request gets a comment that says why and what to do', async () => {
    await people.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { owner: gh.owner, repo: gh.repoName, pull_number: pull, state: 'closed' });
    await people.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner: gh.owner,
      repo: gh.repoName,
      issue_number: pull,
      body: '/crew fix rename the option to --dry-run',
    });
    const { run } = await routeJob(lastEvent('issue_comment'));
    await run;

    expect(crewSaidOn(pull)).toEqual([
      'This pull request is closed, so crew does not follow up on it. Comment `/crew run` on issue #1 to start a new run, which opens a new pull request.',
    ]);
    expect(readRun(await state.load(), 1, 2)).toBeUndefined();
  });
});
