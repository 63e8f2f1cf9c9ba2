import { execFile } from 'node:child_process';
import { chmod, chown, copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptPaths, privateMountArgs } from '../../../src/sandbox/private-mounts';
import { git } from '../../support/git-cli';
import { ensureRunnerUser, RUNNER_USER } from '../../support/sandbox/runner-user';

const exec = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');

/**
 * The invariant of #46 items 4 and 5: network namespaces do not separate Unix sockets, so a sandbox
 * with "no network" still reaches every socket it can see (systemd-resolved's varlink socket under
 * /run, the session bus under /run/user/UID, an ssh agent or docker.sock, crew's own proxy). Sockets
 * are planted where the machine keeps them, open to everyone (or, for local mode, owned by the person
 * running crew), and the walk from inside each sandbox mode must connect to none of them.
 */
describe('the socket walk: no sandbox mode reaches a Unix socket of the machine', () => {
  let runner: { uid: number; gid: number };
  const servers: Server[] = [];
  const planted: string[] = [];
  const dirs: string[] = [];
  let abstract: string;
  let agent: string;

  /** A listening socket in `parent`, in a folder of its own, connectable by `owner` (and, mode 0777, by anyone who can reach it). */
  async function plant(parent: string, owner: { uid: number; gid: number }): Promise<void> {
    const dir = await mkdtemp(join(parent, 'crew-walk-'));
    dirs.push(dir);
    const path = join(dir, 'planted.sock');
    const server = createServer((c) => c.end());
    await new Promise<void>((resolve) => server.listen(path, resolve));
    servers.push(server);
    await chmod(path, 0o777);
    await chmod(dir, 0o755);
    await chown(dir, owner.uid, owner.gid);
    await chown(path, owner.uid, owner.gid);
    planted.push(path);
  }

  /** A workspace and temp folder for one mode, owned by the user crew runs as there. */
  async function world(owner?: { uid: number; gid: number }): Promise<{ dir: string; workspace: string }> {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-sockets-'));
    dirs.push(dir);
    const workspace = join(dir, 'ws');
    await mkdir(workspace);
    await git(['init', '--quiet', workspace]);
    await writeFile(join(workspace, 'README.md'), 'hello\n');
    await git(['-C', workspace, 'add', 'README.md']);
    await git(['-C', workspace, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'the readme']);
    await copyFile(join(ROOT, 'tests', 'support', 'sandbox', 'socket-walk.cjs'), join(workspace, 'socket-walk.cjs'));
    await chmod(join(workspace, 'socket-walk.cjs'), 0o644);
    if (owner) await exec('chown', ['-R', `${owner.uid}:${owner.gid}`, dir]);
    return { dir, workspace };
  }

  /** crew's process (as root, or as the runner user) runs the walk through its sandbox (tests/support/sandbox/probe.ts). */
  async function walk(
    as: 'root' | 'runner',
    mode: 'sandboxed' | 'allowlist' | 'unsandboxed',
    place: { dir: string; workspace: string },
    env: Record<string, string> = {},
  ): Promise<{ seen: number; connected: string[] }> {
    const script = join(ROOT, 'tests', 'support', 'sandbox', 'probe.ts');
    const args = [process.execPath, '--import', 'tsx', script, mode, place.workspace, place.dir, 'node socket-walk.cjs'];
    const full = { PATH: process.env.PATH ?? '', HOME: as === 'root' ? '/root' : `/home/${RUNNER_USER}`, SSH_AUTH_SOCK: agent, ...env };
    const { stdout } = await (as === 'root'
      ? exec(args[0]!, args.slice(1), { env: full, cwd: ROOT, maxBuffer: 10_000_000 })
      : exec('setpriv', [`--reuid=${RUNNER_USER}`, `--regid=${RUNNER_USER}`, '--init-groups', ...args], { env: full, cwd: ROOT, maxBuffer: 10_000_000 }));
    const line = /^::walk (.*)$/m.exec(stdout);
    if (!line) throw new Error(`the walk printed no result:\n${stdout}`);
    return JSON.parse(line[1]!) as { seen: number; connected: string[] };
  }

  beforeAll(async () => {
    runner = await ensureRunnerUser();
    const root = { uid: 0, gid: 0 };
    // Where the machine keeps its sockets, open to every user, as systemd-resolved's io.systemd.Resolve is.
    for (const parent of ['/tmp', '/var/tmp', '/run', '/dev/shm']) await plant(parent, root);
    // The person's own sockets, as local mode's user-namespace sandbox runs as them: a session bus, an ssh agent,
    // and one in their home that crew's environment names (SSH_AUTH_SOCK).
    for (const parent of ['/tmp', '/run', `/home/${RUNNER_USER}`]) await plant(parent, runner);
    agent = planted.at(-1)!;
    abstract = `crew-walk-${process.pid}-${Date.now()}`;
    const server = createServer((c) => c.end());
    await new Promise<void>((resolve) => server.listen(`\0${abstract}`, resolve));
    servers.push(server);
  }, 300_000);

  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('the planted sockets listen, and a command without the sandbox connects to every one (so the walk can tell)', async () => {
    for (const p of planted)
      await new Promise<void>((resolve, reject) => {
        const c = connect(p, () => (c.destroy(), resolve()));
        c.on('error', reject);
      });
    const out = await walk('runner', 'unsandboxed', await world(runner));
    for (const p of planted) expect(out.connected).toContain(p);
    expect(out.connected).toContain(`@${abstract}`);
  }, 120_000);

  it('as root (the tool user through setpriv, in namespaces): nothing to connect to, with or without the allowlist', async () => {
    const place = await world();
    expect(await walk('root', 'sandboxed', place)).toMatchObject({ connected: [] });
    // With the route, the proxy is reached through the forwarder, and its socket at /run/crew-egress.sock is root's: not even that.
    expect(await walk('root', 'allowlist', place, { CREW_PROBE_ALLOW: 'files.acme.test' })).toMatchObject({ connected: [] });
  }, 120_000);

  it('as a non-root user with sudo (GitHub’s hosted runners): nothing to connect to, with or without the allowlist', async () => {
    const place = await world(runner);
    expect(await walk('runner', 'sandboxed', place)).toMatchObject({ connected: [] });
    expect(await walk('runner', 'allowlist', place, { CREW_PROBE_ALLOW: 'files.acme.test' })).toMatchObject({ connected: [] });
  }, 120_000);

  it('in user namespaces, as the person’s own user (local mode without root): only the route crew gives, and only with the allowlist', async () => {
    const place = await world(runner);
    const none = await walk('runner', 'sandboxed', place, { CREW_PROBE_USERNS: '1' });
    expect(none.connected).toEqual([]);
    // The proxy's own socket, in crew's temp folder which the sandbox keeps in sight, is covered; the route is the one crew bound.
    const routed = await walk('runner', 'allowlist', place, { CREW_PROBE_USERNS: '1', CREW_PROBE_ALLOW: 'files.acme.test' });
    expect(routed.connected).toEqual(['/run/crew-egress.sock']);
  }, 120_000);
});

