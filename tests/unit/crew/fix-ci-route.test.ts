import { Octokit } from '@octokit/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/schema';
import { readEvent } from '../../../src/event';
import { loadTemplate } from '../../../src/templates';
import { GITHUB } from '../../../src/domain/surface';
import type { Log } from '../../../src/ports';
import type { StepContext } from '../../../src/steps/context';
import { route } from '../../../src/steps/route';
import { lookAtCiWhenRunEnds } from '../../../src/steps/ci-status';
import { replaceMergeSection } from '../../../src/render/report';
import type { ModelRequest } from '../../../src/ports';
import { paths, readRun } from '../../../src/state/run-files';
import { FRESH_REVIEW } from '../../../src/domain/run-state';
import type { FakeGitHub, GitHubEvent } from '../../support/github/fake-github';
import { fakeGitHubForTest } from '../../support/github/for-test';
import { numberId } from '../../../src/adapters/github/forge';
import { forgeOn } from '../../support/github/forge-on';
import { view } from './run-fixtures';
import { CountingState } from './memory-state';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';

const dir = mkdtempSync(join(tmpdir(), 'crew-fix-ci-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(EMPTY_CHECKOUT, { recursive: true, force: true });
});
const BRANCH = 'crew/1/r2/integration';
const LOG = [
  '2026-11-27T10:00:00.0000000Z ##[group]Run npm test',
  '2026-11-27T10:00:00.1000000Z ##[endgroup]',
  '2026-11-27T10:00:01.0000000Z \u001b[31mFAIL\u001b[39m tests/add.test.ts > adds',
  '2026-11-27T10:00:01.1000000Z AssertionError: expected 4 to be 3 (token ghp_abcdefghijklmnopqrstuvwxyz0123456789)',
  '2026-11-27T10:00:02.0000000Z ##[error]Process completed with exit code 1.',
  '2026-11-27T10:00:03.0000000Z Cleaning up orphan processes',
  '',
].join('\n');

/** Thrown by the model stub: the follow-up run started and reached its first model call (intake), where these tests stop. */
class StopAtIntake extends Error {}
/** The follow-up's checkout: empty, so the repository map reads nothing (the planning roles' tools are jailed to it). */
const EMPTY_CHECKOUT = mkdtempSync(join(tmpdir(), 'crew-fix-ci-checkout-'));

