import type { Usage } from '../domain/run-state';
import type { Message, Model } from '../ports';

const MAX_BLOCK_CHARS = 2000;

function clip(text: string): string {
  return text.length > MAX_BLOCK_CHARS ? `${text.slice(0, MAX_BLOCK_CHARS)} …[${text.length - MAX_BLOCK_CHARS} characters cut]` : text;
}

/** A transcript in plain text: the summarizer reads it as data, not as a conversation to continue. */
export function transcript(messages: Message[]): string {
  return messages
    .map((m) =>
      m.content
        .map((b) => {
          if (b.type === 'text') return `${m.role}: ${clip(b.text)}`;
          if (b.type === 'tool_use') return `${m.role} called ${b.name}(${clip(JSON.stringify(b.input))})`;
          if (b.type === 'tool_result') return `tool result${b.is_error ? ' (error)' : ''}: ${clip(b.content)}`;
          return '';
        })
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n');
}

/**
 * Compaction's model half (endless8's history summary): older turns become a short
 * account that keeps what matters for the rest of the task — files changed,
 * decisions, and every failed approach, so it is not tried again.
 */
export async function summarize(model: Model, modelId: string, system: string, previous: string, messages: Message[]): Promise<{ summary: string; usage: Usage }> {
  const reply = await model.complete({
    model: modelId,
    system,
    tools: [],
    maxTokens: 2048,
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: [
              previous ? `Summary so far:\n${previous}\n` : '',
              'Turns to fold into the summary:',
              transcript(messages),
              '',
              'Write the updated summary.',
            ].join('\n'),
          },
        ],
      },
    ],
  });
  const summary = reply.content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n')
    .trim();
  return { summary: summary || previous, usage: reply.usage };
}
