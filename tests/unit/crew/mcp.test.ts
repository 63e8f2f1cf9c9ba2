import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpServersSchema, mcpToolName, type McpServerConfig } from '../../../src/domain/mcp';
import { startMcpServers, type McpStart } from '../../../src/mcp/servers';
import type { Log } from '../../../src/ports';
import type { CommandRunner } from '../../../src/sandbox/command-runner';
import { PROJECT_ROOT } from '../../support/scenario/run-scenario';
import { redact } from '../../../src/text/redact';
import { startHttpMcpServer, startListener } from '../../support/mcp/http-server';

const SERVERS = join(PROJECT_ROOT, 'tests', 'support', 'mcp', 'servers.mjs');
const warnings: string[] = [];
const log: Log = { info: () => undefined, warn: (m) => void warnings.push(m), checkpoint: () => undefined };

/** A runner that starts programs plainly (the sandboxed path is the scenario's): what the client does with them is tested here. */
const plain: CommandRunner = {
  description: 'test',
  sandboxed: true,
  run: () => Promise.reject(new Error('not used')),
  start: (command, opts) => {
    const child = spawn('bash', ['-c', `exec ${command}`], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH, ...(opts.home ? { HOME: opts.home } : {}), ...opts.env },
      stdio: 'pipe',
      detached: true,
    });
    return { child, stop: () => void child.kill('SIGKILL') };
  },
  programHome: async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-home-'));
    return { dir, tmp: join(dir, 'tmp'), dispose: async () => undefined };
  },
};

const server = (kind: string, more: Partial<McpServerConfig> = {}): McpServerConfig =>
  McpServersSchema.parse({ x: { command: process.execPath, args: [SERVERS, kind], tools: ['*'], ...more } }).x!;

/** Starts `servers` through the plain runner, with no variables, no network for stdio servers and no host allowed, unless `more` says otherwise. */
const start = (servers: McpStart['servers'], more: Partial<McpStart> = {}) =>
  startMcpServers({ servers, runner: plain, cwd: tmpdir(), env: {}, network: 'none', allowedHost: () => false, log, ...more });

