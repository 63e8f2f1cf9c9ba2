import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitHubCrewBranches } from '../../../src/adapters/github/crew-branches';
import { createClient } from '../../../src/adapters/github/octokit';
import { gitRepo } from '../../../src/adapters/git/git-repo';
import { CREW_GIT_IDENTITY } from '../../../src/domain/retention';
import { git } from '../../support/git-cli';
import { fakeGitHubForTest } from '../../support/github/for-test';

const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };

/** A job's checkout of the fake (as actions/checkout leaves it) and crew's CrewBranches over it, with a token of these scopes. */
async function world(settings: Record<string, unknown> = {}, scopes: Record<string, string> = { contents: 'write' }) {
  const { gh, dir: root } = await fakeGitHubForTest({ prefix: 'crew-branches-', files: { 'README.md': '# r\n' }, settings });
  const token = gh.actionsToken(scopes);
  const dir = join(root, 'job');
  await git(['clone', '--quiet', gh.repoDir, dir]);
  const { remote } = gitRepo(dir, gh.cloneUrl, token);
  // createClient reads GITHUB_API_URL when it is called, as in a job.
  process.env.GITHUB_API_URL = gh.url;
  const branches = new GitHubCrewBranches(remote, createClient(token, quiet), { owner: gh.owner, repo: gh.repoName });
  const main = (await gh.repo.branchSha('main'))!;
  return { gh, branches, main };
}

describe('CrewBranches over the fake GitHub: the listing, who made a branch’s commits, and leased deletions', () => {
  it('lists every crew/ branch in one listing, and nothing else', async () => {
    const { gh, branches, main } = await world();
    for (const b of ['crew/state', 'crew/1/r1/t1', 'crew/1/r1/integration', 'feature', 'crewmate/x']) await gh.repo.setRef(`refs/heads/${b}`, main);
    expect((await branches.list()).map((b) => [b.branch, b.sha])).toEqual([
      ['crew/1/r1/integration', main],
      ['crew/1/r1/t1', main],
      ['crew/state', main],
    ]);
  });

  it('names who made each commit a branch adds over the branch it goes into, crew’s and a person’s; a merged branch adds none', async () => {
    const { gh, branches, main } = await world();
    const crewCommit = await gh.repo.writeCommit({
      branch: 'crew/1/r1/t1',
      files: { 'a.txt': 'a\n' },
      message: 'crew: t1',
      from: 'main',
      identity: CREW_GIT_IDENTITY,
    });
    const theirs = await gh.repo.writeCommit({
      branch: 'crew/1/r1/t1',
      files: { 'b.txt': 'b\n' },
      message: 'a fix',
      identity: { name: 'Alice', email: 'alice@example.com' },
    });
    const { commits, complete } = (await branches.commitsBeyond('main', theirs))!;
    expect(complete).toBe(true);
    expect(commits).toEqual([
      { sha: crewCommit, author: CREW_GIT_IDENTITY, committer: CREW_GIT_IDENTITY },
      { sha: theirs, author: { name: 'Alice', email: 'alice@example.com' }, committer: { name: 'Alice', email: 'alice@example.com' } },
    ]);
    expect(await branches.commitsBeyond('main', main)).toEqual({ commits: [], complete: true });
    // A base GitHub does not know (a person's branch, deleted since) is no answer, not an error.
    expect(await branches.commitsBeyond('feature/gone', theirs)).toBeUndefined();
    expect(gh.violations).toEqual([]);
  });

  it('deletes only at the commit crew looked at: deleted, already gone, moved since (kept); crew/state and other names are refused before git runs', async () => {
    const { gh, branches, main } = await world();
    for (const b of ['crew/1/r1/t1', 'crew/1/r1/t2', 'crew/1/r1/integration']) await gh.repo.setRef(`refs/heads/${b}`, main);
    const moved = await gh.repo.writeCommit({
      branch: 'crew/1/r1/t2',
      files: { 'c.txt': 'c\n' },
      message: 'pushed meanwhile',
      identity: { name: 'Alice', email: 'alice@example.com' },
    });
    await gh.repo.deleteRef('refs/heads/crew/1/r1/integration');
    const out = await branches.delete([
      { branch: 'crew/1/r1/t1', sha: main },
      { branch: 'crew/1/r1/t2', sha: main },
      { branch: 'crew/1/r1/integration', sha: main },
    ]);
    expect(out).toEqual([
      { branch: 'crew/1/r1/t1', outcome: 'deleted' },
      { branch: 'crew/1/r1/t2', outcome: 'moved', sha: moved },
      { branch: 'crew/1/r1/integration', outcome: 'gone' },
    ]);
    expect(await gh.repo.branchSha('crew/1/r1/t1')).toBeUndefined();
    expect(await gh.repo.branchSha('crew/1/r1/t2')).toBe(moved);
    await gh.repo.setRef('refs/heads/crew/state', main);
    await expect(branches.delete([{ branch: 'crew/state', sha: main }])).rejects.toThrow(/refusing to delete crew\/state/);
    await expect(branches.delete([{ branch: 'feature', sha: main }])).rejects.toThrow(/refusing to write ref 'feature'/);
    expect(await gh.repo.branchSha('crew/state')).toBe(main);
  });

  it('a ruleset that restricts deletions, or a token that may not write, is an outcome that says what refused it, not an error', async () => {
    const ruled = await world({ ruleset_deletion_prefixes: ['crew/'] });
    await ruled.gh.repo.setRef('refs/heads/crew/1/r1/t1', ruled.main);
    expect(await ruled.branches.delete([{ branch: 'crew/1/r1/t1', sha: ruled.main }])).toEqual([
      {
        branch: 'crew/1/r1/t1',
        outcome: 'refused',
        reason: expect.stringMatching(
          /^a repository ruleset or branch protection refused it \(.*GH013: Repository rule violations found for refs\/heads\/crew\/1\/r1\/t1\..* - Cannot delete this branch\)$/,
        ),
      },
    ]);
    expect(await ruled.gh.repo.branchSha('crew/1/r1/t1')).toBe(ruled.main);
    const reader = await world({}, { contents: 'read' });
    await reader.gh.repo.setRef('refs/heads/crew/1/r1/t1', reader.main);
    expect(await reader.branches.delete([{ branch: 'crew/1/r1/t1', sha: reader.main }])).toEqual([
      { branch: 'crew/1/r1/t1', outcome: 'refused', reason: 'the token crew uses may not push to the repository (the job needs `contents: write`)' },
    ]);
    expect(await reader.gh.repo.branchSha('crew/1/r1/t1')).toBe(reader.main);
  });
});
