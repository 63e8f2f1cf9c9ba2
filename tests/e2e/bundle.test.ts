import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the bundle crew runs (dist/)', () => {
  it('imports every chunk ncc split off when it starts, before anything else: under `uses: ./` they sit in the workspace a model’s branch replaces later', () => {
    dir = mkdtempSync(join(tmpdir(), 'crew-bundle-'));
    cpSync(join(PROJECT_ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
    const chunks = readdirSync(join(dir, 'dist')).filter((f) => /^\d+\.index\.js$/.test(f));
    expect(chunks.length).toBeGreaterThan(0);
    // Each chunk, replaced by one that says it was loaded (and exports what a chunk exports).
    for (const f of chunks) {
      const id = Number(f.split('.')[0]);
      writeFileSync(
        join(dir, 'dist', f),
        `import { appendFileSync } from 'node:fs';\nappendFileSync(process.env.CREW_CHUNK_MARKER, '${f}\\n');\nexport const id = ${id};\nexport const ids = [${id}];\nexport const modules = {};\n`,
      );
    }
    const marker = join(dir, 'loaded.txt');
    // No inputs and no GitHub environment: crew stops at reading its settings, right after start-up.
    const r = spawnSync(process.execPath, [join(dir, 'dist', 'index.js')], {
      env: { PATH: process.env.PATH, CREW_CHUNK_MARKER: marker },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(existsSync(marker)).toBe(true);
    expect(readFileSync(marker, 'utf8').split('\n').filter(Boolean).sort()).toEqual([...chunks].sort());
  });
});
