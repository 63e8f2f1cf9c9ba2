import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitize } from '../../../src/text/sanitize';

/**
 * One golden pair per form of hidden instruction: tests/golden/sanitize/<form>.input.md
 * and what reaches a prompt, <form>.expected.md. Every hidden payload in the inputs says
 * INJECTED, so a leak fails even if someone regenerates the expected files without
 * reading them (CREW_UPDATE_GOLDEN=1 rewrites them).
 */
const dir = join(__dirname, '..', '..', 'golden', 'sanitize');
const forms = readdirSync(dir)
  .filter((f) => f.endsWith('.input.md'))
  .map((f) => f.replace(/\.input\.md$/, ''))
  .sort();

describe('sanitize: golden files, one per form of hidden instruction', () => {
  it('covers every form the threat model names', () => {
    expect(forms).toEqual([
      'attributes',
      'bidi',
      'code-blocks',
      'entities',
      'hidden-elements',
      'html-comments',
      'image-alt',
      'plain',
      'unicode-tags',
      'zero-width',
    ]);
  });

  for (const form of forms) {
    it(form, () => {
      const input = readFileSync(join(dir, `${form}.input.md`), 'utf8');
      const out = sanitize(input);
      const file = join(dir, `${form}.expected.md`);
      if (process.env.CREW_UPDATE_GOLDEN) writeFileSync(file, `${out}\n`);
      expect(out).toBe(readFileSync(file, 'utf8').replace(/\n$/, ''));
      expect(out).not.toMatch(/INJECTED/);
      // Nothing invisible survives, and sanitising again changes nothing.
      expect(out).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/u);
      expect(sanitize(out)).toBe(out);
    });
  }

  it('an ordinary issue passes through unchanged', () => {
    const input = readFileSync(join(dir, 'plain.input.md'), 'utf8');
    expect(sanitize(input)).toBe(input.trim());
  });
});
