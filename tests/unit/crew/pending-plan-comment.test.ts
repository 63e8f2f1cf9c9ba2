import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Octokit } from '@octokit/core';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { parseConfig } from '../../../src/config/schema';
import { GITHUB } from '../../../src/domain/surface';
import { readEvent } from '../../../src/event';
import type { Log, StateStore, StateTx } from '../../../src/ports';
import { pendingPlanCommentStore } from '../../../src/state/pending-plan-comment';
import { paths, readRun, writeRun } from '../../../src/state/run-files';
import { ensurePlanComment } from '../../../src/steps/commands/start';
import type { StepContext } from '../../../src/steps/context';
import { recordHeldPlanComments } from '../../../src/steps/plan-comment/held-ids';
import { runJob } from '../../../src/steps/run-job';
import { route } from '../../../src/steps/route';
import { loadingStep } from '../../../src/steps/dispatch';
import { FakeGitHub, type GitHubEvent } from '../../support/github/fake-github';
import { fakeGitHubForTest } from '../../support/github/for-test';
import { forgeOn } from '../../support/github/forge-on';
import { MemoryState } from './memory-state';
import { view } from './run-fixtures';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';

/** crew/state in memory that remembers each write's message, as the git store's commits would. */
class WrittenState extends MemoryState {
  readonly messages: string[] = [];
  override async update<T>(prefix: string, message: string, mutate: (tx: StateTx) => T) {
    this.messages.push(message);
    return super.update(prefix, message, mutate);
  }
}

/**
 * #31 §4: the plan comment's id rides in the route job's next write of the run instead of a write of
 * its own (state/pending-plan-comment.ts); what no write carried is recorded at the job's end.
 */
const AT = '2026-11-21T01:00:00Z';
const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

/** A route job's context on the fake GitHub, its state `inner` behind the store that holds plan comment ids, as main.ts builds it. */
function jobOn(gh: FakeGitHub, inner: StateStore, more: Record<string, unknown> = {}): StepContext {
  const { store, ids } = pendingPlanCommentStore(inner);
  return withPlanCommentSync({
    forge: forgeOn(gh, gh.actionsToken({ contents: 'read', issues: 'write', 'pull-requests': 'write' }), log),
    state: store,
    planCommentIds: ids,
    log,
    surface: GITHUB,
    runId: '900',
    clock: { now: () => new Date(AT) },
    settings: { step: 'route' },
    ...more,
  } as unknown as StepContext);
}

