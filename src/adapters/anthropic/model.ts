import type Anthropic from '@anthropic-ai/sdk';
import { usageOf } from '../../domain/pricing';
import {
  Interrupted,
  ModelError,
  type Clock,
  type ContentBlock,
  type Log,
  type Model,
  type ModelReply,
  type ModelRequest,
  type ThinkingBlock,
} from '../../ports';
import { providerClient, type MessagesClient, type ProviderClient } from './providers';

/** The default for `api_retry_wait_seconds`: the most time, in all, spent waiting between attempts of one request. */
export const DEFAULT_RETRY_WAIT_MS = 300_000;
const RETRY_STATUS = new Set([408, 409, 429, 500, 502, 503, 504, 529]);
const RETRY_TYPES = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'timeout_error',
  // Amazon Bedrock reports a failure inside a stream as an exception event; the SDK names it by the
  // exception's type (InvokeModelWithResponseStream, "Errors"). These pass, as a 5xx or 429 would.
  'internalServerException',
  'modelStreamErrorException',
  'modelTimeoutException',
  'serviceUnavailableException',
  'throttlingException',
]);

export { ModelError };

/**
 * The SDK's error classes, which tell a failed request's kind. The SDK is loaded with the client, on
 * the first request (providers.ts), so a job that calls no model does not parse it.
 */
type SdkErrors = Pick<typeof import('@anthropic-ai/sdk'), 'APIError' | 'APIConnectionError' | 'APIUserAbortError'>;
type ApiError = InstanceType<typeof Anthropic.APIError>;

/** Waits for `p`, but no longer than until `signal` aborts. */
function abortable(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return p;
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void p.then(done);
  });
}

/**
 * A stream that broke after the answer began: the socket reset (Node's fetch rejects the body with
 * `terminated`, which the SDK passes on) or the body ended before `message_stop` (the SDK's
 * "stream ended without producing a Message"). Neither is an APIError, and the SDK retries neither;
 * nothing of the reply is used, so asking again cannot run a tool twice.
 */
class DroppedStream extends Error {}

/**
 * A 429 that waiting cannot clear: the Claude API's monthly spend cap (`error.details.error_code`
 * `enforced_spend_limit_reached`, no `retry-after`; platform.claude.com/docs/en/api/errors and
 * "Handle errors"). Access resumes next month, so crew does not retry it; a fallback provider,
 * billed elsewhere, can take over at once.
 */
const spendCapped = (e: unknown, sdk: SdkErrors) => e instanceof sdk.APIError && e.errorCode === 'enforced_spend_limit_reached';

function retryable(e: unknown, sdk: SdkErrors): boolean {
  if (e instanceof sdk.APIConnectionError || e instanceof DroppedStream) return true;
  if (spendCapped(e, sdk)) return false;
  if (e instanceof sdk.APIError) {
    if (e.status !== undefined) return RETRY_STATUS.has(e.status);
    // An `event: error` in the middle of a stream arrives without a status; the SDK does not retry it.
    return e.type !== null && RETRY_TYPES.has(e.type);
  }
  return false;
}

/**
 * What the platform called an error: the Claude API's `error.type` (Vertex AI passes Anthropic's own
 * errors through unchanged), Amazon Bedrock's exception name (the `x-amzn-errortype` header, before
 * its `:`; inside a stream the exception event's type, which the Bedrock SDK passes on as the
 * `error.type`), or a Google API error's `status` (Vertex AI's own quota and gateway errors).
 */
function platformErrorName(e: ApiError): string | undefined {
  const amzn = e.headers?.get('x-amzn-errortype')?.split(':')[0];
  const google = (e.error as { error?: { status?: unknown } } | undefined)?.error?.status;
  return e.errorCode ?? amzn ?? e.type ?? (typeof google === 'string' ? google : undefined);
}

/**
 * The limit a failed request hit, when it is one `fallback_provider` takes over from: the service
 * was overloaded or rate-limited. The platforms say so differently:
 * - the Claude API: 529 `overloaded_error`, 429 `rate_limit_error` (platform.claude.com/docs/en/api/errors);
 *   mid-stream, an `error` event of those types with no status;
 * - Amazon Bedrock: 429 `ThrottlingException` (the account's quota), 503 `ServiceUnavailableException`
 *   (Bedrock has no 529; this is its "overloaded"), named in `x-amzn-errortype` with a `{"message"}`
 *   body (docs.aws.amazon.com/bedrock/latest/userguide/troubleshooting-api-error-codes.html);
 *   mid-stream, `throttlingException` / `serviceUnavailableException` exception events;
 * - Vertex AI: its own quota is a 429 Google error, `{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}`
 *   (cloud.google.com/vertex-ai/generative-ai/docs/provisioned-throughput/error-code-429); Claude's own
 *   overload comes through as the Claude API's 529 `overloaded_error`.
 * Any other error (a 500, a dropped stream, a 400) is not a limit: a fallback would not fix it.
 */
