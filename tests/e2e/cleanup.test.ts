import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Octokit } from '@octokit/core';
import { describe, expect, it } from 'vitest';
import { GitStateStore } from '../../src/adapters/git/state-store';
import { CREW_GIT_IDENTITY } from '../../src/domain/retention';
import type { RunRecord } from '../../src/domain/run-state';
import { git } from '../support/git-cli';
import type { FakeGitHub } from '../support/github/fake-github';
import type { Scenario } from '../support/scenario/schema';
import { seedRunBranches, seedStateHistory, type SeededRun } from '../support/scenario/seed-state';
import { crewComments, expectFaithful, play, shown } from './helpers';

/**
 * #37: crew cleans up after itself. The auto-merge story (one task, the critic passes, crew opens
 * the pull request) ends each way a run can end for good; crew's merge itself is in auto-merge.test.ts.
 */

const run1 = async (gh: FakeGitHub, k = 1): Promise<RunRecord> =>
  JSON.parse((await gh.repo.readFile('refs/heads/crew/state', `issue-1/run-${k}/run.json`))!) as RunRecord;
const runBranches = (r: { branches: Array<{ name: string }> }) => r.branches.map((b) => b.name).sort();
const isCleanupNote = (body: string) => body.startsWith('**Branches of run');

describe('after crew’s pull request is closed', () => {
  it('a person closes it: the cleanup job (pull_request_target) deletes the task branch and the pull request’s branch; only main and crew/state remain', async () => {
    let record: RunRecord | undefined;
    const r = await play('auto-merge', {
      edit: (s) => {
        s.config = '';
        s.timeline = [{ comment: '/crew run', author: 'maintainer' }, { wait: 'idle' }, { close_pr: { author: 'maintainer' } }, { wait: 'idle' }];
      },
      hooks: { beforeClose: async ({ gh }) => void (record = await run1(gh)) },
    });
    expectFaithful(r);
    expect(r.pulls[0]).toMatchObject({ state: 'closed', merged: false });
    expect(r.jobs.filter((j) => j.event === 'pull_request_target' && j.result !== 'skipped').map((j) => `${j.job}:${j.result}`)).toEqual(['cleanup:success']);
    expect(runBranches(r)).toEqual(['crew/state', 'main']);
    expect(record).toMatchObject({
      phase: 'COMPLETED',
      prClosed: { merged: false, by: 'maintainer' },
      cleanup: { deleted: ['crew/1/r1/integration', 'crew/1/r1/t1'], kept: [], refused: null },
    });
    // Nothing was kept or refused, so there is nothing to say.
    expect(crewComments(r).filter((c) => isCleanupNote(c.body))).toEqual([]);
  }, 360_000);

  it('a person merges it (squash): the cleanup job deletes the task branch; the pull request’s branch is left to GitHub’s “Automatically delete head branches” (off here), as for any pull request', async () => {
    let record: RunRecord | undefined;
    const r = await play('auto-merge', {
      edit: (s) => {
        s.config = '';
        s.timeline = [
          { comment: '/crew run', author: 'maintainer' },
          { wait: 'idle' },
          { merge_pr: { author: 'maintainer', method: 'squash' } },
          { wait: 'idle' },
        ];
      },
      hooks: { beforeClose: async ({ gh }) => void (record = await run1(gh)) },
    });
    expectFaithful(r);
    expect(r.pulls[0]).toMatchObject({ state: 'closed', merged: true });
    expect(r.jobs.filter((j) => j.event === 'pull_request_target' && j.result !== 'skipped').map((j) => `${j.job}:${j.result}`)).toEqual(['cleanup:success']);
    expect(runBranches(r)).toEqual(['crew/1/r1/integration', 'crew/state', 'main']);
    expect(record).toMatchObject({
      prClosed: { merged: true, by: 'maintainer' },
      cleanup: { deleted: ['crew/1/r1/t1'], kept: [], refused: null },
    });
    expect(crewComments(r).filter((c) => isCleanupNote(c.body))).toEqual([]);
  }, 360_000);

  it('a task branch someone committed to is kept, and said so once; GitHub’s own deletion of the merged branch is no error', async () => {
    let record: RunRecord | undefined;
    let mergePushes: string[][] = [];
    const r = await play('auto-merge', {
      edit: (s: Scenario) => {
        s.repo.settings = { ...s.repo.settings, delete_branch_on_merge: true };
        const check = s.timeline.findIndex((step) => 'check' in step);
        s.timeline.splice(check, 0, {
          push: { author: 'reviewer', branch: 'crew/1/r1/t1', files: { 'NOTES.md': '# Notes\n\nA line by hand.\n' }, message: 'a note by hand' },
        });
        s.timeline.push({ comment: '/crew status', author: 'maintainer' }, { wait: 'idle' });
      },
      hooks: {
        beforeClose: async ({ gh, runner }) => {
          record = await run1(gh);
          const merge = new Set(runner.runs.flatMap((run) => run.jobs.filter((j) => j.id === 'merge' && j.steps.length).map((j) => j.key)));
          mergePushes = gh.gitRequests.filter((g) => g.kind === 'push' && g.job !== undefined && merge.has(g.job)).map((g) => [...(g.refs ?? [])]);
        },
      },
    });
    expectFaithful(r);
    expect(r.pulls[0]).toMatchObject({ state: 'closed', merged: true });
    // The merge job's first read listed the pull request's branch; GitHub deleted it with the merge, as the
    // repository says it does, so crew's one push leased no deletion to it (which would have refused the push).
    expect(mergePushes).toEqual([['refs/heads/crew/state']]);
    const kept = r.branches.find((b) => b.name === 'crew/1/r1/t1')!;
    expect(runBranches(r)).toEqual(['crew/1/r1/t1', 'crew/state', 'main']);
    // GitHub's "Automatically delete head branches" took the pull request's branch when crew merged: crew
    // does not list it, and that is no error (a branch gone between crew's listing and its push counts as
    // deleted too: crew-branches.test.ts).
    expect(record!.cleanup).toMatchObject({ deleted: [], kept: [{ branch: 'crew/1/r1/t1', people: ['reviewer'], shas: [kept.sha] }], refused: null });
    const notes = crewComments(r).filter((c) => isCleanupNote(c.body));
    expect(notes).toHaveLength(1);
    expect(shown(notes[0]!.body)).toBe(
      [
        '**Branches of run 1**',
        '',
        `- \`crew/1/r1/t1\` is kept: \`reviewer\` committed to it (\`${kept.sha.slice(0, 7)}\`), and crew never deletes a branch with someone else's work on it. Delete it yourself when you no longer need it.`,
      ].join('\n'),
    );
    // /crew status lists it among the branches that belong to no open run.
    const status = crewComments(r).find((c) => c.body.includes('under `crew/` belong'))!;
    expect(shown(status.body)).toContain(`- \`crew/1/r1/t1\` at \`${kept.sha.slice(0, 7)}\`: run 1 of #1 ended (merged by crew) and crew left this branch.`);
  }, 360_000);

  it('a deletion a ruleset refuses (GH013) is said once, with what to change, and changes nothing else: merged, completed, the report’s Merge section as it was', async () => {
    let record: RunRecord | undefined;
    const r = await play('auto-merge', {
      edit: (s: Scenario) => {
        s.repo.settings = { ...s.repo.settings, ruleset_deletion_prefixes: ['crew/'] };
        s.timeline.push({ comment: '/crew status', author: 'maintainer' }, { wait: 'idle' });
      },
      hooks: { beforeClose: async ({ gh }) => void (record = await run1(gh)) },
    });
    expectFaithful(r);
    expect(r.pulls[0]).toMatchObject({ state: 'closed', merged: true });
    expect(record).toMatchObject({ phase: 'COMPLETED', merge: { state: 'merged' }, failure: null });
    expect(record!.cleanup).toMatchObject({ deleted: [], kept: [], refused: { branches: ['crew/1/r1/integration', 'crew/1/r1/t1'] } });
    expect(runBranches(r)).toEqual(['crew/1/r1/integration', 'crew/1/r1/t1', 'crew/state', 'main']);
    const notes = crewComments(r).filter((c) => isCleanupNote(c.body));
    // Once: the /crew status job's own look at ended runs does not say it again.
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain(
      'GitHub refused to delete `crew/1/r1/integration` and `crew/1/r1/t1`: a repository ruleset or branch protection refused it (',
    );
    expect(notes[0]!.body).toContain('- Cannot delete this branch');
    expect(notes[0]!.body).toContain('exclude `crew/**` from that rule or let the token crew uses bypass it');
    expect(crewComments(r).some((c) => /crew failed|did not succeed/.test(c.body))).toBe(false);
    const report = r.pulls[0]!.comments.find((c) => c.body.includes('<!-- crew:merge -->'))!;
    expect(report.body).toMatch(/✅ Merged by crew as [0-9a-f]{7}\./);
  }, 360_000);
});

