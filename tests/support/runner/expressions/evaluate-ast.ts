import { compare, foldCase, isPrimitive, isTruthy, kindOf, looseEquals, toNumber, toStr } from './coerce';
import { ExpressionError } from './errors';
import { lookupFunction, STATUS_FUNCTIONS } from './functions';
import { walk, type Node, type ParsedExpression } from './parse';
import type { ExprContext, ExprValue, StatusFunctions } from './types';

/** Every context GitHub defines; referencing one the caller did not supply yields null rather than an error. */
const KNOWN_CONTEXTS = new Set(['github', 'env', 'vars', 'secrets', 'inputs', 'needs', 'matrix', 'steps', 'job', 'jobs', 'runner', 'strategy']);

type ExprObject = { [k: string]: ExprValue };

function getProperty(obj: ExprObject | ExprContext, key: string): { found: boolean; value: ExprValue } {
  if (Object.hasOwn(obj, key)) return { found: true, value: obj[key] ?? null };
  const folded = foldCase(key);
  for (const k of Object.keys(obj)) {
    if (foldCase(k) === folded) return { found: true, value: obj[k] ?? null };
  }
  return { found: false, value: null };
}

export function usesStatusFunction(parsed: ParsedExpression): boolean {
  let found = false;
  walk(parsed.root, (node) => {
    if (node.kind === 'call' && STATUS_FUNCTIONS.has(node.name)) found = true;
  });
  return found;
}

/** GitHub rejects unknown named values when the expression is loaded, so even a short-circuited one fails. */
function checkNamedValues(parsed: ParsedExpression, ctx: ExprContext): void {
  walk(parsed.root, (node) => {
    if (node.kind !== 'context') return;
    if (KNOWN_CONTEXTS.has(node.name.toLowerCase()) || getProperty(ctx, node.name).found) return;
    throw new ExpressionError(`Unrecognized named-value: '${node.name}'`, parsed.source, node.pos + 1);
  });
}

export function evaluateParsed(parsed: ParsedExpression, ctx: ExprContext, status: StatusFunctions | undefined): ExprValue {
  checkNamedValues(parsed, ctx);

  // Results of `*` are "filtered arrays": a later `.name` / `[i]` maps over their items instead of indexing
  // the array itself (`labels.*.name`). Tracked by identity so the public result stays a plain array.
  const filtered = new WeakSet<ExprValue[]>();
  const makeFiltered = (items: ExprValue[]): ExprValue[] => {
    filtered.add(items);
    return items;
  };
  const isFiltered = (value: ExprValue): value is ExprValue[] => Array.isArray(value) && filtered.has(value);

  const property = (target: ExprValue, name: string): { found: boolean; value: ExprValue } => {
    if (kindOf(target) !== 'object') return { found: false, value: null };
    return getProperty(target as ExprObject, name);
  };

  const index = (target: ExprValue, key: ExprValue): { found: boolean; value: ExprValue } => {
    const kind = kindOf(target);
    if (kind === 'array' && isPrimitive(key)) {
      const items = target as ExprValue[];
      const n = toNumber(key);
      if (!Number.isFinite(n) || n < 0 || Math.floor(n) >= items.length) return { found: false, value: null };
      return { found: true, value: items[Math.floor(n)] ?? null };
    }
    if (kind === 'object' && isPrimitive(key)) return getProperty(target as ExprObject, toStr(key));
    return { found: false, value: null };
  };

  const collect = (items: ExprValue[], pick: (item: ExprValue) => { found: boolean; value: ExprValue }): ExprValue[] => {
    const out: ExprValue[] = [];
    for (const item of items) {
      const picked = pick(item);
      if (picked.found) out.push(picked.value);
    }
    return makeFiltered(out);
  };

  const spread = (value: ExprValue): ExprValue[] => {
    if (Array.isArray(value)) return [...value];
    if (kindOf(value) === 'object') return Object.values(value as ExprObject).map((v) => v ?? null);
    return [];
  };

  const evalNode = (node: Node): ExprValue => {
    switch (node.kind) {
      case 'literal':
        return node.value;
      case 'context':
        return getProperty(ctx, node.name).value;
      case 'property': {
        const target = evalNode(node.target);
        if (isFiltered(target)) return collect(target, (item) => property(item, node.name));
        return property(target, node.name).value;
      }
      case 'index': {
        const target = evalNode(node.target);
        const key = evalNode(node.index);
        if (isFiltered(target)) return collect(target, (item) => index(item, key));
        return index(target, key).value;
      }
      case 'filter': {
        const target = evalNode(node.target);
        if (isFiltered(target)) return makeFiltered(target.flatMap((item) => spread(item)));
        return makeFiltered(spread(target));
      }
      case 'not':
        return !isTruthy(evalNode(node.operand));
      case 'binary': {
        const left = evalNode(node.left);
        if (node.op === '&&') return isTruthy(left) ? evalNode(node.right) : left;
        if (node.op === '||') return isTruthy(left) ? left : evalNode(node.right);
        const right = evalNode(node.right);
        switch (node.op) {
          case '==':
            return looseEquals(left, right);
          case '!=':
            return !looseEquals(left, right);
          case '<':
            return compare(left, right) === -1;
          // As GitHub's runner defines them (Expressions2 EvaluationResult): equal or less, so an array or
          // object is <= and >= itself (the same instance is equal) though it cannot be ordered.
          case '<=':
            return looseEquals(left, right) || compare(left, right) === -1;
          case '>':
            return compare(left, right) === 1;
          case '>=':
            return looseEquals(left, right) || compare(left, right) === 1;
        }
        return null;
      }
      case 'call': {
        const fn = lookupFunction(node.name);
        if (fn === undefined) throw new ExpressionError(`Unrecognized function: '${node.name}'`, parsed.source, node.pos + 1);
        const args = node.args.map((arg) => evalNode(arg));
        const github = ctx.github as Record<string, ExprValue> | undefined;
        return fn.call(args, {
          status,
          workspace: typeof github?.workspace === 'string' ? github.workspace : undefined,
          fail(detail: string): never {
            throw new ExpressionError(detail, parsed.source, node.pos + 1);
          },
        });
      }
    }
  };

  const result = evalNode(parsed.root);
  return isFiltered(result) ? [...result] : result;
}
