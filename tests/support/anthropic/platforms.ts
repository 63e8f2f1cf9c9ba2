/**
 * The fake's Amazon Bedrock and Google Cloud Vertex AI fronts: the same scripted model behind each
 * platform's routes, authentication, body rules, errors and stream encoding, so Anthropic's official
 * `@anthropic-ai/bedrock-sdk` and `@anthropic-ai/vertex-sdk` talk to it over loopback unchanged.
 *
 * Sources, and what the fake holds each client to (never kinder than the service):
 *
 * Amazon Bedrock
 * - "InvokeModel" and "InvokeModelWithResponseStream", Amazon Bedrock API Reference
 *   (docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html, …WithResponseStream):
 *   `POST /model/{modelId}/invoke` and `/model/{modelId}/invoke-with-response-stream`; the model is
 *   in the path; errors are JSON `{"message": …}` with the type in `x-amzn-ErrorType`
 *   (ValidationException 400, AccessDeniedException 403, ThrottlingException 429,
 *   InternalServerException 500, ServiceUnavailableException 503); a stream is
 *   `application/vnd.amazon.eventstream` whose `chunk` events carry a `PayloadPart`, `{"bytes": <base64>}`.
 * - "Anthropic Claude Messages API", Amazon Bedrock user guide
 *   (…/userguide/model-parameters-anthropic-claude-messages-request-response.html): the body is the
 *   Messages API's with `anthropic_version` required and equal to `bedrock-2023-05-31`; `model` and
 *   `stream` are not body fields (Bedrock answers "extraneous key [model] is not permitted").
 *   Claude's "Claude on Amazon Bedrock (legacy)" page warns that current SDKs send `2026-10-21`
 *   and that such requests can be refused with a 400: the fake refuses them.
 * - "Event stream encoding" (AWS SDKs; the Amazon Transcribe streaming docs describe the same
 *   framing): a message is total length (uint32 BE), headers length (uint32 BE), a CRC32 of those 8
 *   bytes, the headers (name length byte, name, type byte 7 = string, uint16 value length, value),
 *   the payload, and a CRC32 of everything before it. Events carry `:event-type`, `:content-type`
 *   and `:message-type` (`event`, or `exception` with `:exception-type`).
 * - "Create a signed AWS API request" / "AWS Signature Version 4 for API requests", IAM user guide:
 *   `Authorization: AWS4-HMAC-SHA256 Credential=<key id>/<yyyymmdd>/<region>/<service>/aws4_request,
 *   SignedHeaders=…, Signature=<64 hex>`, `x-amz-date`, and `x-amz-security-token` for temporary
 *   credentials. The fake recomputes the signature with the secret key it issued (canonical request:
 *   method, the path URI-encoded once more, the sorted query, the signed headers, the payload's
 *   SHA-256), checks the scope names its region and the service `bedrock`, and allows 15 minutes of
 *   clock skew, as AWS does.
 *
 * Vertex AI
 * - "Use Claude models" / "Request predictions with Claude models", Vertex AI documentation
 *   (cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude):
 *   `POST https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict`
 *   (`:streamRawPredict` for SSE), `Authorization: Bearer <access token>`, and a Messages body with
 *   `anthropic_version: "vertex-2023-10-16"` and no `model` (it is in the URL).
 * - Google API errors ("Errors", cloud.google.com/apis/design/errors): `{"error": {"code", "message",
 *   "status"}}`, UNAUTHENTICATED 401, PERMISSION_DENIED 403, NOT_FOUND 404, RESOURCE_EXHAUSTED 429.
 * - Workload Identity Federation as google-github-actions/auth sets it up (its README, "Direct
 *   Workload Identity Federation"): an `external_account` credentials file whose
 *   `credential_source.url` is the job's ACTIONS_ID_TOKEN_REQUEST_URL (with the request token as a
 *   bearer header, the answer's `value` is the OIDC token), and whose `token_url` is the Security Token
 *   Service ("Method: token", cloud.google.com/iam/docs/reference/sts/rest/v1/TopLevel/token:
 *   form-encoded token exchange → `access_token`, `issued_token_type`, `token_type`, `expires_in`).
 *   The fake serves both: `GET /oidc/token` (standing in for GitHub's token service) and
 *   `POST /sts/v1/token`.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export type PlatformOptions =
  | { kind: 'bedrock'; region: string; credentials: AwsCredentials[] }
  | {
      kind: 'vertex';
      project: string;
      region: string;
      /** The OIDC request token (the job's ACTIONS_ID_TOKEN_REQUEST_TOKEN) the token endpoint accepts. */
      oidcRequestToken: string;
      /** The workload identity provider audience the STS exchange must name. */
      audience: string;
    };

