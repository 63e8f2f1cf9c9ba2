import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isProtectedPath } from '../domain/glob';

/** More links than this in one path is a loop, as the kernel's ELOOP limit says. */
const MAX_LINKS = 40;

/** Where a path the model typed really leads, after every symbolic link in it. */
export interface ResolvedPath {
  /** The path as typed, relative to the root and normalised ('.' for the root). */
  typed: string;
  /** Where it leads, relative to the root, with no link left in it. */
  real: string;
  /** The absolute form of `real`: the only path the file tools open. */
  abs: string;
}

const inGit = (rel: string) => rel === '.git' || rel.startsWith('.git/');

/**
 * Keeps every file a tool touches inside the checkout. Each component of a path is
 * looked at with lstat, and every symbolic link is followed by hand, so a link cannot
 * lead outside the root, into `.git` or onto a protected path, and a link whose target
 * does not exist is refused (writing through it would create the target, wherever it
 * is). The tool user can plant such links with run_command, and the file tools run as
 * crew's own user, so the checks apply to where a path leads, not to how it was typed.
 */
export class PathJail {
  private readonly root: string;

  constructor(
    root: string,
    private readonly protectedPatterns: string[] = [],
  ) {
    this.root = realpathSync(root);
  }

  /** The typed path relative to the root, after checking where it leads; or an error the model can read. */
  relative(input: unknown): string {
    return this.resolve(input).typed;
  }

  /** Resolves every component of the path; throws when it leaves the root or meets a dangling link or a loop. */
  resolve(input: unknown): ResolvedPath {
    if (typeof input !== 'string' || input.trim() === '') throw new Error('path must be a non-empty string, relative to the repository root');
    if (input.includes('\0')) throw new Error('path contains a NUL byte');
    const abs = isAbsolute(input) ? resolve(input) : resolve(this.root, input);
    const rel = relative(this.root, abs);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Error(`'${input}' is outside the repository; use a path relative to its root`);
    const typed = rel === '' ? '.' : rel.split(sep).join('/');
    const viaLink = () => new Error(`'${input}' leads outside the repository through a symbolic link`);

    const done: string[] = [];
    const queue = rel === '' ? [] : rel.split(sep);
    let links = 0;
    while (queue.length) {
      const name = queue.shift()!;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        if (done.length === 0) throw viaLink();
        done.pop();
        continue;
      }
      const here = resolve(this.root, ...done, name);
      let st;
      try {
        st = lstatSync(here);
      } catch {
        // Nothing there yet: this and what follows are new folders or the new file.
        done.push(name);
        continue;
      }
      if (!st.isSymbolicLink()) {
        if (!st.isDirectory() && queue.some((q) => q !== '' && q !== '.'))
          throw new Error(`'${[...done, name].join('/')}' is a file, not a folder, in '${input}'`);
        done.push(name);
        continue;
      }
      if (++links > MAX_LINKS) throw new Error(`'${input}' goes through more than ${MAX_LINKS} symbolic links (a loop?)`);
      try {
        statSync(here);
      } catch {
        throw new Error(`'${[...done, name].join('/')}' is a symbolic link to a path that does not exist; crew does not write or read through it`);
      }
      const target = readlinkSync(here);
      if (isAbsolute(target)) {
        const fromRoot = relative(this.root, resolve(target));
        if (fromRoot === '..' || fromRoot.startsWith(`..${sep}`) || isAbsolute(fromRoot)) throw viaLink();
        done.length = 0;
        queue.unshift(...fromRoot.split(sep));
      } else {
        queue.unshift(...target.split('/'));
      }
    }
    const real = done.length ? done.join('/') : '.';
    return { typed, real, abs: resolve(this.root, ...done) };
  }

  /** For reads: inside the root and, as typed and as resolved, not inside `.git`. Returns the resolved absolute path. */
  forRead(input: unknown): string {
    return this.checkedRead(input).abs;
  }

  /** For writes: as for reads, and neither the typed nor the resolved path is protected. Returns the resolved absolute path. */
  forWrite(input: unknown): string {
    const p = this.checkedRead(input);
    for (const rel of new Set([p.typed, p.real])) {
      const hit = this.protectedPatterns.find((pattern) => isProtectedPath([pattern], rel));
      if (hit)
        throw new Error(
          `'${rel}' is protected (matches '${hit}'); crew does not let agents change it${rel === p.typed ? '' : ` ('${p.typed}' is a link to it)`}`,
        );
    }
    return p.abs;
  }

  get rootDir(): string {
    return this.root;
  }

  private checkedRead(input: unknown): ResolvedPath {
    const p = this.resolve(input);
    if (inGit(p.typed)) throw new Error(`'${String(input)}' is inside .git, which tools may not read or change`);
    if (inGit(p.real)) throw new Error(`'${String(input)}' is a symbolic link into .git, which tools may not read or change`);
    return p;
  }
}
