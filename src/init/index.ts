import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CONFIG_FILE, SECRET_NAME, WORKFLOW_PATH } from '../domain/doctor';
import { crewYml, proposeStack, type StackProposal } from '../domain/stack';
import { SETUP_ACTION_PATH, toolchainSetup } from '../domain/toolchain-setup';
import { setupActionYml, setupSummary } from './setup-action';
import { shippedFile } from './shipped';

/** Root files bigger than this are not read (a lockfile can be megabytes; only manifests are read). */
const READ_LIMIT = 256 * 1024;

export interface InitOptions {
  /** The clone's top folder. */
  dir: string;
  form: 'short' | 'full';
  /** `--yes`: write new files without asking (a file already there is still never replaced). */
  yes: boolean;
  /** A yes/no question at the terminal; undefined where there is none (then only --yes writes). */
  ask?: (question: string) => Promise<boolean>;
  say: (text: string) => void;
  /** `OWNER/NAME` on GitHub, from the clone's origin, for the settings link. */
  githubRepo?: string;
}

export class InitDeclined extends Error {}

async function rootFiles(dir: string) {
  const names = (await readdir(dir)).filter((n) => n !== '.git');
  const texts = new Map<string, string>();
  for (const n of names) {
    const path = join(dir, n);
    // lstat: a link the clone planted (`.nvmrc` → ~/.ssh/id_ed25519) is not read, or its first line would be shown and written into the setup action.
    const s = await lstat(path).catch(() => undefined);
    if (s?.isFile() && s.size <= READ_LIMIT) texts.set(n, await readFile(path, 'utf8'));
  }
  return { names, read: (n: string) => texts.get(n) };
}

/** The workflow `crew init` writes: the short caller file, or the full form with crew's action at its release tag. */
export async function workflowText(form: 'short' | 'full'): Promise<string> {
  if (form === 'short') return shippedFile('workflow-templates/crew.yml');
  // crew's own workflow runs the action from its checkout (`uses: ./`); a user's runs the release.
  return (await shippedFile('.github/workflows/crew.yml')).replace(/uses: \.\/$/gm, 'uses: your-org/crew@v1');
}

const indent = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

/** What is left once the files are written: the commands and the one setting, with its link. */
export function nextSteps(written: string[], githubRepo: string | undefined): string {
  const settings = `https://github.com/${githubRepo ?? 'OWNER/NAME'}/settings/actions`;
  return [
    'Left to do:',
    ...(written.length
      ? [
          `  1. Commit the files and push them to the default branch (GitHub runs crew only from there):`,
          `       git add ${written.join(' ')} && git commit -m "Set up crew" && git push`,
        ]
      : [`  1. Push the files to the default branch, if they are not there yet.`]),
    `  2. Give crew the model's key as a repository secret:`,
    `       gh secret set ${SECRET_NAME}`,
    `  3. Switch on "Allow GitHub Actions to create and approve pull requests" (Workflow permissions) at`,
    `       ${settings}`,
    `Then comment /crew run on an issue. \`npx crew doctor\` checks all of this (with GITHUB_TOKEN=$(gh auth token)).`,
  ].join('\n');
}

/**
 * `crew init`: propose the workflow and a commented .github/crew.yml from what the clone holds, show
 * them, and write them once the person says yes. A file that is already there is replaced only when
 * the person says so at the prompt; `--yes` never replaces one.
 */
