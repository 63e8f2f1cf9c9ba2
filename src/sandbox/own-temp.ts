import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { real, under } from './private-mounts';

/** Who crew runs as, for a folder's name: its uid where there is one. */
const me = () => String(process.getuid?.() ?? userInfo().username);

/**
 * A folder of crew's own user in the machine's temporary folder (#46 item 8). Any user may create a
 * name in /tmp first, a link to /etc say, and crew (root, locally or in eval) would write through it.
 * So the folder is made 0711 (the tool user may pass through to its home in it, never list it), or, when
 * it is there already, used only if it is a real folder of this user's that no one else can write.
 */
export function ownTempDir(name: string): string {
  const dir = join(tmpdir(), name);
  try {
    mkdirSync(dir, { mode: 0o711 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  const why = st.isSymbolicLink()
    ? 'is a symbolic link'
    : !st.isDirectory()
      ? 'is not a folder'
      : uid !== undefined && st.uid !== uid
        ? `belongs to another user (uid ${st.uid})`
        : st.mode & 0o022
          ? 'can be written by other users'
          : undefined;
  if (why)
    throw new Error(
      `${dir} ${why}: crew keeps its working files there only in a folder of its own user's that no one else can write. Remove it (or set TMPDIR to a folder of your own) and run crew again.`,
    );
  return dir;
}

/** The job's temporary folder: the runner's (RUNNER_TEMP), or, locally and in eval, crew's own in /tmp, never /tmp itself. */
export function jobTempDir(): string {
  return process.env.RUNNER_TEMP ?? ownTempDir(`crew-${me()}`);
}

/** A per-user folder for `what` (`worktrees`, `eval`), in crew's own kind of folder. */
export function ownTempDirFor(what: string): string {
  return ownTempDir(`crew-${what}-${me()}`);
}

/** Whether `dir` lies in one of crew's own temporary folders (`crew-<user>`, `crew-<what>-<user>` in the machine's temporary folder). */
export function inOwnTemp(dir: string): boolean {
  const name = new RegExp(`^crew-(?:[a-z]+-)?${me().replace(/[^\w]/g, '\\$&')}$`);
  return [tmpdir(), real(tmpdir())].some((t) => !!t && dir !== t && under(dir, t) && name.test(dir.slice(t.length).split('/')[1] ?? ''));
}
