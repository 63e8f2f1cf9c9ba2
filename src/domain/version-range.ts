/**
 * Whether a toolchain version found on a runner (`v24.1.0`, `3.12.3`, `go1.22.5`) meets what a
 * repository's file asks for (`18`, `lts/*`, `>=3.12`, `^20.11`, `3.10.x`, `~=3.11`, `>=3.9,<3.13`,
 * `1.22`). Pure. Undefined when the request is not a version crew can compare (`lts/*`, `node`,
 * `stable`, `nightly`): then crew says it cannot tell rather than guessing.
 */

type Version = number[];

function parse(text: string): Version | undefined {
  const m = /^\s*v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?/.exec(text);
  if (!m) return undefined;
  return [m[1], m[2], m[3]].filter((p): p is string => p !== undefined && /^\d+$/.test(p)).map(Number);
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

/** `found` starts with every part `prefix` gives: 3.12 holds 3.12.3, 18 holds 18.19.0. */
const startsWith = (found: Version, prefix: Version) => prefix.every((p, i) => found[i] === p);

/** One comparison (`>=3.12`, `^20`, `~1.2`, `~=3.11`, `3.10.x`, `18`); undefined when it is not one. */
function meets(found: Version, term: string): boolean | undefined {
  const m = /^(>=|<=|>|<|==|=|~=|\^|~|!=)?\s*(.+)$/.exec(term.trim());
  if (!m) return undefined;
  const want = parse(m[2]!);
  if (!want || !/^v?\d+(\.(\d+|[xX*]))*(\.\*)?$/.test(m[2]!.trim())) return undefined;
  const c = compare(found, want);
  switch (m[1]) {
    case '>=':
      return c >= 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0 || startsWith(found, want);
    case '<':
      return c < 0;
    case '!=':
      return !startsWith(found, want);
    case '^':
      // ^0.x pins the minor too (npm's caret); crew's toolchains are all past 0.
      return c >= 0 && found[0] === want[0];
    case '~':
      // npm: ~1.2.3 and ~1.2 keep the minor, ~1 the major.
      return c >= 0 && startsWith(found, want.slice(0, want.length >= 2 ? 2 : 1));
    case '~=':
      // PEP 440: ~=3.11 is >=3.11, ==3.*; ~=3.11.2 is >=3.11.2, ==3.11.*.
      return c >= 0 && startsWith(found, want.slice(0, Math.max(1, want.length - 1)));
    default:
      return startsWith(found, want);
  }
}

/**
 * Whether `found` meets `requested`; undefined when `requested` (or `found`) is not comparable.
 * `||` separates alternatives (npm); commas or spaces join terms that must all hold (PEP 440, npm).
 */
export function versionMeets(requested: string, found: string): boolean | undefined {
  const have = parse(found.replace(/^[a-z]+(?=\d)/i, ''));
  if (!have) return undefined;
  const alternatives = requested.split('||').map((a) => a.trim());
  for (const alternative of alternatives) {
    const terms = alternative
      .replace(/(>=|<=|>|<|==|~=|\^|~|!=)\s+/g, '$1')
      .split(/[\s,]+/)
      .filter(Boolean);
    if (!terms.length) return undefined;
    const results = terms.map((t) => meets(have, t));
    if (results.some((r) => r === undefined)) return undefined;
    if (results.every(Boolean)) return true;
  }
  return false;
}
