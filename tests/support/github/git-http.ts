import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';

const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/** `/owner/repo.git/info/refs`, `/owner/repo.git/git-upload-pack`, `/owner/repo.git/git-receive-pack`. */
const GIT_PATH = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack|HEAD)$/;

export interface GitRoute {
  owner: string;
  repo: string;
  service: 'upload-pack' | 'receive-pack';
  rest: string;
}

export function matchGitRoute(pathname: string, query: URLSearchParams): GitRoute | undefined {
  const m = GIT_PATH.exec(pathname);
  if (!m) return undefined;
  const rest = m[3]!;
  const service = rest === 'git-receive-pack' || query.get('service') === 'git-receive-pack' ? 'receive-pack' : 'upload-pack';
  return { owner: m[1]!, repo: m[2]!, service, rest };
}

/**
 * What one git round trip was for. `info/refs` is the first request of every fetch, ls-remote and
 * push: under protocol v2 (fetch and ls-remote) it answers only the server's capabilities, and
 * `ls-refs` then lists the refs; a push (protocol v0) gets the refs in it. `fetch` is upload-pack's
 * negotiation and pack, `push` receive-pack's commands and pack.
 * Source: https://git-scm.com/docs/gitprotocol-v2 and https://git-scm.com/docs/gitprotocol-http
 */
export type GitRequestKind = 'info/refs' | 'ls-refs' | 'fetch' | 'push' | 'other';

/** Enough of a request body to see its command (a push's commands come before its pack). */
const PEEK_BYTES = 64 * 1024;

/** pkt-lines from the start of a body, up to the first flush (0000) or as far as the bytes go. */
function pktLines(buf: Buffer): string[] {
  const lines: string[] = [];
  for (let i = 0; i + 4 <= buf.length;) {
    const len = Number.parseInt(buf.subarray(i, i + 4).toString('latin1'), 16);
    if (!Number.isFinite(len) || len === 0) break;
    if (len < 4) {
      i += 4; // v2's delimiter (0001) and response-end (0002) packets
      continue;
    }
    lines.push(buf.subarray(i + 4, Math.min(buf.length, i + len)).toString('latin1'));
    i += len;
  }
  return lines;
}

/**
 * Watches a git request's body go by (without holding it up) and says, once it is answered, what
 * the request was for and, for a push, which refs it updated.
 */
export function gitRequestPeek(
  req: IncomingMessage,
  route: GitRoute,
): { onChunk: (chunk: Buffer) => void; describe: () => { kind: GitRequestKind; refs?: string[] } } {
  let seen = Buffer.alloc(0);
  const onChunk = (chunk: Buffer) => {
    if (seen.length < PEEK_BYTES) seen = Buffer.concat([seen, chunk.subarray(0, PEEK_BYTES - seen.length)]);
  };
  const body = () => {
    if (req.headers['content-encoding'] !== 'gzip') return seen;
    try {
      // Only the start may be here: decode what there is.
      return gunzipSync(seen, { finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      return Buffer.alloc(0);
    }
  };
  const describe = (): { kind: GitRequestKind; refs?: string[] } => {
    if (req.method === 'GET') return { kind: route.rest === 'info/refs' ? 'info/refs' : 'other' };
    if (route.rest === 'git-receive-pack') {
      // "<old> <new> <ref>\0<capabilities>" per ref; a shallow clone's push sends "shallow <oid>" lines first.
      const refs = pktLines(body())
        .filter((l) => !l.startsWith('shallow ') && !l.startsWith('push-cert'))
        .map((l) => l.split('\0')[0]!.trim().split(' ')[2])
        .filter((r): r is string => !!r);
      return { kind: 'push', refs };
    }
    if (route.rest === 'git-upload-pack') {
      const first = pktLines(body())[0]?.trim() ?? '';
      if (first === 'command=ls-refs') return { kind: 'ls-refs' };
      if (first === 'command=fetch' || first.startsWith('want ')) return { kind: 'fetch' };
    }
    return { kind: 'other' };
  };
  return { onChunk, describe };
}

/** A whole response of `git http-backend`, kept to be sent again. */
export interface CachedGitResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

/**
 * Ref advertisements answered before, by what was asked and the repository's refs when it was
 * asked (see refAdvertisementKey).
 */
export interface RefAdvertisements {
  /** The bare repository's directory. */
  gitDir: string;
  answers: Map<string, CachedGitResponse>;
}

/**
 * Under protocol v2, upload-pack's `info/refs` answer is its capability list alone (no refs), the
 * same for every request to a repository. The fake sends it from memory after the first time:
 * GitHub's servers do not run on the runner's cores, and the fake's should not crowd crew's jobs
 * more than they must.
 */
function capabilityKey(req: IncomingMessage, opts: { pathInfo: string; query: string }): string | undefined {
  const protocol = (req.headers['git-protocol'] as string | undefined) ?? '';
  if (req.method !== 'GET' || !opts.pathInfo.endsWith('/info/refs') || opts.query !== 'service=git-upload-pack' || !/(^|:)version=2(:|$)/.test(protocol))
    return undefined;
  return `${opts.pathInfo}\n${protocol}`;
}

function readOrNothing(file: string): string {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return '\0none';
  }
}

/** Every name and content under refs/ (loose refs, and lock files while a ref is being written). */
function looseRefs(dir: string, prefix: string, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory()) looseRefs(path, `${name}/`, out);
    else out.push(name, entry.isSymbolicLink() ? `->${readlinkSync(path)}` : readOrNothing(path));
  }
}

