import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crewDir } from '../domain/local-runs';
import { UsageError } from './workspace';

/**
 * A repository's `setup:` commands run on the person's machine, as the person, with network,
 * before the sandbox (on the run's base commit). Whoever wrote the repository chose them, so
 * locally they run only once the person has seen them and said yes, once per content: the yes
 * is remembered in `.crew/setup-approvals.json`, keyed by a hash of the repository and the
 * exact commands, so changed commands are asked about again. `--allow-setup` says yes for scripts.
 */

export const APPROVALS_FILE = 'setup-approvals.json';

interface Approval {
  at: string;
  commands: string[];
}

export function setupKey(project: string, commands: string[]): string {
  return createHash('sha256')
    .update(JSON.stringify({ repository: project, setup: commands }))
    .digest('hex');
}

async function readApprovals(project: string): Promise<Record<string, Approval>> {
  const file = join(crewDir(project), APPROVALS_FILE);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, Approval>;
  } catch {
    // Said below: a damaged file approves nothing.
  }
  throw new UsageError(`${file} is not valid JSON: it holds the setup commands you allowed. Delete it, and crew asks again.`);
}

async function remember(project: string, commands: string[], at: Date): Promise<void> {
  const approvals = await readApprovals(project);
  approvals[setupKey(project, commands)] = { at: at.toISOString(), commands };
  const file = join(crewDir(project), APPROVALS_FILE);
  await writeFile(`${file}.tmp`, `${JSON.stringify(approvals, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
}

function shown(commands: string[]): string {
  return commands.map((c) => `    ${c.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '?').replace(/\n/g, '\n    ')}`).join('\n');
}

export interface SetupQuestion {
  project: string;
  commands: string[];
  /** Where they come from, as the person would look for them: "`setup:` in .github/crew.yml". */
  from: string;
  /** `--allow-setup` was given. */
  allowed: boolean;
  /** A y/N answer from a terminal; undefined when there is no one to ask (input is not a terminal, or closed). */
  ask?: (question: string) => Promise<string | undefined>;
  say: (text: string) => void;
  now?: Date;
}

/**
 * Resolves when the setup commands may run; a UsageError (exit 2, nothing started) when they may
 * not, with the commands and how to allow them.
 */
export async function confirmSetup(q: SetupQuestion): Promise<void> {
  if (!q.commands.length) return;
  if (q.allowed) {
    q.say(`setup: running ${q.from} as you, with network (--allow-setup):\n${shown(q.commands)}`);
    return;
  }
  const key = setupKey(q.project, q.commands);
  if ((await readApprovals(q.project))[key]) {
    q.say(`setup: running ${q.from}, as you allowed before (same commands):\n${shown(q.commands)}`);
    return;
  }
  const how = `To allow them, run crew in a terminal and answer y, or pass --allow-setup (for scripts).`;
  if (!q.ask) {
    throw new UsageError(
      `this repository's ${q.from} would run these commands on your machine, as you, with network:\n${shown(q.commands)}\n` +
        `crew runs them only once you allow them, and there is no terminal to ask (input is closed or not a terminal). ${how}\nNothing was run.`,
    );
  }
  q.say(`This repository's ${q.from} runs these commands on your machine, as you, with network, before each job:\n${shown(q.commands)}`);
  const answer = await q.ask('Run them? crew remembers a yes for these exact commands. [y/N]');
  if (answer === undefined || !/^\s*y(es)?\s*$/i.test(answer)) {
    throw new UsageError(`the setup commands were not allowed${answer === undefined ? ' (no answer: input closed)' : ''}. ${how}\nNothing was run.`);
  }
  await remember(q.project, q.commands, q.now ?? new Date());
  q.say('setup: allowed; crew will not ask again for these commands in this repository.');
}
