import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** One request a loopback HTTP server heard: where, and with which headers. */
export interface HeardRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface LoopbackHttp {
  /** The server's port on 127.0.0.1 (reached as http://127.0.0.1:<port> or http://localhost:<port>). */
  port: number;
  heard: HeardRequest[];
  close(): Promise<void>;
}

async function listen(server: Server, heard: HeardRequest[]): Promise<LoopbackHttp> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    heard,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A real MCP server over the Streamable HTTP transport (the SDK's, stateless: a fresh server per
 * request), on loopback. Its one tool, `echo`, answers with what it was sent and the Authorization
 * header it saw; `/moved` answers every request with a 307 to `redirectTo`, as a host might.
 */
export async function startHttpMcpServer(opts: { redirectTo?: string } = {}): Promise<LoopbackHttp> {
  const heard: HeardRequest[] = [];
  const server = createServer((req, res) => {
    heard.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (req.url?.startsWith('/moved') && opts.redirectTo) {
      res.writeHead(307, { location: opts.redirectTo }).end();
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const mcp = new McpServer({ name: 'remote-facts', version: '1.0.0' });
      const authorization = req.headers.authorization ?? '(none)';
      mcp.registerTool('echo', { description: 'Says back what it was sent.', inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: 'text', text: `echo: ${text} (authorization: ${authorization})` }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => void transport.close().then(() => mcp.close()));
      void mcp
        .connect(transport)
        .then(() => transport.handleRequest(req, res, body ? (JSON.parse(body) as unknown) : undefined))
        .catch(() => res.writeHead(500).end());
    });
  });
  return listen(server, heard);
}

/** A loopback host that only listens: whatever reaches it is recorded and answered with 404. */
export async function startListener(): Promise<LoopbackHttp> {
  const heard: HeardRequest[] = [];
  const server = createServer((req, res) => {
    heard.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(404).end();
  });
  return listen(server, heard);
}
