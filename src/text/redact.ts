/**
 * Removes secrets from text crew posts or logs. Known values (the tokens crew holds)
 * are replaced exactly; common token shapes are replaced by pattern, in case a
 * model or a command printed one crew was never told about.
 */

const PATTERNS: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-ant-[A-Za-z0-9_-]{10,}\b/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g,
];

const known = new Set<string>();

/** Registers a secret value to redact wherever it appears. */
export function addSecret(value: string | undefined): void {
  if (value && value.length >= 6) known.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const value of known) out = out.split(value).join('***');
  for (const p of PATTERNS) out = out.replace(p, '***');
  return out;
}
