import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpoints, operationKey, webhookEvents } from '../../support/github/reference/endpoints';
import { referenceVersions, validateRequest, validateResponse } from '../../support/github/reference/index';

interface Subset {
  source: string;
  version: string;
  generatedAt: string;
  operations: Record<string, { operationId: string; parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown> }>;
}

function readReference<T>(fileName: string): T {
  const url = new URL(`../../support/github/reference/${fileName}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as T;
}

const subset = readReference<Subset>('openapi-subset.json');
const webhooks = readReference<{ source: string; version: string; events: Record<string, unknown> }>('webhook-examples.json');

describe('GitHub reference data', () => {
  it('records the pinned package versions', () => {
    expect(subset.source).toBe('@octokit/openapi');
    expect(subset.version).toBe('23.0.2');
    expect(Number.isNaN(Date.parse(subset.generatedAt))).toBe(false);
    expect(webhooks.source).toBe('@octokit/webhooks-examples');
    expect(webhooks.version).toBe('7.6.1');
    expect(referenceVersions).toEqual({ openapi: '23.0.2', webhooks: '7.6.1' });
  });

  it('holds exactly the operations listed in endpoints.ts', () => {
    const expected = endpoints.map((endpoint) => operationKey(endpoint.method, endpoint.path)).sort();
    expect(Object.keys(subset.operations).sort()).toEqual(expected);
  });

  it('holds exactly the webhook events listed in endpoints.ts', () => {
    expect(Object.keys(webhooks.events).sort()).toEqual([...webhookEvents].sort());
  });

  it.each(endpoints.map((endpoint) => operationKey(endpoint.method, endpoint.path)))('%s documents its path parameters and compiles', (key) => {
    const operation = subset.operations[key]!;
    const template = key.slice(key.indexOf(' ') + 1);
    const templateParams = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
    const pathParams = operation.parameters
      .filter((parameter) => parameter.in === 'path')
      .map((parameter) => parameter.name)
      .sort();
    expect(pathParams).toEqual(templateParams);
    expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
    // Compiling every schema here catches anything ajv cannot handle.
    for (const status of Object.keys(operation.responses)) {
      expect(() => validateResponse(key, Number(status), {})).not.toThrow();
    }
    expect(() => validateRequest(key, { query: {}, params: {}, body: {} })).not.toThrow();
  });
});
