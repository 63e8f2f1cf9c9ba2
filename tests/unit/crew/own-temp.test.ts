import { chmod, chown, lstat, mkdir, mkdtemp, readdir, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownTempDir } from '../../../src/sandbox/own-temp';
import { DEFAULT_NETWORK } from '../../../src/toolbox/egress';
import { commandRunner } from '../../../src/toolbox/sandbox-setup';
import { git } from '../../support/git-cli';

/**
 * #46 item 8: locally and in eval (no RUNNER_TEMP) crew, often as root, wrote at fixed names in the
 * machine's temporary folder (/tmp/crew-tool-home, /tmp/crew-sandbox, /tmp/crew-test-reports), where any
 * user can plant a link first. Each test points TMPDIR at a folder made like /tmp (mode 1777), so the
 * machine's own /tmp is never touched.
 */
describe('crew’s own folder in the temporary folder', () => {
  let fakeTmp: string;
  let saved: { TMPDIR?: string; RUNNER_TEMP?: string };

  beforeEach(async () => {
    fakeTmp = await mkdtemp(join(tmpdir(), 'own-temp-'));
    await chmod(fakeTmp, 0o1777);
    saved = { TMPDIR: process.env.TMPDIR, RUNNER_TEMP: process.env.RUNNER_TEMP };
    process.env.TMPDIR = fakeTmp;
    delete process.env.RUNNER_TEMP;
  });
  afterEach(async () => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await rm(fakeTmp, { recursive: true, force: true });
  });

  it('is made 0711 for crew’s user, and used again when it is still that', async () => {
    const dir = ownTempDir('crew-x');
    expect(dir).toBe(join(fakeTmp, 'crew-x'));
    const st = await stat(dir);
    expect(st.mode & 0o777).toBe(0o711);
    expect(st.uid).toBe(process.getuid!());
    expect(ownTempDir('crew-x')).toBe(dir);
  });

  it('refuses a name another user planted first: a link, a folder of theirs, one others can write; and writes nothing through it', async () => {
    const target = await mkdtemp(join(fakeTmp, 'target-'));
    await symlink(target, join(fakeTmp, 'crew-link'));
    expect(() => ownTempDir('crew-link')).toThrow(
      `${join(fakeTmp, 'crew-link')} is a symbolic link: crew keeps its working files there only in a folder of its own user's that no one else can write. Remove it (or set TMPDIR to a folder of your own) and run crew again.`,
    );
    expect(await readdir(target)).toEqual([]);
    await mkdir(join(fakeTmp, 'crew-theirs'));
    await chown(join(fakeTmp, 'crew-theirs'), 65534, 65534);
    expect(() => ownTempDir('crew-theirs')).toThrow(/crew-theirs belongs to another user \(uid 65534\)/);
    await mkdir(join(fakeTmp, 'crew-open'));
    await chmod(join(fakeTmp, 'crew-open'), 0o777);
    expect(() => ownTempDir('crew-open')).toThrow(/crew-open can be written by other users/);
  });

  it('the sandbox crew prepares without RUNNER_TEMP (local mode as root) keeps the tool user’s home in a folder of crew’s own, not loose in /tmp', async () => {
    const workspace = join(fakeTmp, 'ws');
    await mkdir(workspace);
    await git(['init', '--quiet', workspace]);
    const logs: string[] = [];
    const log = { info: (t: string) => logs.push(t), warn: (t: string) => logs.push(t), checkpoint: () => undefined };
    const tools = await commandRunner(
      { repo: { dir: workspace } as never, log, unsandboxedOptIn: 'x' },
      { allow_unsandboxed: false, network: DEFAULT_NETWORK },
      undefined,
      false,
    );
    expect(tools.runner, tools.reason).toBeDefined();
    const home = (await tools.runner!.run('echo "$HOME"', { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 1000 })).output.trim();
    // Not loose in the shared temporary folder, and every folder on the way to it in there is root's, and no one else may write it.
    expect(['/tmp', fakeTmp]).not.toContain(dirname(home));
    expect(home.startsWith(`${fakeTmp}/`)).toBe(true);
    for (let dir = dirname(home); dir !== fakeTmp; dir = dirname(dir)) {
      const st = await lstat(dir);
      expect(st.isSymbolicLink()).toBe(false);
      expect(st.uid).toBe(0);
      expect(st.mode & 0o022).toBe(0);
    }
  });
});
