import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PICTURE_MD, PICTURE_SVG, renderCommentSvg } from '../../scripts/plan-picture';

const root = join(__dirname, '..', '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

describe("the README's picture of a plan comment", () => {
  it('is the drawing of a plan comment crew wrote in the demo run (npm run plan-picture redraws both)', () => {
    const comment = read(PICTURE_MD);
    expect(comment.startsWith('<!-- crew:plan issue=1 run=1 -->')).toBe(true);
    expect(read(PICTURE_SVG)).toBe(renderCommentSvg(comment.trimEnd()));
  });

  it('draws headings, tables, checkboxes, code spans and links as GitHub shows them, and escapes text', () => {
    const svg = renderCommentSvg(
      '<!-- hidden -->\n### crew · run 1\n\n| Task | Status |\n|---|---|\n| **t1** a < b & c | ✅ success |\n\n- [x] `npm test` passes\n- [ ] [docs](https://x)\n<sub>by @m</sub>',
    );
    expect(svg).not.toContain('hidden');
    expect(svg).toContain('font-size="18" font-weight="bold">crew · run 1</text>');
    expect(svg).toContain('<tspan font-weight="bold">t1</tspan> a &lt; b &amp; c');
    expect(svg).toContain('☑  <tspan font-family="ui-monospace,SFMono-Regular,Menlo,monospace" font-size="12">npm test</tspan> passes');
    expect(svg).toContain('☐  <tspan fill="#0969da">docs</tspan>');
    expect(svg).toContain('fill="#57606a">by @m</text>');
  });
});
