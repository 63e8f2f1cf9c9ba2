import { Octokit } from '@octokit/core';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { gitRepo } from '../../../src/adapters/git/git-repo';
import { GitStateStore } from '../../../src/adapters/git/state-store';
import { parseConfig } from '../../../src/config/schema';
import type { Plan } from '../../../src/domain/plan';
import { githubBranches } from '../../../src/domain/refs';
import { newTaskRecord, ZERO_USAGE, type RunRecord } from '../../../src/domain/run-state';
import { GITHUB } from '../../../src/domain/surface';
import type { Clock, Log, Model } from '../../../src/ports';
import { writePlan, writeRun, writeTask } from '../../../src/state/run-files';
import { advance } from '../../../src/steps/advance';
import type { StepContext } from '../../../src/steps/context';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';
import { loadTemplate } from '../../../src/templates';
import { checkoutMain } from '../../support/git-cli';
import type { FakeGitHub } from '../../support/github/fake-github';
import { fakeGitHubForTest } from '../../support/github/for-test';
import { forgeOn } from '../../support/github/forge-on';
import { view } from './run-fixtures';

/**
 * The advance job in-process against the fake GitHub over loopback (git over smart HTTP, Octokit),
 * once every task has succeeded: how it claims the run and hands it to the critic (#31 §4).
 */

const ISSUE = 1;
const RUN = 1;
const INTEGRATION = `crew/${ISSUE}/r${RUN}/integration`;

const plan: Plan = {
  summary: 'Two notes.',
  criteria: [{ id: 'c1', text: 'both notes exist', kind: 'semantic' }],
  tasks: [
    { id: 't1', title: 'One', description: 'd', persona: 'coder', tier: 'haiku', dependsOn: [], files: [], criteria: ['one'] },
    { id: 't2', title: 'Two', description: 'd', persona: 'coder', tier: 'haiku', dependsOn: [], files: [], criteria: ['two'] },
  ],
};

const clock: Clock = { now: () => new Date(), sleep: async () => undefined };
const quiet: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

