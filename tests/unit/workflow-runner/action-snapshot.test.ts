import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { actionRepoSnapshot, pruneSnapshots, SNAPSHOTS, snapshotActionRepo } from '../../support/runner/workflow-runner';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** An action repository with a bundle, templates and a file the snapshot leaves out; `tag` makes its contents unique. */
async function actionRepo(tag: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'snapshot-source-'));
  made.push(root);
  await writeFile(join(root, 'action.yml'), 'name: a\nruns:\n  using: node24\n  main: dist/index.js\n');
  await mkdir(join(root, 'dist'));
  await writeFile(join(root, 'dist', 'index.js'), `console.log(${JSON.stringify(tag)});\n`);
  await mkdir(join(root, 'templates'));
  await writeFile(join(root, 'templates', 'plan.md'), 'a plan\n');
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src', 'main.ts'), 'left out\n');
  return root;
}

describe('the action repository snapshot (workflow-runner.ts)', () => {
  it('is one folder for every test process holding the same files, kept after a process exits, so the compile cache keys one path', async () => {
    const source = await actionRepo(`same-${Math.random()}`);
    const script = `import { actionRepoSnapshot } from ${JSON.stringify(join(import.meta.dirname, '../../support/runner/workflow-runner.ts'))};
      console.log((await actionRepoSnapshot(${JSON.stringify(source)})).dir);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 60_000 });
    const { dir, sha } = await actionRepoSnapshot(source);
    made.push(dir);
    expect(stdout.trim()).toBe(dir);
    expect(dir).toBe(join(SNAPSHOTS, sha));
    expect(await readFile(join(dir, 'dist', 'index.js'), 'utf8')).toContain('same-');
    expect(existsSync(join(dir, 'templates', 'plan.md'))).toBe(true);
    expect(existsSync(join(dir, 'src'))).toBe(false);
  });

  it('holds different files in a different folder, and a copy something wrote into is made again', async () => {
    const a = await snapshotActionRepo(await actionRepo(`a-${Math.random()}`));
    const bSource = await actionRepo(`b-${Math.random()}`);
    const b = await snapshotActionRepo(bSource);
    made.push(a.dir, b.dir);
    expect(a.sha).not.toBe(b.sha);
    await writeFile(join(b.dir, 'dist', 'index.js'), 'tampered\n');
    await writeFile(join(b.dir, 'dist', 'extra.js'), 'left behind\n');
    const again = await snapshotActionRepo(bSource);
    expect(again.dir).toBe(b.dir);
    expect(await readFile(join(b.dir, 'dist', 'index.js'), 'utf8')).toContain('b-');
    expect(existsSync(join(b.dir, 'dist', 'extra.js'))).toBe(false);
    // The written-into copy was moved aside whole, not changed under a process that may still use it.
    const aside = (await readdir(SNAPSHOTS)).filter((n) => n.startsWith(`${b.sha}.stale-`)).map((n) => join(SNAPSHOTS, n));
    made.push(...aside);
    expect(aside).toHaveLength(1);
    expect(await readFile(join(aside[0]!, 'dist', 'extra.js'), 'utf8')).toBe('left behind\n');
  });

  it('refuses a snapshot folder another user planted first (a link, a folder others can write): nothing pruned or run through it', async () => {
    const fakeTmp = await mkdtemp(join(tmpdir(), 'snapshot-tmp-'));
    made.push(fakeTmp);
    await chmod(fakeTmp, 0o1777);
    const target = join(fakeTmp, 'theirs');
    await mkdir(join(target, 'old-entry'), { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    await utimes(join(target, 'old-entry'), twoDaysAgo, twoDaysAgo);
    const source = await actionRepo(`planted-${Math.random()}`);
    const script = `import { snapshotActionRepo } from ${JSON.stringify(join(import.meta.dirname, '../../support/runner/workflow-runner.ts'))};
      await snapshotActionRepo(${JSON.stringify(source)});`;
    const inFakeTmp = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        timeout: 60_000,
        env: { ...process.env, TMPDIR: fakeTmp },
      });
    await symlink(target, join(fakeTmp, 'crew-action-snapshots'));
    await expect(inFakeTmp()).rejects.toThrow(/crew-action-snapshots is a symbolic link/);
    expect(await readdir(target)).toEqual(['old-entry']);
    await rm(join(fakeTmp, 'crew-action-snapshots'));
    await mkdir(join(fakeTmp, 'crew-action-snapshots'));
    await chmod(join(fakeTmp, 'crew-action-snapshots'), 0o777);
    await expect(inFakeTmp()).rejects.toThrow(/crew-action-snapshots can be written by other users/);
    expect(await readdir(join(fakeTmp, 'crew-action-snapshots'))).toEqual([]);
  });

  it('removes a snapshot no process used for a day when it makes a new one, and keeps one used since', async () => {
    const old = join(SNAPSHOTS, `old-${process.pid}-${Date.now()}`);
    const recent = join(SNAPSHOTS, `recent-${process.pid}-${Date.now()}`);
    made.push(old, recent);
    await mkdir(join(old, 'dist'), { recursive: true });
    await mkdir(join(recent, 'dist'), { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    await utimes(old, twoDaysAgo, twoDaysAgo);
    const fresh = await snapshotActionRepo(await actionRepo(`new-${Math.random()}`));
    made.push(fresh.dir);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });

  /** The snapshot of `source` made by another test process, which has exited since: held by no live process. */
  async function madeByAnExitedProcess(source: string): Promise<string> {
    const script = `import { snapshotActionRepo } from ${JSON.stringify(join(import.meta.dirname, '../../support/runner/workflow-runner.ts'))};
      console.log((await snapshotActionRepo(${JSON.stringify(source)})).dir);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 60_000 });
    const dir = stdout.trim();
    made.push(dir);
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    await utimes(dir, twoDaysAgo, twoDaysAgo);
    return dir;
  }

  it('keeps a day-old snapshot a live process holds (a long test run), and removes one only an exited process held', async () => {
    const heldSource = await actionRepo(`held-${Math.random()}`);
    const held = await madeByAnExitedProcess(heldSource);
    const left = await madeByAnExitedProcess(await actionRepo(`left-${Math.random()}`));
    // This process took the first up long ago and still runs: it holds it, though it has not touched it for two days.
    expect((await snapshotActionRepo(heldSource)).dir).toBe(held);
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    await utimes(held, twoDaysAgo, twoDaysAgo);
    const fresh = await snapshotActionRepo(await actionRepo(`newer-${Math.random()}`));
    made.push(fresh.dir);
    expect(existsSync(left)).toBe(false);
    expect(await readFile(join(held, 'dist', 'index.js'), 'utf8')).toContain('held-');
  });

  it('a process that takes up a day-old snapshot while another prunes keeps it: put back if it was moved aside after the first look', async () => {
    const source = await actionRepo(`raced-${Math.random()}`);
    const old = await madeByAnExitedProcess(source);
    let taken: string | undefined;
    await pruneSnapshots(async (dir) => {
      // Between the pruner's look (unused for two days) and its move, a process starts on this copy.
      if (dir === old) taken = (await snapshotActionRepo(source)).dir;
    });
    expect(taken).toBe(old);
    expect(await readFile(join(old, 'dist', 'index.js'), 'utf8')).toContain('raced-');
    expect((await readdir(SNAPSHOTS)).filter((n) => n.startsWith(`${old.split('/').at(-1)}.prune-`))).toEqual([]);
  });
});
