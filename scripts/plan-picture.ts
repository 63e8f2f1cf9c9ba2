/**
 * The README's picture of a plan comment, made from a real one: plays scenarios/demo.yaml through
 * the offline world (dist/, like `npm run demo`), keeps crew's plan comment as it last edited it
 * (docs/images/plan-comment.md), and draws it as GitHub shows it (docs/images/plan-comment.svg).
 *
 *   npm run plan-picture            (rebuild dist/ first when src/ changed)
 *
 * renderCommentSvg is a small renderer for the markdown crew's plan comment uses: headings, bold,
 * code spans, links, quotes, tables, checkbox lists and <sub> lines; the Mermaid block is drawn as
 * its edges, since no browser is at hand to lay out the graph. tests/unit/plan-picture.test.ts
 * holds the SVG to the stored comment.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
export const PICTURE_MD = 'docs/images/plan-comment.md';
export const PICTURE_SVG = 'docs/images/plan-comment.svg';

const WIDTH = 900;
const PAD = 20;
const LINE = 22;
const CHAR = 7.4; // average advance of a 13px sans-serif character
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

type Span = { text: string; bold?: boolean; code?: boolean; link?: boolean };

/** Inline markdown → styled spans (bold, code, links); anything else is plain text. */
function spans(md: string): Span[] {
  const out: Span[] = [];
  const re = /\*\*(.+?)\*\*|`([^`]+)`|\[([^\]]+)\]\([^)]*\)|<\/?[a-z]+>/g;
  let at = 0;
  for (const m of md.matchAll(re)) {
    if (m.index! > at) out.push({ text: md.slice(at, m.index) });
    if (m[1] !== undefined) out.push(...spans(m[1]).map((s) => ({ ...s, bold: true })));
    else if (m[2] !== undefined) out.push({ text: m[2], code: true });
    else if (m[3] !== undefined) out.push(...spans(m[3]).map((s) => ({ ...s, link: true })));
    at = m.index! + m[0].length;
  }
  if (at < md.length) out.push({ text: md.slice(at) });
  return out.map((s) => ({ ...s, text: s.text.replace(/\\\|/g, '|') }));
}

export const plain = (md: string) =>
  spans(md)
    .map((s) => s.text)
    .join('');

function tspan(s: Span, size: number): string {
  const attrs = [
    s.bold ? 'font-weight="bold"' : '',
    s.code ? `font-family="ui-monospace,SFMono-Regular,Menlo,monospace" font-size="${size - 1}"` : '',
    s.link ? 'fill="#0969da"' : '',
  ].filter(Boolean);
  return attrs.length ? `<tspan ${attrs.join(' ')}>${esc(s.text)}</tspan>` : esc(s.text);
}

/** Spans laid out in lines of at most `chars` characters, broken between words (a bare URL is a link, as GitHub shows it). */
function wrap(md: string, chars: number): Span[][] {
  const words = spans(md).flatMap((s) => s.text.split(/(?<= )/).map((w) => ({ ...s, text: w, link: s.link || (!s.code && /^https?:\/\//.test(w)) })));
  const lines: Span[][] = [[]];
  let used = 0;
  for (const w of words) {
    if (used + w.text.trimEnd().length > chars && used > 0) {
      lines.push([]);
      used = 0;
    }
    const line = lines.at(-1)!;
    const last = line.at(-1);
    // Words of one style stay one span.
    if (last && last.bold === w.bold && last.code === w.code && last.link === w.link) last.text += w.text;
    else line.push({ ...w });
    used += w.text.length;
  }
  return lines;
}

/** The comment's markdown as an SVG picture of it, in GitHub's light colours. */
export function renderCommentSvg(markdown: string, author = 'github-actions'): string {
  const body: string[] = [];
  let y = 64;
  /** Draws a line of markdown at x, wrapped to the comment's width; y moves down for each extra line. */
  const text = (x: number, md: string, opts: { size?: number; fill?: string; weight?: string; width?: number } = {}) => {
    const size = opts.size ?? 13;
    const rows = wrap(md, Math.floor((opts.width ?? WIDTH - PAD - x) / (CHAR * (size / 13))));
    rows.forEach((row, i) => {
      if (i > 0) y += LINE;
      body.push(
        `<text x="${x}" y="${y}" font-size="${size}"${opts.fill ? ` fill="${opts.fill}"` : ''}${opts.weight ? ` font-weight="${opts.weight}"` : ''}>${row.map((s) => tspan(s, size)).join('')}</text>`,
      );
    });
  };
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) {
      y += LINE / 2;
      continue;
    }
    if (line.startsWith('```mermaid')) {
      const edges: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) {
        const e = /^\s*(\w+)\s*-->\s*(\w+)/.exec(lines[i]!);
        if (e) edges.push(`${e[1]} → ${e[2]}`);
      }
      body.push(`<rect x="${PAD}" y="${y - 15}" width="${WIDTH - 2 * PAD}" height="${LINE + 6}" rx="6" fill="#f6f8fa"/>`);
      text(PAD + 10, `task graph: ${edges.join(' · ') || 'independent tasks'}`, { fill: '#57606a' });
      y += LINE + 10;
      continue;
    }
    if (line.startsWith('|')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i]!.startsWith('|'); i++) {
        if (/^\|[-| ]+\|$/.test(lines[i]!)) continue;
        rows.push(
          lines[i]!.slice(1, -1)
            .split(/(?<!\\)\|/)
            .map((c) => c.trim()),
        );
      }
      i--;
      const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => plain(r[c] ?? '').length)) * CHAR + 16);
      const scale = Math.min(1, (WIDTH - 2 * PAD) / widths.reduce((a, b) => a + b, 0));
      rows.forEach((r, ri) => {
        let x = PAD;
        body.push(
          `<rect x="${PAD}" y="${y - 16}" width="${WIDTH - 2 * PAD}" height="${LINE + 4}" fill="${ri === 0 ? '#f6f8fa' : ri % 2 ? '#ffffff' : '#f6f8fa'}" stroke="#d0d7de"/>`,
        );
        r.forEach((cell, c) => {
          text(x + 8, ri === 0 ? `**${cell}**` : cell, { size: 12, width: 10_000 });
          x += widths[c]! * scale;
        });
        y += LINE + 4;
      });
      y += 6;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const box = /^- \[( |x)\]\s+(.*)$/.exec(line);
    if (heading) {
      text(PAD, heading[2]!, { size: 18, weight: 'bold' });
      y += LINE + 8;
    } else if (line.startsWith('> ')) {
      body.push(`<rect x="${PAD}" y="${y - 15}" width="3" height="${LINE}" fill="#d0d7de"/>`);
      text(PAD + 14, line.slice(2), { fill: '#57606a' });
      y += LINE + 4;
    } else if (box) {
      text(PAD + 6, `${box[1] === 'x' ? '☑' : '☐'}  ${box[2]}`);
      y += LINE;
    } else if (line.startsWith('- ')) {
      text(PAD + 6, `•  ${line.slice(2)}`);
      y += LINE;
    } else if (line.startsWith('<sub>')) {
      text(PAD, line, { size: 11, fill: '#57606a' });
      y += LINE;
    } else {
      text(PAD, line);
      y += LINE;
    }
  }
  const height = y + PAD;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH + 2}" height="${height}" viewBox="0 0 ${WIDTH + 2} ${height}" font-family="-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif" fill="#1f2328">
