import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scaledMs } from '../time';

/**
 * Files pasted into issues and comments, as GitHub serves them (#36):
 *
 * - `<server>/user-attachments/assets/<uuid>` is the URL in the markdown. On a private repository it
 *   answers only a request with a token that may read the repository, and answers 404 otherwise
 *   (GitHub's way of not saying a private resource exists: REST docs, "Troubleshooting", 404 for
 *   resources the token cannot see).
 * - With a token it answers 302 to the storage host, `private-user-images.githubusercontent.com/
 *   <user>/<n>-<uuid>.<ext>?jwt=…`, where the JWT is the only credential and expires five minutes
 *   after it was issued (the `nbf`/`exp` of the JWTs in such URLs are 300 s apart).
 * - The storage host is another origin; here it is its own port. It refuses a request that also
 *   carries an Authorization header, as a signed-URL store refuses a second credential, so a client
 *   that forwards the token across the redirect fails here instead of passing unnoticed.
 */
export interface Attachment {
  bytes: Buffer;
  contentType: string;
  uploader: string;
  /**
   * Pasted in another repository than the fake's own: who reads that one (logins of people and apps;
   * the workflow's GITHUB_TOKEN reads only the repository its workflow is in: GitHub's docs, "Automatic
   * token authentication"), or anyone when it is public. The URL does not name the repository.
   */
  elsewhere?: { fullName: string; readers: string[]; public: boolean };
}

export interface AttachmentDownload {
  host: 'github' | 'storage';
  uuid: string;
  status: number;
  authorization: boolean;
}

/** A link's life: five minutes, time-scaled. */
const LINK_MS = 5 * 60_000;

export class FakeAttachments {
  readonly files = new Map<string, Attachment>();
  readonly downloads: AttachmentDownload[] = [];
  private readonly links = new Map<string, { uuid: string; expires: number }>();
  private server?: Server;
  storageHost = '';

  constructor(
    private readonly serverUrl: () => string,
    private readonly timeScale: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.serveStorage(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.storageHost = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  /** Uploads a file as a person pasting it would; returns the URL the markdown shows. */
  add(bytes: Buffer, contentType: string, uploader: string, elsewhere?: Attachment['elsewhere']): string {
    const uuid = randomUUID();
    this.files.set(uuid, { bytes, contentType, uploader, ...(elsewhere ? { elsewhere } : {}) });
    return `${this.serverUrl()}/user-attachments/assets/${uuid}`;
  }

  static matches(pathname: string): boolean {
    return /^\/user-attachments\/assets\/[0-9a-f-]{36}$/.test(pathname);
  }

  /**
   * The asset URL on GitHub's own host: 404 unless `reads` says the request may read the repository
   * the file was pasted in (a public one: anyone), else a 302 to storage.
   */
  serveAsset(res: ServerResponse, pathname: string, authorization: boolean, reads: (file: Attachment) => boolean): void {
    const uuid = pathname.split('/').pop()!;
    const file = this.files.get(uuid);
    const status = !file || !reads(file) ? 404 : 302;
    this.downloads.push({ host: 'github', uuid, status, authorization });
    res.statusCode = status;
    if (status === 404) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      return void res.end('<html><body>Not Found</body></html>');
    }
    const jwt = randomBytes(24).toString('base64url');
    this.links.set(jwt, { uuid, expires: Date.now() + scaledMs(LINK_MS, this.timeScale) });
    res.setHeader('location', `${this.storageHost}/${file!.uploader}/${Date.now()}-${uuid}?jwt=${jwt}`);
    res.end();
  }

  private serveStorage(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.storageHost);
    const uuid = /-([0-9a-f-]{36})$/.exec(url.pathname)?.[1] ?? '';
    const link = this.links.get(url.searchParams.get('jwt') ?? '');
    const authorization = req.headers.authorization !== undefined;
    const answer = (status: number, body: Buffer | string, type = 'text/plain') => {
      this.downloads.push({ host: 'storage', uuid, status, authorization });
      res.statusCode = status;
      res.setHeader('content-type', type);
      res.end(body);
    };
    if (authorization) return answer(400, 'Only one auth mechanism allowed');
    if (!link || link.uuid !== uuid) return answer(404, 'Not Found');
    if (Date.now() > link.expires) return answer(403, 'The link has expired');
    const file = this.files.get(uuid)!;
    answer(200, file.bytes, file.contentType);
  }
}
