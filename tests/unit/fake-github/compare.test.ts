import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';
import type { FakeGitHub } from '../../support/github/fake-github';
import { bareSha, cloneWith, failure, fakeForTest, gitIn, octokitFor, repoOf, seedBranch } from './helpers';

const compare = (gh: FakeGitHub, basehead: string, token = gh.userToken('acme')) =>
  octokitFor(gh, token).request('GET /repos/{owner}/{repo}/compare/{basehead}', { ...repoOf(gh), basehead });

/** Moves a branch on by one commit in the fake's bare repository; returns the commit. */
const advance = (gh: FakeGitHub, branch: string, files: Record<string, string>, message = `Change on ${branch}`) =>
  gh.repo.writeCommit({ branch, files, message });

/**
 * Pushes two commits to `claude/issue-1` through a clone: the first changes src/app.ts and
 * adds docs/guide.md; the second, by Alice (a no-reply address GitHub links to her),
 * removes README.md and renames ci.yml. Returns both shas.
 */
async function pushFeature(gh: FakeGitHub): Promise<{ alice: number; first: string; second: string }> {
  const alice = gh.addUser('alice', { permission: 'write' }).id;
  const token = gh.userToken('acme');
  const dir = await cloneWith(gh, token);
  const env = { ...FIXTURE_IDENTITY, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => git(args, { cwd: dir, env: { ...env, ...extra } });

  await run(['checkout', '--quiet', '-b', 'claude/issue-1']);
  await writeFile(join(dir, 'src/app.ts'), 'export const answer = 43;\nexport const question = "?";\n');
  await mkdir(dirname(join(dir, 'docs/guide.md')), { recursive: true });
  await writeFile(join(dir, 'docs/guide.md'), '# Guide\n\nRead me.\n');
  await run(['add', '-A']);
  await run(['commit', '--quiet', '-m', 'Answer differently\n\nWith a body.']);
  const first = (await run(['rev-parse', 'HEAD'])).trim();

  await rm(join(dir, 'README.md'));
  await run(['mv', '.github/workflows/ci.yml', '.github/workflows/test.yml']);
  await run(['add', '-A']);
  const email = `${alice}+alice@users.noreply.github.com`;
  await run(['commit', '--quiet', '-m', 'Tidy up'], { GIT_AUTHOR_NAME: 'Alice', GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: '2026-02-03T04:05:06+02:00' });
  const second = (await run(['rev-parse', 'HEAD'])).trim();

  const pushed = await gitIn(dir, ['push', '--quiet', 'origin', 'claude/issue-1'], token);
  if (pushed.code !== 0) throw new Error(`push failed: ${pushed.stderr}`);
  return { alice, first, second };
}

describe('GET /repos/{owner}/{repo}/compare/{basehead}', () => {
  it('compares a branch two commits ahead: commits oldest first, files with their statuses', async () => {
    const gh = await fakeForTest();
    const main = (await bareSha(gh, 'main'))!;
    const { alice, first, second } = await pushFeature(gh);

    const { status, data } = await compare(gh, 'main...claude/issue-1', gh.actionsToken({ contents: 'read' }));
    expect(status).toBe(200);
    expect(data).toMatchObject({ status: 'ahead', ahead_by: 2, behind_by: 0, total_commits: 2 });
    expect(data.base_commit.sha).toBe(main);
    expect(data.merge_base_commit.sha).toBe(main);
    expect(data.url).toBe(`${gh.url}/repos/acme/widgets/compare/main...claude/issue-1`);
    expect(data.html_url).toBe(`${gh.url}/acme/widgets/compare/main...claude/issue-1`);
    expect(data.diff_url).toBe(`${data.html_url}.diff`);
    expect(data.patch_url).toBe(`${data.html_url}.patch`);
    expect(data.permalink_url).toBe(`${gh.url}/acme/widgets/compare/acme:${main}...acme:${second}`);

    expect(data.commits.map((c) => [c.sha, c.commit.message, c.parents.map((p) => p.sha)])).toEqual([
      [first, 'Answer differently\n\nWith a body.', [main]],
      [second, 'Tidy up', [first]],
    ]);
    const [one, two] = data.commits;
    expect(one!.commit.author).toMatchObject({ name: 'Fixture', email: 'fixture@example.com' });
    expect(one!.author).toBeNull();
    expect(two!.commit.author).toEqual({ name: 'Alice', email: `${alice}+alice@users.noreply.github.com`, date: '2026-02-03T02:05:06Z' });
    expect(two!.author).toMatchObject({ login: 'alice', id: alice });
    expect(two!.commit.tree.sha).toBe((await git(['rev-parse', `${second}^{tree}`], { cwd: gh.repoDir })).trim());

    const blob = async (ref: string, path: string) => (await git(['rev-parse', `${ref}:${path}`], { cwd: gh.repoDir })).trim();
    const files = data.files!.map(({ filename, status: s, previous_filename, additions, deletions, changes, sha }) => ({
      filename,
      status: s,
      previous_filename,
      additions,
      deletions,
      changes,
      sha,
    }));
    expect(files).toEqual([
      {
        filename: '.github/workflows/test.yml',
        status: 'renamed',
        previous_filename: '.github/workflows/ci.yml',
        additions: 0,
        deletions: 0,
        changes: 0,
        sha: await blob(second, '.github/workflows/test.yml'),
      },
      { filename: 'README.md', status: 'removed', previous_filename: undefined, additions: 0, deletions: 1, changes: 1, sha: await blob(main, 'README.md') },
      {
        filename: 'docs/guide.md',
        status: 'added',
        previous_filename: undefined,
        additions: 3,
        deletions: 0,
        changes: 3,
        sha: await blob(second, 'docs/guide.md'),
      },
      {
        filename: 'src/app.ts',
        status: 'modified',
        previous_filename: undefined,
        additions: 2,
        deletions: 1,
        changes: 3,
        sha: await blob(second, 'src/app.ts'),
      },
    ]);
    const app = data.files!.find((f) => f.filename === 'src/app.ts')!;
    expect(app.patch).toBe('@@ -1 +1,2 @@\n-export const answer = 42;\n+export const answer = 43;\n+export const question = "?";');
    expect(app.blob_url).toBe(`${gh.url}/acme/widgets/blob/${second}/src/app.ts`);
    expect(app.raw_url).toBe(`${gh.url}/acme/widgets/raw/${second}/src/app.ts`);
    expect(app.contents_url).toBe(`${gh.url}/repos/acme/widgets/contents/src/app.ts?ref=${second}`);
    expect(data.files!.find((f) => f.filename === 'README.md')!.blob_url).toBe(`${gh.url}/acme/widgets/blob/${main}/README.md`);

    // The literal-slash spelling (curl, gh api) and owner-qualified sides give the same comparison.
    const literal = await octokitFor(gh, gh.userToken('acme')).request('GET /repos/acme/widgets/compare/main...claude/issue-1');
    expect(literal.data.commits.map((c: { sha: string }) => c.sha)).toEqual([first, second]);
    expect((await compare(gh, 'acme:main...acme:claude/issue-1')).data).toMatchObject({ status: 'ahead', ahead_by: 2 });
    expect(gh.violations).toEqual([]);
  });

  it('pages the commits from the oldest when asked, with the files on the first page only', async () => {
    const gh = await fakeForTest();
    const { first, second } = await pushFeature(gh);
    const octokit = octokitFor(gh, gh.userToken('acme'));
    const page1 = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', { ...repoOf(gh), basehead: 'main...claude/issue-1', per_page: 1 });
    expect(page1.data.commits.map((c) => c.sha)).toEqual([first]);
    expect(page1.data.files).toHaveLength(4);
    expect(page1.headers.link).toContain('rel="next"');
    const page2 = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
      ...repoOf(gh),
      basehead: 'main...claude/issue-1',
      per_page: 1,
      page: 2,
    });
    expect(page2.data.commits.map((c) => c.sha)).toEqual([second]);
    expect(page2.data.files).toBeUndefined();
    expect(page2.data.total_commits).toBe(2);
    expect(gh.violations).toEqual([]);
  });

  it('reports identical sides, by branch, full sha, short sha or tag', async () => {
    const gh = await fakeForTest();
    const main = (await bareSha(gh, 'main'))!;
    await git(['tag', 'v1', main], { cwd: gh.repoDir });
    for (const basehead of ['main...main', `${main}...main`, `main...${main.slice(0, 7)}`, 'v1...main']) {
      const { data } = await compare(gh, basehead);
      expect(data, basehead).toMatchObject({ status: 'identical', ahead_by: 0, behind_by: 0, total_commits: 0, commits: [], files: [] });
      expect(data.base_commit.sha).toBe(main);
      expect(data.merge_base_commit.sha).toBe(main);
    }
    expect(gh.violations).toEqual([]);
  });

  it('reports a head behind its base, and two branches that diverged', async () => {
    const gh = await fakeForTest();
    const old = (await bareSha(gh, 'main'))!;
    const feature = await seedBranch(gh, 'feature', { 'feature.txt': 'f\n' });
    const newMain = await advance(gh, 'main', { 'main.txt': 'm\n' });

    const behind = (await compare(gh, `main...${old}`)).data;
    expect(behind).toMatchObject({ status: 'behind', ahead_by: 0, behind_by: 1, total_commits: 0, commits: [], files: [] });
    expect(behind.base_commit.sha).toBe(newMain);
    expect(behind.merge_base_commit.sha).toBe(old);

    const diverged = (await compare(gh, 'main...feature')).data;
    expect(diverged).toMatchObject({ status: 'diverged', ahead_by: 1, behind_by: 1, total_commits: 1 });
    expect(diverged.merge_base_commit.sha).toBe(old);
    expect(diverged.commits.map((c) => c.sha)).toEqual([feature]);
    // Files come from the merge base: main's own change is not in them.
    expect(diverged.files!.map((f) => [f.filename, f.status])).toEqual([['feature.txt', 'added']]);

    const reverse = (await compare(gh, 'feature...main')).data;
    expect(reverse).toMatchObject({ status: 'diverged', ahead_by: 1, behind_by: 1 });
    expect(reverse.commits.map((c) => c.sha)).toEqual([newMain]);
    expect(gh.violations).toEqual([]);
  });

  it('answers 404 Not Found for a side it cannot find, and when the histories share no commit', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'feature', { 'feature.txt': 'f\n' });
    for (const basehead of ['main...nope', 'nope...main', 'main', 'main..feature', 'octocat:main...feature', 'main~1...main', `main...${'0'.repeat(40)}`]) {
      const refused = await failure(compare(gh, basehead));
      expect(refused.status, basehead).toBe(404);
      expect(refused.data.message, basehead).toBe('Not Found');
    }
    // A branch with its own root commit.
    await gh.repo.writeCommit({ branch: 'orphan', files: { 'x.txt': 'x\n' }, message: 'Unrelated' });
    const unrelated = await failure(compare(gh, 'main...orphan'));
    expect(unrelated.status).toBe(404);
    expect(unrelated.data.message).toBe('No common ancestor between main and orphan.');
    expect(gh.violations).toEqual([]);
  });

  it('needs contents: read, and hides a private repository from a request without a token like the other reads', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'feature', { 'feature.txt': 'f\n' });
    expect((await compare(gh, 'main...feature', gh.actionsToken({ contents: 'read' }))).data.ahead_by).toBe(1);
    const noContents = await failure(compare(gh, 'main...feature', gh.actionsToken({ issues: 'write' })));
    expect(noContents.status).toBe(403);
    expect(noContents.message).toContain('Resource not accessible by integration');

    const anonymous = octokitFor(gh);
    const hidden = await failure(anonymous.request('GET /repos/{owner}/{repo}/compare/{basehead}', { ...repoOf(gh), basehead: 'main...feature' }));
    expect(hidden.status).toBe(404);
    // The same answer as another repository read without a token.
    expect((await failure(anonymous.request('GET /repos/{owner}/{repo}/branches/{branch}', { ...repoOf(gh), branch: 'main' }))).status).toBe(404);
    gh.addUser('stranger', { permission: 'none' });
    expect((await failure(compare(gh, 'main...feature', gh.userToken('stranger')))).status).toBe(404);
    gh.addUser('reader', { permission: 'read' });
    expect((await compare(gh, 'main...feature', gh.userToken('reader'))).data.status).toBe('ahead');
    expect(gh.violations).toEqual([]);
  });
});
