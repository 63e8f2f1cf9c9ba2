/**
 * The `crew_env` input (#51): the variables a repository's MCP servers need, handed to crew as one
 * secret of `NAME=value` lines, so the short workflow form can pass them without editing crew's
 * workflow. crew keeps them apart from its own environment and gives each to the servers that name it.
 */

import { MIN_DECLARED_SECRET_CHARS } from '../text/redact';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Splits `NAME=value` lines (blank lines and `#` comments skipped; the value is everything after the
 * first `=`, kept as written). A problem names the line by number, never its text: the text is a secret.
 */
export function parseCrewEnv(text: string): { vars: Record<string, string> } | { problem: string } {
  const vars: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const eq = line.indexOf('=');
    const name = eq < 0 ? '' : line.slice(0, eq).trim();
    const where = `Input \`crew_env\` (the CREW_ENV secret), line ${i + 1}`;
    if (eq < 0 || !NAME.test(name))
      return { problem: `${where} is not \`NAME=value\` with a name of letters, digits and _: write one variable per line, such as \`DB_URL=postgres://…\`.` };
    if (name in vars) return { problem: `${where} sets ${name} a second time: keep one line for it.` };
    const value = line.slice(eq + 1);
    // Every value is masked in the job log, and GitHub's runner masks every occurrence and drops any job
    // output that holds one (actions/runner JobExtension.cs): a value like "1" would blank the log's digits
    // and stop a run, so a short value is refused before it is masked.
    if (value.length > 0 && value.length < MIN_DECLARED_SECRET_CHARS)
      return {
        problem: `${where} gives ${name} a value of fewer than ${MIN_DECLARED_SECRET_CHARS} characters: crew masks every value in the job log, and masking so short a value would hide each of its occurrences and make GitHub drop job outputs that contain it. Use a longer value, or set it in .github/crew.yml if it is no secret.`,
      };
    vars[name] = value;
  }
  return { vars };
}
