/**
 * The REST API's media types for markdown bodies (GitHub Docs, REST "Media types", "Comment body
 * media types"): `application/vnd.github.raw+json` answers `body` (the default),
 * `.text+json` only `body_text`, `.html+json` only `body_html`, `.full+json` all three. crew reads
 * `full` (#47): `body_html` is where a private repository's attachments become signed URLs
 * (attachments.ts). The issue, issue comment, review and review comment schemas of GitHub's OpenAPI
 * description list `body_text` and `body_html`, so the answers are still checked against it.
 *
 * The rendering is GitHub's for what crew reads, not all of markdown: text is escaped into
 * paragraphs, fenced code stays code, HTML comments go, and every image (`![alt](url)`, `<img src>`)
 * becomes `<a href><img src></a>`. Elements a reader does not see (`<div hidden>`) are rendered
 * here like any other, so a client that paired the rendered images with the markdown's by their
 * order would pair them wrong. An attachment the asking token may read gets a signed URL; anything
 * else keeps its URL.
 */
export type BodyFormat = 'raw' | 'text' | 'html' | 'full';

/** The format an Accept header asks for (`vnd.github.v3.full+json` is the older spelling of the same). */
export function bodyFormat(accept: string | undefined): BodyFormat {
  const m = /application\/vnd\.github(?:\.v3)?\.(raw|text|html|full)(?:\+json)?/i.exec(accept ?? '');
  return (m?.[1]?.toLowerCase() as BodyFormat | undefined) ?? 'raw';
}

/** The routes whose answers carry markdown bodies that the media types render. */
export const BODY_ROUTES = new Set([
  'GET /repos/{owner}/{repo}/issues/{issue_number}',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'GET /repos/{owner}/{repo}/issues/comments/{comment_id}',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments',
]);

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const IMAGE = /!\[([^\]]*)\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)|<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\s>]+))[^>]*>/gi;

/** `markdown` as GitHub's HTML; `image(url)` gives each image's `src`. */
export function renderBodyHtml(markdown: string, image: (url: string) => string): string {
  const out: string[] = [];
  const blocks = markdown.replace(/<!--[\s\S]*?-->/g, '').split(/^(```[^\n]*\n[\s\S]*?^```)[ \t]*$/m);
  for (const block of blocks) {
    if (block.startsWith('```')) {
      out.push(`<pre><code>${escape(block.replace(/^```[^\n]*\n/, '').replace(/```$/, ''))}</code></pre>`);
      continue;
    }
    for (const para of block.split(/\n\s*\n/)) {
      if (!para.trim()) continue;
      let html = '';
      let at = 0;
      for (const m of para.matchAll(IMAGE)) {
        html += escape(para.slice(at, m.index));
        const url = (m[2] ?? m[3] ?? m[4] ?? m[5])!;
        const src = escape(image(url));
        html += `<a target="_blank" rel="noopener noreferrer" href="${src}"><img src="${src}" alt="${escape(m[1] ?? '')}" style="max-width: 100%;"></a>`;
        at = m.index + m[0].length;
      }
      out.push(`<p dir="auto">${html + escape(para.slice(at))}</p>`);
    }
  }
  return out.join('\n');
}

/** `markdown` as GitHub's plain text: images are their alt text. */
const renderBodyText = (markdown: string) => markdown.replace(/<!--[\s\S]*?-->/g, '').replace(IMAGE, (_, alt: string | undefined) => alt ?? '');

/** An answer (one object or a list) with its bodies as `format` asks. */
export function withBodyFormat(answer: unknown, format: BodyFormat, image: (url: string) => string): unknown {
  if (format === 'raw') return answer;
  const one = (o: unknown) => {
    if (typeof o !== 'object' || o === null || !('body' in o)) return o;
    const { body, ...rest } = o as { body: string | null };
    const md = body ?? '';
    return {
      ...rest,
      ...(format === 'full' ? { body } : {}),
      ...(format === 'full' || format === 'text' ? { body_text: renderBodyText(md) } : {}),
      ...(format === 'full' || format === 'html' ? { body_html: renderBodyHtml(md, image) } : {}),
    };
  };
  return Array.isArray(answer) ? answer.map(one) : one(answer);
}
