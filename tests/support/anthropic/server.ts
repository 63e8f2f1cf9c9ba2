import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, errorBody, invalidRequest } from './errors';
import { FaultPlan, isMidstream, type Fault } from './faults';
import { checkModelRules } from './models';
import { PromptCache } from './prompt-cache';
import { validateMessagesRequest, type MessagesRequest } from './request';
import { streamMessage, type AssistantMessage } from './responses';
import {
  identifyRequest,
  materializeReply,
  parseScript,
  selectReply,
  type Identity,
  type IncomingRequest,
  type RecordedRequest,
  type Script,
  type ScriptedReply,
} from './script';
import { ThinkingLedger } from './thinking';
import { bedrockStream, GoogleTokens, platformBody, PlatformError, routeOf, sendPlatformError, verifySigV4, type PlatformOptions } from './platforms';
import { sleep, timeScaleFromEnv } from './time';
import { canonicalBlocks, outputTokens, type Usage } from './usage';

export const DEFAULT_MODELS = [
  'claude-haiku-4-5',
  'claude-haiku-4-5-20251001',
  'claude-sonnet-4-5',
  'claude-sonnet-4-5-20250929',
  'claude-opus-4-5',
  'claude-opus-4-5-20251101',
  'claude-sonnet-4-6',
  'claude-opus-4-6',
  'claude-sonnet-5',
  'claude-opus-5',
  'claude-haiku-5-5',
  'claude-sonnet-5-5',
  'claude-opus-5-5',
];

/**
 * Bedrock base ids that cannot be called on demand, only through an inference profile (`us.`, `eu.`,
 * `global.`, …): Claude Opus 5.5 lists `inferenceTypesSupported: ["INFERENCE_PROFILE"]`
 * (list-foundation-models, dev.classmethod.jp/en/articles/bedrock-claude-opus-5-5/). Bedrock answers a
 * ValidationException worded as for earlier profile-only models (e.g. bolt.diy#1102). The other 5.5
 * tiers are not listed here only because no stored source says which way they go.
 */
const PROFILE_ONLY_ON_BEDROCK = new Set(['anthropic.claude-opus-5-5']);

/** The ids each platform serves the default models under (Bedrock: the base id and the inference profiles). */
export function platformModels(kind: 'bedrock' | 'vertex' | undefined): string[] {
  if (kind !== 'bedrock') return DEFAULT_MODELS;
  return DEFAULT_MODELS.flatMap((m) => [`anthropic.${m}`, ...['us', 'eu', 'apac', 'global'].map((g) => `${g}.anthropic.${m}`)]);
}

export interface FakeAnthropicOptions {
  /** Accepted API keys / bearer tokens; by default any non-empty one. */
  apiKeys?: string[];
  /**
   * Known model ids (default `DEFAULT_MODELS`); others get 404 unless `acceptModel` allows them.
   * Model-specific request rules (models.ts) follow the id, so the 5.5 family's stricter rules
   * apply to `claude-{opus,sonnet,haiku}-5-5` only.
   */
  models?: string[];
  acceptModel?: (model: string) => boolean;
  script?: Script;
  faults?: Fault[];
  /** Multiplies every simulated wait and cache TTL; defaults to env CREW_TIME_SCALE, else 1. */
  timeScale?: number;
  latency?: { perRequestMs?: number; perOutputTokenMs?: number };
  /** The shortest prefix cached, for every model; unset, each model's documented minimum (prompt-cache.ts). */
  minCacheTokens?: number;
  cacheLookbackBlocks?: number;
  identify?: (body: MessagesRequest) => Identity;
  /**
   * Serve as Amazon Bedrock or Vertex AI instead of the Claude API (platforms.ts): their routes,
   * authentication, body rules, errors and stream encoding; `/v1/messages` then answers 404.
   */
  platform?: PlatformOptions;
  /**
   * The thinking blocks this instance accepts back: by default only its own. Two instances that stand
   * for the Claude API and a cloud platform behind one failover share one ledger, because a thinking
   * block's signature is Anthropic's, whichever platform served it: Anthropic's extended-thinking docs
   * ("Thinking encryption") say signatures are compatible across the Claude API, Bedrock and Vertex AI.
   * That page was not among the stored references when this was written; see docs/ARCHITECTURE.md.
   */
  thinking?: ThinkingLedger;
}

export interface UsageTotals {
  requests: number;
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
}