<rect x="1" y="1" width="${WIDTH}" height="${height - 2}" rx="6" fill="#ffffff" stroke="#d0d7de"/>
<path d="M1 7a6 6 0 0 1 6-6h${WIDTH - 12}a6 6 0 0 1 6 6v31H1z" fill="#f6f8fa"/>
<line x1="1" y1="38" x2="${WIDTH + 1}" y2="38" stroke="#d0d7de"/>
<text x="${PAD}" y="25" font-size="13"><tspan font-weight="600">${esc(author)}</tspan> <tspan fill="#57606a">bot commented (edited)</tspan></text>
${body.join('\n')}
</svg>
`;
}

async function main(): Promise<void> {
  const { loadScenario, runScenario } = await import('../tests/support/scenario/run-scenario');
  const { scenario, dir } = await loadScenario(join(ROOT, 'scenarios', 'demo.yaml'));
  let plan: string | undefined;
  await runScenario(scenario, {
    baseDir: dir,
    hooks: { onCrewComment: ({ body }) => void (body.startsWith('<!-- crew:plan') ? (plan = body) : undefined) },
  });
  if (!plan) throw new Error('the demo scenario left no plan comment');
  // Links point at the offline GitHub's loopback address; on GitHub they are github.com's.
  plan = plan.replace(/http:\/\/127\.0\.0\.1:\d+/g, 'https://github.com');
  mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
  writeFileSync(join(ROOT, PICTURE_MD), `${plan.trimEnd()}\n`);
  writeFileSync(join(ROOT, PICTURE_SVG), renderCommentSvg(plan.trimEnd()));
  console.log(`wrote ${PICTURE_MD} and ${PICTURE_SVG}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
