/**
 * Prompt cache modelled on the real API, over the canonical blocks of usage.ts.
 *
 * - A breakpoint is a block carrying `cache_control` (ttl '5m' by default, or '1h').
 * - An entry is keyed by the model and the exact canonical prefix: every block (its section and
 *   canonical text) from the start through the block the entry ends at. Changing one byte
 *   anywhere before a breakpoint therefore misses.
 * - Read, when a request arrives: for each breakpoint, the prefixes ending at the breakpoint and
 *   at the `lookbackBlocks - 1` block boundaries before it are tried, longest first. The longest
 *   live entry over all breakpoints is the hit: its tokens are `cache_read_input_tokens`, and its
 *   TTL restarts.
 * - Tokens from the end of the hit through the last breakpoint are `cache_creation_input_tokens`,
 *   provided that last-breakpoint prefix has at least `minTokens` tokens and is not the hit itself.
 *   They are attributed to the TTL of the breakpoint closing each stretch. Tokens after the last
 *   breakpoint (or all of them, without a hit or write) are `input_tokens`.
 * - Write, when the response starts: each breakpoint prefix of at least `minTokens` tokens becomes
 *   an entry; shorter prefixes are silently not cached. Writing on response start rather than
 *   arrival means concurrent requests sharing a prefix all miss, as on the real API.
 * - TTLs are in simulated time: the real TTL multiplied by `timeScale`.
 */
import { createHash } from 'node:crypto';
import { baseModelId } from './models';
import type { CanonicalBlock, Usage } from './usage';

export type InputSplit = Omit<Usage, 'output_tokens'>;

export interface CacheWrite {
  key: string;
  ttlMs: number;
}

export interface CacheLookup {
  split: InputSplit;
  /** To be passed to `commit` once the response starts. */
  writes: CacheWrite[];
}

export interface PromptCacheOptions {
  /** The shortest prefix cached, for every model; unset, each model's documented minimum (minCacheableTokens). */
  minTokens?: number;
  lookbackBlocks: number;
  timeScale: number;
}

/**
 * The minimum cacheable prompt length per model: a breakpoint prefix shorter than this is processed
 * without caching, with no error (Anthropic's prompt-caching docs, "Cache limitations":
 * platform.claude.com/docs/en/build-with-claude/prompt-caching; the table as LiteLLM's and orq.ai's
 * prompt-caching pages copy it, 2026). 4,096 for Claude Opus 4.5 to 4.7, Haiku 4.5 and Mythos Preview;
 * 2,048 for the Haiku 3 models and Sonnet 4.6 (orq.ai's copy; another gives 1,024: the larger is taken);
 * 1,024 for Sonnet 4.5, Sonnet 4, Opus 4, 4.1 and 4.8, Sonnet 5; 512 for Opus 5. The 5.5 family's figures
 * were not in any copy we could read: each takes the largest its family documents (Haiku 4,096, Sonnet
 * 2,048, Opus 4,096), and so does an unknown model. Never kinder than the API: the fake caches less, not more.
 */
const MIN_CACHEABLE: Array<[RegExp, number]> = [
  [/^claude-opus-5$/, 512],
  [/^claude-(sonnet-4-5|sonnet-4|opus-4|opus-4-1|opus-4-8|sonnet-5|3-7-sonnet|3-5-sonnet)(-\d{8})?$/, 1024],
  [/^claude-(sonnet-4-6|sonnet-5-5|3-5-haiku|3-haiku)(-\d{8})?$/, 2048],
];

export function minCacheableTokens(model: string): number {
  const id = baseModelId(model);
  return MIN_CACHEABLE.find(([match]) => match.test(id))?.[1] ?? 4096;
}

const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;

function prefixKeys(model: string, blocks: CanonicalBlock[]): string[] {
  const hash = createHash('sha256').update(model);
  return blocks.map((block) =>
    hash
      .update(JSON.stringify([block.section, block.text]))
      .copy()
      .digest('hex'),
  );
}

export class PromptCache {
  readonly #entries = new Map<string, { ttlMs: number; expiresAt: number }>();

  constructor(private readonly options: PromptCacheOptions) {}

  lookup(model: string, blocks: CanonicalBlock[]): CacheLookup {
    const { lookbackBlocks } = this.options;
    const minTokens = this.options.minTokens ?? minCacheableTokens(model);
    const keys = prefixKeys(model, blocks);
    let running = 0;
    const prefixTokens = blocks.map((block) => (running += block.tokens));
    const breakpoints = blocks.flatMap((block, i) => (block.cacheControl ? [i] : []));
    const tokensThrough = (i: number) => (i < 0 ? 0 : (prefixTokens[i] ?? 0));
    const keyAt = (i: number) => keys[i] ?? '';

    let hit = -1;
    for (const breakpoint of breakpoints) {
      const stop = Math.max(hit, breakpoint - lookbackBlocks);
      for (let i = breakpoint; i > stop; i--) {
        if (this.#isLive(keyAt(i))) {
          hit = i;
          break;
        }
      }
    }
    if (hit >= 0) this.#refresh(keyAt(hit));

    const cacheCreation = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
    const last = breakpoints.at(-1) ?? -1;
    if (last >= 0 && last !== hit && tokensThrough(last) >= minTokens) {
      let written = tokensThrough(hit);
      for (const breakpoint of breakpoints.filter((i) => i > hit)) {
        const ttl = blocks[breakpoint]?.cacheControl?.ttl === '1h' ? '1h' : '5m';
        cacheCreation[`ephemeral_${ttl}_input_tokens`] += tokensThrough(breakpoint) - written;
        written = tokensThrough(breakpoint);
      }
    }
    const cacheRead = tokensThrough(hit);
    const creationTotal = cacheCreation.ephemeral_5m_input_tokens + cacheCreation.ephemeral_1h_input_tokens;

    return {
      split: {
        input_tokens: tokensThrough(blocks.length - 1) - cacheRead - creationTotal,
        cache_creation_input_tokens: creationTotal,
        cache_read_input_tokens: cacheRead,
        cache_creation: cacheCreation,
      },
      writes: breakpoints.filter((i) => tokensThrough(i) >= minTokens).map((i) => ({ key: keyAt(i), ttlMs: TTL_MS[blocks[i]?.cacheControl?.ttl ?? '5m'] })),
    };
  }

  commit(writes: CacheWrite[]): void {
    for (const { key, ttlMs } of writes) {
      const existing = this.#entries.get(key);
      const expiresAt = Date.now() + ttlMs * this.options.timeScale;
      if (!existing || existing.expiresAt < expiresAt) this.#entries.set(key, { ttlMs, expiresAt });
    }
  }

  #isLive(key: string): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    if (entry.expiresAt > Date.now()) return true;
    this.#entries.delete(key);
    return false;
  }

  #refresh(key: string): void {
    const entry = this.#entries.get(key);
    if (entry) entry.expiresAt = Date.now() + entry.ttlMs * this.options.timeScale;
  }
}
