import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeEnv, prepareSandbox, UnsandboxedRunner, type CommandRunner } from '../../../src/sandbox/command-runner';
import { git } from '../../support/git-cli';

/**
 * A run of its own (#46): the base's tests after the head's, eval's scoring after its play. Commands
 * before it shared the tool user's home; this run gets a home and temporary folder made for it, with a
 * checkout of its own inside, and sees nothing they left.
 *
 * The commands' TMPDIR, /tmp, is private to each command (src/sandbox/private-mounts.ts): nothing planted
 * there outlives the command. What does is the shared home, so the earlier command plants there: an
 * `.npmrc`, and a file in its `tmp`, where the run's own TMPDIR would be were its home the shared one.
 */

const PLANT = `printf 'node-options=--no-warnings\\n' > "$HOME/.npmrc"; mkdir -p "$HOME/tmp" && echo planted > "$HOME/tmp/planted"; echo planted > "$TMPDIR/planted"`;
const LOOK =
  'echo "home=$HOME tmp=$TMPDIR"; cat "$HOME/.npmrc" "$TMPDIR/planted" 2>&1; echo mine > "$TMPDIR/mine" && echo wrote-tmp; echo x >> base.txt && echo wrote-checkout';

describe('a home of its own, for real (this machine runs as root: the tool user, in its namespaces)', () => {
  let dir: string;
  let workspace: string;
  let sandbox: CommandRunner;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'own-home-'));
    workspace = join(dir, 'ws');
    await mkdir(workspace);
    await git(['init', '--quiet', workspace]);
    const prepared = await prepareSandbox(workspace, dir);
    if (!('runner' in prepared)) throw new Error(`sandbox unavailable: ${prepared.reason}`);
    sandbox = prepared.runner;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('what an earlier command planted in the shared home is not in it; it gets its own, with its checkout, in a folder that cannot be listed; disposed, it is gone', async () => {
    const planted = await sandbox.run(PLANT, { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 10_000 });
    expect(planted.exitCode, planted.output).toBe(0);
    // The trap is real: a later command with the shared home reads both files planted there. (What was planted in
    // the commands' TMPDIR went with that command's private /tmp.)
    const later = await sandbox.run('cat "$HOME/.npmrc" "$HOME/tmp/planted" "$TMPDIR/planted" 2>&1', {
      cwd: workspace,
      timeoutMs: 20_000,
      maxOutputBytes: 10_000,
    });
    expect(later.output).toBe('node-options=--no-warnings\nplanted\ncat: /tmp/planted: No such file or directory\n');

    const home = await sandbox.programHome!(async (d) => {
      await mkdir(join(d, 'base'));
      await writeFile(join(d, 'base', 'base.txt'), 'base\n');
    });
    const other = await sandbox.programHome!();
    try {
      const r = await sandbox.run(LOOK, { cwd: join(home.dir, 'base'), timeoutMs: 20_000, maxOutputBytes: 10_000, env: homeEnv(home) });
      const lines = r.output.trim().split('\n');
      expect(lines[0]).toBe(`home=${home.dir} tmp=${home.tmp}`);
      expect(lines.slice(1, 3).join('\n')).toMatch(/No such file or directory[\s\S]*No such file or directory/);
      expect(lines.slice(3)).toEqual(['wrote-tmp', 'wrote-checkout']);
      expect(other.dir).not.toBe(home.dir);
      // A command before could not find this home: the folder that holds the homes is covered in its private mounts,
      // empty, the home not there even by name; and where a run of its own sees that folder (it holds the run's own
      // home), homes are found by name only: it cannot be listed.
      const parent = join(home.dir, '..');
      const before = await sandbox.run(`ls -A '${parent}'; test -e '${home.dir}' && echo found || echo not-found`, {
        cwd: workspace,
        timeoutMs: 20_000,
        maxOutputBytes: 10_000,
      });
      expect(before.output).toBe('not-found\n');
      const beside = await sandbox.run(`ls '${parent}'`, { cwd: other.dir, timeoutMs: 20_000, maxOutputBytes: 10_000, env: homeEnv(other) });
      expect(beside.output).toContain('Permission denied');
    } finally {
      await home.dispose();
      await other.dispose();
    }
    expect(existsSync(home.dir)).toBe(false);
    expect(existsSync(other.dir)).toBe(false);
  });
});

describe('a home of its own without a sandbox (allow_unsandboxed)', () => {
  it('is made beside the shared one, with its temporary folder and what `fill` wrote, and removed when disposed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'own-home-plain-'));
    try {
      const runner = new UnsandboxedRunner(join(dir, 'crew-tool-home'));
      const home = await runner.programHome((d) => writeFile(join(d, 'filled'), 'yes\n'));
      const r = await runner.run('echo "$HOME $TMPDIR"; cat filled; test -d "$TMPDIR" && echo tmp-there', {
        cwd: home.dir,
        timeoutMs: 20_000,
        maxOutputBytes: 10_000,
        env: homeEnv(home),
      });
      expect(r.output).toBe(`${home.dir} ${home.tmp}\nyes\ntmp-there\n`);
      await home.dispose();
      expect(existsSync(home.dir)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
