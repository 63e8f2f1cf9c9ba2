import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/schema';
import { parseServiceAddress, reachHint, unreachedLoopback, sandboxEnvNameProblem, serviceKey } from '../../../src/domain/sandbox-reach';
import { prepareSandbox, prepareUserNamespace, type CommandRunner } from '../../../src/sandbox/command-runner';
import { prepareReach } from '../../../src/toolbox/sandbox-reach';
import { runCommandTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import type { AgentTool } from '../../../src/agents/tool-loop';
import { agentCommands } from '../../../src/toolbox/command-options';
import type { WorkingCopy } from '../../../src/ports';
import { DEFAULT_NETWORK } from '../../../src/toolbox/egress';
import { commandRunner } from '../../../src/toolbox/sandbox-setup';
import { addSecret, redact } from '../../../src/text/redact';
import { maskCrewEnv } from '../../../src/settings';
import { parseCrewEnv } from '../../../src/domain/crew-env';
import { promisify } from 'node:util';
import { git } from '../../support/git-cli';
import { listeningSince, listeningSockets } from '../../support/listening';
import { sharedWithSandbox } from '../../support/sandbox/shared-dir';

const execFileP = promisify(execFile);

/** A loopback TCP server standing in for a database the setup steps started: it answers each connection with a line. */
async function loopbackServer(answer: string): Promise<{ server: Server; port: number }> {
  const server = createServer((c) => c.end(`${answer}\n`));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Connects from inside the sandbox with crew's node (on PATH there), prints what the server said or the error code. */
const connectFrom = (port: number) =>
  `node -e "const s=require('net').connect(${port},'127.0.0.1');let d='';s.on('data',b=>d+=b);s.on('end',()=>{console.log('got:'+d.trim())});s.on('error',e=>{console.log('error:'+e.code);process.exit(3)})"`;

describe('sandbox_env and network.services (#51): what the setup steps hand the sandboxed commands', () => {
  const log = { info: (_: string) => undefined, warn: (m: string) => warnings.push(m) };
  const warnings: string[] = [];
  let dir: string;
  let workspace: string;
  let named: { server: Server; port: number };
  let other: { server: Server; port: number };
  let sandbox: CommandRunner;
  let hint: (output: string) => string | null;
  let tool: AgentTool;
  const plainValue = `plain-setting-${randomUUID()}`;
  // A value GITHUB_ENV's heredoc form can carry: lines, an `=`, a quote, a backslash.
  const multiLine = 'first line\nsecond=line "quoted" \\n\n';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reach-'));
    workspace = join(dir, 'ws');
    await mkdir(workspace);
    await git(['init', '--quiet', workspace]);
    await writeFile(join(workspace, 'README.md'), 'hello\n');
    named = await loopbackServer('named-service');
    other = await loopbackServer('other-service');
    addSecret('crew-env-secret-value-0123');
    const reach = await prepareReach(
      { sandbox_env: ['DATABASE_URL', 'FROM_CREW_ENV', 'NEVER_SET', 'PLAIN_SETTING', 'MULTI_LINE'], network: { services: [`127.0.0.1:${named.port}`] } },
      log,
      {
        DATABASE_URL: `postgres://127.0.0.1:${named.port}/db`,
        FROM_CREW_ENV: 'crew-env-secret-value-0123',
        UNNAMED: 'unnamed-value',
        PLAIN_SETTING: plainValue,
        MULTI_LINE: multiLine,
      },
    );
    hint = reach.hint;
    const prepared = await prepareSandbox(workspace, dir, undefined, reach.reach);
    if (!('runner' in prepared)) throw new Error(`sandbox unavailable: ${prepared.reason}`);
    sandbox = prepared.runner;
    tool = runCommandTool(new PathJail(workspace), {
      ...agentCommands({ runner: sandbox, warning: null, reach: reach.model }, parseConfig('')),
    });
  }, 60_000);
  afterAll(async () => {
    named.server.close();
    other.server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const run = (cmd: string) => sandbox.run(cmd, { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 100_000 });

  it('a named variable reaches the command; an unnamed one, one holding a secret crew knows, and one no step set do not', async () => {
    const r = await run('env');
    expect(r.output).toContain(`DATABASE_URL=postgres://127.0.0.1:${named.port}/db`);
    expect(r.output).not.toContain('unnamed-value');
    expect(r.output).not.toContain('crew-env-secret-value-0123');
    expect(r.output).not.toContain('NEVER_SET');
    expect(warnings.join('\n')).toMatch(/FROM_CREW_ENV is left out: its value holds a secret/);
    expect(warnings.join('\n')).toMatch(/sandbox_env names NEVER_SET, which no setup step set/);
  });

  it("a service named in network.services is reached at its own address inside the sandbox's network; another port on the runner's loopback is not", async () => {
    const ok = await run(connectFrom(named.port));
    expect(ok.output.trim()).toBe('got:named-service');
    const refused = await run(connectFrom(other.port));
    expect(refused.exitCode).toBe(3);
    expect(refused.output.trim()).toBe('error:ECONNREFUSED');
    // The hint for such a failure names the port and where to name it.
    expect(hint(`Error: connect ECONNREFUSED 127.0.0.1:${other.port}`)).toMatch(new RegExp(`port ${other.port} on loopback.*network.services`));
  });

  it("a toolchain the setup steps put on PATH in a folder under /tmp (a tool cache there) runs inside the sandbox's private /tmp", async () => {
    // Apart from the workspace and crew's temporary folder, which the sandbox keeps anyway.
    const cache = await mkdtemp(join(tmpdir(), 'reach-toolcache-'));
    const bin = join(cache, 'fixture', '1.0.0', 'x64', 'bin');
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, 'reach-tool'), '#!/bin/sh\necho toolchain-from-the-setup-steps\n', { mode: 0o755 });
    await chmod(cache, 0o755);
    const before = process.env.PATH;
    process.env.PATH = `${bin}:${before}`;
    try {
      const r = await run('reach-tool');
      expect(r.output.trim()).toBe('toolchain-from-the-setup-steps');
    } finally {
      process.env.PATH = before;
      await rm(cache, { recursive: true, force: true });
    }
  });

  it("a PATH folder under /tmp whose programs are links into the folders beside it (node's bin/npm → ../lib/node_modules/npm/…, a project's node_modules/.bin) runs them in the sandbox, read-only", async () => {
    // The layout of node's release archives (bin/npm, bin/npx, bin/corepack are links into lib/) and of npm's
    // node_modules/.bin: a clone under /tmp ran `npm test` with the machine's older node, its own hidden so.
    const cache = await mkdtemp(join(tmpdir(), 'reach-linked-toolchain-'));
    const x64 = join(cache, 'node', '24.0.0', 'x64');
    const pkg = join(x64, 'lib', 'node_modules', 'linked-cli');
    await mkdir(join(pkg, 'bin'), { recursive: true });
    await mkdir(join(x64, 'bin'));
    await writeFile(join(pkg, 'version.txt'), 'linked-cli 1.0\n');
    await writeFile(join(pkg, 'bin', 'cli.sh'), '#!/bin/sh\ncat "$(dirname "$(readlink -f "$0")")/../version.txt"\n', { mode: 0o755 });
    await symlink('../lib/node_modules/linked-cli/bin/cli.sh', join(x64, 'bin', 'linked-cli'));
    await chmod(cache, 0o755);
    const before = process.env.PATH;
    process.env.PATH = `${join(x64, 'bin')}:${before}`;
    try {
      const r = await run(`linked-cli; touch ${pkg}/planted 2>/dev/null && echo PLANTED`);
      expect(r.output).toContain('linked-cli 1.0');
      expect(r.output).not.toContain('PLANTED');
    } finally {
      process.env.PATH = before;
      await rm(cache, { recursive: true, force: true });
    }
  });

  it('a PATH folder named through a link under /tmp (a clone there with its node_modules linked to another folder) is found at that name in the sandbox', async () => {
    const outer = await mkdtemp(join(tmpdir(), 'reach-clone-'));
    const modules = await mkdtemp(join('/opt', 'crew-linked-modules-'));
    await mkdir(join(modules, '.bin'));
    await writeFile(join(modules, '.bin', 'clone-tool'), '#!/bin/sh\necho clone-tool-ran\n', { mode: 0o755 });
    await chmod(modules, 0o755);
    await mkdir(join(outer, 'clone'));
    await symlink(modules, join(outer, 'clone', 'node_modules'));
    await chmod(outer, 0o755);
    const before = process.env.PATH;
    process.env.PATH = `${join(outer, 'clone', 'node_modules', '.bin')}:${before}`;
    try {
      const r = await run(`clone-tool; touch ${outer}/clone/planted 2>/dev/null && echo PLANTED`);
      expect(r.output).toContain('clone-tool-ran');
      expect(r.output).not.toContain('PLANTED');
    } finally {
      process.env.PATH = before;
      await rm(outer, { recursive: true, force: true });
      await rm(modules, { recursive: true, force: true });
    }
  });

  it("the worker's run_command says up front which variables and services the commands get", () => {
    expect(tool.spec.description).toContain(
      `From the repository's setup steps, commands get the variables DATABASE_URL, PLAIN_SETTING, MULTI_LINE (sandbox_env)`,
    );
    expect(tool.spec.description).toContain(`the services at 127.0.0.1:${named.port} on the runner's loopback (network.services)`);
  });

  it('a failed run_command whose output names a loopback address not in network.services, or a variable the runner holds that sandbox_env does not pass, ends with one line saying so (never the value)', async () => {
    // As node says it: `Error: connect ECONNREFUSED 127.0.0.1:<port>`.
    const refused = await tool.run({
      command: `node -e "require('net').connect(${other.port},'127.0.0.1').on('error',(e)=>{console.error(String(e));process.exit(3)})"`,
    });
    expect(refused).toContain(`ECONNREFUSED 127.0.0.1:${other.port}`);
    const last = refused.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(
      new RegExp(
        `^crew: 127\\.0\\.0\\.1:${other.port} on the runner is not reachable from the sandbox \\(not in network\\.services; a maintainer can add it in \\.github/crew\\.yml\\)\\.$`,
      ),
    );
    const unset = await tool.run({
      command: `node -e "for (const n of ['UNNAMED', 'FROM_CREW_ENV']) if (!process.env[n]) console.error(n + ' is not set'); process.exit(1)"`,
    });
    const line = unset.trimEnd().split('\n').at(-1)!;
    expect(line).toBe('crew: UNNAMED is set on the runner but not passed to the sandbox (a maintainer can add it to sandbox_env in .github/crew.yml).');
    // A variable whose value holds a secret crew knows is not named, and no value is ever shown.
    expect(unset).not.toContain('unnamed-value');
    expect(line).not.toContain('FROM_CREW_ENV');
    // A command that succeeds, or fails for another reason, gets no line.
    expect(await tool.run({ command: 'echo UNNAMED is not set' })).not.toMatch(/^crew:/m);
    expect(await tool.run({ command: 'exit 2' })).not.toMatch(/^crew:/m);
  });

  it("a sandbox_env value and an MCP server's variable are in no process's arguments on the machine while the command or server runs", async () => {
    // /proc/<pid>/cmdline is readable by every user of the machine (ps); /proc/<pid>/environ only by the process's own user.
    const mcpValue = `mcp-variable-${randomUUID()}`;
    const marker = `started-${randomUUID()}`;
    const running = run(`echo "$PLAIN_SETTING" > ${marker}; sleep 3`);
    await until(() =>
      stat(join(workspace, marker)).then(
        () => true,
        () => false,
      ),
    );
    expect(await cmdlinesHolding(plainValue)).toEqual([]);
    expect((await running).exitCode).toBe(0);
    expect((await readFile(join(workspace, marker), 'utf8')).trim()).toBe(plainValue);
    expect((await run('printf %s "$MULTI_LINE"')).output).toBe(multiLine);

    const home = await sandbox.programHome!();
    const server = sandbox.start!(`bash -c 'echo "$MCP_TOKEN"; sleep 5'`, { cwd: workspace, env: { MCP_TOKEN: mcpValue }, home: home.dir });
    let said = '';
    server.child.stdout.on('data', (d: Buffer) => (said += d.toString()));
    try {
      await until(() => Promise.resolve(said.includes(mcpValue)));
      expect(await cmdlinesHolding(mcpValue)).toEqual([]);
    } finally {
      server.stop();
      await home.dispose();
    }
  }, 30_000);

  /** A program `name` in `bin` (made with its parents under a fresh folder in /tmp), on crew's PATH while `body` runs. */
  async function onPath(modes: { bin: number; parent: number; owner?: number }, name: string, body: (bin: string) => Promise<void>): Promise<void> {
    const cache = await mkdtemp(join(tmpdir(), 'reach-pathdir-'));
    const parent = join(cache, 'tool');
    const bin = join(parent, 'bin');
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, name), `#!/bin/sh\necho ${name}-ran\n`, { mode: 0o755 });
    await chmod(cache, 0o755);
    await chmod(parent, modes.parent);
    await chmod(bin, modes.bin);
    if (modes.owner !== undefined) await chown(bin, modes.owner, modes.owner);
    const before = process.env.PATH;
    process.env.PATH = `${bin}:${before}`;
    try {
      await body(bin);
    } finally {
      process.env.PATH = before;
      await rm(cache, { recursive: true, force: true });
    }
  }

  it('a PATH folder under /tmp that another user (or the tool user) can write, or whose parent they can, is left out of the sandbox, and crew says which and what to do', async () => {
    const toolUid = Number((await execFileP('id', ['-u', 'crew-tool'])).stdout);
    for (const [modes, why] of [
      [{ bin: 0o777, parent: 0o755 }, /writable by every user/],
      [{ bin: 0o755, parent: 0o777 }, /writable by every user/],
      [{ bin: 0o755, parent: 0o755, owner: toolUid }, new RegExp(`owned by user ${toolUid}`)],
    ] as const)
      await onPath(modes, 'planted-tool', async (bin) => {
        const r = await run(`touch ${bin}/git 2>/dev/null && echo PLANTED; planted-tool 2>/dev/null || echo not-found`);
        expect(r.output).not.toContain('PLANTED');
        expect(r.output.trim()).toBe('not-found');
        expect(
          await stat(join(bin, 'git')).then(
            () => 'planted',
            () => 'none',
          ),
        ).toBe('none');
        const said: string[] = [];
        await prepareReach({ network: {} }, { info: () => undefined, warn: (m) => said.push(m) }, { PATH: `${bin}:/usr/bin:/bin` });
        expect(said.join('\n'), JSON.stringify(modes)).toMatch(new RegExp(`${bin.replace(/[.]/g, '\\.')}.*left out of the sandbox`));
        expect(said.join('\n')).toMatch(why);
        expect(said.join('\n')).toMatch(/umask 022|chmod go-w/);
      });
  });

  it("a PATH folder under /tmp kept in the sandbox is read-only there, even to a user who owns it (user namespaces: the person's own user)", async () => {
    const userns = await prepareUserNamespace(workspace, dir);
    if (!('runner' in userns)) throw new Error(`user namespaces unavailable: ${userns.reason}`);
    await onPath({ bin: 0o755, parent: 0o755 }, 'kept-tool', async (bin) => {
      for (const runner of [sandbox, userns.runner]) {
        const r = await runner.run(`kept-tool; touch ${bin}/git 2>/dev/null && echo PLANTED`, { cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 10_000 });
        expect(r.output).toContain('kept-tool-ran');
        expect(r.output).not.toContain('PLANTED');
        expect(
          await stat(join(bin, 'git')).then(
            () => 'planted',
            () => 'none',
          ),
        ).toBe('none');
      }
    });
  });

  it("a PATH folder elsewhere that every user can write (GitHub's runner images make /opt/hostedtoolcache 0777) is read-only in the sandbox, the folders above it too, and its programs still run", async () => {
    // actions/runner-images, images/ubuntu/scripts/build/configure-environment.sh: `chmod -R 777 $AGENT_TOOLSDIRECTORY`.
    const cache = await mkdtemp(join('/opt', 'crew-hostedtoolcache-'));
    const bin = join(cache, 'node', '24.0.0', 'x64', 'bin');
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, 'cached-tool'), '#!/bin/sh\necho cached-tool-ran\n', { mode: 0o755 });
    await execFileP('chmod', ['-R', '777', cache]);
    // A PATH folder not made yet, in a folder every user can write: whoever makes it chooses its programs.
    const later = await mkdtemp(join('/opt', 'crew-toolcache-later-'));
    await chmod(later, 0o777);
    const laterBin = join(later, 'python', '3.12.0', 'x64', 'bin');
    const before = process.env.PATH;
    process.env.PATH = `${bin}:${laterBin}:${before}`;
    try {
      const r = await run(
        `cached-tool; touch ${bin}/git 2>/dev/null && echo PLANTED-BIN; mv ${join(cache, 'node', '24.0.0')} ${join(cache, 'node', 'moved')} 2>/dev/null && echo MOVED; mkdir ${join(cache, 'new')} 2>/dev/null && echo MADE`,
      );
      expect(r.output).toContain('cached-tool-ran');
      expect(r.output).not.toMatch(/PLANTED-BIN|MOVED|MADE/);
      expect(
        await stat(join(bin, 'git')).then(
          () => 'planted',
          () => 'none',
        ),
      ).toBe('none');
      const made = await run(`mkdir -p ${laterBin} 2>/dev/null && echo MADE-LATER`);
      expect(made.output).not.toContain('MADE-LATER');
      expect(
        await stat(join(later, 'python')).then(
          () => 'made',
          () => 'none',
        ),
      ).toBe('none');
    } finally {
      process.env.PATH = before;
      await rm(cache, { recursive: true, force: true });
      await rm(later, { recursive: true, force: true });
    }
  });

  it('a PATH folder reached through a link that lies in a folder every user can write: the link cannot be swapped in the sandbox', async () => {
    // The folder itself is root's and closed to others; the link to it is not: whoever can write the link's folder chooses where it points.
    const open = await mkdtemp(join('/opt', 'crew-linked-'));
    const real = await mkdtemp(join('/opt', 'crew-linked-real-'));
    await mkdir(join(real, 'bin'));
    await writeFile(join(real, 'bin', 'linked-tool'), '#!/bin/sh\necho linked-tool-ran\n', { mode: 0o755 });
    await chmod(real, 0o755);
    await symlink(real, join(open, 'tool'));
    await chmod(open, 0o777);
    const before = process.env.PATH;
    process.env.PATH = `${join(open, 'tool', 'bin')}:${before}`;
    try {
      const r = await run(`linked-tool; mv ${open}/tool ${open}/moved 2>/dev/null && echo MOVED; mkdir ${open}/other 2>/dev/null && echo MADE`);
      expect(r.output).toContain('linked-tool-ran');
      expect(r.output).not.toMatch(/MOVED|MADE/);
      expect((await readdir(open)).sort()).toEqual(['tool']);
    } finally {
      process.env.PATH = before;
      await rm(open, { recursive: true, force: true });
      await rm(real, { recursive: true, force: true });
    }
  });

  it("a PATH folder every user can write inside crew's own temporary folder, which the sandbox keeps in sight, is read-only there", async () => {
    const tools = await mkdtemp(join(dir, 'tools-'));
    const bin = join(tools, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'temp-tool'), '#!/bin/sh\necho temp-tool-ran\n', { mode: 0o755 });
    await execFileP('chmod', ['-R', '777', tools]);
    const before = process.env.PATH;
    process.env.PATH = `${bin}:${before}`;
    try {
      const r = await run(`temp-tool; touch ${bin}/git 2>/dev/null && echo PLANTED; mv ${bin} ${tools}/moved 2>/dev/null && echo MOVED`);
      expect(r.output).toContain('temp-tool-ran');
      expect(r.output).not.toMatch(/PLANTED|MOVED/);
    } finally {
      process.env.PATH = before;
      await rm(tools, { recursive: true, force: true });
    }
  });

  it('a PATH folder beside the checkout in a folder every user can write cannot be renamed away in the sandbox, and the checkout stays writable', async () => {
    const outer = await mkdtemp(join('/opt', 'crew-outer-'));
    const ws = join(outer, 'ws');
    const bin = join(outer, 'tools', 'bin');
    await mkdir(ws);
    await git(['init', '--quiet', ws]);
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, 'outer-tool'), '#!/bin/sh\necho outer-tool-ran\n', { mode: 0o755 });
    await chmod(outer, 0o777);
    const before = process.env.PATH;
    process.env.PATH = `${bin}:${before}`;
    try {
      const prepared = await prepareSandbox(ws, join(outer, 'temp'));
      if (!('runner' in prepared)) throw new Error(`sandbox unavailable: ${prepared.reason}`);
      const r = await prepared.runner.run(
        `outer-tool; mv ${join(outer, 'tools')} ${join(outer, 'moved')} 2>/dev/null && echo MOVED; touch ${bin}/git 2>/dev/null && echo PLANTED; echo x > written && echo WROTE`,
        { cwd: ws, timeoutMs: 20_000, maxOutputBytes: 10_000 },
      );
      expect(r.output).toContain('outer-tool-ran');
      expect(r.output).not.toMatch(/MOVED|PLANTED/);
      expect(r.output).toContain('WROTE');
    } finally {
      process.env.PATH = before;
      await rm(outer, { recursive: true, force: true });
    }
  }, 60_000);

  it("a PATH folder every user can write that holds the checkout and crew's temporary folder is read-only in the sandbox, the two inside it still writable (both sandboxes)", async () => {
    const outer = await mkdtemp(join('/opt', 'crew-holder-'));
    const ws = join(outer, 'ws');
    await mkdir(ws);
    await git(['init', '--quiet', ws]);
    await writeFile(join(outer, 'holder-tool'), '#!/bin/sh\necho holder-tool-ran\n', { mode: 0o755 });
    await chmod(outer, 0o777);
    const before = process.env.PATH;
    process.env.PATH = `${outer}:${before}`;
    try {
      for (const prepare of [prepareSandbox, prepareUserNamespace]) {
        const temp = join(outer, `temp-${prepare.name}`);
        const prepared = await prepare(ws, temp);
        if (!('runner' in prepared)) throw new Error(`sandbox unavailable: ${prepared.reason}`);
        const r = await prepared.runner.run(
          `holder-tool; touch ${outer}/git 2>/dev/null && echo PLANTED; mv ${ws} ${outer}/moved 2>/dev/null && echo MOVED; echo x > written && echo WROTE; echo y > "$HOME/home-file" && echo HOME-WROTE`,
          { cwd: ws, timeoutMs: 20_000, maxOutputBytes: 10_000 },
        );
        expect(r.output, prepare.name).toContain('holder-tool-ran');
        expect(r.output, prepare.name).not.toMatch(/PLANTED|MOVED/);
        expect(r.output, prepare.name).toContain('WROTE');
        expect(r.output, prepare.name).toContain('HOME-WROTE');
        expect(
          await stat(join(outer, 'git')).then(
            () => 'planted',
            () => 'none',
          ),
          prepare.name,
        ).toBe('none');
      }
    } finally {
      process.env.PATH = before;
      await rm(outer, { recursive: true, force: true });
    }
  }, 60_000);

  it("a PATH folder inside the checkout, which the sandbox's commands write, is said: crew's own commands would run what they plant there", async () => {
    const said: string[] = [];
    await prepareReach(
      { network: {} },
      { info: () => undefined, warn: (m) => said.push(m) },
      {
        PATH: `${join(workspace, 'node_modules', '.bin')}:${workspace}:/usr/bin:/bin`,
        GITHUB_WORKSPACE: workspace,
      },
    );
    expect(said).toEqual([
      expect.stringMatching(
        new RegExp(`PATH folder ${join(workspace, 'node_modules', '.bin').replace(/[.]/g, '\\.')} is inside the checkout.*outside the checkout`),
      ),
      expect.stringMatching(/is inside the checkout/),
    ]);
  });

  it('a named service nothing listens on is said to be missing, pointing at the setup steps', async () => {
    named.server.close();
    await new Promise((ok) => setTimeout(ok, 100));
    const r = await run(connectFrom(named.port));
    expect(r.output).not.toContain('got:named-service');
    expect(hint(r.output)).toMatch(new RegExp(`nothing listened on the runner at 127.0.0.1:${named.port}.*\\.github/actions/crew-setup/action\\.yml`));
  });
});

