import { beforeEach, describe, expect, it } from 'vitest';
import type { Log, ModelFailover } from '../../../src/ports';
import { MemoryState } from './memory-state';
import { shownRun, shownVersion } from '../../../src/render/plan-comment';
import { readRun, writeRun } from '../../../src/state/run-files';
import { handedOn, loadView, planCheckSaw, syncPlanComment, type StepContext } from '../../../src/steps/context';
import { SEEN } from '../../../src/ports';
import { FakeGitHub } from '../../support/github/fake-github';
import { forgeOn } from '../../support/github/forge-on';
import { view } from './run-fixtures';
import { fakeGitHubForTest } from '../../support/github/for-test';
import { GITHUB } from '../../../src/domain/surface';
import { advance } from '../../../src/steps/advance';
import { parseConfig } from '../../../src/config/schema';
import type { RunRecord } from '../../../src/domain/run-state';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

describe('syncPlanComment: jobs racing to render the plan comment', () => {
  let gh: FakeGitHub;
  let state: MemoryState;
  let commentId: number;
  /** The state version each write put on the comment, in the order GitHub applied them. */
  let landed: number[];
  /** The same, with the run each write showed: a follow-up's versions count from its own start. */
  let landedRuns: string[];
  const { run } = view(['running', 'pending', 'running']);

  /** One job: its own process, token and forge, sharing crew/state and the comment with the others. */
  const job = (beforeWrite?: () => Promise<void>, afterWrite?: () => Promise<void>): StepContext => {
    const forge = forgeOn(gh, gh.actionsToken({ issues: 'write' }), log);
    const update = forge.updateComment.bind(forge);
    forge.updateComment = async (id, body) => {
      await beforeWrite?.();
      await update(id, body);
      landed.push(shownVersion(gh.comments.get(id)!.body)!);
      landedRuns.push(`r${shownRun(gh.comments.get(id)!.body)}v${shownVersion(gh.comments.get(id)!.body)}`);
      await afterWrite?.();
    };
    return withPlanCommentSync({ forge, state, log, surface: GITHUB } as unknown as StepContext);
  };
  /** Another job records something: the run's version moves on. */
  const move = () => state.update('', 'move', (tx) => void writeRun(tx, readRun(tx, run.issue, run.run)!, '2026-11-21T00:02:00Z'));
  const stateVersion = async () => readRun(await state.load(), run.issue, run.run)!.version;

  beforeEach(async () => {
    ({ gh } = await fakeGitHubForTest({ prefix: 'sync-', apiUrl: true }));
    gh.addUser('maintainer', { permission: 'write' });
    const { Octokit } = await import('@octokit/core');
    const people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    const issue = (await people.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'T' })).data.number;
    state = new MemoryState();
    landed = [];
    landedRuns = [];
    commentId = (await job().forge.postComment(issue, '<!-- crew:plan issue=12 run=2 -->')).id;
    await state.update('', 'create', (tx) => void writeRun(tx, { ...run, planCommentId: commentId }, run.updatedAt));
  });

  it('a write that reads the comment back finds a newer rendering already there and does not write again', async () => {
    let other: StepContext;
    // A's write lands, then B records a newer state and renders it before A checks.
    const a = job(undefined, async () => {
      if (landed.length > 1) return;
      await move();
      await syncPlanComment(other, run.issue, run.run);
    });
    other = job();
    await syncPlanComment(a, run.issue, run.run);
    expect(landed).toEqual([1, 2]);
    expect(shownVersion(gh.comments.get(commentId)!.body)).toBe(await stateVersion());
  });

  /** Job A, whose first write lands after B's newer one: A has rendered version 1; before its write reaches GitHub, B records version 2 and renders it. */
  const crossed = () => {
    let other: StepContext;
    let held = false;
    const a = job(async () => {
      if (held) return;
      held = true;
      await move();
      await syncPlanComment(other, run.issue, run.run);
    });
    other = job();
    return a;
  };

  it('an older write already in flight when a newer one lands is healed by its own check', async () => {
    const a = crossed();
    await syncPlanComment(a, run.issue, run.run);
    // No compare-and-swap exists for comments: the stale write lands, and A's check puts the newest back.
    expect(landed).toEqual([2, 1, 2]);
    expect(shownVersion(gh.comments.get(commentId)!.body)).toBe(2);
  });

  it('keeps rendering while a busy run moves the state under every write, and ends on the newest version', async () => {
    let moves = 0;
    const a = job(undefined, async () => {
      if (moves++ < 5) await move();
    });
    await syncPlanComment(a, run.issue, run.run);
    expect(landed).toEqual([1, 2, 3, 4, 5, 6]);
    expect(shownVersion(gh.comments.get(commentId)!.body)).toBe(await stateVersion());
  });

  /** A follow-up (run 3) takes the comment over from run 2 in one state write, as startRun does. */
  const handOver = () =>
    state.update('', 'follow-up', (tx) => {
      const old = readRun(tx, run.issue, run.run)!;
      writeRun(tx, { ...run, run: 3, version: 0, planCommentId: old.planCommentId, planCommentPassedTo: null }, '2026-11-21T00:03:00Z');
      writeRun(tx, { ...old, planCommentPassedTo: 3 }, '2026-11-21T00:03:00Z');
    });
  const shows = () => {
    const body = gh.comments.get(commentId)!.body;
    return { run: shownRun(body), v: shownVersion(body) };
  };
  const versionOf = async (k: number) => readRun(await state.load(), run.issue, k)!.version;

  it('a run whose plan comment a follow-up took over never writes it again; the follow-up renders itself there', async () => {
    await handOver();
    await syncPlanComment(job(), run.issue, run.run);
    expect(landed).toEqual([]);
    await syncPlanComment(job(), run.issue, 3);
    expect(shows()).toEqual({ run: 3, v: await versionOf(3) });
    expect(landedRuns).toEqual(['r3v1']);
  });

  it('an older run’s write in flight when the follow-up takes the comment over and renders is healed by the older run’s own check', async () => {
    let other: StepContext;
    // A rendered run 2; before its write reaches GitHub, run 3 takes the comment over and renders itself.
    let held = false;
    const a = job(async () => {
      if (held) return;
      held = true;
      await handOver();
      await syncPlanComment(other, run.issue, 3);
    });
    other = job();
    for (let i = 0; i < 4; i++) await move();
    await syncPlanComment(a, run.issue, run.run);
    // Run 3's rendering, run 2's stale one landing after it, then run 3's again from A's own check.
    expect(landedRuns).toEqual(['r3v1', 'r2v5', 'r3v1']);
    expect(shows()).toEqual({ run: 3, v: await versionOf(3) });
  });

  it('a follow-up whose comment still shows the older run, at a higher version, renders over it', async () => {
    for (let i = 0; i < 4; i++) await move();
    await syncPlanComment(job(), run.issue, run.run);
    await handOver();
    const c = job(undefined, async () => {
      if (landed.length === 2) await state.update('', 'move', (tx) => void writeRun(tx, readRun(tx, run.issue, 3)!, '2026-11-21T00:04:00Z'));
    });
    await syncPlanComment(c, run.issue, 3);
    // The check after the write compares versions of the same run only: run 2's 5 is not "newer" than run 3's 2.
    expect(shows()).toEqual({ run: 3, v: await versionOf(3) });
    expect(landedRuns).toEqual(['r2v5', 'r3v1', 'r3v2']);
  });

  it('two jobs syncing at once leave the comment on the newest state', async () => {
    let moved = false;
    const a = job();
    const b = job(async () => {
      if (moved) return;
      moved = true;
      await move();
    });
    await Promise.all([syncPlanComment(a, run.issue, run.run), syncPlanComment(b, run.issue, run.run), move()]);
    expect(shownVersion(gh.comments.get(commentId)!.body)).toBe(await stateVersion());
  });

  describe('a job that defers the check after each edit to its end (#17 §3, #31 §4)', () => {
    /** Reads that ask GitHub (no freshness given), counted; every snapshot says when GitHub confirmed it. */
    const confirming = (ctx: StepContext) => {
      const asked = { count: 0 };
      const load = state.load.bind(state);
      ctx.state = {
        ...state,
        update: state.update.bind(state),
        loadRuns: state.loadRuns.bind(state),
        load: async (prefix: string, fresh?: object) => {
          if (!fresh) asked.count++;
          return { ...(await load()), confirmedAt: performance.now() };
        },
      } as StepContext['state'];
      return asked;
    };
    /** A job that defers its checks to its end: it syncs the comment, then does `then` before that end. */
    const syncThenEnd = (ctx: StepContext, then: () => unknown) =>
      ctx.planComment.withChecksAtEnd(async () => {
        await syncPlanComment(ctx, run.issue, run.run);
        await then();
      });

    it('makes no read after the edit; a look GitHub confirmed after the edit heals a crossed edit, one confirmed before it does not', async () => {
      const a = crossed();
      const asked = confirming(a);
      await a.planComment.withChecksAtEnd(async () => {
        const before = { ...(await state.load()), confirmedAt: performance.now() };
        await syncPlanComment(a, run.issue, run.run);
        expect(landed).toEqual([2, 1]);
        expect(asked.count).toBe(0);
        await planCheckSaw(a, run.issue, run.run, before);
        expect(landed).toEqual([2, 1]);
        await planCheckSaw(a, run.issue, run.run, await a.state.load(`issue-${run.issue}/run-${run.run}/`, { seenWithinMs: 0 }));
        expect(landed).toEqual([2, 1, 2]);
      });
      expect(shownVersion(gh.comments.get(commentId)!.body)).toBe(await stateVersion());
    });

    it('the job’s end makes the check put off, and edits check at once after it', async () => {
      const a = crossed();
      const asked = confirming(a);
      await syncThenEnd(a, () => {
        expect(landed).toEqual([2, 1]);
        expect(asked.count).toBe(0);
      });
      // The check (one read), then the render it calls for, checked at once (a second read).
      expect(asked.count).toBe(2);
      expect(landed).toEqual([2, 1, 2]);
      await syncPlanComment(a, run.issue, run.run);
      expect(asked.count).toBe(3);
    });

    it('a render the look calls for that fails stays owed, and the job’s end makes it', async () => {
      const a = crossed();
      confirming(a);
      await syncThenEnd(a, async () => {
        expect(landed).toEqual([2, 1]);
        const update = a.forge.updateComment.bind(a.forge);
        a.forge.updateComment = async () => {
          throw new Error('GitHub is down');
        };
        await expect(planCheckSaw(a, run.issue, run.run, await a.state.load(`issue-${run.issue}/run-${run.run}/`, { seenWithinMs: 0 }))).rejects.toThrow(
          'GitHub is down',
        );
        a.forge.updateComment = update;
      });
      expect(landed).toEqual([2, 1, 2]);
    });

    it('when nothing crossed the edit, neither the look nor the job’s end renders again', async () => {
      const a = job();
      const asked = confirming(a);
      await syncThenEnd(a, async () => planCheckSaw(a, run.issue, run.run, await a.state.load(`issue-${run.issue}/run-${run.run}/`, { seenWithinMs: 0 })));
      expect(landed).toEqual([1]);
      expect(asked.count).toBe(0);
    });

    it('a job that handed the run on to another job spares the check at its end', async () => {
      const a = crossed();
      const asked = confirming(a);
      await syncThenEnd(a, () => handedOn(a, run.issue, run.run));
      // The crossed edit stays until the job it started syncs the comment: no read, no render here.
      expect(asked.count).toBe(0);
      expect(landed).toEqual([2, 1]);
      // That job's first sync renders the newest state.
      await syncPlanComment(job(), run.issue, run.run);
      expect(shownVersion(gh.comments.get(commentId)!.body)).toBe(await stateVersion());
    });

    it('a job that handed the run on but then failed makes the check: the jobs it started may not run', async () => {
      const a = crossed();
      const asked = confirming(a);
      await expect(
        syncThenEnd(a, () => {
          handedOn(a, run.issue, run.run);
          throw new Error('the step failed');
        }),
      ).rejects.toThrow('the step failed');
      expect(asked.count).toBe(2);
      expect(landed).toEqual([2, 1, 2]);
    });

    it('a write the comment does not show, on top of the version the edit rendered, settles its check; one on top of another does not', async () => {
      const a = job();
      const asked = confirming(a);
      await syncThenEnd(a, async () => a.planComment.wroteUnshown(run.issue, run.run, await stateVersion()));
      expect(asked.count).toBe(0);
      const b = job();
      const askedB = confirming(b);
      await syncThenEnd(b, async () => b.planComment.wroteUnshown(run.issue, run.run, (await stateVersion()) - 1));
      expect(askedB.count).toBe(1);
    });

    // The work jobs of a workflow run hand the run on to its advance job, which then syncs the comment
    // itself, even on a path that writes nothing: that is what spares their checks.
    it.each([
      ['another job is finishing the run', { finalizer: '999' }],
      ['the run is in a phase this job has nothing to do in', { phase: 'REVIEWING', finalizer: '999' }],
      ['the run has ended', { phase: 'COMPLETED' }],
    ] as [string, Partial<RunRecord>][])('the advance job the run was handed on to heals a crossed edit when %s', async (_, patch) => {
      await state.update('', 'patch', (tx) => void writeRun(tx, { ...readRun(tx, run.issue, run.run)!, ...patch }, '2026-11-21T00:01:30Z'));
      const a = crossed();
      confirming(a);
      await a.planComment.withChecksAtEnd(async () => {
        await syncPlanComment(a, run.issue, run.run);
        handedOn(a, run.issue, run.run);
      });
      expect(shownVersion(gh.comments.get(commentId)!.body)).toBe((await stateVersion()) - 1);
      const edits = landed.length;
      const config = parseConfig('');
      const job2 = (): StepContext =>
        withPlanCommentSync({
          ...job(),
          settings: { step: 'advance', issue: run.issue, run: run.run, workResult: 'success' },
          runId: '4242',
          config: async () => config,
          clock: { now: () => new Date('2026-11-21T00:05:00Z'), sleep: async () => undefined },
        } as unknown as StepContext);
      const b = job2();
      await b.planComment.withChecksAtEnd(() => advance(b));
      expect(shownVersion(gh.comments.get(commentId)!.body)).toBe(await stateVersion());
      expect(landed).toHaveLength(edits + 1);
      // A second such job finds the comment current: it reads it, and edits nothing.
      const c = job2();
      await c.planComment.withChecksAtEnd(() => advance(c));
      expect(landed).toHaveLength(edits + 1);
    });

    it('a write whose edit comes first (ctx.planComment.updateShownFirst) needs no check when it lands on the version it read; after another job’s write between, the usual sync follows it', async () => {
      const note = (r: RunRecord): RunRecord => ({ ...r, title: `${r.title}.` });
      const clock = { now: () => new Date('2026-11-21T00:03:00Z') };
      const a = Object.assign(job(), { clock });
      const asked = confirming(a);
      const read = await loadView(a, run.issue, run.run, SEEN);
      await a.planComment.withChecksAtEnd(async () => void expect(await a.planComment.updateShownFirst(read, 'note', note)).toBe(true));
      // The edit rendered the version the write then made; no read after it, none at the job's end.
      expect(landed).toEqual([read.run.version + 1]);
      expect(asked.count).toBe(0);
      expect(await stateVersion()).toBe(read.run.version + 1);

      const b = Object.assign(job(), { clock });
      const askedB = confirming(b);
      const stale = await loadView(b, run.issue, run.run, SEEN);
      await move();
      await b.planComment.withChecksAtEnd(async () => void expect(await b.planComment.updateShownFirst(stale, 'note', note)).toBe(true));
      // B's edit rendered the version another job's write took; B's write landed on top, and the sync after it renders that.
      expect(landed.slice(1)).toEqual([stale.run.version + 1, stale.run.version + 2]);
      expect(askedB.count).toBe(1);
      expect(shownVersion(gh.comments.get(commentId)!.body)).toBe(await stateVersion());
    });

    it('a hand-on to another run of the issue does not spare this run’s check', async () => {
      const a = crossed();
      confirming(a);
      await syncThenEnd(a, () => handedOn(a, run.issue, run.run + 1));
      expect(landed).toEqual([2, 1, 2]);
    });

    // Each job's side of the plan comment is its own (ctx.planComment, made with the context by
    // withPlanCommentSync, as both entries do): local mode runs a run's jobs in one process.
    describe('two jobs in one process', () => {
      const failover = (from: string): ModelFailover => ({
        at: '2026-11-21T00:01:00Z',
        from,
        to: 'Amazon Bedrock (us-east-1)',
        reason: 'overloaded (529 overloaded_error)',
      });
      const worker = (task: string, failovers: ModelFailover[]): StepContext => {
        const ctx = job();
        ctx.settings = { step: 'work', task } as StepContext['settings'];
        ctx.clock = { now: () => new Date('2026-11-21T00:02:00Z') } as StepContext['clock'];
        ctx.modelFailovers = () => failovers;
        return ctx;
      };

      it('each has its own plan comment sync', () => {
        expect(job().planComment).not.toBe(job().planComment);
      });

      it('a job that puts its checks off to its end does not put off another job’s: that one checks after its own edit', async () => {
        const a = job();
        const b = crossed();
        const askedB = confirming(b);
        await a.planComment.withChecksAtEnd(async () => {
          await syncPlanComment(a, run.issue, run.run);
          // B's edit is crossed by a newer one, and B checks (and heals it) at once, while A's checks wait.
          await syncPlanComment(b, run.issue, run.run);
          expect(askedB.count).toBeGreaterThan(0);
          expect(landed.slice(-1)).toEqual([await stateVersion()]);
        });
      });

      it('a run one job handed on spares only that job’s check at its end, not another’s', async () => {
        const a = job();
        confirming(a);
        const b = crossed();
        const askedB = confirming(b);
        await Promise.all([
          a.planComment.withChecksAtEnd(async () => {
            await syncPlanComment(a, run.issue, run.run);
            handedOn(a, run.issue, run.run);
          }),
          syncThenEnd(b, () => expect(askedB.count).toBe(0)),
        ]);
        // B handed nothing on: its end made the check put off, which renders the newest state.
        expect(askedB.count).toBeGreaterThan(0);
        expect(shownVersion(gh.comments.get(commentId)!.body)).toBe(await stateVersion());
      });

      it('each job notes its own failovers once in the run, whatever the other has noted', async () => {
        const a = worker('t1', [failover('the Anthropic API')]);
        const b = worker('t2', [failover('the Anthropic API'), failover('the Anthropic API')]);
        await syncPlanComment(a, run.issue, run.run);
        await syncPlanComment(b, run.issue, run.run);
        await syncPlanComment(a, run.issue, run.run);
        const jobs = readRun(await state.load(), run.issue, run.run)!.failovers.map((f) => f.job);
        expect(jobs).toEqual(['the worker of t1', 'the worker of t2', 'the worker of t2']);
        expect(a.planComment.unnotedFailovers()).toBe(false);
        expect(b.planComment.unnotedFailovers()).toBe(false);
      });
    });
  });
});
