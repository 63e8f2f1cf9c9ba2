import type { ServerResponse } from 'node:http';
import { errorBody } from './errors';
import type { MidstreamFault } from './faults';
import { sleep } from './time';
import type { OutputBlock, Usage } from './usage';

export interface AssistantMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: OutputBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: Usage;
}

export interface StreamOptions {
  /** Total simulated generation time, spread evenly over the deltas. */
  generationMs: number;
  /**
   * Stop after half the deltas: 'midstream' with an `overloaded_error` event, 'reset-midstream' by
   * destroying the socket, 'eof-midstream' by ending the response without `message_stop`.
   */
  failMidstream?: MidstreamFault;
}

const MAX_CHUNKS_PER_BLOCK = 4;

/** Splits on code points so no chunk ends inside a surrogate pair. */
function chunk(text: string): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / MAX_CHUNKS_PER_BLOCK));
  const chunks: string[] = [];
  for (let i = 0; i < chars.length; i += size) chunks.push(chars.slice(i, i + size).join(''));
  return chunks.length > 0 ? chunks : [''];
}

/**
 * At `max_tokens` the real API stops generating wherever the limit fell: the last block is cut
 * midway (a tool call's JSON stops inside a value), then content_block_stop, message_delta with
 * stop_reason max_tokens, and message_stop follow. Source: Anthropic's "Handling stop reasons"
 * (docs.claude.com/en/api/handling-stop-reasons) and the streaming guide's input_json_delta
 * (partial JSON strings that only form a whole object when the block completes).
 */
function cutLast(blocks: ReturnType<typeof blockEvents>[], last: OutputBlock | undefined): void {
  if (!last || blocks.length === 0) return;
  const full = last.type === 'tool_use' ? JSON.stringify(last.input) : last.type === 'text' ? last.text : last.thinking;
  const kept = Array.from(full)
    .slice(0, Math.max(1, Math.floor(Array.from(full).length / 2)))
    .join('');
  const index = blocks.length - 1;
  const delta = (fields: { type: string; [field: string]: unknown }) => ({ type: 'content_block_delta', index, delta: fields });
  blocks[index]!.deltas =
    last.type === 'tool_use'
      ? chunk(kept).map((partial_json) => delta({ type: 'input_json_delta', partial_json }))
      : last.type === 'text'
        ? chunk(kept).map((text) => delta({ type: 'text_delta', text }))
        : chunk(kept).map((thinking) => delta({ type: 'thinking_delta', thinking }));
}

function blockEvents(block: OutputBlock, index: number) {
  const delta = (fields: { type: string; [field: string]: unknown }) => ({
    type: 'content_block_delta',
    index,
    delta: fields,
  });
  switch (block.type) {
    case 'text':
      return {
        start: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        deltas: chunk(block.text).map((text) => delta({ type: 'text_delta', text })),
      };
    case 'thinking':
      // The text streams as thinking_delta events (none when it is empty, as at display
      // 'omitted'), then the whole signature arrives in one signature_delta before the stop.
      return {
        start: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
        deltas: [
          ...(block.thinking === '' ? [] : chunk(block.thinking)).map((thinking) => delta({ type: 'thinking_delta', thinking })),
          delta({ type: 'signature_delta', signature: block.signature }),
        ],
      };
    case 'tool_use':
      return {
        start: {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        },
        deltas: chunk(JSON.stringify(block.input)).map((partial_json) => delta({ type: 'input_json_delta', partial_json })),
      };
  }
}

/**
 * Writes the SSE event sequence of the real API: message_start, ping, per block
 * content_block_start / deltas / content_block_stop, message_delta, message_stop. Deltas are
 * text_delta, thinking_delta + signature_delta, or input_json_delta by block type.
 */
export async function streamMessage(res: ServerResponse, message: AssistantMessage, options: StreamOptions): Promise<void> {
  const send = (data: { type: string; [field: string]: unknown }) => {
    if (!res.destroyed) res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const blocks = message.content.map(blockEvents);
  if (message.stop_reason === 'max_tokens') cutLast(blocks, message.content.at(-1));
  const deltaCount = blocks.reduce((sum, block) => sum + block.deltas.length, 0);
  const perDeltaMs = options.generationMs / deltaCount;
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens } = message.usage;

  send({
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  send({ type: 'ping' });
  let sent = 0;
  for (const [index, block] of blocks.entries()) {
    send(block.start);
    for (const delta of block.deltas) {
      await sleep(perDeltaMs);
      if (res.destroyed) return;
      send(delta);
      sent += 1;
      if (options.failMidstream && sent >= Math.ceil(deltaCount / 2)) {
        if (options.failMidstream === 'reset-midstream') {
          // Let what was sent reach the client first: a reset discards data still unread.
          await new Promise<void>((resolve) => res.write('', () => resolve()));
          await new Promise((resolve) => setTimeout(resolve, 50));
          res.socket?.resetAndDestroy();
          return;
        }
        if (options.failMidstream === 'midstream') send(errorBody('overloaded_error', 'Overloaded'));
        res.end();
        return;
      }
    }
    send({ type: 'content_block_stop', index });
  }
  send({
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens: message.usage.output_tokens },
  });
  send({ type: 'message_stop' });
  res.end();
}