describe('a run aborted and left alone', () => {
  it('played: its branch stays through cleanup.unfinished_days (its own abort deletes nothing); once 8 days have passed, the next run’s end deletes it, and not that run’s', async () => {
    let before: { branches: string[]; cleanup: RunRecord['cleanup'] | undefined; phase: string } | undefined;
    let aged = 0;
    let gh: FakeGitHub | undefined;
    const records: RunRecord[] = [];
    const r = await play('worker-abort', {
      edit: (s) => {
        // Abort run 1 mid-task, let 8 days pass, then run again and abort run 2 the same way (its worker's
        // second request is the 4th: run 1's worker made 2).
        const again = structuredClone(s.timeline);
        (again[1] as { wait: { model: { requests: number } } }).wait.model.requests += 2;
        s.timeline = [...s.timeline, ...again];
      },
      hooks: {
        onStep: async (_step, i) => {
          if (i !== 4) return;
          const rec = await run1(gh!);
          const branches = (await gh!.repo.listRefs('refs/heads/crew/')).map((x) => x.ref.slice('refs/heads/'.length)).sort();
          before = { branches, cleanup: rec.cleanup, phase: rec.phase };
          aged = await letDaysPass(gh!, 'issue-1/run-1/', 8);
        },
        beforeTimeline: async (w) => void (gh = w.gh),
        beforeClose: async (w) => {
          for (const k of [1, 2]) records.push(await run1(w.gh, k));
        },
      },
    });
    expectFaithful(r);
    // Right after its abort, run 1 kept its branch: aborted less than unfinished_days (7) ago.
    expect(before).toEqual({ branches: ['crew/1/r1/t1', 'crew/state'], cleanup: null, phase: 'ABORTED' });
    expect(aged).toBeGreaterThan(1);
    expect(records.map((x) => x.phase)).toEqual(['ABORTED', 'ABORTED']);
    // Run 2's abort ended a run: crew looked at the ended runs, and run 1 was past the limit.
    expect(records[0]!.cleanup).toMatchObject({ deleted: ['crew/1/r1/t1'], kept: [], refused: null });
    expect(records[1]!.cleanup).toBeNull();
    expect(runBranches(r)).toEqual(['crew/1/r2/t1', 'crew/state', 'main']);
    expect(crewComments(r).filter((c) => isCleanupNote(c.body))).toEqual([]);
  }, 480_000);
});

