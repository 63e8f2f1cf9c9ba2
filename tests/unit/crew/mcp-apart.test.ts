import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../../support/git-cli';
import { ensureRunnerUser, RUNNER_USER } from '../../support/sandbox/runner-user';

const exec = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');
const SECRET = 'facts-tsx-secret-4242';
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')).href;

/**
 * #46 item 6: an MCP server started through tsx (as a TypeScript server is) must never run what the
 * agent's commands planted in tsx's cache. tsx keeps compiled files in the temporary folder, keyed by
 * the source's path and text, so a command of the agent's that compiles the server once and rewrites
 * the entries has its code run in the server, with the server's secret, if both share /tmp.
 */
describe('MCP servers run apart from the agent’s commands: a planted tsx cache entry never runs in a server', () => {
  let runner: { uid: number; gid: number };
  const dirs: string[] = [];

  beforeAll(async () => {
    runner = await ensureRunnerUser();
  }, 300_000);
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  /** A checkout at its reviewed commit holding a TypeScript server (the test's facts server, through tsx), owned by `owner`. */
  async function checkout(owner?: { uid: number; gid: number }): Promise<{ dir: string; workspace: string }> {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-apart-'));
    dirs.push(dir);
    const workspace = join(dir, 'ws');
    await mkdir(workspace);
    await git(['init', '--quiet', workspace]);
    const servers = pathToFileURL(join(ROOT, 'tests', 'support', 'mcp', 'servers.mjs')).href;
    await writeFile(
      join(workspace, 'facts-server.mts'),
      `const warm: boolean = process.env.CREW_WARM === '1';\nif (warm) setTimeout(() => process.exit(0), 1000);\nelse {\n  process.argv.splice(2, 0, 'facts');\n  await import(${JSON.stringify(servers)});\n}\n`,
    );
    await git(['-C', workspace, 'add', 'facts-server.mts']);
    await git(['-C', workspace, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'the server']);
    // The agent's own script, brought in by a command (not part of the reviewed commit).
    await copyFile(join(ROOT, 'tests', 'support', 'mcp', 'tsx-plant.cjs'), join(workspace, 'tsx-plant.cjs'));
    await chmod(join(workspace, 'tsx-plant.cjs'), 0o644);
    if (owner) await exec('chown', ['-R', `${owner.uid}:${owner.gid}`, dir]);
    return { dir, workspace };
  }

  async function run(as: 'root' | 'runner', place: { dir: string; workspace: string }, env: Record<string, string> = {}): Promise<string> {
    const server = join(place.workspace, 'facts-server.mts');
    const args = [process.execPath, '--import', 'tsx', join(ROOT, 'tests', 'support', 'sandbox', 'probe.ts'), 'mcp', place.workspace, place.dir, 'unused'];
    const full = {
      PATH: process.env.PATH ?? '',
      HOME: as === 'root' ? '/root' : `/home/${RUNNER_USER}`,
      FACTS_TOKEN: SECRET,
      CREW_PROBE_TRUSTED: '1',
      CREW_PROBE_FACTS: JSON.stringify(['--import', TSX, server]),
      // The agent: tsx compiles the server once (filling its cache), then every entry is rewritten.
      CREW_PROBE_PLANT: `CREW_WARM=1 node --import ${TSX} ${server} && node tsx-plant.cjs "$PWD"`,
      ...env,
    };
    const { stdout } = await (as === 'root'
      ? exec(args[0]!, args.slice(1), { env: full, cwd: ROOT, maxBuffer: 10_000_000 })
      : exec('setpriv', [`--reuid=${RUNNER_USER}`, `--regid=${RUNNER_USER}`, '--init-groups', ...args], { env: full, cwd: ROOT, maxBuffer: 10_000_000 }));
    return stdout;
  }

  async function leaked(workspace: string): Promise<string | undefined> {
    return readFile(join(workspace, 'leaked.txt'), 'utf8').catch(() => undefined);
  }

  for (const [name, as, env] of [
    ['the tool user’s sandbox (root)', 'root', {}],
    ['local mode without root (user namespaces)', 'runner', { CREW_PROBE_USERNS: '1' }],
  ] as const) {
    it(`${name}: the agent planted entries, the server started through tsx, and none of them ran there`, async () => {
      const place = await checkout(as === 'runner' ? runner : undefined);
      const out = await run(as, place, env);
      // The plant really happened: tsx had compiled the server in the agent's temporary folder.
      expect(Number(/tsx entries planted: (\d+)/.exec(out)?.[1])).toBeGreaterThan(0);
      // The server started and answered, with its secret (masked in the answer).
      const seen = JSON.parse(out.split('\n')[0]!) as { env: Record<string, string> };
      expect(seen.env.FACTS_TOKEN).toBe('***');
      expect(await leaked(place.workspace)).toBeUndefined();
      expect(out).not.toContain(SECRET);
    }, 180_000);
  }
});
