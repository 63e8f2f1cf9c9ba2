import { lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join, sep } from 'node:path';
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

/**
 * The folders from `dir` (a real path) up to the root that someone besides root and crew's user could change, lowest
 * first, with who. `above`: `dir` is the nearest existing folder above the one on PATH, which anyone who can write
 * `dir` could make.
 */
export function exposed(dir: string, above = false, own = OWN): Array<{ dir: string; why: string }> {
  const found: Array<{ dir: string; why: string }> = [];
  for (let d = dir, parent = above; ; d = dirname(d), parent = true) {
    const s = statSync(d, { throwIfNoEntry: false });
    const who = s && otherWriter(s, own, parent);
    if (who)
      found.push({ dir: d, why: `${d === dir && !above ? 'it is' : `${d} above it is`} ${who} (mode ${(s.mode & 0o7777).toString(8).padStart(4, '0')})` });
    if (d === dirname(d)) return found;
  }
}

/** Whether `p` is a symbolic link; a path crew's user cannot reach (a home closed to it) is none it follows either. */
function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Each absolute folder on `path`, with the real path of it or, when it does not exist (yet), of the nearest folder
 * above it; and the real folders that hold a link on the way to it (`links`), where whoever can write could point it elsewhere.
 */
function pathFolders(path = process.env.PATH ?? ''): Array<{ dir: string; at: string; missing: boolean; links: string[] }> {
  return [...new Set(path.split(':').filter((d) => d.startsWith('/')))].flatMap((dir) => {
    const links: string[] = [];
    for (let p = dir; p !== dirname(p); p = dirname(p)) {
      const holder = isLink(p) && real(dirname(p));
      if (holder) links.push(holder);
    }
    for (let p = dir; ; p = dirname(p)) {
      const at = real(p);
      if (at) return [{ dir, at, missing: p !== dir, links }];
      if (p === dirname(p)) return [];
    }
  });
}

const covered = (dir: string) => COVERED.some((c) => under(dir, real(c) ?? c));

/**
 * What a sandbox mounts read-only for the folders of crew's PATH: each one under a place the sandbox covers that no
 * one else can write (kept in sight that way; one they can is left out: pathFolderWarnings); where the folder is in
 * sight as it is (outside the covered places, or inside a folder `kept` in sight there), the highest folder on the
 * way to it (or to where it would be made) that another user, the tool user among them, could change or rename
 * (readOnlyTarget; GitHub's runner images make the tool cache 0777: actions/runner-images, configure-environment.sh).
 */
export function readOnlyPathFolders(kept: readonly string[], path?: string): string[] {
  const out = new Set<string>();
  const inSight = (dir: string) => !covered(dir) || kept.some((k) => under(dir, k));
  for (const { at, missing, links } of pathFolders(path)) {
    const open = exposed(at, missing);
    const target = inSight(at) && open.length ? readOnlyTarget(at, new Set(open.map((o) => o.dir))) : undefined;
    if (target) out.add(target);
    else if (covered(at) && !missing && !open.length) out.add(withLinkTargets(at, kept));
    // A link on the way that lies under a covered place: its folder is kept in sight, read-only, so the PATH folder is found
    // at its name (a clone in /tmp with its node_modules linked elsewhere), when no one else can change it and it holds no kept place.
    for (const holder of links.filter((h) => !inSight(h) && keepable(h, kept))) out.add(holder);
    // A link on the way, in a folder another user can change: that folder is pinned too, so the link keeps pointing where it does.
    for (const holder of links.filter(inSight)) {
      // The link is an entry of its folder: a sticky folder (/tmp's mode) keeps others from replacing it, as above a PATH folder.
      const changed = new Set(exposed(holder, true).map((o) => o.dir));
      const pinned = changed.size ? readOnlyTarget(holder, changed) : undefined;
      if (pinned) out.add(pinned);
    }
  }
  return [...out];
}

/** A folder under a covered place (never the place itself) that no one else can change and that holds none of the kept places. */
function keepable(dir: string, kept: readonly string[]): boolean {
  return COVERED.some((c) => under(dir, real(c) ?? c) && dir !== (real(c) ?? c)) && !exposed(dir).length && !kept.some((k) => under(k, dir));
}

/** The nearest folder holding both paths. */
function commonFolder(a: string, b: string): string {
  const x = a.split(sep);
  const y = b.split(sep);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return x.slice(0, i).join(sep) || sep;
}

/**
 * A kept PATH folder under a covered place, widened to the places its links lead to there: node's release archives link
 * bin/npm to ../lib/node_modules/npm/…, npm's node_modules/.bin links each program into its package. The nearest folder
 * holding the PATH folder and every such target (short of the covered place, keepable), so they run in the sandbox too;
 * a link that leads elsewhere is left dangling there, as before.
 */
function withLinkTargets(at: string, kept: readonly string[]): string {
  let whole = at;
  let entries: string[];
  try {
    entries = readdirSync(at, { withFileTypes: true })
      .filter((e) => e.isSymbolicLink())
      .map((e) => e.name);
  } catch {
    return at;
  }
  for (const name of entries) {
    const to = real(join(at, name));
    if (!to || under(to, whole) || !covered(to)) continue;
    const both = commonFolder(whole, to);
    if (keepable(both, kept)) whole = both;
  }
  return whole;
}

/**
 * The highest folder from `at` up that another user could change (`open`), or whose entry in its parent they could
 * (a read-only mount there cannot be renamed away). One that holds the checkout or crew's temporary folder is read-only
 * too: what the command writes inside it is mounted back as it was first (private-mounts.ts, holes).
 */
function readOnlyTarget(at: string, open: ReadonlySet<string>): string | undefined {
  let target: string | undefined;
  for (let d = at; d !== dirname(d); d = dirname(d)) if (open.has(d) || open.has(dirname(d))) target = d;
  return target;
}

/**
 * A warning for each PATH folder under a covered place that another user can write (left out of the sandbox), and
 * for each inside the checkout (`workspace`), which the sandbox's commands write by design: each names the folder and
 * what to do.
 */
export function pathFolderWarnings(path?: string, workspace?: string): string[] {
  const checkout = workspace && (real(workspace) ?? workspace);
  return pathFolders(path).flatMap(({ dir, at, missing }) => {
    if (checkout && workspace && (under(dir, workspace) || under(at, checkout)))
      return [
        `The PATH folder ${dir} is inside the checkout, where model-written code writes: crew's own git and python3 never come from it, but the workflow's later steps (post actions, which run with its tokens) would run a program planted there. Put the setup steps' tools outside the checkout (RUNNER_TEMP, the tool cache) and call the checkout's own by their path (\`npx\`, \`./node_modules/.bin/…\`).`,
      ];
    const problem = covered(at) && !missing ? exposed(at)[0]?.why : undefined;
    return problem
      ? [
          `The PATH folder ${dir} is left out of the sandbox: ${problem}, so a command could plant a program there that crew's own commands would run. Its programs are missing in the sandbox: make it and the folders above it writable only by root or crew's user in the setup steps (create them with umask 022, or \`chmod go-w\` them).`,
        ]
      : [];
  });
}
