/**
 * Cleans untrusted text (issue bodies, comments) before it reaches a prompt. Hidden
 * content is the usual carrier of injected instructions: HTML comments, zero-width
 * and bidi control characters, and markup a reader never sees rendered.
 */

const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]/g;
const TAG_CHARS = /[\u{E0000}-\u{E007F}]/gu;

export function sanitize(text: string, maxChars = 20_000): string {
  let out = text
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .replace(INVISIBLE, '')
    .replace(TAG_CHARS, '')
    // Markup that renders as nothing (or as an attribute a reader never sees).
    .replace(/<(details|summary|div|span|p)\b[^>]*\bhidden\b[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<img\b[^>]*>/gi, '[image]')
    .replace(/!\[[^\]]*\]\(([^)]*)\)/g, '[image]')
    .replace(/\s+(?:title|alt|aria-label|data-[\w-]+)\s*=\s*("[^"]*"|'[^']*')/gi, '')
    .replace(/\r\n?/g, '\n');
  out = decodeHarmlessEntities(out);
  if (out.length > maxChars) out = `${out.slice(0, maxChars)}\n\n[truncated: ${out.length - maxChars} more characters not shown]`;
  return out.trim();
}

/** Entities that could spell out hidden characters are decoded, then the hidden characters stripped again. */
function decodeHarmlessEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number.parseInt(dec, 10)))
    .replace(INVISIBLE, '')
    .replace(TAG_CHARS, '');
}
