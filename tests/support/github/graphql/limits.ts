import {
  getNamedType,
  GraphQLError,
  isInterfaceType,
  isObjectType,
  Kind,
  valueFromAST,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * GitHub's node limit, which GitHub checks as part of schema validation ("Rate limits and query
 * limits for the GraphQL API", GitHub Docs): "Clients must supply a first or last argument on any
 * connection. Values of first and last must be within 1-100. Individual calls cannot request more
 * than 500,000 total nodes." A connection's nodes count once per node of every connection above it
 * (the docs' worked examples: 50 repositories × 10 issues = 500, plus the 50).
 */
export const NODE_LIMIT = 500_000;
const PAGE_LIMIT = 100;

/** A connection field: GitHub's are `…Connection` types paged by first/last. */
function isConnection(field: GraphQLField<unknown, unknown>): boolean {
  return /Connection$/.test(getNamedType(field.type).name) && field.args.some((a) => a.name === 'first') && field.args.some((a) => a.name === 'last');
}

export function checkNodeLimit(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): GraphQLError[] {
  const errors: GraphQLError[] = [];
  let total = 0;
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const walk = (set: SelectionSetNode, parent: GraphQLNamedType, multiplier: number, seen: Set<string>) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const on = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        if (on) walk(sel.selectionSet, on, multiplier, seen);
        continue;
      }
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments[sel.name.value];
        const on = f && schema.getType(f.typeCondition.name.value);
        if (f && on && !seen.has(f.name.value)) walk(f.selectionSet, on, multiplier, new Set([...seen, f.name.value]));
        continue;
      }
      if (!(isObjectType(parent) || isInterfaceType(parent))) continue;
      const field = parent.getFields()[sel.name.value];
      if (!field) continue;
      let below = multiplier;
      if (isConnection(field)) {
        const arg = (name: string): number | undefined => {
          const node = sel.arguments?.find((a) => a.name.value === name);
          const def = field.args.find((a) => a.name === name)!;
          const v = node ? (valueFromAST(node.value, def.type, variables) as number | null | undefined) : undefined;
          return typeof v === 'number' ? v : undefined;
        };
        const name = sel.name.value;
        const [first, last] = [arg('first'), arg('last')];
        if (first === undefined && last === undefined)
          errors.push(new GraphQLError(`You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`, { nodes: sel }));
        for (const [key, n] of [
          ['first', first],
          ['last', last],
        ] as const) {
          if (n === undefined) continue;
          if (n > PAGE_LIMIT)
            errors.push(
              new GraphQLError(`Requesting ${n} records on the \`${name}\` connection exceeds the \`${key}\` limit of ${PAGE_LIMIT} records.`, { nodes: sel }),
            );
          else if (n < 1) errors.push(new GraphQLError(`\`${key}\` on the \`${name}\` connection must be within 1-${PAGE_LIMIT}, not ${n}.`, { nodes: sel }));
        }
        below = multiplier * Math.max(first ?? 0, last ?? 0, 1);
        total += below;
      }
      if (sel.selectionSet) walk(sel.selectionSet, getNamedType(field.type), below, seen);
    }
  };
  if (root) walk(operation.selectionSet, root, 1, new Set());
  if (total > NODE_LIMIT)
    errors.push(
      new GraphQLError(
        `This query requests up to ${total.toLocaleString('en-US')} possible nodes which exceeds the maximum allowed of ${NODE_LIMIT.toLocaleString('en-US')}.`,
      ),
    );
  return errors;
}
