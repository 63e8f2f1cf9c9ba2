import { describe, expect, it } from 'vitest';
import type { MergeState, RunRecord } from '../../src/domain/run-state';
import type { Scenario } from '../support/scenario/schema';
import { crewComments, expectFaithful, play } from './helpers';

const MERGE_ROUTE = 'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge';
const PERMISSION_ROUTE = 'GET /repos/{owner}/{repo}/collaborators/{username}/permission';

/** Plays an auto-merge story with an edit; returns the result, the run record and every merge section crew wrote. */
async function story(edit?: (s: Scenario) => void, name = 'auto-merge') {
  let record: RunRecord | undefined;
  let judgedSha = '';
  let mergeCalls = 0;
  let mainSha: string | undefined;
  let labels: string[] = [];
  let permissionChecks: string[] = [];
  let mergeGit: Array<{ kind: string; refs?: string[] }> = [];
  const sections: string[] = [];
  const r = await play(name, {
    edit,
    hooks: {
      onCrewComment: ({ body }) => {
        const m = /<!-- crew:merge -->\n### Merge\n\n(.*)\n<!-- \/crew:merge -->/.exec(body);
        if (m && sections.at(-1) !== m[1]) sections.push(m[1]!);
      },
      beforeClose: async ({ gh, runner }) => {
        // The git round trips of crew's own in the jobs that merged (actions/checkout's apart).
        const keys = new Set(runner.runs.flatMap((run) => run.jobs.filter((j) => j.id === 'merge' && j.steps.length).map((j) => j.key)));
        mergeGit = gh.gitRequests
          .filter((g) => g.job !== undefined && keys.has(g.job) && !/^actions\/checkout@/.test(g.step ?? ''))
          .map((g) => ({ kind: g.kind, ...(g.refs ? { refs: [...g.refs].sort() } : {}) }));
        record = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!) as RunRecord;
        judgedSha = (JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/judgments/judgment_1.json'))!) as { headSha: string }).headSha;
        mergeCalls = gh.requests.filter((q) => q.route === MERGE_ROUTE).length;
        mainSha = await gh.repo.branchSha('main');
        labels = gh.issues.get(Math.max(...gh.pulls.keys()))?.labels ?? [];
        permissionChecks = gh.requests.filter((q) => q.route === PERMISSION_ROUTE && q.principal === 'actions').map((q) => q.path.split('/').at(-2)!);
      },
    },
  });
  expectFaithful(r);
  return { r, record: record!, merge: record!.merge as MergeState, judgedSha, mergeCalls, mainSha, sections, labels, permissionChecks, mergeGit };
}

