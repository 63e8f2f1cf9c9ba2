import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCompile } from '../../support/github/reference/validator-cache';

const dirs: string[] = [];
async function cacheDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'validator-cache-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function compiler(coerceTypes: boolean) {
  const options = { strict: false, allErrors: true, coerceTypes, code: { source: true } };
  const ajv = new Ajv(options);
  addFormats(ajv);
  return { ajv, options };
}

const schema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    url: { type: 'string', format: 'uri' },
    at: { type: 'string', format: 'date-time' },
    state: { enum: ['open', 'closed'] },
    labels: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  },
  required: ['id', 'url'],
  additionalProperties: false,
};

const samples: unknown[] = [
  { id: 1, url: 'https://example.com/x' },
  { id: '7', url: 'not a url', at: 'yesterday', state: 'merged', extra: true },
  { url: 'https://example.com', labels: [{}, { name: 3 }] },
  'not an object',
];

function outcome(validate: ReturnType<typeof loadOrCompile>, data: unknown) {
  const copy = structuredClone(data);
  const valid = validate(copy);
  // Coercion changes the data in place; a cached validator must do the same.
  return { valid, errors: validate.errors ?? null, data: copy };
}

describe('validators kept on disk between test files', () => {
  it('a validator read back from the cache validates, coerces and reports exactly as a compiled one', async () => {
    const dir = await cacheDir();
    for (const coerceTypes of [false, true]) {
      const { ajv, options } = compiler(coerceTypes);
      const compiled = loadOrCompile(ajv, options, schema, dir);
      // A fresh Ajv that cannot have compiled anything: the second one comes from the file.
      const fresh = compiler(coerceTypes);
      const cached = loadOrCompile(fresh.ajv, fresh.options, schema, dir);
      expect(cached).not.toBe(compiled);
      for (const sample of samples) expect(outcome(cached, sample)).toEqual(outcome(compiled, sample));
    }
    // The two option sets make two modules: coercion is part of a module's name.
    expect((await readdir(dir)).filter((name) => name.endsWith('.cjs'))).toHaveLength(2);
    expect(outcome(loadOrCompile(compiler(true).ajv, compiler(true).options, schema, dir), { id: '7', url: 'https://x.y' }).data).toEqual({
      id: 7,
      url: 'https://x.y',
    });
  });

  it('compiles a changed schema afresh rather than reading an older one', async () => {
    const dir = await cacheDir();
    const { ajv, options } = compiler(false);
    loadOrCompile(ajv, options, schema, dir);
    const stricter = { ...schema, required: ['id', 'url', 'state'] };
    const validate = loadOrCompile(compiler(false).ajv, options, stricter, dir);
    expect(validate({ id: 1, url: 'https://example.com' })).toBe(false);
    expect(validate.errors).toEqual([expect.objectContaining({ keyword: 'required', params: { missingProperty: 'state' } })]);
    expect(await readdir(dir)).toHaveLength(2);
  });

  it('replaces a damaged module instead of trusting it, and leaves no temporary files', async () => {
    const dir = await cacheDir();
    const { ajv, options } = compiler(false);
    loadOrCompile(ajv, options, schema, dir);
    const [name] = await readdir(dir);
    await writeFile(join(dir, name!), 'module.exports = (');
    const validate = loadOrCompile(compiler(false).ajv, options, schema, dir);
    expect(validate({ id: 1, url: 'https://example.com' })).toBe(true);
    expect(validate({ id: 'x', url: 'https://example.com' })).toBe(false);
    expect(await readdir(dir)).toEqual([name]);
    expect(await readFile(join(dir, name!), 'utf8')).toMatch(/^"use strict";module.exports = validate/);
  });
});