describe('the plan comment id held until the run is next written', () => {
  const record = (issue: number, run: number) => ({ ...view([]).run, issue, run, phase: 'PLANNING' as const, planCommentId: null });

  it('reads show the held id in that run.json only, formatted as crew writes it; a write from such a read persists it and ends the hold', async () => {
    const inner = new WrittenState();
    await inner.update('', 'start', (tx) => {
      writeRun(tx, record(1, 1), AT);
      writeRun(tx, record(1, 2), AT);
      tx.write(paths.planJson(1, 1), '{"planCommentId": null}\n');
    });
    const { store, ids } = pendingPlanCommentStore(inner);
    const raw = inner.files.get(paths.run(1, 1))!;
    ids.hold(1, 1, 3_000_000_001);

    const snap = await store.load('issue-1/');
    expect(snap.read(paths.run(1, 1))).toBe(raw.replace('"planCommentId": null', '"planCommentId": 3000000001'));
    expect(readRun(snap, 1, 2)!.planCommentId).toBeNull();
    expect(snap.read(paths.planJson(1, 1))).toBe('{"planCommentId": null}\n');
    expect(readRun(await store.loadRuns(() => true), 1, 1)!.planCommentId).toBe(3_000_000_001);
    // Not on crew/state yet.
    expect(readRun(await inner.load(), 1, 1)!.planCommentId).toBeNull();

    // A write of other files keeps the hold; its snapshot shows the id too.
    const other = await store.update('issue-1/', 'notes', (tx) => tx.write('issue-1/run-1/notes.md', 'x'));
    expect(readRun(other.snapshot, 1, 1)!.planCommentId).toBe(3_000_000_001);
    // The run's next write reads the record (the id shows) and writes it whole: the id lands, the hold ends.
    await store.update('issue-1/', 'plan v1', (tx) => {
      const rec = readRun(tx, 1, 1)!;
      expect(rec.planCommentId).toBe(3_000_000_001);
      writeRun(tx, { ...rec, phase: 'AWAITING_APPROVAL' }, AT);
    });
    expect(readRun(await inner.load(), 1, 1)).toMatchObject({ planCommentId: 3_000_000_001, phase: 'AWAITING_APPROVAL', version: 2 });
    expect(ids.release()).toEqual([]);
  });

  it('a job that ends with no write after the comment was posted records the id in a write of its own, once; the comment is posted once', async () => {
    const { gh } = await fakeGitHubForTest({ prefix: 'held-plan-comment-', apiUrl: true });
    gh.addUser('maintainer', { permission: 'write' });
    const people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    await people.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'Add shout', body: 'Add a shout function.' });
    const inner = new WrittenState();
    await inner.update('issue-1/', 'start', (tx) => void writeRun(tx, record(1, 1), AT));
    const ctx = jobOn(gh, inner);
    const store = ctx.state;
    await ensurePlanComment(ctx, 1, 1, false);
    const posted = [...gh.comments.values()].filter((c) => c.body.includes('<!-- crew:plan issue=1 run=1 -->'));
    expect(posted).toHaveLength(1);
    expect(inner.messages).toEqual(['start']);
    // Every reader of the job sees it already; a second call posts nothing.
    expect(readRun(await store.load('issue-1/'), 1, 1)!.planCommentId).toBe(posted[0]!.id);
    await ensurePlanComment(ctx, 1, 1, false);
    expect([...gh.comments.values()].filter((c) => c.body.includes('<!-- crew:plan'))).toHaveLength(1);

    await recordHeldPlanComments(ctx);
    await recordHeldPlanComments(ctx);
    expect(inner.messages).toEqual(['start', `issue #1 run 1: plan comment ${posted[0]!.id}`]);
    expect(readRun(await inner.load(), 1, 1)!.planCommentId).toBe(posted[0]!.id);
  });

  describe('a route job whose planning fails', () => {
    let gh: FakeGitHub;
    let people: Octokit;
    const events: GitHubEvent[] = [];
    beforeEach(async () => {
      ({ gh } = await fakeGitHubForTest({ prefix: 'held-plan-route-', apiUrl: true }));
      gh.addUser('maintainer', { permission: 'write' });
      events.length = 0;
      gh.onEvent((e) => void events.push(e));
      people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
      await people.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'Add shout', body: 'Add a shout function.' });
    });

    it('records the id in the write that records the failure, not one of its own; the one plan comment says it failed', async () => {
      await people.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        owner: gh.owner,
        repo: gh.repoName,
        issue_number: 1,
        body: '/crew plan',
      });
      const event = events.filter((e) => e.name === 'issue_comment').at(-1)!;
      const dir = await mkdtemp(join(tmpdir(), 'held-plan-event-'));
      onTestFinished(() => rm(dir, { recursive: true, force: true }));
      await writeFile(join(dir, 'event.json'), JSON.stringify(event.payload));
      const inner = new WrittenState();
      let models = 0;
      const ctx = jobOn(gh, inner, {
        event: readEvent(event.name, join(dir, 'event.json')),
        config: async () => parseConfig(''),
        // startRun checks a model can be made; planning's call fails.
        model: () => {
          if (models++ > 0) throw new Error('the planner is down');
          return {};
        },
        output: () => undefined,
        remote: { head: async () => 'a'.repeat(40) },
      });
      // The job's lifecycle both entries run: the step, the failure report, then what is still held.
      await expect(runJob(ctx, route)).rejects.toThrow('the planner is down');

      const plans = [...gh.comments.values()].filter((c) => c.body.includes('<!-- crew:plan issue=1 run=1 -->'));
      expect(plans).toHaveLength(1);
      expect(plans[0]!.body).toContain('❌ Failed');
      const rec = readRun(await inner.load(), 1, 1)!;
      expect(rec).toMatchObject({ phase: 'FAILED', planCommentId: plans[0]!.id });
      expect(inner.messages.some((m) => m.includes('plan comment'))).toBe(false);
      expect(inner.messages[0]).toBe('issue #1: start a run');
    });

    it('a step whose code fails to load (a chunk of the bundle) ends in a failure comment on the issue, not in the job log only', async () => {
      await people.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        owner: gh.owner,
        repo: gh.repoName,
        issue_number: 1,
        body: '/crew plan',
      });
      const event = events.filter((e) => e.name === 'issue_comment').at(-1)!;
      const dir = await mkdtemp(join(tmpdir(), 'held-plan-event-'));
      onTestFinished(() => rm(dir, { recursive: true, force: true }));
      await writeFile(join(dir, 'event.json'), JSON.stringify(event.payload));
      const ctx = jobOn(gh, new WrittenState(), { event: readEvent(event.name, join(dir, 'event.json')), config: async () => parseConfig('') });
      const chunks = Promise.reject(new Error("Cannot find module '/a/dist/418.index.js'"));
      // As main.ts: the step is named before the context exists; the failure surfaces when the job runs it.
      const step = loadingStep('route', chunks);
      await expect(runJob(ctx, step)).rejects.toThrow('could not load its own code for the route step');

      const said = [...gh.comments.values()].filter((c) => c.body.includes('418.index.js'));
      expect(said).toHaveLength(1);
      expect(said[0]!.body).toContain('loading the route step');
      expect(said[0]!.body).toContain('Re-run the failed job');
    });
  });
});
