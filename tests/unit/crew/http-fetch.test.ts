import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { httpFetch, IDLE_TIMEOUT_MS } from '../../../src/adapters/github/http-fetch';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

type Seen = { method: string; url: string; auth?: string; body: string; type?: string };
/** A loopback server that answers with `answer` and records each request. */
async function server(answer: (req: IncomingMessage, res: import('node:http').ServerResponse, body: string) => void, host = '127.0.0.1') {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body, type: req.headers['content-type'] });
      answer(req, res, body);
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, host, r));
  return { url: `http://${host === '127.0.0.1' ? '127.0.0.1' : host}:${(s.address() as AddressInfo).port}`, seen };
}

describe('httpFetch: the fetch Octokit gets, over node:http(s), as fetch behaves where Octokit looks', () => {
  it('sends the method, headers and body; answers with status, headers (get and iteration), text and bytes', async () => {
    const s = await server((_req, res, body) => {
      res.writeHead(201, 'Created', { 'content-type': 'application/json', 'x-ratelimit-remaining': '4999' });
      res.end(JSON.stringify({ got: body }));
    });
    const r = await httpFetch(`${s.url}/repos/o/r/issues`, {
      method: 'POST',
      headers: { authorization: 'token t', 'content-type': 'application/json' },
      body: '{"title":"x"}',
    });
    expect(r.status).toBe(201);
    expect(r.statusText).toBe('Created');
    expect(r.url).toBe(`${s.url}/repos/o/r/issues`);
    expect(r.headers.get('X-RateLimit-Remaining')).toBe('4999');
    expect(Object.fromEntries([...r.headers])).toMatchObject({ 'content-type': 'application/json', 'x-ratelimit-remaining': '4999' });
    expect(JSON.parse(await r.text())).toEqual({ got: '{"title":"x"}' });
    expect(new TextDecoder().decode(await r.arrayBuffer())).toBe('{"got":"{\\"title\\":\\"x\\"}"}');
    expect(s.seen).toEqual([{ method: 'POST', url: '/repos/o/r/issues', auth: 'token t', body: '{"title":"x"}', type: 'application/json' }]);
  });

  it('follows a redirect, dropping Authorization when it leads to another origin (a job log on another host)', async () => {
    const logs = await server((_req, res) => res.end('the log'));
    const api = await server((req, res) => {
      if (req.url === '/same') return res.writeHead(307, { location: '/final' }).end();
      if (req.url === '/final') return res.end('same origin');
      res.writeHead(302, { location: `${logs.url}/blob?sig=1` }).end();
    });
    const r = await httpFetch(`${api.url}/jobs/1/logs`, { headers: { authorization: 'token secret' } });
    expect([r.status, await r.text(), r.url]).toEqual([200, 'the log', `${logs.url}/blob?sig=1`]);
    expect(logs.seen[0]!.auth).toBeUndefined();
    const same = await httpFetch(`${api.url}/same`, { headers: { authorization: 'token secret' } });
    expect(await same.text()).toBe('same origin');
    expect(api.seen.at(-1)).toMatchObject({ url: '/final', auth: 'token secret' });
    const manual = await httpFetch(`${api.url}/jobs/1/logs`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([302, `${logs.url}/blob?sig=1`]);
  });

  it('a POST answered 303 is fetched again as a GET without its body', async () => {
    const s = await server((req, res) => (req.url === '/post' ? res.writeHead(303, { location: '/done' }).end() : res.end(req.method)));
    const r = await httpFetch(`${s.url}/post`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(await r.text()).toBe('GET');
    expect(s.seen[1]).toMatchObject({ method: 'GET', body: '', type: undefined });
    // A HEAD stays a HEAD (fetch spec, HTTP-redirect fetch step 12: only a method other than GET or HEAD becomes GET).
    const head = await httpFetch(`${s.url}/post`, { method: 'HEAD' });
    expect([head.status, s.seen.at(-1)!.method]).toEqual([200, 'HEAD']);
  });

  it('decodes a body the server encoded unasked, as fetch does (RFC 9110: without Accept-Encoding any coding is acceptable)', async () => {
    const json = JSON.stringify({ full_name: 'octo/hello', body: 'é'.repeat(50) });
    const encoded: Record<string, [string, Buffer]> = {
      '/gzip': ['gzip', gzipSync(json)],
      '/x-gzip': ['x-gzip', gzipSync(json)],
      '/deflate': ['deflate', deflateSync(json)],
      '/raw-deflate': ['deflate', deflateRawSync(json)],
      '/br': ['br', brotliCompressSync(json)],
      '/twice': ['deflate, gzip', gzipSync(deflateSync(json))],
      '/unknown': ['zstd-or-so', Buffer.from(json)],
    };
    const accepted: Array<string | undefined> = [];
    const s = await server((req, res) => {
      accepted.push(req.headers['accept-encoding']);
      const [coding, bytes] = encoded[req.url!]!;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding }).end(bytes);
    });
    for (const path of Object.keys(encoded)) {
      const r = await httpFetch(`${s.url}${path}`);
      expect([path, await r.text()]).toEqual([path, json]);
    }
    const bytes = await (await httpFetch(`${s.url}/br`)).arrayBuffer();
    expect(new TextDecoder().decode(bytes)).toBe(json);
    expect(new Set(accepted)).toEqual(new Set([undefined]));
  });

  it('fails as fetch does: a TypeError with the cause, or an AbortError when the signal aborts', async () => {
    const s = await server(() => {});
    const closed = `${s.url.replace(/:\d+$/, '')}:1`;
    await expect(httpFetch(`${closed}/x`)).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
    const controller = new AbortController();
    const pending = httpFetch(`${s.url}/hangs`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a server that goes quiet past the idle limit, before its headers or in the middle of its body, fails the request; a slow steady one does not', async () => {
    // undici's headersTimeout and bodyTimeout, which Node's fetch would have applied (300 s each).
    expect(IDLE_TIMEOUT_MS).toBe(300_000);
    const idle = 400;
    const s = await server((req, res) => {
      if (req.url === '/silent') return; // never answers
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('part one;');
      if (req.url === '/stalls') return; // headers and a first part, then nothing
      // A chunk every idle/5 ms, for longer than the idle limit: never quiet that long.
      let n = 0;
      const t = setInterval(() => {
        res.write(` ${++n}`);
        if (n === 6) {
          clearInterval(t);
          res.end();
        }
      }, idle / 5);
    });
    const quiet = { name: 'TypeError', message: 'fetch failed', cause: { message: `no answer from ${s.url.slice('http://'.length)} in 0.4 s` } };
    for (const path of ['/silent', '/stalls']) {
      const start = Date.now();
      await expect(httpFetch(`${s.url}${path}`, {}, idle)).rejects.toMatchObject(quiet);
      expect(Date.now() - start).toBeGreaterThanOrEqual(idle - 20);
    }
    const start = Date.now();
    const r = await httpFetch(`${s.url}/steady`, {}, idle);
    expect(await r.text()).toBe('part one; 1 2 3 4 5 6');
    expect(Date.now() - start).toBeGreaterThan(idle);
  });
});
