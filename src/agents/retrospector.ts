import { z } from 'zod';
import type { MemoryCandidate, Proposal, RetroMode } from '../domain/retrospective';
import type { Usage } from '../domain/run-state';
import type { AgentTrajectory, Log, Model } from '../ports';
import { KNOWLEDGE_TYPES } from '../state/knowledge';
import { askForSubmission } from './submission';

const Score = z.int().min(1).max(5);

const RetroSchema = z.object({
  summary: z.string().trim().min(1),
  went_well: z.array(z.string()).default([]),
  went_wrong: z.array(z.string()).default([]),
  proposals: z
    .array(
      z.object({
        kind: z.enum(['improvement', 'skill']),
        title: z.string().trim().min(1),
        body: z.string(),
        recurrence: Score,
        impact: Score,
        generality: Score,
        feasibility: Score,
      }),
    )
    .default([]),
  memory_candidates: z
    .array(
      z.object({
        type: z.enum(KNOWLEDGE_TYPES),
        content: z.string().trim().min(1),
        confidence: z.number().min(0).max(1),
      }),
    )
    .max(5)
    .default([]),
});

const FOCUS: Record<RetroMode, string> = {
  full: 'Mode: full. Look for what to change: improvements to the process and at most a skill.',
  light: 'Mode: light. The run went well: propose only reusable skills.',
};

/** The model half of the retrospective: what went well and wrong, scored proposals, and memory candidates. */
export async function runRetrospector(
  model: Model,
  input: { modelId: string; system: string; mode: RetroMode; facts: string },
  log: Log,
  trajectory?: AgentTrajectory,
): Promise<{ summary: string; wentWell: string[]; wentWrong: string[]; proposals: Proposal[]; memory: MemoryCandidate[]; usage: Usage }> {
  const { value, usage } = await askForSubmission({
    model,
    modelId: input.modelId,
    system: input.system,
    firstMessage: [FOCUS[input.mode], '', input.facts].join('\n'),
    log,
    trajectory,
    tool: { name: 'submit_retrospective', description: 'Submit the retrospective of the run: summary, proposals and memory candidates.', schema: RetroSchema },
  });
  return {
    summary: value.summary,
    wentWell: value.went_well,
    wentWrong: value.went_wrong,
    proposals: value.proposals,
    memory: value.memory_candidates,
    usage,
  };
}
