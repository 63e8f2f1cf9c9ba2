import { readFile } from 'node:fs/promises';

/**
 * Reads a GITHUB_OUTPUT / GITHUB_ENV file as actions/runner does (src/Runner.Worker/FileCommandManager.cs,
 * SetEnvFileCommand, and SetOutputFileCommand alike): lines end at `\n` only (a `\r` stays in the line on
 * Linux); `name=value` when `=` comes before any `<<`, else a heredoc `name<<DELIM` whose value runs to the
 * first line that is exactly `DELIM`. A heredoc with no such line, or a line that is neither, fails the step.
 */
export async function readKeyValueFile(path: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) continue;
    const eq = line.indexOf('=');
    const here = line.indexOf('<<');
    if (eq >= 0 && (here < 0 || eq < here)) {
      out[line.slice(0, eq)] = line.slice(eq + 1);
      continue;
    }
    if (here < 0) throw new Error(`${path}: Invalid format '${line}'`);
    const name = line.slice(0, here);
    const delim = line.slice(here + 2);
    if (!name || !delim) throw new Error(`${path}: Invalid format '${line}'. Name must not be empty and delimiter must not be empty`);
    const body: string[] = [];
    i++;
    while (i < lines.length && lines[i] !== delim) body.push(lines[i++]!);
    if (i >= lines.length) throw new Error(`${path}: Invalid value. Matching delimiter not found '${delim}' (for '${name}')`);
    out[name] = body.join('\n');
  }
  return out;
}
