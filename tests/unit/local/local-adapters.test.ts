import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStateStore } from '../../../src/adapters/local/state-store';
import { createWorktree } from '../../../src/adapters/local/worktree';

const exec = promisify(execFile);
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crew-local-adapters-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the local state store', () => {
  it("keeps issue-<N>/run-1/ in .crew/runs/<N>/, in the state branch's layout", async () => {
    const store = new LocalStateStore(join(root, 'layout'));
    await store.update('issue-3/run-1/', 'first', (tx) => {
      tx.write('issue-3/run-1/run.json', '{}');
      tx.write('issue-3/run-1/tasks/task_t1.json', '{"id":"t1"}');
    });
    expect(await readFile(join(root, 'layout', '3', 'tasks', 'task_t1.json'), 'utf8')).toBe('{"id":"t1"}');
    const snap = await store.load('issue-3/');
    expect(snap.list('issue-3/')).toEqual(['issue-3/run-1/run.json', 'issue-3/run-1/tasks/task_t1.json']);
    expect(() => store.update('issue-3/run-2/', 'x', () => undefined)).toThrow(/one run per request/);
    // A write or a removal outside the run is refused before anything reaches the journal, so the run stays readable.
    await expect(store.update('issue-3/run-1/', 'stray', (tx) => tx.write('issue-7/run-1/run.json', '{}'))).rejects.toThrow(/outside run 3/);
    await expect(store.update('issue-3/run-1/', 'stray', (tx) => tx.remove('issue-3/notes.md'))).rejects.toThrow(/outside a run folder/);
    expect((await store.load('issue-3/')).read('issue-3/run-1/run.json')).toBe('{}');
    // The log and the history sit beside the state for people; they are not state.
    await writeFile(join(root, 'layout', '3', 'crew.log'), 'log');
    expect((await store.load('issue-3/')).list('issue-3/')).not.toContain('issue-3/run-1/crew.log');
  });

  it('reads the chosen files of every run for an estimate, in the state branch’s paths, without the store’s own files', async () => {
    const store = new LocalStateStore(join(root, 'runs'));
    await store.update('issue-1/run-1/', 'a', (tx) => tx.write('issue-1/run-1/run.json', '{"r":1}'));
    await store.update('issue-2/run-1/', 'b', (tx) => {
      tx.write('issue-2/run-1/run.json', '{"r":2}');
      tx.write('issue-2/run-1/report.md', 'text');
    });
    await writeFile(join(root, 'runs', '2', 'crew.log'), 'log');
    await mkdir(join(root, 'runs', 'not-a-run'), { recursive: true });
    const snap = await store.loadRuns((p) => !p.endsWith('.md'));
    expect(snap.list('')).toEqual(['issue-1/run-1/run.json', 'issue-2/run-1/run.json']);
    expect(snap.read('issue-2/run-1/run.json')).toBe('{"r":2}');
    expect((await new LocalStateStore(join(root, 'nothing-yet')).loadRuns(() => true)).list('')).toEqual([]);
  });

  it('loses no update when 40 writers in this process race', async () => {
    const store = new LocalStateStore(join(root, 'race'));
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store.update('issue-1/', `writer ${i}`, (tx) => {
          const n = Number(tx.read('issue-1/run-1/count') ?? '0');
          tx.write('issue-1/run-1/count', String(n + 1));
          tx.write(`issue-1/run-1/w/${i}`, 'x');
        }),
      ),
    );
    const snap = await store.load('issue-1/');
    expect(snap.read('issue-1/run-1/count')).toBe('40');
    expect(snap.list('issue-1/run-1/w/')).toHaveLength(40);
    expect(snap.version).toBe('1:40');
  });

  it('reads taking turns with writes never see a write half applied, nor replay one another is making', async () => {
    const store = new LocalStateStore(join(root, 'interleaved'));
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2
          ? store.load('issue-2/run-1/').then((snap) => {
              const a = snap.read('issue-2/run-1/a');
              // Every write sets both files to the same number: a torn read would show them apart.
              expect(snap.read('issue-2/run-1/b')).toBe(a);
              seen.push(Number(a ?? 0));
            })
          : store.update('issue-2/', `write ${i}`, (tx) => {
              const n = String(Number(tx.read('issue-2/run-1/a') ?? '0') + 1);
              tx.write('issue-2/run-1/a', n);
              tx.write('issue-2/run-1/b', n);
            }),
      ),
    );
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect((await store.load('issue-2/')).read('issue-2/run-1/a')).toBe('15');
  });

  it("finishes a write that a killed process left in its journal, and takes over a dead holder's lock", async () => {
    const dir = join(root, 'journal', '5');
    await mkdir(join(dir, '.lock'), { recursive: true });
    await writeFile(join(dir, '.lock', 'pid'), '999999');
    await writeFile(join(dir, 'run.json'), 'old');
    await writeFile(
      join(dir, '.journal.json'),
      JSON.stringify({ writes: { 'issue-5/run-1/run.json': 'new', 'issue-5/run-1/plan.json': 'plan' }, removes: [], version: 3, message: 'killed half way' }),
    );
    const store = new LocalStateStore(join(root, 'journal'));
    const snap = await store.load('issue-5/run-1/');
    expect(snap.read('issue-5/run-1/run.json')).toBe('new');
    expect(snap.read('issue-5/run-1/plan.json')).toBe('plan');
    expect(existsSync(join(dir, '.journal.json'))).toBe(false);
    const { snapshot } = await store.update('issue-5/run-1/', 'after', (tx) => tx.write('issue-5/run-1/x', '1'));
    expect(snapshot.version).toBe('5:4');
  });
});