/** A platform error: the status, Bedrock's exception name or Google's status, and the message. */
export class PlatformError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function sendPlatformError(res: ServerResponse, platform: PlatformOptions, e: PlatformError): void {
  if (platform.kind === 'bedrock') {
    res.writeHead(e.status, { 'content-type': 'application/json', 'x-amzn-errortype': `${e.code}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
    res.end(JSON.stringify({ message: e.message }));
  } else {
    res.writeHead(e.status, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify({ error: { code: e.status, message: e.message, status: e.code } }));
  }
}

/** The model route a platform request names: the model id, and whether it asks for a stream. */
export interface PlatformRoute {
  model: string;
  stream: boolean;
}

/** Matches the platform's routes, or undefined (404). */
export function routeOf(platform: PlatformOptions, method: string, rawPath: string): PlatformRoute | undefined {
  if (method !== 'POST') return undefined;
  if (platform.kind === 'bedrock') {
    const m = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(rawPath);
    return m ? { model: decodeURIComponent(m[1]!), stream: m[2] === 'invoke-with-response-stream' } : undefined;
  }
  const m = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/.exec(rawPath);
  if (!m) return undefined;
  const [project, location] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)];
  if (project !== platform.project) throw new PlatformError(403, 'PERMISSION_DENIED', `Permission denied on resource project ${project}.`);
  if (location !== platform.region) throw new PlatformError(400, 'INVALID_ARGUMENT', `Location ${location} is not served by the ${platform.region} endpoint.`);
  return { model: decodeURIComponent(m[3]!), stream: m[4] === 'streamRawPredict' };
}

// --- SigV4 -------------------------------------------------------------------------------------

const sha256hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
/** RFC 3986 encoding, as SigV4 asks: everything but unreserved characters. */
const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Checks a SigV4-signed request against the credentials the fake issued. Returns the access key
 * id it was signed with. Throws Bedrock's own errors.
 */
export function verifySigV4(req: IncomingMessage, body: Buffer, region: string, credentials: AwsCredentials[], now = Date.now()): string {
  const auth = req.headers.authorization;
  if (!auth) throw new PlatformError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m)
    throw new PlatformError(
      403,
      'IncompleteSignatureException',
      `Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' in SigV4 form (got '${auth.slice(0, 40)}…')`,
    );
  const [, keyId, date, scopeRegion, service, signedHeaders, signature] = m as unknown as string[];
  if (service !== 'bedrock') throw new PlatformError(403, 'InvalidSignatureException', `Credential should be scoped to correct service: 'bedrock'.`);
  if (scopeRegion !== region) throw new PlatformError(403, 'InvalidSignatureException', `Credential should be scoped to a valid region, not '${scopeRegion}'.`);
  const cred = credentials.find((c) => c.accessKeyId === keyId);
  if (!cred) throw new PlatformError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
  const token = req.headers['x-amz-security-token'];
  if (cred.sessionToken !== undefined && token !== cred.sessionToken)
    throw new PlatformError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!at || amzDate.slice(0, 8) !== date)
    throw new PlatformError(403, 'IncompleteSignatureException', "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  const signedAt = Date.UTC(+at[1]!, +at[2]! - 1, +at[3]!, +at[4]!, +at[5]!, +at[6]!);
  if (Math.abs(now - signedAt) > 15 * 60_000)
    throw new PlatformError(403, 'InvalidSignatureException', 'Signature expired: the request was signed more than 15 minutes from now.');
  const names = signedHeaders!.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date'))
    throw new PlatformError(403, 'InvalidSignatureException', 'SignedHeaders must include host and x-amz-date.');
  if (token !== undefined && !names.includes('x-amz-security-token'))
    throw new PlatformError(403, 'InvalidSignatureException', 'x-amz-security-token must be signed.');
  const url = new URL(req.url ?? '/', 'http://fake');
  const canonicalUri = url.pathname
    .split('/')
    .map((seg) => uriEncode(seg))
    .join('/');
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headerValue = (name: string) => {
    const v = req.headers[name];
    return (Array.isArray(v) ? v.join(',') : (v ?? '')).trim().replace(/\s+/g, ' ');
  };
  const canonical = [req.method ?? 'POST', canonicalUri, query, names.map((n) => `${n}:${headerValue(n)}\n`).join(''), signedHeaders, sha256hex(body)].join(
    '\n',
  );
  const scope = `${date}/${scopeRegion}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${cred.secretAccessKey}`, date!), scopeRegion!), service!), 'aws4_request');
  const expected = createHmac('sha256', key).update(toSign).digest('hex');
  if (expected !== signature)
    throw new PlatformError(
      403,
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    );
  return keyId!;
}

// --- bodies --------------------------------------------------------------------------------------

