/**
 * Thinking blocks sent back to the fake, checked against what this server instance produced.
 *
 * Each fake records every thinking block it served (its signature and text) and, for each
 * tool_use id it served, the thinking blocks of the reply that carried it. A request is then
 * checked in this order:
 *
 * 1. Tool loop: when the last message is a user message carrying tool_result blocks, the
 *    assistant message before it must hold, in their original order and unmodified, exactly the
 *    thinking blocks the fake produced with its tool_use blocks. Tool_use ids the fake did not
 *    produce, or produced without thinking, require nothing.
 *    - no thinking block there at all:
 *        messages.<i>.content.0.type: Expected `thinking` or `redacted_thinking`, but found
 *        `<type>`. When `thinking` is enabled, a final `assistant` message must start with a
 *        thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). ...
 *    - a block dropped, added, reordered, or with other text or signature:
 *        messages.<i>.content.<j>: `thinking` or `redacted_thinking` blocks in the latest
 *        assistant message cannot be modified. These blocks must remain as they were in the
 *        original response.
 * 2. Signatures: every `thinking` block in an assistant message must carry a signature this
 *    instance issued, with the text it was issued for; otherwise
 *        messages.<i>.content.<j>: Invalid `signature` in `thinking` block
 * 3. Prefix (preserved thinking): a block is bound to what came before it when it was produced:
 *    the top-level `system`, `tools`, and every message (and earlier block of its own message)
 *    before it. When any of that differs on replay, the block and every later one are invalid:
 *        messages.<i>.content.<j>: Invalid `signature` in `thinking` block. The block is bound to
 *        a different conversation. Remove the block, or set
 *        `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".
 *    unless the request sets that to "drop_block", in which case the API drops them instead.
 *    The API enforces this by default for accounts created on or after 2026-08-31, so the fake
 *    always does (platform.claude.com/docs/en/build-with-claude/preserved-thinking, and its
 *    "Prefix checks" and "Fix a thinking block bound to a different conversation" pages; Amazon
 *    Bedrock documents the same rule). `cache_control` markers are not content: crew moves its
 *    cache breakpoint to the newest message every turn, as the prompt-caching docs recommend, and
 *    that cannot count as a change, or no tool loop with caching could keep its thinking (an
 *    assumption: the pages do not list what counts as a change to a marker).
 *
 * The wording follows the real API's messages for these cases. Signatures are deterministic
 * (see `thinkingSignature`), but validity is per instance: a fresh fake knows no signature.
 */
import { createHash } from 'node:crypto';
import { invalidRequest } from './errors';
import { blocksOf, type ContentBlock, type MessageParam, type MessagesRequest } from './request';
import type { OutputBlock } from './usage';

interface IssuedThinking {
  thinking: string;
  signature: string;
}

const THINKING_TYPES = new Set(['thinking', 'redacted_thinking']);

export class ThinkingLedger {
  /** Signature -> the thinking text it was issued for. */
  readonly #issued = new Map<string, string>();
  /** tool_use id -> the thinking blocks of the reply that carried it. */
  readonly #byToolUse = new Map<string, IssuedThinking[]>();
  /**
   * Signature -> digests of the prefixes the block was produced after. A set: signatures derive
   * from who asked and the text, so two conversations (two issues' critics) can share one.
   */
  readonly #prefixOf = new Map<string, Set<string>>();

  /** Records a reply the fake is serving, to the request it answers. */
  record(content: OutputBlock[], request: MessagesRequest): void {
    const thinking = content.flatMap((block) => (block.type === 'thinking' ? [{ thinking: block.thinking, signature: block.signature }] : []));
    for (const { thinking: text, signature } of thinking) this.#issued.set(signature, text);
    content.forEach((block, j) => {
      if (block.type !== 'thinking') return;
      const digests = this.#prefixOf.get(block.signature) ?? new Set<string>();
      digests.add(prefixDigest(request, request.messages.length, content.slice(0, j) as ContentBlock[]));
      this.#prefixOf.set(block.signature, digests);
    });
    for (const block of content) {
      if (block.type === 'tool_use') this.#byToolUse.set(block.id, thinking);
    }
  }

