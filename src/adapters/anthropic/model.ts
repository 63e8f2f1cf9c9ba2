import Anthropic from '@anthropic-ai/sdk';
import { usageOf } from '../../domain/pricing';
import { Interrupted, type Clock, type ContentBlock, type Log, type Model, type ModelReply, type ModelRequest, type ThinkingBlock } from '../../ports';

const MAX_ATTEMPTS = 5;
const RETRY_STATUS = new Set([408, 409, 429, 500, 502, 503, 504, 529]);
const RETRY_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

export class ModelError extends Error {}

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

function retryable(e: unknown): boolean {
  if (e instanceof Anthropic.APIConnectionError) return true;
  if (e instanceof Anthropic.APIError) {
    if (e.status !== undefined) return RETRY_STATUS.has(e.status);
    // An `event: error` in the middle of a stream arrives without a status; the SDK does not retry it.
    return e.type !== null && RETRY_TYPES.has(e.type);
  }
  return false;
}

function retryAfterMs(e: unknown): number | undefined {
  if (!(e instanceof Anthropic.APIError) || !e.headers) return undefined;
  const v = e.headers.get('retry-after');
  const n = v === null ? NaN : Number(v);
  return Number.isFinite(n) ? n * 1000 : undefined;
}

/**
 * Caches the stable prefix: the tool definitions and the system prompt, plus the
 * conversation so far, so each turn pays full price only for what is new.
 */
function withCacheMarks(req: ModelRequest) {
  const ephemeral = { type: 'ephemeral' as const };
  const tools = req.tools.map((t, i) => (i === req.tools.length - 1 ? { ...t, cache_control: ephemeral } : t));
  const messages = req.messages.map((m, i) => {
    if (i !== req.messages.length - 1) return m;
    const content = m.content.map((b, j) => (j === m.content.length - 1 && b.type !== 'thinking' && b.type !== 'redacted_thinking' ? { ...b, cache_control: ephemeral } : b));
    return { ...m, content };
  });
  return { tools, messages, system: [{ type: 'text' as const, text: req.system, cache_control: ephemeral }] };
}

/** The Model port over the Anthropic SDK: streaming, with retries whose waits follow the time scale. */
export class AnthropicModel implements Model {
  private readonly client: Anthropic;

  constructor(
    apiKey: string,
    private readonly clock: Clock,
    private readonly log: Log,
    /** Prompt caching is always on in crew; the benchmark turns it off to play a design without it. */
    private readonly options: { promptCache?: boolean } = {},
  ) {
    // The SDK's own retries cannot be time-scaled, so crew retries itself.
    this.client = new Anthropic({ apiKey, maxRetries: 0, timeout: 10 * 60 * 1000 });
  }

  async complete(req: ModelRequest): Promise<ModelReply> {
    const { tools, messages, system } = this.options.promptCache === false ? { tools: req.tools, messages: req.messages, system: req.system } : withCacheMarks(req);
    for (let attempt = 1; ; attempt++) {
      if (req.signal?.aborted) throw new Interrupted('the model request');
      try {
        const stream = this.client.messages.stream(
          {
            model: req.model,
            max_tokens: req.maxTokens,
            system,
            ...(tools.length ? { tools: tools as Anthropic.Tool[] } : {}),
            messages: messages as Anthropic.MessageParam[],
          },
          req.signal ? { signal: req.signal } : undefined,
        );
        const msg = await stream.finalMessage();
        const content = msg.content.filter((b) => b.type === 'text' || b.type === 'tool_use' || b.type === 'thinking' || b.type === 'redacted_thinking') as Array<
          Exclude<ContentBlock, { type: 'tool_result' }> | ThinkingBlock
        >;
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
        if (!retryable(e) || attempt >= MAX_ATTEMPTS) {
          const detail = e instanceof Error ? e.message : String(e);
          throw new ModelError(
            retryable(e)
              ? `the Anthropic API kept failing after ${MAX_ATTEMPTS} attempts (last error: ${detail})`
              : `the Anthropic API refused the request: ${detail}`,
          );
        }
        const wait = retryAfterMs(e) ?? Math.min(60_000, 1000 * 2 ** (attempt - 1));
        this.log.warn(`Anthropic API error (${e instanceof Error ? e.message : String(e)}); retry ${attempt} of ${MAX_ATTEMPTS - 1} in ${Math.round(wait / 1000)}s`);
        await abortable(this.clock.sleep(wait), req.signal);
      }
    }
  }
}
