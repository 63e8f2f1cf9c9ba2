import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { GRAPHQL_QUERIES } from '../../../src/adapters/github/forge';
import { githubSchema } from '../../support/github/graphql/schema';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('the GraphQL crew sends', () => {
  it('every query is one of the named documents, and each passes GitHub’s published schema', async () => {
    // A call that passes anything but a named document would escape this check: there is none.
    const calls = files('src').flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/\.graphql(?:<[^(]*>)?\(\s*([^,)]+)/g)].map((m) => m[1]!.trim()));
    expect(calls.length).toBeGreaterThan(0);
    for (const arg of calls) expect(Object.keys(GRAPHQL_QUERIES)).toContain(arg);
    const schema = await githubSchema();
    for (const [name, query] of Object.entries(GRAPHQL_QUERIES)) expect([name, validate(schema, parse(query)).map((e) => e.message)]).toEqual([name, []]);
    // No id is asked for as a 32-bit Int (#31): GitHub's ids are past 2^31.
    expect(Object.values(GRAPHQL_QUERIES).join('\n')).not.toMatch(/\bdatabaseId\b/);
  });
});
