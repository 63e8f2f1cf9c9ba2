import { Octokit } from '@octokit/rest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/schema';
import { readEvent } from '../../../src/event';
import { GITHUB } from '../../../src/domain/surface';
import type { Log, StateSnapshot, StateStore, StateTx } from '../../../src/ports';
import type { StepContext } from '../../../src/steps/context';
import { route } from '../../../src/steps/route';
import { readRun } from '../../../src/state/run-files';
import type { FakeGitHub, GitHubEvent } from '../../support/github/fake-github';
import { fakeGitHubForTest } from '../../support/github/for-test';
import { forgeOn } from '../../support/github/forge-on';
import { view } from './run-fixtures';

/** crew/state in memory; a mutation that changes nothing commits nothing (the store's rule); counts commits. */
class MemoryStore implements StateStore {
  readonly files = new Map<string, string>();
  commits = 0;
  private snap(files: Map<string, string>): StateSnapshot {
    const copy = new Map(files);
    return { version: String(this.commits), read: (p) => copy.get(p), list: (pre) => [...copy.keys()].filter((k) => k.startsWith(pre)).sort() };
  }
  async load(prefix: string) {
    return this.snap(new Map([...this.files].filter(([p]) => p.startsWith(prefix))));
  }
  async loadRuns() {
    return this.snap(new Map());
  }
  async update<T>(_prefix: string, _message: string, mutate: (tx: StateTx) => T) {
    const writes = new Map<string, string>();
    const tx: StateTx = {
      read: (p) => writes.get(p) ?? this.files.get(p),
      write: (p, c) => void writes.set(p, c),
      remove: () => undefined,
      list: (pre) => [...new Set([...this.files.keys(), ...writes.keys()])].filter((k) => k.startsWith(pre)).sort(),
    };
    const value = mutate(tx);
    const changed = [...writes].filter(([p, c]) => this.files.get(p) !== c);
    if (changed.length) this.commits++;
    for (const [p, c] of changed) this.files.set(p, c);
    return { value, snapshot: this.snap(this.files) };
  }
}

