import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layer table (scripts/layers.cjs) that `npm run deps` enforces file by file: here its own shape (every
 * layer names only layers below it, so the folder graph it allows has no cycle and no arrow up) and the
 * folder graph of src/ as the imports draw it, arrow by arrow.
 */
const root = join(__dirname, '..', '..');
const { LAYERS } = createRequire(__filename)(join(root, 'scripts', 'layers.cjs')) as {
  LAYERS: Array<{ name: string; path: string; may: string[] }>;
};

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

const layerOf = (file: string): string[] => LAYERS.filter((l) => new RegExp(l.path).test(file)).map((l) => l.name);

/** Every import of a src/ file that names another src/ file (type-only ones too: they are arrows as well). */
function arrows(): Array<{ from: string; to: string }> {
  const out: Array<{ from: string; to: string }> = [];
  for (const file of sources(join(root, 'src'))) {
    const from = relative(root, file);
    for (const ref of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const target = relative(root, resolve(dirname(file), ref.fileName));
      // A folder's index, or a module named without its extension.
      const to = [`${target}.ts`, join(target, 'index.ts')].find((f) => layerOf(f).length) ?? target;
      out.push({ from, to });
    }
  }
  return out;
}

describe('the layers', () => {
  it('each names only layers below it, so the graph they allow has no cycle and no arrow up', () => {
    const seen = new Set<string>();
    for (const l of LAYERS) {
      expect(
        l.may.filter((n) => !seen.has(n)),
        `${l.name} may import only layers listed before it`,
      ).toEqual([]);
      seen.add(l.name);
    }
    expect(seen.size).toBe(LAYERS.length);
  });

  it('domain imports only domain and text', () => {
    expect(LAYERS.find((l) => l.name === 'domain')!.may).toEqual(['text']);
  });

  it('puts every file of src/ in exactly one layer', () => {
    const wrong = sources(join(root, 'src'))
      .map((f) => relative(root, f))
      .filter((f) => layerOf(f).length !== 1);
    expect(wrong).toEqual([]);
  });

  it('every import between folders of src/ runs down an arrow the table allows', () => {
    const up = arrows().flatMap(({ from, to }) => {
      const [a] = layerOf(from);
      const [b] = layerOf(to);
      if (!a || !b) return [`${from} → ${to}: not in a layer`];
      return a === b || LAYERS.find((l) => l.name === a)!.may.includes(b) ? [] : [`${from} (${a}) → ${to} (${b})`];
    });
    expect(up).toEqual([]);
  });

  it('keeps no known violations', () => {
    expect(JSON.parse(readFileSync(join(root, '.dependency-cruiser-known-violations.json'), 'utf8'))).toEqual([]);
  });
});
