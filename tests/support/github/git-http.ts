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
  const service =
    rest === 'git-receive-pack' || query.get('service') === 'git-receive-pack' ? 'receive-pack' : 'upload-pack';
  return { owner: m[1]!, repo: m[2]!, service, rest };
}

/**
 * Serves git's smart-HTTP protocol by running Debian's `git http-backend` as a CGI,
 * so real `git clone`, `fetch` and `push` talk to the fake over loopback.
 */
export function serveGit(
  req: IncomingMessage,
  res: ServerResponse,
  opts: { projectRoot: string; pathInfo: string; query: string; remoteUser?: string; extraEnv?: Record<string, string> },
): Promise<number> {
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
        else res.setHeader(name, value);
      }
      res.statusCode = status;
      if (body.length) res.write(body);
    });
    cgi.on('close', (code) => {
      if (!headerDone) {
        res.statusCode = 500;
        res.end(`git http-backend failed (${code}): ${Buffer.concat(stderr).toString()}`);
        resolve(500);
        return;
      }
      res.end();
      resolve(status);
    });
  });
}