/**
 * Everything a ref advertisement is made from, besides the request and objects that never change
 * once written: HEAD, the configuration (hidden refs, advertised capabilities), packed and loose
 * refs, shallow roots and alternates. Read straight from the files, which is far cheaper than
 * starting git.
 */
function refState(gitDir: string): string {
  const parts: string[] = [];
  for (const file of ['HEAD', 'config', 'packed-refs', 'shallow', 'objects/info/alternates']) parts.push(file, readOrNothing(join(gitDir, file)));
  looseRefs(join(gitDir, 'refs'), 'refs/', parts);
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

/** What every `git http-backend` run is told, which is all it knows of the request besides its body. */
function backendEnv(
  req: IncomingMessage,
  opts: { projectRoot: string; pathInfo: string; query: string; remoteUser?: string; extraEnv?: Record<string, string> },
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: opts.projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: opts.pathInfo,
    QUERY_STRING: opts.query,
    REQUEST_METHOD: req.method ?? 'GET',
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    HTTP_CONTENT_ENCODING: (req.headers['content-encoding'] as string | undefined) ?? '',
    GIT_PROTOCOL: (req.headers['git-protocol'] as string | undefined) ?? '',
    REMOTE_ADDR: '127.0.0.1',
    ...(opts.remoteUser ? { REMOTE_USER: opts.remoteUser } : {}),
    ...opts.extraEnv,
  };
}

/** A request body's bytes as git wrote them (a client may gzip a large one). */
function plainBody(req: IncomingMessage, body: Buffer): Buffer {
  if (req.headers['content-encoding'] !== 'gzip') return body;
  try {
    return gunzipSync(body);
  } catch {
    return Buffer.alloc(0);
  }
}

/**
 * A ref advertisement (`info/refs` of either service, or protocol v2's `ls-refs` command) is
 * computed from the request and the repository's refs alone: no hook runs, nothing is written,
 * and the objects the refs name never change. So the same request against the same refs gets the
 * same bytes, and the fake sends them from memory rather than starting `git http-backend` (with
 * upload-pack or receive-pack) again: about 60 of the 90 backend runs of a scenario. The key
 * holds everything the backend is given (its environment and the body) and a digest of the refs
 * as they are now; any ref that moves, appears or goes makes a new key.
 */
function refAdvertisementKey(gitDir: string, env: NodeJS.ProcessEnv, body: Buffer | undefined): string {
  const asked = createHash('sha256').update(JSON.stringify(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  if (body) asked.update(body);
  return `${asked.digest('hex')} ${refState(gitDir)}`;
}

function isLsRefs(req: IncomingMessage, body: Buffer): boolean {
  return pktLines(plainBody(req, body))[0]?.trim() === 'command=ls-refs';
}

/**
 * The whole request body. A client that goes away mid-request leaves what it sent, which the
 * backend then gets, as it would have through a pipe (and fails on, to no one).
 */
function readBody(req: IncomingMessage, peek?: (chunk: Buffer) => void): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = () => resolve(Buffer.concat(chunks));
    req.on('data', (chunk: Buffer) => {
      peek?.(chunk);
      chunks.push(chunk);
    });
    req.on('end', done);
    req.on('close', done);
    req.on('error', done);
  });
}

