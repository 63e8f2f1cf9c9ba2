import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitClient } from '../../../src/adapters/git/git-client';
import { GitProcess } from '../../../src/adapters/git/git-process';
import { git } from '../../support/git-cli';

/** crew's own git runner (it replaced simple-git): what callers rely on, command by command. */
describe('GitProcess', () => {
  let dir: string;
  // HOME is the test's folder, so no person's global config is read.
  const env = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crew-git-process-'));
    await git(['init', '--quiet', '-b', 'main'], { cwd: dir });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves with standard output as it is, untrimmed, and with nothing for a quiet command', async () => {
    const g = new GitProcess(dir, { vars: env(), allowed: {} });
    expect(await g.raw(['rev-parse', '--is-inside-work-tree'])).toBe('true\n');
    expect(await g.raw(['status', '--porcelain'])).toBe('');
  });

  it('fails a non-zero exit that printed to standard error, with what git printed', async () => {
    const g = new GitProcess(dir, { vars: env(), allowed: {} });
    await expect(g.raw(['rev-parse', '--verify', 'no-such-ref'])).rejects.toThrow(/fatal: Needed a single revision/);
  });

  it('resolves a non-zero exit that printed nothing to standard error (callers read the repository, not the exit)', async () => {
    const g = new GitProcess(dir, { vars: env(), allowed: {} });
    // `--quiet`: exit 1, nothing on either stream.
    expect(await g.raw(['rev-parse', '--verify', '--quiet', 'no-such-ref'])).toBe('');
  });

  it('runs one command at a time, in the order asked', async () => {
    const g = new GitProcess(dir, { vars: env(), allowed: {} });
    const order: string[] = [];
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) => g.raw(['config', '--file', join(dir, 'order'), '--add', 'seen.name', name]).then(() => order.push(name))),
    );
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    expect((await g.raw(['config', '--file', join(dir, 'order'), '--get-all', 'seen.name'])).split('\n').filter(Boolean)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps simple-git’s argument checks: an upload program or an alias is refused before anything runs', async () => {
    const pwn = join(dir, 'pwned');
    const g = new GitProcess(dir, { vars: env(), allowed: {} });
    await expect(g.raw(['ls-remote', `--upload-pack=touch ${pwn}`, dir])).rejects.toThrow(/crew refused to run git ls-remote/);
    await expect(g.raw(['-c', `alias.x=!touch ${pwn}`, 'x'])).rejects.toThrow(/crew refused to run git/);
    expect(existsSync(pwn)).toBe(false);
  });

  it('lets through only the categories its client allows (crew’s client sets its credentials through the environment)', async () => {
    const vars = { ...env(), GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.pager', GIT_CONFIG_VALUE_0: 'cat' };
    await expect(new GitProcess(dir, { vars, allowed: {} }).raw(['status', '--porcelain'])).rejects.toThrow(/crew refused/);
    expect(
      await new GitProcess(dir, { vars, allowed: { allowUnsafeConfigEnvCount: true, allowUnsafePager: true } }).raw(['rev-parse', '--is-inside-work-tree']),
    ).toBe('true\n');
  });

  it('settings found later (the drivers listing): commands wait for them; a failed listing fails each command, not the job', async () => {
    let give!: (s: { vars: Record<string, string>; allowed: object }) => void;
    const later = new GitProcess(dir, new Promise((r) => (give = r)));
    const answer = later.raw(['rev-parse', '--is-inside-work-tree']);
    give({ vars: env(), allowed: {} });
    expect(await answer).toBe('true\n');
    const broken = new GitProcess(dir, Promise.reject(new Error('crew could not list the drivers')));
    // No command yet: the rejection must not be unhandled (it would end the process).
    await new Promise((r) => setTimeout(r, 20));
    await expect(broken.raw(['status'])).rejects.toThrow(/could not list the drivers/);
    await expect(broken.env('X', '1').raw(['status'])).rejects.toThrow(/could not list the drivers/);
  });

  it('names a folder that does not exist, before any command', () => {
    expect(() => new GitProcess(join(dir, 'nowhere'), { vars: env(), allowed: {} })).toThrow(/no such folder/);
  });

  it('a pinned client stops when its git folder was swapped, and says why', async () => {
    const work = mkdtempSync(join(tmpdir(), 'crew-git-pin-'));
    try {
      await git(['init', '--quiet', '-b', 'main'], { cwd: work });
      const g = gitClient(work, '', undefined, {}, { gitDir: join(work, '.git'), workTree: work, ignoreGlobalConfig: true });
      expect(await g.raw(['status', '--porcelain'])).toBe('');
      renameSync(join(work, '.git'), join(work, 'moved'));
      await git(['init', '--quiet', '-b', 'main'], { cwd: work });
      await expect(g.raw(['status', '--porcelain'])).rejects.toThrow(/was replaced or removed/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
