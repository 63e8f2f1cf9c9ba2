import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';

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

/** A whole response of `git http-backend`, kept to be sent again. */
export interface CachedGitResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
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

/**
 * Serves git's smart-HTTP protocol by running Debian's `git http-backend` as a CGI,
 * so real `git clone`, `fetch` and `push` talk to the fake over loopback.
 */
export function serveGit(
  req: IncomingMessage,
  res: ServerResponse,
  opts: {
    projectRoot: string;
    pathInfo: string;
    query: string;
    remoteUser?: string;
    extraEnv?: Record<string, string>;
    capabilities?: Map<string, CachedGitResponse>;
    /** Runs before the response ends, so the client cannot see the end before it (e.g. a push's events). */
    beforeEnd?: () => Promise<void>;
  },
): Promise<number> {
  const key = opts.capabilities ? capabilityKey(req, opts) : undefined;
  const cached = key ? opts.capabilities!.get(key) : undefined;
  if (cached) {
    req.resume();
    res.statusCode = cached.status;
    for (const [name, value] of cached.headers) res.setHeader(name, value);
    res.end(cached.body);
    return Promise.resolve(cached.status);
  }
  const kept: CachedGitResponse | undefined = key ? { status: 200, headers: [], body: Buffer.alloc(0) } : undefined;
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {
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
    const cgi = spawn(HTTP_BACKEND, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    req.pipe(cgi.stdin);
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
      const body = pending.subarray(end + 4);
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
      if (kept) kept.body = Buffer.concat([kept.body, body]);
      if (body.length) res.write(body);
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
      if (kept && key && code === 0 && status === 200) opts.capabilities!.set(key, { ...kept, status });
      resolve(status);
    });
  });
}
