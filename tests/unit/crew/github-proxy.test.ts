import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitHubForge } from '../../../src/adapters/github/forge';
import { createClient } from '../../../src/adapters/github/octokit';
import { proxyFetch, proxyFor } from '../../../src/adapters/github/proxy';
import { restoreEnv } from '../../support/process-env';

const log = { info: () => {}, warn: () => {}, checkpoint: () => {} };
const servers: Server[] = [];
const saved = { ...process.env };
afterEach(async () => {
  restoreEnv(saved);
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const listen = async (server: Server) => {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
};

/** A stand-in for GitHub's API: one repository. */
const api = () =>
  listen(
    createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ full_name: 'octo/hello', url: req.url, auth: req.headers.authorization }));
    }),
  );

/** A self-hosted runner's proxy: tunnels each CONNECT to the API stand-in, whatever host was asked for, and says what it saw. */
const proxy = async (apiPort: number) => {
  const seen: Array<{ target: string; auth?: string }> = [];
  const server = createServer((_req, res) => {
    seen.push({ target: 'a plain request' });
    res.writeHead(502).end();
  });
  server.on('connect', (req, socket, head) => {
    seen.push({ target: req.url ?? '', auth: req.headers['proxy-authorization'] });
    const upstream = connect(apiPort, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return { port: await listen(server), seen };
};

describe("crew's GitHub requests on a self-hosted runner behind a proxy (@actions/http-client's rules)", () => {
  it('go through HTTP_PROXY, with the credentials its URL holds, when the API is not on this machine', async () => {
    const apiPort = await api();
    const p = await proxy(apiPort);
    // A name that resolves nowhere: only the proxy can reach it.
    process.env.GITHUB_API_URL = `http://api.github.test:${apiPort}`;
    process.env.HTTP_PROXY = `http://crew:s3cret@127.0.0.1:${p.port}`;
    const gh = createClient('ghs_token', log);
    const { data } = await gh.request('GET /repos/{owner}/{repo}', { owner: 'octo', repo: 'hello' });
    expect(data).toMatchObject({ full_name: 'octo/hello', url: '/repos/octo/hello', auth: 'token ghs_token' });
    expect(p.seen).toEqual([{ target: `api.github.test:${apiPort}`, auth: `Basic ${Buffer.from('crew:s3cret').toString('base64')}` }]);
  });

  it('go straight to the API when NO_PROXY names it, or when it is on a loopback address', async () => {
    const apiPort = await api();
    const p = await proxy(apiPort);
    process.env.HTTP_PROXY = `127.0.0.1:${p.port}`;
    process.env.GITHUB_API_URL = `http://127.0.0.1:${apiPort}`;
    const { data } = await createClient('ghs_token', log).request('GET /repos/{owner}/{repo}', { owner: 'octo', repo: 'hello' });
    expect(data).toMatchObject({ full_name: 'octo/hello' });
    expect(p.seen).toEqual([]);

    const env = { HTTPS_PROXY: 'proxy.corp:3128', no_proxy: 'internal.corp, .example.com,ghe.local:8443' };
    const at = (u: string) => proxyFor(new URL(u), env)?.href;
    expect(at('https://api.github.com/x')).toBe('http://proxy.corp:3128/');
    expect(at('http://api.github.com/x')).toBeUndefined();
    expect(at('https://git.internal.corp/api/v3')).toBeUndefined();
    expect(at('https://internal.corp/api/v3')).toBeUndefined();
    expect(at('https://a.example.com/')).toBeUndefined();
    expect(at('https://ghe.local:8443/')).toBeUndefined();
    expect(at('https://ghe.local/')).toBe('http://proxy.corp:3128/');
    expect(at('https://notinternal.corp/')).toBe('http://proxy.corp:3128/');
    expect(proxyFor(new URL('https://x.y/'), { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' })?.host).toBe('lower:1');
    expect(proxyFor(new URL('https://x.y/'), { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' })).toBeUndefined();
    // A scheme in capitals is still the scheme (http-client parses the value as a URL first).
    expect(proxyFor(new URL('https://x.y/'), { HTTPS_PROXY: 'HTTP://proxy.corp:3128' })?.href).toBe('http://proxy.corp:3128/');
  });

  it('without a proxy variable, every request goes the direct way and undici is never loaded', () => {
    const direct = (() => {}) as unknown as typeof fetch;
    expect(proxyFetch({ GITHUB_API_URL: 'https://api.github.com', NO_PROXY: 'x' }, direct)).toBe(direct);
    expect(proxyFetch({ https_proxy: 'http://p:1' }, direct)).not.toBe(direct);
  });
});

describe('createClient', () => {
  it("on GitHub Enterprise Server: REST under GITHUB_API_URL, GraphQL at its /api/graphql (GITHUB_GRAPHQL_URL's value), the job's orchestration id in the user agent", async () => {
    const seen: Array<{ url?: string; agent?: string }> = [];
    const port = await listen(
      createServer((req, res) => {
        seen.push({ url: req.url, agent: req.headers['user-agent'] });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(req.url === '/api/graphql' ? JSON.stringify({ data: { viewer: { login: 'crew[bot]' } } }) : JSON.stringify({ full_name: 'octo/hello' }));
      }),
    );
    process.env.GITHUB_API_URL = `http://127.0.0.1:${port}/api/v3`;
    process.env.ACTIONS_ORCHESTRATION_ID = ' run 7/job:1 ';
    const gh = createClient('ghs_token', log);
    expect((await gh.request('GET /repos/{owner}/{repo}', { owner: 'octo', repo: 'hello' })).data).toMatchObject({ full_name: 'octo/hello' });
    expect(await gh.graphql('query { viewer { login } }')).toEqual({ viewer: { login: 'crew[bot]' } });
    expect(seen.map((s) => s.url)).toEqual(['/api/v3/repos/octo/hello', '/api/graphql']);
    // As @actions/github's getUserAgentWithOrchestrationId wrote it: trimmed, anything but [a-z0-9_.-] as `_`.
    for (const s of seen) expect(s.agent).toMatch(/^actions_orchestration_id\/run_7_job_1 octokit-core\.js\//);
  });

  it('an id past 2^53 arrives as a BigInt (@octokit/request reads JSON with json-with-bigint): crew stops, naming it, rather than round it to another id', async () => {
    const port = await listen(
      createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const id = req.url === '/repos/octo/hello/issues/comments/1' ? '1' : '9007199254740993';
        res.end(`{"id":${id},"body":"hi","user":{"login":"alice"},"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}`);
      }),
    );
    process.env.GITHUB_API_URL = `http://127.0.0.1:${port}`;
    const gh = createClient('ghs_token', log);
    expect(typeof (await gh.request('GET /repos/{owner}/{repo}/issues/comments/{comment_id}', { owner: 'octo', repo: 'hello', comment_id: 2 })).data.id).toBe(
      'bigint',
    );
    const forge = new GitHubForge(
      gh,
      { owner: 'octo', repo: 'hello', serverUrl: 'https://github.com', runId: '1', workflowFile: 'crew.yml', tokenKind: 'actions' },
      log,
    );
    expect((await forge.getComment(1)).id).toBe(1);
    await expect(forge.getComment(2)).rejects.toThrow('GitHub sent the id 9007199254740993, past the integers crew keeps exactly (2^53)');
  });

  it("prints nothing of Octokit's own to the job log when a request fails (crew's Log and retry policy speak)", () => {
    // In a process of its own: Octokit binds console.error when it is loaded, past any spy.
    const script = `
      import { createServer } from 'node:http';
      import { createClient } from ${JSON.stringify(join(__dirname, '../../../src/adapters/github/octokit.ts'))};
      const server = createServer((_q, r) => r.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}'));
      server.listen(0, '127.0.0.1', async () => {
        process.env.GITHUB_API_URL = 'http://127.0.0.1:' + server.address().port;
        const said = [];
        const log = { info: (m) => said.push(m), warn: (m) => said.push(m), checkpoint: () => {} };
        const status = await createClient('ghs_token', log).request('GET /repos/{owner}/{repo}', { owner: 'octo', repo: 'gone' }).catch((e) => e.status);
        process.stdout.write(JSON.stringify({ status, said }));
        server.close();
      });`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ status: 404, said: [] });
  });
});