describe('auto-merge: only what the critic passed, on green checks, with the approvals config asks for', () => {
  it('merged: no checks yet means waiting; a green check suite on the judged head lets the merge job merge it, and then delete the run’s branches (#37)', async () => {
    const { r, merge, judgedSha, mergeCalls, mainSha, sections, labels, mergeGit } = await story(
      (s) => void (s.config = `${s.config ?? ''}pr_labels: [crew, automated]\n`),
    );
    expect(labels).toEqual(['crew', 'automated']);
    expect(sections[0]).toMatch(/^⏳ Not merged yet: the repository reports no checks on [0-9a-f]{7}; crew merges when checks pass/);
    expect(sections.at(-1)).toMatch(/^✅ Merged by crew as [0-9a-f]{7}\.$/);
    expect(r.jobs.map((j) => `${j.event}:${j.name}:${j.result}`)).toContain('check_suite:crew / merge:success');
    expect(merge).toMatchObject({ state: 'merged', headSha: judgedSha });
    expect(mergeCalls).toBe(1);
    expect(r.pulls[0]).toMatchObject({ state: 'closed', merged: true });
    expect(r.pulls[0]!.mergeCommitSha).toBe(mainSha);
    expect(r.issue.state).toBe('closed'); // Closes #1
    const plan = crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!;
    expect(plan.body).toContain('· ✅ merged by crew');
    // Merged by crew: the task branch and the pull request's branch are gone; only main and crew/state remain.
    expect(r.branches.map((b) => b.name).sort()).toEqual(['crew/state', 'main']);
    // #31 §4: one write records the merge and deletes both branches in its push, leased to the tips the job's
    // first read of the issue listed: that read (a listing and a pack) and the push are all the merge job asks of git.
    expect(mergeGit.filter((g) => g.kind === 'push').map((g) => g.refs)).toEqual([
      ['refs/heads/crew/1/r1/integration', 'refs/heads/crew/1/r1/t1', 'refs/heads/crew/state'],
    ]);
    expect(mergeGit.length).toBeLessThanOrEqual(6);
  }, 360_000);

  it('the merge job stops right after GitHub merged: its re-run finds crew’s merge, records it and deletes the branches, without merging again', async () => {
    const { r, record, merge, mergeCalls, mainSha, sections } = await story((s) => {
      s.kill.push({ job: 'merge', checkpoint: 'pull-merged', mode: 'cancel', times: 1 });
      s.timeline.push({ rerun: { workflow: 'crew', author: 'maintainer' } }, { wait: 'idle' });
    });
    expect(r.jobs.filter((j) => j.killedAt).map((j) => `${j.name}@${j.killedAt}`)).toEqual(['crew / merge@pull-merged']);
    expect(r.jobs.filter((j) => j.job === 'merge' && j.result !== 'skipped').map((j) => j.result)).toEqual(['cancelled', 'success']);
    expect(mergeCalls).toBe(1);
    expect(r.pulls[0]).toMatchObject({ state: 'closed', merged: true });
    expect(merge).toMatchObject({ state: 'merged', mergeSha: mainSha });
    expect(record.cleanup).toMatchObject({ deleted: ['crew/1/r1/integration', 'crew/1/r1/t1'], kept: [], refused: null });
    expect(r.branches.map((b) => b.name).sort()).toEqual(['crew/state', 'main']);
    expect(sections.at(-1)).toMatch(/^✅ Merged by crew as [0-9a-f]{7}\.$/);
    expect(crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!.body).toContain('· ✅ merged by crew');
  }, 360_000);

  it('refused for red checks: the report names the failed check, and nothing is merged', async () => {
    const { r, merge, mergeCalls, sections } = await story((s) => {
      s.timeline = s.timeline.map((step) => ('check' in step ? { check: { name: 'ci', conclusion: 'failure' as const } } : step));
    });
    expect(merge.state).toBe('not-merged');
    expect(sections.at(-1)).toMatch(
      /^Not merged by crew: the `ci` check failed on [0-9a-f]{7}\. Push a fix, or comment `\/crew fix …`; crew merges once the checks pass\.$/,
    );
    expect(mergeCalls).toBe(0);
    expect(r.pulls[0]).toMatchObject({ state: 'open', merged: false });
  }, 360_000);

  it('refused for a moved head: someone pushes to the PR after the critic passed it; the green check on the new head does not merge it', async () => {
    const { r, merge, judgedSha, mergeCalls, sections } = await story((s) => {
      const check = s.timeline.findIndex((step) => 'check' in step);
      s.timeline.splice(check, 0, {
        push: { author: 'reviewer', files: { 'NOTES.md': '# Notes\n\nAn unreviewed line.\n' }, message: 'a change nobody judged' },
      });
    });
    expect(mergeCalls).toBe(0);
    expect(merge).toMatchObject({ state: 'not-merged', headSha: r.pulls[0]!.headSha });
    expect(r.pulls[0]!.headSha).not.toBe(judgedSha);
    expect(sections.at(-1)).toBe(
      `Not merged by crew: the head moved to ${r.pulls[0]!.headSha!.slice(0, 7)} after the critic passed ${judgedSha.slice(0, 7)}; crew merges only what the critic judged.`,
    );
    expect(r.pulls[0]).toMatchObject({ state: 'open', merged: false });
  }, 360_000);

  it("refused without approval: green checks wait for a review; the requester's own approval does not count; another maintainer's does (the full workflow: the sample of this family in that form)", async () => {
    const { r, merge, sections } = await story((s) => {
      s.workflow = 'full';
      s.config = `${s.config ?? ''}require_approval: true\n`;
      s.timeline.push(
        { review: { author: 'maintainer', event: 'APPROVE', body: '', comments: [] } },
        { wait: 'idle' },
        { review: { author: 'reviewer', event: 'APPROVE', body: '', comments: [] } },
        { wait: 'idle' },
      );
    });
    const waitingForReview = sections.filter((t) => t.includes('waiting for an approving review'));
    expect(waitingForReview[0]).toMatch(
      /^⏳ Not merged yet: waiting for an approving review of [0-9a-f]{7} from someone other than @maintainer \(`require_approval`\)\.$/,
    );
    expect(r.workflow).toBe('full');
    expect(r.jobs.filter((j) => j.event === 'pull_request_review' && j.name === 'merge').map((j) => j.result)).toEqual(['success', 'success']);
    expect(merge.state).toBe('merged');
    expect(r.pulls[0]!.merged).toBe(true);
  }, 360_000);

  it("a reader's approval does not count (anyone can approve on a public repository): no merge, and the report says why; a maintainer's approval of the same head merges it", async () => {
    const { r, merge, sections, mergeCalls, permissionChecks } = await story(undefined, 'reader-approval');
    // GitHub took the reader's approval: it is there for the gate to read.
    const reviewJobs = r.jobs.filter((j) => j.event === 'pull_request_review' && j.name === 'crew / merge');
    expect(reviewJobs.map((j) => j.result)).toEqual(['success', 'success']);
    const afterReader = sections.filter((t) => t.includes('@reader'));
    expect(afterReader).toHaveLength(1);
    expect(afterReader[0]).toMatch(
      /^⏳ Not merged yet: waiting for an approving review of [0-9a-f]{7} from someone other than @maintainer \(`require_approval`\); approvals that do not count: @reader has read access\.$/,
    );
    expect(sections.at(-1)).toMatch(/^✅ Merged by crew as [0-9a-f]{7}\.$/);
    expect(merge.state).toBe('merged');
    expect(mergeCalls).toBe(1);
    expect(r.pulls[0]).toMatchObject({ state: 'closed', merged: true });
    // Each review's merge job asked about each approving reviewer once: the reader twice in all (one per job), the maintainer once.
    expect(permissionChecks.filter((l) => l !== 'maintainer').sort()).toEqual(['keeper', 'reader', 'reader']);
  }, 360_000);

  it('the permission check fails for the approving maintainer: crew fails closed, does not merge, and the report says the check failed', async () => {
    const { r, merge, sections, mergeCalls } = await story((s) => {
      s.timeline = s.timeline.filter((step) => !('review' in step && step.review.author === 'reader'));
      // GitHub stops answering the permission check just before the maintainer approves (the route job's check of /crew run passed).
      s.timeline.splice(
        s.timeline.findIndex((step) => 'review' in step),
        0,
        { github_faults: [{ route: PERMISSION_ROUTE, status: 502, kind: 'server-error', times: 1000 }] },
      );
    }, 'reader-approval');
    expect(mergeCalls).toBe(0);
    expect(merge.state).toBe('waiting');
    expect(sections.at(-1)).toMatch(/approvals that do not count: @keeper: the permission check failed\.$/);
    expect(r.pulls[0]).toMatchObject({ state: 'open', merged: false });
  }, 360_000);

  it('CI fails after the run has finished, with fix_ci off: the report and the plan comment say which check failed, with its run, and what to do (never "waiting"); a re-run that passes merges it, and the section says so (#39)', async () => {
    let atRerun: { report: string; plan: string } | undefined;
    let record: RunRecord | undefined;
    let ci: Array<{ id: number; attempt: number; result: string }> = [];
    const sections: string[] = [];
    const r = await play('auto-merge-ci-flaky', {
      hooks: {
        onCrewComment: ({ body }) => {
          const m = /<!-- crew:merge -->\n### Merge\n\n(.*)\n<!-- \/crew:merge -->/.exec(body);
          if (m && sections.at(-1) !== m[1]) sections.push(m[1]!);
        },
        // Just before the maintainer re-runs CI: what the report and the plan comment say after the failure.
        onStep: (step, _i, gh) => {
          if (!('rerun' in step)) return;
          const mine = [...gh.comments.values()].filter((c) => c.user === 'crew-bot').map((c) => c.body);
          atRerun = { report: mine.find((b) => b.startsWith('<!-- crew:report '))!, plan: mine.find((b) => b.startsWith('<!-- crew:plan '))! };
        },
        beforeClose: async ({ gh, runner }) => {
          record = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!) as RunRecord;
          ci = runner.runs
            .filter((run) => run.workflow === '.github/workflows/ci.yml')
            .map((run) => ({ id: run.id, attempt: run.attempt, result: run.jobs.map((j) => j.result).join() }));
        },
      },
    });
    expectFaithful(r);
    const pr = r.pulls[0]!;
    const head = record!.review!.headSha!.slice(0, 7);
    // Before CI ran, the report waited for checks; the failure replaced that, in present terms.
    expect(sections[0]).toMatch(/^⏳ Not merged yet: the repository reports no checks on [0-9a-f]{7}/);
    const failed = new RegExp(
      `^Not merged by crew: the \`flaky\` check of \`CI\` failed on ${head} \\(\\[run\\]\\(http://127\\.0\\.0\\.1:\\d+/acme/widgets/actions/runs/(\\d+)\\)\\)\\. Push a fix, or comment \`/crew fix …\`; crew merges once the checks pass\\.$`,
    );
    expect(sections[1]).toMatch(failed);
    const report = /<!-- crew:merge -->\n### Merge\n\n(.*)\n<!-- \/crew:merge -->/.exec(atRerun!.report)![1]!;
    expect(report).toBe(sections[1]);
    expect(atRerun!.plan).toContain(`· not merged by crew: ${sections[1]!.replace(/^Not merged by crew: /, '').replace(/\.$/, '')}`);
    for (const text of [report, atRerun!.plan]) expect(text).not.toMatch(/waiting|⏳/i);
    // The failure went to the route job (fix_ci off: it fixes nothing, but the gate speaks); the re-run's success to the merge job.
    expect(r.jobs.filter((j) => j.event === 'workflow_run' && j.result !== 'skipped').map((j) => `${j.job}:${j.result}`)).toEqual([
      'route:success',
      'merge:success',
    ]);
    // One CI run, re-run: its first attempt failed, its second passed; the link is that run's.
    expect(ci).toEqual([
      { id: ci[0]!.id, attempt: 1, result: 'failure' },
      { id: ci[0]!.id, attempt: 2, result: 'success' },
    ]);
    expect(failed.exec(sections[1]!)![1]).toBe(String(ci[0]!.id));
    // Merged on the same head once the re-run passed; the section and the plan comment say so; nothing else was posted.
    expect(record!.merge).toMatchObject({ state: 'merged', headSha: record!.review!.headSha });
    expect(sections.at(-1)).toMatch(/^✅ Merged by crew as [0-9a-f]{7}\.$/);
    expect(sections).toHaveLength(3);
    expect([pr.state, pr.merged]).toEqual(['closed', true]);
    expect(crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!.body).toContain('· ✅ merged by crew');
    expect(r.pulls[0]!.comments.filter((c) => c.author === r.crewLogin && !c.body.startsWith('<!-- crew:'))).toEqual([]);
  }, 600_000);
});
