/**
 * Compiled ajv validators, kept on disk between test processes.
 *
 * vitest gives every test file fresh modules, so an in-memory cache alone makes each of the ~60
 * files that start a fake GitHub compile the same OpenAPI schemas again (about 0.6 CPU-seconds a
 * file). ajv can write a compiled validator out as a standalone CommonJS module
 * (https://ajv.js.org/standalone.html): the very code `ajv.compile` would have run, so loading it
 * validates, coerces and reports errors exactly as compiling would. The first process to need a
 * schema compiles it and saves the module; later ones read and run it.
 *
 * A module's name is a hash of everything that shapes its code: the schema, the ajv options, the
 * versions of ajv and ajv-formats and this file's format. A changed schema or upgrade therefore
 * gets a new name; nothing is ever read back stale. Several vitest workers may write the same
 * module at once: each writes its own temporary file and renames it into place, and a rename is
 * atomic, so a reader sees a whole module or none.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';

const require = createRequire(import.meta.url);

/** Bump when the way modules are written changes, so older ones are not read. */
const CACHE_FORMAT = 1;

const versions = `ajv ${(require('ajv/package.json') as { version: string }).version} ajv-formats ${(require('ajv-formats/package.json') as { version: string }).version}`;

/** Under node_modules/.cache, where tools keep what they can rebuild; `npm ci` starts it afresh. */
export const validatorCacheDir = fileURLToPath(new URL('../../../../node_modules/.cache/fake-github-validators/', import.meta.url));

/**
 * Runs a standalone module's code. Its `require`s (ajv's runtime helpers, ajv-formats' formats)
 * resolve from this file, wherever the cache is.
 */
function evaluate(code: string): ValidateFunction {
  const module = { exports: {} as unknown };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  if (typeof module.exports !== 'function') throw new Error('not a standalone validator module');
  return module.exports as ValidateFunction;
}

let warned = false;

function save(dir: string, file: string, code: string): void {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, code);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    // Validation still works (the validator was compiled here); only later processes pay again.
    if (!warned) {
      warned = true;
      process.emitWarning(`fake GitHub could not cache a compiled validator in ${dir} (${String(error)}); each test file will compile its own`);
    }
  }
}

/**
 * The validator for `schema` under `ajv`, loaded from the disk cache or compiled (and saved).
 * `ajv` must be created with `code: { source: true }`; `options` are the options it was created
 * with (they shape the code, so they are part of the name).
 */
export function loadOrCompile(ajv: Ajv, options: object, schema: unknown, dir = validatorCacheDir): ValidateFunction {
  const hash = createHash('sha256')
    .update(JSON.stringify({ format: CACHE_FORMAT, versions, options, schema }))
    .digest('hex');
  const file = join(dir, `${hash}.cjs`);
  let code: string | undefined;
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    // Not cached yet.
  }
  if (code !== undefined) {
    try {
      return evaluate(code);
    } catch {
      // A module that does not load (damaged, or written by hand) is compiled again and replaced.
    }
  }
  const validate = ajv.compile(schema as object);
  save(dir, file, standaloneCode(ajv, validate));
  return validate;
}
