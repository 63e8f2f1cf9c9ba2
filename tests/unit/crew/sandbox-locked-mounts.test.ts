import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { prepareUserNamespace } from '../../../src/sandbox/command-runner';
import { LOCKED_MOUNT, lockedFlags, lockedNote } from '../../../src/sandbox/private-mounts';
import { git } from '../../support/git-cli';
import { restoreEnv } from '../../support/process-env';

const execFileP = promisify(execFile);

/**
 * mount(2) with exactly the options named, for a remount: what a mount(8) that does not restate the mount's own
 * flags asks the kernel for. Whether util-linux's mount(8) restates them differs by version (libmount merges the
 * mount table's flags on a classic remount; the mount-API path of 2.39+ sets attributes instead): the kernel's rule
 * is the same either way (mount(2), EPERM: "the mount is locked"), so the test leaves mount(8) out of it.
 */
const EXACT_REMOUNT = String.raw`
import ctypes, os, sys
F = {'ro': 1, 'nosuid': 2, 'nodev': 4, 'noexec': 8, 'remount': 32, 'bind': 4096, 'noatime': 1024, 'nodiratime': 2048, 'relatime': 1 << 21, 'strictatime': 1 << 24}
flags = 0
for o in sys.argv[1].split(','):
    if o: flags |= F[o]
libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]
if libc.mount(None, sys.argv[2].encode(), None, flags, None) != 0:
    sys.stderr.write('mount: %s: %s\n' % (sys.argv[2], os.strerror(ctypes.get_errno())))
    sys.exit(32)
`;

describe('a PATH folder on a mount whose flags a user namespace locks (local mode)', () => {
  let dir: string;
  let bin: string;
  let shim: string;
  let ws: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    dir = await mkdtemp(join('/opt', 'crew-locked-'));
    await chmod(dir, 0o755);
    bin = join(dir, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'locked-tool'), '#!/bin/sh\necho locked-tool-ran\n', { mode: 0o755 });
    // Every user may write it (GitHub's images make the tool cache 0777), so the sandbox sees it read-only (path-folders.ts);
    // on a mount of its own with flags a user namespace locks: nosuid, nodev, noexec (a hardened /tmp or /home has them).
    // The kernel keeps the atime rule on a remount that names none, so noexec is the one a bare `ro,nosuid,nodev` clears.
    await chmod(bin, 0o777);
    await execFileP('mount', ['--bind', bin, bin]);
    await execFileP('mount', ['-o', 'remount,bind,nosuid,nodev,noexec,noatime', bin]);
    shim = join(dir, 'shim');
    await mkdir(shim);
    await writeFile(join(shim, 'exact-remount.py'), EXACT_REMOUNT);
    await writeFile(
      join(shim, 'mount'),
      `#!/bin/sh\ncase "$1 $2" in\n"-o remount,"*)\n  if [ -e '${join(dir, 'refuse')}' ] && [ "$3" = '${bin}' ]; then echo "mount: $3: refused" >&2; exit 32; fi\n  exec /usr/bin/python3 -I '${join(shim, 'exact-remount.py')}' "$2" "$3";;\nesac\nexec /usr/bin/mount "$@"\n`,
      { mode: 0o755 },
    );
    ws = join(await mkdtemp(join(tmpdir(), 'locked-ws-')), 'ws');
    await mkdir(ws);
    await git(['init', '--quiet', ws]);
  });
  afterEach(async () => {
    restoreEnv(saved);
    await rm(join(dir, 'refuse'), { force: true });
  });
  afterAll(async () => {
    await execFileP('umount', [bin]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    await rm(join(ws, '..'), { recursive: true, force: true });
  });

  it('is read-only in the sandbox and the commands run: the remount asks for the flags the mount has (on the code before, every command ended in exit 125)', async () => {
    process.env.PATH = `${shim}:${bin}:${saved.PATH}`;
    const prepared = await prepareUserNamespace(ws, join(ws, '..', 'temp-1'));
    if (!('runner' in prepared)) throw new Error(`the sandbox did not start: ${prepared.reason}`);
    expect(prepared.notes).toBeUndefined();
    const r = await prepared.runner.run(`sh ${bin}/locked-tool; touch ${bin}/planted 2>/dev/null && echo PLANTED`, {
      cwd: ws,
      timeoutMs: 20_000,
      maxOutputBytes: 10_000,
    });
    expect(r.output).toContain('locked-tool-ran');
    expect(r.output).not.toContain('PLANTED');
    expect(
      await stat(join(bin, 'planted')).then(
        () => 'planted',
        () => 'none',
      ),
    ).toBe('none');
  }, 60_000);

  it('one that still cannot be made read-only is left out (never writable): the commands run, and crew says so once, naming it (its remount refused here by the mount(8) in front)', async () => {
    await writeFile(join(dir, 'refuse'), '');
    process.env.PATH = `${shim}:${bin}:${saved.PATH}`;
    const prepared = await prepareUserNamespace(ws, join(ws, '..', 'temp-2'));
    if (!('runner' in prepared)) throw new Error(`the sandbox did not start: ${prepared.reason}`);
    expect(prepared.notes).toEqual([expect.stringMatching(new RegExp(`^The PATH folder ${bin} is left out of the sandbox: its mount's flags are locked`))]);
    const r = await prepared.runner.run(`ls ${bin}/locked-tool 2>/dev/null || echo missing; touch ${bin}/planted 2>/dev/null; echo done`, {
      cwd: ws,
      timeoutMs: 20_000,
      maxOutputBytes: 10_000,
    });
    expect(r.exitCode).toBe(0);
    expect(r.output.trim().split('\n')).toEqual(['missing', 'done']);
    expect(
      await stat(join(bin, 'planted')).then(
        () => 'planted',
        () => 'none',
      ),
    ).toBe('none');
  }, 60_000);

  it('lockedFlags reads the flags of the mount a path lies on from the mount table; lockedNote reads the folders left out', () => {
    const table = [
      '22 1 0:21 / / rw,relatime shared:1 - overlay overlay rw',
      String.raw`40 22 8:1 /tools /opt/tool\040cache rw,nosuid,nodev,noexec,noatime shared:2 - ext4 /dev/sda1 rw`,
      '41 22 8:1 /strict /srv/strict ro shared:3 - ext4 /dev/sda1 rw',
    ].join('\n');
    expect(lockedFlags('/opt/tool cache/bin', table)).toBe('nosuid,nodev,noexec,noatime');
    expect(lockedFlags('/usr/bin', table)).toBe('relatime');
    expect(lockedFlags('/srv/strict/x', table)).toBe('strictatime');
    expect(lockedNote(`90 22 0:50 / /opt/tool\\040cache/bin rw,nosuid,nodev,relatime - tmpfs ${LOCKED_MOUNT} rw,size=4k,mode=755`)).toEqual([
      expect.stringMatching(/^The PATH folder \/opt\/tool cache\/bin is left out of the sandbox/),
    ]);
  });
});
