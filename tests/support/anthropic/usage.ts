/**
 * Deterministic usage rule of the fake Anthropic API. Tests and benchmarks compute expected
 * numbers with the functions exported here, so changing the rule changes their baselines.
 *
 * Canonical blocks, in prompt order: each tool definition, then each system block (a string
 * system is one text block), then each message's content blocks in order (string content is one
 * text block). A block's canonical text is `JSON.stringify` of the block (a tool: the tool
 * object) with `cache_control` removed.
 *
 *   tokens(block)  = ceil(utf8 bytes of canonical text / 4)
 *   total input    = sum of tokens over all canonical blocks
 *   output tokens  = sum over output blocks, at least 1:
 *                      text      ceil(bytes(text) / 4)
 *                      thinking  ceil(bytes(thinking) / 4)  (billed as output like the real
 *                                API's thinking; the signature is not counted)
 *                      tool_use  ceil(bytes(name + JSON.stringify(input)) / 4)
 *   except an image block: min(1600, ceil(width × height / 750)), as the API bills images
 *   (images.ts); its canonical text still carries its bytes, for the cache's identity
 *
 * Thinking blocks sent back in a request are ordinary canonical blocks: their canonical text
 * (type, thinking and signature) counts as input like any other block.
 *
 * The total input is split as the real API splits it (see prompt-cache.ts for which tokens are
 * cache reads and writes):
 *   input_tokens + cache_read_input_tokens + cache_creation_input_tokens = total input
 */
import type { CacheControl, ContentBlock, MessagesRequest } from './request';
import { imageTokens } from './images';

export type PromptSection = 'tools' | 'system' | 'user' | 'assistant';

export interface CanonicalBlock {
  /** Where the block sits; part of the cache identity so equal bytes in another role do not match. */
  section: PromptSection;
  text: string;
  tokens: number;
  /** Present when the block is a cache breakpoint. */
  cacheControl?: CacheControl;
}

export type OutputBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface Usage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
}

export const tokensForText = (text: string): number => Math.ceil(Buffer.byteLength(text, 'utf8') / 4);

function canonical(section: PromptSection, item: { cache_control?: CacheControl | null }): CanonicalBlock {
  const { cache_control: cacheControl, ...rest } = item;
  const text = JSON.stringify(rest);
  const source = (rest as { type?: unknown; source?: { data?: unknown } }).type === 'image' ? (rest as { source?: { data?: unknown } }).source : undefined;
  const tokens = typeof source?.data === 'string' ? imageTokens(source.data) : tokensForText(text);
  return { section, text, tokens, ...(cacheControl ? { cacheControl } : {}) };
}

const asBlocks = (content: string | ContentBlock[]): ContentBlock[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

export function canonicalBlocks(request: MessagesRequest): CanonicalBlock[] {
  const blocks = (request.tools ?? []).map((tool) => canonical('tools', tool));
  // An empty string system prompt is the same as none.
  if (request.system !== undefined && request.system !== '') {
    blocks.push(...asBlocks(request.system).map((block) => canonical('system', block)));
  }
  for (const message of request.messages) {
    blocks.push(...asBlocks(message.content).map((block) => canonical(message.role, block)));
  }
  return blocks;
}

export const inputTokens = (request: MessagesRequest): number => canonicalBlocks(request).reduce((sum, block) => sum + block.tokens, 0);

function billedText(block: OutputBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'thinking':
      return block.thinking;
    case 'tool_use':
      return block.name + JSON.stringify(block.input);
  }
}

export function outputTokens(content: OutputBlock[]): number {
  const total = content.reduce((sum, block) => sum + tokensForText(billedText(block)), 0);
  return Math.max(1, total);
}