/** The platform's body rules; returns the body as the Messages API would see it (model and stream added back). */
export function platformBody(platform: PlatformOptions, body: Record<string, unknown>, route: PlatformRoute): Record<string, unknown> {
  const bedrock = platform.kind === 'bedrock';
  const invalid = (message: string) => (bedrock ? new PlatformError(400, 'ValidationException', message) : new PlatformError(400, 'INVALID_ARGUMENT', message));
  for (const key of bedrock ? ['model', 'stream'] : ['model']) {
    if (key in body)
      throw invalid(
        bedrock
          ? `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`
          : `model: the model is named in the URL; \`${key}\` is not a body field on Vertex AI`,
      );
  }
  const want = bedrock ? BEDROCK_ANTHROPIC_VERSION : VERTEX_ANTHROPIC_VERSION;
  if (body.anthropic_version === undefined)
    throw invalid(
      bedrock
        ? 'Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.'
        : 'anthropic_version: Field required',
    );
  if (body.anthropic_version !== want)
    throw invalid(`anthropic_version: Input should be '${want}' on ${bedrock ? 'Amazon Bedrock' : 'Vertex AI'} (got '${String(body.anthropic_version)}')`);
  const { anthropic_version: _version, ...rest } = body;
  return { ...rest, model: route.model, stream: route.stream };
}

// --- Bedrock's event stream -------------------------------------------------------------------

function stringHeader(name: string, value: string): Buffer {
  const n = Buffer.from(name, 'utf8');
  const v = Buffer.from(value, 'utf8');
  const out = Buffer.alloc(1 + n.length + 1 + 2 + v.length);
  out.writeUInt8(n.length, 0);
  n.copy(out, 1);
  out.writeUInt8(7, 1 + n.length);
  out.writeUInt16BE(v.length, 2 + n.length);
  v.copy(out, 4 + n.length);
  return out;
}

/** One event-stream message: prelude, prelude CRC, headers, payload, message CRC. */
export function eventStreamMessage(headers: Record<string, string>, payload: Buffer): Buffer {
  const h = Buffer.concat(Object.entries(headers).map(([k, v]) => stringHeader(k, v)));
  const total = 12 + h.length + payload.length + 4;
  const prelude = Buffer.alloc(8);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(h.length, 4);
  const preludeCrc = Buffer.alloc(4);
  preludeCrc.writeUInt32BE(crc32(prelude) >>> 0, 0);
  const body = Buffer.concat([prelude, preludeCrc, h, payload]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0, 0);
  return Buffer.concat([body, crc]);
}

/** Decodes event-stream messages, checking both CRCs (for the fake's own tests). */
export function decodeEventStream(data: Buffer): Array<{ headers: Record<string, string>; payload: Buffer }> {
  const out: Array<{ headers: Record<string, string>; payload: Buffer }> = [];
  let at = 0;
  while (at < data.length) {
    const total = data.readUInt32BE(at);
    const hlen = data.readUInt32BE(at + 4);
    if (crc32(data.subarray(at, at + 8)) >>> 0 !== data.readUInt32BE(at + 8)) throw new Error(`prelude CRC mismatch at ${at}`);
    if (crc32(data.subarray(at, at + total - 4)) >>> 0 !== data.readUInt32BE(at + total - 4)) throw new Error(`message CRC mismatch at ${at}`);
    const headers: Record<string, string> = {};
    let p = at + 12;
    while (p < at + 12 + hlen) {
      const nlen = data.readUInt8(p);
      const name = data.toString('utf8', p + 1, p + 1 + nlen);
      const type = data.readUInt8(p + 1 + nlen);
      if (type !== 7) throw new Error(`header ${name}: type ${type} is not a string`);
      const vlen = data.readUInt16BE(p + 2 + nlen);
      headers[name] = data.toString('utf8', p + 4 + nlen, p + 4 + nlen + vlen);
      p += 4 + nlen + vlen;
    }
    out.push({ headers, payload: data.subarray(at + 12 + hlen, at + total - 4) });
    at += total;
  }
  return out;
}

/**
 * Wraps a response so the fake's SSE writer (responses.ts) sends Bedrock's event stream instead:
 * each `event: …\ndata: {json}` becomes a `chunk` event whose payload is `{"bytes": base64(json)}`;
 * an Anthropic `error` event becomes an `exception` message (Bedrock reports a failure mid-stream as
 * an exception, e.g. `serviceUnavailableException` or `modelStreamErrorException`).
 */
