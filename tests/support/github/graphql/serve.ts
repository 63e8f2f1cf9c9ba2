import {
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
} from 'graphql';
import type { FakeGitHub } from '../fake-github';
import type { Principal } from '../model';
import { checkNodeLimit } from './limits';
import { GraphqlModels } from './resolvers';
import { githubSchema } from './schema';

export interface GraphqlAnswer {
  status: number;
  body: unknown;
  /** What the request got wrong against GitHub's schema and limits, or asked of what the fake does not model: each fails the test. */
  violations: string[];
}

/** An error as GitHub sends it: the message, where in the query, where in the answer, and GitHub's `type` when it gives one. */
function shown(e: GraphQLError): Record<string, unknown> {
  const type = e.extensions?.type;
  return {
    ...(typeof type === 'string' ? { type } : {}),
    ...(e.path ? { path: e.path } : {}),
    ...(e.locations ? { locations: e.locations } : {}),
    message: e.message,
  };
}

/**
 * One request to GitHub's GraphQL endpoint, as GitHub answers it: the query parsed and validated
 * against GitHub's published schema and its node limit, the variables coerced to their declared
 * types, then executed over the fake's state (resolvers.ts) by graphql-js. GitHub answers a bad
 * query with 200 and `errors` (no `data`); here it is also a violation, as a request that breaks
 * GitHub's OpenAPI description is on the REST side. A field error while executing (an `Int` that
 * cannot hold the value, NOT_FOUND, FORBIDDEN) is GitHub's ordinary answer to a valid query: `data`
 * with nulls where the errors are, and the errors beside it; not a violation.
 */
export async function answerGraphql(gh: FakeGitHub, principal: Principal, raw: string): Promise<GraphqlAnswer> {
  let request: { query?: unknown; variables?: unknown; operationName?: unknown };
  try {
    request = JSON.parse(raw) as typeof request;
  } catch {
    return {
      status: 400,
      body: { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/graphql' },
      violations: ['GraphQL request body is not JSON'],
    };
  }
  const refuse = (errors: readonly GraphQLError[], what: string): GraphqlAnswer => ({
    status: 200,
    body: { errors: errors.map(shown) },
    violations: [`GraphQL ${what}: ${errors.map((e) => e.message).join('; ')} (query: ${String(request.query).replace(/\s+/g, ' ').slice(0, 300)})`],
  });
  if (typeof request.query !== 'string' || !request.query.trim())
    return refuse([new GraphQLError('A query attribute must be specified and must be a string.')], 'request without a query');
  const variables = request.variables ?? {};
  if (typeof variables !== 'object' || Array.isArray(variables))
    return refuse([new GraphQLError('Variables must be a JSON object.')], 'request with bad variables');
  const operationName = typeof request.operationName === 'string' ? request.operationName : undefined;

  const schema = await githubSchema();
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (e) {
    return refuse([e instanceof GraphQLError ? e : new GraphQLError(String(e))], 'query that does not parse');
  }
  const invalid = validate(schema, document);
  if (invalid.length) return refuse([...invalid], 'query that GitHub’s schema refuses');
  const operation = getOperationAST(document, operationName);
  if (!operation)
    return refuse(
      [new GraphQLError(operationName ? `Unknown operation named "${operationName}".` : 'Must provide operation name if query contains multiple operations.')],
      'request',
    );
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables as Record<string, unknown>);
  if (coerced.errors) return refuse(coerced.errors, 'variables that do not fit their types');
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const limited = checkNodeLimit(schema, operation, fragments, coerced.coerced);
  if (limited.length) return refuse(limited, 'query past GitHub’s node limit');

  const unmodelled = new Set<string>();
  const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, _context, info) => {
    if (source !== null && typeof source === 'object' && Object.hasOwn(source, info.fieldName)) {
      const value = (source as Record<string, unknown>)[info.fieldName];
      return typeof value === 'function' ? (value as (a: unknown) => unknown)(args) : value;
    }
    const where = `${info.parentType.name}.${info.fieldName}`;
    unmodelled.add(where);
    throw new GraphQLError(`the fake GitHub does not model ${where}`);
  };
  const models = new GraphqlModels({ gh, principal });
  const result = await execute({
    schema,
    document,
    operationName,
    variableValues: variables as Record<string, unknown>,
    rootValue: operation.operation === 'query' ? models.query() : {},
    fieldResolver,
  });
  return {
    status: 200,
    body: { ...(result.data === undefined ? {} : { data: result.data }), ...(result.errors?.length ? { errors: result.errors.map(shown) } : {}) },
    violations: unmodelled.size
      ? [`GraphQL fields GitHub serves but the fake does not model (add them to tests/support/github/graphql/resolvers.ts): ${[...unmodelled].join(', ')}`]
      : [],
  };
}