describe('the worktree repo', () => {
  it("pushes crew branches forward only, replaces only what it last saw, and leaves the person's checkout alone", async () => {
    const project = join(root, 'project');
    const git = (...args: string[]) => exec('git', ['-C', project, '-c', 'user.name=p', '-c', 'user.email=p@x', ...args]).then((r) => r.stdout.trim());
    await mkdir(project, { recursive: true });
    await git('init', '-q', '-b', 'main');
    await writeFile(join(project, 'a.txt'), 'a\n');
    await git('add', '-A');
    await git('commit', '-qm', 'base');
    const base = await git('rev-parse', 'HEAD');

    const one = await createWorktree(project, join(root, 'wt', 'one'), base);
    expect(await one.remote.fetch(['crew/local-1/t1'])).toEqual({ missing: ['crew/local-1/t1'] });
    await one.repo.checkoutNew('crew/local-1/t1', base);
    await writeFile(join(one.repo.dir, 'b.txt'), 'b\n');
    await one.repo.commitAll('crew: t1');
    await one.remote.push('crew/local-1/t1');
    const first = await one.repo.head();
    expect(await one.remote.head('crew/local-1/t1')).toBe(first);
    await expect(one.remote.push('main')).rejects.toThrow(/refusing to write ref 'main'/);

    // A second job starting from the base cannot overwrite t1's work by pushing.
    const two = await createWorktree(project, join(root, 'wt', 'two'), base);
    await writeFile(join(two.repo.dir, 'c.txt'), 'c\n');
    await two.repo.commitAll('crew: elsewhere');
    await expect(two.remote.push('crew/local-1/t1')).rejects.toThrow(/non-fast-forward/);
    await expect(two.remote.pushReplacing('crew/local-1/t1', base)).rejects.toThrow();
    await two.remote.pushReplacing('crew/local-1/t1', first);
    expect(await git('rev-parse', 'crew/local-1/t1')).toBe(await two.repo.head());

    await one.dispose();
    await two.dispose();
    expect(await git('status', '--porcelain')).toBe('');
    expect(await git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect((await git('worktree', 'list')).split('\n')).toHaveLength(1);
  });
});

describe('the user-namespace sandbox (no root needed)', () => {
  it('runs commands with no network, no view of crew, no secrets and a read-only .git', async () => {
    const { prepareUserNamespace } = await import('../../../src/sandbox/command-runner');
    const { createServer } = await import('node:http');
    const project = join(root, 'userns');
    await mkdir(project, { recursive: true });
    await exec('git', ['-C', project, 'init', '-q']);
    const prepared = await prepareUserNamespace(project, join(root, 'userns-tmp'));
    if (!('runner' in prepared)) throw new Error(`this machine allows user namespaces (checked in DESIGN.md), yet: ${prepared.reason}`);
    const server = createServer((_q, s) => s.end('reachable')).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as { port: number }).port;
    process.env.CREW_CANARY_USERNS = 'canary-userns-secret';
    try {
      const run = (cmd: string) => prepared.runner.run(cmd, { cwd: project, timeoutMs: 20_000, maxOutputBytes: 10_000 });
      const net = await run(`node -e "fetch('http://127.0.0.1:${port}').then(()=>console.log('REACHED'),()=>console.log('no network'))"`);
      expect(net.output).toContain('no network');
      expect((await run('env; cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n"')).output).not.toContain('canary-userns-secret');
      expect((await run(`ls /proc | grep -c '^[0-9]'`)).output.trim()).toMatch(/^[1-4]$/);
      const hook = await run('echo "#!/bin/sh" > .git/hooks/pre-commit; echo exit=$?');
      expect(hook.output).toMatch(/Read-only file system/);
      expect(existsSync(join(project, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect((await run('echo ok > file.txt && cat file.txt')).output.trim()).toBe('ok');
    } finally {
      delete process.env.CREW_CANARY_USERNS;
      server.close();
    }
  });
});
