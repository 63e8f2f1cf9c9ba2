import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildClientSchema, GraphQLError, GraphQLScalarType, Kind, type GraphQLSchema, type IntrospectionQuery } from 'graphql';

/**
 * GitHub's GraphQL schema as GitHub publishes it (npm `@octokit/graphql-schema`, its introspection
 * result `schema.json`), built once per process: it is large (about 5 MB), and every fake GitHub in
 * a test file shares it. It is read on the first GraphQL request, not on import, so the many tests
 * that never send GraphQL do not pay for it; and read as a file, since the package's entry builds a
 * second copy of the schema for its own validate function.
 *
 * Scalars: graphql-js's built-ins are GitHub's (`Int` is a signed 32-bit integer, and a value past
 * it is a field error, "Int cannot represent non 32-bit signed integer value: …", the message
 * GitHub answered crew with). `BigInt` is GitHub's answer to ids past 2^31: "Represents
 * non-fractional signed whole numeric values. Since the value may exceed the size of a 32-bit
 * integer, it's encoded as a string" (its description in the schema), so the fake serialises it as
 * a string and refuses anything that is not a whole number.
 */
let built: Promise<GraphQLSchema> | undefined;

export function githubSchema(): Promise<GraphQLSchema> {
  built ??= (async () => {
    const json = JSON.parse(await readFile(schemaFile(), 'utf8')) as IntrospectionQuery | { data: IntrospectionQuery };
    const built = buildClientSchema('data' in json ? json.data : json);
    holdBigInt(built);
    return built;
  })();
  return built;
}

/** The package exports only its entry, so its schema.json is found where Node would look for the package. */
function schemaFile(): string {
  const require = createRequire(import.meta.url);
  for (const dir of require.resolve.paths('@octokit/graphql-schema') ?? []) {
    const file = join(dir, '@octokit', 'graphql-schema', 'schema.json');
    if (existsSync(file)) return file;
  }
  throw new Error('@octokit/graphql-schema is not installed: run npm ci');
}

function bigIntOf(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return value;
  throw new GraphQLError(`BigInt cannot represent a non-integer value: ${String(value)}`);
}

/**
 * buildClientSchema gives a custom scalar pass-through behaviour; the schema's own types are
 * frozen by reference (every field points at this object), so BigInt's rules are set on it in place.
 */
function holdBigInt(schema: GraphQLSchema): void {
  const type = schema.getType('BigInt');
  if (!(type instanceof GraphQLScalarType)) throw new Error('GitHub’s schema has no BigInt scalar');
  Object.assign(type, {
    serialize: bigIntOf,
    parseValue: bigIntOf,
    parseLiteral: (ast: { kind: string; value?: string }) => {
      if (ast.kind !== Kind.INT && ast.kind !== Kind.STRING) throw new GraphQLError(`BigInt cannot represent a non-integer value`);
      return bigIntOf(ast.value);
    },
  });
}
