/** Small pure helpers for the markdown crew posts. */

/** GitHub rejects comment and PR bodies over 65,536 characters. */
export const BODY_LIMIT = 65_536;

export function hiddenMarker(name: string, fields: Record<string, string | number> = {}): string {
  const attrs = Object.entries(fields)
    .map(([k, v]) => ` ${k}=${v}`)
    .join('');
  return `<!-- crew:${name}${attrs} -->`;
}

export function markerPrefix(name: string): string {
  return `<!-- crew:${name}`;
}

export function details(summary: string, body: string, open = false): string {
  return `<details${open ? ' open' : ''}><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

/** Escapes a value for a table cell. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Keeps text inside one code fence even if it contains backticks. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/**
 * Fits a body under GitHub's limit: if it is too long, the tail is cut at a line
 * boundary and a note links to the full text.
 */
export function capBody(body: string, fullTextLink: string, limit = BODY_LIMIT): string {
  if (body.length <= limit) return body;
  const note = `\n\n…the rest is cut to fit GitHub's ${limit.toLocaleString('en-US')}-character limit. [Read the full text](${fullTextLink}).`;
  const room = limit - note.length;
  const cut = body.lastIndexOf('\n', room);
  return `${body.slice(0, cut > 0 ? cut : room)}${note}`;
}

export function progressBar(done: number, total: number, width = 20): string {
  const filled = total === 0 ? 0 : Math.round((done / total) * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${done}/${total}`;
}