describe('what the private mounts keep in sight', () => {
  it('the paths a command needs under a covered place, by their real path; never a covered place whole, nor a path inside another', async () => {
    const run = await mkdtemp(join('/run', 'crew-keep-'));
    const tmp = await mkdtemp(join(tmpdir(), 'crew-keep-'));
    try {
      // As on Ubuntu: /etc/resolv.conf is a link into /run, which the sandbox covers.
      await writeFile(join(run, 'stub-resolv.conf'), 'nameserver 127.0.0.53\n');
      await symlink(join(run, 'stub-resolv.conf'), join(tmp, 'resolv.conf'));
      await mkdir(join(tmp, 'ws', 'sub'), { recursive: true });
      expect(keptPaths([join(tmp, 'resolv.conf'), '/tmp', '/run', join(tmp, 'ws'), join(tmp, 'ws', 'sub'), '/usr', join(tmp, 'not-there')])).toEqual(
        [join(run, 'stub-resolv.conf'), join(tmp, 'ws')].sort(),
      );
    } finally {
      await rm(run, { recursive: true, force: true });
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it('never covers a folder that holds what the command needs (a run whose folder is in a home of its own, #46 item 1)', () => {
    const hiddenOf = (keep: string[], hide: string[]) => {
      const args = privateMountArgs({ keep, hide });
      const at = args.indexOf('crew-private');
      const n = Number(args[at + 2]);
      return args.slice(at + 4 + n, at + 4 + n + Number(args[at + 3 + n]));
    };
    expect(hiddenOf(['/usr/bin'], ['/usr', '/usr/share', '/no/such/folder'])).toEqual(['/usr/share']);
  });
});
