import type { FileDiff } from '../domain/diff';
import { isRunnerConfigFile, isTestFile, setupFilesNamedIn, type TamperContext } from '../domain/tamper';
import type { StepContext } from './context';

/** What the tampering checks need beyond the diff: each changed package.json whole, and the setup files the head's runner configuration loads. */
export async function tamperContext(ctx: Pick<StepContext, 'repo'>, baseSha: string, headSha: string, files: FileDiff[]): Promise<TamperContext> {
  const packageJson: NonNullable<TamperContext['packageJson']> = {};
  for (const f of files.filter((x) => /(^|\/)package\.json$/.test(x.path))) {
    packageJson[f.path] = { before: await ctx.repo.readFileAt(baseSha, f.path), after: await ctx.repo.readFileAt(headSha, f.path) };
  }
  const setupFiles: string[] = [];
  for (const path of (await ctx.repo.listFiles()).filter(isRunnerConfigFile)) {
    const text = await ctx.repo.readFileAt(headSha, path);
    if (text !== undefined) setupFiles.push(...setupFilesNamedIn(path, text));
  }
  const testFiles: NonNullable<TamperContext['testFiles']> = {};
  const testFilesBefore: NonNullable<TamperContext['testFilesBefore']> = {};
  for (const f of files.filter((x) => x.status !== 'deleted' && !x.binary && isTestFile(x.path))) {
    const text = await ctx.repo.readFileAt(headSha, f.path);
    if (text !== undefined) testFiles[f.path] = text;
    const before = f.status === 'modified' ? await ctx.repo.readFileAt(baseSha, f.path) : undefined;
    if (before !== undefined) testFilesBefore[f.path] = before;
  }
  return { packageJson, setupFiles, testFiles, testFilesBefore };
}
