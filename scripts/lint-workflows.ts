/**
 * `npm run lint-workflows`: every workflow in .github/workflows and workflow-templates, and action.yml, checked by
 * @action-validator (the validator in devDependencies). crew's CI runs it; a unit test runs the
 * same function, so a workflow that fails here fails `npm test` too.
 */
import { validateAction, validateWorkflow } from '@action-validator/core';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');

/** The files the lint covers, relative to the project root. */
export function lintedFiles(root = ROOT): string[] {
  const inFolder = (dir: string) =>
    readdirSync(join(root, dir))
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) => join(dir, f));
  return [...inFolder(join('.github', 'workflows')), ...inFolder('workflow-templates'), 'action.yml'];
}

/**
 * What the validator finds wrong with one file. Its 0.6.0 schema predates the `node24` runtime
 * GitHub added in 2025, so action.yml is checked with `node20` in its place and as it is otherwise.
 */
export function lintProblems(file: string, root = ROOT): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const result = file !== 'action.yml' ? validateWorkflow(text) : validateAction(text.replace(/^(\s*using:\s*)node24\s*$/m, '$1node20'));
  return result.errors.map((e) => `${file}: ${'path' in e ? `${e.path}: ` : ''}${e.title}${e.detail ? ` (${e.detail})` : ''}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = lintedFiles().flatMap((f) => lintProblems(f));
  for (const f of lintedFiles()) console.log(`checked ${relative(ROOT, join(ROOT, f))}`);
  if (problems.length) {
    console.error(`\n${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log('every workflow and action.yml passes the validator.');
}