describe('MCP servers (#36)', () => {
  it('names tools mcp__<server>__<tool> within the API’s rule, and the config says what a server is', () => {
    expect(mcpToolName('facts', 'write_version')).toEqual({ ok: true, name: 'mcp__facts__write_version' });
    expect(mcpToolName('facts', 'has space')).toMatchObject({ ok: false });
    expect(mcpToolName('facts', 'x'.repeat(60))).toMatchObject({ ok: false });
    expect(McpServersSchema.safeParse({ a__b: { command: 'x', tools: ['*'] } }).success).toBe(false);
    expect(McpServersSchema.safeParse({ a: { command: 'x', url: 'https://x.test/mcp', tools: ['*'] } }).success).toBe(false);
    expect(McpServersSchema.safeParse({ a: { command: 'x' } }).success).toBe(false);
    expect(McpServersSchema.parse({ a: { url: 'https://x.test/mcp', tools: ['t'] } }).a!.roles).toEqual(['worker']);
    expect(McpServersSchema.safeParse({ a: { command: 'x', tools: ['*'], roles: ['worker', 'critic'] } }).error?.issues[0]).toMatchObject({
      path: ['a', 'roles'],
      message: 'crew does not give MCP tools to the critic yet; only `worker` works today',
    });
  });

  it("refuses to hand a server crew's own secrets: its inputs, the runner's tokens, its model key, the job's GITHUB_TOKEN", () => {
    for (const name of [
      'INPUT_ANTHROPIC_API_KEY',
      'INPUT_GITHUB_TOKEN',
      'ACTIONS_RUNTIME_TOKEN',
      'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
      'ANTHROPIC_API_KEY',
      'GITHUB_TOKEN',
    ]) {
      const stdio = McpServersSchema.safeParse({ a: { command: 'x', tools: ['*'], env: ['DOCS_TOKEN', name] } });
      expect(stdio.error?.issues[0], name).toMatchObject({
        path: ['a', 'env', 1],
        message: expect.stringMatching(/crew's own.*never hands it to an MCP server.*CREW_ENV/),
      });
      const http = McpServersSchema.safeParse({ a: { url: 'https://x.test/mcp', tools: ['*'], headers: { Authorization: name } } });
      expect(http.error?.issues[0], name).toMatchObject({ path: ['a', 'headers', 'Authorization'] });
    }
    expect(McpServersSchema.safeParse({ a: { command: 'x', tools: ['*'], env: ['DOCS_TOKEN', 'GITHUB_PERSONAL_ACCESS_TOKEN'] } }).success).toBe(true);
  });

  it('starts a server written with the SDK, offers only its allowed tools, and calls one', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'mcp-'));
    const session = await start([['facts', server('facts', { tools: ['write_version', 'probe', 'missing'] })]], { cwd });
    try {
      expect(session.tools.map((t) => t.spec.name).sort()).toEqual(['mcp__facts__probe', 'mcp__facts__write_version']);
      expect(session.tools.find((t) => t.spec.name === 'mcp__facts__write_version')!.spec.input_schema).toMatchObject({
        properties: { url: { type: 'string' } },
      });
      expect(session.notes).toEqual(['MCP server `facts` offers no tool "missing", which crew.yml allows.']);
      // No proxy here: the server answers with an error, which reaches the model as one.
      await expect(session.tools.find((t) => t.spec.name === 'mcp__facts__write_version')!.run({ url: 'http://files.acme.test/data.txt' })).rejects.toThrow(
        /could not read http:\/\/files\.acme\.test\/data\.txt/,
      );
      expect(await readFile(join(cwd, 'DATA_VERSION'), 'utf8').catch(() => 'none')).toBe('none');
    } finally {
      await session.close();
    }
  }, 30_000);

  it('stops a server that hangs on start and one that prints garbage, within their limits, and goes on without them', async () => {
    const started = Date.now();
    const session = await start([
      ['slow', server('hang', { start_timeout_seconds: 2 })],
      ['noisy', server('garbage', { start_timeout_seconds: 20 })],
    ]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(session.tools).toEqual([]);
    expect(session.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^MCP server `slow` not started: it did not start and list its tools within 2 s/),
        expect.stringMatching(/^MCP server `noisy` not started: it printed something that is not an MCP message on stdout/),
      ]),
    );
    await session.close();
  }, 30_000);

  it('a server that hangs or dies in the middle of a call ends that call with an error for the model within the call limit; its tools then say it is gone', async () => {
    const session = await start([
      ['stuck', server('facts', { tools: ['stall'], call_timeout_seconds: 2 })],
      ['dying', server('facts', { tools: ['die'], call_timeout_seconds: 20 })],
    ]);
    try {
      const tool = (name: string) => session.tools.find((t) => t.spec.name === name)!;
      let started = Date.now();
      await expect(tool('mcp__stuck__stall').run({})).rejects.toThrow('the MCP server stuck was stopped: a call to stall took longer than 2 s');
      expect(Date.now() - started).toBeLessThan(10_000);
      await expect(tool('mcp__stuck__stall').run({})).rejects.toThrow(/the MCP server stuck is not running \(stopped: a call to stall took longer than 2 s\)/);
      started = Date.now();
      await expect(tool('mcp__dying__die').run({})).rejects.toThrow(/the MCP server dying was stopped: it exited \(code 3\)/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(session.notes).toEqual([
        'MCP server `stuck` stopped: a call to stall took longer than 2 s.',
        expect.stringMatching(/^MCP server `dying` stopped: it exited \(code 3\)/),
      ]);
    } finally {
      await session.close();
    }
  }, 30_000);

  it('does not start a stdio server without a sandbox, nor reach an HTTP server whose host is not allowed', async () => {
    const session = await start(
      [
        ['facts', server('facts')],
        ['remote', McpServersSchema.parse({ r: { url: 'https://mcp.example.test/mcp', tools: ['*'] } }).r!],
      ],
      { runner: { ...plain, sandboxed: false } },
    );
    expect(session.tools).toEqual([]);
    expect(session.notes).toEqual([
      'MCP server `facts` was not started: crew runs stdio servers only inside the sandbox, which could not be set up here.',
      'MCP server `remote` was not reached: its host mcp.example.test is not in `network.allow`, and crew connects to no other.',
    ]);
  });

  it("a server's variable of 4 or 5 characters from crew's step environment (the full form's `env:` mapping) is redacted like a crew_env value", async () => {
    // crew_env masks and redacts values down to 4 characters (settings.ts maskCrewEnv); the same values given in the workflow's `env:` are the same secrets.
    const env = { FULL_PIN: 'w7q3', FULL_CODE: 'k9z2q' };
    const session = await start([['facts', server('facts', { tools: ['probe'], env: Object.keys(env) })]], { env });
    try {
      const answer = await session.tools[0]!.run({});
      expect(answer).toContain('FULL_PIN');
      expect(answer).not.toMatch(/w7q3|k9z2q/);
      expect(redact('pin w7q3, code k9z2q')).toBe('pin ***, code ***');
    } finally {
      await session.close();
    }
  }, 30_000);

  it("a server's variable or header value of 1-3 characters from the workflow's `env:` is passed but not redacted (it would hide every such run of characters), and the job log names it, never its value", async () => {
    warnings.length = 0;
    const env = { SHORT_FLAG: 'q7z', LONG_PIN: 'w7q4' };
    const session = await start([['facts', server('facts', { tools: ['probe'], env: Object.keys(env) })]], { env });
    try {
      const answer = await session.tools[0]!.run({});
      expect(answer).toContain('q7z');
      expect(answer).not.toContain('w7q4');
      expect(redact('flag q7z')).toBe('flag q7z');
    } finally {
      await session.close();
    }
    const http = await startHttpMcpServer();
    const remote = await start(
      [['remote', McpServersSchema.parse({ r: { url: `http://127.0.0.1:${http.port}/mcp`, tools: ['*'], headers: { Authorization: 'SHORT_AUTH' } } }).r!]],
      {
        env: { SHORT_AUTH: 'x1' },
        allowedHost: (host) => host === '127.0.0.1',
      },
    );
    await remote.close();
    await http.close();
    expect(warnings).toEqual([
      expect.stringMatching(/^MCP server facts: its variable SHORT_FLAG is shorter than 4 characters, so crew passes it but does not redact it/),
      expect.stringMatching(/^MCP server remote: its variable SHORT_AUTH is shorter than 4 characters/),
    ]);
    expect(warnings.join('\n')).not.toMatch(/q7z|x1\b/);
  }, 30_000);

  describe('over HTTP', () => {
    const remote = (url: string) => McpServersSchema.parse({ r: { url, tools: ['*'], headers: { Authorization: 'REMOTE_TOKEN' } } }).r!;
    const env = { REMOTE_TOKEN: 'Bearer remote-token-8d2e41' };
    /** Only 127.0.0.1 is allowed: `localhost` is the same loopback, by a name network.allow does not hold. */
    const startRemote = (url: string) => start([['remote', remote(url)]], { env, allowedHost: (host) => host === '127.0.0.1' });

    it('calls a tool of an HTTP server on an allowed host, with the header its variable names (redacted in the answer)', async () => {
      const http = await startHttpMcpServer();
      const session = await startRemote(`http://127.0.0.1:${http.port}/mcp`);
      try {
        expect(session.notes).toEqual([]);
        expect(session.tools.map((t) => t.spec.name)).toEqual(['mcp__remote__echo']);
        expect(await session.tools[0]!.run({ text: 'hello' })).toBe('echo: hello (authorization: ***)');
        expect(http.heard.filter((q) => q.method === 'POST').every((q) => q.headers.authorization === env.REMOTE_TOKEN)).toBe(true);
        expect(session.refused()).toEqual({});
      } finally {
        await session.close();
        await http.close();
      }
    }, 30_000);

    it('refuses a redirect to a host outside network.allow: the host hears nothing, the refusal is counted like the proxy’s and noted', async () => {
      const outside = await startListener();
      const http = await startHttpMcpServer({ redirectTo: `http://localhost:${outside.port}/collect` });
      warnings.length = 0;
      const session = await startRemote(`http://127.0.0.1:${http.port}/moved`);
      try {
        expect(session.tools).toEqual([]);
        expect(outside.heard).toEqual([]);
        expect(http.heard.length).toBeGreaterThan(0);
        expect(session.refused()).toEqual({ localhost: 1 });
        expect(session.notes).toEqual([
          expect.stringMatching(/^MCP server `remote` not started: .*crew's egress allowlist refused localhost \(a redirect from 127\.0\.0\.1\)/),
        ]);
        expect(warnings.join('\n')).toMatch(/egress allowlist refused localhost/);
      } finally {
        await session.close();
        await Promise.all([http.close(), outside.close()]);
      }
    }, 30_000);
  });
});
