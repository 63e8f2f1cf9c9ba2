import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * The fetch Octokit calls, over node:http and node:https. Node's own fetch is undici, which Node
 * compiles on its first call: on the Actions runtime (node24) that cost more than the route job's
 * whole evaluation of @actions/core (#53, docs/PERFORMANCE.md "Cold start"), before every job's first
 * request. Octokit's fetch-wrapper reads `status`, `statusText`, `url`, the headers (iterated and
 * `get`), `text()` and `arrayBuffer()` (the body decoded, see `decoded`); crew sends strings or bytes.
 * As fetch does, redirects are followed (at most 20; a 303 to a method other than GET or HEAD, or a
 * POST's 301/302, becomes a GET without body) and the Authorization header is dropped when one leads
 * to another origin (fetch spec, HTTP-redirect fetch step 13), which is how a job log's link to
 * another host is read without crew's token.
 */

const MAX_REDIRECTS = 20;
/**
 * undici's headersTimeout and bodyTimeout (300 s each): a request whose server goes quiet that long, before its
 * headers or in the middle of its body, fails, and crew's retry policy takes over.
 */
export const IDLE_TIMEOUT_MS = 300_000;

interface Init {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  redirect?: 'follow' | 'manual' | 'error';
  signal?: AbortSignal | null;
}

class ResponseHeaders {
  constructor(private readonly map: Map<string, string>) {}
  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }
  [Symbol.iterator]() {
    return this.map[Symbol.iterator]();
  }
}

function bodyBytes(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError(`crew's GitHub client sends a string or bytes as a request body, not ${Object.prototype.toString.call(body)}.`);
}

function send(url: URL, method: string, headers: Record<string, string>, body: Buffer | undefined, signal: AbortSignal | null | undefined, idleMs: number) {
  return new Promise<{ res: IncomingMessage; bytes: Buffer }>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method,
      headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
    });
    const onAbort = () => req.destroy(abortError(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    // As fetch does: a TypeError whose cause says what happened (Octokit reports the cause's message).
    const fail = (e: Error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(e.name === 'AbortError' ? e : Object.assign(new TypeError('fetch failed'), { cause: e }));
    };
    req.setTimeout(idleMs, () => req.destroy(new Error(`no answer from ${url.host} in ${idleMs / 1000} s`)));
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(signal?.aborted ? abortError(signal) : new Error(`${url.host} closed the connection before its answer ended`));
      });
      res.on('end', () => {
        signal?.removeEventListener('abort', onAbort);
        resolve({ res, bytes: Buffer.concat(chunks) });
      });
    });
    req.end(body);
  });
}

/**
 * The body as fetch hands it: undone from the content codings the server applied, the last first. crew asks
 * for none (no Accept-Encoding), yet a server may still use one (RFC 9110 §12.5.3: without that field any
 * coding is acceptable); node:zlib is loaded only then, off the cold start. As undici's fetch does, `deflate`
 * is zlib-wrapped or raw, and a coding it does not know leaves the whole body as it came.
 */
async function decoded(bytes: Buffer, encoding: string | undefined): Promise<Buffer> {
  const codings = (encoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  if (!codings.length || !bytes.length) return bytes;
  const zlib = await import('node:zlib');
  let out = bytes;
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') out = zlib.gunzipSync(out);
    else if (coding === 'deflate') out = (out[0]! & 0x0f) === 0x08 ? zlib.inflateSync(out) : zlib.inflateRawSync(out);
    else if (coding === 'br') out = zlib.brotliDecompressSync(out);
    else return bytes;
  }
  return out;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error && signal.reason.name === 'AbortError' ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
}

/** `idleMs`: the silence after which a request fails, `IDLE_TIMEOUT_MS` but in tests (fetch's callers pass two arguments). */
export async function httpFetch(input: string | URL, init: Init = {}, idleMs = IDLE_TIMEOUT_MS) {
  let url = new URL(String(input));
  let method = (init.method ?? 'GET').toUpperCase();
  let headers = { ...init.headers };
  let body = bodyBytes(init.body);
  for (let hop = 0; ; hop++) {
    const { res, bytes } = await send(url, method, headers, body, init.signal, idleMs);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if ([301, 302, 303, 307, 308].includes(status) && location && init.redirect !== 'manual') {
      if (init.redirect === 'error') throw new TypeError(`fetch failed: ${url} redirects to ${location}`);
      if (hop >= MAX_REDIRECTS) throw new TypeError(`fetch failed: more than ${MAX_REDIRECTS} redirects from ${input}`);
      const next = new URL(location, url);
      if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-/i.test(k)));
      }
      if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'));
      url = next;
      continue;
    }
    const map = new Map<string, string>();
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) map.set(k, Array.isArray(v) ? v.join(', ') : v);
    let content: Promise<Buffer> | undefined;
    const read = () => (content ??= decoded(bytes, map.get('content-encoding')));
    return {
      status,
      statusText: res.statusMessage ?? '',
      url: url.href,
      ok: status >= 200 && status < 300,
      headers: new ResponseHeaders(map),
      body: null,
      text: async () => (await read()).toString('utf8'),
      json: async () => JSON.parse((await read()).toString('utf8')) as unknown,
      arrayBuffer: async () => Uint8Array.from(await read()).buffer,
    };
  }
}
