import { Octokit } from '@octokit/core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GitHubForge } from '../../../src/adapters/github/forge';
import { parseConfig } from '../../../src/config/schema';
import { mergeMethod } from '../../../src/domain/merge-gate';
import type { Forge, ForgeOnGitHub, Log } from '../../../src/ports';
import type { StepContext } from '../../../src/steps/context';
import { decideMerge } from '../../../src/steps/merge';
import { FakeGitHub } from '../../support/github/fake-github';
import { forgeOn } from '../../support/github/forge-on';
import { view } from './run-fixtures';
import { fakeGitHubForTest } from '../../support/github/for-test';
import { GITHUB } from '../../../src/domain/surface';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
const MERGE_ROUTE = 'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge';

/**
 * The merge step against the fake GitHub: the method comes from repos.get (or config), and
 * GitHub's own refusals (405 for a method the repository does not allow, 409 when the head
 * moved under the merge) are explained once, never retried.
 */
describe('the merge step against the fake GitHub', () => {
  let gh: FakeGitHub;
  let forge: GitHubForge;
  let pr: { number: number; head: string };

  beforeEach(async () => {
    ({ gh } = await fakeGitHubForTest({ prefix: 'merge-step-', apiUrl: true, settings: { allow_merge_commit: false } }));
    gh.addUser('maintainer', { permission: 'write' });
    forge = forgeOn(gh, gh.actionsToken({ contents: 'write', issues: 'write', 'pull-requests': 'write', checks: 'read', statuses: 'read' }), log);
    const head = await gh.repo.writeCommit({
      branch: 'crew/12/r2/integration',
      from: 'main',
      files: { 'NOTES.md': '# Notes\n' },
      message: 'crew: integrate t1',
    });
    const people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    const { data } = await people.request('POST /repos/{owner}/{repo}/pulls', {
      owner: gh.owner,
      repo: gh.repoName,
      title: 'Notes',
      head: 'crew/12/r2/integration',
      base: 'main',
    });
    pr = { number: data.number, head };
  });

  /** A context with just what the merge gate uses: config, the critic's PASS on `judged`, the forge, a clock. */
  function context(configText: string, judged: string, f: Forge = forge): StepContext {
    const judgment = JSON.stringify({
      iteration: 1,
      headSha: judged,
      verdict: 'PASS',
      evaluations: [],
      adversarial: [],
      overallReason: 'ok',
      suggestedNextAction: '',
      at: '2026-11-21T00:00:00Z',
    });
    return withPlanCommentSync({
      config: async () => parseConfig(configText),
      forge: f,
      state: { load: async () => ({ version: '1', read: (p: string) => (p.endsWith('judgments/judgment_1.json') ? judgment : undefined), list: () => [] }) },
      clock: { now: () => new Date('2026-11-21T00:05:00Z') },
      log,
      surface: GITHUB,
    } as unknown as StepContext);
  }
  const reviewed = view(['success', 'success', 'success'], {
    phase: 'COMPLETED',
    review: { iteration: 1, verdict: 'PASS', headSha: null, met: {}, acceptedBy: null, allowance: 0, rerun: [] },
  });

  it('takes the first method repos.get allows: squash when merge commits are off', async () => {
    // GitHub's schema marks allow_* optional with a default of true, so a missing one counts as allowed.
    expect(await forge.mergeMethods()).toEqual({ merge: false, squash: true, rebase: true });
    expect(mergeMethod(undefined, await forge.mergeMethods())).toBe('squash');
    const m = await decideMerge(context('auto_merge: true\nmerge_without_checks: true\n', pr.head), reviewed, pr.number);
    expect(m).toMatchObject({ state: 'merged', headSha: pr.head });
    expect(m.reason).toContain('squash');
    expect(gh.pulls.get(pr.number)!.merged_at).not.toBeNull();
  });

  it('reads the repository once for the merge methods and whether GitHub deletes the head branch on merge', async () => {
    const repoReads = () => gh.requests.filter((q) => q.route === 'GET /repos/{owner}/{repo}').length;
    const before = repoReads();
    expect(await forge.mergeMethods()).toEqual({ merge: false, squash: true, rebase: true });
    expect(await forge.deletesHeadOnMerge()).toBe(false);
    expect(await forge.defaultBranch()).toBe('main');
    expect(repoReads() - before).toBe(1);
    gh.settings.delete_branch_on_merge = true;
    expect(await forgeOn(gh, gh.actionsToken({ contents: 'read' }), log).deletesHeadOnMerge()).toBe(true);
  });

  it('a gate that finds the pull request merged by crew at the head the critic passed calls it crew’s merge (a job stopped before recording it); one a person merged is not', async () => {
    const config = 'auto_merge: true\nmerge_without_checks: true\n';
    const first = await decideMerge(context(config, pr.head), reviewed, pr.number);
    expect(first).toMatchObject({ state: 'merged' });
    const again = await decideMerge(context(config, pr.head, forgeOn(gh, gh.actionsToken({ 'pull-requests': 'read' }), log)), reviewed, pr.number);
    expect(again).toMatchObject({ state: 'merged', headSha: pr.head, mergeSha: first.mergeSha });
    expect(gh.requests.filter((q) => q.route === MERGE_ROUTE)).toHaveLength(1);

    // A person's merge of another pull request: the gate says it is merged already, not that crew merged it.
    const head = await gh.repo.writeCommit({ branch: 'crew/13/r1/integration', from: 'main', files: { 'B.md': 'b\n' }, message: 'crew: integrate t1' });
    const people = new Octokit({ auth: gh.userToken('maintainer'), baseUrl: gh.url });
    const { data } = await people.request('POST /repos/{owner}/{repo}/pulls', {
      owner: gh.owner,
      repo: gh.repoName,
      title: 'B',
      head: 'crew/13/r1/integration',
      base: 'main',
    });
    await people.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {
      owner: gh.owner,
      repo: gh.repoName,
      pull_number: data.number,
      merge_method: 'squash',
    });
    expect(await decideMerge(context(config, head), reviewed, data.number)).toMatchObject({
      state: 'not-merged',
      reason: 'the pull request is already merged',
    });
  });

  it('a configured method the repository does not allow: GitHub answers 405, and crew explains it without retrying', async () => {
    const m = await decideMerge(context('auto_merge: true\nmerge_without_checks: true\nmerge_method: merge\n', pr.head), reviewed, pr.number);
    expect(m.state).toBe('not-merged');
    expect(m.reason).toMatch(
      /^GitHub refused the merge merge \(405: .*Merge commits are not allowed on this repository.*\)\. Branch protection .* crew does not retry it$/,
    );
    expect(gh.requests.filter((q) => q.route === MERGE_ROUTE)).toHaveLength(1);
  });

  it('the head moves between the gate reading the PR and the merge: GitHub answers 409 to the judged sha, nothing is merged', async () => {
    let moved = '';
    // Someone pushes to the PR's branch just as crew merges: a real race, no injected fault.
    const racing = new Proxy(forge, {
      get(target, key) {
        if (key === 'mergePull')
          return async (...args: Parameters<ForgeOnGitHub['mergePull']>) => {
            moved = await gh.repo.writeCommit({ branch: 'crew/12/r2/integration', files: { 'NOTES.md': '# Notes\n\nA late push.\n' }, message: 'a late push' });
            return target.mergePull!(...args);
          };
        const v = Reflect.get(target, key) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const m = await decideMerge(context('auto_merge: true\nmerge_without_checks: true\n', pr.head, racing), reviewed, pr.number);
    expect(moved).not.toBe(pr.head);
    expect(m).toMatchObject({ state: 'not-merged', headSha: pr.head, mergeSha: null });
    expect(m.reason).toContain('the head moved while crew was merging (GitHub answered 409), so nothing was merged');
    expect(gh.requests.filter((q) => q.route === MERGE_ROUTE).map((q) => q.status)).toEqual([409]);
    expect(gh.pulls.get(pr.number)!.merged_at).toBeNull();
  });
});
