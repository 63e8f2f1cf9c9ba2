import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// The library's own generated protobuf types: what its client sends is checked against them (not exported by the package).
import { ArtifactService } from '../../../node_modules/@actions/artifact/lib/generated/index.js';

/**
 * GitHub's artifact service as @actions/artifact (v2+) talks to it, over loopback:
 *
 * - the results service's Twirp API, `POST /twirp/github.actions.results.api.v1.ArtifactService/<Method>`
 *   with JSON bodies. Every request body is read with the library's own generated message type
 *   (`ArtifactService.methods[…].I.fromJson`, which refuses unknown fields and wrong types), and
 *   every answer written with the response type, so a request the real service would not parse
 *   fails here too. Errors are Twirp's `{code, msg}` with Twirp's HTTP statuses (twitchtv/twirp
 *   spec v7: not_found 404, already_exists 409, invalid_argument 400, unauthenticated 401,
 *   failed_precondition 412, permission_denied 403).
 * - the job's runtime token (ACTIONS_RUNTIME_TOKEN), a JWT whose `scp` claim holds
 *   `Actions.Results:<workflow run backend id>:<job run backend id>`: the library reads the
 *   backend ids from it (internal/shared/util.js getBackendIdsFromToken); the service checks the
 *   signature and that a request names the backend ids of its own token.
 * - blob storage at the signed URL CreateArtifact returns: Azure Blob's Put Block and Put Block
 *   List, which @azure/storage-blob's uploadStream uses (learn.microsoft.com/rest/api/storageservices,
 *   "Put Block": `blockid` is Base64 of at most 64 bytes, the same length for every block of a
 *   blob, `Content-Length` and `x-ms-version` required; "Put Block List": an XML `<BlockList>` of
 *   staged ids, 201 Created). The URL's `sig` is checked and it expires; a GET of a finished
 *   artifact's signed download URL serves the zip.
 *
 * Finalizing checks the size and sha256 the library reports against what was committed. An
 * artifact's name is unique within its workflow run (GitHub refuses a second upload of a name).
 */

export interface StoredArtifact {
  id: number;
  name: string;
  /** GitHub's id of the workflow run that uploaded it. */
  workflowRunId: number;
  runBackendId: string;
  jobBackendId: string;
  createdAt: string;
  expiresAt: string | null;
  size: number;
  sha256: string | null;
  /** The committed blob: a zip, as the library streams it. */
  blob: Buffer | null;
  finalized: boolean;
  mimeType: string | null;
}

interface PendingBlob {
  blocks: Map<string, Buffer>;
  idLength: number | null;
}

const TWIRP_STATUS: Record<string, number> = {
  invalid_argument: 400,
  malformed: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  already_exists: 409,
  failed_precondition: 412,
  internal: 500,
};

class TwirpError extends Error {
  constructor(
    readonly code: keyof typeof TWIRP_STATUS,
    message: string,
  ) {
    super(message);
  }
}

/** GitHub's artifact ids are past 4,000,000,000 (2025); the fake starts beyond them. */
const FIRST_ID = 4_800_000_000;
/** How long a signed URL lasts; GitHub's last minutes (a time-scaled test never reaches it). */
const URL_LIFETIME_MS = 60 * 60_000;

export class FakeArtifactService {
  readonly artifacts: StoredArtifact[] = [];
  /** Every request, for tests: the Twirp method or blob operation, and its status. */
  readonly requests: Array<{ what: string; status: number }> = [];
  /** Problems a request had that the real service refuses; a test expects none. */
  readonly violations: string[] = [];
  /** A service that takes requests and never answers them (the library's Twirp calls have no timeout of their own). */
  stalled = false;
  private readonly secret = randomUUID();
  private readonly runs = new Map<string, number>();
  private readonly pending = new Map<number, PendingBlob>();
  private nextId = FIRST_ID;
  private server?: Server;
  url = '';

