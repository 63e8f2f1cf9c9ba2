import { instructionPaths, instructionsSection } from '../domain/agent-instructions';
import { sanitize } from '../text/sanitize';
import type { StepContext } from './context';

/**
 * A template with the repository's agent instructions appended: the root files, and for
 * `planned` paths the nearest CLAUDE.md or AGENTS.md above each, as they are at `base` (the
 * run's base commit: a task branch holds a model's edits to them). Sanitised like the issue.
 * It goes in the system prompt, the prefix prompt caching keeps.
 */
export async function promptWithInstructions(ctx: StepContext, template: string, base: string, planned: string[] = []): Promise<string> {
  const system = await ctx.template(template);
  const read = new Map<string, string | undefined>();
  const at = async (path: string) => {
    if (!read.has(path)) read.set(path, await readAtBase(ctx, base, path));
    return read.get(path);
  };
  const chosen = await instructionPaths(planned, async (p) => (await at(p)) !== undefined);
  const files = chosen.map((path) => ({ path, text: sanitize(read.get(path) ?? '', 50_000) }));
  const section = instructionsSection(files);
  if (chosen.length) ctx.log.info(`agent instructions for ${template}: ${chosen.join(', ')}`);
  return section ? `${system.trimEnd()}\n\n${section}\n` : system;
}

async function readAtBase(ctx: StepContext, base: string, path: string): Promise<string | undefined> {
  try {
    return await ctx.repo.readFileAt(base, path);
  } catch (e) {
    // The base commit may not be in a shallow checkout yet.
    ctx.log.info(`fetching the base commit to read ${path} (${e instanceof Error ? e.message : String(e)})`);
    await ctx.remote.fetchCommit(base);
    return ctx.repo.readFileAt(base, path);
  }
}
