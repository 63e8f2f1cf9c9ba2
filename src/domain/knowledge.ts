/** The knowledge base's entries (endless8's knowledge types): what a run learned, for later workers. */
export const KNOWLEDGE_TYPES = ['discovery', 'lesson', 'pattern', 'constraint', 'codebase'] as const;

export interface KnowledgeEntry {
  type: (typeof KNOWLEDGE_TYPES)[number];
  content: string;
  source: string;
  confidence: number;
  created_at: string;
}