function limitOf(e: unknown, sdk: SdkErrors): string | undefined {
  if (!(e instanceof sdk.APIError)) return undefined;
  const name = platformErrorName(e);
  const what = [e.status, name].filter((x) => x !== undefined && x !== null).join(' ');
  const where = e.status === undefined ? ' in the stream' : '';
  if (spendCapped(e, sdk)) return `out of spend (${what}: the organisation's monthly spend limit)`;
  if (e.status === 529 || e.status === 503 || name === 'overloaded_error' || name === 'serviceUnavailableException') return `overloaded (${what}${where})`;
  if (e.status === 429 || name === 'rate_limit_error' || name === 'throttlingException') return `rate-limited (${what}${where})`;
  return undefined;
}

/**
 * `retry-after-ms` and `retry-after` (seconds or an HTTP date): when both come, the later of the
 * two, so crew never asks again before either says it may.
 */
function retryAfterMs(e: unknown, sdk: SdkErrors, now: number): number | undefined {
  if (!(e instanceof sdk.APIError) || !e.headers) return undefined;
  const waits: number[] = [];
  const ms = Number(e.headers.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) waits.push(ms);
  const v = e.headers.get('retry-after');
  if (v !== null) {
    const seconds = Number(v);
    const at = Date.parse(v);
    if (Number.isFinite(seconds) && seconds >= 0) waits.push(seconds * 1000);
    else if (Number.isFinite(at)) waits.push(Math.max(0, at - now));
  }
  return waits.length ? Math.max(...waits) : undefined;
}

/**
 * Caches the stable prefix: the tool definitions and the system prompt, plus the
 * conversation so far, so each turn pays full price only for what is new. Bedrock and Vertex AI
 * take the same `cache_control` marks in the same body (and the same limit of 4), so one marking
 * serves every provider.
 *
 * Four marks: the last tool, the system prompt, the newest message's last block, and the last block
 * of the user message before the newest reply, which is where the previous request ended. The API
 * looks for an earlier entry only about 20 blocks back from each mark (Anthropic's prompt-caching
 * docs, platform.claude.com/docs/en/build-with-claude/prompt-caching), so a turn of many parallel
 * calls (twelve reads and their results are 24 blocks) would hide the previous request's entry from
 * the newest mark alone, and the whole conversation would be written again at 1.25×.
 */
function withCacheMarks(req: ModelRequest) {
  const ephemeral = { type: 'ephemeral' as const };
  const tools = req.tools.map((t, i) => (i === req.tools.length - 1 ? { ...t, cache_control: ephemeral } : t));
  const last = req.messages.length - 1;
  const previous = req.messages.findLastIndex((m, i) => i < last - 1 && m.role === 'user' && req.messages[i + 1]?.role === 'assistant');
  const messages = req.messages.map((m, i) => {
    if (i !== last && i !== previous) return m;
    const content = m.content.map((b, j) =>
      j === m.content.length - 1 && b.type !== 'thinking' && b.type !== 'redacted_thinking' ? { ...b, cache_control: ephemeral } : b,
    );
    return { ...m, content };
  });
  return { tools, messages, system: [{ type: 'text' as const, text: req.system, cache_control: ephemeral }] };
}

/**
 * The Model port over the Anthropic SDK: streaming, with retries whose waits follow the time scale
 * and stay within a total wait budget (429, 5xx, overloaded or broken streams, connection errors).
 */
export class AnthropicModel implements Model {
  private readonly client: () => Promise<MessagesClient>;
  private readonly body: Record<string, unknown>;
  /** Who answers, for messages: "the Anthropic API", "Amazon Bedrock (us-east-1)". */
  readonly label: string;

  constructor(
    /** An Anthropic API key, or a provider's client (adapters/anthropic/providers.ts). */
    apiKeyOrProvider: string | ProviderClient,
    private readonly clock: Clock,
    private readonly log: Log,
    private readonly options: {
      /** Prompt caching is always on in crew; the benchmark turns it off to play a design without it. */
      promptCache?: boolean;
      /** The most time (before the time scale) spent waiting between attempts of one request: `api_retry_wait_seconds`. */
      retryWaitMs?: number | (() => Promise<number>);
    } = {},
  ) {
    // The SDK's own retries cannot be time-scaled, so crew retries itself (providerClient turns them off).
    const p = typeof apiKeyOrProvider === 'string' ? providerClient('anthropic', { apiKey: apiKeyOrProvider }) : apiKeyOrProvider;
    this.client = p.client;
    this.body = p.body;
    this.label = p.label;
  }

