/**
 * Removes secrets from text crew posts, logs or pushes. Known values (the tokens crew
 * holds) are replaced exactly, also in the encodings crew itself sends them in; common
 * token shapes are replaced by pattern, in case a model or a command printed one crew
 * was never told about.
 */

/**
 * Where a token may start: after a character that cannot be part of it, or right after an
 * escaped newline, return or tab. crew redacts JSON and YAML too, where a token at the start
 * of a line follows the two characters backslash and `n`, a letter.
 */
const START = String.raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9_]))`;
const token = (body: string) => new RegExp(`${START}${body}`, 'g');

/** The token shapes redacted wherever they appear, by name (tests/unit/crew/redact.test.ts has one case each). */
export const TOKEN_PATTERNS: Record<string, RegExp> = {
  // ghp_ personal, gho_ OAuth, ghu_ user-to-server, ghs_ server-to-server (GITHUB_TOKEN, apps), ghr_ refresh.
  github: token(String.raw`gh[pousr]_[A-Za-z0-9]{20,}\b`),
  github_fine_grained: token(String.raw`github_pat_[A-Za-z0-9_]{20,}\b`),
  anthropic: token(String.raw`sk-ant-[A-Za-z0-9_-]{10,}`),
  // AWS access key ids: long-term (AKIA), temporary (ASIA) and the other IAM id prefixes.
  aws_access_key: token(String.raw`(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b`),
  // Before `slack`, which would otherwise take the inner token and leave the prefix.
  slack_config: token(String.raw`xoxe\.xox[bp]-\d-[A-Za-z0-9]{10,}`),
  slack: token(String.raw`xox[abposre]-[A-Za-z0-9-]{10,}`),
  jwt: token(String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
};

const known = new Set<string>();

/** Registers a secret value to redact wherever it appears. */
export function addSecret(value: string | undefined): void {
  if (!value || value.length < 6) return;
  known.add(value);
  // git sends crew's token as `AUTHORIZATION: basic base64(x-access-token:<token>)`; an error or a
  // `git config -l` that echoes the header must not show it either.
  known.add(Buffer.from(`x-access-token:${value}`).toString('base64'));
  known.add(Buffer.from(value).toString('base64'));
}

export function redact(text: string): string {
  let out = text;
  for (const value of known) if (out.includes(value)) out = out.split(value).join('***');
  for (const p of Object.values(TOKEN_PATTERNS)) out = out.replace(p, '***');
  return out;
}