describe('a short crew_env value (#51)', () => {
  it('is redacted as it is masked, so sandbox_env does not hand a 4- or 5-character crew_env value to the commands', async () => {
    const masked: string[] = [];
    maskCrewEnv(parseCrewEnvVars('SHORT_PIN=q7x2\nFIVE_PIN=z9w3k'), (v) => masked.push(v));
    expect(masked).toEqual(['q7x2', 'z9w3k']);
    expect(redact('pin q7x2 and z9w3k')).not.toMatch(/q7x2|z9w3k/);
    const warned: string[] = [];
    const reach = await prepareReach(
      { sandbox_env: ['PIN_A', 'PIN_B'], network: {} },
      { info: () => undefined, warn: (m) => warned.push(m) },
      {
        PIN_A: 'q7x2',
        PIN_B: 'z9w3k',
      },
    );
    expect(reach.reach.env).toEqual({});
    expect(warned.join('\n')).toMatch(/PIN_A is left out: its value holds a secret/);
    expect(warned.join('\n')).toMatch(/PIN_B is left out: its value holds a secret/);
  });
});

describe('the keys in .github/crew.yml', () => {
  it("sandbox_env refuses crew's own secrets, its inputs, the runner's variables and the sandbox's own, with why", () => {
    for (const name of [
      'ANTHROPIC_API_KEY',
      'INPUT_CREW_ENV',
      'GITHUB_TOKEN',
      'ACTIONS_RUNTIME_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'PATH',
      'HOME',
      'NODE_OPTIONS',
      'HTTPS_PROXY',
      'LD_AUDIT',
      'SHELLOPTS',
      'BASHOPTS',
      'UID',
      'EUID',
      'PPID',
      'BASH_VERSINFO',
    ])
      expect(sandboxEnvNameProblem(name), name).toMatch(/never hands it to model-written code/);
    expect(sandboxEnvNameProblem('DATABASE_URL')).toBeNull();
    expect(sandboxEnvNameProblem('LDFLAGS')).toBeNull();
    expect(sandboxEnvNameProblem('1X')).toMatch(/not a variable name/);
    expect(() => parseConfig('sandbox_env: [DATABASE_URL, CREW_GITHUB_TOKEN]\n')).toThrow(/sandbox_env.*CREW_GITHUB_TOKEN.*crew's own/s);
    expect(parseConfig('sandbox_env: [DATABASE_URL]\nnetwork:\n  services: ["127.0.0.1:5432"]\n')).toMatchObject({
      sandbox_env: ['DATABASE_URL'],
      network: { services: ['127.0.0.1:5432'] },
    });
  });

  it("sandbox_env refuses a variable an MCP server names: it is that server's secret, which the agent's commands never get", () => {
    const mcp = (key: string) => `mcp_servers:\n  docs:\n    ${key}\n    tools: ["*"]\n`;
    expect(() => parseConfig(`sandbox_env: [DATABASE_URL, DOCS_TOKEN]\n${mcp('command: docs-server\n    env: [DOCS_TOKEN]')}`)).toThrow(
      /sandbox_env.*DOCS_TOKEN.*mcp_servers\.docs.*never hands it to model-written code/s,
    );
    expect(() =>
      parseConfig(
        `sandbox_env: [DOCS_KEY]\nnetwork:\n  allow: [docs.example.com]\n${mcp('url: https://docs.example.com/mcp\n    headers: { Authorization: DOCS_KEY }')}`,
      ),
    ).toThrow(/DOCS_KEY.*mcp_servers\.docs/s);
    expect(parseConfig(`sandbox_env: [DATABASE_URL]\n${mcp('command: docs-server\n    env: [DOCS_TOKEN]')}`)).toMatchObject({ sandbox_env: ['DATABASE_URL'] });
  });

  it('network.services takes loopback addresses only', () => {
    expect(parseServiceAddress('127.0.0.1:5432')).toEqual({ host: '127.0.0.1', port: 5432 });
    expect(parseServiceAddress('localhost:6379')).toEqual({ host: '127.0.0.1', port: 6379 });
    expect(parseServiceAddress('[::1]:5432')).toEqual({ host: '::1', port: 5432 });
    expect(parseServiceAddress('db.example.com:5432')).toMatchObject({ problem: expect.stringMatching(/not on the runner's loopback/) });
    expect(parseServiceAddress('10.0.0.1:5432')).toMatchObject({ problem: expect.stringMatching(/not on the runner's loopback/) });
    expect(parseServiceAddress('127.0.0.1:99999')).toMatchObject({ problem: expect.stringMatching(/no port/) });
    expect(reachHint('all fine', { missingVars: [], services: [], refusedServices: [] })).toBeNull();
  });

  it('a refused loopback address is read as the usual clients print it', () => {
    const said = [
      'Error: connect ECONNREFUSED 127.0.0.1:5432',
      'Error: connect ECONNREFUSED ::1:6379',
      'dial tcp 127.0.0.1:8080: connect: connection refused',
      'psycopg.OperationalError: connection to server at "127.0.0.1", port 5433 failed: Connection refused',
      "curl: (7) Failed to connect to localhost port 9000 after 0 ms: Couldn't connect to server: Connection refused",
      'redis.exceptions.ConnectionError: Error 111 connecting to localhost:6380. Connection refused.',
      'Error: connect ENETUNREACH 127.0.0.1:7002 - Local (0.0.0.0:0)',
      'listening on 127.0.0.1:7000',
      'GET http://10.127.0.0.1:7001/ refused',
    ].join('\n');
    expect(unreachedLoopback(said).map(serviceKey)).toEqual([
      '127.0.0.1:5432',
      '[::1]:6379',
      '127.0.0.1:8080',
      '127.0.0.1:5433',
      '127.0.0.1:9000',
      '127.0.0.1:6380',
      '127.0.0.1:7002',
    ]);
  });

  it('network.services refuses an address named twice and the one the sandbox reaches its proxy at: the forwarder could listen on neither', () => {
    expect(() => parseConfig('network:\n  services: ["localhost:5432", "127.0.0.1:5432"]\n')).toThrow(/127\.0\.0\.1:5432.*same address as.*localhost:5432/s);
    expect(() => parseConfig('network:\n  services: ["127.0.0.1:3128"]\n')).toThrow(/egress proxy.*another port/s);
    expect(parseConfig('network:\n  services: ["127.0.0.1:5432", "[::1]:5432", "[::1]:3128"]\n')).toMatchObject({
      network: { services: ['127.0.0.1:5432', '[::1]:5432', '[::1]:3128'] },
    });
  });
});

function parseCrewEnvVars(text: string): Record<string, string> {
  const parsed = parseCrewEnv(text);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.vars;
}

describe('network.services in a sandbox without `ip` (#51)', () => {
  let dir: string;
  let workspace: string;
  let service: { server: Server; port: number };
  let bin: string | undefined;
  const PATH = process.env.PATH;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reach-noip-'));
    workspace = join(dir, 'ws');
    await mkdir(workspace);
    await git(['init', '--quiet', workspace]);
    service = await loopbackServer('the-database');
  });
  afterAll(async () => {
    process.env.PATH = PATH;
    service.server.close();
    await rm(dir, { recursive: true, force: true });
    if (bin) await rm(bin, { recursive: true, force: true });
  });

  it('keeps the sandbox and says the services are unavailable, naming network.services and the missing program; the model is told too', async () => {
    // A machine without iproute2: each folder of crew's PATH that holds `ip` replaced by one folder of links to
    // every other program of those folders (crew runs the sandbox as root here, so the sandbox's own programs come
    // from this PATH); the other folders stay as they are (a clone under /tmp: its node_modules/.bin, crew's node).
    // Outside /tmp, which the sandbox covers before it mounts anything back.
    bin = await sharedWithSandbox('no-ip-bin');
    const folders = (PATH ?? '').split(':').filter((d) => d.startsWith('/'));
    const withIp = folders.filter((d) => existsSync(join(d, 'ip')));
    for (const d of withIp)
      for (const name of await readdir(d).catch(() => [] as string[])) if (name !== 'ip') await symlink(join(d, name), join(bin, name)).catch(() => undefined);
    // Only root may write it: crew takes its own programs from no folder another user can (own-programs.ts).
    await chmod(bin, 0o755);
    process.env.PATH = [...new Set(folders.map((d) => (withIp.includes(d) ? bin! : d)))].join(':');
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (m: string) => void warnings.push(m), checkpoint: () => undefined };
    const address = `127.0.0.1:${service.port}`;
    const before = await listeningSockets();
    const tools = await commandRunner(
      { repo: { dir: workspace } as WorkingCopy, log },
      { allow_unsandboxed: false, network: { ...DEFAULT_NETWORK, services: [address] }, sandbox_env: [] },
      [prepareSandbox],
      false,
    );
    expect(tools.reason).toBeUndefined();
    expect(tools.runner?.sandboxed).toBe(true);
    expect(warnings.join('\n')).toContain(
      `network.services: the sandbox has no \`ip\` program (iproute2), which brings up its own loopback for them, so the services at ${address} are unavailable to the sandboxed commands in this job; the sandbox itself is kept.`,
    );
    const tool = runCommandTool(new PathJail(workspace), agentCommands({ runner: tools.runner, warning: tools.warning, reach: tools.reach }, parseConfig('')));
    expect(tool.spec.description).toContain(`The services at ${address} (network.services) are unavailable in this job: the sandbox has no \`ip\` program`);
    const r = await tool.run({
      command: `node -e "require('net').connect(${service.port},'127.0.0.1').on('error',(e)=>{console.error(String(e));process.exit(3)})"`,
    });
    expect(r.trimEnd().split('\n').at(-1)).toBe(
      `crew: ${address} is named in network.services but unavailable in this job: the sandbox has no \`ip\` program (iproute2), which brings up its own loopback for them.`,
    );
    expect(tools.hint!(`Error: connect ECONNREFUSED ${address}`)).toMatch(/network\.services names .* were unavailable .* no `ip` program/);
    // The bridge started for the services, unused once the sandbox is kept without them, closes with the tools.
    expect((await listeningSince(before)).filter((s) => /\/crew-service-[^/]+\/bridge\.sock$/.test(s))).toHaveLength(1);
    await tools.dispose();
    expect(await listeningSince(before)).toEqual([]);
  }, 60_000);
});

describe('run_command in a job that names no variable and no service (#51)', () => {
  let dir: string;
  let workspace: string;
  let service: { server: Server; port: number };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reach-none-'));
    workspace = join(dir, 'ws');
    await mkdir(workspace);
    await git(['init', '--quiet', workspace]);
    service = await loopbackServer('the-database');
  });
  afterAll(async () => {
    service.server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("says up front that the commands get none of the runner's, and after a connection to a service on the runner's loopback, why it failed", async () => {
    const reach = await prepareReach({ network: {} }, { info: () => undefined, warn: () => undefined });
    const prepared = await prepareSandbox(workspace, dir, undefined, reach.reach);
    if (!('runner' in prepared)) throw new Error(`sandbox unavailable: ${prepared.reason}`);
    const tool = runCommandTool(new PathJail(workspace), agentCommands({ runner: prepared.runner, warning: null, reach: reach.model }, parseConfig('')));
    expect(tool.spec.description).toContain(
      "Commands get no variable of the runner's environment and no service on its loopback (only a maintainer can change that, in .github/crew.yml).",
    );
    // The sandbox's own loopback is down without services: node says ENETUNREACH.
    const r = await tool.run({
      command: `node -e "require('net').connect(${service.port},'127.0.0.1').on('error',(e)=>{console.error(String(e));process.exit(3)})"`,
    });
    expect(r.trimEnd().split('\n').at(-1)).toBe(
      `crew: 127.0.0.1:${service.port} on the runner is not reachable from the sandbox (not in network.services; a maintainer can add it in .github/crew.yml).`,
    );
  }, 60_000);
});
/** Every process on the machine whose arguments hold `value`, as `ps` would show them to any user. */
async function cmdlinesHolding(value: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
    const args = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (args.includes(value)) found.push(`${pid}: ${args.replace(/\0/g, ' ').slice(0, 300)}`);
  }
  return found;
}

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((ok) => setTimeout(ok, 50));
  }
}
