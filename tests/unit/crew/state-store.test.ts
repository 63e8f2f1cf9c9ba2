import { existsSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { GitStateStore } from '../../../src/adapters/git/state-store';
import { BranchTips } from '../../../src/adapters/git/branch-tips';
import { BranchMoved, DeletionsRefused, type Clock, type Log, type WriteOptions } from '../../../src/ports';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';
import { soakSize } from '../../support/soak';
import { fakeGitHubForSuite } from '../../support/github/for-test';

const WRITERS = soakSize(6, 20);
const execFileP = promisify(execFile);

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
const clock: Clock = { now: () => new Date(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/** Runs `body` with every git command this process starts logged (its arguments, one line each), through a wrapper first on PATH. */
async function withGitLogged(body: (calls: () => Promise<string[]>) => Promise<void>): Promise<void> {
  const bin = await mkdtemp(join(tmpdir(), 'crew-git-log-'));
  const logged = join(bin, 'argv');
  const path = process.env.PATH;
  const real =
    (path ?? '')
      .split(':')
      .map((d) => join(d, 'git'))
      .find((f) => existsSync(f)) ?? '/usr/bin/git';
  await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${logged}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  process.env.PATH = `${bin}:${path ?? ''}`;
  try {
    await body(async () => (await readFile(logged, 'utf8').catch(() => '')).split('\n'));
  } finally {
    if (path === undefined) delete process.env.PATH;
    else process.env.PATH = path;
    await rm(bin, { recursive: true, force: true });
  }
}

describe('GitStateStore on the crew/state branch', () => {
  const world = fakeGitHubForSuite({ prefix: 'state-store-' });
  let token: string;
  const store = (name: string) => new GitStateStore(join(world.dir, name), world.gh.cloneUrl, token, clock, log);

  beforeAll(() => {
    token = world.gh.actionsToken({ contents: 'write' });
  });

  /**
   * `s` writes a counter, another job moves it on, and `s` writes again from the tip it saw (with `options`):
   * that write is applied first on the tip it had seen (1), then on the one the other job pushed (2), and nothing is lost.
   */
  const raceOnCounter = async (s: GitStateStore, issue: number, name: string, options: WriteOptions = {}) => {
    const prefix = `issue-${issue}/`;
    const counter = `${prefix}counter`;
    await s.update(prefix, 'first', (tx) => tx.write(counter, '1'));
    await store(`${name}-other`).update(prefix, 'other', (tx) => tx.write(counter, String(Number(tx.read(counter)) + 1)));
    const runs: string[] = [];
    await s.update(
      prefix,
      'mine',
      (tx) => {
        runs.push(tx.read(counter) ?? '');
        tx.write(counter, String(Number(tx.read(counter)) + 1));
      },
      { seenWithinMs: Infinity, ...options },
    );
    expect(runs).toEqual(['1', '2']);
    expect((await store(`${name}-check`).load(prefix)).read(counter)).toBe('3');
  };

  it('creates the branch on first write and reads back what it wrote', async () => {
    const s = store('first');
    expect((await s.load('issue-1/')).read('issue-1/run-1/run.json')).toBeUndefined();
    const { value } = await s.update('issue-1/', 'first write', (tx) => {
      tx.write('issue-1/run-1/run.json', '{"a":1}\n');
      return 'done';
    });
    expect(value).toBe('done');
    const again = await store('reader').load('issue-1/');
    expect(again.read('issue-1/run-1/run.json')).toBe('{"a":1}\n');
    expect(again.list('issue-1/')).toEqual(['issue-1/run-1/run.json']);
    expect(await world.gh.repo.branchSha('crew/state')).toBe(again.version);
  });

  it('commits nothing when a mutation writes nothing', async () => {
    const before = await world.gh.repo.branchSha('crew/state');
    await store('noop').update('issue-1/', 'noop', (tx) => tx.read('issue-1/run-1/run.json'));
    expect(await world.gh.repo.branchSha('crew/state')).toBe(before);
  });

  it('never reads or pushes files changed in its checkout behind its back, even right after its own write', async () => {
    const s = store('tampered');
    await s.update('issue-3/', 'honest write', (tx) => tx.write('issue-3/run.json', '{"ok":true}\n'));
    const tip = await world.gh.repo.branchSha('crew/state');
    await writeFile(join(world.dir, 'tampered', 'issue-3', 'run.json'), '{"ok":false}\n');
    await writeFile(join(world.dir, 'tampered', 'issue-3', 'planted.json'), '{}\n');
    const read = await s.load('issue-3/');
    expect(read.read('issue-3/run.json')).toBe('{"ok":true}\n');
    expect(read.list('issue-3/')).toEqual(['issue-3/run.json']);
    expect(read.version).toBe(tip);
    await writeFile(join(world.dir, 'tampered', 'issue-3', 'planted.json'), '{}\n');
    await s.update('issue-3/', 'next write', (tx) => tx.write('issue-3/other.json', '1\n'));
    const fresh = await store('tamper-check').load('issue-3/');
    expect(fresh.list('issue-3/')).toEqual(['issue-3/other.json', 'issue-3/run.json']);
    expect(fresh.read('issue-3/run.json')).toBe('{"ok":true}\n');
  });

  it('reads only the chosen files of every run folder for an estimate: never git’s own folder, nor files outside runs', async () => {
    const s = store('runs-writer');
    await s.update('issue-20/', 'two runs', (tx) => {
      tx.write('issue-20/run-1/run.json', '{"r":1}\n');
      tx.write('issue-20/run-1/results/result_t1.md', 'long\n');
      tx.write('issue-20/run-2/run.json', '{"r":2}\n');
      tx.write('issue-20/refusals/someone.json', '{}\n');
    });
    const snap = await store('runs-reader').loadRuns((p) => p.endsWith('.json'));
    const mine = snap.list('issue-20/');
    expect(mine).toEqual(['issue-20/run-1/run.json', 'issue-20/run-2/run.json']);
    expect(snap.read('issue-20/run-2/run.json')).toBe('{"r":2}\n');
    expect(snap.list('').some((p) => p.startsWith('.git'))).toBe(false);
    expect(snap.version).toBe(await world.gh.repo.branchSha('crew/state'));
  });

  it('refuses writes outside the prefix it was given', async () => {
    await expect(store('outside').update('issue-1/', 'bad', (tx) => tx.write('issue-2/x', 'y'))).rejects.toThrow(/outside issue-1\//);
  });

  it(`${WRITERS} concurrent writers (separate jobs) lose no update`, async () => {
    const writers = Array.from({ length: WRITERS }, (_, i) => store(`w${i}`));
    await Promise.all(
      writers.map((s, i) =>
        s.update('issue-9/', `writer ${i}`, (tx) => {
          const n = Number(tx.read('issue-9/counter') ?? '0');
          tx.write('issue-9/counter', String(n + 1));
          tx.write(`issue-9/writers/w${i}`, 'here');
        }),
      ),
    );
    const snap = await store('check').load('issue-9/');
    expect(snap.read('issue-9/counter')).toBe(String(WRITERS));
    expect(snap.list('issue-9/writers/')).toHaveLength(WRITERS);
    // Every write landed as its own fast-forward commit: nothing was force-pushed over.
    const messages = (await git(['log', '--format=%s', 'crew/state'], { cwd: world.gh.repoDir })).split('\n').filter((m) => m.startsWith('writer '));
    expect(new Set(messages).size).toBe(WRITERS);
  }, 360_000);

  it('answers a read from the tip it saw itself only when the caller accepts one that old, and asks GitHub otherwise', async () => {
    const mine = store('seen-reader');
    const other = store('seen-other');
    await mine.update('issue-30/', 'mine', (tx) => tx.write('issue-30/a', '1'));
    await other.update('issue-30/', 'other', (tx) => tx.write('issue-30/b', '2'));
    const before = world.gh.gitRequests.length;
    // Its own write is the tip it saw: no round trip, and the other job's write is not there yet.
    const seen = await mine.load('issue-30/', { seenWithinMs: Infinity });
    expect(world.gh.gitRequests.length).toBe(before);
    expect(seen.list('issue-30/')).toEqual(['issue-30/a']);
    // Too old for the caller, or no age given: GitHub is asked, and the other write is read.
    await new Promise((r) => setTimeout(r, 20));
    expect((await mine.load('issue-30/', { seenWithinMs: 5 })).list('issue-30/')).toEqual(['issue-30/a', 'issue-30/b']);
    expect(world.gh.gitRequests.length).toBeGreaterThan(before);
    await other.update('issue-30/', 'other again', (tx) => tx.write('issue-30/c', '3'));
    expect((await mine.load('issue-30/')).list('issue-30/')).toEqual(['issue-30/a', 'issue-30/b', 'issue-30/c']);
  });

  it('a write that starts from a tip it saw earlier loses its push when another job moved the tip, and applies again on the new one', async () => {
    await raceOnCounter(store('seen-writer'), 31, 'seen-writer');
  });

  it('a write starts from the tip it last saw without listing the branch first, where others were quiet: its push is the only round trip (#31 §4)', async () => {
    const s = store('write-from-seen');
    await s.update('issue-33/', 'first', (tx) => tx.write('issue-33/a', '1'));
    await s.load('issue-33/');
    const before = world.gh.gitRequests.length;
    await s.update('issue-33/', 'second', (tx) => tx.write('issue-33/b', String(Number(tx.read('issue-33/a')) + 1)));
    // A push's ref advertisement and the push itself; no upload-pack listing or fetch.
    expect(world.gh.gitRequests.slice(before).map((r) => `${r.service} ${r.kind}`)).toEqual(['receive-pack info/refs', 'receive-pack push']);
    expect((await store('write-from-seen-check').load('issue-33/')).read('issue-33/b')).toBe('2');
  });

  it('after a lost push, fetches the tip by name (no listing first) and drops the run branches it had listed, which the winner may have moved (#31 §4)', async () => {
    const tips = new BranchTips();
    const s = new GitStateStore(join(world.dir, 'lost-by-name'), world.gh.cloneUrl, token, clock, log, tips);
    await s.update('issue-34/run-1/', 'first', (tx) => tx.write('issue-34/run-1/a', '1'));
    await s.load('issue-34/run-1/');
    expect(tips.lookup(['crew/34/r1/t1'])).toEqual(new Map([['crew/34/r1/t1', undefined]]));
    await store('lost-by-name-other').update('issue-34/run-1/', 'other', (tx) => tx.write('issue-34/run-1/a', '2'));
    const before = world.gh.gitRequests.length;
    const seen: string[] = [];
    await s.update('issue-34/run-1/', 'mine', (tx) => {
      seen.push(tx.read('issue-34/run-1/a') ?? '');
      tx.write('issue-34/run-1/b', 'mine');
    });
    // The push from the tip it saw loses (its advertisement, and the pack unless git sees there that the tip is
    // one it does not have); then one fetch by name (its advertisement, the listing and the pack in one command)
    // instead of a listing and then a fetch by id; then the push that lands.
    const asked = world.gh.gitRequests.slice(before).map((r) => `${r.service} ${r.kind}`);
    const refetch = asked.indexOf('upload-pack info/refs');
    expect(asked.slice(0, refetch)).toEqual(['receive-pack info/refs', 'receive-pack push'].slice(0, refetch));
    expect(asked.slice(refetch)).toEqual(['upload-pack info/refs', 'upload-pack ls-refs', 'upload-pack fetch', 'receive-pack info/refs', 'receive-pack push']);
    expect(seen).toEqual(['1', '2']);
    expect(tips.lookup(['crew/34/r1/t1'])).toBeUndefined();
    const check = await store('lost-by-name-check').load('issue-34/run-1/');
    expect([check.read('issue-34/run-1/a'), check.read('issue-34/run-1/b')]).toEqual(['2', 'mine']);
  });

  it('a first read that needs no branch listing fetches the state by name: no listing, then a fetch by id (#31 §4)', async () => {
    await store('by-name-writer').update('issue-35/run-1/', 'first', (tx) => tx.write('issue-35/run-1/a', '1'));
    const tips = new BranchTips();
    const s = new GitStateStore(join(world.dir, 'by-name-reader'), world.gh.cloneUrl, token, clock, log, tips);
    const before = world.gh.gitRequests.length;
    expect((await s.load('issue-35/run-1/', { withoutBranches: true })).read('issue-35/run-1/a')).toBe('1');
    expect(world.gh.gitRequests.slice(before).map((r) => `${r.service} ${r.kind}`)).toEqual([
      'upload-pack info/refs',
      'upload-pack ls-refs',
      'upload-pack fetch',
    ]);
    // It listed no branches, so a fetch of one asks GitHub; and its write starts from the tip it fetched.
    expect(tips.lookup(['crew/35/r1/t1'])).toBeUndefined();
    const writing = world.gh.gitRequests.length;
    await s.update('issue-35/run-1/', 'second', (tx) => tx.write('issue-35/run-1/b', String(Number(tx.read('issue-35/run-1/a')) + 1)));
    expect(world.gh.gitRequests.slice(writing).map((r) => `${r.service} ${r.kind}`)).toEqual(['receive-pack info/refs', 'receive-pack push']);
  });

  it('never answers from its own tip when its checkout was changed behind its back', async () => {
    const s = store('seen-tampered');
    await s.update('issue-32/', 'honest', (tx) => tx.write('issue-32/run.json', '{"ok":true}\n'));
    await writeFile(join(world.dir, 'seen-tampered', 'issue-32', 'run.json'), '{"ok":false}\n');
    expect((await s.load('issue-32/', { seenWithinMs: Infinity })).read('issue-32/run.json')).toBe('{"ok":true}\n');
  });

  it("never reads or pushes a commit made in its checkout behind its back, nor a file that the checkout's own git settings hide from `git status`", async () => {
    // `git status` finds nothing when the work tree, index and HEAD were all moved together (a commit), or when the
    // checkout's exclude list or config hides a new file: what the store reads and commits is the whole tree all the same.
    const s = store('git-tampered');
    const dir = join(world.dir, 'git-tampered');
    const git = (...args: string[]) =>
      execFileP('git', ['-c', 'user.name=x', '-c', 'user.email=x@example.com', ...args], {
        cwd: dir,
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      });
    await s.update('issue-83/', 'honest', (tx) => tx.write('issue-83/run.json', '{"n":1}\n'));
    await writeFile(join(dir, 'issue-83', 'run.json'), '{"n":9}\n');
    await git('commit', '--quiet', '-am', 'forged');
    expect((await s.load('issue-83/', { seenWithinMs: Infinity })).read('issue-83/run.json')).toBe('{"n":1}\n');
    await writeFile(join(dir, '.git', 'info', 'exclude'), 'planted.json\n').catch(async () => {
      await execFileP('mkdir', ['-p', join(dir, '.git', 'info')]);
      await writeFile(join(dir, '.git', 'info', 'exclude'), 'planted.json\n');
    });
    await git('config', 'status.showUntrackedFiles', 'no');
    await writeFile(join(dir, 'issue-83', 'planted.json'), '{"evil":true}\n');
    expect((await s.load('issue-83/', { seenWithinMs: Infinity })).list('issue-83/')).toEqual(['issue-83/run.json']);
    await s.update('issue-83/', 'next', (tx) => tx.write('issue-83/other.json', '{}\n'));
    const fresh = await store('git-tampered-check').load('issue-83/');
    expect(fresh.read('issue-83/run.json')).toBe('{"n":1}\n');
    expect(fresh.list('issue-83/')).toEqual(['issue-83/other.json', 'issue-83/run.json']);
  });

  it('never reads a file changed while git commits its own write (after git read it, before the store looked again)', async () => {
    const s = store('mid-commit');
    const file = join(world.dir, 'mid-commit', 'issue-84', 'run.json');
    await s.update('issue-84/', 'first', (tx) => tx.write('issue-84/run.json', '{"n":1}\n'));
    // A git that, on the store's commit, changes the file git has just staged: between `git add` and the store's next look.
    const bin = await mkdtemp(join(tmpdir(), 'crew-git-mid-'));
    const real =
      (process.env.PATH ?? '')
        .split(':')
        .map((d) => join(d, 'git'))
        .find((f) => existsSync(f)) ?? '/usr/bin/git';
    await writeFile(join(bin, 'git'), `#!/bin/sh\n'${real}' "$@" || exit $?\ncase "$*" in *"commit --quiet"*) printf '{"n":9}\\n' > '${file}';; esac\n`, {
      mode: 0o755,
    });
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path ?? ''}`;
    try {
      await s.update('issue-84/', 'second', (tx) => tx.write('issue-84/other.json', '{}\n'));
    } finally {
      if (path === undefined) delete process.env.PATH;
      else process.env.PATH = path;
      await rm(bin, { recursive: true, force: true });
    }
    expect(await readFile(file, 'utf8')).toBe('{"n":9}\n'); // the change was made
    expect((await s.load('issue-84/', { seenWithinMs: Infinity })).read('issue-84/run.json')).toBe('{"n":1}\n');
  });

  it('never reads or pushes a change that keeps the size and sets the times back, made right after its own write or long after, nor a file swapped in by rename', async () => {
    // The store asks git only when the tree's fingerprint changed (tree-fingerprint.ts): these changes leave size and mtime as they were.
    const s = store('same-size');
    const file = join(world.dir, 'same-size', 'issue-81', 'run.json');
    // The times of the file and its folder kept to the nanosecond: `touch -r` copies them to a file aside, then back.
    const keepTimes = async (change: () => Promise<void>) => {
      const times = await mkdtemp(join(tmpdir(), 'crew-times-'));
      const held = [file, dirname(file)];
      for (const [i, p] of held.entries()) await execFileP('touch', ['-r', p, join(times, String(i))]);
      await change();
      for (const [i, p] of held.entries()) await execFileP('touch', ['-r', join(times, String(i)), p]);
      await rm(times, { recursive: true });
    };
    const sneak = (content: string) => keepTimes(() => writeFile(file, content));
    await s.update('issue-81/', 'honest', (tx) => tx.write('issue-81/run.json', '{"n":1}\n'));
    await sneak('{"n":9}\n');
    expect((await s.load('issue-81/', { seenWithinMs: Infinity })).read('issue-81/run.json')).toBe('{"n":1}\n');
    await s.update('issue-81/', 'next', (tx) => tx.write('issue-81/other.json', '{}\n'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await sneak('{"n":8}\n');
    await s.update('issue-81/', 'after', (tx) => tx.write('issue-81/third.json', '{}\n'));
    await keepTimes(async () => {
      await writeFile(`${file}.new`, '{"n":7}\n');
      await rename(`${file}.new`, file);
    });
    expect((await s.load('issue-81/', { seenWithinMs: Infinity })).read('issue-81/run.json')).toBe('{"n":1}\n');
    const fresh = await store('same-size-check').load('issue-81/');
    expect(fresh.read('issue-81/run.json')).toBe('{"n":1}\n');
    expect(fresh.list('issue-81/')).toEqual(['issue-81/other.json', 'issue-81/run.json', 'issue-81/third.json']);
  });

  it('asks git whether its checkout changed only when the files are not as it left them: reads after its own write start no `git status`', async () => {
    await withGitLogged(async (calls) => {
      const s = store('status-count');
      await s.update('issue-82/', 'first', (tx) => tx.write('issue-82/run.json', '{}\n'));
      for (let i = 0; i < 3; i++) await s.load('issue-82/', { seenWithinMs: Infinity });
      await s.update('issue-82/', 'second', (tx) => tx.write('issue-82/b.json', '{}\n'));
      const statuses = async () => (await calls()).filter((l) => l.startsWith('status')).length;
      expect(await statuses()).toBe(0);
      // Changed behind its back: now git is asked, and the read comes from GitHub's tip.
      await writeFile(join(world.dir, 'status-count', 'issue-82', 'run.json'), '{"x":1}\n');
      expect((await s.load('issue-82/', { seenWithinMs: Infinity })).read('issue-82/run.json')).toBe('{}\n');
      expect(await statuses()).toBeGreaterThan(0);
    });
  });

  it('removes files', async () => {
    const s = store('remover');
    await s.update('issue-3/', 'add', (tx) => tx.write('issue-3/a', '1'));
    await s.update('issue-3/', 'remove', (tx) => tx.remove('issue-3/a'));
    expect((await s.load('issue-3/')).read('issue-3/a')).toBeUndefined();
  });

  describe('a write that carries a task branch: one push for the work and its record (#17 §3)', () => {
    /** A job's checkout with one commit of its own: the work a task pushes. */
    const checkout = async (name: string, content: string) => {
      const dir = join(world.dir, name);
      await git(['init', '--quiet', dir]);
      await writeFile(join(dir, 'work.txt'), content);
      await git(['add', '-A'], { cwd: dir });
      await git(['commit', '--quiet', '-m', content], { cwd: dir, env: { ...process.env, ...FIXTURE_IDENTITY } });
      return { dir, objects: join(dir, '.git', 'objects'), sha: (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim() };
    };
    const carrying = (name: string, objects: string) => new GitStateStore(join(world.dir, name), world.gh.cloneUrl, token, clock, log, undefined, objects);
    const pushes = () => world.gh.gitRequests.filter((r) => r.kind === 'push');

    it('pushes the branch and the state in one push, and both land', async () => {
      const work = await checkout('carry-work', 'one');
      const s = carrying('carry-state', work.objects);
      expect(s.carriesBranches).toBe(true);
      expect(store('plain').carriesBranches).toBe(false);
      const before = pushes().length;
      await s.update('issue-40/', 'record', (tx) => tx.write('issue-40/run.json', '{"t":1}\n'), { carry: { branch: 'crew/40/r1/t1', sha: work.sha } });
      expect(pushes().length - before).toBe(1);
      expect(pushes().at(-1)!.refs?.sort()).toEqual(['refs/heads/crew/40/r1/t1', 'refs/heads/crew/state']);
      expect(await world.gh.repo.branchSha('crew/40/r1/t1')).toBe(work.sha);
      expect((await store('carry-check').load('issue-40/')).read('issue-40/run.json')).toBe('{"t":1}\n');
      // Only that push read the checkout's objects: the state's own folder never borrows them.
      expect(existsSync(join(world.dir, 'carry-state', '.git', 'objects', 'info', 'alternates'))).toBe(false);
    });

    it("lists git's configured drivers once for both its clients (each listing is a git process of its own)", async () => {
      const work = await checkout('carry-drivers-work', 'drivers');
      await withGitLogged(async (calls) => {
        const s = carrying('carry-drivers', work.objects);
        // The carrier still carries: the push reads the checkout's objects through it.
        await s.update('issue-70/', 'record', (tx) => tx.write('issue-70/run.json', '{}\n'), { carry: { branch: 'crew/70/r1/t1', sha: work.sha } });
        expect(await world.gh.repo.branchSha('crew/70/r1/t1')).toBe(work.sha);
        // Counted after both clients ran commands (the listing runs while the job goes on).
        const listings = (await calls()).filter((l) => l.startsWith('config ') && l.includes('--get-regexp'));
        expect(listings).toHaveLength(1);
      });
    });

    it('a branch another push moved first: BranchMoved, and neither the branch nor the state moves', async () => {
      const theirs = await checkout('carry-theirs', 'theirs');
      const mine = await checkout('carry-mine', 'mine');
      await carrying('carry-first', theirs.objects).update('issue-41/', 'theirs', (tx) => tx.write('issue-41/a', '1'), {
        carry: { branch: 'crew/41/r1/t1', sha: theirs.sha },
      });
      const state = await world.gh.repo.branchSha('crew/state');
      const write = carrying('carry-second', mine.objects).update('issue-41/', 'mine', (tx) => tx.write('issue-41/a', '2'), {
        carry: { branch: 'crew/41/r1/t1', sha: mine.sha },
      });
      await expect(write).rejects.toBeInstanceOf(BranchMoved);
      expect(await world.gh.repo.branchSha('crew/41/r1/t1')).toBe(theirs.sha);
      expect(await world.gh.repo.branchSha('crew/state')).toBe(state);
    });

    it('a state another job moved first: the write is applied again on the new tip, and both land', async () => {
      const work = await checkout('carry-race-work', 'race');
      await raceOnCounter(carrying('carry-race', work.objects), 42, 'carry-race', { carry: { branch: 'crew/42/r1/t1', sha: work.sha } });
      expect(await world.gh.repo.branchSha('crew/42/r1/t1')).toBe(work.sha);
    });

    it('a write with nothing to record still pushes the branch: no work is lost', async () => {
      const work = await checkout('carry-noop-work', 'noop');
      const state = await world.gh.repo.branchSha('crew/state');
      await carrying('carry-noop', work.objects).update('issue-43/', 'nothing', (tx) => tx.read('issue-43/x'), {
        carry: { branch: 'crew/43/r1/t1', sha: work.sha },
      });
      expect(await world.gh.repo.branchSha('crew/43/r1/t1')).toBe(work.sha);
      expect(await world.gh.repo.branchSha('crew/state')).toBe(state);
    });

    describe('a write that deletes crew branches: one push for the deletions and their record (#31 §4)', () => {
      const branchAt = async (branch: string, content: string) => {
        const work = await checkout(`del-${branch.replace(/\//g, '-')}-${content}`, content);
        await carrying(`del-carrier-${content}`, work.objects).update('issue-60/', `make ${branch}`, (tx) => tx.write(`issue-60/${content}`, content), {
          carry: { branch, sha: work.sha },
        });
        return work.sha;
      };

      it('deletes every branch and writes the record in one push, and all of it lands', async () => {
        const t1 = await branchAt('crew/60/r1/t1', 'del-one');
        const integration = await branchAt('crew/60/r1/integration', 'del-two');
        const s = store('deleting');
        expect(s.deletesBranches).toBe(true);
        const before = pushes().length;
        await s.update('issue-60/', 'cleaned', (tx) => tx.write('issue-60/cleanup', 'done'), {
          deleting: [
            { branch: 'crew/60/r1/t1', sha: t1 },
            { branch: 'crew/60/r1/integration', sha: integration },
          ],
        });
        expect(pushes().length - before).toBe(1);
        expect(await world.gh.repo.branchSha('crew/60/r1/t1')).toBeUndefined();
        expect(await world.gh.repo.branchSha('crew/60/r1/integration')).toBeUndefined();
        expect((await store('deleting-check').load('issue-60/')).read('issue-60/cleanup')).toBe('done');
      });

      it('a branch no longer at the commit crew looked at: DeletionsRefused, and nothing is deleted or written', async () => {
        const looked = await branchAt('crew/61/r1/t3', 'del-looked');
        const moved = await branchAt('crew/61/r1/t1', 'del-moved');
        const other = await branchAt('crew/61/r1/t2', 'del-other');
        const state = await world.gh.repo.branchSha('crew/state');
        const s = store('deleting-stale');
        await s.load('issue-61/');
        const write = s.update('issue-61/', 'cleaned', (tx) => tx.write('issue-61/cleanup', 'done'), {
          deleting: [
            { branch: 'crew/61/r1/t1', sha: looked },
            { branch: 'crew/61/r1/t2', sha: other },
          ],
        });
        await expect(write).rejects.toBeInstanceOf(DeletionsRefused);
        expect(await world.gh.repo.branchSha('crew/61/r1/t1')).toBe(moved);
        expect(await world.gh.repo.branchSha('crew/61/r1/t2')).toBe(other);
        expect(await world.gh.repo.branchSha('crew/state')).toBe(state);
        // The same store's next write (the caller's own way, after deleting branch by branch) asks GitHub for the tip,
        // never taking its own commit that did not land for one, and lands on GitHub's tip. A store that took that
        // commit for the tip would read 'done' there, ask nothing and push nothing.
        const before = world.gh.gitRequests.length;
        await s.update('issue-61/', 'cleaned', (tx) => (tx.read('issue-61/cleanup') ? undefined : tx.write('issue-61/cleanup', 'by hand')));
        const asked = world.gh.gitRequests.slice(before).map((r) => `${r.service} ${r.kind}`);
        expect(asked.slice(0, 2)).toEqual(['upload-pack info/refs', 'upload-pack ls-refs']);
        expect(asked.at(-1)).toBe('receive-pack push');
        expect((await git(['rev-parse', 'crew/state^'], { cwd: world.gh.repoDir })).trim()).toBe(state);
        expect((await store('deleting-stale-check').load('issue-61/')).read('issue-61/cleanup')).toBe('by hand');
      });

      it('a state another job moved first: the write is applied again on the new tip, and the deletions land with it', async () => {
        const t1 = await branchAt('crew/62/r1/t1', 'del-race');
        await raceOnCounter(store('deleting-race'), 62, 'deleting-race', { deleting: [{ branch: 'crew/62/r1/t1', sha: t1 }] });
        expect(await world.gh.repo.branchSha('crew/62/r1/t1')).toBeUndefined();
      });

      it('never deletes crew/state, nor a branch that is not crew’s', async () => {
        const state = (await world.gh.repo.branchSha('crew/state'))!;
        for (const branch of ['crew/state', 'main'])
          await expect(
            store(`deleting-bad-${branch.replace('/', '-')}`).update('issue-63/', 'x', (tx) => tx.write('issue-63/a', '1'), {
              deleting: [{ branch, sha: state }],
            }),
          ).rejects.toThrow(/refusing/);
      });
    });

    it('carries only to crew/ branches', async () => {
      const work = await checkout('carry-bad-work', 'bad');
      await expect(
        carrying('carry-bad', work.objects).update('issue-44/', 'x', (tx) => tx.write('issue-44/a', '1'), { carry: { branch: 'main', sha: work.sha } }),
      ).rejects.toThrow();
      expect(await world.gh.repo.branchSha('main')).not.toBe(work.sha);
    });
  });
});

describe("GitStateStore in a repository's first run: no crew/state branch yet", () => {
  const world = fakeGitHubForSuite({ prefix: 'state-store-first-' });
  let token: string;
  const store = (name: string) => new GitStateStore(join(world.dir, name), world.gh.cloneUrl, token, clock, log);

  beforeAll(() => {
    token = world.gh.actionsToken({ contents: 'write' });
  });

  it('a first read by name with no branch to fetch asks for the listing, which says there is none, and writes from there', async () => {
    await git(['update-ref', '-d', 'refs/heads/crew/state'], { cwd: world.gh.repoDir }).catch(() => undefined);
    const s = store('absent-by-name');
    const before = world.gh.gitRequests.length;
    expect((await s.load('issue-3/', { withoutBranches: true })).list('issue-3/')).toEqual([]);
    // The fetch by name finds no branch in its listing, and the listing that follows says there is none.
    expect(world.gh.gitRequests.slice(before).map((r) => `${r.service} ${r.kind}`)).toEqual([
      'upload-pack info/refs',
      'upload-pack ls-refs',
      'upload-pack info/refs',
      'upload-pack ls-refs',
    ]);
    await s.update('issue-3/', 'first', (tx) => tx.write('issue-3/a', '1'));
    expect((await store('absent-by-name-check').load('issue-3/')).read('issue-3/a')).toBe('1');
    // The repository's first run again, for the tests after this one.
    await git(['update-ref', '-d', 'refs/heads/crew/state'], { cwd: world.gh.repoDir });
  });

  it('a write right after a read that found no branch does not ask again; another job that created the branch meanwhile makes it apply again on that branch, and nothing is lost', async () => {
    const mine = store('absent-mine');
    expect((await mine.load('issue-1/')).list('issue-1/')).toEqual([]);
    const before = world.gh.gitRequests.length;
    await mine.update('issue-1/', 'mine', (tx) => tx.write('issue-1/a', 'mine'));
    expect(world.gh.gitRequests.slice(before).map((r) => `${r.service} ${r.kind}`)).toEqual(['receive-pack info/refs', 'receive-pack push']);

    // The same again, with a second job creating the branch between the read and the write (the branch is deleted first).
    await git(['update-ref', '-d', 'refs/heads/crew/state'], { cwd: world.gh.repoDir });
    const late = store('absent-late');
    expect((await late.load('issue-2/')).list('issue-2/')).toEqual([]);
    await store('absent-other').update('issue-2/', 'other', (tx) => tx.write('issue-2/counter', '1'));
    const runs: string[] = [];
    await late.update('issue-2/', 'late', (tx) => {
      runs.push(tx.read('issue-2/counter') ?? 'none');
      tx.write('issue-2/counter', String(Number(tx.read('issue-2/counter') ?? 0) + 1));
    });
    // Applied first on no branch at all, then on the branch the other job created: its push never replaced that one.
    expect(runs).toEqual(['none', '1']);
    expect((await store('absent-check').load('issue-2/')).read('issue-2/counter')).toBe('2');
  });
});
