/**
 * Regenerates the GitHub reference data that keeps the fake GitHub honest:
 *
 *   tests/support/github/reference/openapi-subset.json
 *   tests/support/github/reference/webhook-examples.json
 *
 * Usage: npm exec -- tsx scripts/update-github-reference.ts [--from <dir>]
 *
 * Without --from, the pinned packages are installed into a temporary directory
 * (the OpenAPI package is ~385 MB unpacked, far too big to be a dependency).
 * With --from, <dir> must already hold node_modules/ with those exact versions.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { endpoints, operationKey, webhookEvents } from '../tests/support/github/reference/endpoints';
import { compileRouteTemplate, matchRouteTemplate, sampleRoutePath } from '../tests/support/github/reference/route-template';

const OPENAPI_PACKAGE = '@octokit/openapi';
const OPENAPI_VERSION = '23.0.2';
const WEBHOOKS_PACKAGE = '@octokit/webhooks-examples';
const WEBHOOKS_VERSION = '7.6.1';

const referenceDir = fileURLToPath(new URL('../tests/support/github/reference/', import.meta.url));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type JsonSchema = boolean | JsonObject;

// Keywords that carry validation meaning for ajv; everything else in an
// OpenAPI schema object is annotation or OpenAPI-only and is dropped.
const SCHEMA_VALUE_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'format',
  'required',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
]);
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties']);
const SCHEMA_LIST_KEYWORDS = new Set(['oneOf', 'anyOf', 'allOf']);
const SCHEMA_SINGLE_KEYWORDS = new Set(['items', 'not', 'additionalProperties']);
const KNOWN_ANNOTATIONS = new Set([
  'nullable',
  'title',
  'description',
  'example',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'externalDocs',
  'xml',
  'discriminator',
]);

const unexpectedKeywords = new Map<string, number>();
const droppedFormats = new Map<string, number>();

// Octokit adds its own formats (e.g. "repo.nwo"); ajv would warn about every
// one at compile time, so keep only those the validator can check.
const formatChecker = new Ajv();
addFormats(formatChecker);
function isCheckableFormat(format: Json): boolean {
  return typeof format === 'string' && format in formatChecker.formats;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function convertSchema(input: Json | undefined, where: string): JsonSchema {
  if (typeof input === 'boolean') return input;
  if (!isObject(input)) throw new Error(`${where}: expected a schema object, got ${JSON.stringify(input)}`);
  const out: JsonObject = {};
  let nullable = input.nullable === true;
  for (const [keyword, value] of Object.entries(input)) {
    if (keyword === 'format' && !isCheckableFormat(value)) {
      droppedFormats.set(String(value), (droppedFormats.get(String(value)) ?? 0) + 1);
    } else if (SCHEMA_VALUE_KEYWORDS.has(keyword)) {
      out[keyword] = value;
    } else if (SCHEMA_MAP_KEYWORDS.has(keyword) && isObject(value)) {
      const map: JsonObject = {};
      for (const [name, sub] of Object.entries(value)) map[name] = convertSchema(sub, `${where}/${keyword}/${name}`);
      out[keyword] = map;
    } else if (SCHEMA_LIST_KEYWORDS.has(keyword) && Array.isArray(value)) {
      // GitHub sometimes marks several oneOf branches nullable, which makes
      // null match more than one branch and so fail oneOf. The intent is
      // "any of these, or null": hoist the null out of the branches.
      const nullableBranches = value.filter((sub) => isObject(sub) && sub.nullable === true).length;
      const hoistNull = keyword === 'oneOf' && nullableBranches > 1;
      if (hoistNull) nullable = true;
      out[keyword] = value.map((sub, index) => convertSchema(hoistNull && isObject(sub) ? { ...sub, nullable: false } : sub, `${where}/${keyword}/${index}`));
    } else if (SCHEMA_SINGLE_KEYWORDS.has(keyword)) {
      out[keyword] = convertSchema(value, `${where}/${keyword}`);
    } else if (!keyword.startsWith('x-') && !KNOWN_ANNOTATIONS.has(keyword)) {
      unexpectedKeywords.set(keyword, (unexpectedKeywords.get(keyword) ?? 0) + 1);
    }
  }
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  // OpenAPI 3.0 spells exclusive bounds as booleans next to minimum/maximum.
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[exclusive] === true) {
      out[exclusive] = out[bound] ?? null;
      delete out[bound];
    } else if (out[exclusive] === false) {
      delete out[exclusive];
    }
  }
  return nullable ? allowNull(out) : out;
}

function acceptsNull(schema: Json | undefined): boolean {
  if (!isObject(schema)) return schema !== false;
  const type = schema.type;
  if (type === undefined) return true;
  return type === 'null' || (Array.isArray(type) && type.includes('null'));
}

function allowNull(schema: JsonObject): JsonSchema {
  const composed = ['oneOf', 'anyOf', 'allOf', 'not'].filter((keyword) => keyword in schema);
  const type = schema.type;
  if (composed.length === 0 && type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    const result: JsonObject = { ...schema, type: types.includes('null') ? types : [...types, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) result.enum = [...schema.enum, null];
    return result;
  }
  // A null branch can be appended to a oneOf only when no existing branch
  // already accepts null; otherwise oneOf would reject null as ambiguous.
  const only = composed[0];
  if (composed.length === 1 && type === undefined && (only === 'oneOf' || only === 'anyOf')) {
    const branches = schema[only];
    if (Array.isArray(branches) && !branches.some(acceptsNull)) {
      return { ...schema, [only]: [...branches, { type: 'null' }] };
    }
  }
  return { anyOf: [{ type: 'null' }, schema] };
}

function sortKeysDeep(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep(value[key] as Json);
  return out;
}

function installPackages(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'github-reference-'));
  console.log(`Installing ${OPENAPI_PACKAGE}@${OPENAPI_VERSION} and ${WEBHOOKS_PACKAGE}@${WEBHOOKS_VERSION} into ${dir}`);
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      `${OPENAPI_PACKAGE}@${OPENAPI_VERSION}`,
      `${WEBHOOKS_PACKAGE}@${WEBHOOKS_VERSION}`,
    ],
    { cwd: dir, stdio: 'inherit' },
  );
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function packageDir(root: string, name: string, version: string): string {
  const dir = path.join(root, 'node_modules', name);
  const manifestPath = path.join(dir, 'package.json');
  if (!existsSync(manifestPath)) throw new Error(`${name} is not installed under ${root}`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version?: string };
  if (manifest.version !== version) {
    throw new Error(`${name} under ${root} is ${manifest.version}, expected the pinned ${version}`);
  }
  return dir;
}

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}

interface OpenApiOperation {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

function buildOpenApiSubset(document: OpenApiDocument): JsonObject {
  const allTemplates = Object.keys(document.paths);
  const operations: Record<string, JsonObject> = {};
  const missing: string[] = [];

  for (const endpoint of endpoints) {
    const key = operationKey(endpoint.method, endpoint.path);
    const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
    if (!operation) {
      missing.push(key);
      continue;
    }

    const parameters = (operation.parameters ?? [])
      .filter((parameter) => parameter.in === 'path' || parameter.in === 'query')
      .map((parameter) => ({
        name: parameter.name,
        in: parameter.in,
        required: parameter.in === 'path' || parameter.required === true,
        schema: convertSchema(parameter.schema ?? {}, `${key} parameter ${parameter.name}`),
      }));

    const responses: JsonObject = {};
    const statuses = Object.keys(operation.responses).sort();
    for (const status of statuses) {
      const content = operation.responses[status]?.content;
      if (!content || Object.keys(content).length === 0) {
        responses[status] = null;
        continue;
      }
      const json = content['application/json'];
      if (!json) throw new Error(`${key} ${status}: no application/json content (${Object.keys(content).join(', ')})`);
      responses[status] = convertSchema(json.schema ?? {}, `${key} ${status}`);
    }

    const entry: JsonObject = { operationId: operation.operationId, parameters, responses };

    if (operation.requestBody) {
      const json = operation.requestBody.content?.['application/json'];
      if (!json) throw new Error(`${key}: request body is not application/json`);
      entry.requestBody = {
        required: operation.requestBody.required === true,
        schema: convertSchema(json.schema ?? {}, `${key} requestBody`),
      };
    }

    // GitHub's router prefers a route whose parameters each fill one segment,
    // so e.g. /branches/main/protection is not get-branch for "main/protection",
    // and a literal segment over a parameter. Record the real routes that beat
    // this one on paths it would also match. A template that only splits one
    // parameter segment into several (compare/{base}...{head}, Octokit's old
    // spelling of compare/{basehead}) describes the same route and beats nothing.
    const integerParams = parameters
      .filter((parameter) => isObject(parameter.schema) && parameter.schema.type === 'integer')
      .map((parameter) => parameter.name);
    const route = compileRouteTemplate(endpoint.path, { slashParams: endpoint.slashParams, integerParams });
    const plainSample = sampleRoutePath(endpoint.path);
    const ownSegments = endpoint.path.split('/');
    const shadowedBy = allTemplates.filter((other) => {
      if (other === endpoint.path) return false;
      const match = matchRouteTemplate(route, sampleRoutePath(other));
      if (!match || matchRouteTemplate(compileRouteTemplate(other), plainSample)) return false;
      if (match.spansSegments) return true;
      // Same number of segments here: the other wins only with a literal where this has a parameter.
      return other.split('/').some((segment, index) => !segment.includes('{') && ownSegments[index]?.includes('{'));
    });
    if (shadowedBy.length > 0) entry.shadowedBy = shadowedBy.sort();

    operations[key] = entry;
  }

  if (missing.length > 0) throw new Error(`Not in the OpenAPI description:\n  ${missing.join('\n  ')}`);

  const sortedOperations: JsonObject = {};
  for (const key of Object.keys(operations).sort()) {
    sortedOperations[key] = sortKeysDeep(operations[key] as JsonObject);
  }
  return {
    source: OPENAPI_PACKAGE,
    version: OPENAPI_VERSION,
    generatedAt: new Date().toISOString(),
    operations: sortedOperations,
  };
}

interface WebhookDefinition {
  name: string;
  examples: Array<{ action?: string } & JsonObject>;
}

function buildWebhookExamples(definitions: WebhookDefinition[]): JsonObject {
  const events: JsonObject = {};
  for (const eventName of webhookEvents) {
    const [name, action] = eventName.split('.');
    const definition = definitions.find((candidate) => candidate.name === name);
    const example = definition?.examples.find((candidate) => action === undefined || candidate.action === action);
    if (!example) throw new Error(`${WEBHOOKS_PACKAGE} has no example for ${eventName}`);
    events[eventName] = example;
  }
  return { source: WEBHOOKS_PACKAGE, version: WEBHOOKS_VERSION, events };
}

function writeJson(fileName: string, value: Json): void {
  const target = path.join(referenceDir, fileName);
  const text = `${JSON.stringify(value, null, 1)}\n`;
  writeFileSync(target, text);
  console.log(`Wrote ${path.relative(process.cwd(), target)} (${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB)`);
}

function main(): void {
  const fromIndex = process.argv.indexOf('--from');
  const from = fromIndex >= 0 ? process.argv[fromIndex + 1] : undefined;
  if (fromIndex >= 0 && !from) throw new Error('--from needs a directory');
  const installed = from ? { dir: path.resolve(from), cleanup: () => {} } : installPackages();
  try {
    const openapiDir = packageDir(installed.dir, OPENAPI_PACKAGE, OPENAPI_VERSION);
    const webhooksDir = packageDir(installed.dir, WEBHOOKS_PACKAGE, WEBHOOKS_VERSION);

    const document = JSON.parse(readFileSync(path.join(openapiDir, 'generated', 'api.github.com.deref.json'), 'utf8')) as OpenApiDocument;
    writeJson('openapi-subset.json', buildOpenApiSubset(document));

    const definitions = JSON.parse(readFileSync(path.join(webhooksDir, 'api.github.com', 'index.json'), 'utf8')) as WebhookDefinition[];
    writeJson('webhook-examples.json', buildWebhookExamples(definitions));

    for (const [format, count] of droppedFormats) console.log(`Dropped format "${format}" (${count}x): ajv-formats cannot check it`);
    if (unexpectedKeywords.size > 0) {
      console.warn('Dropped schema keywords this script does not know; check whether ajv needs them:');
      for (const [keyword, count] of unexpectedKeywords) console.warn(`  ${keyword} (${count}x)`);
    }
  } finally {
    installed.cleanup();
  }
}

main();