function sendCached(req: IncomingMessage, res: ServerResponse, cached: CachedGitResponse): number {
  req.resume();
  res.statusCode = cached.status;
  for (const [name, value] of cached.headers) res.setHeader(name, value);
  res.end(cached.body);
  return cached.status;
}

/**
 * Serves git's smart-HTTP protocol by running Debian's `git http-backend` as a CGI,
 * so real `git clone`, `fetch` and `push` talk to the fake over loopback.
 */
export async function serveGit(
  req: IncomingMessage,
  res: ServerResponse,
  opts: {
    projectRoot: string;
    pathInfo: string;
    query: string;
    remoteUser?: string;
    extraEnv?: Record<string, string>;
    capabilities?: Map<string, CachedGitResponse>;
    /** Ref advertisements already answered (refAdvertisementKey). */
    advertisements?: RefAdvertisements;
    /** Counts each `git http-backend` started, for tests of what is answered from memory. */
    onBackendRun?: () => void;
    /** Runs before the response ends, so the client cannot see the end before it (e.g. a push's events). */
    beforeEnd?: () => Promise<void>;
    /** Sees each chunk of the request body as it goes to the backend. */
    peek?: (chunk: Buffer) => void;
  },
): Promise<number> {
  const capability = opts.capabilities ? capabilityKey(req, opts) : undefined;
  const cachedCapabilities = capability ? opts.capabilities!.get(capability) : undefined;
  if (cachedCapabilities) return sendCached(req, res, cachedCapabilities);

  const env = backendEnv(req, opts);
  // An upload-pack request's body (a command, wants and haves: no pack) is read whole first, to
  // see whether it is `ls-refs`; git sends it all before it reads the answer.
  const body = opts.advertisements && req.method === 'POST' && opts.pathInfo.endsWith('/git-upload-pack') ? await readBody(req, opts.peek) : undefined;
  const advertisement =
    opts.advertisements && ((req.method === 'GET' && opts.pathInfo.endsWith('/info/refs')) || (body !== undefined && isLsRefs(req, body)))
      ? refAdvertisementKey(opts.advertisements.gitDir, env, body)
      : undefined;
  const cachedAdvertisement = advertisement ? opts.advertisements!.answers.get(advertisement) : undefined;
  if (cachedAdvertisement) return sendCached(req, res, cachedAdvertisement);

  const kept: CachedGitResponse | undefined = capability || advertisement ? { status: 200, headers: [], body: Buffer.alloc(0) } : undefined;
  return new Promise((resolve) => {
    opts.onBackendRun?.();
    const cgi = spawn(HTTP_BACKEND, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    if (body) {
      cgi.stdin.on('error', () => undefined);
      cgi.stdin.end(body);
    } else {
      if (opts.peek) req.on('data', opts.peek);
      req.pipe(cgi.stdin);
    }
    let headerDone = false;
    let pending = Buffer.alloc(0);
    let status = 200;
    const stderr: Buffer[] = [];
    cgi.stderr.on('data', (d: Buffer) => stderr.push(d));
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headerDone) {
        if (kept) kept.body = Buffer.concat([kept.body, chunk]);
        res.write(chunk);
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = pending.subarray(0, end).toString('latin1');
      const rest = pending.subarray(end + 4);
      headerDone = true;
      for (const line of head.split('\r\n')) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else {
          res.setHeader(name, value);
          kept?.headers.push([name, value]);
        }
      }
      res.statusCode = status;
      if (kept) kept.body = Buffer.concat([kept.body, rest]);
      if (rest.length) res.write(rest);
    });
    cgi.on('close', async (code) => {
      if (!headerDone) {
        res.statusCode = 500;
        res.end(`git http-backend failed (${code}): ${Buffer.concat(stderr).toString()}`);
        resolve(500);
        return;
      }
      await opts.beforeEnd?.().catch(() => undefined);
      res.end();
      if (kept && code === 0 && status === 200) {
        if (capability) opts.capabilities!.set(capability, { ...kept, status });
        // Kept only if no ref moved while the backend ran: then the answer is the refs' as keyed.
        else if (advertisement && refState(opts.advertisements!.gitDir) === advertisement.slice(advertisement.indexOf(' ') + 1))
          opts.advertisements!.answers.set(advertisement, { ...kept, status });
      }
      resolve(status);
    });
  });
}