describe('route on a failed CI run (fix_ci)', () => {
  let gh: FakeGitHub;
  let store: CountingState;
  let pull: number;
  let planComment: number;
  let report: number;
  let lines: string[];
  let runs = 8_000_000_100;
  let issue: number;
  let intake: ModelRequest[];

  beforeEach(async () => {
    ({ gh } = await fakeGitHubForTest({ prefix: 'fix-ci-route-', apiUrl: true }));
    gh.addUser('maintainer', { permission: 'write' });
    gh.addUser('mallory');
    await gh.repo.writeCommit({
      branch: BRANCH,
      from: 'main',
      files: { 'src/add.ts': 'export const add = (a, b) => a - b;\n' },
      message: 'crew: integrate t1',
    });
    const people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    issue = (await people.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'Add' })).data.number;
    pull = (await people.request('POST /repos/{owner}/{repo}/pulls', { owner: gh.owner, repo: gh.repoName, title: 'Add', head: BRANCH, base: 'main' })).data
      .number;
    // The run's plan comment, on the issue, as crew posted it.
    const crew = new Octokit({ auth: gh.actionsToken({ issues: 'write', 'pull-requests': 'write' }), baseUrl: gh.url });
    planComment = numberId(
      (
        await crew.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
          owner: gh.owner,
          repo: gh.repoName,
          issue_number: issue,
          body: 'plan',
        })
      ).data.id,
    );
    // The report comment on the pull request, with the Merge section the gate edits in place.
    const section = replaceMergeSection('<!-- crew:report issue=1 run=2 -->\n## Report', null);
    report = numberId(
      (
        await crew.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
          owner: gh.owner,
          repo: gh.repoName,
          issue_number: pull,
          body: section,
        })
      ).data.id,
    );
    store = new CountingState();
    await finished(2);
    lines = [];
    intake = [];
  });

  /**
   * Run k of the issue as a finished run with crew's pull request, its report comment and a plan
   * (what a follow-up continues); its merge gate said what it says with `auto_merge` off.
   */
  async function finished(k: number, phase: 'COMPLETED' | 'EXECUTING' = 'COMPLETED') {
    const head = (await gh.repo.branchSha(BRANCH))!;
    const v = view(['success', 'success', 'success'], {
      issue,
      run: k,
      phase,
      planCommentId: planComment,
      pr: { number: pull, url: `${gh.url}/pull/${pull}`, reportCommentId: report },
      review: { ...FRESH_REVIEW, iteration: 1, verdict: 'PASS', headSha: head },
      merge: { state: 'not-merged', reason: GITHUB.noAutoMerge, headSha: head, mergeSha: null, at: '2026-11-27T10:00:00Z' },
    });
    // What the record already holds of the pull request's follow-ups and CI attempts stays.
    const old = store.files.get(paths.run(issue, k));
    const { fixCi, followUp } = old ? (JSON.parse(old) as { fixCi?: unknown; followUp?: unknown }) : {};
    store.files.set(paths.run(issue, k), JSON.stringify({ ...v.run, ...(fixCi ? { fixCi } : {}), ...(followUp ? { followUp } : {}) }, null, 2));
    store.files.set(paths.planJson(issue, k), JSON.stringify(v.plan, null, 2));
    // The critic passed the head as it is: only CI stands between it and a merge.
    store.files.set(paths.judgment(issue, k, 1), JSON.stringify({ iteration: 1, verdict: 'PASS', headSha: head, evaluations: [], adversarial: [] }));
  }

  /** A CI run that failed on the branch's head, its `test` job with LOG; the workflow_run event GitHub sends, as crew reads it. */
  async function ciFailed(over: { headBranch?: string; headOwner?: string; conclusion?: 'failure' | 'success'; unlisted?: boolean } = {}) {
    const id = ++runs;
    const headSha = (await gh.repo.branchSha(over.headBranch ?? BRANCH)) ?? 'f'.repeat(40);
    gh.recordWorkflowRun({
      id,
      name: 'CI',
      path: '.github/workflows/ci.yml',
      event: 'pull_request',
      headSha,
      headBranch: over.headBranch ?? BRANCH,
      ...(over.headOwner ? { headOwner: over.headOwner } : {}),
    });
    const base = { runId: id, headSha, headBranch: BRANCH, workflowName: 'CI', status: 'completed' as const, startedAt: gh.now(), completedAt: gh.now() };
    // Each job is a check run on the head, and its id is the job's (as on GitHub).
    const testJob = gh.recordJobCheckRun({ runId: id, headSha, name: 'test', conclusion: over.conclusion ?? 'failure' });
    const lintJob = gh.recordJobCheckRun({ runId: id, headSha, name: 'lint', conclusion: 'success' });
    gh.recordWorkflowJob({
      ...base,
      id: testJob,
      name: 'test',
      conclusion: over.conclusion ?? 'failure',
      steps: [{ name: 'Run npm test', conclusion: over.conclusion ?? 'failure', number: 1 }],
      log: LOG,
    });
    gh.recordWorkflowJob({ ...base, id: lintJob, name: 'lint', conclusion: 'success', steps: [], log: 'ok\n' });
    gh.recordWorkflowRun({ id, status: 'completed', conclusion: over.conclusion ?? 'failure' });
    const seen: GitHubEvent[] = [];
    const stop = gh.onEvent((e) => seen.push(e));
    await gh.workflowRunCompleted(id);
    stop();
    const path = join(dir, `event-${id}.json`);
    const payload = seen[0]!.payload as { workflow_run: { pull_requests: unknown[] } };
    if (over.unlisted) payload.workflow_run.pull_requests = [];
    writeFileSync(path, JSON.stringify(payload));
    return { id, headSha, testJob, event: readEvent('workflow_run', path) };
  }

  function context(event: StepContext['event'], configText: string): StepContext {
    const log: Log = { info: (m: string) => void lines.push(m), warn: (m: string) => void lines.push(`warn: ${m}`), checkpoint: () => undefined };
    return withPlanCommentSync({
      event,
      config: async () => parseConfig(configText),
      // The route job's token as the shipped workflow gives it.
      forge: forgeOn(
        gh,
        gh.actionsToken({ contents: 'write', issues: 'write', 'pull-requests': 'write', actions: 'write', checks: 'read', statuses: 'read' }),
        log,
      ),
      ciWorkflows: async () => ({ names: ['CI'] }),
      state: store,
      clock: { now: () => new Date('2026-11-27T10:05:00Z') },
      log,
      surface: GITHUB,
      runId: '7',
      template: (name: string) => loadTemplate(name),
      // Planning reads the agent instructions at the follow-up's base, from the fake's repository; the map of an empty checkout reads nothing more.
      repo: {
        readFileAt: async (rev: string, path: string) => (await gh.repo.readFile(rev, path)) ?? undefined,
        listFiles: async () => [],
        dir: EMPTY_CHECKOUT,
      },
      model: () => ({
        complete: async (req: ModelRequest) => {
          intake.push(req);
          throw new StopAtIntake('stopped at the follow-up’s first model call');
        },
      }),
      output: () => undefined,
    } as unknown as StepContext);
  }

  /** What crew said on the pull request, besides its report comment (whose Merge section the gate edits). */
  const comments = () => [...gh.comments.values()].filter((c) => c.issue === pull && c.id !== report).map((c) => c.body);
  const reader = { read: (p: string) => store.files.get(p), list: (pre: string) => [...store.files.keys()].filter((k) => k.startsWith(pre)) };
  const attempts = () => readRun(reader, issue, 2)!.fixCi;
  /** route, for a failure that starts a follow-up: it runs until the follow-up's intake asks the model. */
  const routeToIntake = async (ctx: StepContext) => {
    const e = await route(ctx).then(
      () => undefined,
      (x: unknown) => x,
    );
    if (!(e instanceof StopAtIntake)) throw e ?? new Error("route did not reach the follow-up's intake");
  };

  it('with fix_ci off: a logged skip, no comment, and no state write while the merge gate has nothing new to say (auto_merge off)', async () => {
    const { event } = await ciFailed();
    await route(context(event, ''));
    expect(comments()).toEqual([]);
    expect(store.commits).toBe(0);
    expect(lines).toContainEqual(
      expect.stringMatching(/^fix_ci: fix_ci is off in \.github\/crew\.yml \(CI failed on crew\/1\/r2\/integration\); crew does not fix it$/),
    );
  });

  it('with fix_ci off and auto_merge on, the failure reaches the merge gate: the report and the plan comment say which check failed, with its run, and what to do; the same result again edits nothing (#39)', async () => {
    const { id, headSha, event } = await ciFailed();
    await route(context(event, 'auto_merge: true\n'));
    const said = `the \`test\` check of \`CI\` failed on ${headSha.slice(0, 7)} ([run](${gh.url}/${gh.owner}/${gh.repoName}/actions/runs/${id})). Push a fix, or comment \`/crew fix …\`; crew merges once the checks pass`;
    expect(readRun(reader, issue, 2)!.merge).toMatchObject({ state: 'not-merged', reason: said, headSha });
    expect(gh.comments.get(report)!.body).toContain(`### Merge\n\nNot merged by crew: ${said}.\n<!-- /crew:merge -->`);
    expect(gh.comments.get(planComment)!.body).toContain(`· not merged by crew: ${said}`);
    expect(gh.comments.get(planComment)!.body).not.toMatch(/waiting/i);
    // No comment of its own: the report's section is edited in place.
    expect(comments()).toEqual([]);
    const commits = store.commits;
    const edits = gh.requests.filter((q) => q.route === 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}').length;
    await route(context(event, 'auto_merge: true\n'));
    expect(store.commits).toBe(commits);
    expect(gh.requests.filter((q) => q.route === 'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}').length).toBe(edits);
    expect(comments()).toEqual([]);
  });

  it('with fix_ci on: counts attempt 1 in the run, reads the failed job’s log tail, and starts follow-up run 3 on the pull request with the criterion and the log tail; a repeat of the same failure starts nothing more', async () => {
    const { id, headSha, testJob, event } = await ciFailed();
    await routeToIntake(context(event, 'fix_ci: true\n'));
    expect(attempts().attempts).toEqual([
      {
        n: 1,
        headSha,
        checks: [
          {
            workflow: 'CI',
            job: 'test',
            runId: id,
            url: `${gh.url}/${gh.owner}/${gh.repoName}/actions/runs/${id}/job/${testJob}`,
            at: '2026-11-27T10:05:00Z',
          },
        ],
        at: '2026-11-27T10:05:00Z',
        outcome: 'requested',
      },
    ]);
    // Run 3: a follow-up of run 2 from a failed check, on the pull request's branch and head.
    const run3 = readRun(reader, issue, 3)!;
    expect(run3.phase).toBe('PLANNING');
    expect(run3.followUp).toMatchObject({ pull, k: 1, fromRun: 2, branch: BRANCH, source: 'ci', threads: [] });
    expect(run3.base.sha).toBe(headSha);
    expect(run3.trigger).toMatchObject({ commentId: 0, how: 'ci', workflowRunId: '7', ciRunId: id });
    // followup.json: the criterion, and the feedback with the log tail (no timestamps or colours, the token redacted, no cleanup).
    const material = JSON.parse(store.files.get(paths.followUp(issue, 3))!) as { feedback: string; criteria: string[] };
    expect(material.criteria).toEqual(['the `test` check of the `CI` workflow passes']);
    expect(material.feedback).toContain(`The \`CI\` workflow failed on this pull request's head ${headSha.slice(0, 7)}: job \`test\`, step \`Run npm test\`.`);
    expect(material.feedback).toContain(
      'FAIL tests/add.test.ts > adds\nAssertionError: expected 4 to be 3 (token ***)\n##[error]Process completed with exit code 1.',
    );
    expect(material.feedback).not.toMatch(/ghp_|2026-11-27T10:00|\u001b|orphan/);
    // Intake is what asks the model first, with both.
    const prompt = JSON.stringify(intake[0]?.messages);
    expect(prompt).toContain('Follow-up 1 on pull request');
    expect(prompt).toContain('the `test` check of the `CI` workflow passes');
    expect(prompt).toContain('AssertionError: expected 4 to be 3 (token ***)');
    // The note on the pull request says why, which attempt, and where to follow it.
    const [note] = comments();
    expect(note).toMatch(
      new RegExp(
        `^crew starts follow-up 1 on this pull request \\(run 3 of #${issue}\\)\\. CI failed on ${headSha.slice(0, 7)}: the \`CI\` workflow \\(\\[run\\]\\([^)]+\\)\\); with \`fix_ci\` on, this is attempt 1 of 2 \\(\`fix_ci_attempts\`\\)\\. The failed check becomes a new done criterion`,
      ),
    );
    // The plan comment on the issue lists the attempt.
    expect(gh.comments.get(planComment)!.body).toContain('**CI fixes** (`fix_ci`): 1 of 2 attempts used.');
    // Only the failed job's log was read, through the redirect, without the token.
    expect(gh.logDownloads).toEqual([{ jobId: testJob, status: 200, authorization: false }]);

    await route(context(event, 'fix_ci: true\n'));
    expect(comments()).toHaveLength(1);
    expect(readRun(reader, issue, 4)).toBeUndefined();
    expect(attempts().attempts).toHaveLength(1);
    expect(gh.logDownloads).toHaveLength(1);
    expect(lines).toContainEqual(expect.stringMatching(/is already counted in attempt 1; nothing to do$/));
  });

  it('crew’s fixes failing again: attempt 2 on the next head starts follow-up 2, then the attempts are used up: one comment per head, and no run starts', async () => {
    const config = 'fix_ci: true\nfix_ci_attempts: 2\n';
    await routeToIntake(context((await ciFailed()).event, config));
    await finished(3); // follow-up 1 finished and pushed its fix
    await gh.repo.writeCommit({ branch: BRANCH, files: { 'src/add.ts': 'export const add = (a, b) => a * b;\n' }, message: 'crew: fix attempt 1' });
    await routeToIntake(context((await ciFailed()).event, config));
    expect(readRun(reader, issue, 4)!.followUp).toMatchObject({ k: 2, fromRun: 3, source: 'ci' });
    await finished(4);
    await gh.repo.writeCommit({ branch: BRANCH, files: { 'src/add.ts': 'export const add = (a, b) => b - a;\n' }, message: 'crew: fix attempt 2' });
    const third = await ciFailed();
    await route(context(third.event, config));
    await route(context((await ciFailed()).event, config)); // a re-run of the same CI on the same head
    expect(readRun(reader, issue, 5)).toBeUndefined();
    expect(attempts().attempts.map((a) => [a.n, a.outcome])).toEqual([
      [1, 'requested'],
      [2, 'requested'],
    ]);
    expect(attempts().exhaustedNotedFor).toBe(third.headSha);
    const said = comments();
    expect(said).toHaveLength(3);
    expect(said[0]).toMatch(/^crew starts follow-up 1 [^\n]*this is attempt 1 of 2/);
    expect(said[1]).toMatch(/^crew starts follow-up 2 [^\n]*this is attempt 2 of 2/);
    const plan = gh.comments.get(planComment)!.body;
    expect(plan).toContain('**CI fixes** (`fix_ci`): 2 of 2 attempts used.');
    expect(plan).toMatch(/- Attempt 1 on [0-9a-f]{7}: `test` \(`CI`, \[job\]\([^)]+\)\) failed; follow-up run requested\.\n- Attempt 2 on /);
    expect(plan).toContain(`CI failed again on ${third.headSha.slice(0, 7)} with no attempts left, so crew stopped fixing CI on this pull request.`);
    expect(said[2]).toMatch(
      new RegExp(
        `^CI failed on ${third.headSha.slice(0, 7)}: \`test\` \\(\`CI\`, \\[job\\]\\(.*\\)\\)\\. crew has used all 2 of its \`fix_ci_attempts\` on this pull request, so it stops here`,
      ),
    );
  });

  it('a failure while a run of the issue is still working is not lost: nothing counted, crew says it looks again when that run ends, and the end of that run starts the follow-up, counted once (#38)', async () => {
    await finished(2, 'EXECUTING');
    const failed = await ciFailed();
    await route(context(failed.event, 'fix_ci: true\nauto_merge: true\n'));
    expect(readRun(reader, issue, 3)).toBeUndefined();
    expect(intake).toEqual([]);
    expect(attempts().attempts.map((a) => [a.n, a.outcome])).toEqual([[1, 'not-started']]);
    expect(attempts().lookAfter).toBe(2);
    const [said] = comments();
    expect(said).toMatch(
      /^CI failed on [0-9a-f]{7} while crew is still working on issue #\d+ \(run 2, executing\)\. crew will look at this pull request's CI again when that run ends, and starts the fix \(`fix_ci`\) then if CI still fails; nothing is counted until it starts\./,
    );
    expect(said).not.toMatch(/no follow-up started|re-run the failed jobs/);
    expect(gh.comments.get(planComment)!.body).toContain('**CI fixes** (`fix_ci`): 0 of 2 attempts used.');
    expect(lines).toContainEqual('fix_ci: attempt 1 did not start; crew looks again when run 2 ends');
    // The run working on the pull request is not done: the merge gate leaves its word to the run's end.
    expect(lines).toContainEqual(expect.stringMatching(/^auto-merge: run 2 of issue #\d+ is executing; it speaks for #\d+ when it ends$/));

    // Run 2 ends: crew looks at the head's CI once, finds the failure, and starts the follow-up as if the event came now.
    await finished(2);
    const ctx = context({ kind: 'dispatch', inputs: {} }, 'fix_ci: true\nauto_merge: true\n');
    await expect(lookAtCiWhenRunEnds(ctx, issue, 2)).rejects.toBeInstanceOf(StopAtIntake);
    expect(attempts().attempts.map((a) => [a.n, a.headSha, a.outcome])).toEqual([[1, failed.headSha, 'requested']]);
    expect(readRun(reader, issue, 3)!.followUp).toMatchObject({ pull, k: 1, fromRun: 2, source: 'ci' });
    expect(readRun(reader, issue, 3)!.trigger).toMatchObject({ how: 'ci', ciRunId: failed.id });
    expect(comments().filter((b) => b.startsWith('crew starts follow-up 1'))).toHaveLength(1);
    // Before the follow-up planned, the merge gate said why it does not merge, from the same reading of the checks.
    expect(readRun(reader, issue, 2)!.merge!.reason).toMatch(
      /^the `test` check of `CI` failed on [0-9a-f]{7} \(\[run\]\([^)]+\)\)\. crew is fixing it \(`fix_ci` attempt 1 of 2\) and merges once the checks pass on its fix$/,
    );
    expect(gh.comments.get(report)!.body).toContain('Not merged by crew: the `test` check of `CI` failed');
    // One reading of the checks served fix_ci and the gate.
    expect(gh.requests.filter((q) => q.route === 'GET /repos/{owner}/{repo}/commits/{ref}/check-runs').length).toBe(1);
  });

  it('the run that was working ends just as the route job puts the attempt off (its look saw the attempt still counted): the route job, writing last, looks again and starts it', async () => {
    await finished(2, 'EXECUTING');
    const failed = await ciFailed();
    const ctx = context(failed.event, 'fix_ci: true\n');
    // Run 2 ends (and looks) between the refusal and the write that marks the attempt not started.
    const update = store.update.bind(store);
    let ended = false;
    ctx.state = {
      ...store,
      load: store.load.bind(store),
      loadRuns: store.loadRuns.bind(store),
      update: async (prefix, message, mutate) => {
        const out = await update(prefix, message, mutate);
        if (!ended && message.includes('fix_ci attempt 1 not started')) {
          ended = true;
          await finished(2);
        }
        return out;
      },
    } as StepContext['state'];
    await routeToIntake(ctx);
    expect(ended).toBe(true);
    expect(lines).toContainEqual('fix_ci: run 2 ended while the attempt was being put off; trying again');
    expect(attempts().attempts.map((a) => [a.n, a.outcome])).toEqual([[1, 'requested']]);
    expect(readRun(reader, issue, 3)!.followUp).toMatchObject({ k: 1, source: 'ci' });
  });

  it('at a run’s end: a CI run still going is left to its own event, a passing one changes nothing, and nothing is posted', async () => {
    const head = (await gh.repo.branchSha(BRANCH))!;
    gh.recordWorkflowRun({ id: ++runs, name: 'CI', path: '.github/workflows/ci.yml', event: 'push', headSha: head, headBranch: BRANCH, status: 'in_progress' });
    gh.recordJobCheckRun({ runId: runs, headSha: head, name: 'test', conclusion: null });
    await lookAtCiWhenRunEnds(context({ kind: 'dispatch', inputs: {} }, 'fix_ci: true\n'), issue, 2);
    expect(lines).toContainEqual(expect.stringMatching(/^CI on #\d+: CI run \d+ is still in_progress; its own workflow_run event decides$/));
    await ciFailed({ conclusion: 'success' });
    await lookAtCiWhenRunEnds(context({ kind: 'dispatch', inputs: {} }, 'fix_ci: true\n'), issue, 2);
    expect(comments()).toEqual([]);
    expect(store.commits).toBe(0);
    expect(readRun(reader, issue, 3)).toBeUndefined();
  });

  it('finds its pull request from the run’s record when GitHub lists none in the event', async () => {
    const { event } = await ciFailed({ unlisted: true });
    expect(event.kind === 'pull' && event.pulls).toEqual([]);
    await routeToIntake(context(event, 'fix_ci: true\n'));
    expect(attempts().attempts.map((a) => a.n)).toEqual([1]);
    expect(comments()).toEqual([expect.stringContaining('this is attempt 1 of 2')]);
  });

  it('ignores a failure on an older head, a fork’s branch named like crew’s, a branch that is no pull request of crew’s, and a success', async () => {
    const config = 'fix_ci: true\n';
    const old = await ciFailed();
    await gh.repo.writeCommit({ branch: BRANCH, files: { 'NOTES.md': 'moved\n' }, message: 'a push' });
    await route(context(old.event, config));
    expect(lines).toContainEqual(expect.stringMatching(/is for an older head \(the pull request is at [0-9a-f]{7}\); its CI decides$/));
    await route(context((await ciFailed({ headOwner: 'mallory' })).event, config));
    expect(lines.at(-1)).toMatch(/is on mallory\/widgets, not acme\/widgets; nothing to do$/);
    await gh.repo.writeCommit({ branch: 'crew/12/r2/t1', from: 'main', files: { 'x.md': 'x\n' }, message: 'task' });
    await route(context((await ciFailed({ headBranch: 'crew/12/r2/t1' })).event, config));
    expect(lines.at(-1)).toMatch(/is on crew\/12\/r2\/t1, not one of crew's pull request branches; nothing to do$/);
    await route(context((await ciFailed({ conclusion: 'success' })).event, config));
    expect(lines.at(-1)).toMatch(/ended success, not in failure; nothing to do$/);
    expect(comments()).toEqual([]);
    expect(attempts().attempts).toEqual([]);
  });
});
