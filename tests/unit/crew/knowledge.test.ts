import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/schema';
import { knowledgeLines, parseKnowledge } from '../../../src/state/knowledge';

const line = (i: number) =>
  JSON.stringify({ type: 'lesson', content: `lesson ${i}`, source: 's', confidence: 0.5, created_at: `2026-01-${String(i).padStart(2, '0')}T00:00:00Z` });

describe('the knowledge a worker reads', () => {
  it('is capped at knowledge_context_size entries, the newest first', () => {
    const { entries, problems } = parseKnowledge(Array.from({ length: 15 }, (_, i) => line(i + 1)).join('\n'));
    expect(problems).toEqual([]);
    const cap = parseConfig('knowledge_context_size: 3\n').knowledge_context_size;
    expect(knowledgeLines(entries, cap)).toEqual(['[lesson] lesson 15', '[lesson] lesson 14', '[lesson] lesson 13']);
    expect(knowledgeLines(entries, parseConfig(undefined).knowledge_context_size)).toHaveLength(10);
    expect(knowledgeLines(entries, parseConfig('knowledge_context_size: 0\n').knowledge_context_size)).toEqual([]);
  });

  it('skips a malformed line with a note, and the cap counts only good entries', () => {
    const { entries, problems } = parseKnowledge([line(1), '{not json', JSON.stringify({ type: 'rumour', content: 'x' }), line(2)].join('\n'));
    expect(problems.map((p) => p.replace(/:.*; skipped$/, ''))).toEqual(['.github/crew/knowledge.jsonl line 2', '.github/crew/knowledge.jsonl line 3']);
    expect(knowledgeLines(entries, 5)).toEqual(['[lesson] lesson 2', '[lesson] lesson 1']);
  });

  it('refuses a cap above 100 with a message naming the field', () => {
    expect(() => parseConfig('knowledge_context_size: 500\n')).toThrow(/knowledge_context_size/);
  });
});
