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
 *
 * The wording follows the real API's messages for these cases. Signatures are deterministic
 * (see `thinkingSignature`), but validity is per instance: a fresh fake knows no signature.
 */
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

  /** Records a reply the fake is serving. */
  record(content: OutputBlock[]): void {
    const thinking = content.flatMap((block) =>
      block.type === 'thinking' ? [{ thinking: block.thinking, signature: block.signature }] : [],
    );
    for (const { thinking: text, signature } of thinking) this.#issued.set(signature, text);
    for (const block of content) {
      if (block.type === 'tool_use') this.#byToolUse.set(block.id, thinking);
    }
  }

  /** Throws a 400 `ApiError` when the request's thinking blocks break a rule above. */
  check(request: MessagesRequest): void {
    this.#checkToolLoop(request.messages);
    this.#checkSignatures(request.messages);
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

const sameThinking = (block: ContentBlock, issued: IssuedThinking) =>
  block.type === 'thinking' && block.signature === issued.signature && block.thinking === issued.thinking;