  static async start(): Promise<FakeArtifactService> {
    const s = new FakeArtifactService();
    s.server = createServer((req, res) => void s.handle(req, res));
    await new Promise<void>((resolve) => s.server!.listen(0, '127.0.0.1', resolve));
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`;
    return s;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /**
   * What the runner gives a job's node actions: the runtime token (for one job of one workflow run)
   * and the results service's URL. GITHUB_RETENTION_DAYS is the repository's limit the library caps
   * `retentionDays` at.
   */
  jobEnv(workflowRunId: number, job: string): Record<string, string> {
    let runBackend = [...this.runs].find(([, id]) => id === workflowRunId)?.[0];
    if (!runBackend) this.runs.set((runBackend = randomUUID()), workflowRunId);
    return {
      ACTIONS_RUNTIME_TOKEN: this.token(runBackend, randomUUID(), job),
      ACTIONS_RESULTS_URL: `${this.url}/`,
      GITHUB_RETENTION_DAYS: '90',
    };
  }

  /** The artifacts a workflow run uploaded and finalized, as its page lists them. */
  ofRun(workflowRunId: number): StoredArtifact[] {
    return this.artifacts.filter((a) => a.workflowRunId === workflowRunId && a.finalized);
  }

  private token(runBackend: string, jobBackend: string, job: string): string {
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const head = b64({ typ: 'JWT', alg: 'HS256' });
    const body = b64({
      scp: `Actions.ExampleScope Actions.Results:${runBackend}:${jobBackend}`,
      job,
      exp: Math.floor(Date.now() / 1000) + 6 * 3600,
    });
    return `${head}.${body}.${createHmac('sha256', this.secret).update(`${head}.${body}`).digest('base64url')}`;
  }

  private scopeOf(req: IncomingMessage): { run: string; job: string } {
    const auth = req.headers.authorization ?? '';
    const m = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(auth);
    if (!m) throw new TwirpError('unauthenticated', 'a Bearer runtime token is required');
    const sig = createHmac('sha256', this.secret).update(`${m[1]}.${m[2]}`).digest('base64url');
    if (sig !== m[3]) throw new TwirpError('unauthenticated', 'the runtime token was not issued by this service');
    const claims = JSON.parse(Buffer.from(m[2]!, 'base64url').toString()) as { scp: string; exp: number };
    if (claims.exp * 1000 < Date.now()) throw new TwirpError('unauthenticated', 'the runtime token expired');
    const scope = claims.scp.split(' ').find((s) => s.startsWith('Actions.Results:'))!;
    const [, run, job] = scope.split(':');
    return { run: run!, job: job! };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
    });
    const url = new URL(req.url ?? '/', this.url);
    if (this.stalled) {
      this.requests.push({ what: `${url.pathname.split('/').pop() ?? '?'} (never answered)`, status: 0 });
      return;
    }
    if (url.pathname.startsWith('/twirp/')) return this.twirp(req, res, url, body);
    if (url.pathname.startsWith('/blob/')) return this.blob(req, res, url, body);
    res.writeHead(404).end();
  }

  private twirp(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): void {
    const [, , service, name] = url.pathname.split('/');
    const method = ArtifactService.methods.find((m) => m.name === name);
    const answer = (status: number, json: unknown) => {
      this.requests.push({ what: name ?? '?', status });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    };
    try {
      if (req.method !== 'POST') throw new TwirpError('malformed', `twirp takes POST, not ${req.method}`);
      if (service !== ArtifactService.typeName || !method) throw new TwirpError('not_found', `no method ${service}/${name}`);
      if (!/^application\/json/.test(req.headers['content-type'] ?? '')) throw new TwirpError('malformed', 'the body must be application/json');
      const scope = this.scopeOf(req);
      let input: Record<string, unknown>;
      try {
        input = method.I.fromJson(JSON.parse(body.toString()) as never) as Record<string, unknown>;
      } catch (e) {
        this.violations.push(`${name}: ${(e as Error).message}`);
        throw new TwirpError('malformed', (e as Error).message);
      }
      // Writes name the token's own job; reads name the job that uploaded, which any job of the run may read.
      const writes = name === 'CreateArtifact' || name === 'FinalizeArtifact';
      if (input.workflowRunBackendId !== scope.run || (writes && input.workflowJobRunBackendId !== scope.job)) {
        this.violations.push(`${name}: backend ids that are not the token's`);
        throw new TwirpError('permission_denied', "the backend ids are not the runtime token's");
      }
      const out = this.call(name!, input, scope);
      answer(200, method.O.toJson(method.O.create(out as never), { useProtoFieldName: true }));
    } catch (e) {
      const err = e instanceof TwirpError ? e : new TwirpError('internal', (e as Error).message);
      answer(TWIRP_STATUS[err.code]!, { code: err.code, msg: err.message });
    }
  }

  private call(name: string, input: Record<string, unknown>, scope: { run: string; job: string }): Record<string, unknown> {
    const workflowRunId = this.runs.get(scope.run);
    if (workflowRunId === undefined) throw new TwirpError('not_found', 'no such workflow run');
    const sameRun = (a: StoredArtifact) => a.runBackendId === scope.run;
    if (name === 'CreateArtifact') {
      const artifactName = String(input.name ?? '');
      if (!artifactName) throw new TwirpError('invalid_argument', 'name is required');
      if (Number(input.version) < 4) throw new TwirpError('invalid_argument', `artifact version ${String(input.version)} is not supported`);
      if (this.artifacts.some((a) => sameRun(a) && a.name === artifactName))
        throw new TwirpError('already_exists', `an artifact with this name already exists on the workflow run: ${artifactName}`);
      const expires = input.expiresAt as { seconds: string; nanos: number } | undefined;
      const expiresAt = expires ? new Date(Number(expires.seconds) * 1000).toISOString() : null;
      if (expiresAt && Date.parse(expiresAt) > Date.now() + 91 * 86_400_000) {
        this.violations.push(`CreateArtifact: expires_at ${expiresAt} past the repository's 90 days`);
        throw new TwirpError('invalid_argument', 'expires_at is past the retention limit');
      }
      const a: StoredArtifact = {
        id: this.nextId++,
        name: artifactName,
        workflowRunId,
        runBackendId: scope.run,
        jobBackendId: scope.job,
        createdAt: new Date().toISOString(),
        expiresAt,
        size: 0,
        sha256: null,
        blob: null,
        finalized: false,
        mimeType: (input.mimeType as { value?: string } | undefined)?.value ?? null,
      };
      this.artifacts.push(a);
      this.pending.set(a.id, { blocks: new Map(), idLength: null });
      return { ok: true, signedUploadUrl: this.signed(a.id, 'cw') };
    }
    if (name === 'FinalizeArtifact') {
      const a = this.artifacts.find((x) => sameRun(x) && x.name === input.name && !x.finalized);
      if (!a) throw new TwirpError('not_found', `no artifact ${String(input.name)} waiting to be finalized`);
      if (!a.blob) throw new TwirpError('failed_precondition', 'nothing was uploaded to the artifact');
      if (Number(input.size) !== a.blob.length) {
        this.violations.push(`FinalizeArtifact: size ${String(input.size)} but ${a.blob.length} bytes were committed`);
        throw new TwirpError('invalid_argument', 'the size does not match the upload');
      }
      const hash = (input.hash as { value?: string } | undefined)?.value;
      const actual = `sha256:${createHash('sha256').update(a.blob).digest('hex')}`;
      if (hash && hash !== actual) {
        this.violations.push(`FinalizeArtifact: hash ${hash} but the upload is ${actual}`);
        throw new TwirpError('invalid_argument', 'the hash does not match the upload');
      }
      a.size = a.blob.length;
      a.sha256 = actual;
      a.finalized = true;
      return { ok: true, artifactId: String(a.id) };
    }
    if (name === 'ListArtifacts') {
      const nameFilter = (input.nameFilter as { value?: string } | undefined)?.value;
      const idFilter = (input.idFilter as { value?: string } | undefined)?.value;
      const found = this.artifacts.filter(
        (a) => sameRun(a) && a.finalized && (!nameFilter || a.name === nameFilter) && (!idFilter || String(a.id) === idFilter),
      );
      return {
        artifacts: found.map((a) => ({
          workflowRunBackendId: a.runBackendId,
          workflowJobRunBackendId: a.jobBackendId,
          databaseId: String(a.id),
          name: a.name,
          size: String(a.size),
          createdAt: { seconds: String(Math.floor(Date.parse(a.createdAt) / 1000)), nanos: 0 },
          ...(a.sha256 ? { digest: { value: a.sha256 } } : {}),
        })),
      };
    }
    if (name === 'GetSignedArtifactURL') {
      const a = this.artifacts.find((x) => sameRun(x) && x.name === input.name && x.finalized);
      if (!a) throw new TwirpError('not_found', `no artifact ${String(input.name)}`);
      return { signedUrl: this.signed(a.id, 'r') };
    }
    throw new TwirpError('not_found', `${name} is not served by this fake`);
  }

  private signed(id: number, permissions: string): string {
    const se = new Date(Date.now() + URL_LIFETIME_MS).toISOString();
    const sig = createHmac('sha256', this.secret).update(`${id}\n${permissions}\n${se}`).digest('base64');
    // Azure's IP-style URL: account, container, blob.
    return `${this.url}/blob/actionsartifacts/artifact-${id}/artifact.zip?sv=2024-11-04&sp=${permissions}&se=${encodeURIComponent(se)}&sig=${encodeURIComponent(sig)}`;
  }

  private blob(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): void {
    const fail = (status: number, code: string, why: string) => {
      this.violations.push(`blob ${req.method} ${url.searchParams.get('comp') ?? ''}: ${why}`);
      this.requests.push({ what: `blob ${req.method}`, status });
      res
        .writeHead(status, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${why}</Message></Error>`);
    };
    const id = Number(/\/artifact-(\d+)\//.exec(url.pathname)?.[1]);
    const sp = url.searchParams.get('sp') ?? '';
    const se = url.searchParams.get('se') ?? '';
    const sig = createHmac('sha256', this.secret).update(`${id}\n${sp}\n${se}`).digest('base64');
    if (sig !== url.searchParams.get('sig')) return fail(403, 'AuthenticationFailed', 'the signature does not match');
    if (Date.parse(se) < Date.now()) return fail(403, 'AuthenticationFailed', 'the signed URL expired');
    const a = this.artifacts.find((x) => x.id === id);
    if (!a) return fail(404, 'BlobNotFound', 'no such blob');
    const ok = (status: number, headers: Record<string, string> = {}) => {
      this.requests.push({ what: `blob ${req.method} ${url.searchParams.get('comp') ?? ''}`.trim(), status });
      res
        .writeHead(status, {
          'x-ms-request-id': randomUUID(),
          'x-ms-version': '2024-11-04',
          date: new Date().toUTCString(),
          etag: `"0x${id.toString(16)}"`,
          ...headers,
        })
        .end();
    };
    if (req.method === 'GET') {
      if (!sp.includes('r')) return fail(403, 'AuthorizationPermissionMismatch', 'the URL does not allow reading');
      if (!a.finalized || !a.blob) return fail(404, 'BlobNotFound', 'the artifact was not finalized');
      this.requests.push({ what: 'blob GET', status: 200 });
      res.writeHead(200, { 'content-type': 'zip', 'content-length': String(a.blob.length) }).end(a.blob);
      return;
    }
    if (req.method !== 'PUT') return fail(405, 'UnsupportedHttpVerb', `${req.method} is not allowed`);
    if (!sp.includes('w') || !sp.includes('c')) return fail(403, 'AuthorizationPermissionMismatch', 'the URL does not allow writing');
    if (!req.headers['x-ms-version']) return fail(400, 'MissingRequiredHeader', 'x-ms-version is required');
    if (req.headers['content-length'] === undefined) return fail(411, 'MissingContentLengthHeader', 'Content-Length is required');
    if (a.finalized) return fail(409, 'BlobImmutable', 'the artifact is finalized');
    const pending = this.pending.get(id)!;
    const comp = url.searchParams.get('comp');
    if (comp === 'block') {
      const blockId = url.searchParams.get('blockid') ?? '';
      const raw = Buffer.from(blockId, 'base64');
      if (!blockId || raw.toString('base64') !== blockId || raw.length > 64)
        return fail(400, 'InvalidQueryParameterValue', 'blockid must be Base64 of at most 64 bytes');
      if (pending.idLength !== null && pending.idLength !== blockId.length)
        return fail(400, 'InvalidBlobOrBlock', 'every blockid of a blob must have the same length');
      pending.idLength = blockId.length;
      pending.blocks.set(blockId, body);
      return ok(201, { 'x-ms-request-server-encrypted': 'true' });
    }
    if (comp === 'blocklist') {
      const xml = body.toString();
      if (!/^(<\?xml[^>]*\?>)?\s*<BlockList>[\s\S]*<\/BlockList>\s*$/.test(xml)) return fail(400, 'InvalidXmlDocument', 'the body must be a <BlockList>');
      const ids = [...xml.matchAll(/<(Latest|Uncommitted|Committed)>([^<]*)<\/\1>/g)].map((m) => m[2]!);
      const parts: Buffer[] = [];
      for (const blockId of ids) {
        const block = pending.blocks.get(blockId);
        if (!block) return fail(400, 'InvalidBlockList', `block ${blockId} was not staged`);
        parts.push(block);
      }
      a.blob = Buffer.concat(parts);
      return ok(201, { 'x-ms-request-server-encrypted': 'true', 'last-modified': new Date().toUTCString() });
    }
    return fail(400, 'InvalidQueryParameterValue', `comp=${comp ?? ''} is not served by this fake`);
  }
}
