import { searchTool } from './command-tools';
import type { PathJail } from './path-jail';
import type { AgentTool } from './tool-loop';
import { workspaceTools } from './workspace-tools';

/** The names of the tools that only look: what a role that must not change the checkout may call. */
export const READ_ONLY_TOOLS = ['list_files', 'read_file', 'search'] as const;

/**
 * The one place a read-only role (the planning agents, the critic, a reviewer) gets its tools from:
 * the workers' own list, read and search tools, so their improvements reach every role that looks.
 */
export function readOnlyTools(jail: PathJail, maxOutputBytes: number): AgentTool[] {
  return fileTools(jail, maxOutputBytes, false);
}

/** The file and search tools; with `write`, a worker's: write_file and edit_file too, after read_file. */
export function fileTools(jail: PathJail, maxOutputBytes: number, write: boolean): AgentTool[] {
  const names: readonly string[] = READ_ONLY_TOOLS;
  return [...workspaceTools(jail, () => undefined), searchTool(jail, maxOutputBytes)].filter((t) => write || names.includes(t.spec.name));
}

/** What a planning role sees of the repository: the ranked map, and the read-only tools with their turn allowance. */
export interface Eyes {
  /** The repository map (domain/repo-map.ts), rendered for this request. */
  map: string;
  look?: { tools: AgentTool[]; turns: number };
}

/** The map and, with tools, the allowance as the model reads it, for the end of a first message. */
export function eyesSection(eyes: Eyes | undefined, answer: string): string[] {
  if (!eyes) return [];
  return [
    '',
    eyes.map,
    ...(eyes.look
      ? [
          '',
          `Before you answer you may look at the repository with ${READ_ONLY_TOOLS.join(', ')}, for at most ${eyes.look.turns} turns (several calls in one turn count once); then call ${answer}. Answer at once when the map and the request already tell you enough.`,
        ]
      : []),
  ];
}
