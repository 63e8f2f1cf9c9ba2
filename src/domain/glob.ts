/** Minimal glob: `**` spans folders (followed by a slash, whole ones only), `*` stays within one segment. */
export function globMatch(pattern: string, path: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      // `**/` is any number of whole folders, none included: `**/.npmrc` is `.npmrc` or `a/.npmrc`, never `x.npmrc`.
      if (pattern[i + 1] === '/') {
        re += '(?:.*/)?';
        i++;
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`).test(path);
}

/**
 * Whether a path is protected: it matches a pattern, or it stands where a protected path's
 * folder should be (a file or link named `.github/workflows` or `.github` replaces the
 * folder the protected files live in).
 */
export function isProtectedPath(patterns: string[], path: string): boolean {
  return patterns.some((p) => {
    if (globMatch(p, path)) return true;
    const fixed: string[] = [];
    for (const seg of p.split('/')) {
      if (/[*?]/.test(seg)) break;
      fixed.push(seg);
    }
    const folders = p.split('/').length > fixed.length ? fixed.length : fixed.length - 1;
    return Array.from({ length: folders }, (_, i) => fixed.slice(0, i + 1).join('/')).includes(path);
  });
}
