import { addUsage, type Usage } from '../domain/run-state';
import type { Message, Model } from '../ports';

/** Each block of the turns to fold is kept to this many characters for the summary (head and end of the rest are dropped). */
const MAX_BLOCK_CHARS = 8000;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)} …[${text.length - max} characters cut]` : text;
}

/**
 * A transcript in plain text: the summarizer reads it as data, not as a conversation to continue.
 * Thinking blocks are left out: they belong to the conversation that produced them.
 */
export function transcript(messages: Message[], maxBlockChars = MAX_BLOCK_CHARS): string {
  const clipped = (text: string) => clip(text, maxBlockChars);
  return messages
    .map((m) =>
      m.content
        .map((b) => {
          if (b.type === 'text') return `${m.role}: ${clipped(b.text)}`;
          if (b.type === 'tool_use') return `${m.role} called ${b.name}(${clipped(JSON.stringify(b.input))})`;
          if (b.type === 'tool_result') return `tool result${b.is_error ? ' (error)' : ''}: ${clipped(b.content)}`;
          return '';
        })
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n');
}

/** The most room a summary is given when it was cut off at the configured limit. */
const MAX_SUMMARY_TOKENS = 64_000;

/**
 * Compaction's model half (endless8's history summary): older turns become a short
 * account that keeps what matters for the rest of the task — files changed,
 * decisions, and every failed approach, so it is not tried again. A summary cut off at
 * `max_tokens` (thinking counts) is asked again with twice the room; one that still does not
 * fit, or that the model refuses or leaves empty, is an error: the turns it should fold are
 * never dropped in silence.
 */
export async function summarize(
  model: Model,
  modelId: string,
  system: string,
  previous: string,
  messages: Message[],
  maxTokens = 16_000,
): Promise<{ summary: string; usage: Usage }> {
  const text = [
    previous ? `Summary so far:\n${previous}\n` : '',
    'Turns to fold into the summary:',
    transcript(messages),
    '',
    'Write the updated summary.',
  ].join('\n');
  let usage: Usage | undefined;
  for (let room = maxTokens; ; room = Math.min(MAX_SUMMARY_TOKENS, room * 2)) {
    const reply = await model.complete({ model: modelId, system, tools: [], maxTokens: room, messages: [{ role: 'user', content: [{ type: 'text', text }] }] });
    usage = usage ? addUsage(usage, reply.usage) : reply.usage;
    const summary = reply.content
      .filter((b) => b.type === 'text')
      .map((b) => (b as { text: string }).text)
      .join('\n')
      .trim();
    const cut = reply.stopReason === 'max_tokens' || reply.stopReason === 'model_context_window_exceeded';
    if (cut && room < MAX_SUMMARY_TOKENS && reply.stopReason === 'max_tokens') continue;
    if (cut)
      throw new Error(
        `compaction's summary was cut off (stop_reason ${reply.stopReason}) at ${room} output tokens; raise max_output_tokens.summarizer in .github/crew.yml, or lower context_budget so less is summarised at once`,
      );
    if (reply.stopReason === 'refusal')
      throw new Error(
        "compaction's summary was refused by the model (stop_reason refusal); the turns it should fold were kept out of the summary, so the attempt stops here",
      );
    if (!summary)
      throw new Error(
        `compaction's summary came back empty (stop_reason ${reply.stopReason ?? 'none'}); the attempt stops rather than lose the turns it should fold`,
      );
    return { summary, usage };
  }
}