/**
 * `days` pass for a run, as crew sees it: every time its files on crew/state recorded moves that much
 * earlier, in one commit made as crew makes them (crew reads how old a run is from those times).
 * Returns how many times moved.
 */
async function letDaysPass(gh: FakeGitHub, folder: string, days: number): Promise<number> {
  const files: Record<string, string> = {};
  let moved = 0;
  for (const f of (await gh.repo.listFiles('refs/heads/crew/state')).filter((p) => p.startsWith(folder) && p.endsWith('.json'))) {
    const text = (await gh.repo.readFile('refs/heads/crew/state', f))!;
    const shifted = text.replace(/"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z"/g, (_, s: string, ms: string | undefined) => {
      moved++;
      const iso = new Date(Date.parse(`${s}${ms ?? ''}Z`) - days * 24 * 60 * 60_000).toISOString();
      return `"${ms ? iso : iso.replace(/\.\d{3}Z$/, 'Z')}"`;
    });
    if (shifted !== text) files[f] = shifted;
  }
  await gh.repo.writeCommit({ branch: 'crew/state', files, message: `${folder}: ${days} days pass`, identity: CREW_GIT_IDENTITY });
  return moved;
}

/** Ages, in days before the scenario runs. */
const daysAgo = (d: number) => new Date(Date.now() - d * 24 * 60 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('crew/state stays small, and runs nobody finishes are cleaned up', () => {
  it('200 finished runs written straight onto crew/state and one new run: the tree keeps what the policy keeps, a depth-1 fetch of it is small, and aged aborted and failed runs lose their branches', async () => {
    // Issues 2-6 exist on GitHub (crew may comment there); 101-245 and 400 only on crew/state.
    const special: SeededRun[] = [
      { issue: 2, run: 1, phase: 'ABORTED', endedAt: daysAgo(10) },
      { issue: 3, run: 1, phase: 'FAILED', endedAt: daysAgo(10), tasks: ['success', 'failure'] },
      { issue: 4, run: 1, phase: 'FAILED', endedAt: daysAgo(1), tasks: ['failure'] },
      // Aborted while t2 ran: its job may still be working (less than 7 days since it was claimed).
      { issue: 5, run: 1, phase: 'ABORTED', endedAt: daysAgo(3), tasks: ['success', 'running'] },
      { issue: 6, run: 1, phase: 'ABORTED', endedAt: daysAgo(10), tasks: ['success', 'success'] },
    ];
    const old: SeededRun[] = Array.from({ length: 145 }, (_, i) => ({
      issue: 101 + i,
      run: 1,
      phase: 'COMPLETED',
      pull: (['merged-by-crew', 'merged', 'closed'] as const)[i % 3],
      cleaned: true,
      endedAt: daysAgo(31 + i),
    }));
    // One busy issue: 50 runs, the newest 8 within the last week (keep_runs: 5 keeps 46-50).
    const busy: SeededRun[] = Array.from({ length: 50 }, (_, i) => ({
      issue: 400,
      run: i + 1,
      phase: 'COMPLETED',
      pull: 'closed',
      cleaned: true,
      endedAt: i >= 42 ? daysAgo((50 - i) / 2) : daysAgo(200 - i),
    }));
    const seeded = [...special, ...old, ...busy];
    expect(seeded).toHaveLength(200);

    let commits = 0;
    let before: { files: number; bytes: number; pack: number } | undefined;
    const after: { paths: string[]; records: Map<string, RunRecord>; pack: number; commitsFetched: number; historyCommits: number } = {
      paths: [],
      records: new Map(),
      pack: 0,
      commitsFetched: 0,
      historyCommits: 0,
    };
    const r = await play('auto-merge', {
      edit: (s) => {
        s.config = 'cleanup:\n  unfinished_days: 2\n';
        s.timeline = [{ comment: '/crew run', author: 'maintainer' }, { wait: 'idle' }, { comment: '/crew status', author: 'maintainer' }, { wait: 'idle' }];
      },
      hooks: {
        beforeTimeline: async ({ gh }) => {
          const owner = new Octokit({ auth: gh.userToken(gh.owner), baseUrl: gh.url });
          for (let n = 2; n <= 6; n++) await owner.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: `Issue ${n}` });
          commits = await seedStateHistory(gh, seeded);
          await seedRunBranches(gh, special[0]!, ['t1', 't2']);
          await seedRunBranches(gh, special[1]!, ['t1', 'integration']);
          await seedRunBranches(gh, special[2]!, ['t1']);
          await seedRunBranches(gh, special[3]!, ['t1', 't2']);
          await seedRunBranches(gh, special[4]!, ['t1', 't2']);
          // A person's commit on an aged aborted run's branch, and a branch of a run crew/state never held.
          await gh.repo.writeCommit({
            branch: 'crew/6/r1/t1',
            files: { 'HAND.md': 'by hand\n' },
            message: 'taking this over',
            identity: { name: 'alice', email: 'alice@example.com' },
          });
          await gh.repo.writeCommit({ branch: 'crew/77/r1/t1', files: { 'X.md': 'x\n' }, message: 'left behind', from: 'main' });
          before = { ...(await treeSize(gh)), pack: (await depthOneFetch(gh)).pack };
        },
        beforeClose: async ({ gh }) => {
          const files = await gh.repo.listFiles('refs/heads/crew/state');
          after.paths = files;
          for (const f of files.filter((p) => p.endsWith('/run.json')))
            after.records.set(f, JSON.parse((await gh.repo.readFile('refs/heads/crew/state', f))!) as RunRecord);
          after.historyCommits = Number((await git(['rev-list', '--count', 'refs/heads/crew/state'], { cwd: gh.repo.dir })).trim());
          // What any job fetches of crew/state: crew's own state store, on a fresh runner, reads everything through a depth-1 fetch.
          const fetched = await depthOneFetch(gh);
          expect(fetched.files).toBe(files.length);
          after.commitsFetched = fetched.commits;
          after.pack = fetched.pack;
        },
      },
    });
    expectFaithful(r);
    expect(commits).toBeGreaterThan(1000);

    // The tree: open runs, and of the finished ones the policy's (the newest 5 per issue, ended within 30 days).
    const folders = (name: string) => [...new Set(after.paths.filter((p) => p.endsWith(`/${name}`)).map((p) => p.split('/').slice(0, 2).join('/')))].sort();
    expect(folders('run.json')).toEqual(
      [
        'issue-1/run-1',
        'issue-2/run-1',
        'issue-3/run-1',
        'issue-4/run-1',
        'issue-5/run-1',
        'issue-6/run-1',
        ...[46, 47, 48, 49, 50].map((k) => `issue-400/run-${k}`),
      ].sort(),
    );
    // Every pruned run left its digest, and nothing else.
    const digests = folders('digest.json');
    expect(digests).toHaveLength(145 + 45);
    for (const d of digests) expect(after.paths.filter((p) => p.startsWith(`${d}/`))).toEqual([`${d}/digest.json`]);

    // Aged aborted and failed runs lost their branches; the recent failure, the run whose job may still work, and a person's branch did not.
    expect(runBranches(r)).toEqual([
      'crew/1/r1/integration',
      'crew/1/r1/t1',
      'crew/4/r1/t1',
      'crew/5/r1/t1',
      'crew/5/r1/t2',
      'crew/6/r1/t1',
      'crew/77/r1/t1',
      'crew/state',
      'main',
    ]);
    expect(after.records.get('issue-2/run-1/run.json')!.cleanup).toMatchObject({ deleted: ['crew/2/r1/t1', 'crew/2/r1/t2'], kept: [], refused: null });
    expect(after.records.get('issue-3/run-1/run.json')!.cleanup).toMatchObject({ deleted: ['crew/3/r1/integration', 'crew/3/r1/t1'] });
    expect(after.records.get('issue-4/run-1/run.json')!.cleanup).toBeNull();
    expect(after.records.get('issue-5/run-1/run.json')!.cleanup).toBeNull();
    expect(after.records.get('issue-6/run-1/run.json')!.cleanup).toMatchObject({
      deleted: ['crew/6/r1/t2'],
      kept: [{ branch: 'crew/6/r1/t1', people: ['alice'] }],
    });

    // /crew status lists the branches that belong to no open run; the same comment then gives the repository's spend (#52), its own section.
    const status = crewComments(r).find((c) => c.body.includes('under `crew/` belong'))!;
    const [strayList, spend, ...more] = shown(status.body).split('\n\n**Spend**\n\n');
    expect(more).toEqual([]);
    expect(strayList!.split('\n').filter((l) => l.startsWith('- '))).toEqual([
      expect.stringMatching(/^- `crew\/6\/r1\/t1` at `[0-9a-f]{7}`: run 1 of #6 ended \(aborted\) and crew left this branch\.$/),
      expect.stringMatching(/^- `crew\/77\/r1\/t1` at `[0-9a-f]{7}`: run 1 of #77 is no longer on crew\/state\.$/),
    ]);
    expect(spend?.split('\n')).toEqual([
      expect.stringMatching(/^- Today \(UTC\): \$[0-9.]+ in \d+ runs? \(no `budgets\.day`\)$/),
      expect.stringMatching(/^- This month \(UTC\): \$[0-9.]+ in \d+ runs? \(no `budgets\.month`\)$/),
      expect.stringMatching(/^- Costliest runs this month: #\d+ run \d+ \$/),
    ]);

    // A depth-1 fetch is all a job needs: one commit of a history of over a thousand, and a small pack.
    expect(after.historyCommits).toBeGreaterThan(commits);
    expect(after.commitsFetched).toBe(1);
    console.log(
      `crew/state: ${before!.files} files (${Math.round(before!.bytes / 1024)} KiB), a depth-1 fetch of ${Math.round(before!.pack / 1024)} KiB before; ${after.paths.length} files, ${Math.round(after.pack / 1024)} KiB after; history ${after.historyCommits} commits`,
    );
    expect(after.pack).toBeLessThan(DEPTH1_BOUND_BYTES);
  }, 600_000);
});

/**
 * The bound this test holds a depth-1 fetch of crew/state to, after 200 finished runs and one new
 * one, with the default keep_runs and keep_days (docs/ARCHITECTURE.md, "Where state lives").
 */
const DEPTH1_BOUND_BYTES = 256 * 1024;

/** crew's own state store on a fresh runner reads the whole of crew/state: the commits it fetched, the files it read, the pack's size. */
async function depthOneFetch(gh: FakeGitHub): Promise<{ commits: number; files: number; pack: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'crew-depth1-'));
  try {
    const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
    const store = new GitStateStore(dir, gh.cloneUrl, gh.actionsToken({ contents: 'read' }), { now: () => new Date(), sleep: async () => undefined }, quiet);
    const snap = await store.loadRuns(() => true);
    const packs = join(dir, '.git', 'objects', 'pack');
    return {
      commits: Number((await git(['rev-list', '--count', '--all'], { cwd: dir })).trim()),
      files: snap.list('').length,
      pack: readdirSync(packs)
        .filter((f) => f.endsWith('.pack'))
        .reduce((sum, f) => sum + statSync(join(packs, f)).size, 0),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function treeSize(gh: FakeGitHub): Promise<{ files: number; bytes: number }> {
  const files = await gh.repo.listFiles('refs/heads/crew/state');
  let bytes = 0;
  for (const f of files) bytes += Buffer.byteLength((await gh.repo.readFile('refs/heads/crew/state', f)) ?? '');
  return { files: files.length, bytes };
}
