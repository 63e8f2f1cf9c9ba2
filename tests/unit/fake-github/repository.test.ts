import { describe, expect, it } from 'vitest';
import { git } from '../../support/git-cli';
import { failure, fakeForTest, octokitFor, repoOf, seedBranch } from './helpers';

describe('repository contents and metadata', () => {
  it('serves a file with its blob sha, at the default branch or a ref', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.actionsToken({ contents: 'read' }));
    const file = (await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { ...repoOf(gh), path: 'src/app.ts' })).data as {
      type: string;
      sha: string;
      content: string;
      size: number;
      name: string;
      path: string;
      git_url: string;
    };
    const blob = (await git(['rev-parse', 'main:src/app.ts'], { cwd: gh.repoDir })).trim();
    expect(file).toMatchObject({ type: 'file', name: 'app.ts', path: 'src/app.ts', sha: blob, size: 26 });
    expect(file.git_url).toBe(`${gh.url}/repos/acme/widgets/git/blobs/${blob}`);
    expect(Buffer.from(file.content, 'base64').toString()).toBe('export const answer = 42;\n');

    await seedBranch(gh, 'next', { 'src/app.ts': 'export const answer = 43;\n' });
    const next = (await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { ...repoOf(gh), path: 'src/app.ts', ref: 'next' })).data as {
      content: string;
      sha: string;
    };
    expect(Buffer.from(next.content, 'base64').toString()).toContain('43');
    expect(next.sha).not.toBe(blob);
  });

  it('sends a file of 1 MB whole, and one byte more without its content (encoding "none"; docs "Get repository content")', async () => {
    const mb = 1024 * 1024;
    const gh = await fakeForTest({ files: { 'one.txt': 'a'.repeat(mb), 'more.txt': 'a'.repeat(mb + 1) } });
    const octokit = octokitFor(gh, gh.userToken('acme'));
    const get = async (path: string) =>
      (await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { ...repoOf(gh), path })).data as { encoding: string; content: string; size: number };
    const one = await get('one.txt');
    expect(one).toMatchObject({ encoding: 'base64', size: mb });
    expect(Buffer.from(one.content, 'base64').length).toBe(mb);
    expect(await get('more.txt')).toMatchObject({ encoding: 'none', content: '', size: mb + 1 });
  });

  it('answers 404 for a missing file, a missing ref, and (unlike GitHub, which lists it) a directory', async () => {
    const gh = await fakeForTest();
    const octokit = octokitFor(gh, gh.userToken('acme'));
    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { ...repoOf(gh), path: 'nope.txt' }))).status).toBe(404);
    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { ...repoOf(gh), path: 'README.md', ref: 'no-such-ref' }))).status).toBe(
      404,
    );
    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { ...repoOf(gh), path: 'src' }))).status).toBe(404);
  });

  it('describes users and the repository', async () => {
    const gh = await fakeForTest({ settings: { allow_squash_merge: false, delete_branch_on_merge: true } });
    gh.addUser('alice', { name: 'Alice' });
    const octokit = octokitFor(gh, gh.userToken('acme'));
    expect((await octokit.request('GET /users/{username}', { username: 'alice' })).data).toMatchObject({ login: 'alice', name: 'Alice', type: 'User' });
    expect((await octokit.request('GET /users/{username}', { username: 'github-actions[bot]' })).data).toMatchObject({ type: 'Bot', id: 41898282 });
    expect((await failure(octokit.request('GET /users/{username}', { username: 'ghost' }))).status).toBe(404);
    const repo = (await octokit.request('GET /repos/{owner}/{repo}', repoOf(gh))).data;
    expect(repo).toMatchObject({
      id: gh.repoId,
      name: 'widgets',
      owner: { login: 'acme' },
      allow_squash_merge: false,
      delete_branch_on_merge: true,
      visibility: 'private',
      permissions: { admin: true },
    });
  });

  it('seeds the repository with a fixed first commit', async () => {
    const gh = await fakeForTest({ files: { 'README.md': '# x\n' } });
    // Same files, identity and date give the same sha on every run.
    expect(await gh.repo.branchSha('main')).toBe('bf7946ff5b3257cc4190620363802a49c6adea5e');
    expect(await gh.repo.listFiles('main')).toEqual(['README.md']);
  });

  it('honours another default branch', async () => {
    const gh = await fakeForTest({ defaultBranch: 'trunk' });
    const octokit = octokitFor(gh, gh.userToken('acme'));
    expect((await octokit.request('GET /repos/{owner}/{repo}', repoOf(gh))).data.default_branch).toBe('trunk');
    expect((await octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...repoOf(gh), ref: 'heads/trunk' })).data.object.sha).toBe(
      await gh.repo.branchSha('trunk'),
    );
    expect((await git(['symbolic-ref', 'HEAD'], { cwd: gh.repoDir })).trim()).toBe('refs/heads/trunk');
  });
});
