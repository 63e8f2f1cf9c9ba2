import { readFile } from 'node:fs/promises';

/**
 * Reads a GITHUB_OUTPUT / GITHUB_ENV file: `name=value` lines and heredocs
 * `name<<DELIM` … `DELIM`, which is how @actions/core writes multi-line values.
 */
export async function readKeyValueFile(path: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return {};
  }
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delim] = heredoc;
      const body: string[] = [];
      i++;
      while (i < lines.length && lines[i] !== delim) body.push(lines[i++]!);
      if (i >= lines.length) throw new Error(`${path}: unterminated value for '${name}' (missing delimiter ${delim})`);
      out[name!] = body.join('\n');
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) throw new Error(`${path}: malformed line '${line}'`);
    out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}
