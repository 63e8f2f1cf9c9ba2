/**
 * Checks requests and responses against GitHub's official OpenAPI description
 * (the subset in openapi-subset.json) and hands out GitHub's webhook examples.
 * Regenerate the data with `npm exec -- tsx scripts/update-github-reference.ts`.
 *
 * Routing: a parameter matches one path segment and is percent-decoded, so
 * Octokit's `/git/ref/heads%2Fmain` gives `ref = "heads/main"`. Parameters
 * listed in `slashParams` (endpoints.ts) also match literal slashes, as GitHub
 * does: git/ref/{ref}, git/matching-refs/{ref}, branches/{branch},
 * contents/{path}, commits/{ref}/check-runs, commits/{ref}/status and
 * compare/{basehead} (`main...claude/issue-1`). A path
 * that a more specific real GitHub route owns (e.g. /branches/main/protection)
 * does not match. Integer parameters only match digits.
 */
import { readFileSync } from 'node:fs';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { endpoints, operationKey } from './endpoints';
import { compileRouteTemplate, matchRouteTemplate, type RouteMatch, type RouteTemplate } from './route-template';
import { loadOrCompile } from './validator-cache';

export interface OperationMatch {
  key: string;
  method: string;
  template: string;
  operationId: string;
  params: Record<string, string>;
}

export interface RequestInput {
  query: Record<string, string>;
  body: unknown;
  params: Record<string, string>;
}

type JsonSchema = boolean | Record<string, unknown>;

interface ReferenceParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

interface ReferenceOperation {
  operationId: string;
  parameters: ReferenceParameter[];
  requestBody?: { required: boolean; schema: JsonSchema };
  responses: Record<string, JsonSchema | null>;
  shadowedBy?: string[];
}

interface OpenApiSubset {
  source: string;
  version: string;
  generatedAt: string;
  operations: Record<string, ReferenceOperation>;
}

interface WebhookExamples {
  source: string;
  version: string;
  events: Record<string, unknown>;
}

function loadJson<T>(fileName: string): T {
  return JSON.parse(readFileSync(new URL(`./${fileName}`, import.meta.url), 'utf8')) as T;
}

const subset = loadJson<OpenApiSubset>('openapi-subset.json');
const webhooks = loadJson<WebhookExamples>('webhook-examples.json');

export const referenceVersions: { openapi: string; webhooks: string } = {
  openapi: subset.version,
  webhooks: webhooks.version,
};

interface ValidatorCompiler {
  ajv: Ajv;
  /** What shapes the compiled code: part of a cached validator's name (validator-cache.ts). */
  options: object;
}

function createAjv(coerceTypes: boolean): ValidatorCompiler {
  // code.source keeps each validator's code, so it can be written out for the next test file.
  const options = { strict: false, allErrors: true, coerceTypes, code: { source: true } };
  const ajv = new Ajv(options);
  // All of ajv-formats' formats (its version is part of a cached validator's name too).
  addFormats(ajv);
  return { ajv, options };
}

const bodyAjv = createAjv(false);
// Path and query values arrive as strings; coercion lets "12" satisfy an integer.
const parameterAjv = createAjv(true);

function operation(key: string): ReferenceOperation {
  const found = subset.operations[key];
  if (!found) throw new Error(`Unknown GitHub operation "${key}": add it to endpoints.ts and regenerate the reference`);
  return found;
}

interface CompiledRoute {
  key: string;
  method: string;
  route: RouteTemplate;
  shadowedBy: RouteTemplate[];
}

let routes: CompiledRoute[] | undefined;

function compiledRoutes(): CompiledRoute[] {
  routes ??= endpoints.map((endpoint) => {
    const key = operationKey(endpoint.method, endpoint.path);
    const spec = operation(key);
    const integerParams = spec.parameters
      .filter((parameter) => typeof parameter.schema === 'object' && parameter.schema.type === 'integer')
      .map((parameter) => parameter.name);
    return {
      key,
      method: endpoint.method,
      route: compileRouteTemplate(endpoint.path, { slashParams: endpoint.slashParams, integerParams }),
      shadowedBy: (spec.shadowedBy ?? []).map((template) => compileRouteTemplate(template)),
    };
  });
  return routes;
}

export function matchOperation(method: string, pathname: string): OperationMatch | undefined {
  const upper = method.toUpperCase();
  const candidates: Array<{ compiled: CompiledRoute; match: RouteMatch }> = [];
  for (const compiled of compiledRoutes()) {
    if (compiled.method !== upper) continue;
    const match = matchRouteTemplate(compiled.route, pathname);
    if (match) candidates.push({ compiled, match });
  }
  candidates.sort(
    (a, b) => Number(a.match.spansSegments) - Number(b.match.spansSegments) || b.compiled.route.literalSegments - a.compiled.route.literalSegments,
  );
  const best = candidates[0];
  if (!best) return undefined;
  if (best.compiled.shadowedBy.some((route) => route.regex.test(pathname))) return undefined;
  return {
    key: best.compiled.key,
    method: upper,
    template: best.compiled.route.template,
    operationId: operation(best.compiled.key).operationId,
    params: best.match.params,
  };
}

