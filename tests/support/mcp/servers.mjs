// MCP servers written for the tests (#36), started by crew inside the sandbox as `node servers.mjs <kind>`:
//   facts    a real server (the SDK's McpServer over stdio) with two tools: `write_version` fetches the data
//            file from an allowed host through crew's egress proxy and writes its version into the checkout;
//            `probe` says who it runs as, what its environment holds, and whether a host outside the
//            allowlist answers, by the proxy and by name, and where it started (its folder, and whether it may write there,
//            and what its home holds)
//            `stall` never answers; `die` exits in the middle of the call
//   hang     starts, reads its input, and never answers
//   garbage  prints lines that are not MCP messages, and keeps running
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const kind = process.argv[2];

if (kind === 'hang') {
  process.stdin.resume();
  setInterval(() => undefined, 60_000);
} else if (kind === 'garbage') {
  process.stdout.write('starting up... all good!\n');
  setInterval(() => process.stdout.write('<<<not json>>>\n'), 200);
} else {
  /** GET through the proxy crew's sandbox gives a server in HTTP_PROXY: the status and the body, or the error's code. */
  const viaProxy = (url) =>
    new Promise((resolve) => {
      const proxy = process.env.HTTP_PROXY ? new URL(process.env.HTTP_PROXY) : undefined;
      if (!proxy) return resolve({ error: 'no proxy' });
      const req = request({ host: proxy.hostname, port: proxy.port, path: url, headers: { host: new URL(url).host } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', (e) => resolve({ error: e.code ?? e.message }));
      req.setTimeout(5000, () => req.destroy(new Error('timeout')));
      req.end();
    });
  /** A plain TCP connection by name, around the proxy. */
  const direct = (host) =>
    new Promise((resolve) => {
      const s = connect({ host, port: 80 });
      s.setTimeout(3000, () => s.destroy(new Error('timeout')));
      s.on('connect', () => {
        s.destroy();
        resolve('connected');
      });
      s.on('error', (e) => resolve(e.code ?? e.message));
    });

  const server = new McpServer({ name: 'facts', version: '1.0.0' });
  server.registerTool(
    'write_version',
    { description: "Writes the data file's version into DATA_VERSION.", inputSchema: { url: z.string().describe('Where the data file is') } },
    async ({ url }) => {
      const got = await viaProxy(url);
      if (got.status !== 200) return { isError: true, content: [{ type: 'text', text: `could not read ${url}: ${JSON.stringify(got)}` }] };
      const version = /v\d+/.exec(got.body)?.[0] ?? 'unknown';
      writeFileSync('DATA_VERSION', `${version}\n`);
      return { content: [{ type: 'text', text: `DATA_VERSION now says ${version} (from ${url}: ${got.body.trim()})` }] };
    },
  );
  server.registerTool('probe', { description: 'Says where this server runs.', inputSchema: {} }, async () => {
    const outside = await viaProxy('http://attacker.example/collect');
    const byName = await direct('attacker.example');
    let cwdWritable = true;
    try {
      writeFileSync('.mcp-probe', 'x');
      rmSync('.mcp-probe');
    } catch {
      cwdWritable = false;
    }
    const home = process.env.HOME ? readdirSync(process.env.HOME).sort() : [];
    const where = { cwd: process.cwd(), cwdWritable, home };
    return { content: [{ type: 'text', text: JSON.stringify({ user: userInfo().username, env: process.env, outside, byName, ...where }) }] };
  });
  server.registerTool('stall', { description: 'Never answers.', inputSchema: {} }, () => new Promise(() => undefined));
  server.registerTool('die', { description: 'Exits mid-call.', inputSchema: {} }, async () => process.exit(3));
  server.registerTool('not_allowed', { description: 'crew.yml does not allow this one.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'should never be called' }],
  }));
  await server.connect(new StdioServerTransport());
}
