import { accessSync, constants, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inOwnTemp } from './own-temp';
import { exposed } from './path-folders';
import { real, under } from './private-mounts';

/**
 * crew's own programs (git, tar and find; python3 for the syntax check; through ownEnv, the sandbox's unshare, sudo,
 * setpriv, mount, chown), which run outside the sandbox, or as root before it drops to the tool user, with crew's
 * secrets in reach. They come from crew's PATH, but only from folders model-written code cannot write: none inside
 * the checkout (GITHUB_WORKSPACE) or crew's temporary folders (RUNNER_TEMP, own-temp.ts's), which the sandbox's
 * commands write by design, none that a user besides root and crew's own could change (path-folders.ts), and no
 * relative one (the current folder is the checkout). So a `git` planted in a `node_modules/.bin` on PATH never
 * runs as crew. Run by absolute path; what they start in turn gets only those folders as PATH (ownPath).
 * Looked up once per PATH and places: a job's do not change.
 */
export type OwnProgram = 'git' | 'python3' | 'tar' | 'find';

interface Found {
  folders: string[];
  left: Array<{ dir: string; why: string }>;
  programs: Map<OwnProgram, string | undefined>;
}

const found = new Map<string, Found>();

/** Where model-written code writes, from crew's environment: the checkout and crew's temporary folders. */
function modelPlaces(env: NodeJS.ProcessEnv): string[] {
  return [env.GITHUB_WORKSPACE, env.RUNNER_TEMP].filter((p): p is string => !!p).flatMap((p) => [p, real(p) ?? p]);
}

/** Why crew does not take its programs from PATH folder `dir`, or null. */
function distrust(dir: string, places: string[]): string | null {
  if (!dir.startsWith('/')) return 'it is relative (the current folder, where crew works, is the checkout)';
  const at = real(dir);
  if (!at) return 'it does not exist';
  const place = places.find((p) => under(dir, p) || under(at, p));
  if (place) return `it is inside ${place}, which the sandbox's commands write`;
  if (inOwnTemp(dir) || inOwnTemp(at)) return "it is inside crew's own temporary folder, which the sandbox's commands write";
  return exposed(at)[0]?.why ?? null;
}

function lookUp(env: NodeJS.ProcessEnv): Found {
  const path = env.PATH ?? '';
  const places = modelPlaces(env);
  const key = `${path}\0${places.join('\0')}`;
  const known = found.get(key);
  if (known) return known;
  const folders: string[] = [];
  const left: Array<{ dir: string; why: string }> = [];
  for (const dir of new Set(path.split(':'))) {
    const why = distrust(dir, places);
    if (why) left.push({ dir: dir || '(empty: the current folder)', why });
    else folders.push(dir);
  }
  const result: Found = { folders, left, programs: new Map() };
  found.set(key, result);
  return result;
}

/** Whether `file` is a program crew may run: an executable file whose real folder is trusted as a PATH folder is. */
function runnable(file: string, places: string[]): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
  } catch {
    return false;
  }
  const at = real(file);
  return !!at && !distrust(dirname(at), places);
}

/** The absolute path of crew's own `name`, from the first PATH folder crew trusts that holds it; undefined when none does. */
export function ownProgram(name: OwnProgram, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const f = lookUp(env);
  if (!f.programs.has(name)) {
    const places = modelPlaces(env);
    f.programs.set(
      name,
      f.folders.map((d) => join(d, name)).find((file) => runnable(file, places)),
    );
  }
  return f.programs.get(name);
}

/** crew's own `name`, or an error that says where crew looked, which folders it left out and why, and what to do. */
export function requiredProgram(name: OwnProgram, env: NodeJS.ProcessEnv = process.env): string {
  const program = ownProgram(name, env);
  if (program) return program;
  const f = lookUp(env);
  const left = f.left.filter((l) => l.dir.startsWith('/')).map((l) => `${l.dir} (${l.why})`);
  throw new Error(
    `crew found no ${name} to run as itself in the folders of PATH it trusts (${f.folders.join(', ') || 'none'})${left.length ? `; it does not take programs from ${left.join(', ')}` : ''}. Install ${name} in a folder only root or crew's user can write, outside the checkout (/usr/bin, say).`,
  );
}

/** crew's own git (requiredProgram). */
export const ownGit = (env: NodeJS.ProcessEnv = process.env) => requiredProgram('git', env);

/** The PATH crew's own programs run with: only the folders crew takes its programs from. */
export function ownPath(env: NodeJS.ProcessEnv = process.env): string {
  // Never empty: an empty PATH is the current folder to execvp.
  return lookUp(env).folders.join(':') || '/usr/bin';
}

/** crew's environment with ownPath as PATH: for every program crew itself starts by name (the sandbox's unshare, sudo, chown, cp). */
export function ownEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PATH: ownPath(env) };
}
