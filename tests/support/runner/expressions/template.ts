import { ExpressionError } from './errors';

export type Segment = { kind: 'text'; text: string } | { kind: 'expression'; source: string };

/**
 * Splits `text ${{ expr }} text` into pieces. The closing `}}` is searched outside single-quoted string
 * literals, so `${{ format('{{0}}', x) }}` or `${{ '}}' }}` stay one expression; toggling on every quote
 * also handles the `''` escape.
 */
export function splitTemplate(template: string): Segment[] {
  const segments: Segment[] = [];
  let cursor = 0;
  for (;;) {
    const open = template.indexOf('${{', cursor);
    if (open === -1) break;
    if (open > cursor) segments.push({ kind: 'text', text: template.slice(cursor, open) });
    let inString = false;
    let close = -1;
    for (let i = open + 3; i < template.length; i++) {
      const ch = template[i];
      if (ch === "'") inString = !inString;
      else if (!inString && ch === '}' && template[i + 1] === '}') {
        close = i;
        break;
      }
    }
    if (close === -1) {
      throw new ExpressionError("Unclosed expression: an unescaped '${{' was found but the closing '}}' was not", template, open + 1);
    }
    segments.push({ kind: 'expression', source: template.slice(open + 3, close) });
    cursor = close + 2;
  }
  if (cursor < template.length) segments.push({ kind: 'text', text: template.slice(cursor) });
  return segments;
}

/** The expression source when the whole string is exactly one `${{ … }}` (no surrounding text, not even spaces). */
export function singleExpression(template: string): string | undefined {
  if (!template.includes('${{')) return undefined;
  const segments = splitTemplate(template);
  const [only] = segments;
  return segments.length === 1 && only?.kind === 'expression' ? only.source : undefined;
}