export async function init(opts: InitOptions): Promise<{ written: string[]; proposal: StackProposal }> {
  const files = await rootFiles(opts.dir);
  const proposal = proposeStack(files);
  const toolchains = toolchainSetup(files);
  const setupLines = setupSummary(toolchains);
  const planned: Array<{ path: string; text: string; what: string; neverReplace?: true }> = [
    {
      path: WORKFLOW_PATH,
      text: await workflowText(opts.form),
      what: opts.form === 'short' ? "the short form: one job that calls crew's reusable workflow" : 'the full form: every job in your file',
    },
    { path: CONFIG_FILE, text: crewYml(proposal), what: 'crew’s settings, with the setup and criteria proposed below' },
    ...(setupLines.length
      ? [
          {
            path: SETUP_ACTION_PATH,
            text: setupActionYml(toolchains),
            what: "the setup steps crew's jobs run before crew, so they get the toolchains your files declare",
            neverReplace: true as const,
          },
        ]
      : []),
  ];
  opts.say(`crew init in ${opts.dir}`);
  opts.say(
    `Found: ${proposal.found.length ? proposal.found.join('; ') : 'no build or test setup crew knows (setup and criteria are left empty for you to fill in)'}.`,
  );
  opts.say(`Proposed setup: ${proposal.setup.length ? proposal.setup.join(' && ') : 'none'}`);
  opts.say(`Proposed criteria: ${proposal.criteria.length ? proposal.criteria.join('; ') : 'none'}`);
  opts.say(
    setupLines.length
      ? `Setup steps (${SETUP_ACTION_PATH}), because your files declare them and the runner's own may differ: ${setupLines.join('; ')}.`
      : `Setup steps: none proposed (no .nvmrc, .node-version, engines.node, packageManager, pnpm or yarn lockfile, .python-version, requires-python, go.mod or rust-toolchain file); docs/workflow.md shows how to write ${SETUP_ACTION_PATH} yourself.`,
  );
  opts.say('');

  const toWrite: typeof planned = [];
  const fresh: typeof planned = [];
  for (const f of planned) {
    const at = join(opts.dir, f.path);
    const link = await linkOnTheWay(opts.dir, f.path);
    if (link) {
      opts.say(
        `Not writing ${f.path}: ${link} is a symbolic link, and crew init writes no file through one (a cloned repository can plant a link that points anywhere, your shell's startup file say). Remove the link, or write ${f.path} yourself.`,
      );
      continue;
    }
    const before = existsSync(at) ? await readFile(at, 'utf8') : undefined;
    if (before === f.text) {
      opts.say(`${f.path} is already what crew init would write.`);
      continue;
    }
    if (before === undefined) {
      fresh.push(f);
      continue;
    }
    if (f.neverReplace) {
      opts.say(
        `Kept your ${f.path}: crew init never replaces the setup steps (they may start services or hold steps it cannot know). It would have written:\n${indent(f.text)}`,
      );
      continue;
    }
    opts.say(`${f.path} is already there, and differs from ${f.what}. crew init would write:\n${indent(f.text)}`);
    if (opts.yes || !opts.ask) {
      opts.say(`Kept your ${f.path}: crew init replaces a file only when you say so at its prompt (run it in a terminal without --yes).`);
      continue;
    }
    if (await opts.ask(`Replace your ${f.path} with this? [y/N]`)) toWrite.push(f);
    else opts.say(`Kept your ${f.path}.`);
  }
  if (fresh.length) {
    for (const f of fresh) opts.say(`${f.path} (${f.what}):\n${indent(f.text)}\n`);
    const names = fresh.map((f) => f.path).join(' and ');
    if (opts.yes) toWrite.push(...fresh);
    else if (!opts.ask)
      throw new InitDeclined(`crew init shows the files and asks before writing them; run it in a terminal, or pass --yes to write ${names}.`);
    else if (await opts.ask(`Write ${names}? [y/N]`)) toWrite.push(...fresh);
    else throw new InitDeclined(`Nothing written. Run crew init again when you want ${names}.`);
  }
  for (const f of toWrite) {
    await mkdir(dirname(join(opts.dir, f.path)), { recursive: true });
    // `wx` for a new file: a link planted after the check above is not followed either.
    await writeFile(join(opts.dir, f.path), f.text, { flag: fresh.includes(f) ? 'wx' : 'w' });
    opts.say(`Wrote ${f.path}.`);
  }
  const written = toWrite.map((f) => f.path);
  opts.say('');
  opts.say(nextSteps(written, opts.githubRepo));
  return { written, proposal };
}

/** The first part of `path` under `dir` (the folders, then the file) that is a symbolic link, if any. */
async function linkOnTheWay(dir: string, path: string): Promise<string | undefined> {
  const parts = path.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const part = parts.slice(0, i).join('/');
    const st = await lstat(join(dir, part)).catch(() => undefined);
    if (!st) return undefined;
    if (st.isSymbolicLink()) return part;
  }
  return undefined;
}
