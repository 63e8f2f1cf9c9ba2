import { statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { COVERED, real, under } from './private-mounts';

/**
 * The folders of crew's PATH, which the setup steps extend through GITHUB_PATH (#51): crew's own commands
 * outside the sandbox (git, setup on the base commit, later steps' post actions) find their programs there too.
 * So a folder on PATH that the sandbox's user can write, or whose parent it can (and so swap the folder), would
 * let model-written code plant a program crew runs with its secrets: the sandbox sees every such folder read-only.
 */

/** Who besides root and crew's own user can write `s`, or null: a folder of another user's, a group's or every user's. */
function otherWriter(s: Stats, own: { uid: number; gid: number }, parent: boolean): string | null {
  if (s.uid !== 0 && s.uid !== own.uid) return `owned by user ${s.uid}`;
  if (s.mode & 0o020 && s.gid !== 0 && s.gid !== own.gid) return `writable by group ${s.gid}`;
  // Above the folder, a sticky bit (/tmp's) keeps every user to their own entries: the folder cannot be swapped.
  if (s.mode & 0o002 && !(parent && s.mode & 0o1000)) return 'writable by every user';
  return null;
}

const OWN = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };

/** The folders from `dir` (a real path) up to the root that someone besides root and crew's user could change, lowest first, with who. */
function exposed(dir: string, own = OWN): Array<{ dir: string; why: string }> {
  const found: Array<{ dir: string; why: string }> = [];
  for (let d = dir, parent = false; ; d = dirname(d), parent = true) {
    const s = statSync(d, { throwIfNoEntry: false });
    const who = s && otherWriter(s, own, parent);
    if (who) found.push({ dir: d, why: `${d === dir ? 'it is' : `${d} above it is`} ${who} (mode ${(s.mode & 0o7777).toString(8).padStart(4, '0')})` });
    if (d === dirname(d)) return found;
  }
}

/** Why `dir` on PATH is not safe to run programs from, or null: the folder, or one above it, that another user can write. */
export function pathFolderProblem(dir: string, own = OWN): string | null {
  const at = real(dir);
  return at ? (exposed(at, own)[0]?.why ?? null) : null;
}

/** The absolute folders on `path`. */
export function pathFolders(path = process.env.PATH ?? ''): string[] {
  return [...new Set(path.split(':').filter((d) => d.startsWith('/')))];
}

const covered = (dir: string) => COVERED.some((c) => under(dir, real(c) ?? c));

/**
 * What a sandbox mounts read-only for the folders of crew's PATH: each one under a place the sandbox covers that no
 * one else can write (kept in sight that way; one they can is left out: pathFolderWarnings); elsewhere, where the
 * folder is in sight as it is, the highest folder on the way to it that another user, the tool user among them, could
 * change (GitHub's runner images make the tool cache 0777: actions/runner-images, configure-environment.sh).
 */
export function readOnlyPathFolders(path?: string): string[] {
  const out = new Set<string>();
  for (const d of pathFolders(path)) {
    const at = real(d);
    if (!at) continue;
    if (!covered(at)) {
      const top = exposed(at).at(-1);
      if (top) out.add(top.dir);
    } else if (!exposed(at).length) out.add(at);
  }
  return [...out];
}

/** A warning for each PATH folder under a covered place that another user can write, naming it and what to do. */
export function pathFolderWarnings(path?: string): string[] {
  return pathFolders(path).flatMap((d) => {
    const at = real(d);
    const problem = at && covered(at) ? pathFolderProblem(at) : null;
    return problem
      ? [
          `The PATH folder ${d} is left out of the sandbox: ${problem}, so a command could plant a program there that crew's own commands would run. Its programs are missing in the sandbox: make it and the folders above it writable only by root or crew's user in the setup steps (create them with umask 022, or \`chmod go-w\` them).`,
        ]
      : [];
  });
}
