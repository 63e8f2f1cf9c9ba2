import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { globMatch } from '../domain/glob';

/**
 * Keeps every file a tool touches inside the checkout. Paths are resolved after
 * following symlinks, so a link pointing outside cannot be used to escape, and
 * nothing under `.git/` is ever written.
 */
export class PathJail {
  private readonly root: string;

  constructor(
    root: string,
    private readonly protectedPatterns: string[] = [],
  ) {
    this.root = realpathSync(root);
  }

  /** The path relative to the root, normalised, or an error the model can read. */
  relative(input: unknown): string {
    if (typeof input !== 'string' || input.trim() === '') throw new Error('path must be a non-empty string, relative to the repository root');
    if (input.includes('\0')) throw new Error('path contains a NUL byte');
    const abs = isAbsolute(input) ? resolve(input) : resolve(this.root, input);
    const rel = relative(this.root, abs);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Error(`'${input}' is outside the repository; use a path relative to its root`);
    const real = this.realOfNearestExisting(abs);
    const realRel = relative(this.root, real);
    if (realRel === '..' || realRel.startsWith(`..${sep}`) || isAbsolute(realRel)) throw new Error(`'${input}' leads outside the repository through a symbolic link`);
    return rel === '' ? '.' : rel.split(sep).join('/');
  }

  /** For reads: inside the root and not inside `.git`. */
  forRead(input: unknown): string {
    const rel = this.relative(input);
    if (rel === '.git' || rel.startsWith('.git/')) throw new Error(`'${String(input)}' is inside .git, which tools may not read or change`);
    return resolve(this.root, rel);
  }

  /** For writes: as for reads, and not a protected path. */
  forWrite(input: unknown): string {
    const abs = this.forRead(input);
    const rel = relative(this.root, abs).split(sep).join('/');
    const hit = this.protectedPatterns.find((p) => globMatch(p, rel));
    if (hit) throw new Error(`'${rel}' is protected (matches '${hit}'); crew does not let agents change it`);
    return abs;
  }

  get rootDir(): string {
    return this.root;
  }

  private realOfNearestExisting(abs: string): string {
    let p = abs;
    const tail: string[] = [];
    for (;;) {
      try {
        return resolve(realpathSync(p), ...tail.reverse());
      } catch {
        const parent = dirname(p);
        if (parent === p) return abs;
        tail.push(p.slice(parent.length + 1));
        p = parent;
      }
    }
  }
}
