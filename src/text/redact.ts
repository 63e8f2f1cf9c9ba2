/**
 * Removes secrets from text crew posts, logs or pushes. Known values (the tokens crew
 * holds) are replaced exactly, also in the encodings crew itself sends them in; common
 * token shapes are replaced by pattern, in case a model or a command printed one crew
 * was never told about.
 */

/** The token shapes redacted wherever they appear, by name (tests/unit/crew/redact.test.ts has one case each). */
export const TOKEN_PATTERNS: Record<string, RegExp> = {
  // ghp_ personal, gho_ OAuth, ghu_ user-to-server, ghs_ server-to-server (GITHUB_TOKEN, apps), ghr_ refresh.
  github: /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g,
  github_fine_grained: /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  anthropic: /\bsk-ant-[A-Za-z0-9_-]{10,}/g,
  // AWS access key ids: long-term (AKIA), temporary (ASIA) and the other IAM id prefixes.
  aws_access_key: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
  // Before `slack`, which would otherwise take the inner token and leave the prefix.
  slack_config: /\bxoxe\.xox[bp]-\d-[A-Za-z0-9]{10,}/g,
  slack: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g,
  jwt: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
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