const validatorCache = new Map<string, ValidateFunction>();

function cachedValidator(cacheKey: string, compiler: ValidatorCompiler, schema: () => JsonSchema): ValidateFunction {
  let validate = validatorCache.get(cacheKey);
  if (!validate) {
    validate = loadOrCompile(compiler.ajv, compiler.options, schema());
    validatorCache.set(cacheKey, validate);
  }
  return validate;
}

function preview(value: unknown): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function describeError(location: string, root: unknown, error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    const missing = String(params.missingProperty);
    return `${location}${error.instancePath}/${escapePointerToken(missing)}: required property is missing (required)`;
  }
  let pointer = error.instancePath;
  let value = valueAt(root, pointer);
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'additionalProperties') {
    const extra = String(params.additionalProperty);
    pointer += `/${escapePointerToken(extra)}`;
    value = valueAt(root, pointer);
    message = location === 'query' ? 'is not a documented query parameter' : 'is not an allowed property';
  } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    message += `: ${params.allowedValues.map((allowed) => JSON.stringify(allowed)).join(', ')}`;
  }
  return `${location}${pointer}: ${message} (${error.keyword}); got ${preview(value)}`;
}

function describeErrors(location: string, root: unknown, errors: ErrorObject[] | null | undefined): string[] {
  return [...new Set((errors ?? []).map((error) => describeError(location, root, error)))];
}

function isAbsentBody(body: unknown): boolean {
  return body === undefined || body === null || body === '';
}

/**
 * Checks a response body against the documented schema for its status.
 * Statuses documented without content (204, 304, ...) must have no body:
 * undefined, null or '' all count as "no body".
 */
export function validateResponse(key: string, status: number, body: unknown): string[] {
  const { responses } = operation(key);
  const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => candidate in responses);
  if (statusKey === undefined) {
    return [`status ${status} is not documented for ${key} (documented: ${Object.keys(responses).join(', ')})`];
  }
  const schema = responses[statusKey];
  if (schema === null || schema === undefined) {
    return isAbsentBody(body) ? [] : [`body: status ${status} has no content, but a body was sent; got ${preview(body)}`];
  }
  if (body === undefined || body === '') return [`body: status ${status} requires a JSON body, but none was sent`];
  const validate = cachedValidator(`${key} ${statusKey}`, bodyAjv, () => schema);
  return validate(body) ? [] : describeErrors('body', body, validate.errors);
}

function parameterSchema(spec: ReferenceOperation, location: 'path' | 'query'): Record<string, unknown> {
  const parameters = spec.parameters.filter((parameter) => parameter.in === location);
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    // GitHub ignores unknown query parameters, which is exactly how a typo
    // (per-page, stat) would go unnoticed; flag them here instead.
    additionalProperties: location === 'path',
  };
}

/**
 * Checks a request: path parameters (as matched), query parameters (strings,
 * coerced to their documented types), and the JSON body.
 */
export function validateRequest(key: string, input: RequestInput): string[] {
  const spec = operation(key);
  const errors: string[] = [];

  for (const location of ['path', 'query'] as const) {
    const values = { ...(location === 'path' ? input.params : input.query) };
    const validate = cachedValidator(`${key} request ${location}`, parameterAjv, () => parameterSchema(spec, location));
    if (!validate(values)) errors.push(...describeErrors(location, values, validate.errors));
  }

  const { requestBody } = spec;
  if (!requestBody) {
    const { body } = input;
    const empty = isAbsentBody(body) || (typeof body === 'object' && body !== null && Object.keys(body).length === 0);
    if (!empty) errors.push(`body: ${key} takes no request body; got ${preview(input.body)}`);
  } else if (input.body === undefined || input.body === '') {
    if (requestBody.required) errors.push(`body: ${key} requires a JSON request body, but none was sent`);
  } else {
    const validate = cachedValidator(`${key} request body`, bodyAjv, () => requestBody.schema);
    if (!validate(input.body)) errors.push(...describeErrors('body', input.body, validate.errors));
  }
  return errors;
}

/** A deep copy of GitHub's example payload, e.g. webhookExample('issue_comment.created'). */
export function webhookExample(name: string): unknown {
  if (!(name in webhooks.events)) {
    throw new Error(`No webhook example "${name}" (have: ${Object.keys(webhooks.events).join(', ')})`);
  }
  return structuredClone(webhooks.events[name]);
}
