import { request } from 'node:http';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { git } from '../../support/git-cli';
import { bareSha, cloneWith, commitFiles, failure, fakeForTest, gitIn, octokitFor, repoOf, seedBranch, tempDir } from './helpers';

describe('git over HTTP', () => {
  it('refuses a clone without credentials with a 401 challenge', async () => {
    const gh = await fakeForTest();
    const dir = join(await tempDir(), 'repo');
    const r = await gitIn(undefined, ['clone', '--quiet', gh.cloneUrl, dir]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/could not read Username|Authentication failed|terminal prompts disabled/);
    expect(gh.gitRequests).toEqual([expect.objectContaining({ service: 'upload-pack', phase: 'info/refs', login: null, status: 401 })]);
  });

  it('clones with a token in an extra header, and with a token in the URL', async () => {
    const gh = await fakeForTest();
    const token = gh.userToken('acme');
    const dir = await cloneWith(gh, token);
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# widgets\n');
    expect((await git(['rev-parse', 'HEAD'], { cwd: dir })).trim()).toBe(await bareSha(gh, 'main'));
    expect(gh.gitRequests.every((r) => r.login === 'acme' && r.status === 200 && r.service === 'upload-pack')).toBe(true);
    expect(gh.gitRequests.map((r) => r.phase)).toContain('git-upload-pack');

    const before = gh.gitRequests.length;
    const viaUrl = join(await tempDir(), 'repo');
    const url = gh.cloneUrl.replace('http://', `http://x-access-token:${gh.actionsToken({ contents: 'read' })}@`);
    const r = await gitIn(undefined, ['clone', '--quiet', url, viaUrl]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await readFile(join(viaUrl, 'src/app.ts'), 'utf8')).toContain('answer = 42');
    // git asks without credentials first, then answers the challenge.
    const byUrl = gh.gitRequests.slice(before);
    expect(byUrl[0]).toMatchObject({ status: 401, login: null });
    expect(byUrl.slice(1).every((x) => x.login === 'github-actions[bot]' && x.status === 200)).toBe(true);
  });

  it('answers protocol v2 ref listings fresh every time, although the capability list is kept', async () => {
    const gh = await fakeForTest();
    const token = gh.userToken('acme');
    const first = await gitIn(undefined, ['ls-remote', gh.cloneUrl], token);
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain('refs/heads/later');
    const sha = await seedBranch(gh, 'later', { 'later.txt': 'new\n' });
    const second = await gitIn(undefined, ['ls-remote', gh.cloneUrl], token);
    expect(second.stdout).toContain(`${sha}\trefs/heads/later`);
    // Each v2 ls-remote: the capabilities (info/refs), then the ref listing.
    expect(gh.gitRequests.map((r) => r.kind)).toEqual(['info/refs', 'ls-refs', 'info/refs', 'ls-refs']);
    // Protocol v0 advertises the refs in info/refs itself: never kept.
    const sha2 = await seedBranch(gh, 'later', { 'later.txt': 'newer\n' }, { from: 'later' });
    const v0 = await gitIn(undefined, ['-c', 'protocol.version=0', 'ls-remote', gh.cloneUrl], token);
    expect(v0.stdout).toContain(`${sha2}\trefs/heads/later`);
    // Permissions are still checked before anything is sent from memory.
    const denied = await gitIn(undefined, ['ls-remote', gh.cloneUrl], gh.actionsToken({ issues: 'write' }));
    expect(denied.code).not.toBe(0);
    expect(gh.gitRequests.at(-1)).toMatchObject({ status: 403 });
  });

  it('answers a repeated ref listing from memory only while no ref moves, whoever moves it', async () => {
    const gh = await fakeForTest();
    const token = gh.userToken('acme');
    const list = async () => {
      const r = await gitIn(undefined, ['ls-remote', gh.cloneUrl], token);
      expect(r.code).toBe(0);
      return r.stdout;
    };
    const first = await list();
    const runs = gh.gitBackendRuns;
    // Same refs, same question: the same bytes, without starting git.
    expect(await list()).toBe(first);
    expect(gh.gitBackendRuns).toBe(runs);

    // A ref moved by the fake itself (a seeded commit).
    const sha = await seedBranch(gh, 'later', { 'later.txt': 'new\n' });
    const second = await list();
    expect(second).toContain(`${sha}\trefs/heads/later`);
    expect(gh.gitBackendRuns).toBe(runs + 1);

    // A ref moved behind the fake's back, straight in the bare repository, and moved back.
    await git(['update-ref', 'refs/heads/elsewhere', sha], { cwd: gh.repoDir });
    expect(await list()).toContain(`${sha}\trefs/heads/elsewhere`);
    await git(['update-ref', '-d', 'refs/heads/elsewhere'], { cwd: gh.repoDir });
    expect(await list()).toBe(second);
    // Packed refs count as much as loose ones.
    await git(['pack-refs', '--all'], { cwd: gh.repoDir });
    await git(['update-ref', 'refs/heads/later', (await bareSha(gh, 'main'))!], { cwd: gh.repoDir });
    expect(await list()).not.toContain(`${sha}\trefs/heads/later`);

    // A push's advertisement (protocol v0, the refs themselves) follows the refs too.
    const dir = await cloneWith(gh, token);
    await commitFiles(dir, { 'p.txt': 'one\n' }, 'One');
    expect((await gitIn(dir, ['push', '--quiet', 'origin', 'HEAD:refs/heads/pushed'], token)).code).toBe(0);
    const tip = await commitFiles(dir, { 'p.txt': 'two\n' }, 'Two');
    expect((await gitIn(dir, ['push', '--quiet', 'origin', 'HEAD:refs/heads/pushed'], token)).code).toBe(0);
    expect(await bareSha(gh, 'pushed')).toBe(tip);
    // The second push was told where `pushed` stood: a stale answer would make it a non-fast-forward.
    expect((await gitIn(dir, ['push', '--quiet', 'origin', 'HEAD~1:refs/heads/pushed'], token)).code).not.toBe(0);
  });

  it('takes a client that goes away halfway through its request body in its stride', async () => {
    const gh = await fakeForTest();
    const auth = `Basic ${Buffer.from(`x-access-token:${gh.userToken('acme')}`).toString('base64')}`;
    const answered = new Promise<void>((resolve) => {
      const req = request(`${gh.cloneUrl}/git-upload-pack`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2' },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      // Half of "command=ls-refs", then the connection is cut.
      req.write('0014command=ls', () => setTimeout(() => req.destroy(), 50));
    });
    await answered;
    await expect.poll(() => gh.gitRequests.length).toBe(1);
    expect(gh.violations).toEqual([]);
    // And the fake goes on serving.
    expect((await gitIn(undefined, ['ls-remote', gh.cloneUrl], gh.userToken('acme'))).code).toBe(0);
  });

  it('refuses a clone with a workflow token that lacks contents: read', async () => {
    const gh = await fakeForTest();
    const dir = join(await tempDir(), 'repo');
    const r = await gitIn(undefined, ['clone', '--quiet', gh.cloneUrl, dir], gh.actionsToken({ issues: 'write' }));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('403');
    expect(gh.gitRequests.at(-1)).toMatchObject({ status: 403, login: 'github-actions[bot]' });
  });

  it('answers 404 for a repository it does not host', async () => {
    const gh = await fakeForTest();
    const r = await gitIn(undefined, ['ls-remote', `${gh.url}/acme/gadgets.git`], gh.userToken('acme'));
    expect(r.code).not.toBe(0);
    expect(gh.gitRequests.at(-1)).toMatchObject({ status: 404 });
  });

  it('accepts a push to a new branch, which the REST API then sees', async () => {
    const gh = await fakeForTest();
    const token = gh.actionsToken({ contents: 'write' });
    const dir = await cloneWith(gh, token);
    const sha = await commitFiles(dir, { 'notes/t1.md': 'task one\n' }, 'Task one');
    const push = await gitIn(dir, ['push', '--quiet', 'origin', 'HEAD:refs/heads/crew/1/r1/t1'], token);
    expect(push.stderr).toBe('');
    expect(push.code).toBe(0);
    expect(await bareSha(gh, 'crew/1/r1/t1')).toBe(sha);
    expect(gh.gitRequests.filter((r) => r.service === 'receive-pack').map((r) => [r.phase, r.status, r.login])).toEqual([
      ['info/refs', 200, 'github-actions[bot]'],
      ['git-receive-pack', 200, 'github-actions[bot]'],
    ]);
    // What each round trip was for (the bench counts them by kind): the push names its ref.
    expect(gh.gitRequests.filter((r) => r.service === 'receive-pack').map((r) => [r.kind, r.refs])).toEqual([
      ['info/refs', undefined],
      ['push', ['refs/heads/crew/1/r1/t1']],
    ]);

    const octokit = octokitFor(gh, token);
    const ref = await octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...repoOf(gh), ref: 'heads/crew/1/r1/t1' });
    expect(ref.data).toMatchObject({ ref: 'refs/heads/crew/1/r1/t1', object: { type: 'commit', sha } });
    const branch = await octokit.request('GET /repos/{owner}/{repo}/branches/{branch}', { ...repoOf(gh), branch: 'crew/1/r1/t1' });
    expect(branch.data).toMatchObject({ name: 'crew/1/r1/t1', commit: { sha, commit: { message: 'Task one' } } });
    expect(branch.data.commit.parents.map((p) => p.sha)).toEqual([await bareSha(gh, 'main')]);
    // The literal-slash spelling routes too.
    const literal = await octokit.request(`GET /repos/acme/widgets/git/ref/heads/crew/1/r1/t1`);
    expect(literal.data.object.sha).toBe(sha);
    const file = await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { ...repoOf(gh), path: 'notes/t1.md', ref: 'crew/1/r1/t1' });
    expect(Buffer.from((file.data as { content: string }).content, 'base64').toString()).toBe('task one\n');

    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...repoOf(gh), ref: 'heads/crew/1/r1/t2' }))).status).toBe(404);
    expect((await failure(octokit.request('GET /repos/{owner}/{repo}/branches/{branch}', { ...repoOf(gh), branch: 'crew/1/r1/t2' }))).status).toBe(404);
  });

  it('lists matching refs by string prefix, as GitHub does', async () => {
    const gh = await fakeForTest();
    await seedBranch(gh, 'crew/1/a', { 'a.txt': 'a\n' });
    await seedBranch(gh, 'crew/10/b', { 'b.txt': 'b\n' });
    await seedBranch(gh, 'feature-x', { 'x.txt': 'x\n' });
    const octokit = octokitFor(gh, gh.userToken('acme'));
    const names = async (ref: string) =>
      (await octokit.request('GET /repos/{owner}/{repo}/git/matching-refs/{ref}', { ...repoOf(gh), ref })).data.map((r) => r.ref);
    expect(await names('heads/crew/1/')).toEqual(['refs/heads/crew/1/a']);
    expect(await names('heads/crew/1')).toEqual(['refs/heads/crew/1/a', 'refs/heads/crew/10/b']);
    expect(await names('heads/feat')).toEqual(['refs/heads/feature-x']);
    expect(await names('heads/nothing')).toEqual([]);
  });

  it('rejects a push with a read-only token', async () => {
    const gh = await fakeForTest();
    gh.addUser('reader', { permission: 'read' });
    for (const token of [gh.userToken('reader'), gh.actionsToken({ contents: 'read' })]) {
      const dir = await cloneWith(gh, token);
      await commitFiles(dir, { 'x.txt': 'x\n' }, 'x');
      const push = await gitIn(dir, ['push', '--quiet', 'origin', 'HEAD:refs/heads/sneaky'], token);
      expect(push.code).not.toBe(0);
      expect(push.stderr).toContain('403');
      expect(gh.gitRequests.at(-1)).toMatchObject({ service: 'receive-pack', status: 403 });
    }
    expect(await bareSha(gh, 'sneaky')).toBeUndefined();
  });

  it('rejects a non-fast-forward push, and accepts a forced one on an unprotected branch', async () => {
    const gh = await fakeForTest();
    const token = gh.userToken('acme');
    const a = await cloneWith(gh, token);
    const b = await cloneWith(gh, token);
    const first = await commitFiles(a, { 'a.txt': 'from a\n' }, 'From a');
    expect((await gitIn(a, ['push', '--quiet', 'origin', 'HEAD:main'], token)).code).toBe(0);
    const diverged = await commitFiles(b, { 'b.txt': 'from b\n' }, 'From b');
    const rejected = await gitIn(b, ['push', 'origin', 'HEAD:main'], token);
    expect(rejected.code).not.toBe(0);
    expect(rejected.stderr).toMatch(/rejected|fetch first|non-fast-forward/);
    expect(await bareSha(gh, 'main')).toBe(first);

    const forced = await gitIn(b, ['push', '--quiet', '--force', 'origin', 'HEAD:main'], token);
    expect(forced.code).toBe(0);
    expect(await bareSha(gh, 'main')).toBe(diverged);
  });

  it('refuses a workflow token’s push that touches .github/workflows, but not a person’s', async () => {
    const gh = await fakeForTest();
    const bot = gh.actionsToken({ contents: 'write' });
    const dir = await cloneWith(gh, bot);
    await commitFiles(dir, { 'src/ok.ts': 'ok\n' }, 'Harmless');
    await commitFiles(dir, { '.github/workflows/crew.yml': 'name: changed\n' }, 'Edit a workflow');
    const refused = await gitIn(dir, ['push', 'origin', 'HEAD:refs/heads/crew/1/r1/t1'], bot);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('refusing to allow a GitHub App to create or update workflow `.github/workflows/crew.yml` without `workflows` permission');
    expect(refused.stderr).toContain('[remote rejected]');
    expect(await bareSha(gh, 'crew/1/r1/t1')).toBeUndefined();
    // Updating an existing branch is checked too.
    expect((await gitIn(dir, ['push', 'origin', 'HEAD:main'], bot)).code).not.toBe(0);

    // An App with the workflows permission, and a person, may.
    expect(
      (await gitIn(dir, ['push', '--quiet', 'origin', 'HEAD:refs/heads/by-app'], gh.appToken('crew-app', { contents: 'write', workflows: 'write' }))).code,
    ).toBe(0);
    expect((await gitIn(dir, ['push', '--quiet', 'origin', 'HEAD:refs/heads/crew/1/r1/t1'], gh.userToken('acme'))).code).toBe(0);
    expect(await gh.repo.readFile('refs/heads/crew/1/r1/t1', '.github/workflows/crew.yml')).toBe('name: changed\n');

    // A bot push that leaves workflows alone still goes through.
    const clean = await cloneWith(gh, bot);
    await commitFiles(clean, { 'src/other.ts': 'x\n' }, 'Other');
    const ok = await gitIn(clean, ['push', '--quiet', 'origin', 'HEAD:refs/heads/crew/1/r1/t2'], bot);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
  });

  it('deletes a branch with a push', async () => {
    const gh = await fakeForTest();
    const token = gh.userToken('acme');
    await seedBranch(gh, 'doomed', { 'd.txt': 'd\n' });
    const dir = await cloneWith(gh, token);
    expect((await gitIn(dir, ['push', '--quiet', 'origin', ':refs/heads/doomed'], token)).code).toBe(0);
    expect(await bareSha(gh, 'doomed')).toBeUndefined();
    expect((await failure(octokitFor(gh, token).request('GET /repos/{owner}/{repo}/branches/{branch}', { ...repoOf(gh), branch: 'doomed' }))).status).toBe(404);
  });
});
