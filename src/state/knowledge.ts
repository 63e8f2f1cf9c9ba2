/**
 * The knowledge base: `.github/crew/knowledge.jsonl` on the default branch, one entry
 * a line (endless8's knowledge types). Workers read the newest entries at the start of
 * every task. A malformed line is skipped and reported, never fatal.
 */

import { KNOWLEDGE_TYPES, type KnowledgeEntry } from '../domain/knowledge';

export { KNOWLEDGE_TYPES, type KnowledgeEntry };

export const KNOWLEDGE_PATH = '.github/crew/knowledge.jsonl';

export function parseKnowledge(text: string | undefined): { entries: KnowledgeEntry[]; problems: string[] } {
  const entries: KnowledgeEntry[] = [];
  const problems: string[] = [];
  for (const [i, line] of (text ?? '').split('\n').entries()) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as Partial<KnowledgeEntry>;
      if (!KNOWLEDGE_TYPES.includes(e.type as never) || typeof e.content !== 'string' || !e.content.trim())
        throw new Error('needs a known type and a content string');
      entries.push({
        type: e.type!,
        content: e.content,
        source: String(e.source ?? ''),
        confidence: Number(e.confidence ?? 0.5),
        created_at: String(e.created_at ?? ''),
      });
    } catch (err) {
      problems.push(`${KNOWLEDGE_PATH} line ${i + 1}: ${(err as Error).message}; skipped`);
    }
  }
  return { entries, problems };
}

/** The newest `limit` entries, as one line each for a prompt. */
export function knowledgeLines(entries: KnowledgeEntry[], limit: number): string[] {
  return [...entries]
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
    .slice(0, limit)
    .map((e) => `[${e.type}] ${e.content}`);
}
