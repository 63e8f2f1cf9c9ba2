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

/**
 * Registers a secret value to redact wherever it appears. A value shorter than `min` is taken for a
 * fragment rather than a secret and skipped; a caller whose values are secrets by declaration (`crew_env`,
 * masked in the job log down to its own floor) passes that floor, so what the log hides is hidden everywhere.
 */
export function addSecret(value: string | undefined, min = 6): void {
  if (!value || value.length < min) return;
  known.add(value);
  // git sends crew's token as `AUTHORIZATION: basic base64(x-access-token:<token>)`; an error or a
  // `git config -l` that echoes the header must not show it either.
  known.add(Buffer.from(`x-access-token:${value}`).toString('base64'));
  for (const form of encodedForms(value)) known.add(form);
}

/**
 * The shortest secret by declaration crew takes (a shorter `crew_env` value is refused: domain/crew-env.ts), masks
 * in the job log and redacts.
 */
export const MIN_DECLARED_SECRET_CHARS = 4;

/**
 * Registers a value that is a secret by declaration: a `crew_env` value, an MCP server's variable or header,
 * however the workflow passed it. Redacted down to the floor the job log masks such values at, not redaction's
 * own floor for values crew only holds, so what the log hides is hidden everywhere.
 */
export function addDeclaredSecret(value: string | undefined): void {
  addSecret(value, MIN_DECLARED_SECRET_CHARS);
}

/**
 * The hex and base64 forms a command might print a secret in (`xxd -p`, `base64`, `od`), wherever it sits
 * in the encoded stream: base64 groups three bytes, so each of the three alignments is encoded and the
 * groups that would also hold neighbouring bytes are dropped; what remains appears in any encoding of
 * text that contains the secret at that alignment. Also the URL-safe alphabet.
 */
function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value);
  // Whole encodings first: a shorter core would otherwise leave their ends behind.
  const forms = [bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex'), bytes.toString('hex').toUpperCase()];
  for (let pad = 0; pad < 3; pad++) {
    let b64 = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    if (pad) b64 = b64.slice(4);
    if ((pad + bytes.length) % 3) b64 = b64.slice(0, -4);
    // Too short a core would match ordinary text; a whole-value encoding (pad 0) is kept above anyway.
    if (b64.length < 12) continue;
    forms.push(b64, b64.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

export function redact(text: string): string {
  let out = text;
  for (const value of known) if (out.includes(value)) out = out.split(value).join('***');
  for (const p of Object.values(TOKEN_PATTERNS)) out = out.replace(p, '***');
  return out;
}