describe('the advance job once every task has succeeded', () => {
  let dir: string;
  let gh: FakeGitHub;
  let token: string;

  beforeEach(async () => {
    ({ gh, dir } = await fakeGitHubForTest({ prefix: 'advance-step-', apiUrl: true, files: { 'README.md': '# Demo\n' } }));
    gh.addUser('maintainer', { permission: 'write' });
    token = gh.actionsToken({ contents: 'write', issues: 'write', 'pull-requests': 'write', actions: 'write' });
    const people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    await people.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'Two notes' });
  });

  /** Both tasks done on their own branches; `same`: both write the same file differently (a conflict). */
  async function seed(same = false): Promise<void> {
    const forge = forgeOn(gh, token, quiet, { runId: '1', defaultBranch: 'main' });
    const planCommentId = (await forge.postComment(ISSUE, 'plan comment (crew renders it)')).id;
    const main = (await gh.repo.branchSha('main'))!;
    const heads: Record<string, string> = {};
    for (const t of plan.tasks)
      heads[t.id] = await gh.repo.writeCommit({
        branch: `crew/${ISSUE}/r${RUN}/${t.id}`,
        from: main,
        files: { [same ? 'NOTES.md' : `${t.id}.md`]: `# ${t.title}\n` },
        message: `${t.id}`,
      });
    const now = clock.now().toISOString();
    const record: RunRecord = view([], { issue: ISSUE, run: RUN, version: 0, base: { branch: 'main', sha: main }, planCommentId, usage: ZERO_USAGE }).run;
    await store('seed').update(`issue-${ISSUE}/`, 'seed', (tx) => {
      writeRun(tx, record, now);
      writePlan(tx, ISSUE, RUN, plan, '# plan\n', (id) => `# ${id}\n`);
      for (const t of plan.tasks)
        writeTask(tx, ISSUE, RUN, {
          ...newTaskRecord(t.id, `crew/${ISSUE}/r${RUN}/${t.id}`),
          status: 'success',
          attempts: 1,
          headSha: heads[t.id]!,
          changedFiles: [same ? 'NOTES.md' : `${t.id}.md`],
          finishedAt: now,
        });
    });
  }

  const store = (name: string, log = quiet, objects?: string) =>
    new GitStateStore(join(dir, `state-${name}`), gh.cloneUrl, token, clock, log, undefined, objects);
  const runRecord = async () => JSON.parse((await gh.repo.readFile('refs/heads/crew/state', `issue-${ISSUE}/run-${RUN}/run.json`))!) as RunRecord;
  /** Pushes (receive-pack requests) that named `refs`. */
  const pushes = (refs: string) => gh.gitRequests.filter((r) => r.kind === 'push' && r.refs?.includes(refs));

  /** The advance job of workflow run `runId`: a fresh checkout of main, its state store carrying the checkout's commits. */
  async function job(runId: string, opts: { log?: Log; model?: Model } = {}): Promise<StepContext & { infos: string[] }> {
    const workspace = join(dir, `ws-${Math.random().toString(36).slice(2, 8)}`);
    await checkoutMain(workspace, gh.cloneUrl, token);
    const infos: string[] = [];
    const log: Log = { ...quiet, ...opts.log, info: (m) => void infos.push(m) };
    const { repo, remote, objects } = gitRepo(workspace, gh.cloneUrl, token);
    const config = parseConfig('');
    return withPlanCommentSync({
      infos,
      settings: {
        step: 'advance',
        anthropicApiKey: 'sk-ant-test-key-0000',
        githubToken: token,
        githubTokenIsWorkflows: true,
        issue: ISSUE,
        run: RUN,
        workResult: 'success',
      },
      event: { kind: 'dispatch', inputs: { issue: String(ISSUE), run: String(RUN), tasks: '[]', nonce: 'n1' } },
      forge: forgeOn(gh, token, log, { runId, defaultBranch: 'main' }),
      repo,
      remote,
      state: store(`job-${runId}-${Math.random().toString(36).slice(2, 8)}`, log, objects),
      branches: githubBranches,
      surface: GITHUB,
      clock,
      log,
      runId,
      config: async () => config,
      template: (name: string) => loadTemplate(name),
      readDefaultBranchFile: async () => undefined,
      model: () =>
        opts.model ?? {
          complete: () => Promise.reject(new Error('no model call was expected')),
        },
      output: () => undefined,
      summary: async () => undefined,
    } as unknown as StepContext) as StepContext & { infos: string[] };
  }

  it('when both branches merge as git merges them, claiming the run and handing it to the critic is one write, which carries the integration branch', async () => {
    await seed();
    const before = pushes('refs/heads/crew/state').length;
    const ctx = await job('5001');
    await advance(ctx);
    const landed = pushes('refs/heads/crew/state').slice(before);
    expect(landed).toHaveLength(1);
    expect(landed[0]!.refs).toContain(`refs/heads/${INTEGRATION}`);
    const rec = await runRecord();
    expect(rec).toMatchObject({ phase: 'REVIEWING', finalizer: '5001', review: { headSha: await gh.repo.branchSha(INTEGRATION), verdict: null } });
    expect(await gh.repo.readFile(`refs/heads/${INTEGRATION}`, 't1.md')).toBe('# One\n');
    expect(await gh.repo.readFile(`refs/heads/${INTEGRATION}`, 't2.md')).toBe('# Two\n');
  });

  it("a worker lost between its save's push and its write: the branch's work, which no record names, becomes the task's head, so its next attempt fetches it", async () => {
    await seed();
    // t2's job pushed its work so far (a save has no Crew-Result trailer) and died before recording it.
    const main = (await gh.repo.branchSha('main'))!;
    const wip = await gh.repo.writeCommit({
      branch: `crew/${ISSUE}/r${RUN}/t2`,
      from: main,
      files: { 't2.md': '# half\n' },
      message: 'crew: t2 (work so far)',
    });
    await store('lost').update(`issue-${ISSUE}/`, 'lost', (tx) =>
      writeTask(tx, ISSUE, RUN, {
        ...newTaskRecord('t2', `crew/${ISSUE}/r${RUN}/t2`),
        status: 'running',
        attempts: 1,
        claim: { runId: '5001', nonce: 'n0', at: clock.now().toISOString() },
      }),
    );
    // The workflow run was cancelled: the task waits for /crew resume, with what its branch holds.
    const ctx = await job('5001');
    ctx.settings = { ...ctx.settings, workResult: 'cancelled' };
    await advance(ctx);
    const t2 = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', `issue-${ISSUE}/run-${RUN}/tasks/task_t2.json`))!) as {
      headSha: string | null;
      restarts: number;
      attempts: number;
    };
    expect(t2).toMatchObject({ status: 'pending', headSha: wip, attempts: 0 });
  });

  it('a job that dies after integrating and before its write leaves nothing behind, and its re-run integrates once', async () => {
    await seed();
    const dying = await job('5001', {
      log: {
        ...quiet,
        checkpoint: (at) => {
          if (at === 'integrated') throw new Error('killed at integrated');
        },
      },
    });
    await expect(advance(dying)).rejects.toThrow('killed at integrated');
    expect(await gh.repo.branchSha(INTEGRATION)).toBeUndefined();
    expect(await runRecord()).toMatchObject({ phase: 'EXECUTING', finalizer: null });
    const before = pushes('refs/heads/crew/state').length;
    await advance(await job('5001'));
    expect(pushes('refs/heads/crew/state').slice(before)).toHaveLength(1);
    expect(await runRecord()).toMatchObject({ phase: 'REVIEWING', finalizer: '5001', review: { headSha: await gh.repo.branchSha(INTEGRATION) } });
  });

  it('when another job takes the run while this one integrates, nothing of this job lands: no record, no integration branch', async () => {
    await seed();
    const taken = store('other');
    let pending: Promise<unknown> | undefined;
    const ctx = await job('5001', {
      log: {
        ...quiet,
        checkpoint: (at) => {
          if (at !== 'integrated') return;
          // Synchronously started, awaited by the job's own write, which then loses the race to it.
          pending = taken.update(`issue-${ISSUE}/`, 'another job finishes', (tx) => {
            const rec = JSON.parse(tx.read(`issue-${ISSUE}/run-${RUN}/run.json`)!) as RunRecord;
            writeRun(tx, { ...rec, phase: 'INTEGRATING', finalizer: '999' }, clock.now().toISOString());
          });
        },
      },
    });
    const write = ctx.state.update.bind(ctx.state);
    ctx.state.update = (async (...args: Parameters<typeof write>) => {
      await pending;
      return write(...args);
    }) as typeof ctx.state.update;
    await advance(ctx);
    expect(pending).toBeDefined();
    expect(await runRecord()).toMatchObject({ phase: 'INTEGRATING', finalizer: '999' });
    expect(await gh.repo.branchSha(INTEGRATION)).toBeUndefined();
    expect(ctx.infos.join('\n')).toContain('nothing was recorded or pushed');
    expect(ctx.infos.join('\n')).toContain('nothing for this job to do');
  });

  it('two advance jobs racing end with one integration, handed to the critic by one of them', async () => {
    await seed();
    const [a, b] = [await job('5001'), await job('5002')];
    await Promise.all([advance(a), advance(b)]);
    const rec = await runRecord();
    expect(rec.phase).toBe('REVIEWING');
    expect(['5001', '5002']).toContain(rec.finalizer);
    expect(rec.review!.headSha).toBe(await gh.repo.branchSha(INTEGRATION));
    const loser = rec.finalizer === '5001' ? b : a;
    expect(loser.infos.join('\n')).toMatch(/another job is finishing this run|nothing for this job to do/);
  });

  it('when a branch conflicts, the job claims the run before the resolver’s model call, so that call never runs twice in parallel', async () => {
    await seed(true);
    const seen: Array<Pick<RunRecord, 'phase' | 'finalizer'>> = [];
    const ctx = await job('5001', {
      model: {
        complete: async () => {
          const rec = await runRecord();
          seen.push({ phase: rec.phase, finalizer: rec.finalizer });
          throw new Error('the model is down');
        },
      },
    });
    await advance(ctx);
    expect(seen[0]).toEqual({ phase: 'INTEGRATING', finalizer: '5001' });
    // The resolver failed, so a person decides; the integration branch was never pushed.
    expect(await runRecord()).toMatchObject({ phase: 'ESCALATING', finalizer: null });
    expect(await gh.repo.branchSha(INTEGRATION)).toBeUndefined();
  });
});
