/**
 * The `crew_env` input (#51): the variables a repository's MCP servers need, handed to crew as one
 * secret of `NAME=value` lines, so the short workflow form can pass them without editing crew's
 * workflow. crew keeps them apart from its own environment and gives each to the servers that name it.
 */

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
    vars[name] = line.slice(eq + 1);
  }
  return { vars };
}
