import { ExpressionError } from './errors';
import { lookupFunction } from './functions';
import { tokenize, type Token } from './tokenize';

export type BinaryOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

/** `pos` is the 0-based offset of the node's first token in the expression text. */
export type Node =
  | { kind: 'literal'; value: null | boolean | number | string; pos: number }
  | { kind: 'context'; name: string; pos: number }
  | { kind: 'property'; target: Node; name: string; pos: number }
  | { kind: 'index'; target: Node; index: Node; pos: number }
  | { kind: 'filter'; target: Node; pos: number }
  | { kind: 'not'; operand: Node; pos: number }
  | { kind: 'binary'; op: BinaryOp; left: Node; right: Node; pos: number }
  | { kind: 'call'; name: string; args: Node[]; pos: number };

export interface ParsedExpression {
  source: string;
  root: Node;
}

const COMPARISON = new Set(['<', '<=', '>', '>=']);

export function parseExpression(source: string): ParsedExpression {
  const tokens = tokenize(source);
  let at = 0;

  const peek = (): Token => tokens[at] as Token;
  const next = (): Token => tokens[at++] as Token;
  const isPunct = (text: string): boolean => {
    const t = peek();
    return t.kind === 'punct' && t.text === text;
  };
  const unexpected = (token: Token): never => {
    if (token.kind === 'end') {
      throw new ExpressionError(`Unexpected end of expression: '${source.trim()}'`, source, Math.max(1, source.length));
    }
    throw new ExpressionError(`Unexpected symbol: '${token.text}'`, source, token.pos + 1);
  };
  const expect = (text: string): Token => {
    const t = next();
    if (t.kind !== 'punct' || t.text !== text) unexpected(t);
    return t;
  };

  function parseOr(): Node {
    let left = parseAnd();
    while (isPunct('||')) {
      next();
      left = { kind: 'binary', op: '||', left, right: parseAnd(), pos: left.pos };
    }
    return left;
  }

  function parseAnd(): Node {
    let left = parseEquality();
    while (isPunct('&&')) {
      next();
      left = { kind: 'binary', op: '&&', left, right: parseEquality(), pos: left.pos };
    }
    return left;
  }

  function parseEquality(): Node {
    let left = parseComparison();
    while (isPunct('==') || isPunct('!=')) {
      const op = next().text as BinaryOp;
      left = { kind: 'binary', op, left, right: parseComparison(), pos: left.pos };
    }
    return left;
  }

  function parseComparison(): Node {
    let left = parseUnary();
    while (peek().kind === 'punct' && COMPARISON.has(peek().text)) {
      const op = next().text as BinaryOp;
      left = { kind: 'binary', op, left, right: parseUnary(), pos: left.pos };
    }
    return left;
  }

  function parseUnary(): Node {
    if (isPunct('!')) {
      const bang = next();
      return { kind: 'not', operand: parseUnary(), pos: bang.pos };
    }
    return parsePostfix(parsePrimary());
  }

  function parsePostfix(node: Node): Node {
    for (;;) {
      if (isPunct('.')) {
        next();
        const t = next();
        if (t.kind === 'star') node = { kind: 'filter', target: node, pos: node.pos };
        else if (t.kind === 'identifier') node = { kind: 'property', target: node, name: t.text, pos: node.pos };
        else unexpected(t);
      } else if (isPunct('[')) {
        next();
        if (peek().kind === 'star') {
          next();
          node = { kind: 'filter', target: node, pos: node.pos };
        } else {
          node = { kind: 'index', target: node, index: parseOr(), pos: node.pos };
        }
        expect(']');
      } else {
        return node;
      }
    }
  }

  function parsePrimary(): Node {
    const t = next();
    if (t.kind === 'literal') return { kind: 'literal', value: t.value, pos: t.pos };
    if (t.kind === 'punct' && t.text === '(') {
      const inner = parseOr();
      expect(')');
      return inner;
    }
    if (t.kind === 'identifier') {
      if (isPunct('(')) return parseCall(t);
      return { kind: 'context', name: t.text, pos: t.pos };
    }
    return unexpected(t);
  }

  function parseCall(nameToken: Token): Node {
    const fn = lookupFunction(nameToken.text);
    if (fn === undefined) {
      throw new ExpressionError(`Unrecognized function: '${nameToken.text}'`, source, nameToken.pos + 1);
    }
    expect('(');
    const args: Node[] = [];
    if (!isPunct(')')) {
      for (;;) {
        args.push(parseOr());
        if (!isPunct(',')) break;
        next();
      }
    }
    expect(')');
    const where = (problem: string): never => {
      throw new ExpressionError(`${problem}: '${fn.name}'`, source, nameToken.pos + 1);
    };
    if (args.length < fn.minArgs) where(`Too few parameters supplied (expected at least ${fn.minArgs}, got ${args.length})`);
    if (args.length > fn.maxArgs) where(`Too many parameters supplied (expected at most ${fn.maxArgs}, got ${args.length})`);
    if (fn.oddArgs && args.length % 2 === 0) where('Even number of parameters supplied, requires an odd number of parameters');
    return { kind: 'call', name: fn.name, args, pos: nameToken.pos };
  }

  if (source.trim() === '') throw new ExpressionError('Expected an expression but found nothing', source, 1);
  const root = parseOr();
  if (peek().kind !== 'end') unexpected(peek());
  return { source, root };
}

export function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  switch (node.kind) {
    case 'property':
    case 'filter':
      walk(node.target, visit);
      break;
    case 'index':
      walk(node.target, visit);
      walk(node.index, visit);
      break;
    case 'not':
      walk(node.operand, visit);
      break;
    case 'binary':
      walk(node.left, visit);
      walk(node.right, visit);
      break;
    case 'call':
      node.args.forEach((arg) => walk(arg, visit));
      break;
    default:
      break;
  }
}
