import { z } from 'zod';
import { renderHunks, type ConflictHunk } from '../domain/conflicts';
import type { Usage } from '../domain/run-state';
import type { AgentTrajectory, Log, Model } from '../ports';
import { searchTool } from './command-tools';
import { PathJail } from './path-jail';
import { answerTool } from './submission';
import { runToolLoop, type AgentTool } from './tool-loop';
import { workspaceTools } from './workspace-tools';

const ResolutionSchema = z.object({
  resolved: z.boolean(),
  explanation: z.string().trim().min(1).describe('How both intents were kept, or why they cannot both be kept.'),
});

export interface TaskIntent {
  id: string;
  title: string;
  description: string;
  summary: string;
}

export interface ResolverInput {
  repoDir: string;
  modelId: string;
  system: string;
  protectedPaths: string[];
  /** The tasks already merged whose changes touch the conflicted files, and the task being merged. */
  ours: TaskIntent[];
  theirs: TaskIntent;
  hunks: ConflictHunk[];
  maxTurns: number;
  /** `max_output_tokens.worker`: a resolver writes whole files too. */
  maxOutputTokens?: number;
  maxOutputBytes: number;
}

export interface ResolverOutput {
  resolved: boolean;
  explanation: string;
  usage: Usage;
  turns: number;
  written: string[];
}

const intent = (t: TaskIntent) => `- ${t.id} "${t.title}": ${t.description}${t.summary ? `\n  Its worker reported: ${t.summary.split('\n')[0]}` : ''}`;

/** The resolver: file tools only (no commands), then submit_resolution. */
export async function runResolver(model: Model, input: ResolverInput, log: Log, trajectory?: AgentTrajectory): Promise<ResolverOutput> {
  const jail = new PathJail(input.repoDir, input.protectedPaths);
  const written = new Set<string>();
  let out: { resolved: boolean; explanation: string } | undefined;
  const tools: AgentTool[] = [
    ...workspaceTools(jail, (p) => written.add(p)),
    searchTool(jail, input.maxOutputBytes),
    answerTool(
      {
        name: 'submit_resolution',
        description: 'Say whether the conflicts are resolved with both intents kept. Call it once, at the end.',
        schema: ResolutionSchema,
      },
      (resolution) => {
        out = resolution;
        return 'Recorded.';
      },
    ),
  ];
  const firstMessage = [
    '## The side already on the integration branch (the first side of each hunk)',
    ...input.ours.map(intent),
    '',
    '## The task being merged (the second side)',
    intent(input.theirs),
    '',
    '## Conflicted hunks',
    renderHunks(input.hunks, { ours: 'integration branch', theirs: input.theirs.id }),
    `Resolve every hunk in ${[...new Set(input.hunks.map((h) => h.file))].join(', ')} so both intents hold, then call submit_resolution.`,
  ].join('\n');
  const outcome = await runToolLoop({
    model,
    modelId: input.modelId,
    system: input.system,
    log,
    ...(trajectory ? { trajectory } : {}),
    tools,
    firstMessage,
    maxTurns: input.maxTurns,
    ...(input.maxOutputTokens ? { maxTokens: input.maxOutputTokens } : {}),
    nudge: 'When every conflicted file is written without markers, call submit_resolution.',
  });
  const result = out ?? { resolved: false, explanation: `the resolver did not submit a resolution (${outcome.stop} after ${outcome.turns} turns)` };
  return { ...result, usage: outcome.usage, turns: outcome.turns, written: [...written] };
}