  /** Throws a 400 `ApiError` when the request's thinking blocks break a rule above. */
  check(request: MessagesRequest): void {
    this.#checkToolLoop(request.messages);
    this.#checkSignatures(request.messages);
    this.#checkPrefixes(request);
  }

  #checkPrefixes(request: MessagesRequest): void {
    const binding = (request.thinking as { block_binding?: { prefix_mismatch_behavior?: unknown } } | undefined)?.block_binding;
    if (binding?.prefix_mismatch_behavior === 'drop_block') return;
    request.messages.forEach((message, i) => {
      if (message.role !== 'assistant') return;
      const blocks = blocksOf(message);
      blocks.forEach((block, j) => {
        if (block.type !== 'thinking' || typeof block.signature !== 'string') return;
        const bound = this.#prefixOf.get(block.signature);
        if (bound === undefined || bound.has(prefixDigest(request, i, blocks.slice(0, j)))) return;
        throw invalidRequest(
          `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. ` +
            'Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".',
        );
      });
    });
  }

  #checkToolLoop(messages: MessageParam[]): void {
    const last = messages.length - 1;
    const final = messages[last];
    if (final?.role !== 'user' || !blocksOf(final).some((block) => block.type === 'tool_result')) return;
    const index = last - 1;
    const assistant = messages[index];
    if (assistant?.role !== 'assistant') return;
    const blocks = blocksOf(assistant);

    const expected = new Map<string, IssuedThinking>();
    for (const block of blocks) {
      if (block.type !== 'tool_use') continue;
      for (const issued of this.#byToolUse.get(String(block.id)) ?? []) expected.set(issued.signature, issued);
    }
    if (expected.size === 0) return;

    const actual = blocks.flatMap((block, j) => (THINKING_TYPES.has(block.type) ? [{ block, j }] : []));
    if (actual.length === 0) {
      throw invalidRequest(
        `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found ` +
          `\`${blocks[0]?.type ?? 'text'}\`. When \`thinking\` is enabled, a final \`assistant\` message must start ` +
          'with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We ' +
          'recommend you include thinking blocks from previous turns. To avoid this requirement, disable ' +
          '`thinking`. Please consult our documentation at ' +
          'https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
      );
    }

    const wanted = [...expected.values()];
    const firstToolUse = blocks.findIndex((block) => block.type === 'tool_use');
    const count = Math.max(wanted.length, actual.length);
    for (let k = 0; k < count; k++) {
      const want = wanted[k];
      const got = actual[k];
      if (want && got && sameThinking(got.block, want)) continue;
      throw invalidRequest(
        `messages.${index}.content.${got?.j ?? firstToolUse}: \`thinking\` or \`redacted_thinking\` blocks in the ` +
          'latest assistant message cannot be modified. These blocks must remain as they were in the original response.',
      );
    }
  }

  #checkSignatures(messages: MessageParam[]): void {
    messages.forEach((message, i) => {
      if (message.role !== 'assistant') return;
      blocksOf(message).forEach((block, j) => {
        if (block.type !== 'thinking') return;
        const signature = block.signature;
        if (typeof signature !== 'string' || this.#issued.get(signature) !== block.thinking) {
          throw invalidRequest(`messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
        }
      });
    });
  }
}

/** What a block is bound to: system, tools, the messages before it and its own message's earlier blocks, without cache markers. */
function prefixDigest(request: MessagesRequest, messageCount: number, earlierBlocks: ContentBlock[]): string {
  const system = typeof request.system === 'string' ? [{ type: 'text', text: request.system }] : (request.system ?? []);
  const prefix = [
    system,
    request.tools ?? null,
    request.messages
      .slice(0, messageCount)
      .map((m) => ({ role: m.role, content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : blocksOf(m) })),
    earlierBlocks,
  ];
  return createHash('sha256').update(stableJson(prefix)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([k, v]) => k !== 'cache_control' && v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const sameThinking = (block: ContentBlock, issued: IssuedThinking) =>
  block.type === 'thinking' && block.signature === issued.signature && block.thinking === issued.thinking;
