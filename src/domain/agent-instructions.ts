/**
 * The repository's own instructions for agents (CLAUDE.md, AGENTS.md, GitHub Copilot's
 * instructions file), read from the run's base commit and added to the planner's, the
 * workers' and the critic's system prompts (#19 §5). Which files, in which order, and how
 * much of them: pure, so the reading stays in steps/.
 */

/** Files an agent convention may live in, in any folder. */
export const INSTRUCTION_NAMES = ['CLAUDE.md', 'AGENTS.md'] as const;
/** Only at the root: GitHub Copilot's repository instructions. */
export const ROOT_ONLY = ['.github/copilot-instructions.md'] as const;

/** All the files together get at most this many characters; each file at most half of it. */
export const INSTRUCTIONS_CHARS = 16_000;

/** The root files, in the order they are shown. */
export function rootInstructionPaths(): string[] {
  return [...INSTRUCTION_NAMES, ...ROOT_ONLY];
}

/**
 * For each path a task plans to touch, the folders above it, nearest first and the root left
 * out (the root files are always read). A planned path may be a folder or a glob: only the part
 * before the first wildcard counts.
 */
export function foldersAbove(planned: string): string[] {
  const literal = planned.split(/[*?[{]/)[0]!.replace(/\\/g, '/');
  const parts = literal.split('/').filter((p) => p && p !== '.');
  // A path ending in "/" (or a glob's folder) names a folder; otherwise the last part is a file.
  const dirs = literal.endsWith('/') || planned !== literal ? parts : parts.slice(0, -1);
  const out: string[] = [];
  for (let i = dirs.length; i > 0; i--) out.push(dirs.slice(0, i).join('/'));
  return out;
}

/**
 * The instruction files to read for a task: the root ones, then for each planned path the
 * nearest folder above it that holds one (both names, when both are there). `exists` answers
 * for a path at the base commit.
 */
export async function instructionPaths(planned: string[], exists: (path: string) => Promise<boolean>): Promise<string[]> {
  const chosen: string[] = [];
  for (const p of rootInstructionPaths()) if (await exists(p)) chosen.push(p);
  const seenFolders = new Set<string>();
  for (const path of planned) {
    for (const folder of foldersAbove(path)) {
      if (seenFolders.has(folder)) break;
      seenFolders.add(folder);
      const here: string[] = [];
      for (const name of INSTRUCTION_NAMES) if (await exists(`${folder}/${name}`)) here.push(`${folder}/${name}`);
      if (here.length) {
        chosen.push(...here.filter((h) => !chosen.includes(h)));
        break;
      }
    }
  }
  return chosen;
}

/**
 * The system prompt's section: each file under its path, already sanitised by the caller, cut
 * to the budget with a note that says so, so the agent knows it did not see everything.
 */
export function instructionsSection(files: Array<{ path: string; text: string }>, maxChars = INSTRUCTIONS_CHARS): string {
  const kept = files.filter((f) => f.text.trim());
  if (!kept.length) return '';
  const perFile = Math.floor(maxChars / 2);
  let left = maxChars;
  const parts = [
    "## The repository's instructions for agents",
    'The maintainers keep these files for coding agents. Follow them where they do not conflict with your task or with crew’s rules above.',
  ];
  for (const f of kept) {
    const room = Math.min(perFile, left);
    if (room <= 0) {
      parts.push(`\n### ${f.path}\n[left out: the instructions above used the ${maxChars.toLocaleString('en-US')} characters crew gives them]`);
      continue;
    }
    const text =
      f.text.length > room
        ? `${f.text.slice(0, room)}\n[cut: ${f.path} has ${f.text.length.toLocaleString('en-US')} characters; the first ${room.toLocaleString('en-US')} are shown]`
        : f.text;
    left -= Math.min(f.text.length, room);
    parts.push(`\n### ${f.path}\n${text}`);
  }
  return parts.join('\n');
}