export interface FakeAnthropic {
  /** Base URL for the SDK's `baseURL` / `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  /**
   * Every `POST /v1/messages`, appended once its outcome is decided. `body` is the parsed body as
   * sent; it passed validation unless the outcome is 400, 401 or 404. Thinking blocks sent back
   * are checked against the ones this instance served (thinking.ts).
   */
  readonly requests: RecordedRequest[];
  /** With `platform: vertex`: the token service and STS behind the credentials file. */
  readonly google?: GoogleTokens;
  /** Requests answered 400 because the script had no reply for them. */
  readonly unscripted: RecordedRequest[];
  /** Requests being answered right now (a scripted delay, say) that are not recorded yet. */
  inFlight(role: string, task?: string): number;
  setScript(script: Script): void;
  addFaults(faults: Fault[]): void;
  /** Sums the usage reported to clients, optionally for one role only. */
  usageTotals(role?: string): UsageTotals;
  close(): Promise<void>;
}

function credentialsOf(headers: IncomingHttpHeaders): { auth: IncomingRequest['auth']; credential?: string } {
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey !== '') return { auth: 'x-api-key', credential: apiKey };
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
  return bearer === undefined ? { auth: 'none' } : { auth: 'bearer', credential: bearer };
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const BEDROCK_ERRORS: Record<number, string> = {
  400: 'ValidationException',
  401: 'AccessDeniedException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

const FAULT_ERRORS = {
  '429': new ApiError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'),
  '529': new ApiError(529, 'overloaded_error', 'Overloaded'),
  '500': new ApiError(500, 'api_error', 'Internal server error'),
  // The monthly spend cap: a 429 rate_limit_error with `error.details.error_code`, and no retry-after
  // (platform.claude.com/docs/en/api/errors; "Handle errors" names EnforcedSpendLimitReachedError).
  'spend-limit': new ApiError(429, 'rate_limit_error', "Your organization has reached its usage tier's monthly spend limit. Access resumes next month.", {
    error_code: 'enforced_spend_limit_reached',
  }),
} as const;

/**
 * How Amazon Bedrock words its own throttling and capacity errors (the type is in `x-amzn-errortype`):
 * ThrottlingException "Too many requests, please wait before trying again." (AWS Knowledge Center,
 * repost.aws/knowledge-center/bedrock-throttling-error) and ServiceUnavailableException "Bedrock is
 * unable to process your request." (the message the AWS SDKs surface, e.g. LibreChat#4217; Bedrock
 * has no 529: an overloaded model is this 503, docs.aws.amazon.com/bedrock/latest/userguide/troubleshooting-api-error-codes.html).
 */
const BEDROCK_MESSAGES: Record<string, string> = {
  ThrottlingException: 'Too many requests, please wait before trying again.',
  ServiceUnavailableException: 'Bedrock is unable to process your request.',
};

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const timeScale = options.timeScale ?? timeScaleFromEnv();
  const scaled = (ms: number) => ms * timeScale;
  const models = new Set(options.models ?? platformModels(options.platform?.kind));
  const identify = options.identify ?? identifyRequest;
  const cache = new PromptCache({
    ...(options.minCacheTokens !== undefined ? { minTokens: options.minCacheTokens } : {}),
    lookbackBlocks: options.cacheLookbackBlocks ?? 20,
    timeScale,
  });
  const faults = new FaultPlan();
  faults.add(options.faults ?? []);
  const thinking = options.thinking ?? new ThinkingLedger();
  let script = parseScript(options.script ?? { entries: [] });
  const requests: RecordedRequest[] = [];
  const unscripted: RecordedRequest[] = [];
  const serving = new Set<IncomingRequest>();
  let seq = 0;
  const google = options.platform?.kind === 'vertex' ? new GoogleTokens(options.platform) : undefined;

  const record = (incoming: IncomingRequest, outcome: RecordedRequest['outcome'], extra: Partial<RecordedRequest> = {}) => {
    const recorded: RecordedRequest = { ...incoming, outcome, ...extra };
    requests.push(recorded);
    return recorded;
  };

  function checkAccess(req: IncomingMessage, credential: string | undefined, auth: IncomingRequest['auth']): void {
    if (credential === undefined) throw new ApiError(401, 'authentication_error', 'x-api-key header is required');
    if (options.apiKeys && !options.apiKeys.includes(credential)) {
      throw new ApiError(401, 'authentication_error', auth === 'bearer' ? 'invalid bearer token' : 'invalid x-api-key');
    }
    if (!req.headers['anthropic-version']) throw invalidRequest('anthropic-version: header is required');
  }

  function replyFor(incoming: IncomingRequest): ScriptedReply | undefined {
    try {
      return selectReply(script, incoming);
    } catch (error) {
      throw invalidRequest(`fake-anthropic: ${(error as Error).message}`);
    }
  }

  /** Real time, not scaled: it bounds a wait on other jobs' progress, not a platform delay. */
  const HOLD_LIMIT_MS = 5 * 60_000;

  async function holdUntilSeen(after: NonNullable<ScriptedReply['after']>, incoming: IncomingRequest): Promise<void> {
    const matches = (q: IncomingRequest) => q !== incoming && q.role === after.role && (after.task === undefined || q.task === after.task);
    const seen = () => requests.filter(matches).length + [...serving].filter(matches).length;
    const deadline = Date.now() + HOLD_LIMIT_MS;
    while (seen() < after.requests) {
      if (Date.now() > deadline) {
        throw invalidRequest(
          `fake-anthropic: a reply held until ${after.requests} ${after.role}${after.task ? ` ${after.task}` : ''} requests saw only ${seen()} within ${HOLD_LIMIT_MS / 1000} s`,
        );
      }
      await sleep(20);
    }
  }

  async function serve(res: ServerResponse, incoming: IncomingRequest, reply: ScriptedReply, fault: Fault | undefined) {
    const { body } = incoming;
    const { content, stopReason } = materializeReply(reply, incoming);
    const lookup = cache.lookup(body.model, canonicalBlocks(body));
    // A reply cut at max_tokens used all of it (docs.claude.com/en/api/handling-stop-reasons).
    const usage: Usage = { ...lookup.split, output_tokens: stopReason === 'max_tokens' ? body.max_tokens : outputTokens(content) };
    const message: AssistantMessage = {
      id: `msg_fake${String(incoming.seq).padStart(20, '0')}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    };
    serving.add(incoming);
    try {
      if (reply.after) await holdUntilSeen(reply.after, incoming);
      await sleep(scaled((options.latency?.perRequestMs ?? 0) + (reply.delay_ms ?? 0)));
    } finally {
      serving.delete(incoming);
    }
    cache.commit(lookup.writes);
    thinking.record(content, body);
    const generationMs = scaled((options.latency?.perOutputTokenMs ?? 0) * usage.output_tokens);
    const failMidstream = fault && isMidstream(fault.kind) ? fault.kind : undefined;
    record(incoming, failMidstream ?? 200, { usage, reply: content });
    if (!incoming.stream) {
      await sleep(generationMs);
      sendJson(res, 200, message);
      return;
    }
    if (options.platform?.kind === 'bedrock') {
      await streamMessage(bedrockStream(res), message, { generationMs, failMidstream });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    await streamMessage(res, message, { generationMs, failMidstream });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const requestId = `req_fake${randomBytes(12).toString('hex')}`;
    res.setHeader('request-id', requestId);
    const fail = (error: ApiError, headers?: Record<string, string>) => {
      const platform = options.platform;
      // Neither cloud documents a retry-after on its throttling answers, so the fake sends none there:
      // crew must fall back on its own backoff.
      if (platform?.kind === 'vertex' && error.status === 429) {
        // Vertex AI's own quota answers in Google's error shape, RESOURCE_EXHAUSTED, with the
        // pay-as-you-go wording (cloud.google.com/vertex-ai/generative-ai/docs/provisioned-throughput/error-code-429).
        // Claude's own answers (a 529 overloaded_error, say) come through in Anthropic's shape (below).
        return sendPlatformError(res, platform, new PlatformError(429, 'RESOURCE_EXHAUSTED', 'Resource exhausted, please try again later.'));
      }
      if (platform?.kind !== 'bedrock')
        return sendJson(res, error.status, errorBody(error.type, error.message, requestId, error.details), platform ? undefined : headers);
      // Bedrock answers in its own shape, and has no 529: an overloaded model is a 503 ServiceUnavailableException.
      const status = error.status === 529 ? 503 : error.status;
      const code = BEDROCK_ERRORS[status] ?? 'InternalServerException';
      sendPlatformError(res, platform, new PlatformError(status, code, BEDROCK_MESSAGES[code] ?? error.message));
    };

    const platform = options.platform;
    const url = new URL(req.url ?? '/', 'http://fake');
    let route: ReturnType<typeof routeOf>;
    if (platform) {
      if (google?.handle(req, url.pathname, url, raw, res)) return;
      try {
        route = routeOf(platform, req.method ?? 'GET', url.pathname);
      } catch (e) {
        if (!(e instanceof PlatformError)) throw e;
        sendPlatformError(res, platform, e);
        return;
      }
      if (!route) {
        sendPlatformError(
          res,
          platform,
          new PlatformError(404, platform.kind === 'bedrock' ? 'UnknownOperationException' : 'NOT_FOUND', `No route for ${req.method} ${url.pathname}`),
        );
        return;
      }
    } else if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
      fail(new ApiError(404, 'not_found_error', 'Not Found'));
      return;
    }
    const { auth, credential } = platform
      ? { auth: (platform.kind === 'bedrock' ? 'sigv4' : 'bearer') as IncomingRequest['auth'], credential: undefined }
      : credentialsOf(req.headers);
    let parsed = parseJson(raw);
    let incoming: IncomingRequest = {
      seq: ++seq,
      receivedAt: Date.now(),
      auth,
      body: (parsed ?? {}) as MessagesRequest,
      role: 'unknown',
      attempt: 1,
      turn: 0,
      stream: (parsed as { stream?: unknown } | undefined)?.stream === true,
    };
    const reject = (error: ApiError, headers?: Record<string, string>) => {
      // Recorded as it went out on the wire: on Bedrock a 529 is its 503.
      const status = options.platform?.kind === 'bedrock' && error.status === 529 ? 503 : error.status;
      const recorded = record(incoming, status, { error: { type: error.type, message: error.message } });
      fail(error, headers);
      return recorded;
    };

    if (platform && route) {
      // The platform's own gate first: authentication, then its body rules; its errors are its own shape.
      try {
        const principal = platform.kind === 'bedrock' ? verifySigV4(req, Buffer.from(raw, 'utf8'), platform.region, platform.credentials) : google!.check(req);
        if (parsed === undefined || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
          throw new PlatformError(
            400,
            platform.kind === 'bedrock' ? 'ValidationException' : 'INVALID_ARGUMENT',
            'Malformed input request: the body is not a JSON object.',
          );
        parsed = platformBody(platform, parsed as Record<string, unknown>, route);
        incoming = { ...incoming, body: parsed as MessagesRequest, stream: route.stream, platform: { kind: platform.kind, path: url.pathname, principal } };
      } catch (e) {
        if (!(e instanceof PlatformError)) throw e;
        record(incoming, e.status, { error: { type: e.code, message: e.message }, platform: { kind: platform.kind, path: url.pathname, principal: '' } });
        sendPlatformError(res, platform, e);
        return;
      }
    }
    try {
      if (!platform) checkAccess(req, credential, auth);
      if (parsed === undefined) throw invalidRequest('There was an error parsing the body as JSON');
      const body = validateMessagesRequest(parsed);
      if (!models.has(body.model) && !options.acceptModel?.(body.model)) {
        if (platform?.kind === 'bedrock') throw new ApiError(400, 'invalid_request_error', 'The provided model identifier is invalid.');
        throw new ApiError(404, 'not_found_error', `model: ${body.model}`);
      }
      if (platform?.kind === 'bedrock' && PROFILE_ONLY_ON_BEDROCK.has(body.model))
        throw new ApiError(
          400,
          'invalid_request_error',
          `Invocation of model ID ${body.model} with on-demand throughput isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.`,
        );
      checkModelRules(body);
      thinking.check(body);
      incoming = { ...incoming, ...identify(body) };
      const reply = replyFor(incoming);
      if (!reply) {
        const { role, task, attempt, turn } = incoming;
        const who = `role=${role} task=${task ?? '(none)'} attempt=${attempt} turn=${turn}`;
        unscripted.push(reject(invalidRequest(`fake-anthropic: no scripted reply for ${who}`)));
        return;
      }
      const fault = faults.take(incoming, incoming.stream);
      if (fault?.kind === 'drop') {
        record(incoming, 'drop');
        req.socket.destroy();
      } else if (fault && !isMidstream(fault.kind)) {
        const headers: Record<string, string> = {};
        if ((fault.kind === '429' || fault.kind === '529') && fault.retryAfterSeconds !== undefined) {
          headers['retry-after'] = String(fault.retryAfterSeconds);
          // The SDK prefers `retry-after-ms`; sending the scaled wait keeps scaled runs fast.
          if (timeScale !== 1) headers['retry-after-ms'] = String(scaled(fault.retryAfterSeconds * 1000));
        }
        if ((fault.kind === '429' || fault.kind === '529') && fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
        reject(FAULT_ERRORS[fault.kind as keyof typeof FAULT_ERRORS], fault.kind === 'spend-limit' ? {} : headers);
      } else {
        await serve(res, incoming, reply, fault);
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      reject(error);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(res, 500, errorBody('api_error', `fake-anthropic crashed: ${String(error)}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    ...(google ? { google } : {}),
    requests,
    unscripted,
    inFlight: (role, task) => [...serving].filter((q) => q.role === role && (task === undefined || q.task === task)).length,
    setScript(next) {
      script = parseScript(next);
    },
    addFaults(more) {
      faults.add(more);
    },
    usageTotals(role) {
      const totals: UsageTotals = {
        requests: 0,
        input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
        output_tokens: 0,
      };
      for (const { usage, role: requestRole } of requests) {
        if (!usage || (role !== undefined && requestRole !== role)) continue;
        totals.requests += 1;
        totals.input_tokens += usage.input_tokens;
        totals.cache_read_input_tokens += usage.cache_read_input_tokens;
        totals.cache_creation_input_tokens += usage.cache_creation_input_tokens;
        totals.output_tokens += usage.output_tokens;
      }
      return totals;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
