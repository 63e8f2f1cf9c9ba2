import picomatch from 'picomatch';

/**
 * Glob matching for `protected_paths` and plans, by picomatch with `dot: true` (a protected
 * pattern must cover dotfiles): `*` stays within a folder, `**` spans folders (`**\/x` is `x`
 * too), `{a,b}` braces, `[...]` classes, `?` one character, and a leading `!` negates.
 */
const matchers = new Map<string, (path: string) => boolean>();

export function globMatch(pattern: string, path: string): boolean {
  let m = matchers.get(pattern);
  if (!m) matchers.set(pattern, (m = picomatch(pattern, { dot: true })));
  return m(path);
}

/**
 * Whether a path is protected: it matches a pattern, or it stands where a protected path's
 * folder should be (a file or link named `.github/workflows` or `.github` replaces the
 * folder the protected files live in). The folders are those of the pattern's literal base,
 * before its first glob character.
 */
export function isProtectedPath(patterns: string[], path: string): boolean {
  return patterns.some((p) => {
    if (globMatch(p, path)) return true;
    const { base, glob, negated } = picomatch.scan(p);
    if (negated || !base) return false;
    const fixed = base.split('/');
    const folders = glob ? fixed.length : fixed.length - 1;
    return Array.from({ length: folders }, (_, i) => fixed.slice(0, i + 1).join('/')).includes(path);
  });
}
