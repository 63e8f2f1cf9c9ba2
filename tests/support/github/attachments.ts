import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scaledMs } from '../time';

/**
 * Files pasted into issues and comments, as GitHub serves them (#36, #47):
 *
 * - `<server>/user-attachments/assets/<uuid>` is the URL in the markdown. For a private repository
 *   it answers 404 to every API client, whatever its token (fine-grained, classic, an app's, the
 *   workflow's): only a signed-in browser session is redirected, and no client of crew's ever has
 *   one, so here it is 404 for all (josegonzalez/python-github-backup#477, "Some attachments in
 *   private repos are not downloaded (HTTPError: Not Found), but can be accessed in a browser
 *   session"; openai/codex#43923, the same with `gh api`'s token). A public repository's answers
 *   anyone, no token needed, with a 302 to a signed URL.
 * - What does reach a private repository's file: the REST API's `full`/`html` media types
 *   (GitHub Docs, REST "Media types": `application/vnd.github.full+json` adds `body_text` and
 *   `body_html`) render each attachment as `<img src>` on the storage host,
 *   `private-user-images.githubusercontent.com/<owner-id>/<asset-id>-<uuid>.<ext>?jwt=…`, signed for
 *   whoever asked; claude-code-action's src/github/utils/image-downloader.ts reads them so, pairing
 *   each with its attachment by the uuid in the file name. The JWT is the URL's only credential and
 *   expires five minutes after it was issued (the `nbf`/`exp` of the JWTs in such URLs are 300 s apart).
 *   The body is rendered for the token that asks: an attachment of another private repository that
 *   the token cannot read keeps its plain URL (media-types.ts).
 * - The storage host is another origin (here `private-user-images.github.localhost`, its own port).
 *   It refuses a request that also carries an Authorization header, as a signed-URL store does
 *   (S3: "Only one auth mechanism allowed"), so a client that sends its token there fails here.
 *   An expired or unknown link: GitHub documents no answer; the JWT's audience is
 *   raw.githubusercontent.com, which answers a link whose token no longer holds with a plain
 *   `404: Not Found`, and so does this fake.
 */
export interface Attachment {
  bytes: Buffer;
  contentType: string;
  uploader: string;
  /** The storage's number for the upload (the `<asset-id>` of its signed URLs). */
  assetId: number;
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

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/svg+xml': 'svg' };

export class FakeAttachments {
  readonly files = new Map<string, Attachment>();
  readonly downloads: AttachmentDownload[] = [];
  /** Every signed URL handed out, by its JWT. */
  readonly links = new Map<string, { uuid: string; expires: number }>();
  private server?: Server;
  private nextAssetId = 400_000_001;
  storageHost = '';

  constructor(
    private readonly serverUrl: () => string,
    private readonly timeScale: number,
    /** A login's numeric user id: the `<owner-id>` of the signed URL. */
    private readonly userId: (login: string) => number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.serveStorage(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.storageHost = `http://private-user-images.github.localhost:${(this.server.address() as AddressInfo).port}`;
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
    this.files.set(uuid, { bytes, contentType, uploader, assetId: this.nextAssetId++, ...(elsewhere ? { elsewhere } : {}) });
    return `${this.serverUrl()}/user-attachments/assets/${uuid}`;
  }

  static matches(pathname: string): boolean {
    return /^\/user-attachments\/assets\/[0-9a-f-]{36}$/.test(pathname);
  }

  /** The upload an attachment URL of this server names, if it is one. */
  uuidOf(url: string): string | undefined {
    const prefix = `${this.serverUrl()}/user-attachments/assets/`;
    if (!url.startsWith(prefix)) return undefined;
    const uuid = url.slice(prefix.length);
    return this.files.has(uuid) ? uuid : undefined;
  }

  /** A fresh signed URL on the storage host for the upload, valid five minutes (time-scaled). */
  sign(uuid: string): string {
    const file = this.files.get(uuid)!;
    const jwt = randomBytes(24).toString('base64url');
    this.links.set(jwt, { uuid, expires: Date.now() + scaledMs(LINK_MS, this.timeScale) });
    const ext = EXTENSIONS[file.contentType] ?? 'bin';
    return `${this.storageHost}/${this.userId(file.uploader)}/${file.assetId}-${uuid}.${ext}?jwt=${jwt}`;
  }

  /**
   * The asset URL on GitHub's own host: a 302 to a signed URL for anyone when the repository it was
   * pasted in is public (`isPublic`), else 404, token or not (no API client has a browser session).
   */
  serveAsset(res: ServerResponse, pathname: string, authorization: boolean, isPublic: (file: Attachment) => boolean): void {
    const uuid = pathname.split('/').pop()!;
    const file = this.files.get(uuid);
    const status = !file || !isPublic(file) ? 404 : 302;
    this.downloads.push({ host: 'github', uuid, status, authorization });
    res.statusCode = status;
    if (status === 404) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      return void res.end('<html><body>Not Found</body></html>');
    }
    res.setHeader('location', this.sign(uuid));
    res.end();
  }

  private serveStorage(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.storageHost);
    const uuid = /^\/\d+\/\d+-([0-9a-f-]{36})\.\w+$/.exec(url.pathname)?.[1] ?? '';
    const link = this.links.get(url.searchParams.get('jwt') ?? '');
    const authorization = req.headers.authorization !== undefined;
    const answer = (status: number, body: Buffer | string, type = 'text/plain; charset=utf-8') => {
      this.downloads.push({ host: 'storage', uuid, status, authorization });
      res.statusCode = status;
      res.setHeader('content-type', type);
      res.end(body);
    };
    if (authorization) return answer(400, 'Only one auth mechanism allowed');
    const file = this.files.get(uuid);
    if (!link || link.uuid !== uuid || Date.now() > link.expires || !file) return answer(404, '404: Not Found');
    answer(200, file.bytes, file.contentType);
  }
}