  private async retryBudget(): Promise<number> {
    const b = this.options.retryWaitMs;
    if (typeof b === 'number') return b;
    if (!b) return DEFAULT_RETRY_WAIT_MS;
    try {
      return await b();
    } catch (e) {
      // The configuration's own error is reported by the step that reads it; the request keeps the default.
      this.log.warn(
        `could not read api_retry_wait_seconds (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); using ${DEFAULT_RETRY_WAIT_MS / 1000} s`,
      );
      return DEFAULT_RETRY_WAIT_MS;
    }
  }

  async complete(req: ModelRequest): Promise<ModelReply> {
    const { tools, messages, system } =
      this.options.promptCache === false ? { tools: req.tools, messages: req.messages, system: req.system } : withCacheMarks(req);
    let waited = 0;
    let budget: number | undefined;
    for (let attempt = 1; ; attempt++) {
      if (req.signal?.aborted) throw new Interrupted('the model request');
      let connected = false;
      try {
        const [client, sdk] = await Promise.all([this.client(), import('@anthropic-ai/sdk') as Promise<SdkErrors>]);
        const stream = client.messages.stream(
          {
            model: req.model,
            max_tokens: req.maxTokens,
            system,
            ...(tools.length ? { tools: tools as Anthropic.Tool[] } : {}),
            messages: messages as Anthropic.MessageParam[],
            ...(req.effort ? { output_config: { effort: req.effort } } : {}),
            // The platform's own `anthropic_version` (Bedrock, Vertex AI); the SDK leaves a field it finds alone.
            ...this.body,
          },
          req.signal ? { signal: req.signal } : undefined,
        );
        stream.on('connect', () => (connected = true));
        const msg = await stream.finalMessage().catch((e: unknown) => {
          if (connected && !(e instanceof sdk.APIError) && !(e instanceof sdk.APIUserAbortError)) {
            throw new DroppedStream(`the response stream broke off before its end (${e instanceof Error ? e.message : String(e)})`);
          }
          throw e;
        });
        const content = msg.content.filter(
          (b) => b.type === 'text' || b.type === 'tool_use' || b.type === 'thinking' || b.type === 'redacted_thinking',
        ) as Array<Exclude<ContentBlock, { type: 'tool_result' }> | ThinkingBlock>;
        // Usage comes in the Claude API's fields on all three platforms: Bedrock's InvokeModel and
        // Vertex AI's rawPredict return Anthropic's own message body. Bedrock also adds its own
        // `amazon-bedrock-invocationMetrics` (inputTokenCount, outputTokenCount, …) to the last
        // stream chunk, which does not split out the cache; crew reads the body's fields only.
        // (Bedrock's Converse API, which crew does not use, would name them cacheReadInputTokens
        // and cacheWriteInputTokens.)
        const u = msg.usage;
        return {
          content: content as ModelReply['content'],
          stopReason: msg.stop_reason as ModelReply['stopReason'],
          usage: usageOf(req.model, {
            input: u.input_tokens,
            output: u.output_tokens,
            cacheRead: u.cache_read_input_tokens ?? 0,
            cacheWrite: u.cache_creation_input_tokens ?? 0,
          }),
        };
      } catch (e) {
        // Nothing of a reply cut short is used: the caller stops, and no tool it asked for runs.
        if (req.signal?.aborted) throw new Interrupted('the model request');
        // The Vertex SDK wraps a failed Google sign-in in a connection error; its cause says what failed.
        const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message.split('\n')[0]}` : '';
        const detail = e instanceof Error ? `${e.message}${cause}` : String(e);
        const errors: SdkErrors = await import('@anthropic-ai/sdk');
        if (!retryable(e, errors))
          throw new ModelError(`${this.label} refused the request: ${detail}`, this.label, spendCapped(e, errors) ? limitOf(e, errors) : undefined);
        budget ??= await this.retryBudget();
        const wait = retryAfterMs(e, errors, this.clock.now().getTime()) ?? Math.min(60_000, 1000 * 2 ** (attempt - 1));
        if (waited + wait > budget) {
          throw new ModelError(
            `${this.label} kept failing after ${attempt} attempts (last error: ${detail}); crew waited ${Math.round(waited / 1000)} s between them, and the next wait (${Math.round(wait / 1000)} s) would pass \`api_retry_wait_seconds\` (${Math.round(budget / 1000)} s) in .github/crew.yml`,
            this.label,
            limitOf(e, errors),
          );
        }
        waited += wait;
        this.log.warn(
          `${this.label} answered with an error (${detail}); retry ${attempt} in ${Math.round(wait / 1000)}s (${Math.round(waited / 1000)} of ${Math.round(budget / 1000)} s of retry waits used)`,
        );
        await abortable(this.clock.sleep(wait), req.signal);
      }
    }
  }
}