const dir = mkdtempSync(join(tmpdir(), 'crew-fix-ci-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
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

describe('route on a failed CI run (fix_ci)', () => {
  let gh: FakeGitHub;
  let store: MemoryStore;
  let pull: number;
  let planComment: number;
  let lines: string[];
  let runs = 8_000_000_100;

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
    const issue = (await people.rest.issues.create({ owner: gh.owner, repo: gh.repoName, title: 'Add' })).data.number;
    pull = (await people.rest.pulls.create({ owner: gh.owner, repo: gh.repoName, title: 'Add', head: BRANCH, base: 'main' })).data.number;
    // The run's plan comment, on the issue, as crew posted it.
    const crew = new Octokit({ auth: gh.actionsToken({ issues: 'write' }), baseUrl: gh.url });
    planComment = (await crew.rest.issues.createComment({ owner: gh.owner, repo: gh.repoName, issue_number: issue, body: 'plan' })).data.id;
    store = new MemoryStore();
    const rec = view(['success', 'success', 'success'], {
      issue,
      phase: 'COMPLETED',
      planCommentId: planComment,
      pr: { number: pull, url: `${gh.url}/pull/${pull}`, reportCommentId: null },
    }).run;
    store.files.set(`issue-${issue}/run-2/run.json`, JSON.stringify(rec, null, 2));
    lines = [];
  });

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
    gh.recordWorkflowJob({
      ...base,
      id: id * 10 + 1,
      name: 'test',
      conclusion: 'failure',
      steps: [{ name: 'Run npm test', conclusion: 'failure', number: 1 }],
      log: LOG,
    });
    gh.recordWorkflowJob({ ...base, id: id * 10 + 2, name: 'lint', conclusion: 'success', steps: [], log: 'ok\n' });
    gh.recordWorkflowRun({ id, status: 'completed', conclusion: over.conclusion ?? 'failure' });
    const seen: GitHubEvent[] = [];
    const stop = gh.onEvent((e) => seen.push(e));
    await gh.workflowRunCompleted(id);
    stop();
    const path = join(dir, `event-${id}.json`);
    const payload = seen[0]!.payload as { workflow_run: { pull_requests: unknown[] } };
    if (over.unlisted) payload.workflow_run.pull_requests = [];
    writeFileSync(path, JSON.stringify(payload));
    return { id, headSha, event: readEvent('workflow_run', path) };
  }

  function context(event: StepContext['event'], configText: string): StepContext {
    const log: Log = { info: (m: string) => void lines.push(m), warn: (m: string) => void lines.push(`warn: ${m}`), checkpoint: () => undefined };
    return {
      event,
      config: async () => parseConfig(configText),
      forge: forgeOn(gh, gh.actionsToken({ contents: 'write', issues: 'write', 'pull-requests': 'write', actions: 'write' }), log),
      state: store,
      clock: { now: () => new Date('2026-11-27T10:05:00Z') },
      log,
      surface: GITHUB,
      runId: '7',
      output: () => undefined,
    } as unknown as StepContext;
  }

  const comments = () => [...gh.comments.values()].filter((c) => c.issue === pull).map((c) => c.body);
  const attempts = () => readRun({ read: (p) => store.files.get(p), list: () => [] }, 1, 2)!.fixCi;

  it('with fix_ci off: a logged skip, no comment, no state write', async () => {
    const { event } = await ciFailed();
    await route(context(event, ''));
    expect(comments()).toEqual([]);
    expect(store.commits).toBe(0);
    expect(lines).toContainEqual(
      expect.stringMatching(/^fix_ci: fix_ci is off in \.github\/crew\.yml \(CI failed on crew\/1\/r2\/integration\); nothing to do$/),
    );
  });

  it('with fix_ci on: counts attempt 1 in the run, reads the failed job’s log tail, and says on the pull request what it saw (follow-up runs are not built yet); a repeat of the same failure says nothing more', async () => {
    const { id, headSha, event } = await ciFailed();
    await route(context(event, 'fix_ci: true\n'));
    expect(attempts().attempts).toEqual([
      {
        n: 1,
        headSha,
        checks: [
          {
            workflow: 'CI',
            job: 'test',
            runId: id,
            url: `${gh.url}/${gh.owner}/${gh.repoName}/actions/runs/${id}/job/${id * 10 + 1}`,
            at: '2026-11-27T10:05:00Z',
          },
        ],
        at: '2026-11-27T10:05:00Z',
        outcome: 'requested',
      },
    ]);
    const [body] = comments();
    expect(body).toContain(`CI failed on ${headSha.slice(0, 7)}: the \`CI\` workflow`);
    expect(body).toContain('this is attempt 1 of 2 (`fix_ci_attempts`)');
    expect(body).toContain('crew cannot start a follow-up run on its own pull request yet (not built)');
    expect(body).toContain('- the `test` check of the `CI` workflow passes');
    // The log tail: no timestamps or colours, the token redacted, the runner's cleanup left out.
    expect(body).toContain('FAIL tests/add.test.ts > adds\nAssertionError: expected 4 to be 3 (token ***)\n##[error]Process completed with exit code 1.');
    expect(body).not.toMatch(/ghp_|2026-11-27T10:00|\u001b|orphan/);
    // The plan comment on the issue lists the attempt.
    expect(gh.comments.get(planComment)!.body).toContain('**CI fixes** (`fix_ci`): 1 of 2 attempts used.');
    // Only the failed job's log was read, through the redirect, without the token.
    expect(gh.logDownloads).toEqual([{ jobId: id * 10 + 1, status: 200, authorization: false }]);

    await route(context(event, 'fix_ci: true\n'));
    expect(comments()).toHaveLength(1);
    expect(attempts().attempts).toHaveLength(1);
    expect(gh.logDownloads).toHaveLength(1);
    expect(lines).toContainEqual(expect.stringMatching(/is already counted in attempt 1; nothing to do$/));
  });

  it('crew’s fixes failing again: attempt 2 on the next head, then the attempts are used up: one comment per head, and it stops', async () => {
    const config = 'fix_ci: true\nfix_ci_attempts: 2\n';
    await route(context((await ciFailed()).event, config));
    await gh.repo.writeCommit({ branch: BRANCH, files: { 'src/add.ts': 'export const add = (a, b) => a * b;\n' }, message: 'crew: fix attempt 1' });
    await route(context((await ciFailed()).event, config));
    await gh.repo.writeCommit({ branch: BRANCH, files: { 'src/add.ts': 'export const add = (a, b) => b - a;\n' }, message: 'crew: fix attempt 2' });
    const third = await ciFailed();
    await route(context(third.event, config));
    await route(context((await ciFailed()).event, config)); // a re-run of the same CI on the same head
    expect(attempts().attempts.map((a) => a.n)).toEqual([1, 2]);
    expect(attempts().exhaustedNotedFor).toBe(third.headSha);
    const said = comments();
    expect(said).toHaveLength(3);
    expect(said[1]).toContain('this is attempt 2 of 2');
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

  it('finds its pull request from the run’s record when GitHub lists none in the event', async () => {
    const { event } = await ciFailed({ unlisted: true });
    expect(event.kind === 'pull' && event.pulls).toEqual([]);
    await route(context(event, 'fix_ci: true\n'));
    expect(attempts().attempts.map((a) => a.n)).toEqual([1]);
    expect(comments()).toEqual([expect.stringContaining('this is attempt 1 of 2')]);
  });

  it('ignores a failure on an older head, a fork’s branch named like crew’s, a branch that is no pull request of crew’s, and a success', async () => {
    const config = 'fix_ci: true\n';
    const old = await ciFailed();
    await gh.repo.writeCommit({ branch: BRANCH, files: { 'NOTES.md': 'moved\n' }, message: 'a push' });
    await route(context(old.event, config));
    expect(lines.at(-1)).toMatch(/is for an older head \(the pull request is at [0-9a-f]{7}\); its CI decides$/);
    await route(context((await ciFailed({ headOwner: 'mallory' })).event, config));
    expect(lines.at(-1)).toMatch(/is on mallory\/widgets, not acme\/widgets; nothing to do$/);
    await gh.repo.writeCommit({ branch: 'crew/12/r2/t1', from: 'main', files: { 'x.md': 'x\n' }, message: 'task' });
    await route(context((await ciFailed({ headBranch: 'crew/12/r2/t1' })).event, config));
    expect(lines.at(-1)).toMatch(/is on crew\/12\/r2\/t1, not one of crew's pull request branches; nothing to do$/);
    await route(context((await ciFailed({ conclusion: 'success' })).event, config));
    expect(lines.at(-1)).toMatch(/ended success, not in failure; nothing to do$/);
    expect(comments()).toEqual([]);
    expect(store.commits).toBe(0);
  });
});
