import { z } from 'zod';
import type { Identity } from '../../domain/model-request';

/**
 * Scripted model replies: who asks is read from the request itself (domain/model-request.ts),
 * and the most specific matching entry answers.
 * `crew run --scripted` plays such a file; the offline Anthropic API in the tests
 * answers from the same kind of script.
 */

export interface EntryMatch {
  role: string;
  task?: string;
  attempt?: number;
  /** The entry applies only when the conversation's first user message contains this text. */
  contains?: string;
}

/** The most specific matching entry: `contains` counts most, then task, then attempt; ties go to the earlier entry. */
export function selectEntry<E extends EntryMatch>(entries: readonly E[], who: Identity, opening: string): E | undefined {
  let best: { entry: E; rank: number } | undefined;
  for (const entry of entries) {
    const matches =
      entry.role === who.role &&
      (entry.task === undefined || entry.task === who.task) &&
      (entry.attempt === undefined || entry.attempt === who.attempt) &&
      (entry.contains === undefined || opening.includes(entry.contains));
    const rank = (entry.contains === undefined ? 0 : 4) + (entry.task === undefined ? 0 : 2) + (entry.attempt === undefined ? 0 : 1);
    if (matches && (!best || rank > best.rank)) best = { entry, rank };
  }
  return best?.entry;
}

/** The stop reasons a scripted reply may end with (docs/scenarios.md). */
export const STOP_REASONS = ['end_turn', 'tool_use', 'max_tokens', 'refusal', 'pause_turn', 'model_context_window_exceeded'] as const;

const block = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string().min(1) }),
  z.strictObject({ type: z.literal('thinking'), thinking: z.string() }),
  z.strictObject({ type: z.literal('tool_use'), name: z.string().min(1), input: z.record(z.string(), z.unknown()) }),
]);

export const scriptFileSchema = z.strictObject({
  entries: z.array(
    z.strictObject({
      role: z.string().min(1),
      task: z.string().min(1).optional(),
      attempt: z.number().int().positive().optional(),
      contains: z.string().min(1).optional(),
      replies: z.array(
        z.strictObject({ content: z.array(block).min(1), stop_reason: z.enum(STOP_REASONS).optional(), delay_ms: z.number().nonnegative().optional() }),
      ),
    }),
  ),
});

export type ScriptFile = z.infer<typeof scriptFileSchema>;
