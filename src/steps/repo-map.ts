import { PathJail } from '../agents/path-jail';
import { readOnlyTools, type Eyes } from '../agents/read-only-tools';
import { filesToRead, repositoryMap } from '../domain/repo-map';
import { repositoryScripts, SCRIPT_FILES } from '../domain/repo-scripts';
import { sanitize } from '../text/sanitize';
import { taskFocus, WORKER_MAP_CHARS } from '../agents/worker';
import type { PlanTask } from '../domain/plan';
import type { StepContext } from './context';
import { MAX_OUTPUT_BYTES } from '../toolbox/command-options';

/** Source files read for a map's definitions at most; the rest are ranked by their paths alone. */
const READ_FILES = 300;
/** A larger file is not read for definitions (a generated file can be megabytes). */
const READ_BYTES = 200_000;

/** The map's size for the planning roles, in their first message (a worker's: WORKER_MAP_CHARS). */
export const PLANNING_MAP_CHARS = 12_000;

/** Turns a planning role may spend looking at the repository before it answers. */
export const PLANNING_LOOK_TURNS = 6;

/** The checkout's tracked files and the text of the source files a map reads, at the checkout's commit. */
export interface RepoView {
  files: string[];
  contents: Map<string, string>;
}

/** Reads what maps of the checkout need, once per job: the file list, and the source files `focus` picks first (through the WorkingCopy port). */
export async function readRepoView(ctx: StepContext, focus: string): Promise<RepoView> {
  const files = await ctx.repo.listFiles();
  if (!files.length) return { files, contents: new Map() };
  const started = Date.now();
  const contents = await ctx.repo.readFilesAt(await ctx.repo.head(), filesToRead(files, focus, READ_FILES), READ_BYTES);
  ctx.log.info(`repository map: ${files.length} files, ${contents.size} read for definitions in ${Date.now() - started} ms`);
  return { files, contents };
}

/** The map of `view` ranked for `focus`, sanitised like every repository text that reaches a prompt. */
export function mapFor(view: RepoView, focus: string, budgetChars: number): string {
  return sanitize(repositoryMap({ files: view.files, contents: view.contents, focus, budgetChars }), budgetChars + 200);
}

/** A planning role's eyes: the map for `focus` and the read-only tools over the checkout, with their allowance. */
export function planningEyes(ctx: StepContext, view: RepoView, focus: string): Eyes {
  return {
    map: mapFor(view, focus, PLANNING_MAP_CHARS),
    look: { tools: readOnlyTools(new PathJail(ctx.repo.dir, []), MAX_OUTPUT_BYTES), turns: PLANNING_LOOK_TURNS },
  };
}

/** The repository's scripts at the checkout's root (package.json, Makefile, pyproject, Cargo, go), sanitised, for the intake. */
export async function scriptsOf(ctx: StepContext, view: RepoView): Promise<string[]> {
  const names = [...new Set(view.files.map((f) => f.split('/')[0]!))];
  const wanted = [...SCRIPT_FILES, ...names.filter((n) => /^requirements.*\.txt$/.test(n))].filter((n) => view.files.includes(n));
  const texts = wanted.length ? await ctx.repo.readFilesAt(await ctx.repo.head(), wanted, READ_BYTES) : new Map<string, string>();
  const lines = repositoryScripts({ names, read: (n) => texts.get(n) });
  return lines.length ? sanitize(lines.join('\n'), 8000).split('\n') : [];
}

/** The worker's repository map, ranked for its task with the definitions read from the checkout (#48). */
export async function workerMap(ctx: StepContext, task: PlanTask): Promise<{ repoFiles: string[]; repoMap: string }> {
  const view = await readRepoView(ctx, taskFocus(task));
  return { repoFiles: view.files, repoMap: mapFor(view, taskFocus(task), WORKER_MAP_CHARS) };
}