export function bedrockStream(res: ServerResponse): ServerResponse {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json' });
  const started = Date.now();
  let firstByte: number | undefined;
  const tokens = { input: 0, output: 0 };
  const wrapper = {
    get destroyed() {
      return res.destroyed;
    },
    get socket() {
      return res.socket;
    },
    writeHead: () => wrapper,
    write(chunk: string, cb?: () => void) {
      let data = /^data: (.*)$/m.exec(chunk)?.[1];
      if (data === undefined) return res.write('', cb);
      const event = JSON.parse(data) as {
        type: string;
        error?: { type: string; message: string };
        message?: { usage?: { input_tokens?: number } };
        usage?: { output_tokens?: number };
      };
      firstByte ??= Date.now() - started;
      if (event.type === 'message_start') tokens.input = event.message?.usage?.input_tokens ?? 0;
      if (event.type === 'message_delta') tokens.output = event.usage?.output_tokens ?? 0;
      // Bedrock adds its own invocation metrics to the last chunk (message_stop); they do not split
      // out the cache, so a client must read the Messages usage (langchain-ai/langchain#14120 shows the field).
      if (event.type === 'message_stop')
        data = JSON.stringify({
          ...event,
          'amazon-bedrock-invocationMetrics': {
            inputTokenCount: tokens.input,
            outputTokenCount: tokens.output,
            invocationLatency: Date.now() - started,
            firstByteLatency: firstByte,
          },
        });
      // Bedrock's own exception for the failure: an overloaded model is serviceUnavailableException
      // ({"message":"Bedrock is unable to process your request."}, as Bedrock sends it mid-stream:
      // aws-samples/foundation-model-benchmarking-tool#247), a rate limit throttlingException.
      const exception =
        event.error?.type === 'overloaded_error'
          ? { type: 'serviceUnavailableException', message: 'Bedrock is unable to process your request.' }
          : event.error?.type === 'rate_limit_error'
            ? { type: 'throttlingException', message: 'Too many requests, please wait before trying again.' }
            : { type: 'modelStreamErrorException', message: event.error?.message ?? 'error' };
      const frame =
        event.type === 'error'
          ? eventStreamMessage(
              { ':exception-type': exception.type, ':content-type': 'application/json', ':message-type': 'exception' },
              Buffer.from(JSON.stringify({ message: exception.message })),
            )
          : eventStreamMessage(
              { ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' },
              Buffer.from(JSON.stringify({ bytes: Buffer.from(data, 'utf8').toString('base64') })),
            );
      return res.write(frame, cb);
    },
    end: () => res.end(),
  };
  return wrapper as unknown as ServerResponse;
}

// --- Workload Identity Federation ---------------------------------------------------------------

/** The fake token service and STS: OIDC tokens for the request token, access tokens for OIDC tokens. */
export class GoogleTokens {
  private readonly oidc = new Set<string>();
  readonly accessTokens = new Set<string>();
  /** Requests the two endpoints answered, for tests. */
  readonly exchanges: Array<{ endpoint: 'oidc' | 'sts'; ok: boolean }> = [];

  constructor(private readonly platform: Extract<PlatformOptions, { kind: 'vertex' }>) {}

  /** Handles `/oidc/token` and `/sts/v1/token`; false for any other path. */
  handle(req: IncomingMessage, rawPath: string, url: URL, body: string, res: ServerResponse): boolean {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (rawPath === '/oidc/token' && req.method === 'GET') {
      const ok = req.headers.authorization === `Bearer ${this.platform.oidcRequestToken}` && url.searchParams.get('audience') !== null;
      this.exchanges.push({ endpoint: 'oidc', ok });
      if (!ok) return (json(401, { message: 'Bad credentials' }), true);
      const jwt = `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify({ aud: url.searchParams.get('audience'), iss: 'https://token.actions.githubusercontent.com' })).toString('base64url')}.${randomBytes(24).toString('base64url')}`;
      this.oidc.add(jwt);
      return (json(200, { value: jwt }), true);
    }
    if (rawPath === '/sts/v1/token' && req.method === 'POST') {
      const form = new URLSearchParams(body);
      const problems = [
        form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange' && 'grant_type',
        form.get('subject_token_type') !== 'urn:ietf:params:oauth:token-type:jwt' && 'subject_token_type',
        form.get('requested_token_type') !== 'urn:ietf:params:oauth:token-type:access_token' && 'requested_token_type',
        form.get('audience') !== this.platform.audience && 'audience',
        !this.oidc.has(form.get('subject_token') ?? '') && 'subject_token',
      ].filter(Boolean);
      this.exchanges.push({ endpoint: 'sts', ok: problems.length === 0 });
      if (problems.length) return (json(400, { error: 'invalid_request', error_description: `Invalid value for ${problems.join(', ')}` }), true);
      const token = `ya29.fake-${randomBytes(24).toString('hex')}`;
      this.accessTokens.add(token);
      return (
        json(200, { access_token: token, issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer', expires_in: 3599 }),
        true
      );
    }
    return false;
  }

  /** The Vertex request's bearer token must be one STS issued. */
  check(req: IncomingMessage): string {
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !this.accessTokens.has(bearer))
      throw new PlatformError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
    return bearer;
  }
}
